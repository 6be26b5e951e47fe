"""Leagues kept in the store, on both databases (SQLite and a real PostgreSQL), with a clock
the test sets: a league started once, run through a month whose end is closed once however
many ask (and after a restart), a bot that was down through months' ends catching up, and a
league replayed from the stored results being the league that was kept.

The leagues' tables are made here from ``bot.leagues.sql.SCHEMA`` on top of the store's own
schema (the schema step that will bring them is not in ``bot.store.migrations`` yet)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from string import Template
from typing import Any

import pytest
from league_helpers import GAME, GUILD, OTHER_GUILD, Clock, hand, lines

from bot.leagues import BOT_WIDE, Ladder, LeagueSettings, Month
from bot.leagues.keeping import close_all_due, close_due, in_play, replayed, start
from bot.leagues.sql import SCHEMA, LeagueSql
from bot.store import ResultRow
from bot.store.sql import Database

JAN, FEB, MAR, APR = (Month(2026, n) for n in (1, 2, 3, 4))
SMALL = LeagueSettings(division_size=4, movers=1, min_hands=2, drop_after=2)
SEEDS = ("a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4")


class Leagues(LeagueSql):
    def __init__(self, db: Database) -> None:
        self.db = db


async def with_leagues(store: Any) -> Leagues:
    """The store's database with the leagues' tables made, as the schema step will."""
    db: Database = store.db
    async with db.migrating() as sql:
        await db.run_script(sql, Template(SCHEMA).substitute(db.words))
    return Leagues(db)


@pytest.fixture
async def leagues(store: Any) -> Leagues:
    return await with_leagues(store)


class Played:
    """Hands played and stored as the bot stores them: a table, a hand, its result."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.channels = itertools.count(840_000_000_000_000_001)

    async def hand(self, winners: list[str], losers: list[str], at: str, *,
                   guild: int = GUILD, rated: bool = True) -> ResultRow:
        table = await self.store.create_table(
            guild_id=guild, channel_id=next(self.channels), game=GAME, options={},
            opener_id=1, seats=[*winners, *losers], settings={} if rated else {"rated": False})
        hand_id = await self.store.start_hand(table.id, 1, {})
        row = hand(winners, losers, at, guild=guild, hand_id=hand_id)
        await self.store.add_result(row)
        return row


async def test_a_league_is_started_once_and_kept_with_its_settings(leagues: Leagues) -> None:
    clock = Clock("2026-01-10T12:00:00+00:00")
    made = await start(leagues, GUILD, GAME, SMALL, clock.now, SEEDS)
    assert made is not None
    assert await start(leagues, GUILD, GAME, LeagueSettings(), clock.now) is None
    kept = await leagues.league(GUILD, GAME)
    assert kept == made
    assert (kept.first_month, kept.ladder, kept.settings) == (
        JAN, Ladder(month=JAN, players=SEEDS), SMALL)
    await start(leagues, GUILD, "filicau", LeagueSettings(), clock.now)
    await start(leagues, BOT_WIDE, GAME, LeagueSettings(), clock.now)
    assert [row.game for row in await leagues.leagues(GUILD)] == ["filicau", GAME]
    assert (await leagues.league(GUILD, "filicau")).ladder.players == ()

    wider = SMALL.model_copy(update={"division_size": 6})
    assert await leagues.put_league_settings(GUILD, GAME, wider, clock.stamp())
    assert not await leagues.put_league_settings(GUILD, "wendish", wider, clock.stamp())
    assert (await leagues.league(GUILD, GAME)).settings == wider

    assert await leagues.leagues_due(JAN) == []
    assert await leagues.leagues_due(FEB) == [(BOT_WIDE, GAME), (GUILD, "filicau"),
                                              (GUILD, GAME)]
    assert await leagues.end_league(GUILD, "filicau")
    assert not await leagues.end_league(GUILD, "filicau")
    assert await leagues.league(GUILD, "filicau") is None


