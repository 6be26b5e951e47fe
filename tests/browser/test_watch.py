"""The live table page as a spectator meets it (issue 44): opened mid-hand it lists the
hand's earlier moves; a move made right after a deal gets its own line; when the hand ends the
page links its replay, and the replay links back to the table."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Browser, Page, ViewportSize
from web_helpers import path_of

from bot.web import demo
from browser.chromium import PICTURES, WAIT_MS

GUILD = 1
PHONE: ViewportSize = {"width": 360, "height": 740}


async def listed(page: Page) -> list[tuple[str, int, bool]]:
    """The moves list: (hand, at, a deal line) for each line, in order."""
    got = await page.eval_on_selector_all("#moves li", """els => els.map(e =>
        [e.dataset.hand, Number(e.dataset.at), e.classList.contains('deal')])""")
    return [(h, at, deal) for h, at, deal in got]


async def wait_listed(page: Page, hand: int, at: int) -> None:
    await page.wait_for_function(f"""() => [...document.querySelectorAll('#moves li')]
        .some(e => e.dataset.hand === '{hand}' && Number(e.dataset.at) === {at})""",
                                 timeout=WAIT_MS)


async def test_a_page_opened_mid_hand_lists_the_earlier_moves_and_links_the_replay(
        browser: Browser, site: Any) -> None:
    server, base, store = site
    session = await demo.open_table(store, guild_id=GUILD, watch="public", seed=6)
    for _ in range(4):
        await demo.move(session, server.feed)
    first = session.hand_id
    assert first is not None
    page = await browser.new_page(viewport=PHONE)
    await page.goto(base + path_of(await server.table_link(GUILD, session.id)))
    await wait_listed(page, first, 4)
    await wait_listed(page, first, 1)
    assert await listed(page) == [(str(first), 0, True)] + [
        (str(first), at, False) for at in range(1, 5)]
    for _ in range(2):
        await demo.move(session, server.feed)
    await wait_listed(page, first, 6)
    assert [at for _, at, _ in await listed(page)] == list(range(7))
    # Suits drawn, not left to an emoji font: no sign's emoji in the words shown, each card
    # named in the moves and the trump line has its drawn sign.
    signs = await page.evaluate(r"""() => {
        const shown = ['#moves', '#trump'].map(s => document.querySelector(s).textContent);
        const named = [...document.querySelectorAll('#moves .card-name, #trump .suit')];
        return {emoji: shown.some(t => /[\u{1F330}\u{1F343}\u{1F514}\u2764]/u.test(t)),
          named: named.length, drawn: named.filter(e => { const p = e.querySelector('.pip');
            return p && getComputedStyle(p).backgroundImage.startsWith('url("data:image/svg');
          }).length}; }""")
    assert signs["named"] >= 6 and signs == {**signs, "emoji": False, "drawn": signs["named"]}
    assert await page.is_hidden("#replay-link")
    while await demo.move(session, server.feed):
        pass
    hand = session.hand
    assert hand is not None and hand.finished
    await wait_listed(page, first, len(hand.actions))
    # The hand over: its replay one click away, and from there the way back.
    await page.wait_for_selector("#replay-link:not([hidden])", timeout=WAIT_MS)
    await page.screenshot(path=str(PICTURES / "table-replay-link-360.png"), full_page=True)
    await page.click("#replay-link")
    await page.wait_for_selector("#replay[data-step='0']", timeout=WAIT_MS)
    assert page.url.split("#")[0] == base + path_of(await server.hand_link(GUILD, first))
    await page.click(".bar a.to")
    await page.wait_for_selector("#replay-link:not([hidden])", timeout=WAIT_MS)
    await wait_listed(page, first, len(hand.actions))
    # A new hand and its first move, told to the page in one change: the deal gets its line
    # and so does the move.
    await demo.next_hand(session)
    await demo.move(session, server.feed)
    second = session.hand_id
    assert second is not None and second != first
    await wait_listed(page, second, 1)
    lines = [line for line in await listed(page) if line[0] == str(second)]
    assert lines == [(str(second), 0, True), (str(second), 1, False)]
    assert await page.is_hidden("#replay-link")
