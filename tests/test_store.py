"""The SQLite store, on real files: migrations, tables, the hand log, partnership status and
results."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.store as store_module
from bot.store import (
    MIGRATIONS,
    PartnershipStatus,
    ResultRow,
    SqliteStore,
    StoreError,
    canonical,
)
from engine import Hand, make_rules, replay, to_record
from engine.cards import PACK_32

SEATS: list[str | None] = ["101", None, "cpu:simple", None]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(db_path)
    await s.open()
    try:
        yield s
    finally:
        await s.close()


async def make_table(store: SqliteStore, channel: int = 10, guild: int = 1) -> int:
    row = await store.create_table(
        guild_id=guild, channel_id=channel, game="filicau", options={"early_end": False},
        opener_id=101, seats=list(SEATS),
    )
    return row.id


def sqlite_names(path: Path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        return {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
    finally:
        con.close()


def user_version(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return int(con.execute("PRAGMA user_version").fetchone()[0])
    finally:
        con.close()


# -- opening and migrations --------------------------------------------------------------------


async def test_fresh_file_is_migrated_to_the_current_version(tmp_path: Path) -> None:
    path = tmp_path / "data" / "new" / "bot.db"  # missing folders are created
    store = SqliteStore(path)
    await store.open()
    try:
        assert await store.schema_version() == len(MIGRATIONS) >= 1
    finally:
        await store.close()
    assert user_version(path) == len(MIGRATIONS)
    assert {"tables", "hands", "actions", "partnerships", "results"} <= sqlite_names(path)


async def test_reopening_keeps_data_and_does_not_rerun_migrations(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SqliteStore(db_path)
    await store.open()
    table_id = await make_table(store)
    await store.close()

    # The migrations already run replaced by ones that cannot run: reopening must not try
    # them again, and only the new last one runs.
    done = len(store_module.MIGRATIONS)
    monkeypatch.setattr(store_module, "MIGRATIONS", [
        *["THIS IS NOT SQL"] * done,
        "CREATE TABLE extra (x INTEGER)",
    ])
    for _ in range(2):  # the second reopen runs nothing at all
        store = SqliteStore(db_path)
        await store.open()
        try:
            assert await store.schema_version() == done + 1
            row = await store.get_table(table_id)
            assert row is not None and row.seats == SEATS
            assert row.options == {"early_end": False}
        finally:
            await store.close()
    assert "extra" in sqlite_names(db_path)


async def test_a_failing_migration_leaves_the_previous_version(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SqliteStore(db_path)
    await store.open()
    await store.close()
    monkeypatch.setattr(store_module, "MIGRATIONS", [
        *MIGRATIONS, "CREATE TABLE half_done (x INTEGER); CREATE TABLE broken (",
    ])
    store = SqliteStore(db_path)
    with pytest.raises(sqlite3.Error):
        await store.open()
    await store.close()
    assert user_version(db_path) == len(MIGRATIONS)
    assert "half_done" not in sqlite_names(db_path)


async def test_a_newer_schema_is_refused_with_a_clear_message(db_path: Path) -> None:
    con = sqlite3.connect(db_path)
    con.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    con.close()
    store = SqliteStore(db_path)
    try:
        with pytest.raises(StoreError, match=r"schema version \d+, newer than this bot.*upgrade"):
            await store.open()
    finally:
        await store.close()
    # Nothing was done to the newer database.
    assert user_version(db_path) == len(MIGRATIONS) + 5
    assert "tables" not in sqlite_names(db_path)


async def test_a_refused_open_leaves_no_connection_thread(db_path: Path) -> None:
    """aiosqlite runs each connection on a non-daemon thread: a connection left open by a
    failed ``open()`` keeps the bot's process from exiting after the error."""
    con = sqlite3.connect(db_path)
    con.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    con.close()
    before = set(threading.enumerate())
    store = SqliteStore(db_path)
    try:
        with pytest.raises(StoreError):
            await store.open()
        started = set(threading.enumerate()) - before
        for thread in started:  # a closed connection's thread ends at once
            thread.join(timeout=2)
        assert not [t for t in started if t.is_alive()], "the connection was left open"
    finally:
        await store.close()


