"""The pages in Chromium, at phone (400 px) and desktop (1,280 px) width: a spectator watches
a whole hand while it is played, a finished hand is stepped through, signed links are
refused when wrong or rotated, and the leaderboard and a profile are drawn. Screenshots go
to ``docs/pictures/web/``."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from playwright.async_api import Browser, Page, ViewportSize, WebSocket
from web_helpers import WebSettings, hidden_cards_in, path_of

from bot.texts import card_label
from bot.web import demo
from bot.web.server import WebServer
from browser.chromium import PICTURES, WAIT_MS
from engine import replay
from engine.cards import code
from engine.record import start

GUILD = 1
PHONE: ViewportSize = {"width": 400, "height": 860}
DESKTOP: ViewportSize = {"width": 1280, "height": 860}


def watch_frames(page: Page) -> list[str]:
    """Every socket message the page receives, as text."""
    frames: list[str] = []

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(
            payload if isinstance(payload, str) else payload.decode()))

    page.on("websocket", on_socket)
    return frames


async def shown_at(page: Page) -> int:
    """The last move the page lists (its number of actions)."""
    value = await page.evaluate(
        "() => { const li = [...document.querySelectorAll('#moves li')].pop();"
        " return li ? Number(li.dataset.at) : -1; }")
    return int(value)


async def boxes(page: Page) -> list[dict[str, float]]:
    """Where the table's parts are: a card played must move none of them."""
    result: list[dict[str, float]] = await page.evaluate("""() =>
        ['#seats', '#seats > *', '.felt', '#trick > *', '#last > *', '.status', '#moves',
         '#facts'].flatMap((s) => [...document.querySelectorAll(s)].map((e) => {
            const r = e.getBoundingClientRect();
            return {x: r.x, y: r.y, w: r.width, h: r.height};
          }))""")
    return result


async def test_a_spectator_sees_every_move_in_order_and_no_hidden_card(
        browser: Browser, site: Any) -> None:
    server, base, store = site
    session = await demo.open_table(store, guild_id=GUILD, watch="public", seed=5)
    link = path_of(await server.table_link(GUILD, session.id))
    page = await browser.new_page(viewport=PHONE)
    frames = watch_frames(page)
    await page.goto(base + link)
    await page.wait_for_function("() => document.querySelectorAll('#seats li').length === 4",
                                 timeout=WAIT_MS)
    hand = session.hand
    assert hand is not None
    delays: list[float] = []
    layout = None
    while True:
        html = await page.content()
        seen = "\n".join([html, *frames])
        assert hidden_cards_in(seen, hand) == [], f"after {len(hand.actions)} actions"
        n = len(hand.actions)
        if n == 6:
            await page.screenshot(path=str(PICTURES / "table-400.png"), full_page=True)
            await page.set_viewport_size(DESKTOP)
            await page.screenshot(path=str(PICTURES / "table-1280.png"), full_page=True)
            await page.set_viewport_size(PHONE)
        trick_full = bool(hand.trick) and len(hand.trick) == hand.n - 1
        before = time.perf_counter()
        if not await demo.move(session, server.feed, deadline_seconds=60):
            break
        await page.wait_for_function(
            f"() => {{ const li = [...document.querySelectorAll('#moves li')].pop();"
            f" return li && Number(li.dataset.at) >= {n + 1}; }}", timeout=WAIT_MS)
        delays.append(time.perf_counter() - before)
        now = await boxes(page)
        if layout is not None and not trick_full and not hand.finished:
            assert now == layout, f"the layout moved when move {n + 1} was shown"
        layout = now
    assert hand.finished
    await page.wait_for_selector("#result:not([hidden])", timeout=WAIT_MS)
    html = await page.content()
    assert hidden_cards_in("\n".join([html, *frames]), hand) == []
    # Every move, in order, once: the page's list against the stored record.
    items = await page.eval_on_selector_all(
        "#moves li:not(.deal)", """els => els.map(e => { const c = e.cloneNode(true);
            // A suit's sign is drawn; its emoji is the sign's label.
            c.querySelectorAll('.pip').forEach(p => p.replaceWith(p.getAttribute('aria-label')));
            return [Number(e.dataset.at), c.textContent]; })""")
    row = await store.current_hand(session.id)
    assert row is not None
    record = replay(row.record())
    assert [at for at, _ in items] == list(range(1, len(record.actions) + 1))
    names = [s["name"] for s in json.loads(frames[-1])["state"]["seats"]]
    for (_, text), (seat, action) in zip(items, record.actions, strict=True):
        assert text.startswith(names[seat] + ":")
        if action.kind == "card":
            assert card_label(action.value) in text
    # The page came with step 0; the socket brought each later one once, in order.
    steps = [json.loads(f) for f in frames if '"type":"step"' in f]
    assert [s["at"] for s in steps] == list(range(1, len(record.actions) + 1))
    assert [s["move"]["card"] for s in steps] == [
        code(a.value) if a.kind == "card" else None for _, a in record.actions]
    # No horizontal scrolling at phone width.
    assert await page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    await page.screenshot(path=str(PICTURES / "table-result-400.png"), full_page=True)
    print(f"\nmove shown in the page: median {sorted(delays)[len(delays) // 2] * 1000:.0f} ms,"
          f" max {max(delays) * 1000:.0f} ms ({len(delays)} moves)")


