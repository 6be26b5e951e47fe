"""Names as people choose them, on every page and the Activity at 360 px: a right-to-left
override in a display name stays inside the name (``<bdi dir=auto>``, or FSI…PDI in plain
text), so "Mallory: 🔔 Unter" does not turn into "retnU 🔔 :yrollaM"; a 200-character name is
cut short with an ellipsis where it is drawn and widens nothing (issue 44: it widened the
leaderboard to 3,242 px). Pictures go to ``docs/pictures/web/`` and ``docs/pictures/activity/``
with ``WEB_PICTURES=1``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from activity_helpers import activity_site
from playwright.async_api import Browser, Frame, Page, ViewportSize
from web_helpers import path_of

from bot.session import TableSession
from bot.web import demo
from browser.activity_pages import PICTURES as ACTIVITY_PICTURES
from browser.activity_pages import open_activity
from browser.chromium import PICTURES, WAIT_MS

GUILD = 1
PHONE: ViewportSize = {"width": 360, "height": 740}
#: A right-to-left override before the name: everything after it, to the end of its
#: paragraph or isolate, is drawn right to left.
EVIL = "\u202eMallory"
LONG = ("Bartholomew-" * 17)[:200]
NAMES = (EVIL, LONG, "Ana", "Cili")

#: In the page: every drawn text node holding a name's override or the long name, and whether
#: it is isolated (its element's ``unicode-bidi`` isolates, or FSI…PDI enclose it), with the
#: width its element takes.
NAMES_DRAWN = """([evil, long]) => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    const text = t.data;
    const which = text.includes(evil) ? 'evil' : text.includes(long) ? 'long' : null;
    if (!which) continue;
    const e = t.parentElement;
    if (e.closest('script, title')) continue;
    const style = getComputedStyle(e);
    const name = which === 'evil' ? evil : long;
    const at = text.indexOf(name);
    const fenced = text.lastIndexOf('\\u2068', at) !== -1
      && text.indexOf('\\u2069', at + name.length) !== -1;
    const r = e.getBoundingClientRect();
    out.push({which, tag: e.tagName, isolated: /isolate|plaintext/.test(style.unicodeBidi)
      && text === name || fenced, width: r.width, shown: r.width > 0 && r.height > 0});
  }
  return out; }"""

#: In the page: for each line that names the override's holder and goes on after the name,
#: whether the words after the name read left to right (first letter left of the last).
AFTER_THE_NAME = """(evil) => [...document.querySelectorAll('bdi')]
  .filter((b) => b.textContent === evil && b.getBoundingClientRect().width > 0)
  .map((b) => b.nextSibling)
  .filter((n) => n && n.nodeType === Node.TEXT_NODE && n.data.trim().length >= 2)
  .map((n) => {
    const text = n.data, first = text.search(/\\S/), last = text.length - 1;
    const rect = (i) => { const r = document.createRange(); r.setStart(n, i);
      r.setEnd(n, i + 1); return r.getBoundingClientRect(); };
    const a = rect(first), z = rect(last);
    return a.top !== z.top || a.left < z.left; })"""


async def check_names(where: Page | Frame, what: str, *, width: int, cap: float) -> None:
    drawn = await where.evaluate(NAMES_DRAWN, [EVIL, LONG])
    assert {d["which"] for d in drawn} == {"evil", "long"}, (what, drawn)
    for d in drawn:
        assert d["isolated"], (what, d)
        assert d["width"] <= cap, (what, d)
    assert all(await where.evaluate(AFTER_THE_NAME, EVIL)), what
    scroll = await where.evaluate("() => document.scrollingElement.scrollWidth")
    assert scroll <= width, (what, scroll)


async def test_names_are_isolated_and_capped_on_every_page(browser: Browser, site: Any
                                                           ) -> None:
    server, base, store = site
    session = await demo.open_table(store, guild_id=GUILD, watch="public", names=NAMES, seed=4)
    page = await browser.new_page(viewport=PHONE)
    await page.goto(base + path_of(await server.table_link(GUILD, session.id)))
    await page.wait_for_function("() => document.querySelectorAll('#seats li').length === 4",
                                 timeout=WAIT_MS)
    # A trick and a half: every name has a line in the moves and a card on the felt.
    for _ in range(6):
        await demo.move(session, server.feed, deadline_seconds=60)
    await page.wait_for_function(
        "() => Number([...document.querySelectorAll('#moves li')].pop().dataset.at) === 6",
        timeout=WAIT_MS)
    await check_names(page, "table", width=PHONE["width"], cap=PHONE["width"])
    await page.screenshot(path=str(PICTURES / "names-table-360.png"), full_page=True)

    while await demo.move(session):
        pass
    assert session.hand_id is not None
    await page.goto(base + path_of(await server.hand_link(GUILD, session.hand_id)))
    await page.wait_for_selector("#replay[data-step='0']", timeout=WAIT_MS)
    await page.keyboard.press("ArrowRight")
    await page.wait_for_selector("#replay[data-step='1']", timeout=WAIT_MS)
    await check_names(page, "replay", width=PHONE["width"], cap=PHONE["width"])
    await page.screenshot(path=str(PICTURES / "names-replay-360.png"), full_page=True)

    for _ in range(5):
        await demo.next_hand(session)
        while await demo.move(session):
            pass
    await page.goto(base + path_of(await server.board_link(GUILD, "filicau")))
    await page.wait_for_selector("table.board tbody tr", timeout=WAIT_MS)
    # The leaderboard's name column: a long name takes at most under half the phone.
    await check_names(page, "leaderboard", width=PHONE["width"], cap=PHONE["width"] * 0.45)
    board = await page.eval_on_selector("table.board", "e => e.getBoundingClientRect().width")
    assert board <= PHONE["width"]
    await page.screenshot(path=str(PICTURES / "names-board-360.png"), full_page=True)
    for name, who in (("evil", EVIL), ("long", LONG)):
        await page.click(f"table.board bdi:text-is('{who}')")
        await page.wait_for_selector("svg.chart polyline", state="attached", timeout=WAIT_MS)
        title = await page.title()
        assert f"\u2068{who}\u2069" in title, title
        drawn = await page.evaluate(NAMES_DRAWN, [EVIL, LONG])
        assert drawn and all(d["isolated"] for d in drawn), drawn
        scroll = await page.evaluate("() => document.scrollingElement.scrollWidth")
        assert scroll <= PHONE["width"]
        await page.screenshot(path=str(PICTURES / f"names-profile-{name}-360.png"),
                              full_page=True)
        await page.go_back()
        await page.wait_for_selector("table.board tbody tr", timeout=WAIT_MS)


async def seat_people(site: Any, session: TableSession) -> None:
    """The stand-in's users of the table's seats, with the table's names."""
    site.play.add(session)
    for seat, member in enumerate(session.seats):
        assert member is not None
        site.user(int(member), NAMES[seat])