async def test_wal_journal_mode_is_on(store: SqliteStore, db_path: Path) -> None:
    async with store.db.execute("PRAGMA journal_mode") as cur:
        row = await cur.fetchone()
    assert row is not None and row[0] == "wal"
    con = sqlite3.connect(db_path)  # WAL is a property of the file, seen by any connection
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        con.close()


async def test_a_closed_store_refuses_calls(db_path: Path) -> None:
    store = SqliteStore(db_path)
    with pytest.raises(StoreError, match="not open"):
        await store.open_tables()


# -- tables ------------------------------------------------------------------------------------


async def test_create_table_returns_and_stores_the_row(store: SqliteStore) -> None:
    row = await store.create_table(
        guild_id=1, channel_id=10, game="filko", options={"top_trumps": "leaves_low"},
        opener_id=101, seats=list(SEATS), settings={"turn_seconds": 30},
    )
    assert (row.state, row.message_id, row.seats) == ("lobby", None, SEATS)
    assert row.settings == {"turn_seconds": 30}
    assert await store.get_table(row.id) == row
    plain = await store.create_table(
        guild_id=1, channel_id=12, game="filicau", options={}, opener_id=101, seats=list(SEATS))
    found = await store.get_table(plain.id)
    assert found is not None and found.settings == {} == plain.settings
    assert await store.open_table_in(10) == row
    assert await store.get_table(row.id + 100) is None
    assert await store.open_table_in(11) is None


async def test_only_one_open_table_per_channel(store: SqliteStore) -> None:
    first = await make_table(store, channel=10)
    with pytest.raises(StoreError, match="already has an open table"):
        await make_table(store, channel=10)
    other = await make_table(store, channel=11)  # another channel is fine
    await store.update_table(first, state="playing")
    with pytest.raises(StoreError):
        await make_table(store, channel=10)
    await store.update_table(first, state="closed")
    again = await make_table(store, channel=10)
    assert again not in (first, other)
    found = await store.open_table_in(10)
    assert found is not None and found.id == again


async def test_a_refused_table_leaves_the_database_unlocked(
    store: SqliteStore, db_path: Path
) -> None:
    """After the store refuses a second table, another connection (a second bot process, an
    admin's sqlite3 shell, a restarted session) can still write."""
    await make_table(store, channel=10)
    with pytest.raises(StoreError):
        await make_table(store, channel=10)
    con = sqlite3.connect(db_path, timeout=0.2)
    try:
        con.execute("BEGIN IMMEDIATE")  # "database is locked" while a write is pending
        con.rollback()
    finally:
        con.close()


async def test_update_table_changes_seats_state_message_and_options(store: SqliteStore) -> None:
    table_id = await make_table(store)
    await store.update_table(table_id, seats=["101", "102", "103", "104"])
    await store.update_table(table_id, state="playing", message_id=555)
    row = await store.get_table(table_id)
    assert row is not None
    assert (row.seats, row.state, row.message_id) == (["101", "102", "103", "104"], "playing", 555)
    await store.update_table(table_id, options={"early_end": True})
    await store.update_table(table_id)  # nothing to change
    row2 = await store.get_table(table_id)
    assert row2 is not None
    assert row2.options == {"early_end": True}
    assert (row2.seats, row2.state, row2.message_id) == (row.seats, "playing", 555)


async def test_open_tables_lists_lobby_and_playing_but_not_closed(store: SqliteStore) -> None:
    lobby = await make_table(store, channel=1)
    playing = await make_table(store, channel=2)
    closed = await make_table(store, channel=3)
    elsewhere = await make_table(store, channel=4, guild=2)
    await store.update_table(playing, state="playing")
    await store.update_table(closed, state="closed")
    rows = await store.open_tables()
    assert [r.id for r in rows] == [lobby, playing, elsewhere]
    assert [r.state for r in rows] == ["lobby", "playing", "lobby"]
    assert await store.open_table_in(3) is None
    row = await store.get_table(closed)
    assert row is not None and row.state == "closed"


