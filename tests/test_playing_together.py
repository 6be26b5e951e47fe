"""Playing together (issue 17): your turn reaches you (a ping that mentions only the player to
act, once a turn, removed when they have acted; off at tables opened with ``pings: False``;
after a restart it tells the player to press My hand), a live countdown, the table posted
again at the bottom of a busy channel, and results that name the players."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from fake_discord import OTHER_CHANNEL_ID, UPDATE_MESSAGE, Harness, Message, User
from test_cogs import four_players, my_hand, play_turn, to_move

from bot.session import TableSession
from bot.texts import card_label, t


def pings(h: Harness, user: User) -> list[Message]:
    """The messages that ping ``user`` because it is their turn."""
    texts = {t("turn.ping", user=user.mention),
             t("turn.ping_view", user=user.mention, button=t("btn.my_hand"))}
    return [m for m in h.public() if m.content in texts]


def pinging(h: Harness) -> None:
    assert h.bot is not None
    h.bot.settings.ping_delay = 0


def sent_body(h: Harness, msg: Message) -> dict[str, Any]:
    """The request body that created ``msg``."""
    found = [c.body for c in h.discord.calls
             if c.method == "POST" and isinstance(c.body, dict)
             and c.body.get("content") == msg.content]
    assert found, "no request created the message"
    body: dict[str, Any] = found[-1]
    return body


async def test_a_ping_reaches_only_the_player_to_act_and_goes_when_they_act(
        h: Harness) -> None:
    import random

    session, users = await four_players(h)
    pinging(h)
    first = to_move(session, users)
    h.runner(session).kick()
    await h.until(lambda: bool(pings(h, first)))
    [ping] = pings(h, first)
    # Everybody has their hand view open (four_players): a plain ping.
    assert ping.content == t("turn.ping", user=first.mention)
    mentions = sent_body(h, ping)["allowed_mentions"]
    assert [int(u) for u in mentions["users"]] == [first.id] and mentions.get("parse") == []
    # Woken again during the same turn: still one ping.
    for _ in range(3):
        h.runner(session).kick()
        await h.settle()
    assert len([m for u in users for m in pings(h, u)]) == 1
    # The player acts: their ping goes, the next player's comes.
    await play_turn(h, session, users, random.Random(1))
    second = to_move(session, users)
    assert second != first
    await h.until(lambda: bool(pings(h, second)))
    assert ping.deleted and pings(h, first) == []
    assert len([m for u in users for m in pings(h, u)]) == 1


async def test_a_player_whose_view_expired_is_told_to_press_my_hand(h: Harness) -> None:
    session, users = await four_players(h)
    mover = to_move(session, users)
    runner = h.runner(session)
    # The view's token is older than Discord lets the bot use it.
    h.table(session).discord.hand_views[mover.id].since -= 15 * 60
    pinging(h)
    runner.kick()
    await h.until(lambda: bool(pings(h, mover)))
    [ping] = pings(h, mover)
    assert ping.content == t("turn.ping_view", user=mover.mention, button=t("btn.my_hand"))
    views = h.table(session).discord.hand_views
    assert mover.id not in views or views[mover.id].expired


async def test_no_pings_at_a_table_opened_without_them(h: Harness) -> None:
    session, users = await four_players(h, pings=False)
    assert not session.pings
    pinging(h)
    seat = session.hand.to_move if session.hand else None
    assert seat is not None
    # One run of the turn timer with a zero-second turn: the warning, then the computer.
    session.row = session.row.model_copy(update={"settings": {**session.row.settings,
                                                              "turn_seconds": 0}})
    await h.runner(session).turn_timer()
    await h.settle()
    assert all(pings(h, u) == [] for u in users)


async def test_after_a_restart_the_ping_says_to_press_my_hand(h: Harness) -> None:
    session, users = await four_players(h)
    mover = to_move(session, users)
    await my_hand(h, session, mover)
    await h.restart()
    restored: TableSession = h.session()
    assert restored is not session
    pinging(h)
    h.runner(restored).kick()
    await h.until(lambda: bool(pings(h, mover)))
    [ping] = pings(h, mover)
    assert ping.content == t("turn.ping_view", user=mover.mention, button=t("btn.my_hand"))


def countdowns(text: str) -> list[int]:
    """The relative Discord timestamps (``<t:EPOCH:R>``) in a message."""
    return [int(x) for x in re.findall(r"<t:(\d+):R>", text)]


async def test_the_turn_shows_a_live_countdown_that_wakes_do_not_reset(h: Harness) -> None:
    session, users = await four_players(h)
    mover = to_move(session, users)
    runner = h.runner(session)
    await my_hand(h, session, mover)
    table_times = countdowns(h.table_message().text)
    view_times = countdowns(h.hand_view(mover).content)
    assert len(table_times) == 1 and view_times == table_times
    deadline = runner.deadline()
    assert deadline is not None and abs(table_times[0] - deadline) <= 1
    assert abs(deadline - time.time() - session.turn_seconds) <= 5
    # Woken by anything but a move, the turn keeps its time.
    for _ in range(3):
        runner.kick()
        await h.settle()
    assert runner.deadline() == deadline
    # The others' views have no countdown (they need not act), and say so without a name.
    other = next(u for u in users if u != mover)
    assert countdowns(h.hand_view(other).content) == []
    assert t("hand.not_your_turn") in h.hand_view(other).content


async def test_table_show_posts_the_table_again_and_play_goes_on_there(h: Harness) -> None:
    import random

    session, users = await four_players(h)
    await play_turn(h, session, users, random.Random(5))
    old = h.table_message()
    title, buttons = old.embeds[0]["title"], {b["custom_id"] for b in old.buttons}
    r = await h.command(users[1], "table show")
    assert not r.ephemeral and r.message.id != old.id
    assert session.message_id == r.message.id and h.table_message().id == r.message.id
    assert r.message.embeds[0]["title"] == title
    assert {b["custom_id"] for b in r.message.buttons} == buttons
    # The old message points to the new one and has no buttons left.
    assert old.buttons == [] and str(r.message.id) in old.content
    # Play goes on in the new message.
    await play_turn(h, session, users, random.Random(6))
    await h.settle()
    hand = session.hand
    assert hand is not None and hand.trick
    from bot.texts import card_label
    assert card_label(hand.trick[-1]) in h.table_message().text
    [row] = [r for r in await h.bot.store.open_tables() if r.id == session.id]  # type: ignore[union-attr]
    assert row is not None and row.message_id == r.message.id
    r = await h.command(users[1], "table show", channel_id=OTHER_CHANNEL_ID)
    assert r.rejected_with(t("err.no_table"))


async def test_the_result_names_the_players_of_each_team(h: Harness) -> None:
    import random

    from test_cogs import play_until, result_messages

    session, users = await four_players(h)
    await play_until(h, session, users, random.Random(7))
    [result] = result_messages(h, 1)
    ana, bob, cid, dan = users
    assert t("result.teams", teams=f"A: {ana.mention} {cid.mention} · "
                                   f"B: {bob.mention} {dan.mention}") in result.text


async def test_between_hands_a_person_takes_a_computers_seat(h: Harness) -> None:
    import random

    from test_cogs import one_human, play_until

    session, ana = await one_human(h, seed=4)
    bob = h.user("bob")
    # No seat changes while the hand is played (the button is not even shown).
    r = await h.click(bob, f"fc:join:{session.id}:1", forge=True)
    assert r.rejected_with(t("err.hand_in_progress"))
    await play_until(h, session, [ana], random.Random(4))
    await h.settle()
    r = await h.press(bob, t("btn.join_b"))
    assert r.type == UPDATE_MESSAGE and session.seats[1] == bob.member
    assert bob.mention in h.table_message().text
    r = await h.press(bob, t("btn.next_hand"), message=h.result_post())
    assert session.hand_number == 2 and session.seats[1] == bob.member
    hand = session.hand
    assert hand is not None
    # Ana and a computer against Bob and a computer: a new partnership, which starts even.
    assert hand.status.masters is None


async def test_a_player_leaving_mid_hand_hands_the_seat_to_the_computer(h: Harness) -> None:
    session, users = await four_players(h)
    ana = users[0]
    r = await h.press(ana, t("btn.leave_hand"))
    # First a question only Ana sees: nothing has changed yet.
    assert r.ephemeral and r.message.content == t("hand.leave_ask")
    assert 0 not in session.autoplay and not session.leaving
    r = await h.press(ana, t("btn.leave_yes"), message=r.message)
    assert r.type == UPDATE_MESSAGE and r.message.content == t("hand.left")
    assert r.message.buttons == []
    notice = t("turn.left", user=ana.mention)
    assert [m.content for m in h.public() if m.content == notice] == [notice]
    assert 0 in session.autoplay and 0 in session.leaving
    assert session.seats[0] == ana.member  # until the hand is over


async def test_a_hint_is_for_the_asker_only_and_from_their_own_view(h: Harness) -> None:
    """The harness's hidden-card check runs on every message: a hint naming a card still
    hidden in another seat would fail the test. Hints are for casual tables."""
    session, users = await four_players(h, rated=False)
    mover = to_move(session, users)
    view = h.hand_view(mover)
    [hint_id] = view.enabled("hint")
    r = await h.click(mover, hint_id, message=view)
    assert r.ephemeral and r.message.audience == mover.id
    hand = session.hand
    assert hand is not None and hand.to_move is not None
    assert r.message.content.startswith(t("hint.choice", action="\0").split("\0")[0])
    legal = {card_label(a.value) for a in hand.legal_actions(hand.to_move)}
    assert any(label in r.message.content.split("\n")[0] for label in legal)
    # Nobody else has a hint button; a forged one is refused and changes nothing.
    other = next(u for u in users if u != mover)
    assert h.hand_view(other).enabled("hint") == []
    before = len(hand.actions)
    r = await h.click(other, hint_id, forge=True)
    assert r.rejected_with(t("illegal.not_your_turn"))
    assert len(hand.actions) == before


async def test_no_hint_at_a_table_opened_without_hints(h: Harness) -> None:
    session, users = await four_players(h, hints=False, rated=False)
    mover = to_move(session, users)
    assert h.hand_view(mover).enabled("hint") == []
    assert session.hand is not None
    r = await h.click(mover, f"fc:hint:{session.id}:1:{len(session.hand.tricks)}", forge=True)
    assert r.rejected_with(t("err.no_hints"))


@pytest.mark.slow
async def test_a_review_comes_after_the_hand_and_only_to_the_asker(h: Harness) -> None:
    import random

    from test_cogs import play_until, result_messages

    from engine.ai.analysis import review, review_to_json

    session, users = await four_players(h)
    ana = users[0]
    r = await h.click(ana, f"fc:review:{session.id}:1", forge=True)
    assert r.rejected_with(t("err.hand_in_progress"))
    await play_until(h, session, users, random.Random(8))
    [result] = result_messages(h, 1)
    review_id = result.button_by_label(t("btn.review"))["custom_id"]
    # The bot computes a review with Hard in its worker pool; here a quick one of few
    # samples is stored first, as the bot keeps the one it made.
    store = h.bot.store  # type: ignore[union-attr]
    [row] = await store.hands(session.id)
    await store.put_review(row.id, 0, review_to_json(review(row.record(), 0, samples=3)))
    r = await h.click(ana, review_id, message=result)
    assert r.ephemeral and r.message.audience == ana.id
    page = r.message
    assert t("review.trick", trick=1, tricks=len(hand_tricks(session))) in page.content
    [back, forward] = page.buttons
    assert back["disabled"] and not forward["disabled"]
    r = await h.click(ana, forward["custom_id"], message=page)
    assert t("review.trick", trick=2, tricks=len(hand_tricks(session))) in page.content
    eve = h.user("eve")
    r = await h.click(eve, review_id, message=result)
    assert r.rejected_with(t("err.not_seated"))


def hand_tricks(session: TableSession) -> list[Any]:
    assert session.hand is not None
    return list(session.hand.tricks)


async def test_no_hint_at_a_rated_table(h: Harness) -> None:
    session, users = await four_players(h)
    assert session.rated and not session.hints
    mover = to_move(session, users)
    assert h.hand_view(mover).enabled("hint") == []
    assert session.hand is not None
    r = await h.click(mover, f"fc:hint:{session.id}:1:{len(session.hand.tricks)}", forge=True)
    assert r.rejected_with(t("err.no_hints"))


async def test_next_hand_is_on_the_result_with_its_countdown(h: Harness) -> None:
    """Next hand sits under the result (the newest message), with a live countdown to the
    automatic deal; pressed there, the new hand's table is posted at the bottom, and the
    result's button goes (no second live Next hand that would only be refused)."""
    import random

    from fake_discord import CHANNEL_MESSAGE
    from test_cogs import one_human, play_until, result_messages

    session, ana = await one_human(h, seed=4)
    await play_until(h, session, [ana], random.Random(4))
    await h.settle()
    [result] = result_messages(h, 1)
    table = h.table_message()
    button = result.button_by_label(t("btn.next_hand"))
    assert button["custom_id"] == f"fc:next:{session.id}:1" and not button.get("disabled")
    runner = h.runner(session)
    deal_at = runner.next_deal_at()
    assert deal_at is not None
    assert h.bot is not None and abs(
        deal_at - time.time() - h.bot.settings.next_hand_delay) <= 5
    assert countdowns(result.text) == [int(deal_at)]
    # Woken by anything else, the deal keeps its time.
    for _ in range(3):
        runner.kick()
        await h.settle()
    assert runner.next_deal_at() == deal_at
    before = h.snapshot(result)
    r = await h.press(ana, t("btn.next_hand"), message=result)
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    assert session.hand_number == 2 and session.message_id == r.message.id
    assert r.message.embeds[0]["title"] == t("table.title", game="Filicău", number=2)
    # The old table points to the new one; the result keeps only its Review.
    assert table.buttons == [] and str(r.message.id) in table.content
    assert [b["label"] for b in result.buttons] == [t("btn.review")]
    assert countdowns(result.text) == []
    r = await h.click(ana, button["custom_id"], message=before)
    assert r.rejected_with(t("err.stale_hand"))
    assert session.hand_number == 2


