"""What the store's SQL runs on: one small interface over aiosqlite and asyncpg.

The store writes each statement once, in the SQL both databases speak (``?`` placeholders,
``INSERT ... ON CONFLICT ... DO UPDATE``, ``RETURNING``), and runs it through a ``Sql``:
``SqliteDatabase`` (``bot.store.sqlite``) hands it to aiosqlite as it is;
``PostgresDatabase`` (``bot.store.postgres``) numbers the placeholders (``$1``, ``$2``, ...)
once per statement text and hands it to asyncpg. JSON is kept as its text and booleans as
Python's on both, so rows come back alike.

Why not SQLAlchemy Core: measured (2 cores, load 7), an action's ``INSERT`` cost this process
50 µs of CPU through aiosqlite alone and 200-450 µs through SQLAlchemy 2.1's async engine
(its aiosqlite adapter makes three or four trips to the connection's thread per statement);
on PostgreSQL 125 µs through asyncpg's pool and 300-500 µs through SQLAlchemy's. The moves
are the hot path (issue 38), and what differs between the two databases here is a handful of
words.

>>> numbered("UPDATE hands SET result = ?, finished_at = ? WHERE id = ?")
'UPDATE hands SET result = $1, finished_at = $2 WHERE id = $3'
>>> marks(3)
'?, ?, ?'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bot.store.model import StoreError


class Conflict(StoreError):
    """A row with this key is already stored (a unique constraint refused the write)."""


class Row(Protocol):
    """A row as both drivers give it: by column name (and by position)."""

    def __getitem__(self, key: str | int, /) -> Any: ...
    def keys(self) -> Iterable[str]: ...


class Sql(Protocol):
    """Statements on one database, in autocommit, or inside ``transaction()``."""

    #: PostgreSQL runs a write inside a ``WITH`` (one round trip for two statements);
    #: SQLite does not.
    writes_in_with: bool

    async def execute(self, sql: str, *args: Any) -> None: ...
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...
    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...
    async def fetchrow(self, sql: str, *args: Any) -> Row | None: ...
    async def fetchval(self, sql: str, *args: Any) -> Any: ...

    def transaction(self) -> AbstractAsyncContextManager[Sql]:
        """Statements that commit together or not at all; nobody else's statement runs
        inside it."""
        ...


class Database(Sql, Protocol):
    """A database the store opens: its connections, its schema version and its DDL words."""

    #: The words that differ in the migrations' DDL (``bot.store.migrations``): ``id`` (an
    #: integer primary key given by the database), ``bigint``, ``json``, ``bool``,
    #: ``false``, ``true``, ``real``.
    words: Mapping[str, str]
    #: Where the database is, for messages (an SQLite path, a PostgreSQL host and name).
    where: str

    async def open(self) -> None: ...
    async def close(self) -> None: ...

    async def version(self, sql: Sql | None = None) -> int:
        """The schema version (``bot.store.migrations``), read through ``sql`` when given."""
        ...

    def migrating(self) -> AbstractAsyncContextManager[Sql]:
        """A transaction that no other process migrates at the same time."""
        ...

    async def run_script(self, sql: Sql, script: str) -> None:
        """The statements of a migration, inside its transaction."""
        ...

    async def set_version(self, sql: Sql, version: int) -> None: ...

    # -- for ``python -m bot.migrate``'s copy between databases ----------------------------

    async def column_types(self, sql: Sql, table: str) -> dict[str, str]:
        """The columns of a table and their declared types (lower case)."""
        ...

    async def copy_rows(self, sql: Sql, table: str, columns: Sequence[str],
                        rows: Sequence[Sequence[Any]]) -> None: ...

    async def follow_ids(self, sql: Sql, table: str) -> None:
        """New rows of ``table`` get ids after the ones copied in."""
        ...


def marks(n: int) -> str:
    """``n`` placeholders, for ``IN (...)``."""
    return ", ".join("?" * n)


_numbered: dict[str, str] = {}


def numbered(sql: str) -> str:
    """``sql`` with PostgreSQL's numbered placeholders (the store's SQL has no ``?`` in a
    string literal); each text is converted once."""
    try:
        return _numbered[sql]
    except KeyError:
        parts = sql.split("?")
        text = parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], start=1))
        _numbered[sql] = text
        return text
