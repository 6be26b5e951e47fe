"""Finding a game and holding tournaments (issue 37): the bot's one service for them.

``bot.community`` (``Community``, made by the bot beside its registry of tables) holds what
lives as long as the process: the direct messages and their budget (``bot.direct``), the
invitations (``invitations``), the tournaments (``bot.tournaments``), and the surfaces every
table gets besides its messages (``surfaces``: reminders, calls for one more; a tournament
table's own), which the bot hands to the registry for each table. The cogs
``cogs/play.py`` and ``cogs/tournaments.py`` parse and answer; the tables themselves keep
their own rules (``TableSession``: seats held for the invited, a tournament's seats and
deals) and change only through the table service (``bot.service``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from bot.community.invitations import Invitations
from bot.community.surfaces import CallSurface, ReminderSurface
from bot.courier import Surface
from bot.delivery import Sender
from bot.direct import DirectMessages
from bot.open_tables import OpenTable, OpenTables
from bot.servers import Servers
from bot.service import TableService
from bot.store import Store
from bot.tournaments.manager import Tournaments
from bot.tournaments.surface import TournamentSurface


class Community:
    """Direct messages, invitations, tournaments, and the community's surfaces of a table.

    ``share``: this process's share of the bot's request budget; ``ready``: returns once the
    bot is connected."""

    def __init__(self, *, store: Store, servers: Servers, sender: Sender,
                 tables: OpenTables, service: TableService,
                 ready: Callable[[], Awaitable[Any]], share: float) -> None:
        self.store = store
        self.servers = servers
        self.dms = DirectMessages(sender, share)
        self.invitations = Invitations(store, servers, self.dms, service)
        self.tournaments = Tournaments(store=store, servers=servers, sender=sender,
                                       tables=tables, service=service, ready=ready)
        self.service = service

    def surfaces(self, table: OpenTable) -> list[Surface]:
        """A table's surfaces besides its messages and pages: reminders for every table, a
        call for one more for an ordinary one, its tournament's for a tournament's."""
        out: list[Surface] = [ReminderSurface(self.store, table, self.dms)]
        if table.session.plan is None:
            out.append(CallSurface(self.store, self.servers, table, table.discord.delivery))
        else:
            out.append(TournamentSurface(self.tournaments, self.service, table))
        return out

    async def restore(self) -> None:
        """After the tables are restored: the tournaments go on."""
        await self.tournaments.restore()

    def stop(self) -> list[asyncio.Task[None]]:
        return self.tournaments.stop()
