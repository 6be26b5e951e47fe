"""The Activity against the real bot (``python -m bot``) and the stand-in's Discord, in
Chromium: people in the Activity and people with the buttons at one table, a whole hand of
each game. Every move is stored once, by its player; each shows on both surfaces (the
Activity of each of its people, and the Discord table message); no message on Discord, no
Activity's DOM, script data or socket message names a card its viewer may not know. The
bot logs no error and sends Discord nothing its schema refuses."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from activity_helpers import hidden_named
from playwright.async_api import Browser
from standin import BotProcess, Message, Player, StandIn
from standin.game import Table
from standin.records import Database, HiddenCardCheck
from standin.server import LAUNCH_ACTIVITY
from test_e2e import check_hands

from bot.cardart import faces_for
from bot.texts import card_label, showing, t
from browser.activity_pages import ActivityPage, decide, open_activity
from browser.chromium import WAIT_MS
from engine import Hand, make_rules
from engine.rules import GAMES


@dataclass
class Bot:
    standin: StandIn
    bot: BotProcess
    db: Database
    hidden: HiddenCardCheck
    delays: dict[str, list[float]] = field(default_factory=lambda: {"activity": [],
                                                                     "buttons": []})


@pytest.fixture
async def e2e(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Bot]:
    standin = StandIn(channels=2, activities=True)
    db = Database(tmp_path / "bot.sqlite3")
    hidden = HiddenCardCheck(db)
    standin.observers.append(hidden)
    await standin.start()
    bot = BotProcess(standin, db.path, tmp_path / "bot.log", web=True,
                     **getattr(request, "param", {}))
    env = Bot(standin, bot, db, hidden)
    try:
        await bot.start()
        yield env
    finally:
        await bot.stop()
        await standin.stop()
    assert not standin.problems, standin.problems
    assert not hidden.leaks, hidden.leaks
    assert bot.errors() == [], bot.log()[-3000:]


@dataclass
class People:
    """Who plays: some in the Activity (their pages), some with the buttons (``table``)."""

    table: Table
    activity: dict[int, ActivityPage]
    by_id: dict[int, Player]
    table_id: int


async def seat_people(e2e: Bot, browser: Browser, game: str, **settings: Any) -> People:
    """Cy and Di in the Activity, Ana and Bo with the buttons (as many of them as the game
    seats, two in the Activity first), computers in the other seats; Cy opens the Activity
    with the table's *Open the table*, Di from the channel's Activity shelf."""
    rules = make_rules(game)
    cy, ana, di, bo = (Player(e2e.standin, name) for name in ("cy", "ana", "di", "bo"))
    people = [cy, ana, di, bo][:min(4, rules.players)]
    in_activity = [p for p in people if p in (cy, di)]
    with_buttons = [p for p in people if p in (ana, bo)]
    table = Table(e2e.standin, with_buttons, seed=3, timeout=60)
    seats = [(p, i % 2 if rules.fixed_teams else None) for i, p in enumerate(people)]
    await table.open(ana, seats, game=game, computers=rules.players - len(people),
                     **settings)
    table.players = with_buttons
    await table.start(ana, my_hand=False)
    for p in with_buttons:
        await table.my_hand(p)
    row = e2e.db.table_in(table.channel_id)
    assert row is not None
    launched = await table.press(cy, t("btn.open_table"))
    assert launched.type == LAUNCH_ACTIVITY
    pages = {p.id: await open_activity(browser, p.activity_url()) for p in in_activity}
    return People(table, pages, {p.id: p for p in people}, int(row["id"]))


def table_message(table: Table) -> Message:
    m = table.table_message()
    assert m is not None
    return m


async def play_one_hand(e2e: Bot, people: People, rng: random.Random, number: int = 1,
                        *, until: int | None = None, left: Collection[int] = ()) -> Hand:
    """Play hand ``number`` to its end (or until ``until`` actions), each person as they
    play (see the module docstring); the seats of the people who ``left`` during it are
    the computer's (the hand's header still names them)."""
    db, table = e2e.db, people.table
    while True:
        stored = db.hand(people.table_id, number)
        assert stored is not None
        hand = stored.replay()
        if hand.finished or len(hand.actions) == until:
            return hand
        at = len(hand.actions)
        members = stored.header["members"]
        by_person = [s for s in hand.actors()
                     if members[s].isdigit() and int(members[s]) not in left]
        if not by_person:
            await e2e.standin.wait_for(lambda n=at: moved(db, people.table_id, n, number),
                                       30, "a computer's move")
            continue
        seat = by_person[0]
        user = int(members[seat])
        message = table_message(table)
        versions = len(message.versions)
        if user in people.activity:
            shown = people.activity[user]
            await shown.wait_at(at, stored.id)
            action = rng.choice(hand.legal_actions(seat))
            started = time.monotonic()
            await decide(shown, action)
            await e2e.standin.wait_for(lambda n=at: moved(db, people.table_id, n, number),
                                       30, "the Activity's move to be stored")
            # Shown on Discord: the table message edited (a card played, named in it).
            await e2e.standin.wait_for(
                lambda v=versions, m=message: len(m.versions) > v
                or table.result(number) is not None,
                30, "the table message to show it")
            if len(message.versions) > versions:
                e2e.delays["activity"].append(message.times[versions] - started)
            if action.kind == "card":
                # Named as the table's faces name it (Doppelkopf's French pack: its words).
                with showing(faces_for(hand.rules)):
                    shows = card_label(action.value)
                await e2e.standin.wait_for(
                    lambda s=shows: s in table_message(table).text
                    or table.result(number) is not None, 30, f"{shows} on the table message")
        else:
            assert await table.step(number)
            clicked = table.moves[-1].interaction
            for shown in people.activity.values():
                await shown.wait_at(at + 1, stored.id)
            e2e.delays["buttons"].append(time.monotonic() - clicked.sent_at)
        stored = db.hand(people.table_id, number)
        assert stored is not None
        done = stored.replay()
        if user in people.activity:
            assert done.actions[at] == (seat, action), "the Activity's move, stored as made"
        for shown in people.activity.values():
            await shown.wait_at(at + 1, stored.id)
            item = shown.activity.locator(f"#moves li[data-at='{at + 1}']")
            assert await item.count() == 1, f"move {at + 1} is not listed"
            mine = [s for s, m in enumerate(members) if m == str(_user_of(people, shown))]
            text = await shown.text(stored.id)
            # The store is never behind what the bot shows (computers may have played on).
            now = db.hand(people.table_id, number)
            assert now is not None
            assert hidden_named(text, now.replay(), mine[0] if mine else None) == []


def _user_of(people: People, shown: ActivityPage) -> int:
    return next(user for user, page in people.activity.items() if page is shown)


def moved(db: Database, table_id: int, at: int, number: int = 1) -> bool:
    stored = db.hand(table_id, number)
    return stored is not None and len(stored.actions) > at


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_people_in_the_activity_and_with_buttons_play_a_hand(
        e2e: Bot, browser: Browser, game: str) -> None:
    people = await seat_people(e2e, browser, game)
    hand = await play_one_hand(e2e, people, random.Random(7))
    assert hand.finished
    for shown in people.activity.values():
        await shown.activity.wait_for_selector("#result:not([hidden])", timeout=WAIT_MS)
    hands = check_hands(e2e.db, people.table_id)
    # Each person's moves are stored as theirs, none by the computer.
    rows = e2e.db.action_rows(people.table_id)
    assert len(hands) == 1
    people_rows = [r for r in rows if not r["by_computer"]]
    assert {r["user_id"] for r in people_rows} <= set(people.by_id)
    assert {r["user_id"] for r in people_rows} & set(people.activity), "nobody in the Activity"
    for kind, delays in e2e.delays.items():
        if delays:
            print(f"\n{game}: {kind} move shown on the other surface: median "
                  f"{statistics.median(delays) * 1000:.0f} ms, max "
                  f"{max(delays) * 1000:.0f} ms ({len(delays)} moves)")


@pytest.mark.slow
async def test_the_countdown_a_timeout_a_hint_leaving_and_sitting_down_again(
        e2e: Bot, browser: Browser) -> None:
    """As with the buttons: the turn counts down in the Activity and the computer plays
    for a person whose time runs out; a hint answers only its asker; a person who leaves
    during a hand has the computer play their seat, and sits down again between hands."""
    people = await seat_people(e2e, browser, "filicau", turn_seconds=20, rated=False,
                               hints=True)
    table, db, rng = people.table, e2e.db, random.Random(5)
    cy, di = (people.by_id[u] for u in people.activity)
    cy_page, di_page = people.activity[cy.id], people.activity[di.id]
    stored = db.hand(people.table_id, 1)
    assert stored is not None
    members = stored.header["members"]
    cy_seat, di_seat = members.index(str(cy.id)), members.index(str(di.id))
    # Up to Cy's first turn; there, the countdown, and nothing done.
    hand = await play_until_seat(e2e, people, rng, cy_seat)
    at = len(hand.actions)
    await cy_page.wait_at(at, stored.id)
    frame = cy_page.activity
    await frame.wait_for_function(
        "() => { const c = document.getElementById('clock');"
        " const m = /⏳ (\\d+) /.exec(c.textContent); return !c.hidden && m"
        " && Number(m[1]) <= 20 && Number(m[1]) > 0; }", timeout=WAIT_MS)
    # A hint, for Cy only.
    await frame.click("#hint")
    await frame.wait_for_selector(".hint-text", timeout=WAIT_MS)
    assert (await frame.text_content(".hint-text") or "").strip()
    await frame.click(".sheet-buttons button")
    assert await di_page.activity.locator(".hint-text").count() == 0
    # The time runs out: the computer plays Cy's card; both surfaces show it.
    await e2e.standin.wait_for(lambda: moved(db, people.table_id, at), 40, "the timeout")
    await cy_page.wait_at(at + 1, stored.id)
    row = e2e.db.action_rows(people.table_id)[at]
    assert row["by_computer"] and row["user_id"] is None
    # Di leaves from the Activity: the channel is told, the computer plays Di's seat.
    await di_page.activity.click("#leave")
    await di_page.activity.click(".sheet-buttons .danger")
    await e2e.standin.wait_for(
        lambda: any(t("turn.left", user=di.mention) in m.text for m in table.public()), 30,
        "the notice that Di left")
    await di_page.activity.wait_for_selector("#moves .notice", state="attached",
                                             timeout=WAIT_MS)
    left_at = len(e2e.db.rows("SELECT idx FROM actions WHERE hand_id = ?", stored.id))
    hand = await play_one_hand(e2e, people, rng, left={di.id})
    assert hand.finished
    rows = e2e.db.rows("SELECT * FROM actions WHERE hand_id = ? ORDER BY idx", stored.id)
    later = [r for r in rows[left_at:] if json.loads(r["action"])["seat"] == di_seat]
    assert later and all(r["by_computer"] for r in later)
    # The next hand, dealt from the Activity (Cy's Next hand): a computer sits for Di.
    await cy_page.activity.click("#next")
    await e2e.standin.wait_for(lambda: table.number() == 2, 30, "hand 2")
    for p in table.players:
        await table.my_hand(p)
    second = db.hand(people.table_id, 2)
    assert second is not None and second.header["members"][di_seat].startswith("cpu:")
    await di_page.wait_at(0, second.id)
    assert await di_page.activity.locator("#hand .card").count() == 0  # no seat: no hand
    await play_one_hand(e2e, people, rng, 2)
    # Between hands Di sits down again, in place of the computer.
    await di_page.activity.wait_for_selector("#sit-a, #sit-b, #sit", timeout=WAIT_MS)
    team = "#sit-a" if di_seat % 2 == 0 else "#sit-b"
    await di_page.activity.click(team)
    await e2e.standin.wait_for(
        lambda: (row := db.table_in(table.channel_id)) is not None
        and str(di.id) in row["seats"], 30, "Di seated again")
    await table.next_hand(table.players[0])
    third = db.hand(people.table_id, 3)
    assert third is not None and third.header["members"][di_seat] == str(di.id)
    await di_page.activity.wait_for_selector("#hand .card", timeout=WAIT_MS)


async def play_until_seat(e2e: Bot, people: People, rng: random.Random, seat: int) -> Hand:
    """Play hand 1 until ``seat`` is to act."""
    while True:
        stored = e2e.db.hand(people.table_id, 1)
        assert stored is not None
        hand = stored.replay()
        if seat in hand.actors():
            return hand
        await play_one_hand(e2e, people, rng, until=len(hand.actions) + 1)
