"""Ratings kept in the store: moved after every rated hand, rebuilt from the results.

The tests use only the ``Store`` interface, on both backends (the query-plan test reads
SQLite's)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bot_fixtures import CPU, HUMANS, OPENER, first_legal, seat_all, started_table

from bot import ratings
from bot.ratings.__main__ import main as ratings_main
from bot.ratings.model import placings
from bot.seats import is_computer
from bot.session import TableSession
from bot.store import RATINGS_VERSION, ResultRow, SqliteStore, Store, migrations

GUILD = 1


# ``make`` and ``store``: a store of each backend, SQLite and a real PostgreSQL (conftest.py).


class Tables:
    """Tables and hands in a store, and results of Filicău hands at them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.channel = 100
        self.hands = 0

    async def table(self, seats: list[str], *, rated: bool | None = None,
                    guild: int = GUILD) -> int:
        self.channel += 1
        settings: dict[str, Any] = {} if rated is None else {"rated": rated}
        row = await self.store.create_table(
            guild_id=guild, channel_id=self.channel, game="filicau", options={},
            opener_id=1, seats=list(seats), settings=settings)
        return row.id

    async def hand(self, table_id: int, seats: list[str], winner: str | None, second: int,
                   *, guild: int = GUILD, record: bool = True, rated: bool = True) -> ResultRow:
        """A hand at ``table_id`` that makes ``winner`` ("a": seats 0 and 2) masters from
        even, finished ``second`` seconds into the day."""
        self.hands += 1
        hand_id = await self.store.start_hand(table_id, self.hands, {})
        members = [m if not m.startswith("cpu:") else f"{m}@{'ab'[i % 2]}"
                   for i, m in enumerate(seats)]
        a, b = members[0::2], members[1::2]
        row = ResultRow(
            hand_id=hand_id, guild_id=guild, game="filicau", team_a=seats[0::2],
            team_b=seats[1::2], points_a=6 if winner == "a" else 2 if winner else 4,
            points_b=2 if winner == "a" else 6 if winner else 4, masters_before=None,
            masters_after=winner,  # type: ignore[arg-type]
            event="masters" if winner else "no_change", event_team=None,
            finished_at=f"2026-01-01T10:{second // 60:02d}:{second % 60:02d}+00:00",
            members=members, masters_after_members=a if winner == "a" else b if winner else [],
        )
        await self.store.add_result(row)
        if record:
            await ratings.record(self.store, row, rated=rated)
        return row


PEOPLE = ["11", "12", "13", "14"]
MIXED = ["21", "cpu:normal", "22", "cpu:easy"]


async def snapshot(store: Store, guild: int = GUILD) -> tuple[Any, ...]:
    seasons = [1, *(s.number for s in await store.seasons(guild))]
    out: list[Any] = []
    for game in ("filicau",):
        for season in seasons:
            out.append(await store.ratings(guild, game, season))
            out.append(await store.rating_history(guild, game, season))
    return tuple(out)


async def test_a_rated_hand_moves_its_players_ratings(store: Store) -> None:
    t = Tables(store)
    table = await t.table(PEOPLE)
    await t.hand(table, PEOPLE, "a", 1)
    rows = {r.player: r for r in await store.ratings(GUILD, "filicau", 1)}
    assert set(rows) == set(PEOPLE)
    assert rows["11"].mu > 25 > rows["12"].mu
    assert all(r.hands == 1 for r in rows.values())
    history = await store.rating_history(GUILD, "filicau", 1, "11")
    assert [(h.mu_before, h.mu) for h in history] == [(25.0, rows["11"].mu)]


async def test_computers_are_rated_by_level_from_their_calibrated_start(store: Store) -> None:
    t = Tables(store)
    table = await t.table(MIXED)
    await t.hand(table, MIXED, "b", 1)
    rows = {r.player: r for r in await store.ratings(GUILD, "filicau", 1)}
    assert set(rows) == {"21", "22", "cpu:normal", "cpu:easy"}
    normal = ratings.prior("filicau", "cpu:normal")
    change = (await store.rating_history(GUILD, "filicau", 1, "cpu:normal"))[0]
    assert (change.mu_before, change.sigma_before) == (normal.mu, normal.sigma)
    assert rows["cpu:normal"].mu > normal.mu
    assert rows["21"].mu < 25


async def test_a_casual_table_moves_no_rating(store: Store) -> None:
    t = Tables(store)
    table = await t.table(PEOPLE, rated=False)
    await t.hand(table, PEOPLE, "a", 1, rated=False)
    assert await store.ratings(GUILD, "filicau", 1) == []
    await ratings.rebuild(store)
    assert await store.ratings(GUILD, "filicau", 1) == []


