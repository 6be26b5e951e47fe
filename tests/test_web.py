"""The web pages through aiohttp's client: signed links, the hidden-card rule on every page and
socket message, the delayed view, resuming, replays, leaderboards, and the pages of one table
served by another process on PostgreSQL (``LISTEN``/``NOTIFY``)."""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from pydantic import TypeAdapter
from web_helpers import hidden_cards_in, path_of, serve, steps_of

from bot.store import GuildSettings, SqliteStore, Store
from bot.texts import LANGUAGES
from bot.web import cards, demo, protocol
from bot.web.bus import PgBus
from bot.web.cards import FACES
from bot.web.keys import Kind, sign
from bot.web.server import WebServer
from bot.web.views import delayed_count
from engine import replay
from engine.cards import code
from engine.record import start

GUILD = 1


@pytest.fixture
async def sqlite(tmp_path: Any) -> AsyncIterator[SqliteStore]:
    store = SqliteStore(tmp_path / "bot.sqlite3")
    await store.open()
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def site(store: Store) -> AsyncIterator[tuple[WebServer, str, aiohttp.ClientSession]]:
    """A web server on the store of each backend, and a client."""
    server, base = await serve(store)
    async with aiohttp.ClientSession(base) as client:
        try:
            yield server, base, client
        finally:
            await server.stop()


async def get(client: aiohttp.ClientSession, path: str) -> tuple[int, str]:
    async with client.get(path) as r:
        return r.status, await r.text()


async def receive(ws: aiohttp.ClientWebSocketResponse, timeout: float = 10.0) -> dict[str, Any]:
    """The next message, which must be one the protocol's models describe."""
    msg = await ws.receive(timeout=timeout)
    assert msg.type is aiohttp.WSMsgType.TEXT, msg
    protocol.OUTGOING.validate_json(msg.data)
    data: dict[str, Any] = json.loads(msg.data)
    return data


async def receive_until(ws: aiohttp.ClientWebSocketResponse, at: int,
                        into: list[dict[str, Any]]) -> None:
    """Collect messages until a step at ``at`` (or later) has come."""
    while True:
        m = await receive(ws)
        into.append(m)
        if m["type"] == "step" and m["at"] >= at:
            return


# -- links ----------------------------------------------------------------------------------


async def test_a_link_opens_its_own_page_and_nothing_else(site: Any, store: Store) -> None:
    server, _, client = site
    session = await demo.open_table(store, guild_id=GUILD)
    other = await demo.open_table(store, guild_id=2, channel_id=2)
    link = path_of(await server.table_link(GUILD, session.id))
    status, html = await get(client, link)
    assert status == 200 and "Ana" in html
    token = link.rsplit("/", 1)[1]
    # The same token as a hand's, a forged one, one of another server naming this table.
    assert (await get(client, f"/hand/{token}"))[0] == 404
    assert (await get(client, link[:-2] + ("AA" if not link.endswith("AA") else "AB")))[0] == 404
    key2 = await server.keys.for_links(2)
    assert (await get(client, f"/table/{sign(key2, Kind.TABLE, session.id)}"))[0] == 404
    assert (await get(client, f"/table/{sign(key2, Kind.TABLE, other.id)}"))[0] == 200
    for bad in ("/table/x", "/table/" + "A" * 43, "/board/" + token, "/nothing"):
        status, body = await get(client, bad)
        assert (status, body) == (404, "404: Not Found")


