"""Backups of the PostgreSQL store: ``pg_dump`` in its custom format, while the bot runs.

``pg_dump`` reads the whole database in one repeatable-read transaction, so a dump is the
database at one moment whatever the bot writes meanwhile; here that transaction's snapshot is
exported first (``pg_export_snapshot``) and handed to ``pg_dump --snapshot``, so that the row
counts this module reads are those of the dump, and a check can demand exactly them. A check
restores the dump into a scratch database (``pg_restore``), counts its rows, and opens it with
the bot's own store, whose schema version must be the dump's.

``pg_dump`` and ``pg_restore`` are PostgreSQL's own client programs (Debian:
``postgresql-client``), found on ``PATH``; ``pg_dump`` must be of the server's major version
or newer, and refuses otherwise. They read the password from ``PGPASSWORD``, never from their
command line (which every user of the machine can read), and the server settings that asyncpg
takes from ``DATABASE_URL``'s query (``?synchronous_commit=on``) from ``PGOPTIONS``.

Restoring claims the whole bot's ownership, as a process of one shard would (the advisory lock
of shard 0 of 1, which overlaps every shard of every count), and holds the migrations' lock:
it is refused while any bot process runs on the database, and a bot process started
meanwhile waits for it before it reads the schema. The database it replaces is dumped first.

>>> url, env = libpq("postgresql://filicau:s%40cret@db.example:5433/filicau"
...                   "?synchronous_commit=on&ssl=require")
>>> url
'postgresql://filicau@db.example:5433/filicau?sslmode=require'
>>> env
{'PGPASSWORD': 's@cret', 'PGOPTIONS': '-c synchronous_commit=on'}
>>> toc_tables(["220; 1259 16418 TABLE public actions postgres",
...             "3480; 0 16418 TABLE DATA public actions postgres"])
{'actions'}
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import time
import urllib.parse
from collections.abc import Iterable, Sequence
from pathlib import Path

import asyncpg

from bot.backup.copies import PGDUMP_SUFFIX, BackupError, Copy, durable, kind, target
from bot.store import MIGRATIONS, PostgresStore
from bot.store.postgres import CLAIM_BASE, MAX_SHARD_COUNT, MIGRATE_MUTEX, PostgresDatabase

#: The connection parameters libpq takes in a URL's query; asyncpg passes any other to the
#: server as a setting.
LIBPQ = frozenset({
    "host", "hostaddr", "port", "dbname", "user", "passfile", "channel_binding",
    "connect_timeout", "client_encoding", "options", "application_name",
    "fallback_application_name", "keepalives", "keepalives_idle", "keepalives_interval",
    "keepalives_count", "tcp_user_timeout", "sslmode", "sslcert", "sslkey", "sslpassword",
    "sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version",
    "ssl_max_protocol_version", "gssencmode", "krbsrvname", "gsslib", "service",
    "target_session_attrs", "load_balance_hosts"})
#: pg_restore's table of contents: ``220; 1259 16418 TABLE public actions postgres``.
TOC_TABLE = re.compile(r"^\d+; \d+ \d+ TABLE (?!DATA )(\S+) (\S+) ")
#: ``pg_restore`` into a database that may hold an older copy: each object dropped and made
#: again, all or nothing, owned by the restoring role, without the source's grants.
RESTORE = ("--clean", "--if-exists", "--single-transaction", "--exit-on-error", "--no-owner",
           "--no-privileges")


def libpq(url: str) -> tuple[str, dict[str, str]]:
    """``DATABASE_URL`` as ``pg_dump`` and ``pg_restore`` take it: the URL without its
    password, and their environment (``PGPASSWORD``, ``PGOPTIONS``)."""
    parts = urllib.parse.urlsplit(url)
    kept: list[tuple[str, str]] = []
    settings: list[str] = []
    for key, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=True):
        key = "sslmode" if key == "ssl" else key  # asyncpg's spelling
        if key == "search_path":
            raise BackupError("DATABASE_URL names a schema (search_path): a backup holds a "
                              "whole database; give the bot a database of its own")
        if key in LIBPQ:
            kept.append((key, value))
        else:
            # PGOPTIONS separates options by spaces: one inside a value is escaped.
            settings.append("-c " + f"{key}={value}".replace("\\", "\\\\").replace(" ", "\\ "))
    userinfo, _, hostport = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    netloc = f"{user}@{hostport}" if user else hostport
    env: dict[str, str] = {}
    if password:
        env["PGPASSWORD"] = urllib.parse.unquote(password)
    if settings:
        env["PGOPTIONS"] = " ".join(settings)
    return urllib.parse.urlunsplit(parts._replace(
        netloc=netloc, query=urllib.parse.urlencode(kept))), env


def where(url: str) -> str:
    """The database for messages: host and name, never the password."""
    return PostgresDatabase(url).where


def toc_tables(lines: Iterable[str]) -> set[str]:
    """The tables of a dump, from the lines of ``pg_restore --list``."""
    return {m.group(2) for line in lines if (m := TOC_TABLE.match(line))}


async def run(program: str, args: Sequence[str], url: str | None = None) -> str:
    """Run one of PostgreSQL's client programs (on ``url``'s database); its output."""
    path = shutil.which(program)
    if path is None:
        raise BackupError(f"{program} is not installed: install PostgreSQL's client programs "
                          "(Debian: apt-get install postgresql-client), of the server's major "
                          "version or newer, or put their folder first on PATH")
    env: dict[str, str] = {}
    extra: list[str] = []
    if url is not None:
        conninfo, env = libpq(url)
        extra = [f"--dbname={conninfo}"]
    proc = await asyncio.create_subprocess_exec(
        path, *args, *extra, env={**os.environ, **env}, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    if proc.returncode != 0:
        said = " ".join(err.decode(errors="replace").split())
        if "version mismatch" in said or "unsupported version" in said:
            said += (" (PostgreSQL's client programs must be of the server's major version or "
                     "newer: put their folder first on PATH, e.g. /usr/lib/postgresql/16/bin)")
        raise BackupError(f"{program} failed: {said or f'exit status {proc.returncode}'}")
    return out.decode(errors="replace")


async def rows(con: asyncpg.Connection) -> dict[str, int]:
    """Rows per table of the connection's schema, in its current transaction."""
    names = [r["tablename"] for r in await con.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
        "ORDER BY tablename")]
    counted: dict[str, int] = {}
    for name in names:
        counted[name] = int(await con.fetchval(f'SELECT count(*) FROM "{name}"'))
    return counted


