"""End to end, the Activity with shard processes: a table across servers, four people in four
servers on two shard processes (the real bot, ``python -m bot``, against the stand-in and one
real PostgreSQL), each person in the Activity of their own server's channel — served by the
process that does **not** drive the table. Every request of theirs is carried to the owner
(``bot.crossplay.relay``'s ``ask``) and its answer carried back; the table's updates reach
their sockets through the store and the bus. They play a whole hand there, a hint and a
refusal come back worded in the asker's language, every move is stored once, and no socket
message names a card its viewer may not know. Each server's table message links the table's
page with that server's key, and opens the Activity in its own channel."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from activity_helpers import hidden_named
from standin import Player, StandIn, serving, shard_process
from standin.crossgame import TIMEOUT, CrossTable
from standin.discord_objects import APP_ID
from standin.server import LAUNCH_ACTIVITY
from test_activity import next_step
from test_e2e_relay import four_servers_on
from test_web import receive

from bot.store.postgres import PostgresStore
from bot.texts import refusal, speaking, t
from engine import action_to_json, replay, seat_view
from engine.cards import code


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    """Four servers, one channel each, on two shards (as ``test_e2e_relay``'s), with the
    Activity."""
    async with serving(channels=4, guilds=4, shards=2, activities=True) as server:
        yield server


async def open_activity(standin: StandIn, http: aiohttp.ClientSession, base: str,
                        p: Player) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]:
    """What the Activity's page does in ``p``'s channel: the client's code exchanged for a
    ticket by the bot at ``base``, then the table's socket; its hello."""
    instance = standin.activity.join(standin.users[p.id], p.channel_id)
    async with http.post(f"http://127.0.0.1:{standin.port}/activities/rpc",
                         json={"user": p.id, "cmd": "AUTHORIZE",
                               "args": {"client_id": str(APP_ID), "scope": ["identify"]}}) as r:
        code = (await r.json())["data"]["code"]
    async with http.post(f"{base}/activity/api/session",
                         json={"code": code, "instance_id": instance.id}) as r:
        answer = await r.json()
        assert r.status == 200, answer
    ws = await http.ws_connect(f"{base}/activity/ws/{answer['ticket']}")
    hello = await receive(ws)
    await ws.send_json({"v": 1, "type": "resume", "hand": None, "at": 0})
    return ws, hello


async def answer_to(ws: aiohttp.ClientWebSocketResponse, kind: str,
                    seen: list[str], *kinds: str) -> dict[str, Any]:
    """The next message of ``kind`` (or ``kinds``) on the socket (a turn's clock or a step
    may come first)."""
    while True:
        msg = await ws.receive(timeout=TIMEOUT)
        assert msg.type is aiohttp.WSMsgType.TEXT, msg
        seen.append(msg.data)
        m: dict[str, Any] = json.loads(msg.data)
        if m["type"] == kind or m["type"] in kinds:
            return m


@pytest.mark.slow
async def test_the_activity_plays_a_table_that_another_shard_process_drives(
    standin: StandIn, tmp_path: Path, pg_url: str
) -> None:
    procs = {s: shard_process(standin, tmp_path, pg_url, [s], web=True) for s in (0, 1)}
    for p in procs.values():
        await p.start()
    store = PostgresStore(pg_url)
    await store.open()
    sockets: list[aiohttp.ClientWebSocketResponse] = []
    try:
        people = await four_servers_on(standin)
        # Bo's Discord speaks German: his answers come in German, wherever they are made.
        bo = people[1]
        bo.user = dataclasses.replace(bo.user, locale="de")
        standin.users[bo.id] = bo.user
        for p in people:
            # Casual: a hint is offered (a rated table's is refused, in the same way).
            inter = await p.command("play", where="everywhere", game="filicau", rated=False)
            assert p.response(inter).audience == p.id
        table = CrossTable(standin, people, seed=7)
        await standin.wait_for(lambda: all(table.table_message(p) for p in people),
                               TIMEOUT, "the table in every server's channel")
        [row] = await store.open_tables()
        other = procs[1 - standin.shard_of(row.guild_id)]
        base = f"http://127.0.0.1:{other.web_port}"
        standin.activity.target = f"{base}/activity"  # Discord's proxy: the other process

        [stored] = await store.hands(row.id, limit=1)
        members = stored.header["members"]
        by_seat: dict[int, aiohttp.ClientWebSocketResponse] = {}
        seen: dict[int, list[str]] = {}
        http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT))
        try:
            # Each server's table message links the table's page with its own server's
            # key; any process serves it, and no page names another server.
            links: dict[int, str] = {}
            for p in people:
                link = await standin.wait_for(lambda p=p: next(
                    (b["url"] for b in table.table_message(p).buttons  # type: ignore[union-attr]
                     if b.get("url")), None), TIMEOUT, f"the page's link in {p.name}'s server")
                links[p.id] = str(link)
            assert len(set(links.values())) == len(people)
            for p in people:
                async with http.get(links[p.id]) as r:
                    assert r.status == 200, links[p.id]
                    page = await r.text()
                others = {standin.guild_of[q.channel_id] for q in people if q is not p}
                assert not any(str(g) in page for g in others)
                assert not any(str(q.channel_id) in page for q in people if q is not p)
            # Every server's table message opens the Activity (*Open the table*), in the
            # process that got the click: a launch is the click's first answer, never
            # carried to the owner.
            for p in people:
                launched = await p.press(t("btn.open_table"), table.table_message(p))  # type: ignore[arg-type]
                await p.answer(launched)
                assert launched.type == LAUNCH_ACTIVITY, (p.name, launched.type)
            for p in people:
                ws, hello = await open_activity(standin, http, base, p)
                sockets.append(ws)
                seat = members.index(str(p.id))
                assert hello["viewer"] == {"role": "player", "seat": seat}
                by_seat[seat], seen[seat] = ws, []
                first = await answer_to(ws, "step", seen[seat])
                assert first["mine"]["seat"] == seat

            hand = replay(stored.record())
            bo_seat = members.index(str(bo.id))
            rng = random.Random(5)
            refused = hinted = False
            while not hand.finished:
                seat = hand.actors()[0]
                at = len(hand.actions)
                if seat != bo_seat and not refused:
                    # Bo out of turn: refused by the owner, worded here in his language.
                    card = seat_view(hand, bo_seat).hand[0]
                    await by_seat[bo_seat].send_json({
                        "v": 1, "type": "act", "hand": stored.id, "at": at,
                        "seat": bo_seat, "action": {"card": code(card)}})
                    no = await answer_to(by_seat[bo_seat], "error", seen[bo_seat])
                    assert no["reason"] == "illegal.not_your_turn", no
                    with speaking("de"):
                        assert no["text"] == refusal("illegal.not_your_turn", {})
                    refused = True
                if seat == bo_seat and not hinted:
                    # His hint: the owner's computer's advice, in his language.
                    await by_seat[seat].send_json({"v": 1, "type": "hint",
                                                   "hand": stored.id, "at": at})
                    hint = await answer_to(by_seat[seat], "answer", seen[seat], "error")
                    assert hint["type"] == "answer", hint
                    assert hint["hand"] == stored.id and hint["text"], hint
                    hinted = True
                action = rng.choice(hand.legal_actions(seat))
                await by_seat[seat].send_json({"v": 1, "type": "act", "hand": stored.id,
                                               "at": at, "seat": seat,
                                               "action": action_to_json(action)})
                hand.apply(seat, action)
                for s, ws in by_seat.items():
                    step = await next_step(ws, at + 1, seen[s])
                    mine = step["mine"]
                    assert mine["cards"] == [code(c) for c in seat_view(hand, s).hand]
                for s in by_seat:
                    assert hidden_named("\n".join(seen[s]), hand, s) == [], (s, at)
            assert refused and hinted
            # Every move stored once, by its player; every one carried to the owner.
            [stored] = await store.hands(row.id, limit=1)
            assert replay(stored.record()).actions == hand.actions
            rows = await store.db.fetch("SELECT by_computer FROM actions WHERE hand_id = ?",
                                        stored.id)
            assert len(rows) == len(hand.actions) and not any(r["by_computer"] for r in rows)
            # The table message of every server shows the hand's end.
            number = stored.number
            for p in people:
                await standin.wait_for(lambda p=p: table.result(number, p), TIMEOUT,
                                       f"the result in {p.name}'s channel")
        finally:
            for ws in sockets:
                await ws.close()
            await http.close()
        for p in procs.values():
            assert p.errors() == [], p.log()[-3000:]
    finally:
        await store.close()
        for p in procs.values():
            await p.stop()

