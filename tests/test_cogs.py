"""The cogs, with Discord faked at the discord.py boundary (``fake_discord.py``).

Every test drives a real ``FilicauBot`` through real ``INTERACTION_CREATE`` payloads and asserts
what the users see: the public table message, the result message, and each user's own
ephemeral answers. The harness also checks, for every test, that no hidden card reached anybody
who may not see it and that nothing unexpected was logged.
"""

from __future__ import annotations

import random
import re
import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from bot_fixtures import FixedDeal, action_rows, find_deal, first_legal, masters_hand, reseed, rig
from conftest import snapshot
from discord.http import Route
from fake_discord import (
    APP_ID,
    CHANNEL_ID,
    CHANNEL_MESSAGE,
    DEFERRED_MESSAGE,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    UPDATE_MESSAGE,
    Harness,
    HTTPError,
    Message,
    Sent,
    User,
    file_json,
)

from bot.render import card_key_label
from bot.seats import is_computer
from bot.session import TIMEOUTS_BEFORE_AUTOPLAY, TableSession
from bot.standings import PHONE_CHARS
from bot.store import ResultRow, canonical
from bot.texts import card_label, option_text, t
from engine import Action, Hand, public_view, replay, report
from engine.cards import Card, code

TITLES = {"filicau": "Filicău", "filko": "Filkó"}

Deal = tuple[Sequence[Card], int]
Pick = random.Random | Callable[[Hand, int], Action]


# -- helpers -------------------------------------------------------------------------------------


def hand_of(session: TableSession) -> Hand:
    assert session.hand is not None
    return session.hand


def expected_buttons(session: TableSession, seat: int) -> set[str]:
    """The custom_ids a seat's hand view must enable: exactly its legal actions, and when it
    has any, the "What would you play?" button (a table with hints)."""
    hand = hand_of(session)
    out = set()
    if hand.legal_actions(seat) and not hand.finished and session.hints:
        out.add(f"fc:hint:{session.id}:{session.hand_number}:{len(hand.tricks)}")
    for a in hand.legal_actions(seat):
        if a.kind == "card":
            out.add(f"fc:card:{session.id}:{session.hand_number}:{len(hand.tricks)}:"
                    f"{code(a.value)}")
        else:
            out.add(f"fc:act:{session.id}:{session.hand_number}:{a.kind}:{a.value}")
    return out


def names(custom_id: str, action: Action) -> bool:
    """Whether a hand view's button plays ``action``."""
    parts = custom_id.split(":")
    if action.kind == "card":
        return parts[1] == "card" and parts[-1] == code(action.value)
    return parts[1] == "act" and parts[4] == action.kind and parts[5] == str(action.value)


def seat_of(session: TableSession, user: User) -> int:
    seat = session.seat_of(user.id)
    assert seat is not None, f"{user.name} is not seated"
    return seat


def to_move(session: TableSession, users: Sequence[User]) -> User:
    """The user whose card the table waits for."""
    [user] = [u for u in users if seat_of(session, u) == hand_of(session).to_move]
    return user


def card_id(session: TableSession, c: int) -> str:
    return (f"fc:card:{session.id}:{session.hand_number}:{len(hand_of(session).tricks)}:"
            f"{code(c)}")


def view_cards(view: Message) -> list[str]:
    return [b["custom_id"].split(":")[-1] for b in view.buttons
            if b["custom_id"].startswith("fc:card:")]


def stored_actions(h: Harness, session: TableSession) -> list[tuple[int, int | None, int]]:
    assert session.hand_id is not None
    return action_rows(h.db_path, session.hand_id)


async def open_table(h: Harness, opener: User, joins: Sequence[tuple[User, int]], *,
                     game: str = "filicau", seed: int = 1, deal: Deal | None = None,
                     **options: Any) -> TableSession:
    """``/table new``, then each user presses Join team A/B on the lobby message."""
    r = await h.command(opener, "table new", game=game, **options)
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    assert r.message.embeds[0]["title"] == t("lobby.title", game=TITLES[game])
    for user, team in joins:
        r = await h.press(user, t("btn.join_a") if team == 0 else t("btn.join_b"))
        assert r.type == UPDATE_MESSAGE and r.message.id == h.table_message().id
        assert user.mention in r.text
    session = h.session()
    # A fixed deal: a chosen pack and dealer, or a seeded shuffle.
    if deal:
        rig(session, FixedDeal(*deal))
    else:
        await reseed(session, seed)
    return session


async def start(h: Harness, opener: User, users: Sequence[User]) -> TableSession:
    """The opener presses Start; every user presses My hand and sees their own cards."""
    r = await h.press(opener, t("btn.start"))
    assert r.type == UPDATE_MESSAGE and r.message.id == h.table_message().id
    session = h.session()
    hand = hand_of(session)
    assert r.message.embeds[0]["title"] == t("table.title", game=TITLES[session.game],
                                             number=1)
    for user in users:
        await my_hand(h, session, user)
    assert session.state == "playing" and hand.actions == []
    return session


async def my_hand(h: Harness, session: TableSession, user: User) -> Message:
    r = await h.press(user, t("btn.my_hand"))
    assert r.type == CHANNEL_MESSAGE and r.ephemeral
    seat = session.seat_of(user.id)
    assert seat is not None
    held = hand_of(session).hands[seat]
    assert sorted(view_cards(r.message)) == sorted(code(c) for c in held)
    labels = {b["label"] for b in r.message.buttons}
    assert all(card_key_label(public_view(hand_of(session)), c) in labels for c in held)
    assert set(r.message.enabled()) == expected_buttons(session, seat)
    return r.message