# -- hands and actions -------------------------------------------------------------------------


def played_hand(n_actions: int) -> Hand:
    hand = Hand(make_rules("filicau", {"early_end": False}), 2, PACK_32)
    for _ in range(n_actions):
        seat = hand.to_move
        assert seat is not None
        hand.apply(seat, hand.legal_actions()[-1])
    return hand


def header_of(played: Hand, **extra: Any) -> dict[str, Any]:
    header = to_record(played)
    del header["actions"]
    return {**header, **extra}


async def test_hand_log_round_trips_the_whole_record(store: SqliteStore) -> None:
    table_id = await make_table(store)
    hand = played_hand(11)
    header = header_of(hand, table_id=table_id, hand=1, members=["101", "102", "103", "104"])
    hand_id = await store.start_hand(table_id, 1, header)
    actions = to_record(hand)["actions"]
    for i, action in enumerate(actions):
        await store.append_action(hand_id, i, action, user_id=101 + action["seat"],
                                  by_computer=False)
    current = await store.current_hand(table_id)
    assert current is not None
    assert (current.id, current.table_id, current.number) == (hand_id, table_id, 1)
    assert current.header == header
    assert current.actions == actions
    assert current.result is None and current.finished_at is None
    assert current.record() == {**header, "actions": actions}
    assert to_record(replay(current.record())) == to_record(hand)
    assert await store.hand(hand_id) == current


async def test_actions_come_back_in_index_order(store: SqliteStore) -> None:
    table_id = await make_table(store)
    hand_id = await store.start_hand(table_id, 1, {"game": "filicau"})
    for i in (2, 0, 1):
        await store.append_action(hand_id, i, {"seat": i, "card": f"EA{i}"}, user_id=None,
                                  by_computer=True)
    current = await store.current_hand(table_id)
    assert current is not None
    assert [a["seat"] for a in current.actions] == [0, 1, 2]


async def test_appending_the_same_index_twice_is_refused(
    store: SqliteStore, db_path: Path
) -> None:
    table_id = await make_table(store)
    hand_id = await store.start_hand(table_id, 1, {"game": "filicau"})
    await store.append_action(hand_id, 0, {"seat": 1, "card": "EA"}, user_id=102,
                              by_computer=False)
    with pytest.raises(StoreError, match="already stored"):
        await store.append_action(hand_id, 0, {"seat": 1, "card": "GA"}, user_id=102,
                                  by_computer=False)
    await store.append_action(hand_id, 1, {"seat": 2, "card": "G7"}, user_id=None,
                              by_computer=True)
    current = await store.current_hand(table_id)
    assert current is not None
    assert current.actions == [{"seat": 1, "card": "EA"}, {"seat": 2, "card": "G7"}]
    con = sqlite3.connect(db_path)
    try:
        rows = con.execute("SELECT idx, user_id, by_computer FROM actions ORDER BY idx").fetchall()
    finally:
        con.close()
    assert rows == [(0, 102, 0), (1, None, 1)]


async def test_a_refused_action_leaves_the_database_unlocked(
    store: SqliteStore, db_path: Path
) -> None:
    table_id = await make_table(store)
    hand_id = await store.start_hand(table_id, 1, {"game": "filicau"})
    await store.append_action(hand_id, 0, {"seat": 1, "card": "EA"}, user_id=102,
                              by_computer=False)
    with pytest.raises(StoreError):
        await store.append_action(hand_id, 0, {"seat": 1, "card": "EA"}, user_id=102,
                                  by_computer=False)
    con = sqlite3.connect(db_path, timeout=0.2)
    try:
        con.execute("BEGIN IMMEDIATE")
        con.rollback()
    finally:
        con.close()


