"""Doppelkopf's secrets on every surface the bot draws (issue 45, RULINGS.md D5.6).

Who is Re stays secret until a card or an announcement shows it, a player may know his
partner while the others do not, a stille Hochzeit stays secret to the end. The engine's views
keep each seat's knowledge (``tests/test_doppelkopf.py``); this test holds the bot's outputs to
the same: the Discord table message, a seat's hand view (its text and its buttons), the web
page's table state and the Activity's seat state.

It does so by *other worlds*: at every step of random deals, for each seat, the hidden cards of
the other three are dealt anew among them and the deal's actions replayed. A world that the
actions allow is one the seat cannot tell from the real one, so everything the seat is shown
must be the same in it, to the byte: the public messages and pages, and the seat's own view. A
party, a Vorbehalt's kind, a stille Hochzeit or a card the table does not know yet would, in
some world, come out differently. The test checks that such worlds keep coming (other parties,
a stille Hochzeit the real deal did not have) and that another seat's view does tell them apart
(so that the comparison has something to find).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fake_discord import Harness

from bot import render
from bot.options import encode
from bot.session import TableSession
from bot.store import SqliteStore
from bot.texts import speaking, t
from bot.web import demo
from bot.web.live import HandSteps
from bot.web.seatview import seat_state
from bot.web.views import step
from engine import Action, Hand, IllegalAction, public_view, seat_view
from engine.cards import Card

#: Options under which every kind of secret occurs: Armut (two seats see cards the others do
#: not), Schweinchen (told when the first Fuchs is played), and the default extras.
OPTIONS: dict[str, Any] = {"armut": True, "schweinchen": True, "match_deals": 4}


def other_world(hand: Hand, seat: int, rng: random.Random) -> Hand | None:
    """The deal with the cards ``seat`` has not seen dealt anew among the other seats (each
    keeps the cards it played where the table saw them), and the same actions replayed; None
    where they do not replay or the seat could tell (a world the table rules out)."""
    holders = hand.rules.holders(hand.dealer)
    played: Counter[tuple[int, Card]] = Counter()
    n = hand.n
    for trick in hand.tricks:
        for i, c in enumerate(trick.cards):
            played[((trick.leader + i) % n, c)] += 1
    for i, c in enumerate(hand.trick):
        played[((hand.leader + i) % n, c)] += 1
    free: list[int] = []
    for i, (c, holder) in enumerate(zip(hand.pack, holders, strict=True)):
        if holder == seat:
            continue
        if played[(holder, c)]:
            played[(holder, c)] -= 1  # seen: stays with its seat
        else:
            free.append(i)
    cards = [hand.pack[i] for i in free]
    rng.shuffle(cards)
    pack = list(hand.pack)
    for i, c in zip(free, cards, strict=True):
        pack[i] = c
    world = Hand(hand.rules, hand.dealer, pack, hand.status)
    try:
        for s, action in hand.actions:
            world.apply(s, action)
    except IllegalAction:
        return None
    # The same actions may mean another thing in another world (an announcement by a seat
    # of the other party); a world is one the seat cannot tell apart when the engine shows
    # the seat the same (the engine's views are held to the rulings by test_doppelkopf.py).
    return world if seat_view(world, seat) == seat_view(hand, seat) else None


def shown_to(session: TableSession, steps: HandSteps, hand: Hand, seat: int) -> str:
    """Everything ``seat`` is shown at this moment, as one JSON text: the public table
    message, the page's table state, and the seat's hand view and Activity seat."""
    real = session.hand
    session.hand = hand  # what the surfaces draw from, whichever world it is
    try:
        v, mine = public_view(hand), seat_view(hand, seat)
        table = render.table_embed(session, v).to_dict()
        view = render.hand_view(session, mine).to_components()
        return json.dumps({
            "table": table, "page": step(steps.table, hand).state.model_dump(mode="json"),
            "hand": render.hand_content(session, mine), "buttons": view,
            "activity": seat_state(steps.table, hand, seat).model_dump(mode="json"),
        }, sort_keys=True, ensure_ascii=False)
    finally:
        session.hand = real


def _apart(a: str, b: str) -> list[str]:
    """Where two shown texts differ (for the failure's message)."""
    left, right = json.loads(a), json.loads(b)
    out = []
    for part in left:
        if left[part] != right[part]:
            out.append(f"{part}: {json.dumps(left[part], ensure_ascii=False)[:2000]} != "
                       f"{json.dumps(right[part], ensure_ascii=False)[:2000]}")
    return out


def choose(hand: Hand, rng: random.Random) -> tuple[int, Action]:
    """A random action of a seat that may act, gesund most of the time (so that normal games
    with hidden parties, the ones with secrets, are most of the deals), announcements now and
    then."""
    seat = rng.choice(hand.actors())
    legal = list(hand.legal_actions(seat))
    free = [a for s in range(hand.n) for a in hand.free_actions(s)]
    if free and rng.random() < 0.08:
        who = [s for s in range(hand.n) if hand.free_actions(s)]
        seat = rng.choice(who)
        return seat, rng.choice(hand.free_actions(seat))
    gesund = [a for a in legal if a.kind == "gesund"]
    if gesund and rng.random() < 0.85:
        return seat, gesund[0]
    return seat, rng.choice(legal)


@pytest.mark.slow
async def test_no_surface_tells_a_seat_more_than_the_table_would(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "bot.sqlite3")
    await store.open()
    rng = random.Random(45)
    compared = other_parties = stille_hidden = told_apart = 0
    try:
        for deal in range(24):
            session = await demo.open_table(store, guild_id=deal + 1, channel_id=deal + 1,
                                            game="doppelkopf", options=OPTIONS, seed=deal)
            lang = ("de", "en", "hu", "ro")[deal % 4]
            with speaking(lang):
                row = await store.current_hand(session.id)
                table = await store.get_table(session.id)
                assert row is not None and table is not None
                steps = HandSteps(row, table, lang)
                hand = session.hand
                assert hand is not None
                while not hand.finished:
                    for seat in range(hand.n):
                        seen = shown_to(session, steps, hand, seat)
                        for _ in range(2):
                            world = other_world(hand, seat, rng)
                            if world is None:
                                continue
                            there = shown_to(session, steps, world, seat)
                            assert there == seen, (deal, seat, len(hand.actions), _apart(
                                seen, there))
                            compared += 1
                            if list(world.team) != list(hand.team):
                                other_parties += 1
                            if (world.pending["kind"] == "stille") != (
                                    hand.pending["kind"] == "stille"):
                                stille_hidden += 1
                            other = (seat + 1) % hand.n
                            if shown_to(session, steps, world, other) != shown_to(
                                    session, steps, hand, other):
                                told_apart += 1
                    s, action = choose(hand, rng)
                    member = session.seats[s]
                    assert member is not None
                    await session.act(int(member), action, hand_number=session.hand_number,
                                      at=len(hand.actions))
                    row = await store.current_hand(session.id)
                    assert row is not None
                    steps.extend(row.actions)
            await session.close()
    finally:
        await store.close()
    # The worlds compared were many, and differed where it matters: other parties, a stille
    # Hochzeit where there was none or none where there was one; and another seat, who holds
    # other cards, is shown a different thing in them.
    assert compared > 2000
    assert other_parties > compared // 10
    assert stille_hidden > 20
    assert told_apart > compared // 2


# -- through the Discord fake -----------------------------------------------------------------


def badge_of(text: str, mention: str) -> str | None:
    """The party a message's badge gives the person ``mention`` (``Re``/``Kontra``), if any:
    ``<@1> (Re)``, ``<@1> (Kontra, deals)``."""
    parties = "|".join(re.escape(t(f"side.{p}")) for p in ("re", "kontra"))
    found = re.search(rf"{re.escape(mention)} \((?:[^()]*, )?({parties})(?:,[^()]*)?\)", text)
    return found.group(1) if found else None


@pytest.mark.slow
async def test_four_people_in_discord_see_no_party_before_the_table_knows_it(h: Harness
                                                                             ) -> None:
    """Four people play deals by clicking at random in the Discord fake (the harness checks
    every message for a hidden card): after every click, no public message gives a seat a
    party the table does not know, nor says stille Hochzeit before it is shown, and no hand
    view gives another seat a party."""
    people = [h.user(n) for n in ("ana", "bob", "cid", "dan")]
    await h.command(people[0], "table new", game="doppelkopf")
    menu = h.table_message().select("opt")
    assert menu is not None
    await h.choose(people[0], menu["custom_id"], [encode("armut", True)])
    for user in people:
        await h.press(user, t("btn.sit"))
    session = h.session()
    await h.press(people[0], t("btn.start"))
    rng = random.Random(45)
    stille = t("word.stille_hochzeit")
    by_member = {u.member: u for u in people}
    checked = hidden = badged = 0
    for _deal in range(3):
        hand = session.hand
        assert hand is not None
        for user in people:
            await h.press(user, t("btn.my_hand"), message=h.table_message())
        for _ in range(200):
            await h.settle()
            hand = session.hand
            assert hand is not None
            if hand.finished:
                break
            v = public_view(hand)
            for m in h.public():
                text = m.text
                for seat, member in enumerate(session.seats):
                    assert member is not None
                    shown = badge_of(text, by_member[member].mention)
                    if v.team[seat] is None:
                        hidden += 1
                        assert shown is None, (seat, text)
                    elif m.id == session.message_id and shown is not None:
                        badged += 1  # the check reads the badges the table does show
                if v.public.get("spiel") != "stille_hochzeit":
                    assert stille not in text
                checked += 1
            for member in session.seats:
                assert member is not None
                seen = h.hand_view(by_member[member]).text
                for other in people:
                    if other.member != member:
                        assert badge_of(seen, other.mention) is None
            waiting = session.waiting_for_human()
            if not waiting:
                continue
            user = by_member[str(session.seats[waiting[0]])]
            view = h.hand_view(user)
            options: list[tuple[str, Any]] = [("click", c) for c in view.moves()
                                              if c.split(":")[1] in ("card", "act")]
            options += [("menu", m) for m in view.selects
                        if m["custom_id"].split(":")[1] in ("act", "together")]
            if not options:
                continue
            kind, what = rng.choice(options)
            if kind == "click":
                await h.click(user, what, message=view)
            else:
                values = [o["value"] for o in what["options"]]
                await h.choose(user, what["custom_id"],
                               rng.sample(values, what.get("min_values", 1)), message=view)
        hand = session.hand
        assert hand is not None and hand.finished
        await h.click(people[0], next(b["custom_id"] for b in h.result_post().buttons
                                      if b["custom_id"].startswith("fc:next:")),
                      message=h.result_post())
    assert checked > 100 and hidden > 100 and badged > 10
    h.check_clean()