async def four_players(h: Harness, *, game: str = "filicau", seed: int = 1,
                       deal: Deal | None = None,
                       **options: Any) -> tuple[TableSession, list[User]]:
    users = [h.user(n) for n in ("ana", "bob", "cid", "dan")]
    ana, bob, cid, dan = users
    await open_table(h, ana, [(ana, 0), (bob, 1), (cid, 0), (dan, 1)], game=game, seed=seed,
                     deal=deal, **options)
    session = await start(h, ana, users)
    assert session.seats == [u.member for u in users]
    return session, users


async def play_turn(h: Harness, session: TableSession, users: Sequence[User],
                    pick: Pick) -> tuple[User, Sent]:
    """The users who see enabled buttons in their hand view are exactly those the table waits
    for, and they see exactly their legal actions; one of them clicks one (a random one, or
    the button of the action ``pick`` chooses)."""
    waiting = session.waiting_for_human()
    seeing = [u for u in users if h.hand_view(u).moves()]
    assert sorted(seat_of(session, u) for u in seeing) == sorted(waiting)
    user = seeing[0]
    seat = seat_of(session, user)
    view = h.hand_view(user)
    assert set(view.enabled()) == expected_buttons(session, seat)
    assert sorted(view_cards(view)) == sorted(code(c) for c in hand_of(session).hands[seat])
    if isinstance(pick, random.Random):
        custom_id = pick.choice(sorted(view.moves()))
    else:
        action = pick(hand_of(session), seat)
        [custom_id] = [c for c in view.moves() if names(c, action)]
    before = len(hand_of(session).actions)
    r = await h.click(user, custom_id, message=view)
    assert r.type == UPDATE_MESSAGE and r.message.id == view.id
    assert custom_id not in r.message.enabled()
    assert hand_of(session).actions[before][0] == seat
    return user, r


async def play_until(h: Harness, session: TableSession, users: Sequence[User], pick: Pick,
                     stop: Callable[[Hand], bool] = lambda hand: False) -> None:
    """Play by clicks until the hand is over (or ``stop``)."""
    for _ in range(100):
        hand = hand_of(session)
        if hand.finished or stop(hand):
            return
        await play_turn(h, session, users, pick)
    raise AssertionError("the hand did not end")


def acting(table: Message) -> str:
    """The lines of the table's seats that are marked to act now (▶)."""
    return "\n".join(line for line in table.text.splitlines() if line.startswith("▶"))


def result_messages(h: Harness, number: int) -> list[Message]:
    prefix = f"Hand {number}:"
    return [m for m in h.public() if m.embeds and m.embeds[0].get("title", "").startswith(prefix)]


async def check_stored(h: Harness, session: TableSession) -> Hand:
    """The store holds the full record of the finished hand; replaying it gives the stored
    result and the partnership status stored for these teams; no action is stored twice."""
    store = h.bot.store  # type: ignore[union-attr]
    [row] = [r for r in await store.hands(session.id) if r.number == session.hand_number]
    assert row.result is not None
    replayed = replay(row.record())
    assert report(replayed) == report(hand_of(session))
    result = replayed.result
    assert result is not None
    assert row.result["status"] == result.status.to_json()
    assert row.result["points"] == list(result.points)
    assert row.result["next_dealer"] == result.next_dealer
    seats = session.seats
    assert row.header["members"] == seats
    team0 = [m for s, m in enumerate(seats) if s % 2 == 0 and m is not None]
    team1 = [m for s, m in enumerate(seats) if s % 2 == 1 and m is not None]
    st = await store.get_status(GUILD_ID, session.game, team0, team1)
    assert st is not None
    a, _, _ = canonical(team0, team1)
    if result.status.masters is None:
        assert st.masters is None
    else:
        masters = team0 if result.status.masters == 0 else team1
        assert st.masters == ("a" if sorted(masters) == a else "b")

    def stored_member(seat: int) -> str:
        # Computers share one member id: a stored one carries its (canonical) team letter.
        member = seats[seat]
        assert member is not None
        if not is_computer(member):
            return member
        team = team0 if seat % 2 == 0 else team1
        return f"{member}@{'a' if sorted(team) == a else 'b'}"

    servant = result.status.servant
    assert st.servant == (None if servant is None else stored_member(servant))
    assert st.next_dealer == stored_member(result.next_dealer)
    rows = action_rows(h.db_path, row.id)
    assert [i for i, _, _ in rows] == list(range(len(replayed.actions)))
    for (_, user_id, by_computer), (seat, _) in zip(rows, replayed.actions, strict=True):
        member = seats[seat]
        if by_computer:
            assert user_id is None
        else:
            assert member is not None and user_id == int(member)
    return replayed