def replay_states(html: str) -> list[dict[str, Any]]:
    """The steps a replay page carries."""
    found = re.search(r'<script type="application/json" id="steps">(.*?)</script>', html, re.S)
    assert found is not None
    steps: list[dict[str, Any]] = json.loads(found.group(1))
    return steps


async def test_the_replay_steps_forward_and_back_and_matches_the_record(
        browser: Browser, site: Any) -> None:
    server, base, store = site
    session = await demo.open_table(store, guild_id=GUILD, seed=3)
    while await demo.move(session):
        pass
    assert session.hand_id is not None
    row = await store.hand(session.hand_id)
    assert row is not None
    hand = replay(row.record())
    page = await browser.new_page(viewport=PHONE)
    await page.goto(base + path_of(await server.hand_link(GUILD, session.hand_id)))
    await page.wait_for_selector("#replay[data-step='0']", timeout=WAIT_MS)
    assert await page.is_disabled("#prev")

    async def trick_on_table() -> list[tuple[int, str]]:
        got = await page.eval_on_selector_all(
            "#trick .slot", "els => els.map(e => [Number(e.dataset.seat),"
            " (e.querySelector('img') || {dataset: {}}).dataset.card || null])")
        return [(seat, c) for seat, c in got if c]

    # Move by move, as the record has them: each card joins the trick where it was played,
    # and a trick's last card shows who took it.
    again = start(row.record())
    for i, (seat, action) in enumerate(hand.actions, start=1):
        tricks = len(again.tricks)
        again.apply(seat, action)
        await page.keyboard.press("ArrowRight")
        await page.wait_for_selector(f"#replay[data-step='{i}']", timeout=WAIT_MS)
        done = len(again.tricks) != tricks
        trick = again.tricks[-1] if done else None
        leader, played = (trick.leader, trick.cards) if trick else (again.leader, again.trick)
        expected = sorted(((leader + j) % hand.n, code(c)) for j, c in enumerate(played))
        assert sorted(await trick_on_table()) == expected, i
        winner = await page.eval_on_selector_all(
            "#trick .slot.wins", "els => els.map(e => Number(e.dataset.seat))")
        assert winner == ([trick.winner] if trick else []), i
        current = await page.eval_on_selector("#moves button.now", "e => Number(e.dataset.step)")
        assert current == i
        if done and len(again.tricks) == 3:
            await page.screenshot(path=str(PICTURES / "replay-400.png"), full_page=True)
            await page.set_viewport_size(DESKTOP)
            await page.screenshot(path=str(PICTURES / "replay-1280.png"), full_page=True)
            await page.set_viewport_size(PHONE)
    # A click on a move goes to its step; up and down go a trick at a time.
    await page.click("#moves li:nth-child(5) button.move")
    await page.wait_for_selector("#replay[data-step='5']", timeout=WAIT_MS)
    await page.keyboard.press("ArrowDown")
    ends = [i for i, s in enumerate(replay_states(await page.content())) if s["trick_shown"]]
    after = next(e for e in ends if e > 5)
    await page.wait_for_selector(f"#replay[data-step='{after}']", timeout=WAIT_MS)
    # The way back to the table's page.
    back = await page.get_attribute(".bar a.to", "href")
    assert back == path_of(await server.table_link(GUILD, session.id))
    # The last step shows the result; back with the button, and by a swipe.
    last = int(await page.get_attribute("#replay", "data-step") or 0)
    await page.keyboard.press("End")
    await page.wait_for_selector("#result:not([hidden])", timeout=WAIT_MS)
    assert await page.is_disabled("#next")
    end = int(await page.get_attribute("#replay", "data-step") or 0)
    assert end >= last
    await page.click("#prev")
    await page.wait_for_selector(f"#replay[data-step='{end - 1}']", timeout=WAIT_MS)
    box = await page.locator(".felt").bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    await page.mouse.move(box["x"] + 20, y)
    await page.mouse.down()
    await page.mouse.move(box["x"] + box["width"] - 20, y)
    await page.mouse.up()
    await page.wait_for_selector(f"#replay[data-step='{end - 2}']", timeout=WAIT_MS)
    # Every hand face up: the seats show the cards each held at that step.
    held = await page.eval_on_selector_all(
        "#seats li", "els => els.map(e => [...e.querySelectorAll('img')]"
        ".map(i => i.dataset.card))")
    assert sum(len(h) for h in held) > 0


