"""Backups of the SQLite store: SQLite's online backup API, while the bot runs.

The copy is made by ``sqlite3.Connection.backup`` in one step from a connection of its own
that holds one read transaction: in WAL mode a reader neither waits for the bot's writes nor
holds them up, and the whole copy is the database as of that transaction's first read, the
moves in the WAL that were committed by then included. The row counts are read in that same
transaction, so the copy is checked against exactly them. The bot's ownership lock
(``<file>.owner``) is neither needed nor touched: a backup is a reader like any other.

A copy is a single file (``journal_mode=DELETE``), complete without ``-wal`` or ``-shm``
beside it. Restoring one claims the file's ownership lock as a bot would, so it is refused
while a bot runs on the file and a bot started meanwhile waits for it; the database it
replaces is kept first.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.backup.copies import SQLITE_SUFFIX, BackupError, Copy, durable, kind, target
from bot.store import MIGRATIONS, SqliteStore

#: Seconds a connection waits for a lock (a checkpoint of the running bot) before failing.
BUSY_SECONDS = 30.0
#: What SQLite says of a file it cannot read as a database (a reason to restore).
DAMAGED = frozenset({"SQLITE_NOTADB", "SQLITE_CORRUPT"})
#: Files SQLite keeps beside a database; a restored file must not meet the old one's.
SIDECARS = ("-wal", "-shm", "-journal")


@contextmanager
def connected(path: Path, mode: str) -> Iterator[sqlite3.Connection]:
    """A connection to an existing file (``mode`` ``ro`` or ``rw``: never one that creates
    a new, empty database where none was), in autocommit, closed after."""
    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True,
                          timeout=BUSY_SECONDS, isolation_level=None)
    try:
        yield con
    finally:
        con.close()


def rows(con: sqlite3.Connection) -> dict[str, int]:
    """Rows per table of the database, in the connection's current transaction."""
    names = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")]
    return {n: int(con.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0]) for n in names}


def version(con: sqlite3.Connection) -> int:
    return int(con.execute("PRAGMA user_version").fetchone()[0])


