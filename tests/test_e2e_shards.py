"""End to end at scale: two real bot processes (``python -m bot``), each running one shard of
the stand-in, sharing one real PostgreSQL. Tables in guilds of both shards are played; one
process is SIGKILLed mid-trick and started again and its table goes on; then both are
restarted under another shard count and every table goes on under its new owner, with no move
lost or stored twice."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from standin import Player, StandIn, serving, shard_process
from standin.game import Table

from bot.store.postgres import PostgresStore
from bot.texts import t
from engine import replay


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    async with serving(channels=2, guilds=2, shards=2) as server:
        yield server


def open_table(standin: StandIn, channel: int, seed: int) -> tuple[Table, list[Player]]:
    cid = standin.channel_ids[channel]
    players = [Player(standin, f"{n}{channel}", channel_id=cid) for n in ("ana", "bo")]
    return Table(standin, players, seed=seed, timeout=60), players


async def check_log(store: PostgresStore, table: Table, channel_id: int) -> int:
    """The stored hands of the table replay, their moves are exactly the accepted clicks
    (none lost, none twice); returns the table's id."""
    [row] = [r for r in await store.open_tables() if r.channel_id == channel_id]
    hands = sorted(await store.hands(row.id, limit=100), key=lambda h: h.number)
    for h in hands:
        replay(h.record())
    # Computers' moves are stored too: the players' moves are those of their seats.
    humans = [a.get("card") for h in hands for a in h.actions
              if h.header["members"][a["seat"]].isdigit()]
    assert humans == [c.custom_id.split(":")[-1] for c in table.moves]
    return row.id


@pytest.mark.slow
async def test_two_shard_processes_share_one_postgresql(
    standin: StandIn, tmp_path: Path, pg_url: str
) -> None:
    guild0, guild1 = (standin.guild_of[c] for c in standin.channel_ids)
    assert standin.shard_of(guild0) != standin.shard_of(guild1)
    procs = {s: shard_process(standin, tmp_path, pg_url, [s]) for s in (0, 1)}
    for p in procs.values():
        await p.start()
    store = PostgresStore(pg_url)
    await store.open()
    try:
        a, (a0, a1) = open_table(standin, 0, seed=1)
        b, (b0, b1) = open_table(standin, 1, seed=2)
        for table, (p, q) in ((a, (a0, a1)), (b, (b0, b1))):
            await table.open(p, [(p, 0), (q, 1)], game="filicau", computers=2)
            await table.start(p)
        # A click on guild 0's table copied into guild 1 reaches guild 1's process, which
        # does not drive that table: it says whose table it is, not that it is closed.
        table_b = b.table_message()
        assert table_b is not None
        [a_id] = [r.id for r in await store.open_tables()
                  if r.channel_id == standin.channel_ids[0]]
        for custom_id in (f"fc:hand:{a_id}", f"fc:join:{a_id}:0"):
            inter = await b0.click(custom_id, message=table_b, forge=True)
            assert b0.refused(inter) == t("err.other_server")
        assert await b.play_hand(1) is not None  # guild 1's table, to the end
        await a.play_hand(1, moves=6)  # guild 0's table: the second trick has two cards

        owner_a = procs[standin.shard_of(guild0)]
        await owner_a.kill()
        await owner_a.start()
        for p in (a0, a1):  # hand views drawn by the killed process are not refreshed
            await a.my_hand(p)
        assert await a.play_hand(1) is not None  # goes on where it was
        await b.next_hand(b1)
        await a.next_hand(a1)
        await a.play_hand(2, moves=5)
        await b.play_hand(2, moves=3)

        # Both stop; four shards now, two processes of two shards each.
        for p in procs.values():
            assert await p.stop() == 0
        standin.shard_count = 4
        new = [shard_process(standin, tmp_path, pg_url, [2 * i, 2 * i + 1], count=4,
                             name=f"new{i}")
               for i in (0, 1)]
        for p in new:
            await p.start()
        for table, players in ((a, (a0, a1)), (b, (b0, b1))):
            for q in players:
                await table.my_hand(q)
        assert await a.play_hand(2) is not None
        assert await b.play_hand(2) is not None

        for table, cid, guild in ((a, standin.channel_ids[0], guild0),
                                  (b, standin.channel_ids[1], guild1)):
            await check_log(store, table, cid)
            results = await store.results(guild)
            assert len(results) == 2  # standings see every hand of the guild's table
        for p in (*procs.values(), *new):
            assert p.errors() == [], p.log()[-3000:]
        for p in new:
            assert await p.stop() == 0
    finally:
        await store.close()
        for p in (*procs.values(),):
            await p.stop()
