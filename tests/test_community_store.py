"""What finding a game and tournaments keep in the store, on both databases (SQLite and a
real PostgreSQL): players' and servers' settings, the rate limit of calls, tournaments, their
entrants and the tables of each round, made once whoever asks twice."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.store import CommunitySettings, PlayerSettings

GUILD = 810_000_000_000_000_001
CHANNEL = 840_000_000_000_000_001


async def test_a_players_settings_default_and_are_kept(store: Any) -> None:
    assert await store.player_settings(5) == PlayerSettings(user_id=5)
    await store.put_player_settings(PlayerSettings(user_id=5, reminders="dm", invites="dm",
                                                   locale="ro"))
    await store.put_player_settings(PlayerSettings(user_id=6, reminders="dm"))
    assert await store.player_settings(5) == PlayerSettings(user_id=5, reminders="dm",
                                                            invites="dm", locale="ro")
    await store.put_player_settings(PlayerSettings(user_id=5, reminders="off", locale="de"))
    got = await store.player_settings(5)
    assert (got.reminders, got.invites, got.locale) == ("off", "mention", "de")


async def test_a_servers_call_goes_out_once_a_while_however_many_ask(store: Any) -> None:
    # No role: no call at all.
    assert not await store.take_call(GUILD, "2026-01-01T10:00:00+00:00",
                                     "2026-01-01T09:45:00+00:00")
    await store.put_community_settings(CommunitySettings(guild_id=GUILD, call_role_id=77,
                                                         hold_minutes=5))
    assert (await store.community_settings(GUILD)).hold_minutes == 5
    asks = await asyncio.gather(*(store.take_call(GUILD, "2026-01-01T10:00:00+00:00",
                                                  "2026-01-01T09:45:00+00:00")
                                  for _ in range(5)))
    assert sorted(asks) == [False] * 4 + [True]
    # Ten minutes later: still within the interval; twenty: a new call may go.
    assert not await store.take_call(GUILD, "2026-01-01T10:10:00+00:00",
                                     "2026-01-01T09:55:00+00:00")
    assert await store.take_call(GUILD, "2026-01-01T10:20:00+00:00",
                                 "2026-01-01T10:05:00+00:00")
    # Changing the role keeps when it was last called.
    await store.put_community_settings(CommunitySettings(guild_id=GUILD, call_role_id=78))
    kept = await store.community_settings(GUILD)
    assert (kept.call_role_id, kept.last_call_at) == (78, "2026-01-01T10:20:00+00:00")


async def test_a_tournament_its_entrants_and_its_rounds(store: Any) -> None:
    row = await store.create_tournament(
        guild_id=GUILD, channel_id=CHANNEL, organizer_id=1, game="filicau", format="swiss",
        rounds=3, hands=2, settings={"seed": "x"}, starts_at="2026-01-01T10:00:00+00:00")
    assert (await store.get_tournament(row.id)) == row.model_copy(
        update={"created_at": row.created_at})
    assert [t.id for t in await store.live_tournaments(GUILD)] == [row.id]
    for user in ("3", "1", "2"):
        assert await store.add_entrant(row.id, user, f"name {user}")
    assert not await store.add_entrant(row.id, "1", "again")
    assert await store.remove_entrant(row.id, "2")
    assert not await store.remove_entrant(row.id, "2")
    assert [e.entrant for e in await store.entrants(row.id)] == ["3", "1"]

    tables = [["3", "cpu:easy", "1", "cpu:easy"]]
    started = await asyncio.gather(store.start_round(row.id, 1, tables),
                                   store.start_round(row.id, 1, tables))
    assert sorted(started) == [False, True]
    assert not await store.start_round(row.id, 3, tables)  # not the round after
    fresh = await store.get_tournament(row.id)
    assert (fresh.state, fresh.round) == ("running", 1)
    # Sign-up is over once the tournament is in play.
    assert not await store.add_entrant(row.id, "9", "late")
    assert not await store.remove_entrant(row.id, "3")

    [table] = await store.tournament_tables(row.id, 1)
    assert (table.seats, table.thread_id, table.table_id, table.result) == (
        tables[0], None, None, None)
    made = await store.create_table(guild_id=GUILD, channel_id=CHANNEL + 5, game="filicau",
                                    options={}, opener_id=1, seats=[None] * 4)
    await store.update_tournament_table(row.id, 1, 1, thread_id=CHANNEL + 5)
    await store.update_tournament_table(row.id, 1, 1, table_id=made.id)
    await store.update_tournament_table(row.id, 1, 1, result={"hands": []})
    found = await store.table_in_tournament(made.id)
    assert (found.thread_id, found.table_id, found.result) == (CHANNEL + 5, made.id,
                                                               {"hands": []})
    await store.update_tournament(row.id, state="finished", shown=3)
    done = await store.get_tournament(row.id)
    assert (done.state, done.shown) == ("finished", 3)
    assert await store.live_tournaments(GUILD) == []


async def test_the_process_that_owns_a_server_restores_its_tournaments(store: Any) -> None:
    other = GUILD + (1 << 22)  # the next shard of two
    for guild in (GUILD, other):
        await store.create_tournament(
            guild_id=guild, channel_id=CHANNEL, organizer_id=1, game="filicau",
            format="duplicate", rounds=1, hands=1, settings={},
            starts_at="2026-01-01T10:00:00+00:00")
    assert await store.claim_shards([(GUILD >> 22) % 2], 2)
    owned = {t.guild_id for t in await store.owned_tournaments()}
    # SQLite: one process owns every server; PostgreSQL: the shard's servers only.
    assert GUILD in owned
    assert owned in ({GUILD}, {GUILD, other})
