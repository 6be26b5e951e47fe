"""Who a table of one server may invite: its members who see the table's channel.

Discord's user option lets a command name any user by id, also one who is in none of this
server's channels (Discord then resolves a user, not a member). Holding a seat for them and
mentioning them in a channel they cannot see helps nobody and tells the channel about a
stranger: ``/table new`` refuses such an invitation as a whole, naming who cannot come.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord


def strangers(users: Sequence[discord.abc.User],
              interaction: discord.Interaction[Any]) -> list[discord.abc.User]:
    """The invited who are not members of the interaction's server, or who cannot see its
    channel (as far as the bot knows: a channel it has not seen counts as visible)."""
    channel = interaction.channel
    sees = (channel.permissions_for
            if isinstance(channel, discord.abc.GuildChannel | discord.Thread) else None)
    return [user for user in users
            if not isinstance(user, discord.Member) or user.guild.id != interaction.guild_id
            or (sees is not None and not sees(user).view_channel)]