async def test_an_automatic_deal_takes_next_hand_off_the_result(h: Harness) -> None:
    import random

    from test_cogs import one_human, play_until, result_messages

    session, ana = await one_human(h, seed=4)
    await play_until(h, session, [ana], random.Random(4))
    await h.settle()
    [result] = result_messages(h, 1)
    assert t("btn.next_hand") in {b["label"] for b in result.buttons}
    assert h.bot is not None
    h.bot.settings.next_hand_delay = 0
    h.runner(session).kick()
    await h.until(lambda: session.hand_number == 2)
    h.bot.settings.next_hand_delay = 3600
    await h.settle()
    assert [b["label"] for b in result.buttons] == [t("btn.review")]
    assert t("result.next_in") not in result.text and countdowns(result.text) == []


@pytest.mark.slow
async def test_history_of_an_older_hand_offers_its_review_to_its_players(h: Harness) -> None:
    import random

    from test_cogs import play_until

    from engine.ai.analysis import review, review_to_json

    session, users = await four_players(h)
    ana = users[0]
    await play_until(h, session, users, random.Random(8))
    await h.settle()
    r = await h.press(ana, t("btn.next_hand"), message=h.result_post())
    assert session.hand_number == 2
    # The hand in play has no record to show, and so no review.
    r = await h.command(ana, "history", hand=2)
    assert r.rejected_with(t("err.hand_in_progress"))
    store = h.bot.store  # type: ignore[union-attr]
    [row] = [x for x in await store.hands(session.id) if x.number == 1]
    await store.put_review(row.id, 0, review_to_json(review(row.record(), 0, samples=3)))
    r = await h.command(ana, "history", hand=1)
    assert r.ephemeral and r.message.audience == ana.id
    [button] = r.message.buttons
    assert button["label"] == t("btn.review") and button["custom_id"] == \
        f"fc:review:{session.id}:1"
    r = await h.click(ana, button["custom_id"], message=r.message)
    assert r.ephemeral and r.message.audience == ana.id
    from engine import replay
    tricks = len(replay(row.record()).tricks)
    assert t("review.trick", trick=1, tricks=tricks) in r.message.content
    # Somebody who did not play the hand sees its record but is offered no review.
    eve = h.user("eve")
    r = await h.command(eve, "history", hand=1)
    assert r.ephemeral and r.message.buttons == []


