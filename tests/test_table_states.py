"""Every state a table reaches, as its players see it (issue 31): no table plays on with
nobody at it, leaving is asked before it is done, a turn has one live signal that goes when
the turn does, a hand view never shows an older trick than the table, and the lobby and the
table say what kind of table they are."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest
from fake_discord import CHANNEL_ID, UPDATE_MESSAGE, Harness, Message, User
from test_cogs import (
    four_players,
    hand_of,
    one_human,
    open_table,
    play_turn,
    play_until,
)

from bot.courier import Signal, Via
from bot.lobby import Actor
from bot.texts import card_label, t


def row_of(message: Message, label: str) -> int:
    """The row (0 = top) of the button with this label."""
    for index, row in enumerate(message.payload()["components"]):
        if any(b.get("label") == label for b in row["components"]):
            return index
    raise AssertionError(f"no button {label!r}")


def signals(h: Harness) -> list[Message]:
    """The turn signals in the channel now (a ping or a warning, not yet removed)."""
    return [m for m in h.public() if m.content and m.id != h.table_message().id
            and not m.embeds]


# -- a table with nobody at it -------------------------------------------------------------------


async def test_the_last_person_leaving_mid_hand_closes_the_table(h: Harness) -> None:
    session, ana = await one_human(h, rated=False)
    table = h.table_message()
    r = await h.press(ana, t("btn.leave_hand"))
    r = await h.press(ana, t("btn.leave_yes"), message=r.message)
    assert r.message.content == t("hand.left")
    # The computers do not play on: the table says why, in one line, and is closed.
    await h.until(lambda: table.content == t("table.closed_left"))
    assert session.state == "closed" and h.tables.session_in(CHANNEL_ID) is None
    assert table.buttons == []
    assert session.hand_number == 1
    rows = await h.bot.store.hands(session.id)  # type: ignore[union-attr]
    assert [row.number for row in rows] == [1] and rows[0].result is None


async def test_people_who_all_timed_out_get_their_hand_finished_and_no_new_one(
        h: Harness) -> None:
    """Three timeouts in a row and the computer plays for a player until they press My hand:
    when that is everybody at the table, the hand is finished for them, and no other is
    dealt."""
    session, _ = await one_human(h, rated=False)
    runner = h.runner(session)
    assert h.bot is not None
    h.bot.settings.next_hand_delay = 0
    while session.state == "playing" and not hand_of(session).finished:
        hand = hand_of(session)
        if session.waiting_for_human():
            await runner.turn_timeout(len(hand.actions))
        await h.settle()
    await h.until(lambda: h.table_message().content == t("table.closed_idle"))
    assert session.state == "closed"
    assert session.hand_number == 1 and hand_of(session).finished


async def test_the_last_person_leaving_between_hands_closes_the_table(h: Harness) -> None:
    session, ana = await one_human(h, rated=False)
    await play_until(h, session, [ana], random.Random(5))
    await h.settle()
    assert hand_of(session).finished
    r = await h.press(ana, t("btn.leave"))
    assert r.type == UPDATE_MESSAGE
    await h.until(lambda: h.table_message().content == t("table.closed_left"))
    assert session.state == "closed" and h.tables.session_in(CHANNEL_ID) is None


async def test_a_table_of_computers_alone_does_not_start(h: Harness) -> None:
    mia = h.user("mia", manager=True)
    session = await open_table(h, mia, [])
    for _ in range(4):
        await h.add_computer(mia)
    r = await h.press(mia, t("btn.start"))
    assert r.rejected_with(t("err.no_person"))
    assert session.state == "lobby"


async def test_leaving_is_asked_first_and_away_from_the_everyday_buttons(h: Harness) -> None:
    session, users = await four_players(h)
    ana = users[0]
    table = h.table_message()
    assert row_of(table, t("btn.leave_hand")) != row_of(table, t("btn.rules"))
    r = await h.press(ana, t("btn.leave_hand"))
    assert r.ephemeral and r.message.content == t("hand.leave_ask")
    r = await h.press(ana, t("btn.leave_no"), message=r.message)
    assert r.type == UPDATE_MESSAGE and r.message.content == t("hand.stay")
    assert not session.leaving and 0 not in session.autoplay
    assert session.state == "playing"


# -- one signal a turn ---------------------------------------------------------------------------


async def test_a_turn_has_one_signal_and_it_goes_with_the_turn(h: Harness) -> None:
    session, users = await four_players(h)
    runner = h.runner(session)
    hand = hand_of(session)
    seat = hand.to_move
    assert seat is not None
    mover = users[seat]
    await runner.courier.signal(Signal.TURN, 60)
    [ping] = signals(h)
    assert mover.mention in ping.content
    await runner.courier.signal(Signal.WARNING, 30)
    # The warning replaces the ping: still one signal.
    [warning] = signals(h)
    assert re.sub(r"<t:\d+:R>", "<t:…:R>", warning.content) == t(
        "turn.warning", user=mover.mention, when="<t:…:R>")
    assert ping.deleted
    # The table's own text does not say it a third time.
    assert h.table_message().content == ""
    await play_turn(h, session, users, random.Random(1))
    assert warning.deleted and signals(h) == []


async def test_no_signal_outlives_the_hand(h: Harness) -> None:
    session, users = await four_players(h)
    runner = h.runner(session)
    rng = random.Random(3)
    while not hand_of(session).finished:
        await runner.courier.signal(Signal.WARNING, 10)
        await play_turn(h, session, users, rng)
    await h.settle()
    assert signals(h) == []


async def test_ending_a_table_removes_its_signal(h: Harness) -> None:
    session, _ = await four_players(h)
    await h.runner(session).courier.signal(Signal.TURN, 60)
    [ping] = signals(h)
    mia = h.user("mia", manager=True)
    await h.command(mia, "admin end")
    assert ping.deleted


# -- hand views and the table agree --------------------------------------------------------------


async def test_a_hand_view_off_turn_never_shows_an_older_trick(h: Harness) -> None:
    session, users = await four_players(h)
    rng = random.Random(2)
    hand = hand_of(session)
    first = users[hand.to_move or 0]
    await play_turn(h, session, users, rng)
    view = h.hand_view(first)  # answered with the card just played, now off turn
    await play_turn(h, session, users, rng)
    # The table shows two cards of the trick; the first player's view, not refreshed,
    # names no trick at all (only trump), so it cannot show an older one.
    trick = hand_of(session).trick
    assert len(trick) == 2
    assert all(card_label(c) in h.table_message().text for c in trick)
    assert not any(card_label(c) in view.content for c in trick)
    assert t("hand.not_your_turn") in view.content


async def test_a_finished_table_shows_no_empty_trick_and_one_next_hand(h: Harness) -> None:
    session, ana = await one_human(h)
    await play_until(h, session, [ana], random.Random(4))
    await h.settle()
    table = h.table_message()
    assert t("table.trick_empty") not in table.text
    offering = [m for m in h.public()
                if any(b["custom_id"].startswith("fc:next:") for b in m.buttons)]
    assert len(offering) == 1 and offering[0].id != table.id


async def test_the_table_counts_the_tricks(h: Harness) -> None:
    session, users = await four_players(h)
    rng = random.Random(7)
    assert t("table.trick_of", trick=1, tricks=8) in h.table_message().text
    while len(hand_of(session).tricks) < 2:
        await play_turn(h, session, users, rng)
    await h.settle()
    assert t("table.trick_of", trick=3, tricks=8) in h.table_message().text


async def test_a_seat_change_keeps_the_names_of_the_hand_played(h: Harness) -> None:
    session, users = await four_players(h)
    await play_until(h, session, users, random.Random(9))
    await h.settle()
    hand = hand_of(session)
    last = hand.tricks[-1]
    winner = users[last.winner]
    leaver = next(u for s, u in enumerate(users) if s != last.winner)
    await h.press(leaver, t("btn.leave"))
    await h.settle()
    table = h.table_message()
    # The last trick still names who played it, the one who left included.
    assert leaver.mention in table.text and winner.mention in table.text
    assert session.seats.count(None) == 1


# -- the lobby -----------------------------------------------------------------------------------


async def test_an_empty_lobby_offers_only_what_can_be_done(h: Harness) -> None:
    mia = h.user("mia", manager=True)
    await open_table(h, mia, [])
    lobby = h.table_message()
    labels = {b["label"] for b in lobby.buttons}
    assert t("btn.leave") not in labels
    assert not any(b["custom_id"].startswith("fc:uncpu:") for b in lobby.buttons)
    await h.add_computer(mia)
    await h.add_computer(mia)
    lobby = h.table_message()
    # The button says which computer goes: the last one seated.
    assert t("btn.remove_cpu_seat", seat=2) in {b["label"] for b in lobby.buttons}


async def test_the_lobby_says_what_kind_of_table_it_is(h: Harness) -> None:
    ana: User = h.user("ana")
    await open_table(h, ana, [(ana, 0)], rated=False, pings=False)
    text = h.table_message().text
    assert t("lobby.casual") in text and t("lobby.hints_on") in text
    assert t("lobby.pings_off") in text


async def test_a_signal_sent_before_a_restart_goes_with_its_turn(h: Harness) -> None:
    """The process that sent a turn's signal stops; the next one drives the table: it does
    not signal the same turn again, and removes the old signal once the turn moves."""
    session, users = await four_players(h)
    seat = hand_of(session).to_move
    assert seat is not None
    await h.runner(session).courier.signal(Signal.TURN, 60)
    [ping] = signals(h)
    await h.restart()
    restored = h.session()
    runner = h.runner(restored)
    key = ("turn", restored.hand_number, len(hand_of(restored).actions))
    assert runner.signalled == key  # the turn has its signal: no second one
    assert signals(h) == [ping]
    await play_turn(h, restored, users, random.Random(1))
    assert ping.deleted and signals(h) == []
    assert "signal" not in restored.row.runtime


async def test_a_closed_table_s_last_result_no_longer_offers_next_hand(h: Harness) -> None:
    session, ana = await one_human(h)
    await play_until(h, session, [ana], random.Random(4))
    await h.settle()
    result = h.result_post()
    mia = h.user("mia", manager=True)
    await h.command(mia, "admin end")
    assert not any(b["custom_id"].startswith("fc:next:") for b in result.buttons)
    assert t("btn.review") in {b.get("label") for b in result.buttons}


async def test_a_seat_taken_the_moment_the_table_appears_is_taken(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord shows the new table to everyone before the bot hears back that it posted it:
    a Join pressed in that moment waits for the bot to know its own message, and seats the
    player (it used to be refused as a button that is not the bot's)."""
    ana = h.user("ana")
    posted, go_on = asyncio.Event(), asyncio.Event()
    fake = h.discord
    webhook_request = fake.webhook_request

    async def held(route, payload, multipart, files):  # type: ignore[no-untyped-def]
        answer = await webhook_request(route, payload, multipart, files)
        if route.path.endswith("/callback") and not posted.is_set():
            posted.set()
            await go_on.wait()  # the bot has not heard back yet
        return answer

    monkeypatch.setattr(fake, "webhook_request", held)
    opening = asyncio.create_task(h.command(ana, "table new", game="filicau"))
    await posted.wait()
    table = next(m for m in reversed(h.public()) if m.embeds)
    payload, join = h.click_payload(ana, table.button_by_label(t("btn.join_a"))["custom_id"],
                                    message=table)
    joining = asyncio.create_task(h.dispatch(payload))
    # Either the click has its answer already, or it waits for the table's post.
    open_table_ = h.tables.get(h.session().id)
    assert open_table_ is not None
    waiting = open_table_.discord._posting
    await h.until(lambda: join.answered or bool(getattr(waiting, "_waiters", None)))
    go_on.set()
    await opening
    await joining
    assert join.type == UPDATE_MESSAGE, join.text
    assert ana.mention in h.table_message().text