async def test_current_hand_is_the_latest_and_finish_hand_stores_the_result(
    store: SqliteStore,
) -> None:
    table_id = await make_table(store)
    other_table = await make_table(store, channel=11)
    assert await store.current_hand(table_id) is None
    first = await store.start_hand(table_id, 1, {"n": 1})
    result = {"points": [6, 2], "status": {"masters": 0, "servant": None}, "next_dealer": 3,
              "event": "masters", "team": 0, "early": True}
    await store.finish_hand(first, result)
    second = await store.start_hand(table_id, 2, {"n": 2})
    await store.start_hand(other_table, 1, {"n": "other"})

    current = await store.current_hand(table_id)
    assert current is not None and (current.id, current.number) == (second, 2)
    assert current.result is None
    done = await store.hand(first)
    assert done is not None
    assert done.result == result and done.finished_at is not None
    assert [h.number for h in await store.hands(table_id)] == [2, 1]
    assert [h.number for h in await store.hands(table_id, limit=1)] == [2]
    assert await store.hand(second + 100) is None


# -- partnerships ------------------------------------------------------------------------------


def status(team_a: list[str], team_b: list[str], **kw: Any) -> PartnershipStatus:
    return PartnershipStatus(guild_id=1, game="filicau", team_a=team_a, team_b=team_b, **kw)


def test_canonical_order_is_independent_of_listing() -> None:
    assert canonical(["103", "101"], ["104", "102"]) == (["101", "103"], ["102", "104"], False)
    assert canonical(["104", "102"], ["101", "103"]) == (["101", "103"], ["102", "104"], True)


@pytest.mark.parametrize(
    ("team0", "team1"),
    [
        (["101", "103"], ["102", "104"]),
        (["102", "104"], ["101", "103"]),  # teams swapped
        (["103", "101"], ["104", "102"]),  # members swapped
        (["104", "102"], ["103", "101"]),  # both
    ],
)
async def test_status_is_keyed_by_the_two_partnerships(
    store: SqliteStore, team0: list[str], team1: list[str]
) -> None:
    await store.put_status(status(["101", "103"], ["102", "104"], masters="b",
                                  next_dealer="101", since="2024-01-01T00:00:00+00:00"))
    found = await store.get_status(1, "filicau", team0, team1)
    assert found is not None
    assert (found.team_a, found.team_b) == (["101", "103"], ["102", "104"])
    assert (found.masters, found.next_dealer) == ("b", "101")
    assert found.since == "2024-01-01T00:00:00+00:00"
    # Other pairs of the same people, another game or another server: no status.
    assert await store.get_status(1, "filicau", ["101", "102"], ["103", "104"]) is None
    assert await store.get_status(1, "filko", team0, team1) is None
    assert await store.get_status(2, "filicau", team0, team1) is None


async def test_put_status_wants_canonical_team_order(store: SqliteStore) -> None:
    with pytest.raises(StoreError, match="canonical"):
        await store.put_status(status(["102", "104"], ["101", "103"], masters="a"))
    # Member order inside a team does not matter: it is stored sorted.
    await store.put_status(status(["103", "101"], ["104", "102"], masters="a"))
    found = await store.get_status(1, "filicau", ["101", "103"], ["102", "104"])
    assert found is not None and (found.team_a, found.team_b) == (["101", "103"], ["102", "104"])


async def test_put_status_updates_the_existing_row(store: SqliteStore) -> None:
    teams = (["101", "103"], ["102", "104"])
    await store.put_status(status(*teams, masters="a", next_dealer="102"))
    await store.put_status(status(*teams, masters="b", next_dealer="103",
                                  updated_at="2030-01-01T00:00:00+00:00"))
    rows = await store.statuses(1)
    assert len(rows) == 1
    assert (rows[0].masters, rows[0].next_dealer) == ("b", "103")
    assert rows[0].updated_at == "2030-01-01T00:00:00+00:00"
    await store.put_status(status(*teams))  # even again
    found = await store.get_status(1, "filicau", *teams)
    assert found is not None and (found.masters, found.next_dealer) == (None, None)


