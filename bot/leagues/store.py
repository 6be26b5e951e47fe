"""What a league keeps in the store: ``LeagueStore``, the methods the league's keeping
(``bot.leagues.keeping``) reads and writes through. ``bot.leagues.sql`` implements it for both
databases."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.leagues.model import Ladder, LeagueRow, LeagueSettings, LeagueTable, Scope
from bot.leagues.months import Month
from bot.store import ResultRow


class LeagueStore(Protocol):
    async def create_league(self, scope: Scope, game: str, settings: LeagueSettings,
                            first_month: Month, seeds: Sequence[str],
                            created_at: str) -> LeagueRow | None:
        """A new league of ``game`` for ``scope``, its first month's ladder ``seeds`` (best
        first); None, and nothing written, where that league exists already."""
        ...

    async def league(self, scope: Scope, game: str) -> LeagueRow | None: ...

    async def leagues(self, scope: Scope) -> list[LeagueRow]:
        """A scope's leagues, by game."""
        ...

    async def leagues_due(self, month: Month) -> list[tuple[Scope, str]]:
        """The leagues (scope, game) whose month in play is before ``month``: those to
        close once ``month`` has begun."""
        ...

    async def put_league_settings(self, scope: Scope, game: str, settings: LeagueSettings,
                                  updated_at: str) -> bool:
        """New settings for a league (False: no such league). They hold from the month in
        play on: it closes under them."""
        ...

    async def save_closing(self, scope: Scope, game: str, table: LeagueTable, after: Ladder,
                           closed_at: str) -> bool:
        """A month's end, all at once: its final table kept, the league's month in play
        moved to ``after.month`` with ``after``'s ladder. Only while ``table.month`` is
        still the league's month in play: False, with nothing written, where it was closed
        already (a second run, another process)."""
        ...

    async def league_tables(self, scope: Scope, game: str) -> list[LeagueTable]:
        """The final table of every month the league closed, oldest first."""
        ...

    async def league_table(self, scope: Scope, game: str, month: Month) -> LeagueTable | None:
        """The final table of a closed month."""
        ...

    async def end_league(self, scope: Scope, game: str) -> bool:
        """Forget a league and its months (False: there was none)."""
        ...

    async def league_results(self, scope: Scope, game: str, first: Month,
                             last: Month) -> list[tuple[ResultRow, bool]]:
        """The stored results of ``game`` in ``scope`` finished from ``first`` to ``last``
        (both included), by time, each with whether it moves ratings (as
        ``Store.rated_results``); a few from the days around may come too
        (``bot.leagues.points`` keeps only the month's)."""
        ...
