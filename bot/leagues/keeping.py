"""Leagues kept in the store: started, their ended months closed, the month in play shown,
and a league replayed from the stored results to check it. The one part of ``bot.leagues``
that reads and writes (through ``LeagueStore``); what it computes is the pure modules'.

Every function takes the time it acts at (``now``, an aware datetime): the caller's clock,
so that a test sets it. A month is closed by whoever asks first once it has ended (the
bot's month-end task, or anyone looking at the table): ``save_closing`` moves the league's
month on only from the month it closes, so a month is closed once however many processes
try, and a bot that was down through a month's end closes it when it is back.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.leagues.ladder import Closing, month_closing, replay
from bot.leagues.model import Ladder, LeagueRow, LeagueSettings, LeagueTable, Scope
from bot.leagues.months import Month, instant, months_ended
from bot.leagues.store import LeagueStore


def stamp(now: datetime) -> str:
    return instant(now).isoformat(timespec="seconds")


async def start(store: LeagueStore, scope: Scope, game: str, settings: LeagueSettings,
                now: datetime, seeds: Sequence[str] = ()) -> LeagueRow | None:
    """A new league, its first month the one in play at ``now`` (its hands so far count:
    the league is the same whatever the day it was started on); None where it exists."""
    return await store.create_league(scope, game, settings, Month.of(now), seeds, stamp(now))


async def close_due(store: LeagueStore, scope: Scope, game: str,
                    now: datetime) -> list[LeagueTable]:
    """Close every month of a league that had ended by ``now``, oldest first; returns the
    tables of the months this call closed (none where they were closed already)."""
    closed: list[LeagueTable] = []
    while True:
        league = await store.league(scope, game)
        if league is None or not months_ended(league.ladder.month, now):
            return closed
        month = league.ladder.month
        closing = month_closing(league.ladder, league.settings,
                                await store.league_results(scope, game, month, month),
                                scope=scope, game=game)
        if await store.save_closing(scope, game, closing.table, closing.after, stamp(now)):
            closed.append(closing.table)
        # Else another process closed it meanwhile: read the league again.


async def close_all_due(store: LeagueStore,
                        now: datetime) -> list[tuple[Scope, str, LeagueTable]]:
    """Close the ended months of every league (the bot's month-end task)."""
    out: list[tuple[Scope, str, LeagueTable]] = []
    for scope, game in await store.leagues_due(Month.of(now)):
        out += [(scope, game, t) for t in await close_due(store, scope, game, now)]
    return out


async def in_play(store: LeagueStore, scope: Scope, game: str,
                  now: datetime) -> tuple[LeagueRow, Closing] | None:
    """A league and its month in play as it stands at ``now`` (months ended by then closed
    first): the table, and who would go up, down or out if the month ended now."""
    await close_due(store, scope, game, now)
    league = await store.league(scope, game)
    if league is None:
        return None
    month = league.ladder.month
    return league, month_closing(league.ladder, league.settings,
                                 await store.league_results(scope, game, month, month),
                                 scope=scope, game=game)


async def replayed(store: LeagueStore, scope: Scope, game: str,
                   now: datetime) -> tuple[Ladder, list[LeagueTable]] | None:
    """A league rebuilt from its first ladder, the settings each month closed under and
    the stored results: the ladder of the month in play at ``now`` and each ended month's
    table. A kept league is the same (``tests/test_league_store.py``)."""
    league = await store.league(scope, game)
    if league is None:
        return None
    closed = {t.month: t.settings for t in await store.league_tables(scope, game)}
    current = Month.of(now)
    results = (await store.league_results(scope, game, league.first_month, current)
               if league.first_month <= current else [])
    return replay(Ladder(month=league.first_month, players=league.seeds),
                  lambda m: closed.get(m, league.settings), results,
                  scope=scope, game=game, now=now)
