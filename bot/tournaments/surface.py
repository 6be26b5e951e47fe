"""A tournament table's own surface (``bot.courier``): it closes the table once the round's
hands are played, and tells the tournament when the table closes, for whatever reason."""

from __future__ import annotations

from bot.courier import QuietSurface
from bot.session import Outcome
from bot.tables import OpenTable
from bot.tournaments.manager import TABLE_DONE, Tournaments


class TournamentSurface(QuietSurface):
    def __init__(self, tournaments: Tournaments, table: OpenTable) -> None:
        self.tournaments = tournaments
        self.table = table

    async def changed(self, outcome: Outcome | None) -> None:
        # After the other surfaces were told (the result is posted): the round is played.
        if outcome is not None and outcome.result is not None \
                and self.tournaments.played_out(self.table):
            await self.table.runner.close(TABLE_DONE)

    async def closed(self, key: str) -> None:
        self.tournaments.spawn(self.tournaments.table_closed(self.table.id))



def surface_for(tournaments: Tournaments, table: OpenTable) -> TournamentSurface | None:
    return TournamentSurface(tournaments, table) if table.session.plan is not None else None
