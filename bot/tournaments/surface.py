"""A tournament table's own surface (``bot.courier``): it ends the table through the table
service once the round's hands are played, and tells the tournament when the table closes,
for whatever reason."""

from __future__ import annotations

from bot.courier import Change, QuietSurface
from bot.open_tables import OpenTable
from bot.service import TableService
from bot.tournaments.manager import TABLE_DONE, Tournaments


class TournamentSurface(QuietSurface):
    def __init__(self, tournaments: Tournaments, service: TableService,
                 table: OpenTable) -> None:
        self.tournaments = tournaments
        self.service = service
        self.table = table

    async def changed(self, change: Change) -> None:
        # After the other surfaces were told (the result is posted): the round is played.
        if change.finished and self.tournaments.played_out(self.table):
            await self.service.end(self.table, TABLE_DONE)

    async def closed(self, key: str) -> None:
        self.tournaments.spawn(self.tournaments.table_closed(self.table.id))
