"""The Activity's server side (``bot.web.activity``) against the stand-in's Discord: who is
playing is proven by Discord, never claimed by the page; a proven player's socket carries
their own hand and nobody else's; forged, replayed and misplaced codes, forged tickets and
actions for a seat the user does not hold are refused with nothing changed."""

from __future__ import annotations

import base64
import json
import random
import struct
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from activity_helpers import Site, activity_site, hidden_named
from standin.discord_objects import User
from test_web import receive
from web_helpers import _CODES

from bot.protocol import Op, parse
from bot.render import button
from bot.session import TableSession
from bot.web import protocol
from bot.web.activity import CSP, read_ticket, sign_ticket
from engine import action_to_json, seat_view
from engine.cards import code
from engine.record import to_record


async def ticket_of(site: Site, http: aiohttp.ClientSession, user: User, channel: int = 0,
                    **claims: Any) -> dict[str, Any]:
    code_, instance = await site.authorize(user, channel)
    async with http.post(f"{site.base}/activity/api/session",
                         json={"code": code_, "instance_id": instance, **claims}) as r:
        answer: dict[str, Any] = await r.json()
        answer["status"] = r.status
        return answer


async def open_socket(site: Site, http: aiohttp.ClientSession, ticket: str
                      ) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any], dict[str, Any]]:
    """The Activity's socket: its hello, and the first step after ``resume``."""
    ws = await http.ws_connect(f"{site.base}/activity/ws/{ticket}")
    hello = await receive(ws)
    await ws.send_json({"v": 1, "type": "resume", "hand": None, "at": 0})
    first = await receive(ws)
    return ws, hello, first


async def next_step(ws: aiohttp.ClientWebSocketResponse, at: int,
                    seen: list[str]) -> dict[str, Any]:
    """Messages until the step at ``at`` (each kept as received, in ``seen``)."""
    while True:
        msg = await ws.receive(timeout=10)
        assert msg.type is aiohttp.WSMsgType.TEXT, msg
        seen.append(msg.data)
        protocol.OUTGOING.validate_json(msg.data)
        m: dict[str, Any] = json.loads(msg.data)
        if m["type"] == "step" and m["at"] >= at:
            assert m["at"] == at, f"a step was skipped: {m['at']} after {at - 1}"
            return m


def seat_user(session: TableSession, seat: int) -> int:
    member = session.seats[seat]
    assert member is not None
    return int(member)


@pytest.mark.parametrize("game", ["filicau", "schafkopf3", "filcau20", "filko_hats"])
async def test_each_player_gets_their_own_hand_and_a_spectator_the_channels_view(
        tmp_path: Path, game: str) -> None:
    """Every seat's player in the Activity plays a whole hand through their socket: each
    gets every step, with their own cards and choices and never a card they may not know;
    a spectator in the Activity sees what the channel sees, move by move, although the
    table's web page is closed (watch off)."""
    async with activity_site(tmp_path) as site, aiohttp.ClientSession() as http:
        session = await site.table(game=game, seed=7, watch="off")
        hand = session.hand
        assert hand is not None
        n = hand.n
        sockets = []
        seen: list[list[str]] = []
        for seat in range(n):
            answer = await ticket_of(site, http, site.standin.users[seat_user(session, seat)])
            assert answer["status"] == 200, answer
            ws, hello, first = await open_socket(site, http, answer["ticket"])
            assert hello["viewer"] == {"role": "player", "seat": seat}
            assert first["mine"]["seat"] == seat
            assert first["mine"]["cards"] == [code(c) for c in seat_view(hand, seat).hand]
            sockets.append(ws)
            seen.append([json.dumps(first)])
        watcher = site.user(4242, "Wanda")
        answer = await ticket_of(site, http, watcher)
        spectator, hello, first = await open_socket(site, http, answer["ticket"])
        assert hello["viewer"] == {"role": "spectator", "seat": None}
        assert "mine" not in first and first["delayed"] is False
        watched = [json.dumps(first)]
        rng = random.Random(3)
        while not hand.finished:
            seat = hand.actors()[0]
            at = len(hand.actions)
            action = rng.choice(hand.legal_actions(seat))
            await sockets[seat].send_json({"v": 1, "type": "act", "hand": session.hand_id,
                                           "at": at, "seat": seat,
                                           "action": action_to_json(action)})
            for s, ws in enumerate(sockets):
                step = await next_step(ws, at + 1, seen[s])
                mine = step["mine"]
                assert mine["cards"] == [code(c) for c in seat_view(hand, s).hand]
                assert set(mine["legal"]) == {code(a.value) for a in hand.legal_actions(s)
                                              if a.kind == "card"}
            step = await next_step(spectator, at + 1, watched)
            assert step["move"]["seat"] == seat and "mine" not in step
            for s in range(n):
                assert hidden_named("\n".join(seen[s]), hand, s) == [], (s, at)
            assert hidden_named("\n".join(watched), hand, None) == [], at
        for ws in [*sockets, spectator]:
            await ws.close()