# -- a whole hand ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["filicau", "filko"])
async def test_four_users_play_a_whole_hand(h: Harness, game: str) -> None:
    # A deal in which a team becomes masters (in Filkó they then choose their Servant).
    deal = find_deal(game, masters_hand())
    session, users = await four_players(h, game=game, deal=deal)
    for _ in range(100):
        hand = hand_of(session)
        if hand.finished:
            break
        await play_turn(h, session, users, first_legal)
        table = h.table_message()
        last = hand.actions[-1][1]
        if last.kind == "card" and not hand.finished:
            # Everybody sees the card on the table (in the trick or the last trick).
            assert card_label(last.value) in table.text
        if not hand.finished:
            # The table message marks whoever must act now (and says nothing else: the
            # turn's signal is a message of its own).
            assert table.content == ""
            assert f"<@{session.seats[hand.actors()[0]]}>" in acting(table)
    hand = hand_of(session)
    assert hand.finished and hand.result is not None
    assert hand.result.event == "masters"
    # In Filkó the new masters chose their Servant with a button.
    assert any(a.kind == "servant" for _, a in hand.actions) == (game == "filko")
    # The result is posted once, for everybody; the table offers the next hand.
    [posted] = result_messages(h, 1)
    a, b = hand.result.points[0], hand.result.points[1]
    assert posted.embeds[0]["title"] == t("result.title", number=1, a=a, b=b)
    assert t("result.next_dealer", user=f"<@{session.seats[hand.result.next_dealer]}>") \
        in posted.text
    table = h.table_message()
    assert table.content == ""
    # One Next hand, on the result (where everybody looks once the hand is over).
    assert posted.button_by_label(t("btn.next_hand"))["custom_id"] == f"fc:next:{session.id}:1"
    assert t("btn.next_hand") not in {b["label"] for b in table.buttons}
    assert t("table.trick") not in table.text and t("table.trick_empty") not in table.text
    assert t("table.points_line", a=a, b=b) in table.text
    await check_stored(h, session)
    # The hidden-card check really looked at the messages of the hand.
    assert h.checked > 4 * 8


# -- refusals: an ephemeral answer, and nothing changes ----------------------------------------


def state(h: Harness, session: TableSession) -> tuple[Any, ...]:
    return snapshot(hand_of(session)), stored_actions(h, session), session.hand_number


async def test_a_user_not_seated_cannot_play(h: Harness) -> None:
    session, _ = await four_players(h)
    eve = h.user("eve")
    before = state(h, session)
    r = await h.press(eve, t("btn.my_hand"))
    assert r.rejected_with(t("err.not_seated"))
    # A hand-made click on a card of the player to move, put on the table message.
    seat = hand_of(session).to_move
    assert seat is not None
    c = next(a.value for a in hand_of(session).legal_actions(seat))
    r = await h.click(eve, card_id(session, c), forge=True, message=h.table_message())
    assert r.rejected_with(t("err.bad_button"))
    assert state(h, session) == before
    # Looking is allowed: the rules and the last trick.
    r = await h.press(eve, t("btn.last_trick"))
    assert r.ephemeral and r.message.content == t("table.no_last_trick")
    r = await h.press(eve, t("btn.rules"))
    assert r.ephemeral and r.message.embeds[0]["title"] == "Filicău"


async def test_a_seated_user_cannot_play_out_of_turn(h: Harness) -> None:
    session, users = await four_players(h)
    hand = hand_of(session)
    idle = next(u for u in users if seat_of(session, u) != hand.to_move)
    view = h.hand_view(idle)
    assert view.enabled() == []
    before = state(h, session)
    # A client that ignores "disabled" (or a click racing the update).
    r = await h.click(idle, view.buttons[0]["custom_id"], message=view, force=True)
    assert r.rejected_with(t("illegal.not_your_turn"))
    assert state(h, session) == before


async def test_forged_and_damaged_buttons_are_refused(h: Harness) -> None:
    session, users = await four_players(h)
    hand = hand_of(session)
    seat = hand.to_move
    assert seat is not None
    mover = to_move(session, users)
    other = hand.hands[(seat + 1) % 4][0]
    view = h.hand_view(mover)
    before = state(h, session)
    r = await h.click(mover, card_id(session, other), message=view, forge=True)
    assert r.rejected_with(t("illegal.not_your_card"))
    tid = session.id
    for custom_id, text in [
        (f"fc:card:{tid}:1:0:ZZ", t("err.bad_button")),  # no such card
        (f"fc:card:{tid}:x", t("err.bad_button")),  # not numbers
        (f"fc:card:{tid}", t("err.bad_button")),  # arguments missing
        (f"fc:servant:{tid}:1:1", t("illegal.wrong_phase")),  # Filicău has no Servant
        (f"fc:zap:{tid}", t("err.bad_button")),  # no such operation
        (f"fc:hand:{tid + 7}", t("err.gone")),  # no such table
        (f"fc:join:{tid}:0", t("err.bad_button")),  # the lobby's button, on a hand view
        (f"fc:next:{tid}:1", t("err.bad_button")),  # a result's button, on a hand view
    ]:
        r = await h.click(mover, custom_id, message=view, forge=True)
        assert r.rejected_with(text), (custom_id, r.text)
    table = h.table_message()
    for custom_id, text in [
        (f"fc:join:{tid}:5", t("err.bad_button")),  # no such team
        (f"fc:join:{tid}:0", t("err.hand_in_progress")),  # seats change between hands
        (f"fc:next:{tid}:1", t("err.hand_in_progress")),
        (f"fc:card:{tid}:1:0:{code(other)}", t("err.bad_button")),  # a hand's, on the table
    ]:
        r = await h.click(mover, custom_id, message=table, forge=True)
        assert r.rejected_with(text), (custom_id, r.text)
    assert state(h, session) == before


async def test_a_double_click_plays_the_card_once(h: Harness) -> None:
    session, users = await four_players(h)
    hand = hand_of(session)
    mover = to_move(session, users)
    view = h.hand_view(mover)
    custom_id = view.moves()[0]
    first, s1 = h.click_payload(mover, custom_id, message=view)
    second, s2 = h.click_payload(mover, custom_id, message=view)
    await h.dispatch(first, second)  # both sent before either is answered
    assert s1.type == UPDATE_MESSAGE and custom_id not in s1.message.enabled()
    assert s2.ephemeral and s2.message.content == t("illegal.not_your_turn")
    assert len(hand.actions) == 1
    assert [i for i, _, _ in stored_actions(h, session)] == [0]


