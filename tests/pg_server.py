"""A real PostgreSQL for the tests: one throwaway cluster per test session, a fresh schema
per test (its own ``search_path``; a new schema costs milliseconds, a new database a second).

The server comes from the ``pgserver`` package (PostgreSQL's own binaries in a wheel; the
``[dev]`` extra installs it), started in a temporary folder. Run as root, pgserver runs the
server as a system user ``pgserver`` it creates (PostgreSQL refuses to run as root).
``TEST_POSTGRES_URL=postgresql://user@host/db`` uses a server of your own instead (its user
must be allowed to create databases). If no server can be had the tests that need one FAIL
with the reason: a store that is never tested is not a store.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import urllib.parse
import warnings
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

_numbers = itertools.count(1)


class Cluster:
    """A PostgreSQL server the tests may create databases on."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url

    def url(self, database: str | None = None, schema: str | None = None) -> str:
        parts = urllib.parse.urlsplit(self.admin_url)
        query = urllib.parse.parse_qsl(parts.query)
        if schema is not None:
            # asyncpg passes query parameters it does not know to the server as settings.
            query.append(("search_path", schema))
        return urllib.parse.urlunsplit(parts._replace(
            path=parts.path if database is None else "/" + database,
            query=urllib.parse.urlencode(query)))

    async def create_database(self) -> str:
        name = f"filicau_test_{os.getpid()}_{next(_numbers)}"
        con = await asyncpg.connect(self.admin_url)
        try:
            await con.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await con.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        finally:
            await con.close()
        return name

    async def drop_database(self, name: str) -> None:
        con = await asyncpg.connect(self.admin_url)
        try:
            await con.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await con.close()

    async def create_schema(self) -> str:
        name = f"test_{os.getpid()}_{next(_numbers)}"
        con = await asyncpg.connect(self.admin_url)
        try:
            await con.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
            await con.execute(f'CREATE SCHEMA "{name}"')
        finally:
            await con.close()
        return name

    async def drop_schema(self, name: str) -> None:
        con = await asyncpg.connect(self.admin_url)
        try:
            await con.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        finally:
            await con.close()


def start_cluster() -> tuple[Cluster, object | None]:
    """A cluster, and the pgserver handle that keeps it running (None for TEST_POSTGRES_URL)."""
    own = os.environ.get("TEST_POSTGRES_URL")
    if own:
        return Cluster(own), None
    try:
        with warnings.catch_warnings():
            # platformdirs warns that XDG_RUNTIME_DIR is unset (root in a container) and
            # falls back to /tmp/runtime-UID, which is what the cluster needs anyway.
            warnings.simplefilter("ignore")
            import pgserver
    except ImportError as e:
        pytest.fail(f"PostgreSQL tests need the pgserver package (pip install -e '.[dev]'): {e}",
                    pytrace=False)
    folder = Path(tempfile.mkdtemp(prefix="filicau-pg-"))
    try:
        server = pgserver.get_server(folder / "data", cleanup_mode="delete")
        # A throwaway cluster: durability buys nothing here and costs each test its fsyncs.
        server.psql("ALTER SYSTEM SET fsync = off; ALTER SYSTEM SET synchronous_commit = off; "
                    "ALTER SYSTEM SET full_page_writes = off; SELECT pg_reload_conf();")
    except Exception as e:
        log = folder / "data" / "log"
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else "(no log)"
        pytest.fail(f"PostgreSQL (pgserver) did not start: {e!r}\n{tail}", pytrace=False)
    return Cluster(server.get_uri()), server


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    cluster, server = start_cluster()
    try:
        yield cluster
    finally:
        if server is not None:
            server.cleanup()  # type: ignore[attr-defined]


@pytest.fixture
async def pg_url(pg_cluster: Cluster) -> AsyncIterator[str]:
    """The URL of a new, empty schema, dropped after the test."""
    name = await pg_cluster.create_schema()
    try:
        yield pg_cluster.url(schema=name)
    finally:
        await pg_cluster.drop_schema(name)
