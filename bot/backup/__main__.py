"""The command line of ``bot.backup`` (see its docstring)."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

import asyncpg

from bot.backup import postgres, sqlite
from bot.backup.copies import BackupError, Copy
from bot.migrate import bot_database
from bot.store import StoreError, is_postgres_url, sqlite_path


def made(copy: Copy) -> str:
    size = copy.file.stat().st_size
    return (f"backed up {copy.source} ({copy.summary()}) to {copy.file} "
            f"({size / 1e6:.1f} MB) in {copy.seconds:.1f} s")


async def back_up(url: str, to: Path | None, check_into: str | None) -> list[str]:
    if not is_postgres_url(url):
        if check_into is not None:
            raise BackupError("--check-into is for PostgreSQL: an SQLite copy is checked by "
                              "reading it back, which every backup does")
        copy = await asyncio.to_thread(sqlite.back_up, sqlite_path(url), to)
        return [made(copy), "checked: the copy reads back whole (integrity_check), with the "
                            "same rows as the database when it was made"]
    copy = await postgres.back_up(url, to)
    lines = [made(copy)]
    if check_into is None:
        lines.append("checked: pg_restore reads the dump and it holds every table "
                     "(--check-into a scratch database restores it too)")
    else:
        lines += await postgres.check_into(copy, url, check_into)
    return lines


async def restore(url: str, file: Path, keep: Path | None) -> list[str]:
    if is_postgres_url(url):
        return await postgres.restore(file, url, keep)
    return await sqlite.restore(file, sqlite_path(url), keep)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.backup",
        description="Back up the bot's database while it runs, or restore a backup.")
    parser.add_argument("--database", help="the database (default: DATABASE_URL, else "
                        "DATABASE_PATH, as the bot)")
    parser.add_argument("--to", type=Path, help="where copies go: a folder (each copy named by "
                        "the time, in UTC; default backups/), or a file named *.sqlite3 or "
                        "*.pgdump. With --restore: where the database it replaces is kept")
    parser.add_argument("--check-into", metavar="URL", help="PostgreSQL: also restore the "
                        "dump into this scratch database and open it with the bot's store")
    parser.add_argument("--restore", type=Path, metavar="FILE",
                        help="put this backup in place of the database (stop the bot first)")
    args = parser.parse_args(argv)
    if args.restore is not None and args.check_into is not None:
        parser.error("--check-into checks a new backup; --restore checks the file it restores")
    url = args.database or bot_database()
    try:
        if args.restore is not None:
            lines = asyncio.run(restore(url, args.restore, args.to))
        else:
            lines = asyncio.run(back_up(url, args.to, args.check_into))
    except (BackupError, StoreError, OSError, asyncpg.PostgresError, sqlite3.Error) as e:
        done = "nothing was restored" if args.restore is not None else "no backup was made"
        print(f"error: {e}; {done}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
