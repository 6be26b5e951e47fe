"""The SQLite store: one process, one file (the default).

aiosqlite runs the one connection on its own thread, in autocommit (every write its own
transaction, without a second trip to the thread to commit it); WAL mode with
``synchronous=NORMAL``; the schema version is ``PRAGMA user_version``. A single process owns
every table: a second bot process on the same file is kept out by a lock on
``<file>.owner`` that the operating system drops when the process dies.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import IO, Any

import aiosqlite

from bot.store.model import StoreError, TableRow, TournamentRow
from bot.store.sql import Conflict, Row, Sql
from bot.store.sqlstore import SqlStore

#: What SQLite answers for a second row with the same key.
UNIQUE = frozenset({"SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE"})

#: ``RETURNING`` came with SQLite 3.35 (2021).
SQLITE_NEEDED = (3, 35)

#: Tries to switch a file to write-ahead logging (about 20 s of waiting in all).
WAL_ATTEMPTS = 30

WORDS = {"id": "INTEGER PRIMARY KEY", "bigint": "INTEGER", "json": "TEXT", "bool": "INTEGER",
         #: A transaction is alone on SQLite (one connection): the queue needs no lock.
         "queue_lock": "SELECT 1",
         "false": "0", "true": "1", "real": "REAL"}


def statements(script: str) -> list[str]:
    """The statements of a migration script, split where SQLite says a statement ends (an
    unfinished last one is kept, for SQLite to refuse)."""
    found: list[str] = []
    current = ""
    for piece in script.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if current.strip(" \n;"):
                found.append(current)
            current = ""
    if current.strip(" \n;"):
        found.append(current.rstrip(";"))
    return found


def _conflict(e: sqlite3.IntegrityError) -> Exception:
    """A second row with the same key is a ``Conflict``; any other refusal stays as it is."""
    return Conflict(str(e)) if e.sqlite_errorname in UNIQUE else e


class SqliteSql:
    """Statements on the one connection. Outside a transaction each waits while another
    coroutine's transaction is open, so that it neither joins that transaction nor is rolled
    back with it (statements reach the connection's thread in the order they are made)."""

    writes_in_with = False

    def __init__(self, database: SqliteDatabase, guard: asyncio.Lock | None) -> None:
        self.database = database
        self._guard = guard

    async def execute(self, sql: str, *args: Any) -> None:
        # The moves' path: one coroutine over aiosqlite's, unless a transaction is open.
        if self._guard is not None and self._guard.locked():
            await self._run(self.database.con.execute, sql, args)
            return
        try:
            await self.database.con.execute(sql, args)
        except sqlite3.IntegrityError as e:
            raise _conflict(e) from None

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._run(self.database.con.executemany, sql, rows)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        rows: list[Row] = list(await self._run(self.database.con.execute_fetchall, sql, args))
        return rows

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        rows = await self.fetch(sql, *args)
        return rows[0][0] if rows else None

    async def _run(self, call: Any, sql: str, args: Any) -> Any:
        try:
            if self._guard is not None and self._guard.locked():
                async with self._guard:
                    return await call(sql, args)
            return await call(sql, args)
        except sqlite3.IntegrityError as e:
            raise _conflict(e) from None

    def transaction(self) -> AbstractAsyncContextManager[Sql]:
        """(Not nested: the connection has one transaction at a time.)"""
        return self.database.begin("BEGIN")


class SqliteDatabase(SqliteSql):
    """The file and its one connection."""

    words: Mapping[str, str] = WORDS

    def __init__(self, path: str | Path) -> None:
        super().__init__(self, asyncio.Lock())
        self.where = self.path = str(path)
        self._con: aiosqlite.Connection | None = None

    @property
    def con(self) -> aiosqlite.Connection:
        if self._con is None:
            raise StoreError("the store is not open")
        return self._con

    async def open(self) -> None:
        if sqlite3.sqlite_version_info < SQLITE_NEEDED:
            raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old: the bot needs "
                             f"{'.'.join(map(str, SQLITE_NEEDED))} or newer")
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._con = await aiosqlite.connect(self.path, isolation_level=None)
        self._con.row_factory = aiosqlite.Row
        await self._write_ahead_log()
        await self._con.execute("PRAGMA foreign_keys = ON")
        await self._con.execute("PRAGMA synchronous = NORMAL")

    async def _write_ahead_log(self) -> None:
        """Switch the file to write-ahead logging. SQLite answers "database is locked" at
        once, without waiting its busy timeout, when another connection switches it or
        migrates it at that moment (processes starting together): wait and try again."""
        for attempt in range(WAL_ATTEMPTS):
            try:
                await self.con.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) or attempt == WAL_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(0.05 * (attempt + 1))

    async def close(self) -> None:
        if self._con is not None:
            await self._con.close()
            self._con = None

    @asynccontextmanager
    async def begin(self, begin: str) -> AsyncIterator[Sql]:
        assert self._guard is not None
        async with self._guard:
            await self.con.execute(begin)
            try:
                yield SqliteSql(self, None)
            except BaseException:
                await self.con.execute("ROLLBACK")
                raise
            await self.con.execute("COMMIT")

    # -- migrations ------------------------------------------------------------------------

    async def version(self, sql: Sql | None = None) -> int:
        return int(await (sql or self).fetchval("PRAGMA user_version") or 0)

    def migrating(self) -> AbstractAsyncContextManager[Sql]:
        # BEGIN IMMEDIATE takes the file's write lock: processes starting together wait.
        return self.begin("BEGIN IMMEDIATE")

    async def run_script(self, sql: Sql, script: str) -> None:
        for statement in statements(script):
            await sql.execute(statement)

    async def set_version(self, sql: Sql, version: int) -> None:
        await sql.execute(f"PRAGMA user_version = {int(version)}")

    # -- copies (python -m bot.migrate) ----------------------------------------------------

    async def column_types(self, sql: Sql, table: str) -> dict[str, str]:
        return {r["name"]: str(r["type"]).lower()
                for r in await sql.fetch(f"PRAGMA table_info({table})")}

    async def copy_rows(self, sql: Sql, table: str, columns: Sequence[str],
                        rows: Sequence[Sequence[Any]]) -> None:
        await sql.executemany(f"INSERT INTO {table} ({', '.join(columns)}) "
                              f"VALUES ({', '.join('?' * len(columns))})", rows)

    async def follow_ids(self, sql: Sql, table: str) -> None:
        """An ``INTEGER PRIMARY KEY`` goes on after the largest id by itself."""


