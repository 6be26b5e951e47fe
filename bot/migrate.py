"""``python -m bot.migrate``: the bot's database brought to this version's schema, or copied.

    python -m bot.migrate                       # DATABASE_URL, else DATABASE_PATH (as the bot)
    python -m bot.migrate --database postgresql://...
    python -m bot.migrate --from sqlite:///data/filicau.sqlite3 --to postgresql://...

Without ``--from``, it applies the steps of ``bot.store.migrations`` that the database has not
had (the bot does the same when it starts) and rebuilds the ratings if a step marked them
stale. With ``--from`` and ``--to``, it copies everything the bot keeps (tables, hands,
actions, partnership status, results, server settings, reviews, seasons) from one database into
an empty one, keeping every id (the buttons already sent carry table ids): SQLite into
PostgreSQL to grow, PostgreSQL back into SQLite to move back. The source is first brought to
the current schema, as the bot would at start. The copy is one transaction: it is checked
before it commits, by counting every table on both sides and replaying every copied hand
through the rules engine from the copied rows, so a target is either complete and verified,
or left empty; the ratings are then rebuilt on it from the results. A target that holds
anything is refused. Stop the bot first: tables played during the copy would be missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from bot.leagues.sql import TABLES as LEAGUE_TABLES
from bot.ratings import rebuild, rebuild_if_stale
from bot.settings import Settings
from bot.store import PostgresStore, SqliteStore, StoreError, is_postgres_url, sqlite_path
from bot.store.sql import Sql
from engine import replay

#: Tables in the order they can be filled (foreign keys), each with the columns it is read in
#: order of: everything but the ratings and their history, which the target rebuilds from the
#: results.
TABLES = {"tables": "id", "hands": "id", "actions": "hand_id, idx",
          "partnerships": "guild_id, game, pair_key", "results": "hand_id",
          "guild_settings": "guild_id", "reviews": "hand_id, seat",
          "seasons": "guild_id, number", "web_keys": "guild_id",
          "player_settings": "user_id", "community_settings": "guild_id",
          "tournaments": "id", "tournament_entrants": "tournament_id, entrant",
          "tournament_tables": "tournament_id, round, number", **LEAGUE_TABLES}
#: The tables whose ids the database gives: new rows go on after the copied ones.
WITH_IDS = ("tables", "hands", "tournaments")

Rows = dict[str, list[dict[str, Any]]]


class MigrateError(RuntimeError):
    """The copy cannot be made or did not verify; nothing was committed."""


@dataclass
class Report:
    copied: dict[str, int] = field(default_factory=dict)
    replayed: int = 0

    def lines(self) -> list[str]:
        counts = ", ".join(f"{n} {name}" for name, n in self.copied.items())
        return [f"copied {counts}", f"replayed {self.replayed} hands: all as stored"]


def store_at(url: str) -> SqliteStore | PostgresStore:
    if is_postgres_url(url):
        return PostgresStore(url)
    return SqliteStore(sqlite_path(url))


async def upgrade(url: str) -> list[str]:
    """Bring the database at ``url`` to the current schema; what was done, in lines."""
    store = store_at(url)
    await store.open()  # applies the missing steps
    try:
        before, after = store.upgraded_from, await store.schema_version()
        lines = [f"schema version {before} -> {after}" if before != after
                 else f"schema version {after}: nothing to do"]
        rated = await rebuild_if_stale(store)
        if rated is not None:
            lines.append(f"ratings rebuilt from the results: {rated} rated hands")
        return lines
    finally:
        await store.close()


async def read(url: str) -> Rows:
    store = store_at(url)
    await store.open()  # brings an older database to the current schema first
    try:
        return {name: [dict(r) for r in await store.db.fetch(
            f"SELECT * FROM {name} ORDER BY {order}")] for name, order in TABLES.items()}
    finally:
        await store.close()


async def _verify(sql: Sql, source: Rows, report: Report) -> None:
    for name in TABLES:
        count = await sql.fetchval(f"SELECT count(*) FROM {name}")
        if count != len(source[name]):
            raise MigrateError(f"{name}: {len(source[name])} rows read, {count} copied")
    actions: dict[int, list[dict[str, Any]]] = {}
    for row in await sql.fetch("SELECT hand_id, action FROM actions ORDER BY hand_id, idx"):
        actions.setdefault(row["hand_id"], []).append(json.loads(row["action"]))
    for row in await sql.fetch("SELECT id, table_id, number, header FROM hands ORDER BY id"):
        record = {**json.loads(row["header"]), "actions": actions.get(row["id"], [])}
        try:
            replay(record)
        except Exception as e:  # whatever the engine refuses, the copy is not verified
            raise MigrateError(f"hand {row['id']} (table {row['table_id']}, hand "
                               f"{row['number']}) does not replay: {e}") from None
        report.replayed += 1


def _value(value: Any, column_type: str) -> Any:
    # SQLite keeps booleans as integers; PostgreSQL wants them as booleans.
    return bool(value) if column_type == "boolean" and value is not None else value


async def _copy(source: Rows, target: SqliteStore | PostgresStore) -> Report:
    db = target.db
    report = Report()
    async with db.transaction() as sql:
        for name in TABLES:
            if await sql.fetchval(f"SELECT EXISTS (SELECT 1 FROM {name})"):
                raise MigrateError(f"the target is not empty ({name} has rows): migrate into "
                                   "a new database")
        for name in TABLES:
            types = await db.column_types(sql, name)
            rows = source[name]
            columns = list(rows[0]) if rows else []
            missing = set(columns) - set(types)
            if missing:
                raise MigrateError(f"{name}: the target has no columns {sorted(missing)}")
            if rows:
                await db.copy_rows(sql, name, columns, [
                    tuple(_value(r[c], types[c]) for c in columns) for r in rows])
            if name in WITH_IDS:
                await db.follow_ids(sql, name)
            report.copied[name] = len(rows)
        await _verify(sql, source, report)
    return report


async def migrate(source_url: str, target_url: str) -> Report:
    """Copy the database at ``source_url`` into the empty one at ``target_url``."""
    if source_url == target_url:
        raise MigrateError("the source and the target are the same database")
    target = store_at(target_url)  # refuses what is neither PostgreSQL nor SQLite
    source = await read(source_url)
    await target.open()  # the current schema, empty or not
    try:
        report = await _copy(source, target)
        # The ratings are derived from the results: built again on the target.
        await rebuild(target)
    finally:
        await target.close()
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.migrate", description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--database", help="the database to bring to this version's schema "
                        "(default: DATABASE_URL, else DATABASE_PATH, as the bot)")
    parser.add_argument("--from", dest="source",
                        help="copy: sqlite:///data/filicau.sqlite3 or postgresql://...")
    parser.add_argument("--to", dest="target",
                        help="copy: postgresql://... or sqlite:///data/filicau.sqlite3 "
                             "(to move back)")
    args = parser.parse_args(argv)
    if (args.source is None) != (args.target is None):
        parser.error("a copy needs both --from and --to")
    try:
        if args.source is not None:
            lines = (asyncio.run(migrate(args.source, args.target))).lines()
        else:
            lines = asyncio.run(upgrade(args.database or bot_database()))
    except (MigrateError, StoreError, OSError, asyncpg.PostgresError, sqlite3.Error) as e:
        done = "nothing was copied" if args.source is not None else "the failing step was undone"
        print(f"error: {e}; {done}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


def bot_database() -> str:
    """The bot's database, as ``python -m bot`` finds it."""
    settings = Settings()
    url = settings.database_url
    return (url.get_secret_value() if url is not None else "") or (
        f"sqlite:///{settings.database_path}")


if __name__ == "__main__":
    sys.exit(main())