async def schema_version(con: asyncpg.Connection) -> int | None:
    """The bot's schema version, or None where the bot never ran."""
    if not await con.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
        return None
    return int(await con.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations"))


async def back_up(url: str, to: Path | None = None, label: str = "") -> Copy:
    """Dump the database at ``url`` into ``to`` (a file, or a folder for a stamped name;
    ``backups/`` without it) while the bot may be writing it."""
    file = target(to, PGDUMP_SUFFIX, label)
    file.parent.mkdir(parents=True, exist_ok=True)
    partial = file.with_name(file.name + ".partial")
    began = time.monotonic()
    con = await asyncpg.connect(url)
    try:
        async with con.transaction(isolation="repeatable_read", readonly=True):
            snapshot = await con.fetchval("SELECT pg_export_snapshot()")
            version = await schema_version(con)
            if version is None:
                raise BackupError(f"{where(url)} holds no database of the bot "
                                  "(no schema_migrations): nothing to back up")
            counted = await rows(con)
            # The transaction stays open while pg_dump reads: its snapshot lives as long.
            await run("pg_dump", ["--format=custom", f"--snapshot={snapshot}",
                                  f"--file={partial}"], url)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        await con.close()
    partial.replace(file)
    durable(file)
    missing = set(counted) - toc_tables((await run("pg_restore", ["--list", str(file)]))
                                        .splitlines())
    if missing:
        raise BackupError(f"the dump {file} lacks the tables {sorted(missing)}")
    return Copy(where(url), file, version, counted, time.monotonic() - began)


async def claims(url: str) -> list[str]:
    """The bot processes that hold shards of the database, as ``process 1234 (shard 0 of
    2) from 10.0.0.5``."""
    con = await asyncpg.connect(url)
    try:
        held = await con.fetch(
            "SELECT l.pid, l.classid::bigint - $1 AS count, l.objid::bigint AS shard, "
            "host(a.client_addr) AS addr FROM pg_locks l "
            "LEFT JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
            "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND l.classid::bigint BETWEEN $1 + 1 AND $1 + $2 ORDER BY l.pid, shard",
            CLAIM_BASE, MAX_SHARD_COUNT)
    finally:
        await con.close()
    by_pid: dict[int, list[str]] = {}
    for r in held:
        by_pid.setdefault(r["pid"], []).append(
            f"shard {r['shard']} of {r['count']}" + (f" from {r['addr']}" if r["addr"] else ""))
    return [f"the server's process {pid} for {', '.join(what)}" for pid, what in by_pid.items()]


async def dump_version(file: Path) -> int:
    """The schema version a dump holds, read from its data (nothing is restored)."""
    script = await run("pg_restore", ["--data-only", "--table=schema_migrations", "--file=-",
                                      str(file)])
    versions: list[int] = []
    copying = False
    for line in script.splitlines():
        if line.startswith("COPY ") and "schema_migrations" in line:
            copying = True
        elif copying and line == "\\.":
            break
        elif copying:
            versions.append(int(line.split("\t", 1)[0]))
    if not versions:
        raise BackupError(f"{file} holds no schema_migrations: not a dump of this bot")
    return max(versions)


async def _restored(file: Path, url: str, tables: set[str]) -> dict[str, int]:
    """``pg_restore`` ``file`` into ``url``'s database after dropping the tables there that
    the dump lacks (a newer schema's, which would stand in the way of its migration); the
    rows it holds then."""
    con = await asyncpg.connect(url)
    try:
        present = {r["tablename"] for r in await con.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
        if present - tables:
            async with con.transaction():
                for name in sorted(present - tables):
                    await con.execute(f'DROP TABLE IF EXISTS "{name}" CASCADE')
        await run("pg_restore", [*RESTORE, str(file)], url)
        async with con.transaction(isolation="repeatable_read", readonly=True):
            return await rows(con)
    finally:
        await con.close()


async def _identity(url: str) -> tuple[object, ...]:
    con = await asyncpg.connect(url)
    try:
        row = await con.fetchrow(
            "SELECT current_database(), (SELECT oid FROM pg_database "
            "WHERE datname = current_database()), pg_postmaster_start_time()")
        assert row is not None
        return tuple(row)
    finally:
        await con.close()


async def check_into(copy: Copy, source_url: str, scratch_url: str) -> list[str]:
    """Restore the dump ``copy`` into the scratch database ``scratch_url`` and check it: the
    rows are those counted when it was made, and the bot's store opens it at the same schema
    version. The scratch database keeps the copy until the next check replaces it."""
    if await _identity(scratch_url) == await _identity(source_url):
        raise BackupError("--check-into names the bot's own database: give a scratch "
                          "database, made once with createdb")
    held = await claims(scratch_url)
    if held:
        raise BackupError(f"bot processes run on {where(scratch_url)} ({'; '.join(held)}): it "
                          "is no scratch database")
    tables = toc_tables((await run("pg_restore", ["--list", str(copy.file)])).splitlines())
    got = await _restored(copy.file, scratch_url, tables)
    if got != copy.rows:
        changed = sorted(t for t in set(got) | set(copy.rows) if got.get(t) != copy.rows.get(t))
        raise BackupError(f"the dump restored into {where(scratch_url)} holds other rows than "
                          f"the database did when it was made (in {', '.join(changed)})")
    store = PostgresStore(scratch_url, pool_size=1)
    await store.open()
    try:
        opened = store.upgraded_from
    finally:
        await store.close()
    if opened != copy.version:
        raise BackupError(f"the dump restored into {where(scratch_url)} opens at schema "
                          f"version {opened}, not the {copy.version} it was made at")
    return [f"checked: restored into {where(scratch_url)}, it holds the same rows and the "
            f"bot's store opens it at schema version {opened}"]


async def restore(file: Path, url: str, keep: Path | None = None) -> list[str]:
    """Put the dump ``file`` in place of the database at ``url``, which no bot process may be
    running on; the database it replaces is dumped first (into ``keep``, else ``backups/``).
    What was done, in lines."""
    if kind(file) != "postgres":
        raise BackupError(f"{file} is an SQLite database, and the bot's database is "
                          "PostgreSQL: to move between the two, see python -m bot.migrate")
    tables = toc_tables((await run("pg_restore", ["--list", str(file)])).splitlines())
    version = await dump_version(file)
    if version > len(MIGRATIONS):
        raise BackupError(f"{file} has schema version {version}, made by a newer bot than this "
                          f"one ({len(MIGRATIONS)}): upgrade the bot first")
    owner = PostgresStore(url, pool_size=1)
    # The whole bot's claim (shard 0 of 1): refused while any process runs on the database,
    # and a process started now waits until the restore is done.
    if not await owner.claim_shards([0], 1):
        held = await claims(url)
        raise BackupError(f"bot processes run on {where(url)} ({'; '.join(held)}): stop them "
                          "first (systemctl stop 'filicau-bot*'), then restore")
    # And the migrations' lock: a process that starts now waits for it as it opens the store,
    # before it reads the schema (the bot opens the store before it claims its shards).
    guard = await asyncpg.connect(url)
    try:
        await guard.execute("SELECT pg_advisory_lock($1, $2)", *MIGRATE_MUTEX)
        before = await schema_version(guard)
        kept = None if before is None else (
            await back_up(url, keep, label="before-restore")).file
        got = await _restored(file, url, tables)
    finally:
        await guard.close()
        await owner.close()
    copy = Copy(where(url), file, version, got)
    lines = [f"restored {file} into {where(url)} ({copy.summary()})"]
    lines.append(f"the database it replaced is kept in {kept}" if kept is not None
                 else f"{where(url)} held no database of the bot before")
    if version < len(MIGRATIONS):
        lines.append(f"the bot brings it from schema version {version} to {len(MIGRATIONS)} "
                     "when it starts")
    return lines