class SqliteStore(SqlStore):
    """The SQLite store. One connection; aiosqlite runs it on its own thread."""

    db: SqliteDatabase

    def __init__(self, path: str | Path) -> None:
        self.db = SqliteDatabase(path)
        self.path = self.db.path
        self._owner: IO[bytes] | None = None

    async def close(self) -> None:
        await self.db.close()
        if self._owner is not None:
            self._owner.close()  # closing the file drops its lock
            self._owner = None

    # -- ownership -------------------------------------------------------------------------

    async def claim_shards(self, shard_ids: Sequence[int], shard_count: int) -> bool:
        """One process owns everything on an SQLite file, whatever its shards: the claim is
        the file's ``.owner`` lock, refused while another process holds it."""
        if self._owner is not None or self.path == ":memory:":
            return True
        lock = open(self.path + ".owner", "ab")  # noqa: SIM115 - held until close()
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            return False
        lock.truncate(0)
        lock.write(f"{os.getpid()}\n".encode())
        lock.flush()
        self._owner = lock
        return True

    async def owned_tables(self) -> list[TableRow]:
        return await self.open_tables()

    async def owned_tournaments(self) -> list[TournamentRow]:
        return await self.tournaments_where("TRUE")

    async def ownership_lost(self) -> None:
        # A file lock cannot be lost while the process lives.
        await asyncio.Event().wait()
