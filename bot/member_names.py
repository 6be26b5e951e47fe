"""Members' names as Discord shows them in a server, for the places that cannot show a mention:
the top-ten picture and the standings' table (a code block shows ``<@id>`` as typed).

The bot has no member cache: a name not in Discord's is looked up (one REST call) and kept
for a while, and the names kept are bounded, so that the bot's memory stays flat over months.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.names import mention
from bot.ratings.model import is_computer_player
from bot.texts import t

log = logging.getLogger(__name__)

#: How long a member's display name is kept (one REST call a member otherwise).
NAME_SECONDS = 600.0
#: Names kept before the stale ones are dropped.
NAMES_KEPT = 1000


class DisplayNames:
    """Display names of members, looked up once a while per server and member."""

    def __init__(self) -> None:
        #: (server, member) -> (display name or None if not a member, when it was looked up).
        self._names: dict[tuple[int, str], tuple[str | None, float]] = {}

    async def name(self, guild: discord.Guild, player: str) -> str:
        """A player as Discord shows them in this server: a member's display name (their
        server nickname, else their global name, else their username); a computer by its
        level, as the text names it; somebody who left, as such."""
        if is_computer_player(player) or not player.isdigit():
            return mention(player)
        key = (guild.id, player)
        clock = asyncio.get_running_loop().time()
        known = self._names.get(key)
        if known is None or clock - known[1] > NAME_SECONDS:
            member = guild.get_member(int(player))
            if member is None:
                try:
                    member = await guild.fetch_member(int(player))
                except discord.NotFound:
                    member = None
                except discord.HTTPException:
                    log.warning("no name for member %s of server %s", player, guild.id)
                    return t("chart.unknown_member")
            known = (None if member is None else member.display_name, clock)
            self._names[key] = known
            if len(self._names) > NAMES_KEPT:
                self._names = {k: v for k, v in self._names.items()
                               if clock - v[1] <= NAME_SECONDS}
        return known[0] or t("chart.unknown_member")