async def test_a_rotated_or_switched_off_key_refuses_every_link(site: Any, store: Store) -> None:
    server, _, client = site
    session = await demo.open_table(store, guild_id=GUILD)
    table = path_of(await server.table_link(GUILD, session.id))
    board = path_of(await server.board_link(GUILD))
    assert (await get(client, table))[0] == 200 and (await get(client, board))[0] == 200
    async with client.ws_connect("/ws" + table) as ws:
        assert (await receive(ws))["type"] == "hello"
        await ws.send_json({"v": 1, "type": "resume", "hand": None, "at": 0})
        assert (await receive(ws))["type"] == "step"
        await server.switch(GUILD, False)
        assert await receive(ws) == {"reason": "revoked", "type": "gone", "v": 1}
    assert (await get(client, table))[0] == 404 and (await get(client, board))[0] == 404
    assert await server.table_link(GUILD, session.id) is None
    await server.switch(GUILD, True)
    assert (await get(client, table))[0] == 200
    await server.rotate(GUILD)
    for old in (table, board):
        assert (await get(client, old)) == (404, "404: Not Found")
    async with client.get("/ws" + table) as r:
        assert r.status == 404
    new = path_of(await server.table_link(GUILD, session.id))
    assert new != table and (await get(client, new))[0] == 200
    # The key is kept in the store: another process (a new server) refuses the old links too.
    other, base = await serve(store)
    try:
        async with aiohttp.ClientSession(base) as c2:
            assert (await get(c2, table))[0] == 404 and (await get(c2, new))[0] == 200
    finally:
        await other.stop()


# -- what spectators see ----------------------------------------------------------------------


async def test_spectators_see_every_move_in_order_and_no_hidden_card(site: Any,
                                                                     store: Store) -> None:
    server, _, client = site
    session = await demo.open_table(store, guild_id=GUILD, watch="public")
    link = path_of(await server.table_link(GUILD, session.id))
    received: list[dict[str, Any]] = []
    async with client.ws_connect("/ws" + link) as ws:
        await receive(ws)
        await ws.send_json({"v": 1, "type": "resume", "hand": None, "at": 0})
        received.append(await receive(ws))
        while True:
            hand = session.hand
            assert hand is not None
            status, html = await get(client, link)
            assert status == 200
            assert hidden_cards_in(html, hand) == [], f"page at {len(hand.actions)}"
            if not await demo.move(session, server.feed, deadline_seconds=30):
                break
            await receive_until(ws, len(hand.actions), received)
            assert hidden_cards_in(json.dumps(received[-1], ensure_ascii=False), hand) == []
    hand = session.hand
    assert hand is not None and hand.finished
    steps = steps_of(received)
    assert steps == [(session.hand_id, at) for at in range(len(hand.actions) + 1)]
    moves = [m["move"] for m in received if m["type"] == "step" and m["move"]]
    assert [m["card"] for m in moves] == [code(a.value) if a.kind == "card" else None
                                          for _, a in hand.actions]
    assert [m["seat"] for m in moves] == [seat for seat, _ in hand.actions]
    last = received[-1]
    assert last["state"]["result"] and last["deadline"] is None
    assert any(m.get("deadline") for m in received if m["type"] == "step")


async def test_a_delayed_table_shows_no_card_of_the_trick_in_progress(sqlite: SqliteStore
                                                                      ) -> None:
    server, base = await serve(sqlite)
    try:
        async with aiohttp.ClientSession(base) as client:
            session = await demo.open_table(sqlite, guild_id=GUILD, watch="delayed")
            link = path_of(await server.table_link(GUILD, session.id))
            received: list[dict[str, Any]] = []
            async with client.ws_connect("/ws" + link) as ws:
                assert (await receive(ws))["watch"] == "delayed"
                await ws.send_json({"v": 1, "type": "resume", "hand": None, "at": 0})
                received.append(await receive(ws))
                hand = session.hand
                assert hand is not None
                while await demo.move(session, server.feed):
                    row = await sqlite.current_hand(session.id)
                    assert row is not None
                    shown = delayed_count(row.record())
                    if shown > received[-1]["at"]:
                        await receive_until(ws, shown, received)
                    _, html = await get(client, link)
                    first = json.loads(re.search(
                        r'<script type="application/json" id="first">(.*?)</script>',
                        html, re.S).group(1))  # type: ignore[union-attr]
                    protocol.Step.model_validate(first)
                    assert first["at"] == shown and first["state"]["trick"] == []
                    assert received[-1]["at"] == shown
                    assert received[-1]["state"]["trick"] == [] and received[-1]["delayed"]
            assert hand.finished
            ats = [at for _, at in steps_of(received)]
            assert ats == list(range(len(hand.actions) + 1))
    finally:
        await server.stop()