async def test_forged_replayed_and_misplaced_codes_are_refused(tmp_path: Path) -> None:
    async with activity_site(tmp_path, guilds=2) as site, aiohttp.ClientSession() as http:
        session = await site.table(channel=0)
        ana = site.standin.users[seat_user(session, 0)]
        url = f"{site.base}/activity/api/session"
        _, instance = await site.authorize(ana)

        async def refused(body: dict[str, Any]) -> str:
            async with http.post(url, json=body) as r:
                answer = await r.json()
                assert r.status == 403, answer
                assert set(answer) == {"error", "text"}
                return str(answer["error"])

        # A code Discord never gave.
        assert await refused({"code": "made-up", "instance_id": instance}) == "bad_code"
        # A good code, used twice: the bot remembers it; a bot that forgot asks Discord,
        # who refuses it as used.
        code_, instance = await site.authorize(ana)
        first = await ticket_of_code(http, url, code_, instance)
        assert first["status"] == 200
        asked = len(site.standin.activity.exchanges)
        assert await refused({"code": code_, "instance_id": instance}) == "bad_code"
        assert len(site.standin.activity.exchanges) == asked  # not even asked
        assert site.server.activity is not None
        site.server.activity._codes.clear()
        assert await refused({"code": code_, "instance_id": instance}) == "bad_code"
        assert site.standin.activity.exchanges[-1] == (code_, 400)
        # A good code for somebody who is not in the instance it names.
        bo = site.user(5151, "Bo")
        code_, _ = await site.authorize(bo, channel=1)  # Bo is in the other guild's instance
        assert await refused({"code": code_, "instance_id": instance}) == "not_in_instance"
        # Bo's own instance is in another guild's channel, where no table is: his code and
        # instance are good, but there is nothing here for him.
        code_, other = await site.authorize(bo, channel=1)
        assert await refused({"code": code_, "instance_id": other}) == "no_table"
        # ...nor may his page claim to be in the table's channel and guild.
        code_, other = await site.authorize(bo, channel=1)
        claims = {"guild_id": str(session.guild_id), "channel_id": str(session.channel_id)}
        assert await refused({"code": code_, "instance_id": other, **claims}) == "elsewhere"
        # An instance Discord does not know; a body that is not the page's.
        code_, _ = await site.authorize(ana)
        assert await refused({"code": code_, "instance_id": "i-0-gc-1-2"}) == "no_instance"
        assert await refused({"code": 5, "instance_id": instance}) == "bad_request"
        # Nothing was played, nothing was sent but the refusals.
        assert session.hand is not None and session.hand.actions == []


async def ticket_of_code(http: aiohttp.ClientSession, url: str, code_: str,
                         instance: str) -> dict[str, Any]:
    async with http.post(url, json={"code": code_, "instance_id": instance}) as r:
        answer: dict[str, Any] = await r.json()
        answer["status"] = r.status
        return answer


async def test_a_forged_ticket_opens_nothing(tmp_path: Path) -> None:
    """A ticket names its guild, table and user under the guild's key: changed, made with
    another key, or expired, it is a bare 404; rotating the key closes its sockets."""
    async with activity_site(tmp_path) as site, aiohttp.ClientSession() as http:
        session = await site.table()
        other = await site.table(channel=1, seed=2)
        ana = site.standin.users[seat_user(session, 0)]
        answer = await ticket_of(site, http, ana)
        ticket = read_ticket(answer["ticket"])
        assert ticket is not None and ticket.table_id == session.id
        key = await site.server.keys.for_links(session.guild_id)
        forged = [
            sign_ticket(key.model_copy(update={"secret": "ab" * 32}), ticket),
            answer["ticket"][:-4] + ("AAAA" if not answer["ticket"].endswith("AAAA") else "BBBB"),
            # The other table's id in the ticket, its signature kept.
            retarget(answer["ticket"], other.id),
            sign_ticket(key, ticket.__class__(ticket.guild_id, ticket.table_id,
                                              ticket.user_id, 1_000_000, ticket.lang)),
            "not-a-ticket",
        ]
        for bad in forged:
            async with http.get(f"{site.base}/activity/ws/{bad}") as r:
                assert r.status == 404, bad
                assert await r.text() == "404: Not Found"
        ws, _, _ = await open_socket(site, http, answer["ticket"])
        await site.server.rotate(session.guild_id)
        gone = await receive(ws)
        assert gone == {"reason": "revoked", "type": "gone", "v": 1}
        await ws.close()


