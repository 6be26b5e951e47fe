"""The Activity on a phone held upright (360 x 740), where issue 44 found it cramped: the top
bar shows the whole title and the whole timer, the trump mark covers no card's rank in a hand
of eight, and the trick's cards keep clear of the side seats' labels."""

from __future__ import annotations

import time
from pathlib import Path

from activity_helpers import activity_site
from playwright.async_api import Browser, ViewportSize

from browser.activity_pages import PICTURES, open_activity
from browser.chromium import WAIT_MS
from engine import seat_view

PHONE: ViewportSize = {"width": 360, "height": 740}

#: In the Activity: each card of the hand, where it lies (left edge), its width and height,
#: and its trump mark's box in the card's own coordinates (null without one).
HAND = """() => [...document.querySelectorAll('#hand .card')].map((c) => {
  const mark = getComputedStyle(c, '::after');
  const trump = c.classList.contains('trump');
  return {left: c.offsetLeft, w: c.offsetWidth, h: c.offsetHeight, mark: trump ? {
    x: parseFloat(mark.left), y: parseFloat(mark.top), w: parseFloat(mark.width),
    h: parseFloat(mark.height)} : null}; })"""


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
            ) -> bool:
    """Whether boxes (left, top, right, bottom) share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


async def test_the_table_fits_a_phone_held_upright(tmp_path: Path, browser: Browser) -> None:
    async with activity_site(tmp_path) as site:
        session = await site.table(seed=3)
        hand = session.hand
        assert hand is not None
        site.play.deadlines[session.id] = time.time() + 42
        viewer = next(s for s in range(hand.n) if any(
            view.order is not None and view.order.is_trump(c)
            for view in (seat_view(hand, s),) for c in view.hand))
        member = session.seats[viewer]
        assert member is not None
        shown = await open_activity(browser, site.standin.activity.url(
            site.standin.users[int(member)], session.channel_id), PHONE)
        frame = shown.activity
        try:
            await frame.wait_for_function(
                "() => document.querySelectorAll('#hand .card').length === 8"
                " && !document.getElementById('clock').hidden", timeout=WAIT_MS)
            # The top bar: the title whole, every chip whole and on the screen.
            top = await frame.evaluate("""() => {
                const h = document.getElementById('heading');
                return {title: [h.scrollWidth, h.clientWidth], chips: [...document
                  .querySelectorAll('.top .chip:not([hidden])')].map((c) => {
                    const r = c.getBoundingClientRect();
                    return [c.id, c.scrollWidth, c.clientWidth, r.left, r.right]; })}; }""")
            assert top["title"][0] <= top["title"][1], top
            assert "clock" in [c[0] for c in top["chips"]], top
            for name, scroll, client, left, right in top["chips"]:
                if name == "clock":
                    assert scroll <= client, top
                assert left >= 0 and right <= PHONE["width"], top
            # Eight cards: each card's corner index (its top third, a third wide) shows,
            # and no trump mark lies on it.
            cards = await frame.evaluate(HAND)
            assert sum(c["mark"] is not None for c in cards) >= 1
            for card, after in zip(cards, [*cards[1:], None], strict=True):
                index = (0.0, 0.0, card["w"] / 3, card["h"] / 3)
                if after is not None:
                    assert after["left"] - card["left"] >= index[2], cards
                mark = card["mark"]
                if mark is not None:
                    box = (mark["x"], mark["y"], mark["x"] + mark["w"], mark["y"] + mark["h"])
                    assert not overlap(box, index), (card, box)
                    if after is not None:  # and it shows: the next card leaves it alone
                        assert box[2] <= after["left"] - card["left"], (card, box)
            # Three cards of a trick on the felt: none of them on a seat's label.
            for _ in range(3):
                seat = hand.actors()[0]
                mover = session.seats[seat]
                assert mover is not None
                await session.act(int(mover), hand.legal_actions(seat)[0],
                                  hand_number=session.hand_number)
                await site.server.feed.changed(session.id)
            await shown.wait_at(3, session.hand_id)
            boxes = await frame.evaluate("""() => {
                const box = (e) => { const r = e.getBoundingClientRect();
                  return [r.left, r.top, r.right, r.bottom]; };
                return {slots: [...document.querySelectorAll('#trick .slot')]
                  .filter((s) => s.querySelector('img')).map(box),
                  seats: [...document.querySelectorAll('#seats .seat')].map(box)}; }""")
            assert len(boxes["slots"]) == 3
            for slot in boxes["slots"]:
                for seat_box in boxes["seats"]:
                    assert not overlap(slot, seat_box), boxes
            await shown.picture(PICTURES / "table-phone-trick.png")
        finally:
            await shown.page.context.close()
            await session.close()