async def test_a_page_that_reconnects_gets_the_moves_it_missed_once(site: Any,
                                                                    store: Store) -> None:
    server, _, client = site
    session = await demo.open_table(store, guild_id=GUILD, watch="public")
    link = path_of(await server.table_link(GUILD, session.id))
    for _ in range(3):
        await demo.move(session, server.feed)
    async with client.ws_connect("/ws" + link) as ws:
        await receive(ws)
        await ws.send_json({"v": 1, "type": "resume", "hand": session.hand_id, "at": 1})
        got = [await receive(ws), await receive(ws)]
        assert [(m["at"], m["move"]["seat"] is not None) for m in got] == [(2, True), (3, True)]
        await ws.send_json({"v": 1, "type": "act", "hand": session.hand_id, "at": 3,
                            "action": {"card": "EO"}})
        assert await receive(ws) == {"reason": "not_seated", "type": "error", "v": 1}
        await ws.send_str('{"v": 1, "type": "resume", "at": "x"}')
        assert (await receive(ws))["reason"] == "bad_message"
        await demo.move(session, server.feed)
        assert (await receive(ws))["at"] == 4
    # The hand ends and the next is dealt while the page is away: it gets the rest of the
    # old hand, then the new one.
    hand_id = session.hand_id
    while await demo.move(session, server.feed):
        pass
    n = len(session.hand.actions)  # type: ignore[union-attr]
    await demo.next_hand(session, server.feed)
    async with client.ws_connect("/ws" + link) as ws:
        await receive(ws)
        await ws.send_json({"v": 1, "type": "resume", "hand": hand_id, "at": 4})
        got = [await receive(ws) for _ in range(n - 4 + 1)]
    assert [(m["hand"], m["at"]) for m in got] == [
        *((hand_id, at) for at in range(5, n + 1)), (session.hand_id, 0)]


async def test_a_table_not_open_to_spectators_shows_nothing(site: Any, store: Store) -> None:
    server, _, client = site
    session = await demo.open_table(store, guild_id=GUILD, watch="off")
    link = path_of(await server.table_link(GUILD, session.id))
    status, html = await get(client, link)
    assert status == 200 and "not open to spectators" in html and '"card"' not in html
    async with client.ws_connect("/ws" + link) as ws:
        await receive(ws)
        await ws.send_json({"v": 1, "type": "resume", "hand": None, "at": 0})
        assert (await receive(ws))["reason"] == "off"


# -- replays ----------------------------------------------------------------------------------


async def test_a_replay_opens_only_once_the_hand_is_over(site: Any, store: Store) -> None:
    server, _, client = site
    session = await demo.open_table(store, guild_id=GUILD)
    assert session.hand_id is not None
    link = path_of(await server.hand_link(GUILD, session.hand_id))
    await demo.move(session)
    status, html = await get(client, link)
    hand = session.hand
    assert hand is not None
    assert status == 200 and "still being played" in html
    assert hidden_cards_in(html, hand) == [] and 'id="steps"' not in html
    while await demo.move(session):
        pass
    status, html = await get(client, link)
    assert status == 200
    steps = json.loads(re.search(r'<script type="application/json" id="steps">(.*?)</script>',
                                 html, re.S).group(1))  # type: ignore[union-attr]
    TypeAdapter(list[protocol.ReplayState]).validate_python(steps)
    row = await store.hand(session.hand_id)
    assert row is not None
    replayed = replay(row.record())
    tricks = [s["trick_shown"] for s in steps if s["trick_shown"]]
    assert tricks == [{"cards": [{"seat": (t.leader + i) % replayed.n, "card": code(c)}
                                 for i, c in enumerate(t.cards)], "winner": t.winner}
                      for t in replayed.tricks]
    dealt = start(row.record())
    assert steps[0]["hands"] == [[code(c) for c in dealt.sort_hand(h)] for h in dealt.hands]
    assert steps[-1]["result"] and steps[-1]["hands"] == [
        [code(c) for c in replayed.sort_hand(h)] for h in replayed.hands]  # unplayed, if any