def retarget(token: str, table_id: int) -> str:
    raw = bytearray(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    raw[8:16] = struct.pack(">Q", table_id)
    return base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()


async def test_an_action_for_a_seat_not_held_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    async with activity_site(tmp_path) as site, aiohttp.ClientSession() as http:
        session = await site.table(seed=4)
        hand = session.hand
        assert hand is not None
        actor = hand.actors()[0]
        idle = (actor + 1) % hand.n
        idle_ws, _, first = await open_socket(site, http, (await ticket_of(
            site, http, site.standin.users[seat_user(session, idle)]))["ticket"])
        watcher = site.user(4343, "Wanda")
        spectator, _, _ = await open_socket(site, http, (await ticket_of(
            site, http, watcher))["ticket"])
        legal = action_to_json(hand.legal_actions(actor)[0])
        own_card = {"card": first["mine"]["cards"][0]}
        stamp = {"v": 1, "type": "act", "hand": session.hand_id, "at": 0}
        before = to_record(hand)

        async def refusal(ws: aiohttp.ClientWebSocketResponse, message: dict[str, Any]) -> str:
            await ws.send_json(message)
            answer = await receive(ws)
            while answer["type"] == "clock":  # the table looked at again: nothing new
                answer = await receive(ws)
            assert answer["type"] == "error", answer
            # Worded for the player (a message of no kind is no player's: a broken page's).
            assert answer.get("text") or answer["reason"] == "bad_message", answer
            return str(answer["reason"])

        # The idle player's page speaks for the seat to act, with that seat's legal card.
        assert await refusal(idle_ws, {**stamp, "seat": actor, "action": legal}) == \
            "activity.not_your_seat"
        # Their own card, out of turn.
        assert await refusal(idle_ws, {**stamp, "seat": idle, "action": own_card}) == \
            "illegal.not_your_turn"
        # A step that is not the table's now; a hand that is not the table's.
        assert await refusal(idle_ws, {**stamp, "at": 3, "action": own_card}) == \
            "err.stale_trick"
        assert await refusal(idle_ws, {**stamp, "hand": 999, "action": own_card}) == \
            "err.stale_hand"
        # An action that is no action; a message of no kind.
        assert await refusal(idle_ws, {**stamp, "action": {"card": "ZZ"}}) == "err.bad_button"
        assert await refusal(idle_ws, {"v": 1, "type": "act", "hand": 1}) == "bad_message"
        # Somebody with no seat.
        assert await refusal(spectator, {**stamp, "action": legal}) == "err.not_seated"
        assert to_record(hand) == before
        stored = await site.store.current_hand(session.id)
        assert stored is not None and stored.actions == []


async def test_the_page_may_be_framed_by_discord_and_carries_nothing_of_a_table(
        tmp_path: Path) -> None:
    async with activity_site(tmp_path) as site, aiohttp.ClientSession() as http:
        await site.table()
        async with http.get(f"{site.base}/activity/?frame_id=1&instance_id=2",
                            allow_redirects=False) as r:
            assert r.status == 200
            assert r.headers["Content-Security-Policy"] == CSP
            assert "frame-ancestors 'self' https://discord.com" in CSP
            page = await r.text()
        assert 'data-app-id="800000000000000001"' in page
        assert not any(pattern.search(page) for pattern in _CODES.values())
        for name in ("app.js", "app.css"):
            assert f"static/{name}?v=" in page
            async with http.get(f"{site.base}/activity/static/{name}") as r:
                assert r.status == 200 and len(await r.read()) > 1000
        async with http.get(f"{site.base}/activity?x=1", allow_redirects=False) as r:
            assert r.status == 302 and r.headers["Location"] == "/activity/?x=1"
        # Through the stand-in's proxy, as Discord's client frames it.
        async with http.get(f"http://127.0.0.1:{site.standin.port}/discordsays/") as r:
            assert r.status == 200 and "data-app-id" in await r.text()


async def test_a_flood_of_codes_does_not_spend_the_applications_oauth2_limit(
        tmp_path: Path) -> None:
    """Made-up codes, many at once: the bot asks Discord as many as its bucket holds, then
    refuses the rest itself (the bucket fills again with time: here it does not)."""
    async with activity_site(tmp_path) as site, aiohttp.ClientSession() as http:
        await site.table()
        activity = site.server.activity
        assert activity is not None
        activity.exchanges = (0.0, activity.exchanges[1])
        url = f"{site.base}/activity/api/session"
        reasons = []
        for i in range(60):
            async with http.post(url, json={"code": f"made-up-{i}", "instance_id": "i"}) as r:
                reasons.append((await r.json())["error"])
        depth = int(activity.exchanges[1])
        assert len(site.standin.activity.exchanges) == depth
        assert reasons == ["bad_code"] * depth + ["busy"] * (60 - depth)


def test_open_the_table_is_a_click_the_bot_reads_as_its_own() -> None:
    """The table message's *Open the table* (``bot.render.table_view``) is read back as the
    Activity's operation, not refused as a button of somebody else's."""
    drawn = button(Op.ACTIVITY, 7, label="Open the table")
    assert drawn.custom_id is not None
    click = parse(drawn.custom_id)
    assert click is not None and click.op is Op.ACTIVITY and click.table_id == 7
