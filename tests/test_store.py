"""Both stores, SQLite (on real files) and PostgreSQL (on a real server started by the tests,
``tests/pg_server.py``), through the same tests: migrations, tables, the hand log, partnership
status, results and ownership. A few tests are about one database's own machinery (SQLite's
WAL and its connection thread) and say so in their names."""

from __future__ import annotations

import asyncio
import doctest
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from types import ModuleType
from typing import Any

import asyncpg
import pytest

from bot.store import (
    PartnershipStatus,
    PostgresStore,
    RatingChange,
    ResultRow,
    SqliteStore,
    Store,
    StoreError,
    TableRow,
    canonical,
    make_store,
    migrations,
    model,
    now,
    shards,
    sql,
)
from engine import Hand, make_rules, replay, to_record
from engine.cards import PACK_32

SEATS: list[str | None] = ["101", None, "cpu:simple", None]


class Backend:
    """One database as the tests see it: the store, and a look at it from outside the store
    (another connection), to check what was really written."""

    name: str
    error: type[Exception]

    def make(self) -> Store:
        raise NotImplementedError

    async def names(self) -> set[str]:
        raise NotImplementedError

    async def version(self) -> int:
        raise NotImplementedError

    async def set_version(self, version: int) -> None:
        raise NotImplementedError

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    async def assert_nothing_held(self) -> None:
        """No write of the store is left pending: another connection can take every lock."""
        raise NotImplementedError


class SqliteBackend(Backend):
    name = "sqlite"
    error = sqlite3.Error

    def __init__(self, path: Path) -> None:
        self.path = path

    def make(self) -> SqliteStore:
        return SqliteStore(self.path)

    def _query(self, sql: str) -> list[tuple[Any, ...]]:
        con = sqlite3.connect(self.path)
        try:
            return [tuple(r) for r in con.execute(sql).fetchall()]
        finally:
            con.close()

    async def names(self) -> set[str]:
        return {r[0] for r in self._query("SELECT name FROM sqlite_master")}

    async def version(self) -> int:
        return int(self._query("PRAGMA user_version")[0][0])

    async def set_version(self, version: int) -> None:
        con = sqlite3.connect(self.path)
        con.execute(f"PRAGMA user_version = {version}")
        con.close()

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        return self._query(sql)

    async def assert_nothing_held(self) -> None:
        con = sqlite3.connect(self.path, timeout=0.2)
        try:
            con.execute("BEGIN IMMEDIATE")  # "database is locked" while a write is pending
            con.rollback()
        finally:
            con.close()