async def test_a_result_stored_again_is_rated_once(store: Store) -> None:
    t = Tables(store)
    table = await t.table(PEOPLE)
    row = await t.hand(table, PEOPLE, "a", 1)
    before = await snapshot(store)
    await ratings.record(store, row)
    assert await snapshot(store) == before


async def test_rebuild_gives_exactly_the_stored_ratings(store: Store) -> None:
    """Hands at three tables (one casual), the same computer level at two of them, a hand
    that finishes before one already rated, and a new season half-way."""
    t = Tables(store)
    people, mixed = await t.table(PEOPLE), await t.table(MIXED)
    casual = await t.table(["31", "32", "33", "34"], rated=False)
    other = ["21", "cpu:normal", "12", "cpu:normal"]
    more = await t.table(other)
    second = 0
    for i in range(6):
        second += 1
        await t.hand(people, PEOPLE, "ab"[i % 2], second)
        second += 1
        await t.hand(mixed, MIXED, "a" if i % 3 else None, second)
        second += 1
        await t.hand(casual, ["31", "32", "33", "34"], "a", second, rated=False)
        second += 1
        await t.hand(more, other, "b", second)
    # A hand that finished earlier than the last one rated comes in late.
    await t.hand(people, PEOPLE, "b", 2)
    await store.start_season(GUILD, f"2026-01-01T10:00:{second + 1:02d}+00:00")
    for i in range(3):
        second += 1
        await t.hand(mixed, MIXED, "ab"[i % 2], second)
    live = await snapshot(store)
    assert len(live[2]) == 4  # season 2: the four players of the mixed table
    assert await ratings.rebuild(store) == 6 * 3 + 1 + 3
    assert await snapshot(store) == live


async def test_a_late_result_is_rated_in_the_order_hands_finished(store: Store) -> None:
    t = Tables(store)
    table = await t.table(PEOPLE)
    await t.hand(table, PEOPLE, "a", 10)
    await t.hand(table, PEOPLE, "b", 5)
    history = await store.rating_history(GUILD, "filicau", 1, "11")
    # The hand that finished at second 5 (lost) came first, then the win.
    assert history[0].mu < history[0].mu_before and history[1].mu > history[1].mu_before


async def test_a_new_season_starts_everyone_fresh_and_keeps_the_old_one(store: Store) -> None:
    t = Tables(store)
    table = await t.table(PEOPLE)
    await t.hand(table, PEOPLE, "a", 1)
    old = await store.ratings(GUILD, "filicau", 1)
    season = await store.start_season(GUILD, "2026-01-01T10:00:05+00:00")
    assert season.number == 2
    await t.hand(table, PEOPLE, "b", 6)
    assert await store.ratings(GUILD, "filicau", 1) == old
    new = {r.player: r for r in await store.ratings(GUILD, "filicau", 2)}
    assert new["12"].hands == 1 and new["12"].mu > 25 > new["11"].mu
    assert (await store.start_season(GUILD, "2026-01-02T00:00:00+00:00")).number == 3


async def test_servers_are_rated_apart(store: Store) -> None:
    t = Tables(store)
    table = await t.table(PEOPLE, guild=2)
    await t.hand(table, PEOPLE, "a", 1, guild=2)
    assert await store.ratings(GUILD, "filicau", 1) == []
    assert len(await store.ratings(2, "filicau", 1)) == 4


# -- a seat handed to the computer mid-hand ---------------------------------------------------


async def play(session: TableSession, actions: int | None = None) -> None:
    """Play on (the hand's end, or ``actions`` actions): people by their first legal
    action, computers and handed-over seats by the computer."""
    hand = session.hand
    assert hand is not None
    for _ in itertools.count() if actions is None else range(actions):
        if hand.finished:
            return
        seat = hand.actors()[0]
        member = session.seats[seat]
        if is_computer(member) or seat in session.autoplay:
            assert await session.computer_turn() is not None
        else:
            assert member is not None
            await session.act(int(member), first_legal(hand, seat),
                              hand_number=session.hand_number, trick=session.trick_number)


