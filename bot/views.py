"""Components to send that nothing in the bot listens on.

Every click reaches a cog's one listener (the tables cog's, or the listener of the cog that
drew it), which reads the component's ``custom_id`` (``bot.protocol``); a view is stopped
before it is sent, so discord.py keeps no copy of it per message sent (``bot.render`` makes
the table's views the same way).
"""

from __future__ import annotations

from typing import Any

import discord


def stopped(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view