def _written(source: sqlite3.Connection, file: Path, expected: dict[str, int]) -> None:
    """Copy ``source`` (in its open transaction) into ``file`` through a temporary name,
    checked before it takes the name."""
    partial = file.with_name(file.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        dest = sqlite3.connect(partial, isolation_level=None)
        try:
            source.backup(dest)
            dest.execute("PRAGMA journal_mode = DELETE")  # one file, nothing beside it
            problems = [r[0] for r in dest.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupError(f"the copy does not read back whole: {problems[:3]}")
            got = rows(dest)
            if got != expected:
                raise BackupError(f"the copy holds other rows than the database did: "
                                  f"{got} against {expected}")
        finally:
            dest.close()
        durable(partial)
        os.replace(partial, file)
        durable(file)
    finally:
        partial.unlink(missing_ok=True)


def back_up(db: Path, to: Path | None = None, label: str = "") -> Copy:
    """Copy the database file ``db`` into ``to`` (a file, or a folder for a stamped name;
    ``backups/`` without it) while the bot may be writing it."""
    if not db.is_file():
        raise BackupError(f"there is no database at {db} (DATABASE_PATH): nothing to back up")
    file = target(to, SQLITE_SUFFIX, label)
    file.parent.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    try:
        with connected(db, "rw") as source:
            source.execute("BEGIN")  # one read transaction: the copy and its counts agree
            try:
                at = version(source)
                counted = rows(source)
                _written(source, file, counted)
            finally:
                source.execute("ROLLBACK")
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{db}: {e}") from None
    return Copy(str(db), file, at, counted, time.monotonic() - began)


def read(file: Path) -> Copy:
    """What the backup ``file`` holds, after checking that it reads whole and that this
    version of the bot can run on it."""
    if kind(file) != "sqlite":
        raise BackupError(f"{file} is a PostgreSQL dump, and the bot's database is SQLite: "
                          "to move between the two, see python -m bot.migrate")
    try:
        with connected(file, "ro") as con:
            problems = [r[0] for r in con.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupError(f"{file} is damaged: {problems[:3]}")
            copy = Copy(str(file), file, version(con), rows(con))
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{file}: {e}") from None
    if copy.version > len(MIGRATIONS):
        raise BackupError(f"{file} has schema version {copy.version}, made by a newer bot "
                          f"than this one ({len(MIGRATIONS)}): upgrade the bot first")
    return copy


def owner_of(db: Path) -> str:
    """Who holds the file's ownership lock, as its ``.owner`` file says."""
    try:
        pid = Path(str(db) + ".owner").read_text(encoding="utf-8").strip()
    except OSError:
        pid = ""
    return f"process {pid}" if pid.isdigit() else "another process"


def _kept(db: Path, keep: Path | None) -> Path | None:
    """A copy of the database ``db`` as it is before it is replaced (its raw files if SQLite
    cannot read it: a damaged database is a reason to restore)."""
    if not db.exists():
        return None
    try:
        return back_up(db, keep, label="before-restore").file
    except BackupError:
        file = target(keep, SQLITE_SUFFIX, "before-restore")
        file.parent.mkdir(parents=True, exist_ok=True)
        for end in ("", *SIDECARS):
            if Path(str(db) + end).exists():
                shutil.copy2(str(db) + end, str(file) + end)
        return file


def _copied_into(file: Path, db: Path, expected: dict[str, int]) -> None:
    """Write the backup ``file`` over the database ``db`` in place, in one transaction under
    SQLite's own locks: a connection already open on ``db`` (a bot starting, waiting for the
    ownership) sees the old database or the restored one, never a file replaced under it."""
    with connected(file, "ro") as source:
        dest = sqlite3.connect(db, timeout=BUSY_SECONDS, isolation_level=None)
        try:
            source.backup(dest)
            if rows(dest) != expected:
                raise BackupError(f"{db} does not hold what {file} holds after the restore")
        finally:
            dest.close()


def _replaced(file: Path, db: Path, expected: dict[str, int]) -> None:
    """Write the backup ``file`` beside the database ``db`` and rename it into place: for a
    ``db`` that SQLite cannot open as a database at all."""
    restoring = db.with_name(db.name + ".restoring")
    restoring.unlink(missing_ok=True)
    try:
        _copied_into(file, restoring, expected)
        durable(restoring)
        for end in SIDECARS:  # the old database's, which SQLite would apply to the new
            Path(str(db) + end).unlink(missing_ok=True)
        os.replace(restoring, db)
        durable(db)
    finally:
        restoring.unlink(missing_ok=True)


async def restore(file: Path, db: Path, keep: Path | None = None) -> list[str]:
    """Put the backup ``file`` in place of the database ``db``, which no bot may be running
    on; the database it replaces is kept (in ``keep``, else ``backups/``). What was done, in
    lines."""
    copy = read(file)
    db.parent.mkdir(parents=True, exist_ok=True)
    owner = SqliteStore(db)
    # The bot's own lock: refused while a bot runs here, and a bot started now waits.
    if not await owner.claim_shards([0], 1):
        raise BackupError(f"a running bot ({owner_of(db)}) owns {db}: stop it first "
                          "(systemctl stop filicau-bot), then restore")
    try:
        kept = _kept(db, keep)
        try:
            _copied_into(file, db, copy.rows)
        except sqlite3.DatabaseError as e:
            if e.sqlite_errorname not in DAMAGED:
                raise
            _replaced(file, db, copy.rows)
    finally:
        await owner.close()
    lines = [f"restored {file} into {db} ({copy.summary()})"]
    lines.append(f"the database it replaced is kept in {kept}" if kept is not None
                 else f"there was no database at {db} before")
    if copy.version < len(MIGRATIONS):
        lines.append(f"the bot brings it from schema version {copy.version} to "
                     f"{len(MIGRATIONS)} when it starts")
    return lines