async def test_a_hand_handed_to_the_computer_mid_hand_moves_no_rating(store: Store) -> None:
    """A person leaves during a rated hand and the computer finishes it for them: the hand
    counts for nobody (not the one who left, not the computer's level, not the others), in
    the live ratings and in a rebuild; its result still counts in the standings. The next
    hand, the computer's seat from the start, is rated as usual."""
    seats = [HUMANS[0], CPU, HUMANS[2], HUMANS[3]]  # the lobby seats a simple computer
    session = await started_table(store, seats)  # type: ignore[arg-type]
    await play(session)
    first = await snapshot(store)
    assert {r.player for r in first[0]} == {HUMANS[0], "cpu:simple", HUMANS[2], HUMANS[3]}

    await session.next_hand()
    await play(session, 6)  # a trick and a half
    assert session.hand is not None and not session.hand.finished
    assert await session.leave(int(HUMANS[0])) is True
    await play(session)
    assert len(await store.results(GUILD, "filicau")) == 2
    assert await snapshot(store) == first
    [(_, rated_first), (_, rated_second)] = await store.rated_results(GUILD)
    assert rated_first and not rated_second

    await session.next_hand()  # seat 0 is the computer's (Normal) from the deal
    await play(session)
    third = await snapshot(store)
    assert {r.player: r.hands for r in third[0]} == {
        HUMANS[0]: 1, "cpu:simple": 2, "cpu:normal": 1, HUMANS[2]: 2, HUMANS[3]: 2}
    await store.replace_ratings(GUILD, [], [])
    assert await ratings.rebuild(store) == 2
    assert await snapshot(store) == third


# -- the migration and the command -------------------------------------------------------------


