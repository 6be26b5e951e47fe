"""The month's end for every league: ``MonthEnd`` closes each month that has ended by its
clock and tells whoever listens (the leagues' cog posts nothing by itself: the table is there
for anyone who looks).

The clock is a function the caller gives (``utc_now`` in the bot, a clock the test sets in
the tests), and ``tick`` does one round: the test calls it, the bot's loop calls it and then
waits ``wait`` seconds, until the next month begins or at most ``CHECK_SECONDS`` (a clock
set back or a bot that was down is caught up within the hour). Closing is once only however
many processes tick (``bot.leagues.keeping.close_due``).

>>> from bot.leagues.months import instant
>>> MonthEnd(None, lambda: instant("2026-01-31T23:59:30+00:00")).wait()  # type: ignore[arg-type]
30.0
>>> MonthEnd(None, lambda: instant("2026-01-10T00:00:00+00:00")).wait()  # type: ignore[arg-type]
3600.0
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Final

from bot.leagues.keeping import close_all_due
from bot.leagues.model import LeagueTable, Scope
from bot.leagues.months import Month
from bot.leagues.store import LeagueStore

log = logging.getLogger(__name__)

#: The longest the loop waits between two rounds.
CHECK_SECONDS: Final = 3600.0

Clock = Callable[[], datetime]
#: Told of each month closed: whose league, its game, the month's final table.
Closed = Callable[[Scope, str, LeagueTable], Awaitable[None]]


def utc_now() -> datetime:
    return datetime.now(UTC)


class MonthEnd:
    """Every league's month-end round, on ``clock``."""

    def __init__(self, store: LeagueStore, clock: Clock = utc_now,
                 closed: Closed | None = None) -> None:
        self.store = store
        self.clock = clock
        self.closed = closed

    async def tick(self) -> list[tuple[Scope, str, LeagueTable]]:
        """Close every league's months that ended by the clock's now; returns what this
        round closed (nothing where another process was first)."""
        done = await close_all_due(self.store, self.clock())
        if self.closed is not None:
            for scope, game, table in done:
                await self.closed(scope, game, table)
        return done

    def wait(self) -> float:
        """Seconds until the next round: when the month in play ends, at most an hour."""
        now = self.clock()
        return max(1.0, min(CHECK_SECONDS, (Month.of(now).end - now).total_seconds()))

    async def run(self) -> None:
        """The bot's loop (a task its cog starts and cancels)."""
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("closing the leagues' months failed; trying again later")
            await asyncio.sleep(self.wait())