async def test_filko_status_keeps_the_servant(store: SqliteStore) -> None:
    st = PartnershipStatus(guild_id=1, game="filko", team_a=["101", "103"],
                           team_b=["102", "104"], masters="a", servant="104", next_dealer="104")
    await store.put_status(st)
    found = await store.get_status(1, "filko", ["104", "102"], ["101", "103"])
    assert found is not None
    assert (found.masters, found.servant, found.next_dealer) == ("a", "104", "104")


async def test_reset_status_makes_a_members_partnerships_even(store: SqliteStore) -> None:
    await store.put_status(status(["101", "103"], ["102", "104"], masters="a",
                                  next_dealer="102"))
    await store.put_status(status(["101", "105"], ["102", "106"], masters="b",
                                  next_dealer="101"))
    await store.put_status(status(["102", "106"], ["103", "107"], next_dealer="103"))
    await store.put_status(status(["103", "105"], ["106", "107"], masters="a"))  # no 101
    await store.put_status(PartnershipStatus(
        guild_id=1, game="filko", team_a=["101", "103"], team_b=["102", "104"], masters="a",
        servant="102", next_dealer="102"))
    await store.put_status(PartnershipStatus(
        guild_id=2, game="filicau", team_a=["101", "103"], team_b=["102", "104"],
        masters="a"))

    assert await store.reset_status(1, "filicau", "101") == 2
    assert await store.reset_status(1, "filicau", "101") == 0  # already even
    for teams in ((["101", "103"], ["102", "104"]), (["101", "105"], ["102", "106"])):
        found = await store.get_status(1, "filicau", *teams)
        assert found is not None
        assert (found.masters, found.servant, found.next_dealer, found.since) == (
            None, None, None, None)
    untouched = [
        await store.get_status(1, "filicau", ["102", "106"], ["103", "107"]),
        await store.get_status(1, "filicau", ["103", "105"], ["106", "107"]),
        await store.get_status(1, "filko", ["101", "103"], ["102", "104"]),
        await store.get_status(2, "filicau", ["101", "103"], ["102", "104"]),
    ]
    assert [u.next_dealer if u else "?" for u in untouched] == ["103", None, "102", None]
    assert [u.masters if u else "?" for u in untouched] == [None, "a", "a", "a"]


# -- results -----------------------------------------------------------------------------------


def result_row(hand_id: int, game: str, points_a: int, guild: int = 1) -> ResultRow:
    return ResultRow(
        hand_id=hand_id, guild_id=guild, game=game, team_a=["101", "103"],
        team_b=["102", "104"], points_a=points_a, points_b=8 - points_a, masters_before=None,
        masters_after="a" if points_a >= 6 else None,
        event="masters" if points_a >= 6 else "no_change",
        event_team="a" if points_a >= 6 else None, finished_at="2024-01-01T00:00:00+00:00",
    )


async def test_results_are_listed_by_server_and_game(store: SqliteStore) -> None:
    table_id = await make_table(store)
    hand_ids = [await store.start_hand(table_id, n, {}) for n in range(1, 5)]
    await store.add_result(result_row(hand_ids[0], "filicau", 6))
    await store.add_result(result_row(hand_ids[1], "filko", 3))
    await store.add_result(result_row(hand_ids[2], "filicau", 4))
    await store.add_result(result_row(hand_ids[3], "filicau", 7, guild=2))

    everything = await store.results(1)
    assert [r.hand_id for r in everything] == hand_ids[:3]
    assert everything[0] == result_row(hand_ids[0], "filicau", 6)
    assert [r.hand_id for r in await store.results(1, "filicau")] == [hand_ids[0], hand_ids[2]]
    assert [r.hand_id for r in await store.results(1, "filko")] == [hand_ids[1]]
    assert [r.hand_id for r in await store.results(2)] == [hand_ids[3]]
    assert await store.results(3) == []
    # The same hand again replaces its row.
    await store.add_result(result_row(hand_ids[2], "filicau", 5))
    rows = await store.results(1, "filicau")
    assert [(r.hand_id, r.points_a) for r in rows] == [(hand_ids[0], 6), (hand_ids[2], 5)]