async def test_a_button_from_an_earlier_trick_is_refused(h: Harness) -> None:
    session, users = await four_players(h)
    hand = hand_of(session)
    leader = to_move(session, users)
    stale = h.snapshot(h.hand_view(leader))  # the leader may play any card: all enabled
    await play_until(h, session, users, random.Random(2), stop=lambda hand: len(hand.tricks) == 1)
    seat = seat_of(session, leader)
    held = {code(c) for c in hand.hands[seat]}
    still_held = [b["custom_id"] for row in stale["components"] for b in row["components"]
                  if not b.get("disabled") and b["custom_id"].split(":")[-1] in held]
    assert len(still_held) == 7
    before = state(h, session)
    r = await h.click(leader, still_held[0], message=stale)
    assert r.rejected_with(t("err.stale_trick"))
    assert state(h, session) == before


async def test_lobby_refusals(h: Harness) -> None:
    ana, bob, cid, dan, eve = (h.user(n) for n in ("ana", "bob", "cid", "dan", "eve"))
    session = await open_table(h, ana, [(ana, 0), (bob, 1), (cid, 0)])
    lobby = h.table_message()
    # Start is disabled until the table is full: a client cannot click it.
    assert lobby.button_by_label(t("btn.start"))["disabled"]
    with pytest.raises(AssertionError, match="disabled"):
        h.click_payload(ana, f"fc:start:{session.id}")
    # Team A is full: its Join button is gone, and an older one is refused.
    assert t("btn.join_a") not in {b["label"] for b in lobby.buttons}
    r = await h.click(eve, f"fc:join:{session.id}:0", forge=True)
    assert r.rejected_with(t("err.team_full", team="A"))
    r = await h.press(bob, t("btn.join_b"))
    assert r.rejected_with(t("err.already_seated"))
    r = await h.press(eve, t("btn.leave"))
    assert r.rejected_with(t("err.not_seated"))
    # No computer sits: no Remove computer button, and a forged one changes nothing.
    assert not [b for b in lobby.buttons if b["custom_id"].startswith("fc:uncpu:")]
    r = await h.click(eve, f"fc:uncpu:{session.id}", message=lobby, forge=True)
    assert r.rejected_with(t("err.not_manager"))
    r = await h.click(ana, f"fc:uncpu:{session.id}", message=lobby, forge=True)
    assert r.rejected_with(t("err.no_computer"))
    r = await h.press(eve, t("btn.cancel"))
    assert r.rejected_with(t("err.not_manager"))
    r = await h.press(dan, t("btn.join_b"))
    full = h.snapshot(h.table_message())
    assert not h.table_message().button_by_label(t("btn.start"))["disabled"]
    # Full: no Add computer menu and no seat buttons left, only Leave to give a seat up.
    lobby = h.table_message()
    assert lobby.select("cpu") is None
    labels = {b["label"] for b in lobby.buttons}
    assert not labels & {t("btn.join_a"), t("btn.join_b"), t("btn.sit")}
    assert t("btn.leave") in labels
    # Start by a player who did not open the table.
    r = await h.press(bob, t("btn.start"))
    assert r.rejected_with(t("err.not_manager"))
    # Dan leaves while Ana's client still shows the full table.
    r = await h.press(dan, t("btn.leave"))
    assert r.type == UPDATE_MESSAGE and dan.mention not in r.text
    r = await h.click(ana, f"fc:start:{session.id}", message=full)
    assert r.rejected_with(t("err.not_full"))
    assert session.state == "lobby" and session.hand is None
    # A second table in the same channel.
    r = await h.command(bob, "table new", game="filko")
    assert r.rejected_with(t("err.channel_busy"))
    assert h.session() is session
    assert len(await h.bot.store.open_tables()) == 1  # type: ignore[union-attr]
    # A table in another channel is fine; the opener cancels the first.
    r = await h.command(bob, "table new", channel_id=OTHER_CHANNEL_ID, game="filko")
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    r = await h.press(ana, t("btn.cancel"), message=h.discord.messages[session.message_id or 0])
    assert r.type == UPDATE_MESSAGE and r.message.content == t("lobby.cancelled")
    assert r.message.buttons == [] and r.message.embeds == []
    r = await h.command(cid, "table new", game="filicau")
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral


async def test_a_server_manager_may_start_a_table_they_did_not_open(h: Harness) -> None:
    ana, bob, cid, dan = (h.user(n) for n in ("ana", "bob", "cid", "dan"))
    mia = h.user("mia", manager=True)
    await open_table(h, ana, [(ana, 0), (bob, 1), (cid, 0), (dan, 1)])
    r = await h.press(mia, t("btn.start"))
    assert r.type == UPDATE_MESSAGE
    assert h.session().state == "playing"


# -- computers ---------------------------------------------------------------------------------


