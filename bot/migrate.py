"""``python -m bot.migrate --from sqlite:///data/filicau.sqlite3 --to postgresql://...``

Copies everything the bot keeps (tables, hands, actions, partnership status, results, server
settings) from one database into an empty one, keeping every id (the buttons already sent
carry table ids): SQLite into PostgreSQL to grow, PostgreSQL back into SQLite to move back.
The source is first brought to the current schema, as the bot would at start. The copy is one
transaction: it is checked before it commits, by counting every table on both sides and
replaying every copied hand through the rules engine from the copied rows, so a target is
either complete and verified, or left empty. A target that holds anything is refused. Stop the
bot first: tables played during the copy would be missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from bot.store import SqliteStore, StoreError, is_postgres_url, sqlite_path
from bot.store.postgres import TABLES, PostgresStore
from engine import replay


class MigrateError(RuntimeError):
    """The copy cannot be made or did not verify; nothing was committed."""


@dataclass
class Report:
    copied: dict[str, int] = field(default_factory=dict)
    replayed: int = 0

    def lines(self) -> list[str]:
        counts = ", ".join(f"{n} {name}" for name, n in self.copied.items())
        return [f"copied {counts}", f"replayed {self.replayed} hands: all as stored"]


async def _read_sqlite(url: str) -> dict[str, list[dict[str, Any]]]:
    store = SqliteStore(sqlite_path(url))
    await store.open()  # brings an older file to the current schema first
    try:
        rows: dict[str, list[dict[str, Any]]] = {}
        for name in TABLES:
            async with store.db.execute(f"SELECT * FROM {name} ORDER BY rowid") as cur:
                rows[name] = [dict(r) for r in await cur.fetchall()]
        return rows
    finally:
        await store.close()


async def _read_postgres(url: str) -> dict[str, list[dict[str, Any]]]:
    store = PostgresStore(url)
    await store.open()
    try:
        order = {"actions": "hand_id, idx", "partnerships": "guild_id, game, pair_key",
                 "results": "hand_id", "guild_settings": "guild_id",
                 "reviews": "hand_id, seat", "seasons": "guild_id, number",
                 "web_keys": "guild_id"}
        return {name: [dict(r) for r in await store.pool.fetch(
            f"SELECT * FROM {name} ORDER BY {order.get(name, 'id')}")] for name in TABLES}
    finally:
        await store.close()


async def read(url: str) -> dict[str, list[dict[str, Any]]]:
    if is_postgres_url(url):
        return await _read_postgres(url)
    return await _read_sqlite(url)


def _convert(value: Any, pg_type: str) -> Any:
    if value is None:
        return None
    if pg_type == "boolean":
        return bool(value)
    if pg_type == "json" and not isinstance(value, str):
        return json.dumps(value)
    return value


#: A query on the target inside the copy's transaction: its rows, by column name and position.
Fetch = Callable[[str], Awaitable[Sequence[Mapping[str, Any]]]]


async def _verify(fetch: Fetch, source: dict[str, list[dict[str, Any]]],
                  report: Report) -> None:
    for name in TABLES:
        [row] = await fetch(f"SELECT count(*) AS n FROM {name}")
        if row["n"] != len(source[name]):
            raise MigrateError(f"{name}: {len(source[name])} rows read, {row['n']} copied")
    actions: dict[int, list[dict[str, Any]]] = {}
    for row in await fetch("SELECT hand_id, action FROM actions ORDER BY hand_id, idx"):
        actions.setdefault(row["hand_id"], []).append(json.loads(row["action"]))
    for row in await fetch("SELECT id, table_id, number, header FROM hands ORDER BY id"):
        record = {**json.loads(row["header"]), "actions": actions.get(row["id"], [])}
        try:
            replay(record)
        except Exception as e:  # whatever the engine refuses, the copy is not verified
            raise MigrateError(f"hand {row['id']} (table {row['table_id']}, hand "
                               f"{row['number']}) does not replay: {e}") from None
        report.replayed += 1


def _refuse_rows(name: str) -> MigrateError:
    return MigrateError(f"the target is not empty ({name} has rows): migrate into a new "
                        "database")


async def migrate(source_url: str, target_url: str) -> Report:
    if source_url == target_url:
        raise MigrateError("the source and the target are the same database")
    if not is_postgres_url(target_url):
        sqlite_path(target_url)  # refuses what is neither PostgreSQL nor SQLite
    source = await read(source_url)
    if is_postgres_url(target_url):
        return await _into_postgres(source, target_url)
    return await _into_sqlite(source, target_url)


async def _into_sqlite(source: dict[str, list[dict[str, Any]]], target_url: str) -> Report:
    target = SqliteStore(sqlite_path(target_url))
    await target.open()  # the current schema, empty or not
    db = target.db
    report = Report()
    try:
        for name in TABLES:
            async with db.execute(f"SELECT EXISTS (SELECT 1 FROM {name})") as cur:
                if (await cur.fetchone() or [0])[0]:
                    raise _refuse_rows(name)

        async def fetch(sql: str) -> Sequence[Mapping[str, Any]]:
            async with db.execute(sql) as cur:
                return [dict(r) for r in await cur.fetchall()]

        await db.execute("BEGIN IMMEDIATE")
        try:
            for name in TABLES:
                columns = {r["name"] for r in await fetch(f"PRAGMA table_info({name})")}
                rows = source[name]
                names = [c for c in (rows[0] if rows else {}) if c in columns]
                missing = set(rows[0]) - columns if rows else set()
                if missing:
                    raise MigrateError(f"{name}: the target has no columns {sorted(missing)}")
                # PostgreSQL's json comes as its text, booleans as bool: SQLite keeps both.
                if rows:
                    await db.executemany(
                        f"INSERT INTO {name} ({', '.join(names)}) "
                        f"VALUES ({', '.join('?' * len(names))})",
                        [tuple(r[c] for c in names) for r in rows])
                report.copied[name] = len(rows)
            await _verify(fetch, source, report)
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")
        # The ratings are derived from the results: built again on the target.
        from bot import ratings

        await ratings.rebuild(target)
    finally:
        await target.close()
    return report


async def _into_postgres(source: dict[str, list[dict[str, Any]]], target_url: str) -> Report:
    target = PostgresStore(target_url)
    await target.open()  # the current schema, empty or not
    report = Report()
    try:
        async with target.pool.acquire() as con, con.transaction():
            for name in TABLES:
                if await con.fetchval(f"SELECT EXISTS (SELECT 1 FROM {name})"):
                    raise _refuse_rows(name)
            for name in TABLES:
                types = {r["column_name"]: r["data_type"] for r in await con.fetch(
                    "SELECT column_name, data_type FROM information_schema.columns "
                    "WHERE table_name = $1 AND table_schema = current_schema()", name)}
                rows = source[name]
                columns = [c for c in (rows[0] if rows else {}) if c in types]
                missing = set(rows[0]) - set(types) if rows else set()
                if missing:
                    raise MigrateError(f"{name}: the target has no columns {sorted(missing)}")
                await con.copy_records_to_table(
                    name, columns=columns,
                    records=[tuple(_convert(r[c], types[c]) for c in columns) for r in rows])
                report.copied[name] = len(rows)
            for name in ("tables", "hands"):
                # New rows continue after the copied ids.
                await con.execute(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"coalesce((SELECT max(id) FROM {name}), 0) + 1, false)")
            async def fetch(sql: str) -> Sequence[Mapping[str, Any]]:
                return [dict(r) for r in await con.fetch(sql)]

            await _verify(fetch, source, report)
        # The ratings are derived from the results: built again on the target.
        from bot import ratings

        await ratings.rebuild(target)
    finally:
        await target.close()
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.migrate", description=__doc__.split("\n\n")[1] if __doc__ else None)
    parser.add_argument("--from", dest="source", required=True,
                        help="sqlite:///data/filicau.sqlite3 or postgresql://...")
    parser.add_argument("--to", dest="target", required=True,
                        help="postgresql://... or sqlite:///data/filicau.sqlite3 (to move back)")
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(migrate(args.source, args.target))
    except (MigrateError, StoreError, OSError, asyncpg.PostgresError, sqlite3.Error) as e:
        print(f"error: {e}; nothing was copied", file=sys.stderr)
        return 1
    for line in report.lines():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