async def test_a_league_run_through_a_month_closes_it_once(
        make: Callable[[], Any]) -> None:
    store = make()
    await store.open()
    try:
        leagues = await with_leagues(store)
        played = Played(store)
        clock = Clock("2026-01-10T12:00:00+00:00")
        await start(leagues, GUILD, GAME, SMALL, clock.now, SEEDS)
        # Before the league began, in January: its first month counts the month whole.
        await played.hand(["b1", "b2"], ["b3", "b4"], "2026-01-02T20:00:00+00:00")
        await played.hand(["b1", "b3"], ["b2", "b4"], "2026-01-11T20:00:00+00:00")
        await played.hand(["a1", "a2"], ["a3", "b4"], "2026-01-12T20:00:00+00:00")
        await played.hand(["a1", "a3"], ["a2", "b2"], "2026-01-13T20:00:00+00:00")
        # Not for this league: a casual table, another server, December.
        await played.hand(["a4"], ["a1"], "2026-01-14T20:00:00+00:00", rated=False)
        await played.hand(["a4"], ["a1"], "2026-01-14T21:00:00+00:00", guild=OTHER_GUILD)
        await played.hand(["a4"], ["a1"], "2025-12-31T23:59:59.999999+00:00")
        # A newcomer on the last evening, his hand finished in the month's last millisecond.
        await played.hand(["c1", "b4"], ["b2", "b3"], "2026-01-31T23:59:59.999+00:00")

        clock.set("2026-01-31T23:59:59.999999+00:00")
        league, now = await in_play(leagues, GUILD, GAME, clock.now)
        assert league.ladder.month == JAN
        expected = [[("a1", "stay"), ("a2", "stay"), ("a3", "stay"), ("a4", "down")],
                    [("b1", "up"), ("b3", "stay"), ("b2", "stay"), ("b4", "stay")],
                    [("c1", "stay")]]
        assert lines(now.table) == expected
        assert await close_due(leagues, GUILD, GAME, clock.now) == []

        # Midnight: three processes close the month at once; one does.
        clock.set("2026-02-01T00:00:00+00:00")
        runs = await asyncio.gather(*(close_due(leagues, GUILD, GAME, clock.now)
                                      for _ in range(3)))
        assert sorted(len(r) for r in runs) == [0, 0, 1]
        [january] = next(r for r in runs if r)
        assert (january.month, lines(january)) == (JAN, expected)
        assert await close_all_due(leagues, clock.now) == []
        # a4 played no hand of the league's: one idle month.
        after = Ladder(month=FEB, players=("a1", "a2", "a3", "b1", "a4", "b3", "b2", "b4",
                                           "c1"), idle={"a4": 1})
        assert (await leagues.league(GUILD, GAME)).ladder == after
    finally:
        await store.close()

    # A restart: the month is not closed again, and the kept league is its replay.
    store = make()
    await store.open()
    try:
        leagues = Leagues(store.db)
        clock.advance(hours=1)
        assert await close_all_due(leagues, clock.now) == []
        league, now = await in_play(leagues, GUILD, GAME, clock.now)
        assert league.ladder == after and now.table.month == FEB
        assert await leagues.league_tables(GUILD, GAME) == [january]
        assert await leagues.league_table(GUILD, GAME, JAN) == january
        assert await leagues.league_table(GUILD, GAME, FEB) is None
        assert await replayed(leagues, GUILD, GAME, clock.now) == (after, [january])
    finally:
        await store.close()