# -- card faces -------------------------------------------------------------------------------


def case_variants(word: str) -> set[str]:
    """Every spelling of ``word`` in upper and lower case ("eo", "eO", "Eo", "EO")."""
    return {"".join(p) for p in itertools.product(*({ch.lower(), ch.upper()} for ch in word))}


async def test_a_card_face_has_one_address(site: Any, store: Store) -> None:
    """Each face is at /cards/FACES/THEME/LANG/CODE.png as the engine spells it, and nowhere
    else: another case, the old address without the faces, a space, an unknown deck are
    404s, so requests cannot make the server draw more faces than its cache keeps (issue 44:
    any case was served, 1,152 spellings against a cache of 384)."""
    _, _, client = site
    bodies = {}
    for faces in FACES:
        async with client.get(f"/cards/{faces}/dark/en/EO.png") as r:
            assert r.status == 200 and r.content_type == "image/png"
            assert "immutable" in r.headers["Cache-Control"]
            bodies[faces] = await r.read()
    assert bodies["german"] != bodies["french"]  # the Ober of acorns, the Queen of clubs
    wrong = ["/cards/german/dark/en/eo.png", "/cards/german/dark/en/Eo.png",
             "/cards/french/dark/en/h10.png", "/cards/German/dark/en/EO.png",
             "/cards/FRENCH/dark/en/EO.png", "/cards/german/Dark/en/EO.png",
             "/cards/german/dark/EN/EO.png", "/cards/german/dark/xx/EO.png",
             "/cards/dark/en/EO.png", "/cards/german/dark/en/%20EO.png",
             "/cards/german/dark/en/EO%20.png", "/cards/swiss/dark/en/EO.png",
             "/cards/french/dark/en/E1.png", "/cards/french/blue/en/EO.png"]
    for path in wrong:
        assert (await get(client, path)) == (404, "404: Not Found"), path
    # Every case spelling of each part of one face's address (the others spelled right)
    # draws it at most once: one entry in the cache.
    cards.card_png.cache_clear()
    right = ("french", "dark", "en", "SK")
    for part in range(4):
        for variant in case_variants(right[part]):
            parts = (*right[:part], variant, *right[part + 1:])
            async with client.get("/cards/{}/{}/{}/{}.png".format(*parts)) as r:
                assert r.status == (200 if parts == right else 404), parts
    assert cards.card_png.cache_info().currsize == 1


def test_the_addresses_of_the_faces_are_as_many_as_the_cache_keeps() -> None:
    """Of every case spelling of each part of the address (deck, theme, language, code), one
    is served: 2 decks x 3 themes x 4 languages x 32 cards, the size of the cache. (The parts
    are checked one at a time, the others spelled right: the address is served only when each
    part is.)"""
    counts = [sum(ok(v) for word in words for v in case_variants(word))
              for words, ok in ((FACES, lambda v: cards.known(v, "dark", "en", "EO")),
                                (cards.THEMES, lambda v: cards.known("german", v, "en", "EO")),
                                (LANGUAGES, lambda v: cards.known("german", "dark", v, "EO")),
                                (cards.CODES, lambda v: cards.known("german", "dark", "en", v)))]
    assert counts == [2, 3, 4, 32]
    assert cards.card_png.cache_info().maxsize == math.prod(counts)


async def test_the_pages_draw_the_cards_with_the_servers_faces(store: Store) -> None:
    """A table page's card faces are the game's own (German for Filicău) until the server
    picks French suits (``/admin faces``); the page's pictures then come from the French
    address."""
    session = await demo.open_table(store, guild_id=GUILD, watch="public")
    for chosen, expected in (("game", "/cards/german/dark/en/"),
                             ("french", "/cards/french/dark/en/")):
        await store.put_guild_settings(GuildSettings(guild_id=GUILD, faces=chosen))
        server, base = await serve(store)  # a new process reads the setting at once
        try:
            async with aiohttp.ClientSession(base) as client:
                link = path_of(await server.table_link(GUILD, session.id))
                status, html = await get(client, link)
                assert status == 200
                assert re.findall(r'data-cards="([^"]*)"', html) == [expected]
                async with client.get(expected + "EO.png") as r:
                    assert r.status == 200 and r.content_type == "image/png"
        finally:
            await server.stop()


