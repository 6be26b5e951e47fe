"""Members' names as Discord shows them in a server, looked up once in a while and kept.

The bot asks Discord for no member list (only the ``guilds`` intent), so a name is one REST
call; the leaderboard's picture and the web pages name players, so names are kept for a while,
and the oldest dropped, so that memory stays flat over months.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.names import mention
from bot.seats import is_computer
from bot.texts import t

log = logging.getLogger(__name__)

#: How long a member's display name is kept.
NAME_SECONDS = 600.0
#: Names kept before the stale ones are dropped.
NAMES_KEPT = 1000


class MemberNames:
    """The display names of a bot's members, server by server."""

    def __init__(self) -> None:
        #: (server, member) -> (display name or None if not a member, when it was looked up).
        self.kept: dict[tuple[int, str], tuple[str | None, float]] = {}

    async def display_name(self, guild: discord.Guild, player: str) -> str:
        """A player as Discord shows them in this server: a member's display name (their
        server nickname, else their global name, else their username); a computer by its
        level, as the text names it."""
        if is_computer(player) or not player.isdigit():
            return mention(player)
        key = (guild.id, player)
        clock = asyncio.get_running_loop().time()
        known = self.kept.get(key)
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
            self.kept[key] = known
            if len(self.kept) > NAMES_KEPT:
                self.kept = {k: v for k, v in self.kept.items() if clock - v[1] <= NAME_SECONDS}
        return known[0] or t("chart.unknown_member")