async def one_human(h: Harness, *, game: str = "filicau", seed: int = 1,
                    **options: Any) -> tuple[TableSession, User]:
    """Ana and three computers (added with the lobby button); Ana has pressed My hand."""
    ana = h.user("ana")
    session = await open_table(h, ana, [(ana, 0)], game=game, seed=seed, **options)
    for _ in range(3):
        r = await h.add_computer(ana)
        assert r.type == UPDATE_MESSAGE
    assert r.text.count(t("lobby.computer")) == 3
    assert session.seats[0] == ana.member and all(is_computer(m) for m in session.seats[1:])
    r = await h.press(ana, t("btn.start"))
    assert r.type == UPDATE_MESSAGE
    # The computers before Ana have played (settled): the table waits for Ana.
    assert session.waiting_for_human() == [0]
    await my_hand(h, session, ana)
    return session, ana


async def test_one_user_and_three_computers_play_a_whole_hand(h: Harness) -> None:
    session, ana = await one_human(h, seed=4)
    await play_until(h, session, [ana], random.Random(4))
    hand = hand_of(session)
    assert hand.finished
    assert len(result_messages(h, 1)) == 1
    rows = stored_actions(h, session)
    for (_, user_id, by_computer), (seat, _) in zip(rows, hand.actions, strict=True):
        assert (user_id, by_computer) == ((ana.id, 0) if seat == 0 else (None, 1))
    assert {seat for seat, _ in hand.actions} == {0, 1, 2, 3}
    await check_stored(h, session)


async def test_next_hand_and_buttons_from_the_previous_hand(h: Harness) -> None:
    session, ana = await one_human(h, seed=6)
    old_view = h.snapshot(h.hand_view(ana))  # hand 1, Ana's cards enabled
    old_card = next(b["custom_id"] for row in old_view["components"]
                    for b in row["components"] if not b.get("disabled"))
    await play_until(h, session, [ana], random.Random(6))
    finished = h.snapshot(h.result_post())
    r = await h.press(ana, t("btn.next_hand"), message=h.result_post())
    assert r.type == CHANNEL_MESSAGE  # the new hand's table, below the result
    assert r.message.embeds[0]["title"] == t("table.title", game="Filicău", number=2)
    assert session.hand_number == 2 and not hand_of(session).finished
    before = state(h, session)
    r = await h.click(ana, old_card, message=old_view)
    assert r.rejected_with(t("err.stale_hand"))
    r = await h.click(ana, f"fc:next:{session.id}:1", message=finished)
    assert r.rejected_with(t("err.stale_hand"))
    # The record of the hand in play would show every hand: refused; hand 1 is there.
    r = await h.command(ana, "history", hand=2)
    assert r.rejected_with(t("err.hand_in_progress"))
    assert state(h, session) == before
    r = await h.command(ana, "history", hand=1)
    assert r.ephemeral and replay(file_json(r.message)).finished


# -- restart -------------------------------------------------------------------------------------


async def test_restart_restores_a_table_in_the_middle_of_a_trick(h: Harness) -> None:
    session, users = await four_players(h, seed=8)
    rng = random.Random(8)
    await play_until(h, session, users, rng, stop=lambda hand: len(hand.actions) == 6)
    old = hand_of(session)
    assert len(old.trick) == 2  # mid-trick
    mover = to_move(session, users)
    pre_restart_view = h.hand_view(mover)
    assert pre_restart_view.moves()
    before = report(old), list(old.actions), session.seats, session.hand_number, session.id

    await h.restart()

    restored = h.session()
    assert restored is not session
    hand = hand_of(restored)
    assert (report(hand), list(hand.actions), restored.seats, restored.hand_number,
            restored.id) == before
    assert restored.state == "playing" and restored.message_id == session.message_id
    # The table message was redrawn by the new process, naming whoever must act.
    assert mover.mention in acting(h.table_message())
    # A button sent before the restart still works: the dynamic item is persistent.
    r = await h.click(mover, pre_restart_view.moves()[0], message=pre_restart_view)
    assert r.type == UPDATE_MESSAGE and len(hand.actions) == 7
    for user in users:
        await my_hand(h, restored, user)
    await play_until(h, restored, users, rng)
    assert hand.finished
    assert len(result_messages(h, 1)) == 1
    await check_stored(h, restored)  # every action once, in order


async def test_restart_restores_a_lobby(h: Harness) -> None:
    ana, bob = h.user("ana"), h.user("bob")
    session = await open_table(h, ana, [(ana, 0)])
    await h.restart()
    restored = h.session()
    assert restored.id == session.id and restored.seats == [ana.member, None, None, None]
    r = await h.press(bob, t("btn.join_b"))
    assert r.type == UPDATE_MESSAGE and bob.mention in r.text
    assert restored.seats[1] == bob.member


# -- the turn timer ----------------------------------------------------------------------------