async def test_names_are_isolated_and_capped_in_the_activity(tmp_path: Path,
                                                            browser: Browser) -> None:
    async with activity_site(tmp_path) as site:
        channel_id = site.standin.channel_ids[0]
        session = await demo.open_table(
            site.store, guild_id=site.standin.guild_of[channel_id], channel_id=channel_id,
            names=NAMES, seed=4)
        await seat_people(site, session)
        hand = session.hand
        assert hand is not None
        member = session.seats[2]
        assert member is not None
        shown = await open_activity(browser, site.standin.activity.url(
            site.standin.users[int(member)], channel_id), PHONE)
        try:
            for _ in range(3):
                await demo.move(session, site.server.feed)
            await shown.wait_at(3, session.hand_id)
            frame = shown.activity
            await frame.click("#log summary")
            await check_names(frame, "activity", width=PHONE["width"],
                              cap=PHONE["width"] * 0.5)
            boxes = await frame.evaluate("""() => [...document.querySelectorAll(
                '#seats .seat')].map(e => { const r = e.getBoundingClientRect();
                return [r.left, r.right]; })""")
            for left, right in boxes:
                assert left >= -1 and right <= PHONE["width"] + 1, boxes
            await shown.picture(ACTIVITY_PICTURES / "names-360.png")
        finally:
            await shown.page.context.close()
            await session.close()
