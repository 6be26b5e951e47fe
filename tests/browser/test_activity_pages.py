"""The Activity's page in Chromium against the bot's web server and the stand-in's Discord
(its client frame, proxy and OAuth2), with tables played through their ``TableSession``:
every decision of every game is a control that works, at 360 px; the layout at phone width
sideways and on a desktop; the confirm-tap setting; the countdown. Pictures go to
``docs/pictures/activity/`` with ``WEB_PICTURES=1``."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from activity_helpers import Site, activity_site, hidden_named
from playwright.async_api import Browser

from bot.session import TableSession
from browser.activity_pages import (
    DESKTOP,
    LANDSCAPE,
    PHONE,
    PICTURES,
    ActivityPage,
    decide,
    open_activity,
    tap,
)
from browser.chromium import WAIT_MS
from engine import Action, Hand, make_rules, seat_view
from engine.cards import card
from engine.rules import GAMES


def decision_kinds(game: str, hands: int = 60) -> set[str]:
    """Every kind of decision (not a card) the engine offers in ``hands`` random hands of
    ``game``, free ones (a signal) included."""
    rules = make_rules(game)
    kinds: set[str] = set()
    for seed in range(hands):
        rng = random.Random(seed)
        pack = list(rules.pack)
        rng.shuffle(pack)
        hand = Hand(rules, seed % rules.players, pack)
        while not hand.finished:
            for seat in range(hand.n):
                kinds |= {a.kind for a in hand.legal_actions(seat) if a.kind != "card"}
                kinds |= {a.kind for a in hand.free_actions(seat)}
            seat = hand.actors()[0]
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    return kinds


class Clients:
    """The Activity as each seat's person sees it (opened when first needed)."""

    def __init__(self, site: Site, browser: Browser, session: TableSession) -> None:
        self.site, self.browser, self.session = site, browser, session
        self.pages: dict[int, ActivityPage] = {}

    async def of(self, seat: int) -> ActivityPage:
        if seat not in self.pages:
            member = self.session.seats[seat]
            assert member is not None
            user = self.site.standin.users[int(member)]
            self.pages[seat] = await open_activity(
                self.browser, self.site.standin.activity.url(user, self.session.channel_id))
        return self.pages[seat]

    async def close(self) -> None:
        for shown in self.pages.values():
            await shown.page.context.close()


@pytest.mark.slow
async def test_every_decision_of_every_game_is_a_control_at_360_px(
        tmp_path: Path, browser: Browser) -> None:
    """Hands of each game are played; each kind of decision the engine offers in the game
    is made once through the Activity of the seat that has it (its control found, worded,
    pressed), and pictured at 360 px; the other moves are made at the table directly. The
    Activity of every seat shows every move, and never a card its person may not know."""
    pictured: set[str] = set()
    async with activity_site(tmp_path) as site:
        for game in sorted(GAMES):
            wanted = decision_kinds(game)
            done: set[str] = set()
            rng = random.Random(11)
            for seed in range(1, 160):
                if done >= wanted and seed > 1:
                    break
                session = await site.table(game=game, seed=seed)
                clients = Clients(site, browser, session)
                try:
                    await play_hand(site, session, clients, rng, wanted, done, pictured,
                                    game, through_pages=seed == 1)
                finally:
                    await clients.close()
                    await session.close()
            assert done >= wanted, f"{game}: no hand offered {wanted - done}"


