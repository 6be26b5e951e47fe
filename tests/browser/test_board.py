"""The replay page's analysis board in Chromium at 360 px (issue 46): at a position of the
finished hand, a tap on another card of the player to move shows the computers' play from
there; a card that could not be played there is refused with a word; back to the game."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Browser, ViewportSize
from web_helpers import path_of

from bot.web import demo
from browser.chromium import PICTURES, WAIT_MS
from engine import replay
from engine.cards import code
from engine.record import start

GUILD = 1
PHONE: ViewportSize = {"width": 360, "height": 740}


async def test_the_analysis_board_at_phone_width(browser: Browser, site: Any) -> None:
    server, base, store = site
    session = await demo.open_table(store, guild_id=GUILD, seed=9)
    while await demo.move(session):
        pass
    assert session.hand_id is not None
    row = await store.hand(session.hand_id)
    assert row is not None
    played = replay(row.record())
    # A position where the player to move had both another card and one they could not play.
    again = start(row.record())
    for at, (seat, action) in enumerate(played.actions):  # noqa: B007 (kept: the position)
        legal = {a.value for a in again.legal_actions(seat) if a.kind == "card"}
        other = [c for c in again.hands[seat] if c in legal and action.value != c]
        barred = [c for c in again.hands[seat] if c not in legal]
        if action.kind == "card" and other and barred:
            break
        again.apply(seat, action)
    else:
        raise AssertionError("no position with another card and a barred one")
    page = await browser.new_page(viewport=PHONE)
    await page.goto(base + path_of(await server.hand_link(GUILD, session.hand_id)) + f"#{at}")
    await page.wait_for_selector(f"#replay[data-step='{at}'][data-line='game']",
                                 timeout=WAIT_MS)
    mover = f"#seats li[data-seat='{seat}'] .hand"
    await page.click(f"{mover} button.try[data-card='{code(barred[0])}']")
    await page.wait_for_function("() => !document.getElementById('board').hidden",
                                 timeout=WAIT_MS)
    assert await page.text_content("#board-text") == "That card cannot be played there."
    assert await page.get_attribute("#replay", "data-line") == "game"
    await page.click(f"{mover} button.try[data-card='{code(other[0])}']")
    await page.wait_for_selector(f"#replay[data-line='analysis'][data-step='{at + 1}']",
                                 timeout=WAIT_MS)
    assert await page.text_content("#board-text") == (
        "Analysis: the computers played on from your card.")
    # The card tried is on the table, and the line goes on to a result.
    tried = await page.eval_on_selector_all("#trick img", "els => els.map(e => e.dataset.card)")
    assert code(other[0]) in tried
    assert await page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    await page.screenshot(path=str(PICTURES / "board-analysis-360.png"), full_page=True)
    await page.keyboard.press("End")
    await page.wait_for_selector("#result:not([hidden])", timeout=WAIT_MS)
    # No question on the computers' line; back to the game where it was.
    assert await page.locator("#seats button.try").count() == 0
    await page.click("#board-back")
    await page.wait_for_selector("#replay[data-line='game']", timeout=WAIT_MS)
    assert await page.is_hidden("#board")