# -- an edit on its way ----------------------------------------------------------------------------


async def test_a_lobby_redrawn_while_the_table_starts_does_not_hide_the_table(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A redraw of the lobby is on its way when Start is answered with the table: on a busy
    day that edit lands last, and the table in play would show its lobby (no My hand) until
    something changed. The table is drawn again after it."""
    ana, bob, cid, dan = (h.user(n) for n in ("ana", "bob", "cid", "dan"))
    # People only: nothing moves after Start by itself (a computer's move redraws).
    session = await open_table(h, ana, [(ana, 0), (cid, 1), (dan, 0)])
    table = h.table(session)
    surface = table.discord
    real_edit, real_answered = surface.delivery.edit_table, surface._answered
    answered = asyncio.Event()
    held: list[str] = []

    def answered_now(*args: Any) -> None:
        real_answered(*args)
        answered.set()

    async def late(*args: Any, **kwargs: Any) -> Any:
        if not held:
            held.append("the lobby")
            await answered.wait()  # lands after Start's answer
        return await real_edit(*args, **kwargs)

    # Bob sits down from elsewhere (as /play does): the lobby is redrawn, Start enabled.
    await h.bot.service.take_seat(table, Actor(bob.id), "Bob", via=Via.DISCORD)
    await h.settle()
    # Another redraw of the lobby is on its way (as after a restart, or a name changed)
    # when Ana presses Start.
    monkeypatch.setattr(surface, "_answered", answered_now)
    monkeypatch.setattr(surface.delivery, "edit_table", late)
    surface.shown = None
    surface.request_refresh()
    r = await h.press(ana, t("btn.start"))
    assert held == ["the lobby"]
    assert r.message.button_by_label(t("btn.my_hand")) is not None  # the answer: the table
    await h.settle()
    assert session.hand is not None
    assert h.table_message().button_by_label(t("btn.my_hand")) is not None