async def test_a_bot_down_through_months_ends_closes_each_in_turn(leagues: Leagues,
                                                                  store: Any) -> None:
    played = Played(store)
    clock = Clock("2026-01-01T00:00:00+00:00")
    await start(leagues, GUILD, GAME, SMALL, clock.now, SEEDS[:4])
    await start(leagues, BOT_WIDE, GAME, SMALL, clock.now)
    await played.hand(["a1", "a2"], ["a3", "a4"], "2026-01-05T20:00:00+00:00")
    await played.hand(["a4", "a3"], ["a2", "a1"], "2026-01-06T20:00:00+00:00")
    await played.hand(["z1", "z2"], ["z3", "z4"], "2026-01-07T20:00:00+00:00",
                      guild=OTHER_GUILD)
    await played.hand(["a1", "a3"], ["a2", "a4"], "2026-03-05T20:00:00+00:00")

    clock.set("2026-04-02T09:00:00+00:00")
    closed = await close_all_due(leagues, clock.now)
    assert [(scope, str(t.month)) for scope, _, t in closed] == [
        (BOT_WIDE, "2026-01"), (BOT_WIDE, "2026-02"), (BOT_WIDE, "2026-03"),
        (GUILD, "2026-01"), (GUILD, "2026-02"), (GUILD, "2026-03")]
    # The whole bot's league has every server's players; the server's only its own.
    everyone = await leagues.league(BOT_WIDE, GAME)
    # z1-z4: two months without a hand. In March a1 and a3 won their one hand (short of
    # the minimum: nobody moves) and begin April ahead of the others.
    assert everyone.ladder.players == ("a1", "a3", "a2", "a4")
    bot_january = next(t for scope, _, t in closed if scope == BOT_WIDE)
    assert {s.player for d in bot_january.divisions for s in d.standings} == {
        "a1", "a2", "a3", "a4", "z1", "z2", "z3", "z4"}
    server = await leagues.league(GUILD, GAME)
    assert (server.ladder.month, server.ladder.idle) == (APR, {})
    assert await replayed(leagues, GUILD, GAME, clock.now) == (
        server.ladder, await leagues.league_tables(GUILD, GAME))
    assert await replayed(leagues, BOT_WIDE, GAME, clock.now) == (
        everyone.ladder, await leagues.league_tables(BOT_WIDE, GAME))


async def test_a_months_results_as_the_league_reads_them(leagues: Leagues,
                                                         store: Any) -> None:
    played = Played(store)
    inside = await played.hand(["1"], ["2"], "2026-02-10T10:00:00+00:00")
    casual = await played.hand(["1"], ["2"], "2026-02-11T10:00:00+00:00", rated=False)
    elsewhere = await played.hand(["1"], ["2"], "2026-02-12T10:00:00+00:00",
                                  guild=OTHER_GUILD)
    # A day either side comes too (an offset other than UTC's sorts by its own day).
    early = await played.hand(["1"], ["2"], "2026-01-31T12:00:00+00:00")
    await played.hand(["1"], ["2"], "2026-01-20T12:00:00+00:00")
    await played.hand(["1"], ["2"], "2026-03-05T12:00:00+00:00")
    got = await leagues.league_results(GUILD, GAME, FEB, FEB)
    assert [(r.hand_id, ok) for r, ok in got] == [
        (early.hand_id, True), (inside.hand_id, True), (casual.hand_id, False)]
    assert got[1][0] == inside
    wide = await leagues.league_results(BOT_WIDE, GAME, FEB, FEB)
    assert elsewhere.hand_id in {r.hand_id for r, _ in wide}
    assert len(await leagues.league_results(GUILD, GAME, JAN, MAR)) == 5
    assert await leagues.league_results(GUILD, "wendish", FEB, FEB) == []


async def test_a_closing_must_lead_to_the_next_month(leagues: Leagues) -> None:
    clock = Clock("2026-01-10T12:00:00+00:00")
    await start(leagues, GUILD, GAME, SMALL, clock.now, SEEDS)
    league, now = await in_play(leagues, GUILD, GAME, clock.now)
    with pytest.raises(ValueError, match="followed by"):
        await leagues.save_closing(GUILD, GAME, now.table, Ladder(month=MAR), clock.stamp())
    # A month not in play is not closed (nothing written).
    assert not await leagues.save_closing(
        GUILD, GAME, now.table.model_copy(update={"month": FEB}), Ladder(month=MAR),
        clock.stamp())
    assert await leagues.league(GUILD, GAME) == league