# -- leaderboard and profile -----------------------------------------------------------------


async def test_the_leaderboard_and_a_profile_show_the_ratings(site: Any, store: Store) -> None:
    server, _, client = site
    session = await demo.open_table(store, guild_id=GUILD)
    for _ in range(2):
        while await demo.move(session):
            pass
        await demo.next_hand(session)
    await demo.move(session, server.feed)
    # The table's page taught the server the players' names.
    assert (await get(client, path_of(await server.table_link(GUILD, session.id))))[0] == 200
    status, html = await get(client, path_of(await server.board_link(GUILD, "filicau")))
    assert status == 200
    assert "Ana" in html and "Dénes" in html and "/player/" in html
    player = re.search(r'href="(/player/[^"]+)"', html).group(1).replace("&amp;", "&")  # type: ignore[union-attr]
    status, html = await get(client, player)
    assert status == 200 and "<svg" in html and "polyline" in html
    status, _ = await get(client, path_of(await server.board_link(GUILD, "filicau", 2)))
    assert status == 404  # no season 2 yet
    status, _ = await get(client, path_of(await server.board_link(GUILD)) + "?game=nope")
    assert status == 404


# -- another process on PostgreSQL ----------------------------------------------------------------


async def test_any_process_serves_a_table_another_drives(pg_url: str) -> None:
    """The table is driven here (its courier publishes on a bus of its own); two web
    servers of other processes, each with its own LISTEN connection, serve its page. The
    page's server dies mid-hand; the page connects to the other and resumes: every move
    arrives once, in order."""
    from bot.store.postgres import PostgresStore

    stores = [PostgresStore(pg_url) for _ in range(3)]
    for s in stores:
        await s.open()
    driver_bus = PgBus(pg_url)
    await driver_bus.start(lambda _m: None)
    a, base_a = await serve(stores[1], PgBus(pg_url))
    b, base_b = await serve(stores[2], PgBus(pg_url))
    try:
        session = await demo.open_table(stores[0], guild_id=GUILD, watch="public")
        link = path_of(await a.table_link(GUILD, session.id))

        class Courier:
            async def changed(self, table_id: int, deadline: float | None = None) -> None:
                await driver_bus.publish(f"t:{table_id}")

        courier: Any = Courier()
        received: list[dict[str, Any]] = []
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(base_a + "/ws" + link) as ws:
                await receive(ws)
                await ws.send_json({"v": 1, "type": "resume", "hand": None, "at": 0})
                received.append(await receive(ws))
                for _ in range(5):
                    await demo.move(session, courier)
                    await receive_until(ws, len(session.hand.actions), received)  # type: ignore[union-attr]
                await a.stop()  # the process dies: its sockets close
                assert (await ws.receive(timeout=10)).type in (
                    aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
            for _ in range(3):  # moves while the page is away
                await demo.move(session, courier)
            last = received[-1]
            async with client.ws_connect(base_b + "/ws" + link) as ws:
                await receive(ws)
                await ws.send_json({"v": 1, "type": "resume", "hand": last["hand"],
                                    "at": last["at"]})
                await receive_until(ws, len(session.hand.actions), received)  # type: ignore[union-attr]
                while await demo.move(session, courier):
                    await receive_until(ws, len(session.hand.actions), received)  # type: ignore[union-attr]
        hand = session.hand
        assert hand is not None and hand.finished
        assert [at for _, at in steps_of(received)] == list(range(len(hand.actions) + 1))
    finally:
        await b.stop()
        await a.stop()
        await driver_bus.stop()
        for s in stores:
            await s.close()


async def test_the_bus_carries_a_change_to_another_process_quickly(pg_url: str) -> None:
    heard_by_one: asyncio.Queue[str] = asyncio.Queue()
    heard_by_two: asyncio.Queue[str] = asyncio.Queue()
    one, two = PgBus(pg_url), PgBus(pg_url)
    await one.start(heard_by_one.put_nowait)
    await two.start(heard_by_two.put_nowait)
    try:
        await one.publish("t:7:123.5")
        assert heard_by_one.get_nowait() == "t:7:123.5"  # its own: at once, in the process
        assert await asyncio.wait_for(heard_by_two.get(), 30) == "t:7:123.5"
        # Not a second time through PostgreSQL: a later message of the other bus comes
        # after the echo would have.
        await two.publish("k:9")
        assert await asyncio.wait_for(heard_by_one.get(), 30) == "k:9"
    finally:
        await one.stop()
        await two.stop()


async def test_a_page_weighs_under_300_kb_before_its_card_pictures(site: Any,
                                                                   store: Store) -> None:
    server, _, client = site
    session = await demo.open_table(store, guild_id=GUILD, watch="public")
    while await demo.move(session):
        pass
    assert session.hand_id is not None
    for link in (await server.table_link(GUILD, session.id),
                 await server.hand_link(GUILD, session.hand_id), await server.board_link(GUILD)):
        status, html = await get(client, path_of(link))
        assert status == 200
        total = len(html.encode())
        for ref in re.findall(r'(?:href|src)="(/static/[^"]+)"', html):
            async with client.get(ref.replace("&amp;", "&")) as r:
                assert r.status == 200 and "immutable" in r.headers["Cache-Control"]
                total += len(await r.read())
        assert total < 300_000, (link, total)


async def test_no_web_server_without_web_url(sqlite: SqliteStore,
                                             caplog: pytest.LogCaptureFixture) -> None:
    from web_helpers import WebSettings

    from bot.web.server import start_web

    caplog.set_level("INFO")
    assert await start_web(WebSettings(web_url=None), sqlite) is None  # type: ignore[arg-type]
    assert [r.getMessage() for r in caplog.records] == ["web pages off: WEB_URL is not set"]


async def test_two_processes_making_a_servers_first_link_agree_on_one_key(store: Store
                                                                         ) -> None:
    from bot.store import WebKey

    first = await store.add_web_key(WebKey(guild_id=5, secret="aa" * 32))
    second = await store.add_web_key(WebKey(guild_id=5, secret="bb" * 32))
    assert first == second == await store.web_key(5)
    await store.put_web_key(first.model_copy(update={"enabled": False}))
    assert await store.web_key(5) == WebKey(guild_id=5, secret="aa" * 32, enabled=False)


async def test_the_result_post_links_its_replay_and_history_links_each_hand(
        sqlite: SqliteStore) -> None:
    from bot import render

    session = await demo.open_table(sqlite, guild_id=GUILD)
    view = render.result_view(session, 1, replay_url="https://cards.example.org/hand/x")
    links = [(b.label, b.url) for b in view.children if getattr(b, "url", None)]
    assert links == [("Replay", "https://cards.example.org/hand/x")]
    assert not [b for b in render.result_view(session, 1).children if getattr(b, "url", None)]
    assert render.history_line(3, "6–2", "https://x/hand/y") == "[Hand 3](https://x/hand/y): 6–2"
    assert render.history_line(3, "6–2") == "Hand 3: 6–2"
    watch = render.watch_button("https://x/table/y")
    assert (watch.label, watch.url) == ("Watch", "https://x/table/y")


async def test_the_web_surface_tells_the_pages_of_every_change_with_its_deadline(
        sqlite: SqliteStore) -> None:
    from bot.web.surface import WebSurface

    server, _ = await serve(sqlite)
    heard: list[str] = []
    server.feed.observers.append(heard.append)
    try:
        clock = [None, 1234.5]
        surface = WebSurface(server.feed, 7, lambda: clock[-1])
        await surface.changed(None)
        await surface.dealt()
        await surface.signal(object(), 30)
        await surface.notice("turn.left", 0)
        await surface.closed("table.closed")
        surface.stop()
        # A notice is for the Activity (bot.web.activity): the pages show none.
        assert heard == ["t:7:1234.500"] * 3 + ["n:7:0:turn.left", "t:7"]
    finally:
        await server.stop()