async def test_timeouts_let_the_computer_play_then_autoplay_until_my_hand(h: Harness) -> None:
    session, users = await four_players(h, seed=9, early_end=False)
    hand = hand_of(session)
    rng = random.Random(9)
    seat = hand.to_move
    assert seat is not None
    slow = users[seat]
    assert session.waiting_for_human() == [seat]
    # The turn timer runs (a driver waits for the player); the test plays its timeout.
    assert not h.runner(session).driver.done()
    for n in range(1, TIMEOUTS_BEFORE_AUTOPLAY + 1):
        await play_until(h, session, users, rng, stop=lambda hand: hand.to_move == seat)
        held = list(hand.hands[seat])
        stamp = len(hand.actions)
        await h.runner(session).turn_timeout(stamp)
        await h.settle()
        # The computer played one of the slow player's cards, and the store says so.
        assert hand.actions[stamp][0] == seat and hand.actions[stamp][1].value in held
        assert stored_actions(h, session)[stamp] == (stamp, None, 1)
        assert session.timeouts[seat] == n
        # Their hand view no longer offers the card that was played for them.
        view = h.hand_view(slow)
        assert view.enabled() == []
        assert code(hand.actions[stamp][1].value) not in view_cards(view)
        # A second timeout for the same move does nothing.
        await h.runner(session).turn_timeout(stamp)
        assert len(stored_actions(h, session)) == len(hand.actions)
    assert seat in session.autoplay
    notices = [m for m in h.public() if m.content == t("turn.autoplay", user=slow.mention)]
    assert len(notices) == 1
    # In autoplay the computer plays the seat at once, whenever it is its turn.
    autoplayed = len([a for a in hand.actions if a[0] == seat])
    await play_until(h, session, [u for u in users if u is not slow], rng,
                     stop=lambda hand: len([a for a in hand.actions if a[0] == seat])
                     > autoplayed)
    last = max(i for i, (s, _) in enumerate(hand.actions) if s == seat)
    assert stored_actions(h, session)[last] == (last, None, 1)
    # My hand gives the seat back to its player: the table waits for them again.
    await my_hand(h, session, slow)
    assert seat not in session.autoplay and session.timeouts[seat] == 0
    await play_until(h, session, users, rng, stop=lambda hand: hand.to_move == seat)
    assert session.waiting_for_human() == [seat]
    assert h.hand_view(slow).enabled()
    await play_until(h, session, users, rng)
    await check_stored(h, session)


# -- the other commands ------------------------------------------------------------------------


async def test_standings_status_rules_and_history_after_a_hand(h: Harness) -> None:
    session, ana = await one_human(h, seed=4)
    await play_until(h, session, [ana], random.Random(4))
    hand = check = await check_stored(h, session)
    assert check.result is not None

    r = await h.command(ana, "standings")
    # Public, answered by an edit once the players' names are looked up.
    assert r.type == DEFERRED_MESSAGE and not r.ephemeral
    assert r.message.embeds[0]["title"] == t("standings.title", game="Filicău")
    players = r.message.embeds[0]["fields"][0]["value"].split("```")[1].splitlines()
    assert any(line.split()[:2] == ["Ana", "1"] for line in players)  # one hand
    r = await h.command(ana, "standings", game="filko")
    assert t("standings.none") in r.text

    r = await h.command(ana, "status")
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    assert r.message.embeds[0]["title"] == t("status.title")
    assert ana.mention in r.text and t("status.none") not in r.text

    r = await h.command(ana, "rules", game="filko")
    assert r.ephemeral and r.message.embeds[0]["title"] == "Filkó"

    r = await h.command(ana, "history")
    assert r.ephemeral and r.message.embeds[0]["title"] == t("history.title")
    pts = hand.result.points if hand.result else ()
    assert r.message.embeds[0]["description"].startswith(
        t("history.line", number=1, summary=f"{pts[0]}–{pts[1]}, "))
    r = await h.command(ana, "history", hand=1)
    assert r.ephemeral
    [(name, _)] = r.message.files
    assert name == f"table{session.id}-hand1.json"
    record = file_json(r.message)
    assert record["table_id"] == session.id and record["members"] == session.seats
    assert report(replay(record)) == report(hand_of(session))
    r = await h.command(ana, "history", hand=7)
    assert r.rejected_with(t("err.no_record"))
    r = await h.command(ana, "history", channel_id=OTHER_CHANNEL_ID)
    assert r.rejected_with(t("err.no_table"))


async def test_admin_commands_need_manage_server(h: Harness) -> None:
    session, ana = await one_human(h, seed=4)
    await play_until(h, session, [ana], random.Random(4))
    mia = h.user("mia", manager=True)
    r = await h.command(ana, "admin end")
    assert r.rejected_with(t("err.need_manage_server"))
    r = await h.command(mia, "admin reset", user=ana, game="filicau")
    assert r.ephemeral and r.message.content == t("ok.reset", count=1, user=ana.mention)
    store = h.bot.store  # type: ignore[union-attr]
    [st] = await store.statuses(GUILD_ID)
    assert st.masters is None and st.next_dealer is None
    r = await h.command(mia, "admin end")
    assert r.ephemeral and r.message.content == t("ok.ended")
    assert h.discord.messages[session.message_id or 0].content == t("ok.ended")
    assert h.tables.session_in(CHANNEL_ID) is None and session.state == "closed"
    r = await h.command(ana, "table new", game="filicau")
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral


