"""Which process drives which tables: claims on a real PostgreSQL (advisory locks that die with
the connection) and on SQLite (one process per file), contended by several stores and by
processes that are killed."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from bot.store import PostgresStore, SqliteStore, Store
from bot.store.shards import overlaps, parse_shard_ids, shard_of

ROOT = Path(__file__).resolve().parents[1]


def guild_on(shard: int, count: int, n: int = 0) -> int:
    """A guild id on this shard (its creation time bits chosen so)."""
    return ((shard + n * count) << 22) | 12345


async def eventually(check: Callable[[], Awaitable[bool]], what: str,
                     timeout: float = 15.0) -> None:
    """Wait for something another process causes (a killed process's connection to end),
    asking again until a deadline: there is nothing to be notified by."""
    deadline = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.05)


@pytest.fixture
async def opened(pg_url: str) -> AsyncIterator[Callable[[], Awaitable[PostgresStore]]]:
    made: list[PostgresStore] = []

    async def make() -> PostgresStore:
        store = PostgresStore(pg_url)
        await store.open()
        made.append(store)
        return store

    try:
        yield make
    finally:
        for store in made:
            await store.close()


# -- the arithmetic ----------------------------------------------------------------------------


def test_a_guild_is_on_the_shard_discord_sends_it_to() -> None:
    # Discord's formula: (guild_id >> 22) % shard_count.
    assert [shard_of(guild_on(s, 4), 4) for s in range(4)] == [0, 1, 2, 3]
    assert shard_of(81384788765712384, 2) == (81384788765712384 >> 22) % 2


def test_shards_of_two_counts_overlap_exactly_when_they_share_a_guild() -> None:
    for count in range(1, 9):
        for other_count in range(1, 9):
            for shard in range(count):
                for other in range(other_count):
                    shared = any(shard_of(g << 22, count) == shard
                                 and shard_of(g << 22, other_count) == other
                                 for g in range(count * other_count))
                    assert overlaps(shard, count, other, other_count) == shared


def test_shard_ids_are_read_as_ranges_and_lists() -> None:
    assert parse_shard_ids("0-3") == (0, 1, 2, 3)
    assert parse_shard_ids("4, 0-1") == (0, 1, 4)
    for bad in ("", "a", "3-1", "1-", "-2"):
        with pytest.raises(ValueError):
            parse_shard_ids(bad)


# -- PostgreSQL ------------------------------------------------------------------------------


async def open_tables_on(store: Store, shards: range, count: int, n: int = 0) -> list[int]:
    """A table in a guild of each of these shards; their guilds."""
    guilds = [guild_on(s, count, n) for s in shards]
    for i, guild in enumerate(guilds):
        await store.create_table(guild_id=guild, channel_id=1000 * n + i, game="filicau",
                                 options={}, opener_id=1, seats=[None] * 4)
    return guilds


async def owned_guilds(store: Store) -> list[int]:
    return [r.guild_id for r in await store.owned_tables()]


async def test_a_shard_has_one_owner(opened: Callable[[], Awaitable[PostgresStore]]) -> None:
    a, b = await opened(), await opened()
    guilds = await open_tables_on(a, range(4), 4, 7)
    assert await a.claim_shards([0, 1], 4)
    assert not await b.claim_shards([1, 2], 4)  # all or nothing: 2 is free, 1 is not
    assert await owned_guilds(b) == []
    assert await b.claim_shards([2, 3], 4)
    assert await owned_guilds(a) == guilds[:2]
    assert await owned_guilds(b) == guilds[2:]


async def test_another_shard_count_waits_for_every_overlapping_shard(
    opened: Callable[[], Awaitable[PostgresStore]],
) -> None:
    old0, old1, new = await opened(), await opened(), await opened()
    assert await old0.claim_shards([0], 2)
    assert await old1.claim_shards([1], 2)
    # Shard 2 of 4 holds guilds of shard 0 of 2; shards 1 and 3 of 4 those of shard 1 of 2.
    assert not await new.claim_shards([2], 4)
    assert not await new.claim_shards([1, 3], 4)
    await old1.close()  # a rolling restart: the old process of shard 1 stops
    assert await new.claim_shards([1, 3], 4)
    other = await opened()
    assert not await other.claim_shards([0], 1)  # one process for everything: all overlap
    assert not await other.claim_shards([0], 4)  # still held by old0 (count 2)
    await old0.close()
    assert await other.claim_shards([0, 2], 4)


async def test_stores_claiming_at_once_never_both_win(
    opened: Callable[[], Awaitable[PostgresStore]],
) -> None:
    for _ in range(10):
        a, b = await opened(), await opened()
        won = await asyncio.gather(a.claim_shards([0], 2), b.claim_shards([0, 2], 4))
        assert sorted(won) == [False, True]
        await a.close()
        await b.close()


async def test_owned_tables_are_the_open_tables_of_the_claimed_shards(
    opened: Callable[[], Awaitable[PostgresStore]],
) -> None:
    store = await opened()
    ids = {}
    for shard in range(4):
        row = await store.create_table(guild_id=guild_on(shard, 4), channel_id=100 + shard,
                                       game="filicau", options={}, opener_id=1,
                                       seats=[None] * 4)
        ids[shard] = row.id
    closed = await store.create_table(guild_id=guild_on(1, 4, 3), channel_id=200,
                                      game="filicau", options={}, opener_id=1, seats=[None] * 4)
    await store.update_table(closed.id, state="closed")
    assert await store.owned_tables() == []  # nothing claimed, nothing driven
    assert await store.claim_shards([1, 3], 4)
    assert [r.id for r in await store.owned_tables()] == [ids[1], ids[3]]
    assert len(await store.open_tables()) == 4  # the others are still there for their owner


async def test_a_lost_connection_ends_the_ownership(
    opened: Callable[[], Awaitable[PostgresStore]], pg_url: str,
) -> None:
    a, b = await opened(), await opened()
    guilds = await open_tables_on(a, range(1), 1)
    assert await a.claim_shards([0], 1)
    assert await owned_guilds(a) == guilds
    assert a._owner is not None
    pid = a._owner.get_server_pid()
    admin = await asyncpg.connect(pg_url)
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()
    await asyncio.wait_for(a.ownership_lost(), 10)
    assert await owned_guilds(a) == []  # it drives nothing any more
    await eventually(lambda: b.claim_shards([0], 1), "the lock to be free")


CLAIMER = """
import asyncio, sys
from bot.store import make_store

async def main():
    store = make_store(sys.argv[1], sys.argv[1])
    await store.open()
    print(await store.claim_shards([int(sys.argv[2])], int(sys.argv[3])), flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


async def claimer(url: str, shard: int, count: int) -> asyncio.subprocess.Process:
    """Another process holding a claim until it is killed."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CLAIMER, url, str(shard), str(count), cwd=ROOT,
        stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), 30)
    assert line.strip() == b"True"
    return proc


async def test_a_killed_process_gives_its_shards_up(
    opened: Callable[[], Awaitable[PostgresStore]], pg_url: str,
) -> None:
    proc = await claimer(pg_url, 1, 2)
    store = await opened()
    try:
        assert not await store.claim_shards([1, 3], 4)
        assert await store.claim_shards([0, 2], 4)  # the other half is free
    finally:
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    late = await opened()
    await eventually(lambda: late.claim_shards([1, 3], 4), "the killed process's shards")


# -- SQLite: one process owns everything -------------------------------------------------------


async def test_sqlite_one_process_owns_every_table(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    first, second = SqliteStore(path), SqliteStore(path)
    await first.open()
    await second.open()
    try:
        assert await first.claim_shards([0, 1], 4)  # whatever the shards: all of it
        guilds = await open_tables_on(first, range(4), 4)
        assert await owned_guilds(first) == guilds
        assert not await second.claim_shards([2, 3], 4)  # a second process is kept out
        await first.close()
        assert await second.claim_shards([0], 1)
    finally:
        await first.close()
        await second.close()


async def test_sqlite_a_killed_process_gives_the_file_up(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    proc = await claimer(url, 0, 1)
    store: Store = SqliteStore(tmp_path / "bot.sqlite3")
    await store.open()
    try:
        assert not await store.claim_shards([0], 1)
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        # The operating system drops the dead process's lock with its files.
        assert await store.claim_shards([0], 1)
    finally:
        await store.close()


def test_processes_keep_to_their_shards_share_of_the_tokens_global_limit() -> None:
    """Discord's 50 requests a second are per token: a process running half the shards
    spends half the budget (its table edits are spaced twice as far apart)."""
    from bot.client import FilicauBot
    from bot.settings import Settings

    def share(**shards: object) -> float:
        settings = Settings(discord_token="a.b.c", database_url="postgresql://unused/x",
                            **shards)  # type: ignore[arg-type]
        return FilicauBot(settings).rate_share

    assert share() == 1
    assert share(shard_count=4) == 1  # one process runs all four
    assert share(shard_count=4, shard_ids="0-1") == 0.5
    assert share(shard_count=4, shard_ids="3") == 0.25