@pytest.mark.slow
async def test_a_review_shows_a_picture_of_each_trick_when_pictures_are_on(
        h: Harness) -> None:
    import random

    from test_cogs import play_until, result_messages
    from test_pictures import picture, pictures_on

    from bot.pictures import TRICK_FILE
    from engine import replay
    from engine.ai.analysis import review, review_to_json

    await pictures_on(h, h.user("mia", manager=True))
    session, users = await four_players(h)
    ana = users[0]
    await play_until(h, session, users, random.Random(8))
    [result] = result_messages(h, 1)
    store = h.bot.store  # type: ignore[union-attr]
    [row] = await store.hands(session.id)
    await store.put_review(row.id, 0, review_to_json(review(row.record(), 0, samples=3)))
    tricks = replay(row.record()).tricks
    r = await h.click(ana, result.button_by_label(t("btn.review"))["custom_id"],
                      message=result)
    page = r.message
    _, kind, cards = picture(h, page, TRICK_FILE)
    assert kind == "table" and cards == frozenset(tricks[0].cards)
    [_, forward] = page.buttons
    await h.click(ana, forward["custom_id"], message=page)
    _, _, cards = picture(h, page, TRICK_FILE)
    assert cards == frozenset(tricks[1].cards)


@pytest.mark.slow
async def test_a_review_has_no_picture_when_pictures_are_off(h: Harness) -> None:
    import random

    from test_cogs import play_until, result_messages

    from engine.ai.analysis import review, review_to_json

    session, users = await four_players(h)
    await play_until(h, session, users, random.Random(8))
    [result] = result_messages(h, 1)
    store = h.bot.store  # type: ignore[union-attr]
    [row] = await store.hands(session.id)
    await store.put_review(row.id, 0, review_to_json(review(row.record(), 0, samples=3)))
    r = await h.click(users[0], result.button_by_label(t("btn.review"))["custom_id"],
                      message=result)
    assert r.message.files == [] and h.pictures == {}
