"""``python -m bot.migrate``: databases the bot made before this version brought to its schema
in place, with nothing lost (files made by the bot at 2585ca2, in ``tests/data``); an SQLite
database, played on by real table sessions, copied into a real PostgreSQL: what the bot reads
back is the same, tables go on where they were, and a non-empty target or a hand that does
not replay leaves the target untouched."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot import ratings
from bot.migrate import TABLES, MigrateError, migrate, upgrade
from bot.session import TableSession
from bot.store import GuildSettings, PostgresStore, SqliteStore, Store, migrations

try:
    from tests.bot_fixtures import GUILD, open_store, play, started_table
except ImportError:  # plain `pytest`, where tests/ itself is on sys.path
    from bot_fixtures import (  # type: ignore[no-redef,import-not-found,unused-ignore]
        GUILD,
        open_store,
        play,
        started_table,
    )

ROOT = Path(__file__).resolve().parents[1]
#: Made by the bot at 2585ca2: a finished hand and a half-played one at table 1 (guild 1),
#: a Filkó table waiting for its Servant (table 2), a lobby (table 3, guild 5 << 22, whose
#: settings are kept) and a closed table (4), a review, a second season, the ratings.
OLD_SQLITE = ROOT / "tests" / "data" / "main-2585ca2.sqlite3"
OLD_POSTGRES = ROOT / "tests" / "data" / "main-2585ca2.postgres.sql"
#: Where each database kept its schema version then.
OLD_VERSIONS = ("schema_version",)


def as_set(rows: Sequence[Sequence[Any]]) -> list[str]:
    return sorted(repr(tuple(r)) for r in rows)


def sqlite_columns(path: Path) -> dict[str, list[str]]:
    """Every table of the file and its columns."""
    con = sqlite3.connect(path)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: [c[1] for c in con.execute(f"PRAGMA table_info({n})")] for n in names}
    finally:
        con.close()


def sqlite_contents(path: Path, columns: dict[str, list[str]] | None = None
                    ) -> dict[str, list[str]]:
    """Every row of every table of the file (of these columns: those a database had before
    an upgrade added others), read directly."""
    columns = columns or sqlite_columns(path)
    con = sqlite3.connect(path)
    try:
        return {n: as_set(con.execute(f"SELECT {', '.join(cols)} FROM {n}").fetchall())
                for n, cols in columns.items()}
    finally:
        con.close()


async def postgres_columns(url: str) -> dict[str, list[str]]:
    """Every table of the schema and its columns."""
    con = await asyncpg.connect(url)
    try:
        rows = await con.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position")
    finally:
        await con.close()
    out: dict[str, list[str]] = {}
    for r in rows:
        out.setdefault(r["table_name"], []).append(r["column_name"])
    return out


async def postgres_contents(url: str, names: Sequence[str] | None = None,
                            columns: dict[str, list[str]] | None = None
                            ) -> dict[str, list[str]]:
    """Every row of these tables (all of the schema's; of these columns: those a database had
    before an upgrade added others), read directly."""
    columns = columns or await postgres_columns(url)
    con = await asyncpg.connect(url)
    try:
        if names is None:
            names = list(columns)
        return {n: as_set(await con.fetch(f"SELECT {', '.join(columns[n])} FROM {n}"))
                for n in names}
    finally:
        await con.close()


async def goes_on(store: Store) -> None:
    """What the bot reads of the old database, and its half-played hand played to the end."""
    [playing, servant, lobby] = await store.open_tables()
    assert (playing.id, servant.id, lobby.id) == (1, 2, 3)
    assert [h.number for h in await store.hands(playing.id)] == [2, 1]
    assert (await store.guild_settings())[0].locale == "hu"
    assert await store.get_review(1, 0) == {"version": 1,
                                            "decisions": [{"index": 0, "loss": 0.5}]}
    assert [s.number for s in await store.seasons(GUILD)] == [2]
    assert [r.hands for r in await store.ratings(GUILD, "filicau", 1)] == [1] * 4
    assert not await store.stale_ratings()  # they were kept, not to be rebuilt
    session = await TableSession.restore(playing, store)
    assert session.hand is not None and len(session.hand.actions) == 6
    await play(session)
    assert len(await store.results(GUILD)) == 2
    assert [r.hands for r in await store.ratings(GUILD, "filicau", 1)] == [2] * 4


async def test_an_sqlite_file_of_the_bot_before_is_upgraded_in_place(tmp_path: Path) -> None:
    """``python -m bot.migrate`` (the bot's database, found as the bot finds it) brings a file
    of the bot at 2585ca2 to this version's schema: every row of it is still there as it
    was, and its tables go on."""
    path = tmp_path / "bot.sqlite3"
    shutil.copy(OLD_SQLITE, path)
    columns = sqlite_columns(path)
    before = sqlite_contents(path, columns)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.migrate", cwd=ROOT,
        env={**os.environ, "DATABASE_PATH": str(path), "DATABASE_URL": ""},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    assert (proc.returncode, err.decode()) == (0, "")
    assert out.decode() == f"schema version 6 -> {len(migrations.MIGRATIONS)}\n"
    after = sqlite_contents(path, columns)
    assert {n: after[n] for n in before} == before
    store = SqliteStore(path)
    await store.open()
    try:
        assert store.upgraded_from == await store.schema_version() == len(migrations.MIGRATIONS)
        await goes_on(store)
    finally:
        await store.close()
    assert await upgrade(f"sqlite:///{path}") == [
        f"schema version {len(migrations.MIGRATIONS)}: nothing to do"]


async def test_a_postgresql_database_of_the_bot_before_is_upgraded_in_place(
        pg_url: str) -> None:
    """The bot, starting on a PostgreSQL database of the bot at 2585ca2 (its own numbering of
    the migrations, in ``schema_version``), brings it to this version's schema: every row is
    still there as it was, and its tables go on."""
    con = await asyncpg.connect(pg_url)
    try:
        await con.execute(OLD_POSTGRES.read_text())
    finally:
        await con.close()
    columns = await postgres_columns(pg_url)
    before = await postgres_contents(pg_url, columns=columns)
    store = PostgresStore(pg_url)
    await store.open()
    try:
        assert store.upgraded_from == 6  # its version 4 is SQLite's 6
        assert await store.schema_version() == len(migrations.MIGRATIONS)
        kept = [n for n in before if n not in OLD_VERSIONS]
        assert await postgres_contents(pg_url, kept, columns) == {n: before[n] for n in kept}
        assert await ratings.rebuild_if_stale(store) is None
        await goes_on(store)
    finally:
        await store.close()


async def fill(path: Path) -> dict[str, int]:
    """A bot's database after some play: a finished hand and a hand half played at one table,
    a lobby, a closed table in another server, a server's settings. Returns the ids."""
    store = await open_store(path)
    try:
        playing = await started_table(store, channel=10)
        await play(playing)  # the first hand to its end: result, status, standings
        await playing.next_hand()
        hand = playing.hand
        assert hand is not None
        await play(playing, stop=lambda h: len(h.actions) >= 6)  # mid-trick
        lobby = await store.create_table(guild_id=5 << 22, channel_id=20, game="filko",
                                         options={}, opener_id=7, seats=["7", None, None, None])
        closed = await store.create_table(guild_id=6 << 22, channel_id=30, game="filicau",
                                          options={}, opener_id=8, seats=[None] * 4)
        await store.update_table(closed.id, state="closed")
        await store.put_guild_settings(GuildSettings(guild_id=5 << 22, locale="hu",
                                                     pictures=True, theme="light"))
        return {"playing": playing.id, "lobby": lobby.id, "closed": closed.id}
    finally:
        await store.close()


async def snapshot(store: Store, ids: dict[str, int], guilds: list[int]) -> object:
    """Everything the bot would read: tables, every hand with its actions, statuses,
    standings, server settings."""
    return (
        await store.open_tables(),
        [await store.hands(i, limit=100) for i in ids.values()],
        [await store.statuses(g) for g in guilds],
        [await store.results(g) for g in guilds],
        await store.guild_settings(),
    )


async def test_everything_is_copied_and_tables_go_on(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "bot.sqlite3"
    ids = await fill(path)
    guilds = [GUILD, 5 << 22, 6 << 22]
    con = sqlite3.connect(path)
    counts = {name: con.execute(f"SELECT count(*) FROM {name}").fetchone()[0] for name in TABLES}
    con.close()
    assert counts["actions"] > 6  # a whole hand and six moves of the next

    report = await migrate(f"sqlite:///{path}", pg_url)
    assert report.replayed == 2  # both hands, the finished one and the one in play
    assert report.copied == counts
    assert (counts["tables"], counts["hands"], counts["results"]) == (3, 2, 1)

    source, target = SqliteStore(path), PostgresStore(pg_url)
    await source.open()
    await target.open()
    try:
        assert await snapshot(target, ids, guilds) == await snapshot(source, ids, guilds)
        # The half-played hand comes back in play, from PostgreSQL, and goes on there.
        [row] = [r for r in await target.open_tables() if r.id == ids["playing"]]
        session = await TableSession.restore(row, target)
        assert session.hand is not None and len(session.hand.actions) == 6
        await play(session)
        [finished, first] = await target.hands(ids["playing"])
        assert finished.result is not None and first.result is not None
        assert len(await target.results(GUILD)) == 2
        # New rows get new ids after the copied ones (buttons already sent carry the old).
        new = await target.create_table(guild_id=GUILD, channel_id=99, game="filicau",
                                        options={}, opener_id=1, seats=[None] * 4)
        assert new.id > max(ids.values())
    finally:
        await source.close()
        await target.close()


async def test_a_target_that_holds_anything_is_refused(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "bot.sqlite3"
    await fill(path)
    target = PostgresStore(pg_url)
    await target.open()
    try:
        await target.put_guild_settings(GuildSettings(guild_id=3, locale="de"))
    finally:
        await target.close()
    with pytest.raises(MigrateError, match=r"not empty \(guild_settings has rows\)"):
        await migrate(f"sqlite:///{path}", pg_url)
    await target.open()
    try:
        assert await target.open_tables() == []
        assert [g.guild_id for g in await target.guild_settings()] == [3]
    finally:
        await target.close()


async def test_a_hand_that_does_not_replay_leaves_the_target_empty(
    tmp_path: Path, pg_url: str
) -> None:
    path = tmp_path / "bot.sqlite3"
    await fill(path)
    con = sqlite3.connect(path)
    # A stored card changed to one its seat does not hold: the engine refuses the record.
    (raw,) = con.execute("SELECT action FROM actions WHERE idx = 3 LIMIT 1").fetchone()
    action = json.loads(raw)
    action["card"] = "EA" if action.get("card") != "EA" else "S7"
    con.execute("UPDATE actions SET action = ? WHERE idx = 3", (json.dumps(action),))
    con.commit()
    con.close()
    with pytest.raises(MigrateError, match="does not replay"):
        await migrate(f"sqlite:///{path}", pg_url)
    target = PostgresStore(pg_url)
    await target.open()
    try:
        for name in TABLES:
            assert await target.pool.fetchval(f"SELECT count(*) FROM {name}") == 0
    finally:
        await target.close()


@pytest.mark.slow
async def test_the_command_copies_and_says_what(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "bot.sqlite3"
    await fill(path)

    async def run() -> tuple[int, str, str]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.migrate", "--from", f"sqlite:///{path}", "--to", pg_url,
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await proc.communicate()
        assert proc.returncode is not None
        return proc.returncode, out.decode(), err.decode()

    code, out, err = await run()
    assert (code, err) == (0, "")
    assert out.startswith("copied 3 tables, 2 hands, ") and "replayed 2 hands" in out
    code, out, err = await run()  # again: the target is not empty now
    assert code == 1 and "not empty" in err and "Traceback" not in err


async def test_moving_back_from_postgresql_into_sqlite(tmp_path: Path, pg_url: str) -> None:
    first, back = tmp_path / "first.sqlite3", tmp_path / "back.sqlite3"
    ids = await fill(first)
    guilds = [GUILD, 5 << 22, 6 << 22]
    await migrate(f"sqlite:///{first}", pg_url)

    report = await migrate(pg_url, f"sqlite:///{back}")
    assert report.replayed == 2
    assert (report.copied["tables"], report.copied["hands"], report.copied["results"]) == (3, 2, 1)
    original, moved = SqliteStore(first), SqliteStore(back)
    await original.open()
    await moved.open()
    try:
        assert await snapshot(moved, ids, guilds) == await snapshot(original, ids, guilds)
        assert await moved.ratings(GUILD, "filicau", 1) == await original.ratings(
            GUILD, "filicau", 1)
        # The half-played hand goes on from the SQLite file, and its result counts there.
        [row] = [r for r in await moved.open_tables() if r.id == ids["playing"]]
        session = await TableSession.restore(row, moved)
        assert session.hand is not None and len(session.hand.actions) == 6
        await play(session)
        assert len(await moved.results(GUILD)) == 2
        new = await moved.create_table(guild_id=GUILD, channel_id=99, game="filicau",
                                       options={}, opener_id=1, seats=[None] * 4)
        assert new.id > max(ids.values())
    finally:
        await original.close()
        await moved.close()


async def test_moving_back_refuses_a_sqlite_file_that_holds_anything_and_leaves_it_as_it_was(
    tmp_path: Path, pg_url: str
) -> None:
    first, back = tmp_path / "first.sqlite3", tmp_path / "back.sqlite3"
    await fill(first)
    await migrate(f"sqlite:///{first}", pg_url)
    used = SqliteStore(back)
    await used.open()
    await used.put_guild_settings(GuildSettings(guild_id=3, locale="de"))
    await used.close()
    with pytest.raises(MigrateError, match=r"not empty \(guild_settings has rows\)"):
        await migrate(pg_url, f"sqlite:///{back}")
    # A hand in PostgreSQL that does not replay: an empty SQLite file stays empty.
    empty = tmp_path / "empty.sqlite3"
    target = PostgresStore(pg_url)
    await target.open()
    try:
        raw = await target.pool.fetchval("SELECT action FROM actions WHERE idx = 3 LIMIT 1")
        action = json.loads(raw)
        action["card"] = "EA" if action.get("card") != "EA" else "S7"
        await target.pool.execute("UPDATE actions SET action = $1 WHERE idx = 3",
                                  json.dumps(action))
    finally:
        await target.close()
    with pytest.raises(MigrateError, match="does not replay"):
        await migrate(pg_url, f"sqlite:///{empty}")
    con = sqlite3.connect(back)
    try:
        assert con.execute("SELECT count(*) FROM tables").fetchone() == (0,)
        assert con.execute("SELECT guild_id FROM guild_settings").fetchall() == [(3,)]
    finally:
        con.close()
    con = sqlite3.connect(empty)
    try:
        for name in TABLES:
            assert con.execute(f"SELECT count(*) FROM {name}").fetchone() == (0,), name
    finally:
        con.close()