async def test_signed_links_refuse_a_wrong_or_rotated_token(browser: Browser,
                                                            site: Any) -> None:
    server, base, store = site
    session = await demo.open_table(store, guild_id=GUILD, watch="public")
    link = path_of(await server.table_link(GUILD, session.id))
    page = await browser.new_page(viewport=PHONE)
    wrong = link[:-3] + ("xyz" if not link.endswith("xyz") else "abc")
    response = await page.goto(base + wrong)
    assert response is not None and response.status == 404
    assert await page.text_content("body") == "404: Not Found"
    response = await page.goto(base + link)
    assert response is not None and response.status == 200
    await page.wait_for_function("() => document.querySelectorAll('#seats li').length === 4",
                                 timeout=WAIT_MS)
    await server.rotate(GUILD)
    await page.wait_for_function(
        "() => document.getElementById('link').textContent === 'This link no longer works.'",
        timeout=WAIT_MS)
    response = await page.reload()
    assert response is not None and response.status == 404
    fresh = path_of(await server.table_link(GUILD, session.id))
    response = await page.goto(base + fresh)
    assert response is not None and response.status == 200


async def test_the_leaderboard_and_a_profile_at_both_widths(browser: Browser,
                                                            site: Any) -> None:
    server, base, store = site
    session = await demo.open_table(store, guild_id=GUILD, seed=11)
    for _ in range(6):
        while await demo.move(session):
            pass
        await demo.next_hand(session)
    await server.table_link(GUILD, session.id)
    page = await browser.new_page(viewport=PHONE)
    await page.goto(base + path_of(await server.table_link(GUILD, session.id)))
    await page.goto(base + path_of(await server.board_link(GUILD, "filicau")))
    rows = await page.eval_on_selector_all("table.board tbody tr", "els => els.length")
    assert rows >= 4
    assert await page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    await page.screenshot(path=str(PICTURES / "board-400.png"), full_page=True)
    await page.set_viewport_size(DESKTOP)
    await page.screenshot(path=str(PICTURES / "board-1280.png"), full_page=True)
    await page.set_viewport_size(PHONE)
    await page.click("table.board tbody tr a")
    await page.wait_for_selector("svg.chart polyline", state="attached", timeout=WAIT_MS)
    assert await page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    # The chart's legend: no label on another, all inside the picture.
    legend = await page.eval_on_selector_all("svg.chart text.legend", """els => els.map(e => {
        const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; })""")
    view = await page.eval_on_selector("svg.chart", "e => [e.viewBox.baseVal.width,"
                                       " e.viewBox.baseVal.height]")
    assert len(legend) == 3
    for i, a in enumerate(legend):
        assert a[0] >= 0 and a[2] <= view[0] and a[3] <= view[1], (a, view)
        for b in legend[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), legend
    await page.screenshot(path=str(PICTURES / "profile-400.png"), full_page=True)
    await page.set_viewport_size(DESKTOP)
    await page.screenshot(path=str(PICTURES / "profile-1280.png"), full_page=True)


async def test_a_page_whose_server_dies_reconnects_and_misses_no_move(
        browser: Browser, site: Any) -> None:
    """The process serving the page stops mid-hand; another starts on the same address
    (as a load balancer would send the page to another process): the page's socket
    connects again by itself, says which move it has, and gets the rest, each once."""
    server, base, store = site
    session = await demo.open_table(store, guild_id=GUILD, watch="public", seed=8)
    link = path_of(await server.table_link(GUILD, session.id))
    page = await browser.new_page(viewport=PHONE)
    frames = watch_frames(page)
    await page.goto(base + link)
    await page.wait_for_function("() => document.querySelectorAll('#seats li').length === 4",
                                 timeout=WAIT_MS)
    for _ in range(5):
        await demo.move(session, server.feed)
    await page.wait_for_function(
        "() => Number([...document.querySelectorAll('#moves li')].pop().dataset.at) === 5",
        timeout=WAIT_MS)
    port = server.port
    await server.stop()
    await page.wait_for_function(
        "() => document.getElementById('link').textContent === 'Reconnecting…'",
        timeout=WAIT_MS)
    for _ in range(4):  # moves while no process serves the page
        await demo.move(session)
    other = WebServer(WebSettings(web_port=port or 0), store)
    await other.start()
    try:
        while await demo.move(session, other.feed):
            pass
        hand = session.hand
        assert hand is not None
        n = len(hand.actions)
        await page.wait_for_function(
            f"() => Number([...document.querySelectorAll('#moves li')].pop().dataset.at)"
            f" === {n}", timeout=WAIT_MS)
        ats = await page.eval_on_selector_all("#moves li:not(.deal)",
                                              "els => els.map(e => Number(e.dataset.at))")
        assert ats == list(range(1, n + 1))
        assert hidden_cards_in("\n".join([await page.content(), *frames]), hand) == []
    finally:
        await other.stop()