async def test_a_failing_command_answers_with_the_generic_text(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = h.user("ana")

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(h.bot.store, "results", broken)  # type: ignore[union-attr]
    h.expect_error("command standings failed")
    r = await h.command(ana, "standings")
    assert r.rejected_with(t("err.internal"))


async def test_a_failing_click_answers_with_the_generic_text_and_changes_nothing(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    session, users = await four_players(h)
    store = h.bot.store  # type: ignore[union-attr]
    real = store.append_action
    fail = [True]

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        if fail.pop() if fail else False:
            raise sqlite3.OperationalError("database is locked")
        return await real(*args, **kwargs)

    monkeypatch.setattr(store, "append_action", flaky)
    mover = to_move(session, users)
    view = h.hand_view(mover)
    before = state(h, session)
    h.expect_error("click card")
    r = await h.click(mover, view.moves()[0], message=view)
    assert r.rejected_with(t("err.internal"))
    assert state(h, session) == before
    # The same click again works.
    r = await h.click(mover, view.moves()[0], message=view)
    assert r.type == UPDATE_MESSAGE and len(hand_of(session).actions) == 1


async def test_a_deleted_table_message_is_posted_again(h: Harness) -> None:
    session, users = await four_players(h)
    old = h.table_message()
    old.deleted = True  # somebody deleted it
    await play_turn(h, session, users, random.Random(1))
    new = h.table_message()
    assert new.id != old.id and session.message_id == new.id
    assert new.embeds[0]["title"] == t("table.title", game="Filicău", number=1)
    [row] = [r for r in await h.bot.store.open_tables() if r.id == session.id]  # type: ignore[union-attr]
    assert row is not None and row.message_id == new.id
    # Its buttons work.
    await my_hand(h, session, users[0])


async def test_a_failed_table_edit_is_tried_again(h: Harness,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord refuses one edit of the table message (rate limited past discord.py's
    retries, or a server error): the table must not keep showing an old turn."""
    import bot.discord_surface as runner_module

    session, users = await four_players(h)
    monkeypatch.setattr(runner_module, "EDIT_RETRY_SECONDS", 0)
    fake = h.discord
    real_write = type(fake)._write
    failures = []

    def failing_once(msg: Message, data: dict[str, Any],
                     files: list[tuple[str, bytes]] | None = None) -> None:
        # Whichever route the bot edits the table message through, Discord fails once.
        if msg.id == session.message_id and not failures:
            failures.append(msg.id)
            raise HTTPError(500, 0, "Internal Server Error")
        real_write(fake, msg, data, files)

    monkeypatch.setattr(fake, "_write", failing_once)
    await play_turn(h, session, users, random.Random(2))
    await h.until(lambda: bool(failures) and not h.table(session).discord.dirty)
    await h.settle()
    hand = hand_of(session)
    assert failures == [session.message_id]
    # The table message shows the move after all: whose turn it is now.
    assert users[hand.to_move or 0].mention in acting(h.table_message())
    assert card_label(hand.trick[-1]) in h.table_message().text


# -- the hidden-card check itself ----------------------------------------------------------------


async def test_the_hidden_card_check_sees_a_leak(h: Harness) -> None:
    """The check that runs in every test is not vacuous: a card still held, named in a public
    message or in another player's ephemeral view, is reported."""
    session, users = await four_players(h)
    hand = hand_of(session)
    hidden = next(c for c in hand.hands[1] if c not in hand.shown)
    assert h.bot is not None
    await h.bot.get_partial_messageable(CHANNEL_ID).send(f"psst: {card_label(hidden)}")
    assert len(h.leaks) == 1 and "to everybody" in h.leaks[0]
    # The same card in Ana's (seat 0) ephemeral hand view is a leak; in Bob's own, it is not.
    for user, leaks in ((users[0], 2), (users[1], 2)):
        view = h.hand_view(user)
        token = next(tok for tok, s in h.discord.interactions.items() if s.original == view.id)
        await h.discord.webhook_request(
            Route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                  webhook_id=APP_ID, webhook_token=token),
            {"content": card_label(hidden)}, None, None)
        assert len(h.leaks) == leaks
    h.leaks.clear()


async def test_standings_of_a_busy_server_fit_in_an_embed(h: Harness) -> None:
    """Fifteen players' lines are longer than an embed field may be (1,024 characters):
    Discord would refuse the message."""
    store = h.bot.store  # type: ignore[union-attr]
    table = await store.create_table(guild_id=GUILD_ID, channel_id=OTHER_CHANNEL_ID,
                                     game="filicau", options={}, opener_id=1, seats=[None] * 4)
    players = [str(700_000_000_000_100_000 + i) for i in range(32)]
    for n in range(8):
        hand_id = await store.start_hand(table.id, n + 1, {})
        a, b, _ = canonical(players[4 * n:4 * n + 2], players[4 * n + 2:4 * n + 4])
        await store.add_result(ResultRow(
            hand_id=hand_id, guild_id=GUILD_ID, game="filicau", team_a=a, team_b=b,
            points_a=6, points_b=2, masters_before=None, masters_after="a", event="masters",
            event_team="a", finished_at="2024-06-01T12:00:00+00:00"))
    r = await h.command(h.user("ana"), "standings")
    assert r.type == DEFERRED_MESSAGE and not r.ephemeral
    [players_field, pairs_field] = r.message.embeds[0]["fields"]
    header, *rows = players_field["value"].split("```")[1].strip("\n").splitlines()
    assert 1 < len(rows) <= 15
    assert header.split()[:2] == [t("standings.col.player"), t("standings.col.hands")]
    # Hands, times masters, hands as masters: the players are no members here.
    assert all(row.split()[-3:] in (["1", "1", "0"], ["1", "0", "0"]) for row in rows)
    assert all(len(line) <= PHONE_CHARS for line in [header, *rows])
    _, *pairs = pairs_field["value"].split("```")[1].strip("\n").splitlines()
    assert all(line.split()[-1] == "A" for line in pairs[1::2])


async def test_table_options_and_an_expired_lobby(h: Harness) -> None:
    ana = h.user("ana")
    r = await h.command(ana, "table new", game="filicau", top_trumps="hearts_seven")
    assert r.ephemeral and r.message.content.startswith(t("err.bad_options", problem=""))
    assert h.tables.session_in(CHANNEL_ID) is None
    r = await h.command(ana, "table new", game="filko", top_trumps="hearts_seven",
                        early_end=False, turn_seconds=20)
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    assert option_text("top_trumps", "hearts_seven") in r.text
    assert option_text("early_end", False) in r.text
    assert "turn: 20 s" in r.text
    session = h.session()
    assert session.rules.options.model_dump()["top_trumps"] == "hearts_seven"
    # Nobody starts it: the lobby timer (here run at once) closes the table.
    await h.runner(session).expire_lobby(0)
    assert h.table_message().content == t("lobby.expired")
    assert h.table_message().buttons == []
    assert h.tables.session_in(CHANNEL_ID) is None and session.state == "closed"


# -- timers driven by the bot's own driver, with no delay ----------------------------------------


async def test_the_turn_timer_warns_then_the_computer_plays(h: Harness) -> None:
    session, users = await four_players(h)
    hand = hand_of(session)
    seat = hand.to_move
    assert seat is not None
    # One cycle of the driver's own turn timer, with a zero-second turn (so without waiting);
    # the table's driver sees the normal turn again afterwards.
    row = session.row
    session.row = row.model_copy(update={"settings": {"turn_seconds": 0}})
    before = int(time.time())
    await h.runner(session).turn_timer()
    after = int(time.time())
    session.row = row
    await h.settle()
    slow = users[seat]
    # The warning was the turn's one signal, and went once the computer had played. It
    # counts down live in each reader's client (issue 44: not a fixed "30 s", stale once
    # read): Discord's relative timestamp of the moment the computer plays.
    warned = [m for m in h.discord.messages.values() if m.audience is None
              and m.content.startswith(slow.mention) and "<t:" in m.content]
    [stamp] = [int(x) for x in re.findall(r"<t:(\d+):R>", warned[0].content)]
    assert before <= stamp <= after + 1
    assert [m.content for m in warned] == [t("turn.warning", user=slow.mention,
                                             when=f"<t:{stamp}:R>")]
    assert warned[0].deleted and warned[0] not in h.public()
    assert hand.actions[0][0] == seat and stored_actions(h, session)[0] == (0, None, 1)
    assert session.timeouts[seat] == 1


async def test_a_finished_hand_is_followed_by_the_next_one(h: Harness) -> None:
    session, ana = await one_human(h, seed=4)
    await play_until(h, session, [ana], random.Random(4))
    assert hand_of(session).finished
    driver = h.runner(session).driver
    assert not driver.done()  # waiting next_hand_delay
    settings = h.bot.settings  # type: ignore[union-attr]
    settings.next_hand_delay = 0
    h.runner(session).kick()
    await h.until(lambda: session.hand_number == 2)
    settings.next_hand_delay = 3600
    await h.settle()
    assert session.hand_number == 2
    assert h.table_message().embeds[0]["title"] == t("table.title", game="Filicău", number=2)


async def test_next_hand_clicked_twice_deals_once(h: Harness) -> None:
    session, ana = await one_human(h, seed=4)
    bob = h.user("bob", manager=True)  # a manager may press it too
    await play_until(h, session, [ana], random.Random(4))
    result = h.result_post()
    custom_id = result.button_by_label(t("btn.next_hand"))["custom_id"]
    first, s1 = h.click_payload(ana, custom_id, message=result)
    second, s2 = h.click_payload(bob, custom_id, message=result)
    await h.dispatch(first, second)
    assert s1.type == CHANNEL_MESSAGE
    assert s2.ephemeral and s2.message.content in {t("err.stale_hand"),
                                                    t("err.hand_in_progress")}
    assert session.hand_number == 2
    rows = await h.bot.store.hands(session.id)  # type: ignore[union-attr]
    assert [r.number for r in rows] == [2, 1]


async def test_the_same_partnerships_keep_their_status_at_a_new_table(h: Harness) -> None:
    """Masters and the next dealer belong to the partnerships, not to the table: sitting
    differently at a new table, the players see and play with the same status."""
    session, users = await four_players(h, deal=find_deal("filicau", masters_hand()))
    await play_until(h, session, users, first_legal)
    result = hand_of(session).result
    assert result is not None and result.status.masters is not None
    masters = {m for s, m in enumerate(session.seats) if s % 2 == result.status.masters}
    dealer = session.seats[result.next_dealer]
    mia = h.user("mia", manager=True)
    r = await h.command(mia, "admin end")
    assert r.ephemeral
    ana, bob, cid, dan = users
    # Bob and Dan now sit in team A, Ana and Cid in team B.
    new = await open_table(h, bob, [(bob, 0), (ana, 1), (dan, 0), (cid, 1)])
    slaves_team = "A" if ana.member in masters else "B"  # Ana sits in team B
    lobby = h.table_message().text
    assert f"Team {slaves_team} have been slaves since " in lobby
    assert f"<@{dealer}> deals" in lobby
    await h.press(bob, t("btn.start"))
    hand = hand_of(new)
    assert hand.status.masters == new.seats.index(next(iter(masters))) % 2
    assert {m for s, m in enumerate(new.seats) if s % 2 == hand.status.masters} == masters
    assert new.seats[hand.dealer] == dealer
    table = h.table_message().text
    assert t("table.masters") in table and t("table.slaves") in table


async def test_every_open_hand_view_says_when_the_hand_is_over(h: Harness) -> None:
    """Whoever plays the last card, the others' hand views do not stay on "Waiting for"."""
    session, users = await four_players(h, early_end=False)
    await play_until(h, session, users, random.Random(3))
    assert hand_of(session).finished
    for user in users:
        view = h.hand_view(user)
        assert t("hand.over") in view.content, (user.name, view.content)
        assert not view.enabled("card")
