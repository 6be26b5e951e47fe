"""Store micro-benchmark: what the calls made per move and per hand cost the bot's process.

    python -m benchmarks.store                      # SQLite and PostgreSQL, 200 hands each
    python -m benchmarks.store --database sqlite --hands 1000

Plays whole Filicău hands into a store, as a table does: ``start_hand``, one ``append_action``
per move (28), ``finish_hand`` and ``update_table`` (the seats), and reports for each call the
CPU time of this process (``time.process_time``: the event loop and aiosqlite's connection
thread together; PostgreSQL's own server is not counted), the part of it spent on the event
loop's thread (``time.thread_time``: what the store's own layer adds shows here, without the
noise of the driver's thread) and the wall time, per call. The
named peer, in the same run: the database driver alone (aiosqlite, asyncpg) executing the same
``INSERT`` of an action on the same database, so that the store's own cost per move is the
difference. ``--database postgresql`` starts a throwaway server (``pgserver``, the ``[dev]``
extra), or uses ``--postgres-url``. The first hand warms the caches and is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from benchmarks.load import throwaway_postgres
from bot.store import Store, make_store
from engine import Hand, make_rules, to_record
from engine.cards import PACK_32

CALLS = ("append_action", "start_hand", "finish_hand", "update_table")
PEER = "driver INSERT"


def a_hand() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the actions of one whole Filicău hand."""
    hand = Hand(make_rules("filicau", {}), 0, PACK_32)
    while hand.to_move is not None:
        hand.apply(hand.to_move, hand.legal_actions()[0])
    record = to_record(hand)
    actions = record.pop("actions")
    return {**record, "members": ["101", "102", "cpu:simple", "cpu:hard"]}, actions


class Clock:
    """CPU and wall seconds per call name."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.loop: dict[str, float] = defaultdict(float)
        self.wall: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.on = False

    async def time(self, name: str, call: Callable[[], Awaitable[Any]]) -> Any:
        cpu, loop, wall = time.process_time(), time.thread_time(), time.perf_counter()
        result = await call()
        if self.on:
            self.cpu[name] += time.process_time() - cpu
            self.loop[name] += time.thread_time() - loop
            self.wall[name] += time.perf_counter() - wall
            self.calls[name] += 1
        return result


Insert = Callable[[int, int, str], Awaitable[Any]]
INSERT = ("INSERT INTO actions (hand_id, idx, action, user_id, by_computer, at) "
          "VALUES ({}, {}, {}, {}, {}, {})")


async def driver_insert(url: str | None, path: Path
                        ) -> tuple[Insert, Callable[[], Awaitable[None]]]:
    """The peer: the driver alone inserting an action row, and how to close it."""
    if url is None:
        con = await aiosqlite.connect(path, isolation_level=None)
        await con.execute("PRAGMA synchronous = NORMAL")  # as the store's connection
        sql = INSERT.format(*"??????")

        async def insert_sqlite(hand_id: int, index: int, action: str) -> None:
            await con.execute(sql, (hand_id, index, action, 101, 0, "2025-01-01T00:00:00"))

        return insert_sqlite, con.close
    pool = await asyncpg.create_pool(url, min_size=1, max_size=16,
                                     server_settings={"synchronous_commit": "off"})
    pg_sql = INSERT.format(*(f"${i}" for i in range(1, 7)))

    async def insert_postgres(hand_id: int, index: int, action: str) -> None:
        await pool.execute(pg_sql, hand_id, index, action, 101, False, "2025-01-01T00:00:00")

    return insert_postgres, pool.close


async def measure(store: Store, insert: Insert, hands: int) -> Clock:
    header, actions = a_hand()
    clock = Clock()
    table = await store.create_table(guild_id=1, channel_id=1, game="filicau", options={},
                                     opener_id=101, seats=header["members"])
    peer_hands = []
    for number in range(1, hands + 2):
        clock.on = number > 1
        hand_id = await clock.time("start_hand", lambda n=number: store.start_hand(  # type: ignore[misc]
            table.id, n, {**header, "hand": n}))
        for index, action in enumerate(actions):
            await clock.time("append_action", lambda h=hand_id, i=index, a=action: (  # type: ignore[misc]
                store.append_action(h, i, a, user_id=101, by_computer=bool(i % 2))))
        await clock.time("finish_hand", lambda h=hand_id: store.finish_hand(  # type: ignore[misc]
            h, {"event": "game", "points": [82, 38]}))
        await clock.time("update_table", lambda: store.update_table(
            table.id, seats=header["members"], settings={"turn_timer": 60}))
        peer_hands.append(await store.start_hand(table.id, 100_000 + number, header))
    # The peer, afterwards (two writers taking turns would slow both): the same rows into
    # hands of its own, with the encoding the store does (json.dumps) counted.
    for number, hand_id in enumerate(peer_hands, start=1):
        clock.on = number > 1
        for index, action in enumerate(actions):
            await clock.time(PEER, lambda h=hand_id, i=index, a=action: insert(  # type: ignore[misc]
                h, i, json.dumps(a)))
    return clock


def report(name: str, clock: Clock) -> None:
    peer = clock.cpu[PEER] / clock.calls[PEER]
    print(f"{name}: per call, CPU µs of this process (of it on the event loop's thread) · "
          f"wall µs · CPU against the driver's own INSERT")
    for call in (*CALLS, PEER):
        cpu = clock.cpu[call] / clock.calls[call]
        loop = clock.loop[call] / clock.calls[call]
        wall = clock.wall[call] / clock.calls[call]
        print(f"  {call:<14} {cpu * 1e6:7.1f} µs CPU ({loop * 1e6:5.1f} on the loop)  "
              f"{wall * 1e6:7.1f} µs wall  {cpu / peer:5.2f}× ({clock.calls[call]} calls)")
    per_hand = sum(clock.cpu[c] for c in CALLS) / (clock.calls["start_hand"])
    print(f"  a hand's store calls: {per_hand * 1e3:.2f} ms CPU")


async def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="filicau-store-bench-") as tmp:
        folder = Path(tmp)
        for database in ("sqlite", "postgresql") if args.database == "both" else (args.database,):
            url: str | None = None
            server: Any = None
            if database == "postgresql":
                url = args.postgres_url
                if url is None:
                    url, server = throwaway_postgres(folder)
            path = folder / "bench.sqlite3"
            store = make_store(url, path)
            await store.open()
            insert, close = await driver_insert(url, path)
            try:
                report(database, await measure(store, insert, args.hands))
            finally:
                await close()
                await store.close()
                if server is not None:
                    server.cleanup()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.store", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--postgres-url", default=None,
                        help="a PostgreSQL database of your own instead of a throwaway server")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