async def test_a_database_from_before_ratings_has_its_results_rated_at_start(
    make: Callable[[], Store], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The step that added the ratings (and the store itself) never calls up into them: the
    migration marks them stale, and the bot rebuilds them at start (``rebuild_if_stale``,
    before any table plays), once."""
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:RATINGS_VERSION - 1])
    old = make()
    await old.open()  # the schema before ratings
    try:
        t = Tables(old)
        table = await t.table(PEOPLE)
        for second in range(1, 4):
            await t.hand(table, PEOPLE, "a", second, record=False)
    finally:
        await old.close()
    monkeypatch.undo()

    store = make()
    await store.open()
    try:
        assert await store.ratings(GUILD, "filicau", 1) == []  # opening rated nothing
        assert await store.stale_ratings()
        assert await ratings.rebuild_if_stale(store) == 3
        rows = {r.player: r for r in await store.ratings(GUILD, "filicau", 1)}
        assert {r.hands for r in rows.values()} == {3}
        assert rows["11"].mu > 25 > rows["12"].mu
        assert not await store.stale_ratings()
        assert await ratings.rebuild_if_stale(store) is None  # once
    finally:
        await store.close()


async def test_the_rebuild_command_restores_deleted_ratings(tmp_path: Path,
                                                            capsys: Any) -> None:
    path = tmp_path / "bot.db"
    store = SqliteStore(path)
    await store.open()
    t = Tables(store)
    table = await t.table(PEOPLE)
    await t.hand(table, PEOPLE, "a", 1)
    live = await snapshot(store)
    await store.replace_ratings(GUILD, [], [])
    await store.close()
    # The command runs its own event loop, as from a shell.
    assert await asyncio.to_thread(ratings_main, ["rebuild", "--database", str(path)]) == 0
    assert "1 rated hands" in capsys.readouterr().out
    store = SqliteStore(path)
    await store.open()
    try:
        assert await snapshot(store) == live
    finally:
        await store.close()


async def test_two_tables_finishing_together_both_move_their_shared_computer(
    store: Store,
) -> None:
    t = Tables(store)
    other = ["31", "cpu:normal", "32", "cpu:simple"]
    first, second = await t.table(MIXED), await t.table(other)
    rows = [await t.hand(first, MIXED, "b", 1, record=False),
            await t.hand(second, other, "b", 2, record=False)]
    await asyncio.gather(*(ratings.record(store, row) for row in rows))
    [normal] = [r for r in await store.ratings(GUILD, "filicau", 1) if r.player == "cpu:normal"]
    assert normal.hands == 2
    history = await store.rating_history(GUILD, "filicau", 1, "cpu:normal")
    assert [h.hand_id for h in history] == [rows[0].hand_id, rows[1].hand_id]
    assert history[1].mu_before == history[0].mu
    live = await snapshot(store)
    await ratings.rebuild(store)
    assert await snapshot(store) == live


# -- Rich and Poor: the side that won the hand ------------------------------------------------


async def test_a_rich_and_poor_hand_ranks_its_winners_live_and_in_a_rebuild(store: Store) -> None:
    """Rich and Poor dealt afresh keeps no status and no scores: the side that won the hand
    (the Rich with 6 points, else the Poor) is kept with the hand's result, so its players
    go up and the others down, live and after a rebuild; a result stored before the
    winners were kept stays a tie for everyone."""
    people = [*HUMANS, "105"]
    row = await store.create_table(guild_id=GUILD, channel_id=10, game="rich_poor", options={},
                                   opener_id=OPENER, seats=[None] * 5)
    session = TableSession(row, store, seed=1)
    await seat_all(session, people)
    await session.start(OPENER, is_admin=True)
    await play(session)
    hand = session.hand
    assert hand is not None and hand.result is not None
    winner = hand.result.extra["winner"]
    won = {people[s] for s in range(5) if hand.team[s] == winner}
    assert 0 < len(won) < 5
    [(result, rated)] = await store.rated_results(GUILD)
    assert rated and set(result.hand_winners) == won
    live = await store.ratings(GUILD, "rich_poor", 1)
    assert {r.player for r in live} == set(people)
    for r in live:
        assert (r.mu > 25) == (r.player in won) and r.mu != 25
    history = await store.rating_history(GUILD, "rich_poor", 1)
    await store.replace_ratings(GUILD, [], [])
    assert await ratings.rebuild(store) == 1
    assert await store.ratings(GUILD, "rich_poor", 1) == live
    assert await store.rating_history(GUILD, "rich_poor", 1) == history

    # The same hand as stored before the winners were kept: its hand's result names none.
    tables = Tables(store)
    table_id = await tables.table(people)
    old = result.model_copy(update={"hand_id": await store.start_hand(table_id, 1, {}),
                                 "hand_winners": []})
    await store.add_result(old)
    read = {r.hand_id: r for r, _ in await store.rated_results(GUILD)}
    assert read[old.hand_id].hand_winners == []
    assert {rank for _, rank in placings(read[old.hand_id])} == {0}


async def test_the_ratings_of_some_players_are_read_alone(store: Store) -> None:
    t = Tables(store)
    await t.hand(await t.table(PEOPLE), PEOPLE, "a", 1)
    await t.hand(await t.table(MIXED), MIXED, "b", 2)
    everyone = {r.player: r for r in await store.ratings(GUILD, "filicau", 1)}
    some = await store.ratings(GUILD, "filicau", 1, ["22", "11", "cpu:easy", "99"])
    # Only those asked for (a player never rated is simply absent), the same rows, by player.
    assert [r.player for r in some] == ["11", "22", "cpu:easy"]
    assert some == [everyone[p] for p in ("11", "22", "cpu:easy")]
    assert await store.ratings(GUILD, "filicau", 1, []) == []


async def test_rating_a_hand_reads_no_more_for_a_server_of_thousands(tmp_path: Path) -> None:
    """Every finished hand is rated before its last click is answered, one table after
    another: what it reads must not grow with the server's players and hands. Each query it
    runs is a lookup in an index (no scan of a whole table, no sort of what it found) and
    reads no more rows than the hand has players."""
    store = SqliteStore(tmp_path / "bot.db")
    await store.open()
    try:
        t = Tables(store)
        for n in range(40):
            seats = [f"{n}{i}" for i in range(4)]
            await t.hand(await t.table(seats), seats, "ab"[n % 2], n)
        executed: list[str] = []
        await store.db.con.set_trace_callback(executed.append)
        await t.hand(await t.table(PEOPLE), PEOPLE, "a", 100)
        await store.db.con.set_trace_callback(None)
        reads = [sql for sql in executed if sql.lstrip().upper().startswith("SELECT")]
        assert any("rating_history" in sql for sql in reads)
        assert any("FROM ratings" in sql for sql in reads)
        for sql in reads:
            plan = " / ".join(r[3] for r in await store.db.fetch("EXPLAIN QUERY PLAN " + sql))
            assert "SCAN" not in plan and "TEMP B-TREE" not in plan, (sql, plan)
            assert len(await store.db.fetch(sql)) <= len(PEOPLE), sql
    finally:
        await store.close()


async def test_tables_finishing_in_the_same_second_are_rated_without_a_rebuild(
    store: Store, monkeypatch: Any,
) -> None:
    """A busy server: hands started in one order finish in another, within one second, and
    share a computer level. Each is rated as it comes, never by rebuilding the server from
    its whole history (which made every finish slower as the history grew), and the ratings
    are exactly what a rebuild gives."""
    rebuilds: list[int | None] = []
    real_rebuild = ratings.rebuild

    async def counted(store: Store, guild_id: int | None = None) -> int:
        rebuilds.append(guild_id)
        return await real_rebuild(store, guild_id)

    monkeypatch.setattr("bot.ratings.keeping.rebuild", counted)
    t = Tables(store)
    rows = []
    for n in range(8):
        seats = [f"{n}1", "cpu:normal", f"{n}2", "cpu:easy"]
        rows.append(await t.hand(await t.table(seats), seats, "ab"[n % 2], 1, record=False))
    # Last started, first finished; all given the same second by their tables.
    stored = [await ratings.finish(store, row) for row in reversed(rows)]
    assert rebuilds == []
    assert len({r.finished_at for r in stored}) == len(stored)
    assert [r.finished_at for r in stored] == sorted(r.finished_at for r in stored)
    live = await snapshot(store)
    assert {r.hands for r in await store.ratings(GUILD, "filicau", 1)
            if r.player == "cpu:normal"} == {8}
    await real_rebuild(store, GUILD)
    assert await snapshot(store) == live
