"""What a backup is: a file of one database at one moment, and what it holds.

Both databases' copies are described alike: the schema version and how many rows each table
had at the moment of the copy (read in the same snapshot as the copy itself, so a check can
demand exactly these). Files are named by the moment, in UTC, so a folder of them sorts by
time.

>>> Copy("data/x.sqlite3", Path("backups/f.sqlite3"), 10,
...      {"tables": 1, "hands": 3, "actions": 84, "results": 2, "stale": 0}).summary()
'schema version 10: 1 table, 3 hands, 84 actions, 2 results; 90 rows in all'
>>> stamped(Path("backups"), ".sqlite3", at=datetime(2026, 11, 27, 3, 15, tzinfo=UTC)).name
'filicau-20261127T031500Z.sqlite3'
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

#: The tables named in a summary, in this order: what an operator recognises.
SUMMARY = ("tables", "hands", "actions", "results")

#: Where copies go unless told: a folder beside the bot's checkout (its working directory).
DEFAULT_FOLDER = Path("backups")

#: How a backup file begins: SQLite's header, and pg_dump's custom format.
SQLITE_MAGIC = b"SQLite format 3\0"
PGDUMP_MAGIC = b"PGDMP"
SQLITE_SUFFIX = ".sqlite3"
PGDUMP_SUFFIX = ".pgdump"


class BackupError(RuntimeError):
    """The backup or the restore cannot be done; the message says why and what to do."""


@dataclass
class Copy:
    """A backup file and what it held when it was made (or, restored, what it holds)."""

    #: The database copied (an SQLite path, a PostgreSQL host and name; never a password).
    source: str
    file: Path
    version: int
    #: Rows per table, at the moment of the copy.
    rows: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self) -> str:
        # (Every name in SUMMARY is a plural in s.)
        named = ", ".join(f"{self.rows[t]} {t if self.rows[t] != 1 else t[:-1]}"
                          for t in SUMMARY if t in self.rows)
        total = sum(self.rows.values())
        return (f"schema version {self.version}: {named}; {total} rows in all" if named
                else f"schema version {self.version}: {total} rows in all")


def durable(path: Path) -> None:
    """``path`` and its folder's entry for it on disk (a rename is only as durable as the
    folder)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def kind(file: Path) -> str:
    """``"sqlite"`` or ``"postgres"``: what made the backup ``file``, read from its first
    bytes (not its name)."""
    try:
        with open(file, "rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as e:
        raise BackupError(f"cannot read {file}: {e.strerror}") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PGDUMP_MAGIC):
        return "postgres"
    raise BackupError(f"{file} is neither an SQLite database nor a pg_dump archive "
                      "(custom format): not a backup of this bot")


def stamped(folder: Path, suffix: str, label: str = "", at: datetime | None = None) -> Path:
    """A new file name in ``folder`` for a copy made now (``label`` says why, as
    ``before-restore``): ``filicau-20261127T031500Z.sqlite3``, numbered on if taken."""
    moment = (at or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    stem = "-".join(p for p in ("filicau", label, moment) if p)
    path, n = folder / f"{stem}{suffix}", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}{suffix}"
    return path


def target(to: Path | None, suffix: str, label: str = "") -> Path:
    """The file a backup is written to: ``to`` itself when its name ends in ``suffix``, else
    a new stamped name in the folder ``to`` (``backups/`` without it).

    >>> target(Path("/srv/latest.sqlite3"), ".sqlite3")
    PosixPath('/srv/latest.sqlite3')
    >>> target(Path("/srv/copies"), ".sqlite3").parent
    PosixPath('/srv/copies')
    """
    if to is not None and to.name.endswith(suffix):
        return to
    return stamped(DEFAULT_FOLDER if to is None else to, suffix, label)