async def play_hand(site: Site, session: TableSession, clients: Clients, rng: random.Random,
                    wanted: set[str], done: set[str], pictured: set[str], game: str, *,
                    through_pages: bool) -> None:
    """One hand: the first of a game entirely through the pages (each seat's person taps
    every card), later ones only for the decisions not made yet."""
    hand = session.hand
    assert hand is not None
    while not hand.finished:
        at = len(hand.actions)
        todo = None
        for seat in range(hand.n):
            # The free actions a surface offers (a claim that cannot succeed is not).
            offered = [a for a in hand.free_actions(seat)
                       if hand.rules.worth_offering(seat_view(hand, seat), a)]
            for a in (*hand.legal_actions(seat), *offered):
                if a.kind != "card" and a.kind in wanted - done:
                    todo = (seat, a)
                    break
            if todo:
                break
        if todo is None:
            seat = hand.actors()[0]
            action = rng.choice(hand.legal_actions(seat))
            if not through_pages:
                member = session.seats[seat]
                assert member is not None
                await session.act(int(member), action, hand_number=session.hand_number)
                await site.server.feed.changed(session.id)
                continue
            todo = (seat, action)
        seat, action = todo
        shown = await clients.of(seat)
        await shown.wait_at(at, session.hand_id)
        if action.kind != "card":
            name = action.kind if action.kind not in pictured else None
            if name is not None:
                await shown.picture(PICTURES / f"{name}-{game}.png")
                pictured.add(name)
            done.add(action.kind)
        elif "card" not in pictured:
            await shown.picture(PICTURES / f"card-{game}.png")
            pictured.add("card")
        await decide(shown, action)
        await shown.wait_at(at + 1, session.hand_id)
        assert len(hand.actions) == at + 1 and hand.actions[-1] == (seat, action)
        for s, other in clients.pages.items():
            await other.wait_at(at + 1, session.hand_id)
            assert hidden_named(await other.text(), hand, s) == [], (game, s, at)
    for shown in clients.pages.values():
        await shown.activity.wait_for_selector("#result:not([hidden])", timeout=WAIT_MS)
        if "result" not in pictured:
            await shown.picture(PICTURES / f"result-{game}.png")
            pictured.add("result")


async def test_the_table_at_phone_width_sideways_and_on_a_desktop(
        tmp_path: Path, browser: Browser) -> None:
    """Upright at 360 px, sideways and on a desktop: nothing is wider than the screen, the
    hand and the trick are inside it, and playing a card moves no other part."""
    async with activity_site(tmp_path) as site:
        session = await site.table(seed=3)
        hand = session.hand
        assert hand is not None
        seat = hand.actors()[0]
        member = session.seats[seat]
        assert member is not None
        url = site.standin.activity.url(site.standin.users[int(member)], session.channel_id)
        for name, viewport in (("phone", PHONE), ("sideways", LANDSCAPE),
                               ("desktop", DESKTOP)):
            shown = await open_activity(browser, url, viewport)
            frame = shown.activity
            await frame.wait_for_selector("#hand .card.legal", timeout=WAIT_MS)
            width = await frame.evaluate("() => document.scrollingElement.scrollWidth")
            assert width <= viewport["width"], name
            boxes = await frame.evaluate("""() => [...document.querySelectorAll(
                '#hand .card, #seats .seat, #trick .slot')].map(e => {
                const r = e.getBoundingClientRect();
                return [e.className, r.left, r.right, r.top, r.bottom]; })""")
            for cls, left, right, top, bottom in boxes:
                assert left >= -1 and right <= viewport["width"] + 1, (name, cls, left, right)
                assert top >= -1 and bottom <= viewport["height"] + 1, (name, cls, top, bottom)
            await shown.picture(PICTURES / f"table-{name}.png")
            await shown.page.context.close()


async def test_confirm_tap_and_the_countdown(tmp_path: Path, browser: Browser) -> None:
    """At a table with ``confirm`` on, a first tap only lifts the card (and says to tap
    again); the second plays it. The turn's countdown counts down by the server's clock."""
    async with activity_site(tmp_path) as site:
        session = await site.table(seed=5)
        session.row = session.row.model_copy(update={"settings": {
            **session.row.settings, "confirm": True}})
        await site.store.update_table(session.id, settings=session.row.settings)
        hand = session.hand
        assert hand is not None
        seat = hand.actors()[0]
        member = session.seats[seat]
        assert member is not None
        site.play.deadlines[session.id] = time.time() + 42
        shown = await open_activity(browser, site.standin.activity.url(
            site.standin.users[int(member)], session.channel_id))
        frame = shown.activity
        await frame.wait_for_function(
            "() => { const c = document.getElementById('clock');"
            " return !c.hidden && /⏳ (4[0-2]|3\\d) /.test(c.textContent); }", timeout=WAIT_MS)
        first = await frame.get_attribute("#hand .card.legal", "data-card")
        assert first is not None
        await tap(frame, f"#hand .card[data-card='{first}']")
        await frame.wait_for_selector(f"#hand .card.armed[data-card='{first}']",
                                      timeout=WAIT_MS)
        assert await frame.is_visible("#toast")
        assert hand.actions == []
        await tap(frame, f"#hand .card[data-card='{first}']")
        await shown.wait_at(1, session.hand_id)
        assert hand.actions[0] == (seat, Action("card", card(first)))
        # Not this seat's turn any more: no card is raised.
        assert await frame.locator("#hand .card.legal").count() == 0
        await shown.page.context.close()
