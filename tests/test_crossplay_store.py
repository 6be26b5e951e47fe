"""What play across servers keeps in the store, on both databases (SQLite and a real
PostgreSQL): servers' opt-in, the one queue and its matchmaker (opted-in servers only, no
barred player, never a blocked pair, each player seated once however many ask at once),
venues, reports, and clicks handed between processes taken once."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.store import CrossplaySettings, VenueRow, Waiting

GUILDS = [810_000_000_000_000_001 + (i << 22) for i in range(5)]


def waiting(user: int, guild: int, *, at: int, rated: bool = True) -> Waiting:
    return Waiting(user_id=user, guild_id=guild, channel_id=guild + 1, game="filicau",
                   rated=rated, name=f"P{user}", application_id=1, token=f"tok{user}",
                   queued_at=f"2026-01-01T10:00:{at:02d}+00:00")


async def opt_in(store: Any, *guilds: int) -> None:
    for g in guilds:
        await store.put_crossplay_settings(CrossplaySettings(guild_id=g, enabled=True))


async def test_a_servers_opt_in_is_off_until_it_says_so(store: Any) -> None:
    assert await store.crossplay_settings(GUILDS[0]) == CrossplaySettings(guild_id=GUILDS[0])
    on = CrossplaySettings(guild_id=GUILDS[0], enabled=True, games=("filko",),
                           channels=(5, 6))
    await store.put_crossplay_settings(on)
    assert await store.crossplay_settings(GUILDS[0]) == on
    assert not on.allows("filicau", 5) and on.allows("filko", 6) and not on.allows("filko", 7)


async def test_the_matchmaker_seats_four_of_opted_in_servers_never_a_blocked_pair(
        store: Any) -> None:
    await opt_in(store, *GUILDS[:4])
    for i, g in enumerate(GUILDS):
        await store.enqueue(waiting(100 + i, g, at=i))
    await store.enqueue(waiting(200, GUILDS[0], at=20))
    assert await store.form("filicau", 4) is not None  # 100..103: their servers are in
    # 104's server never opted in; 105 blocked 200, who waits longer: never both.
    await store.enqueue(waiting(105, GUILDS[1], at=21))
    await store.enqueue(waiting(106, GUILDS[2], at=22))
    await store.enqueue(waiting(107, GUILDS[3], at=23))
    await store.block(105, 200)
    assert await store.form("filicau", 4) is None
    await store.enqueue(waiting(108, GUILDS[3], at=24))
    group = await store.form("filicau", 4)
    assert group is not None
    assert {w.user_id for w in group} == {200, 106, 107, 108}  # the longest waiting first
    assert [w.user_id for w in await store.waiting("filicau")] == [104, 105]
    # Barred: never seated again, and out of the queue.
    await store.bar(105, by=1)
    assert await store.barred(105) and [w.user_id for w in await store.waiting()] == [104]
    await store.enqueue(waiting(105, GUILDS[1], at=30))
    for i, u in enumerate((109, 110, 111)):
        await store.enqueue(waiting(u, GUILDS[i], at=31 + i))
    group = await store.form("filicau", 4)
    assert group is None  # 104's server is out, 105 is barred: two are not four
    assert await store.unbar(105) and not await store.barred(105)
    assert await store.crossplay_names([105, 200, 7]) == {105: "P105", 200: "P200"}
    assert await store.blocked_among([105, 200, 7]) == {(105, 200)}
    assert await store.unblock(105, 200) and not await store.unblock(105, 200)


async def test_two_matchmakers_at_once_seat_each_player_once(store: Any) -> None:
    await opt_in(store, *GUILDS)
    for i in range(8):
        await store.enqueue(waiting(300 + i, GUILDS[i % 5], at=i))
    groups = await asyncio.gather(*(store.form("filicau", 4) for _ in range(3)))
    seated = [w.user_id for g in groups if g is not None for w in g]
    assert sorted(seated) == list(range(300, 308))  # two tables, nobody twice
    assert await store.waiting() == []


async def test_venues_reports_and_relayed_clicks(store: Any) -> None:
    table = await store.create_table(guild_id=GUILDS[0], channel_id=1, game="filicau",
                                     options={}, opener_id=1, seats=[None] * 4)
    venue = VenueRow(table_id=table.id, guild_id=GUILDS[1], channel_id=9, message_id=10,
                     members=(7,), runtime={"signal": {"message": 3}})
    await store.put_venue(venue)
    await store.put_venue(venue.model_copy(update={"message_id": 11}))
    assert await store.venues(table.id) == [venue.model_copy(update={"message_id": 11})]
    hand = await store.start_hand(table.id, 1, {"game": "filicau"})
    assert await store.report(7, hand, GUILDS[1], "stalling")
    assert not await store.report(7, hand, GUILDS[1], "other")  # once a hand
    [report] = await store.reports()
    assert (report.reporter_id, report.hand_id, report.reason) == (7, hand, "stalling")
    rid = await store.relay(1, {"id": "5", "token": "x"})
    taken = await asyncio.gather(store.take_relayed(rid, at=100.0, stale_before=70.0),
                                 store.take_relayed(rid, at=100.0, stale_before=70.0))
    assert sorted(taken, key=lambda x: x is None) == [{"id": "5", "token": "x"}, None]
    # Taken, not done: kept while its taker may still do it, then offered again, once.
    assert await store.relayed_for([1], stale_before=90.0) == []
    assert await store.take_relayed(rid, at=110.0, stale_before=90.0) is None
    assert await store.relayed_for([1], stale_before=101.0) == [rid]
    again = await asyncio.gather(store.take_relayed(rid, at=140.0, stale_before=101.0),
                                 store.take_relayed(rid, at=140.0, stale_before=101.0))
    assert sorted(again, key=lambda x: x is None) == [{"id": "5", "token": "x"}, None]
    await store.done_relayed(rid)
    assert await store.relayed_for([1], stale_before=1e12) == []


async def test_the_home_servers_of_open_tables_across_servers(store: Any) -> None:
    """What another shard process's ``/tables`` asks about: the servers whose tables across
    servers are open (a one-server table, or a closed one, is not among them)."""
    across = {"crossplay": True, "watch": 0}
    one = await store.create_table(guild_id=GUILDS[0], channel_id=1, game="filicau",
                                   options={}, opener_id=1, seats=[None] * 4, settings=across)
    await store.create_table(guild_id=GUILDS[0], channel_id=2, game="filicau", options={},
                             opener_id=1, seats=[None] * 4, settings=across)
    await store.create_table(guild_id=GUILDS[1], channel_id=3, game="filicau", options={},
                             opener_id=1, seats=[None] * 4, settings={"rated": True})
    closed = await store.create_table(guild_id=GUILDS[2], channel_id=4, game="filicau",
                                      options={}, opener_id=1, seats=[None] * 4,
                                      settings=across)
    await store.update_table(closed.id, state="closed")
    assert await store.homes_across() == [GUILDS[0]]
    await store.update_table(one.id, state="closed")
    assert await store.homes_across() == [GUILDS[0]]
    await store.update_table(closed.id, settings={"crossplay": False})
    assert await store.homes_across() == [GUILDS[0]]
