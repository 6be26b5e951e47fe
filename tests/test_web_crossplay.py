"""The web pages of a table across servers: each server's link (signed with its own key)
opens the table as that server shows it — its language, its card faces — moves and all, no
hidden card; a link of another server's key, or of a server that does not show the table,
is a bare 404; nothing of the home server (its id, its channel) reaches a venue's page."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from web_helpers import hidden_cards_in, path_of, serve

from bot.store import GuildSettings, Store, VenueRow
from bot.texts import speaking, t
from bot.web import demo
from bot.web.keys import Kind, sign
from bot.web.server import WebServer

#: Ids long enough that finding one in a page means it was carried there.
HOME, HOME_CHANNEL = 710_000_000_000_000_001, 720_000_000_000_000_002
AWAY, AWAY_CHANNEL = 730_000_000_000_000_003, 740_000_000_000_000_004
STRANGER = 750_000_000_000_000_005


@pytest.fixture
async def site(store: Store) -> AsyncIterator[tuple[WebServer, aiohttp.ClientSession]]:
    server, base = await serve(store)
    async with aiohttp.ClientSession(base) as client:
        try:
            yield server, client
        finally:
            await server.stop()


async def get(client: aiohttp.ClientSession, path: str) -> tuple[int, str]:
    async with client.get(path) as r:
        return r.status, await r.text()


async def receive(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    msg = await ws.receive(timeout=10.0)
    assert msg.type is aiohttp.WSMsgType.TEXT, msg
    data: dict[str, Any] = json.loads(msg.data)
    return data


async def crossplay_table(store: Store) -> Any:
    """A table of the home server shown in a venue of another server (German there)."""
    session = await demo.open_table(store, guild_id=HOME, channel_id=HOME_CHANNEL,
                                    watch="public")
    await store.put_guild_settings(GuildSettings(guild_id=AWAY, locale="de"))
    await store.put_venue(VenueRow(table_id=session.id, guild_id=AWAY, channel_id=AWAY_CHANNEL,
                                   members=(demo.FIRST_USER + 1,)))
    return session


def carries_home(text: str) -> bool:
    return str(HOME) in text or str(HOME_CHANNEL) in text


async def test_a_venues_link_shows_the_moves_as_that_server_sees_them(site: Any,
                                                                      store: Store) -> None:
    server, client = site
    session = await crossplay_table(store)
    link = path_of(await server.table_link(AWAY, session.id))
    home_link = path_of(await server.table_link(HOME, session.id))
    assert link != home_link
    status, html = await get(client, link)
    assert status == 200 and 'lang="de"' in html and "Ana" in html
    assert not carries_home(html)
    received: list[dict[str, Any]] = []
    async with client.ws_connect("/ws" + link) as ws:
        assert (await receive(ws))["type"] == "hello"
        await ws.send_json({"v": 1, "type": "resume", "hand": None, "at": 0})
        received.append(await receive(ws))
        while True:
            hand = session.hand
            assert hand is not None
            status, html = await get(client, link)
            assert status == 200 and hidden_cards_in(html, hand) == []
            assert not carries_home(html)
            if not await demo.move(session, server.feed, deadline_seconds=30):
                break
            while True:
                m = await receive(ws)
                received.append(m)
                text = json.dumps(m, ensure_ascii=False)
                assert hidden_cards_in(text, hand) == [] and not carries_home(text)
                if m["type"] == "step" and m["at"] >= len(hand.actions):
                    break
    hand = session.hand
    assert hand is not None and hand.finished
    played = [m["move"]["seat"] for m in received if m["type"] == "step" and m["move"]]
    assert played == [seat for seat, _ in hand.actions]
    # The finished hand's replay, from the venue's page (its own link, German).
    assert session.hand_id is not None
    async with client.get(f"{link}/hand/{session.hand_id}", allow_redirects=False) as r:
        assert r.status == 302
        replay = r.headers["Location"]
    assert replay == path_of(await server.hand_link(AWAY, session.hand_id))
    status, html = await get(client, replay)
    assert status == 200 and 'lang="de"' in html and 'id="steps"' in html
    assert not carries_home(html)
    back = re.search(r'href="(/table/[^"]+)"', html)
    assert back is not None and back.group(1) == link


async def test_a_link_of_a_server_that_does_not_show_the_table_is_refused(site: Any,
                                                                         store: Store) -> None:
    server, client = site
    session = await crossplay_table(store)
    assert session.hand_id is not None
    stranger = await server.keys.for_links(STRANGER)
    for path in (f"/table/{sign(stranger, Kind.TABLE, session.id)}",
                 f"/hand/{sign(stranger, Kind.HAND, session.hand_id)}"):
        assert await get(client, path) == (404, "404: Not Found")
        async with client.get("/ws" + path) as r:
            assert r.status == 404
    # The venue's link, its token rotated away: refused; the home's still opens.
    link = path_of(await server.table_link(AWAY, session.id))
    await server.rotate(AWAY)
    assert await get(client, link) == (404, "404: Not Found")
    assert (await get(client, path_of(await server.table_link(HOME, session.id))))[0] == 200
    # A token of the away key with the guild id swapped for the home's does not verify.
    token = link.rsplit("/", 1)[1]
    assert (await get(client, f"/table/{token[:-2]}{'AA' if token[-2:] != 'AA' else 'AB'}"
                      ))[0] == 404


async def test_a_server_that_keeps_tables_across_servers_off_its_pages_closes_only_its_own(
        site: Any, store: Store) -> None:
    """The venue's server switches its pages off for tables across servers: its link opens
    on "not open to spectators" with nothing of the table, and a socket open on it is
    closed; the home server's page of the same table shows it as before, and a table of the
    venue's server's own is watched as it allows."""
    server, client = site
    session = await crossplay_table(store)
    link = path_of(await server.table_link(AWAY, session.id))
    home_link = path_of(await server.table_link(HOME, session.id))
    own = await demo.open_table(store, guild_id=AWAY, channel_id=AWAY_CHANNEL + 1)
    own_link = path_of(await server.table_link(AWAY, own.id))
    async with client.ws_connect("/ws" + link) as ws:
        assert (await receive(ws))["watch"] == "public"
        await ws.send_json({"v": 1, "type": "resume", "hand": None, "at": 0})
        assert (await receive(ws))["type"] == "step"
        await store.put_guild_settings(GuildSettings(guild_id=AWAY, locale="de",
                                                     watch_across=False))
        await server.settings_changed(AWAY)
        gone = await receive(ws)
        assert gone["type"] == "gone" and gone["reason"] == "off"
    status, html = await get(client, link)
    with speaking("de"):
        assert status == 200 and t("web.watch_off") in html
    assert "Ana" not in html and "table.js" not in html
    async with client.ws_connect("/ws" + link) as ws:
        assert (await receive(ws))["watch"] == "off"
    status, html = await get(client, home_link)
    assert status == 200 and "Ana" in html and "table.js" in html
    status, html = await get(client, own_link)
    assert status == 200 and "Ana" in html and "table.js" in html
    # On again: the venue's page shows the table.
    await store.put_guild_settings(GuildSettings(guild_id=AWAY, locale="de"))
    await server.settings_changed(AWAY)
    status, html = await get(client, link)
    assert status == 200 and "Ana" in html
