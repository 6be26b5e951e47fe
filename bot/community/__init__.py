"""Finding a game and holding tournaments (issue 37): the bot's one service for them.

``bot.community`` (``Community``, made by the bot beside its registry of tables) holds what
lives as long as the process: the direct messages and their budget (``bot.direct``), the
tournaments (``bot.tournaments``), and the surfaces every table gets besides its messages
(reminders, calls for one more; a tournament table's own). The cogs ``cogs/play.py`` and
``cogs/tournaments.py`` parse and answer; the tables themselves keep their own rules
(``TableSession``: seats held for the invited, a tournament's seats and deals).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from bot.community.surfaces import CallSurface, ReminderSurface
from bot.direct import DirectMessages
from bot.tables import OpenTable
from bot.tournaments.manager import Tournaments
from bot.tournaments.surface import surface_for

if TYPE_CHECKING:
    from bot.client import FilicauBot


class Community:
    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot
        self.dms = DirectMessages(bot, bot.rate_share)
        self.tournaments = Tournaments(bot)
        makers = bot.tables.surface_makers
        makers.append(lambda table: ReminderSurface(bot, table, self.dms))
        makers.append(self._call_surface)
        makers.append(lambda table: surface_for(self.tournaments, table))

    def _call_surface(self, table: OpenTable) -> CallSurface | None:
        return None if table.session.plan is not None else CallSurface(self.bot, table)

    async def restore(self) -> None:
        """After the tables are restored: the tournaments go on."""
        await self.tournaments.restore()

    def stop(self) -> list[asyncio.Task[None]]:
        return self.tournaments.stop()