class PostgresBackend(Backend):
    name = "postgres"
    error = asyncpg.PostgresError

    def __init__(self, url: str) -> None:
        self.url = url

    def make(self) -> PostgresStore:
        return PostgresStore(self.url)

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        con = await asyncpg.connect(self.url)
        try:
            return [tuple(r) for r in await con.fetch(sql)]
        finally:
            await con.close()

    async def names(self) -> set[str]:
        return {r[0] for r in await self.rows(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}

    async def version(self) -> int:
        return int((await self.rows("SELECT max(version) FROM schema_migrations"))[0][0])

    async def set_version(self, version: int) -> None:
        con = await asyncpg.connect(self.url)
        try:
            await con.execute("CREATE TABLE schema_migrations "
                              "(version integer PRIMARY KEY, applied_at text NOT NULL)")
            await con.execute("INSERT INTO schema_migrations VALUES ($1, '')", version)
        finally:
            await con.close()

    async def assert_nothing_held(self) -> None:
        con = await asyncpg.connect(self.url)
        try:
            await con.execute("SET lock_timeout = '200ms'")
            async with con.transaction():
                # Waits for (and here fails on) any transaction left open on these tables.
                await con.execute("LOCK TABLE tables, hands, actions IN EXCLUSIVE MODE")
        finally:
            await con.close()


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        return SqliteBackend(tmp_path / "bot.db")
    return PostgresBackend(request.getfixturevalue("pg_url"))


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    s = backend.make()
    await s.open()
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.db"


async def open_table(store: Store, table_id: int) -> TableRow | None:
    """Table ``table_id`` as a restart finds it among the open tables (None once closed)."""
    return next((r for r in await store.open_tables() if r.id == table_id), None)


async def make_table(store: Store, channel: int = 10, guild: int = 1) -> int:
    row = await store.create_table(
        guild_id=guild, channel_id=channel, game="filicau", options={"early_end": False},
        opener_id=101, seats=list(SEATS),
    )
    return row.id


# -- choosing a store --------------------------------------------------------------------------


@pytest.mark.parametrize("module", [shards, sql, migrations, model], ids=lambda m: m.__name__)
def test_the_examples_in_the_stores_docstrings_hold(module: ModuleType) -> None:
    # bot/ is outside pytest's doctest paths.
    result = doctest.testmod(module)
    assert result.attempted and not result.failed


def test_database_url_chooses_the_store(tmp_path: Path) -> None:
    default = make_store(None, tmp_path / "a.sqlite3")
    assert isinstance(default, SqliteStore) and default.path == str(tmp_path / "a.sqlite3")
    relative = make_store("sqlite:///data/b.sqlite3", tmp_path / "ignored")
    assert isinstance(relative, SqliteStore) and relative.path == "data/b.sqlite3"
    absolute = make_store("sqlite:////srv/c.sqlite3", tmp_path / "ignored")
    assert isinstance(absolute, SqliteStore) and absolute.path == "/srv/c.sqlite3"
    for url in ("postgresql://bot@db.example/filicau", "postgres://bot@db/x"):
        pg = make_store(url, tmp_path / "ignored")
        assert isinstance(pg, PostgresStore) and pg.url == url
    with pytest.raises(StoreError, match="not an SQLite URL"):
        make_store("mysql://x", tmp_path / "ignored")


# -- opening and migrations --------------------------------------------------------------------


async def test_fresh_file_is_migrated_to_the_current_version(tmp_path: Path) -> None:
    path = tmp_path / "data" / "new" / "bot.db"  # missing folders are created
    store = SqliteStore(path)
    await store.open()
    try:
        assert await store.schema_version() == len(migrations.MIGRATIONS) >= 1
    finally:
        await store.close()
    backend = SqliteBackend(path)
    assert await backend.version() == len(migrations.MIGRATIONS)
    assert {"tables", "hands", "actions", "partnerships", "results"} <= await backend.names()


async def test_a_fresh_database_is_migrated_to_the_current_version(backend: Backend) -> None:
    store = backend.make()
    await store.open()
    try:
        assert await store.schema_version() == len(migrations.MIGRATIONS) >= 1
    finally:
        await store.close()
    assert await backend.version() == len(migrations.MIGRATIONS)
    assert {"tables", "hands", "actions", "partnerships", "results",
            "guild_settings"} <= await backend.names()


async def test_reopening_keeps_data_and_does_not_rerun_migrations(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = backend.make()
    await store.open()
    table_id = await make_table(store)
    await store.close()

    # The migrations already run replaced by ones that cannot run: reopening must not try
    # them again, and only the new last one runs.
    done = len(migrations.MIGRATIONS)
    monkeypatch.setattr(migrations, "MIGRATIONS", [
        *["THIS IS NOT SQL"] * done,
        "CREATE TABLE extra (x INTEGER)",
    ])
    for _ in range(2):  # the second reopen runs nothing at all
        store = backend.make()
        await store.open()
        try:
            assert await store.schema_version() == done + 1
            row = await open_table(store, table_id)
            assert row is not None and row.seats == SEATS
            assert row.options == {"early_end": False}
        finally:
            await store.close()
    assert "extra" in await backend.names()


async def test_a_failing_migration_leaves_the_previous_version(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = backend.make()
    await store.open()
    await store.close()
    current = list(migrations.MIGRATIONS)
    monkeypatch.setattr(migrations, "MIGRATIONS", [
        *current, "CREATE TABLE half_done (x INTEGER); CREATE TABLE broken (",
    ])
    store = backend.make()
    with pytest.raises(backend.error):
        await store.open()
    await store.close()
    assert await backend.version() == len(current)
    assert "half_done" not in await backend.names()


async def test_a_newer_schema_is_refused_with_a_clear_message(backend: Backend) -> None:
    newer = len(migrations.MIGRATIONS) + 5
    await backend.set_version(newer)
    store = backend.make()
    try:
        with pytest.raises(StoreError, match=r"schema version \d+, newer than this bot.*upgrade"):
            await store.open()
    finally:
        await store.close()
    # Nothing was done to the newer database.
    assert await backend.version() == newer
    assert "tables" not in await backend.names()


async def test_processes_starting_together_migrate_once(backend: Backend) -> None:
    stores = [backend.make() for _ in range(3)]
    try:
        await asyncio.gather(*(s.open() for s in stores))
        assert await backend.version() == len(migrations.MIGRATIONS)
        await make_table(stores[0])
        assert [len(await s.open_tables()) for s in stores] == [1, 1, 1]
    finally:
        for s in stores:
            await s.close()


@pytest.mark.slow
async def test_sqlite_processes_starting_together_never_find_the_database_locked(
        tmp_path: Path) -> None:
    """Switching a new file to write-ahead logging while another process switches or
    migrates it made SQLite answer "database is locked" at once (a busy CI machine hit it
    with three; six hit it about one time in seven): the store now waits and tries again."""
    for round_ in range(20):
        stores = [SqliteStore(tmp_path / f"{round_}.sqlite3") for _ in range(6)]
        try:
            await asyncio.gather(*(s.open() for s in stores))
            assert [await s.schema_version() for s in stores] == [len(migrations.MIGRATIONS)] * 6
        finally:
            for s in stores:
                await s.close()


async def test_sqlite_a_refused_open_leaves_no_connection_thread(db_path: Path) -> None:
    """aiosqlite runs each connection on a non-daemon thread: a connection left open by a
    failed ``open()`` keeps the bot's process from exiting after the error."""
    await SqliteBackend(db_path).set_version(len(migrations.MIGRATIONS) + 1)
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


async def test_postgres_a_refused_open_leaves_no_connection(pg_url: str) -> None:
    backend = PostgresBackend(pg_url)
    await backend.set_version(len(migrations.MIGRATIONS) + 1)
    store = PostgresStore(pg_url)
    with pytest.raises(StoreError):
        await store.open()
    # Each test has its own schema, but the database is shared: count this URL's sessions.
    others = await backend.rows(
        "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
        "AND backend_type = 'client backend' AND datname = current_database()")
    assert others == [(0,)]


async def test_sqlite_wal_journal_mode_is_on(db_path: Path) -> None:
    store = SqliteStore(db_path)
    await store.open()
    try:
        assert await store.db.fetchval("PRAGMA journal_mode") == "wal"
    finally:
        await store.close()
    # WAL is a property of the file, seen by any connection.
    assert await SqliteBackend(db_path).rows("PRAGMA journal_mode") == [("wal",)]


async def test_a_closed_store_refuses_calls(backend: Backend) -> None:
    store = backend.make()
    with pytest.raises(StoreError, match="not open"):
        await store.open_tables()


# -- tables ------------------------------------------------------------------------------------


async def test_create_table_returns_and_stores_the_row(store: Store) -> None:
    row = await store.create_table(
        guild_id=1, channel_id=10, game="filko", options={"top_trumps": "leaves_low"},
        opener_id=101, seats=list(SEATS), settings={"turn_seconds": 30},
    )
    assert (row.state, row.message_id, row.seats) == ("lobby", None, SEATS)
    assert row.settings == {"turn_seconds": 30}
    plain = await store.create_table(
        guild_id=1, channel_id=12, game="filicau", options={}, opener_id=101, seats=list(SEATS))
    assert await store.open_tables() == [row, plain]
    assert plain.settings == {}


async def test_only_one_open_table_per_channel(store: Store) -> None:
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
    assert [(r.id, r.channel_id) for r in await store.open_tables()] == [(other, 11), (again, 10)]


async def test_a_refused_table_leaves_the_database_unlocked(
    store: Store, backend: Backend
) -> None:
    """After the store refuses a second table, another connection (a second bot process, an
    admin's shell, a restarted session) can still write."""
    await make_table(store, channel=10)
    with pytest.raises(StoreError):
        await make_table(store, channel=10)
    await backend.assert_nothing_held()
    assert await make_table(store, channel=11)  # and the store itself goes on


async def test_update_table_changes_seats_state_message_and_options(store: Store) -> None:
    table_id = await make_table(store)
    await store.update_table(table_id, seats=["101", "102", "103", "104"])
    await store.update_table(table_id, state="playing", message_id=555)
    row = await open_table(store, table_id)
    assert row is not None
    assert (row.seats, row.state, row.message_id) == (["101", "102", "103", "104"], "playing", 555)
    await store.update_table(table_id, options={"early_end": True})
    await store.update_table(table_id)  # nothing to change
    row2 = await open_table(store, table_id)
    assert row2 is not None
    assert row2.options == {"early_end": True}
    assert (row2.seats, row2.state, row2.message_id) == (row.seats, "playing", 555)


async def test_open_tables_lists_lobby_and_playing_but_not_closed(
    store: Store, backend: Backend
) -> None:
    lobby = await make_table(store, channel=1)
    playing = await make_table(store, channel=2)
    closed = await make_table(store, channel=3)
    elsewhere = await make_table(store, channel=4, guild=2)
    await store.update_table(playing, state="playing")
    await store.update_table(closed, state="closed")
    rows = await store.open_tables()
    assert [r.id for r in rows] == [lobby, playing, elsewhere]
    assert [r.state for r in rows] == ["lobby", "playing", "lobby"]
    # The closed table is kept, with the time it closed.
    [(state, closed_at)] = await backend.rows(
        f"SELECT state, closed_at FROM tables WHERE id = {closed}")
    assert state == "closed" and closed_at is not None


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


async def test_hand_log_round_trips_the_whole_record(store: Store) -> None:
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


async def test_actions_come_back_in_index_order(store: Store) -> None:
    table_id = await make_table(store)
    hand_id = await store.start_hand(table_id, 1, {"game": "filicau"})
    for i in (2, 0, 1):
        await store.append_action(hand_id, i, {"seat": i, "card": f"EA{i}"}, user_id=None,
                                  by_computer=True)
    current = await store.current_hand(table_id)
    assert current is not None
    assert [a["seat"] for a in current.actions] == [0, 1, 2]


async def test_appending_the_same_index_twice_is_refused(
    store: Store, backend: Backend
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
    rows = await backend.rows("SELECT idx, user_id, by_computer FROM actions ORDER BY idx")
    assert [(i, u, bool(c)) for i, u, c in rows] == [(0, 102, False), (1, None, True)]


async def test_a_refused_action_leaves_the_database_unlocked(
    store: Store, backend: Backend
) -> None:
    table_id = await make_table(store)
    hand_id = await store.start_hand(table_id, 1, {"game": "filicau"})
    await store.append_action(hand_id, 0, {"seat": 1, "card": "EA"}, user_id=102,
                              by_computer=False)
    with pytest.raises(StoreError):
        await store.append_action(hand_id, 0, {"seat": 1, "card": "EA"}, user_id=102,
                                  by_computer=False)
    await backend.assert_nothing_held()


async def test_current_hand_is_the_latest_and_finish_hand_stores_the_result(
    store: Store,
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
    store: Store, team0: list[str], team1: list[str]
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


async def test_put_status_wants_canonical_team_order(store: Store) -> None:
    with pytest.raises(StoreError, match="canonical"):
        await store.put_status(status(["102", "104"], ["101", "103"], masters="a"))
    # Member order inside a team does not matter: it is stored sorted.
    await store.put_status(status(["103", "101"], ["104", "102"], masters="a"))
    found = await store.get_status(1, "filicau", ["101", "103"], ["102", "104"])
    assert found is not None and (found.team_a, found.team_b) == (["101", "103"], ["102", "104"])


async def test_put_status_updates_the_existing_row(store: Store) -> None:
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


async def test_filko_status_keeps_the_servant(store: Store) -> None:
    st = PartnershipStatus(guild_id=1, game="filko", team_a=["101", "103"],
                           team_b=["102", "104"], masters="a", servant="104", next_dealer="104")
    await store.put_status(st)
    found = await store.get_status(1, "filko", ["104", "102"], ["101", "103"])
    assert found is not None
    assert (found.masters, found.servant, found.next_dealer) == ("a", "104", "104")


async def test_reset_status_makes_a_members_partnerships_even(store: Store) -> None:
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


async def test_results_are_listed_by_server_and_game(store: Store) -> None:
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


async def test_a_failed_transaction_takes_no_other_tables_move_with_it(store: Store) -> None:
    """Ratings are written in a transaction while other tables go on storing their moves: a
    move stored meanwhile stays stored when that transaction fails (on SQLite's one
    connection it used to join the transaction and be rolled back with it, after the player
    had been told it counted)."""
    table_id = await make_table(store)
    hand_id = await store.start_hand(table_id, 1, {"game": "filicau"})
    change = RatingChange(hand_id=hand_id, guild_id=1, game="filicau", season=1, player="101",
                          mu_before=25, sigma_before=8, mu=26, sigma=7, finished_at=now())
    # The same change twice: the history's (hand, player) key refuses the second.
    failed, stored = await asyncio.gather(
        store.replace_ratings(1, [], [change, change]),
        store.append_action(hand_id, 0, {"seat": 1, "card": "EA"}, user_id=102,
                            by_computer=False),
        return_exceptions=True)
    assert isinstance(failed, Exception) and stored is None
    current = await store.current_hand(table_id)
    assert current is not None and current.actions == [{"seat": 1, "card": "EA"}]
    assert await store.rating_history(1, "filicau", 1) == []


async def test_postgres_commits_do_not_wait_for_the_disk_unless_asked(pg_url: str) -> None:
    """As SQLite's WAL with synchronous=NORMAL: committed (seen by every process) before the
    answer, without an fsync per move; ``synchronous_commit=on`` in the URL keeps it."""
    for url, expected in ((pg_url, "off"), (pg_url + "&synchronous_commit=on", "on")):
        store = PostgresStore(url)
        await store.open()
        try:
            assert await store.pool.fetchval("SHOW synchronous_commit") == expected
            assert await store.claim_shards([0], 1)
            assert store._owner is not None
            assert await store._owner.fetchval("SHOW synchronous_commit") == expected
        finally:
            await store.close()


async def test_postgres_queries_stuck_for_many_tables_do_not_hold_up_another_tables_move(
    pg_url: str,
) -> None:
    """A process drives hundreds of tables; a connection stays taken until its query's answer
    has been read by the event loop, so a busy loop or a slow server keeps connections longer.
    Twelve queries stuck at once (here: waiting for a lock another session holds) still leave a
    connection for the next table's move."""
    stuck = 12
    store = PostgresStore(pg_url)
    await store.open()
    blocker = await asyncpg.connect(pg_url)
    waiting: list[asyncio.Task[Any]] = []
    try:
        table_id = await make_table(store)
        hand_id = await store.start_hand(table_id, 1, {})
        await blocker.execute("SELECT pg_advisory_lock(4242)")
        waiting = [asyncio.create_task(store.pool.execute("SELECT pg_advisory_xact_lock(4242)"))
                   for _ in range(stuck)]

        async def stuck_queries() -> int:
            return int(await blocker.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"))

        async def all_stuck() -> None:
            while await stuck_queries() < stuck:
                await asyncio.sleep(0.05)  # polling the server's own count, not a guess

        # With fewer connections than stuck queries, the rest never reach the server.
        await asyncio.wait_for(all_stuck(), 30)
        await asyncio.wait_for(store.append_action(hand_id, 0, {"card": "EA"}, user_id=7,
                                                   by_computer=False), 30)
        assert [h.actions for h in await store.hands(table_id)] == [[{"card": "EA"}]]
    finally:
        await blocker.close()  # releases the lock: the stuck queries end
        await asyncio.gather(*waiting, return_exceptions=True)
        await store.close()


async def test_a_table_is_in_play_from_its_first_stored_hand(store: Store) -> None:
    """Starting a table costs one write, not two: storing its first hand puts it in play,
    and the open tables a restart restores say so; a closed table stays closed."""
    table_id = await make_table(store)
    lobby = await open_table(store, table_id)
    assert lobby is not None and lobby.state == "lobby"
    await store.start_hand(table_id, 1, {"game": "filicau"})
    playing = await open_table(store, table_id)
    assert playing is not None and playing.state == "playing"
    await store.update_table(table_id, state="closed")
    await store.start_hand(table_id, 2, {"game": "filicau"})
    assert await open_table(store, table_id) is None
    assert [h.number for h in await store.hands(table_id)] == [2, 1]


def test_a_table_row_from_before_keeps_its_runtime_state_apart_from_its_settings() -> None:
    """Rows written before the runtime column kept names, seats leaving and the thread among
    their settings: read now, they are the table's runtime state, and the settings are the
    settings it was opened with."""
    from bot.store.model import TableRow

    row = TableRow(id=1, guild_id=2, channel_id=3, message_id=None, game="filicau",
                   options={}, opener_id=4, seats=["4", None, None, None], state="playing",
                   created_at="2026-11-01T00:00:00+00:00",
                   settings={"turn_seconds": 60, "names": {"4": "Ana"}, "leaving": [0],
                             "thread_id": 9})
    assert row.settings == {"turn_seconds": 60}
    assert row.runtime == {"names": {"4": "Ana"}, "leaving": [0], "thread_id": 9}


async def test_a_servers_card_faces_are_kept(store: Store) -> None:
    """Each server's faces setting (``/admin faces``) is stored beside its theme: a server that
    never chose keeps each game's own faces; a choice is read back as made."""
    await store.put_guild_settings(model.GuildSettings(guild_id=1, pictures=True))
    await store.put_guild_settings(model.GuildSettings(guild_id=2, theme="light",
                                                       faces="french"))
    kept = {g.guild_id: g for g in await store.guild_settings()}
    assert kept[1].faces == "game" and kept[2].faces == "french" and kept[2].theme == "light"
    await store.put_guild_settings(kept[2].model_copy(update={"faces": "german"}))
    assert [g.faces for g in await store.guild_settings()] == ["game", "german"]


async def test_a_server_that_keeps_tables_across_servers_off_its_pages_is_kept(
        store: Store) -> None:
    """``/admin crossplay watch:off``: kept as chosen, and on for a server that never chose."""
    await store.put_guild_settings(model.GuildSettings(guild_id=1, faces="french"))
    await store.put_guild_settings(model.GuildSettings(guild_id=2, watch_across=False))
    kept = {g.guild_id: g for g in await store.guild_settings()}
    assert kept[1].watch_across and not kept[2].watch_across and kept[1].faces == "french"
    await store.put_guild_settings(kept[2].model_copy(update={"watch_across": True}))
    assert [g.watch_across for g in await store.guild_settings()] == [True, True]
