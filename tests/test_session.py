"""``TableSession`` on a real SQLite store: the lobby, playing hands through ``act``, what is
refused, computers and timeouts, restoring after a restart, and status between partnerships."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.seats import is_computer
from bot.session import (
    DEFAULT_TURN_SECONDS,
    Actor,
    Moves,
    SessionError,
    TableSession,
)
from bot.store import Member, SqliteStore
from engine import FINISHED, Action, Hand, IllegalAction, Status, replay, seat_view, to_record
from engine.players import SimplePlayer

try:
    from tests.bot_fixtures import (
        CPU,
        GUILD,
        HUMANS,
        OPENER,
        FixedDeal,
        action_rows,
        click,
        find_deal,
        first_legal,
        masters_hand,
        new_table,
        open_store,
        play,
        rig,
        seat_all,
        started_table,
        table_policy,
    )
except ImportError:  # plain `pytest`, where tests/ itself is on sys.path
    from bot_fixtures import (  # type: ignore[no-redef,import-not-found,unused-ignore]
        CPU,
        GUILD,
        HUMANS,
        OPENER,
        FixedDeal,
        action_rows,
        click,
        find_deal,
        first_legal,
        masters_hand,
        new_table,
        open_store,
        play,
        rig,
        seat_all,
        started_table,
        table_policy,
    )

NO_EARLY_END = {"early_end": False}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(db_path)
    await s.open()
    try:
        yield s
    finally:
        await s.close()


async def refused(call: Any, key: str) -> SessionError:
    with pytest.raises(SessionError) as info:
        await call
    assert info.value.key == key
    return info.value


async def stored_actions(store: SqliteStore, session: TableSession) -> list[dict[str, Any]]:
    row = await store.current_hand(session.id)
    assert row is not None and row.id == session.hand_id
    return row.actions


def played_at_least(hand: Hand, count: int) -> bool:
    return len(hand.actions) >= count


# -- the lobby ---------------------------------------------------------------------------------


async def test_join_seats_players_by_team_and_stores_the_seats(store: SqliteStore) -> None:
    session = await new_table(store)
    assert await session.join(101, 0) == 0
    assert await session.join(102, 1) == 1
    assert await session.join(103, 0) == 2
    assert session.seats == ["101", "102", "103", None]
    assert (session.seat_of(103), session.seat_of(104)) == (2, None)
    await refused(session.join(105, 0), "err.team_full")
    await refused(session.join(101, 0), "err.already_seated")
    assert session.seats == ["101", "102", "103", None]
    [row] = [r for r in await store.open_tables() if r.id == session.id]
    assert row is not None and row.seats == ["101", "102", "103", None]
    assert not session.full


async def test_switching_team_moves_the_player(store: SqliteStore) -> None:
    session = await new_table(store)
    await session.join(101, 0)
    await session.join(102, 0)
    assert await session.join(101, 1) == 1
    assert session.seats == [None, "101", "102", None]
    assert await session.join(103, 1) == 3
    # Team B is full now: switching there is refused and the player keeps their seat.
    await refused(session.join(102, 1), "err.team_full")
    assert session.seats == [None, "101", "102", "103"]
    [row] = [r for r in await store.open_tables() if r.id == session.id]
    assert row is not None and row.seats == [None, "101", "102", "103"]


async def test_leave_frees_the_seat(store: SqliteStore) -> None:
    session = await new_table(store)
    await session.join(101, 0)
    await session.join(102, 1)
    await session.leave(101)
    assert session.seats == [None, "102", None, None]
    await refused(session.leave(101), "err.not_seated")
    [row] = [r for r in await store.open_tables() if r.id == session.id]
    assert row is not None and row.seats == [None, "102", None, None]
    assert await session.join(101, 0) == 0


async def test_add_computer_fills_the_lowest_free_seat_until_the_table_is_full(
    store: SqliteStore,
) -> None:
    session = await new_table(store)
    await session.join(102, 1)
    assert await session.add_computer() == 0
    assert await session.add_computer(team=1) == 3
    await refused(session.add_computer(team=1), "err.table_full")
    await refused(session.add_computer(level="grandmaster"), "err.bad_level")
    assert await session.add_computer() == 2
    assert session.full
    assert session.seats == [CPU, "102", CPU, CPU]
    await refused(session.add_computer(), "err.table_full")
    await refused(session.join(101, 0), "err.team_full")
    [row] = [r for r in await store.open_tables() if r.id == session.id]
    assert row is not None and row.seats == [CPU, "102", CPU, CPU]


async def test_remove_computer(store: SqliteStore) -> None:
    session = await new_table(store)
    await refused(session.remove_computer(), "err.no_computer")
    await session.add_computer()
    await session.join(102, 1)
    await session.add_computer()
    assert session.seats == [CPU, "102", CPU, None]
    removed = await session.remove_computer()
    assert session.seats[removed] is None
    assert [m for m in session.seats if m is not None] == [CPU, "102"]
    [row] = [r for r in await store.open_tables() if r.id == session.id]
    assert row is not None and row.seats == session.seats
    assert await session.remove_computer() in (0, 2)
    assert session.seats.count(CPU) == 0
    await refused(session.remove_computer(), "err.no_computer")


async def test_only_the_opener_or_an_admin_starts_and_only_when_full(store: SqliteStore) -> None:
    session = await new_table(store)
    await session.join(101, 0)
    await session.join(102, 1)
    await session.join(103, 0)
    await refused(session.start(OPENER, is_admin=False), "err.not_full")
    await session.join(104, 1)
    await refused(session.start(102, is_admin=False), "err.not_manager")
    assert (session.state, session.hand) == ("lobby", None)
    [row] = [r for r in await store.open_tables() if r.id == session.id]
    assert row is not None and row.state == "lobby"
    assert await store.current_hand(session.id) is None

    hand = await session.start(102, is_admin=True)  # an admin who did not open the table
    assert session.state == "playing" and session.hand is hand and session.hand_number == 1
    [row] = [r for r in await store.open_tables() if r.id == session.id]
    assert row is not None and row.state == "playing"


async def test_the_opener_may_start(store: SqliteStore) -> None:
    session = await new_table(store, opener=103)
    await seat_all(session, HUMANS)
    await refused(session.start(101, is_admin=False), "err.not_manager")
    await session.start(103, is_admin=False)
    assert session.state == "playing"


async def test_starting_stores_the_hand_header(store: SqliteStore) -> None:
    session = await started_table(store)
    row = await store.current_hand(session.id)
    assert row is not None
    assert (row.id, row.number, row.actions, row.result) == (session.hand_id, 1, [], None)
    assert row.header["members"] == HUMANS
    assert (row.header["table_id"], row.header["hand"]) == (session.id, 1)
    hand = session.hand
    assert hand is not None
    assert to_record(replay(row.record())) == to_record(hand)


async def test_turn_timer_comes_from_the_table_settings(store: SqliteStore) -> None:
    session = await new_table(store)
    assert session.turn_seconds == DEFAULT_TURN_SECONDS
    row = await store.create_table(guild_id=GUILD, channel_id=11, game="filicau", options={},
                                   opener_id=OPENER, seats=[None] * 4,
                                   settings={"turn_seconds": 45})
    assert TableSession(row, store).turn_seconds == 45


async def test_seats_do_not_change_during_a_hand(store: SqliteStore) -> None:
    session = await started_table(store)
    await refused(session.join(105, 0), "err.hand_in_progress")
    await refused(session.add_computer(), "err.hand_in_progress")
    await refused(session.remove_computer(), "err.not_in_lobby")
    await refused(session.start(OPENER, is_admin=True), "err.not_in_lobby")
    assert session.seats == HUMANS


async def play_through(session: TableSession) -> None:
    """Play the hand to its end: people by clicks, computers and handed-over seats by the
    computer."""
    hand = session.hand
    assert hand is not None
    while not hand.finished:
        seat = hand.actors()[0]
        if is_computer(session.seats[seat]) or seat in session.autoplay:
            assert await session.computer_turn() is not None
        else:
            await click(session, seat, first_legal(hand, seat))


async def test_a_player_who_leaves_mid_hand_hands_the_seat_to_the_computer(
        store: SqliteStore) -> None:
    """The hand goes on at once with the computer in the seat; its result belongs to the
    players who started it; the seat is a computer's from the next hand, which is played
    with the status of the new partnership (none stored yet: even)."""
    session = await started_table(store, deal=find_deal("filicau", masters_hand()))
    assert await session.leave(int(HUMANS[0])) is True
    assert 0 in session.autoplay and session.seats == HUMANS
    await play_through(session)
    hand = session.hand
    assert hand is not None and hand.result is not None and hand.status.masters is None
    [result] = await store.results(GUILD, "filicau")
    assert sorted(result.members) == sorted(HUMANS)
    assert hand.result.status.masters is not None  # the four who started made masters
    # A restart before the next deal keeps the seat handed over.
    [row] = [r for r in await store.open_tables() if r.id == session.id]
    again = await TableSession.restore(row, store)
    assert again.leaving == {0}
    await session.next_hand()
    assert is_computer(session.seats[0]) and session.seats[1:] == HUMANS[1:]
    assert session.hand is not None and session.hand.status == Status()
    rows = await store.hands(session.id)
    assert rows[0].header["members"] == session.seats
    # The hand played partly by the computer replays to its stored result.
    finished = rows[1]
    assert finished.result is not None
    replayed = replay(finished.record())
    assert replayed.result is not None
    assert replayed.result.status.to_json() == finished.result["status"]


async def test_a_person_takes_a_computers_seat_between_hands(store: SqliteStore) -> None:
    members = [HUMANS[0], CPU, HUMANS[2], CPU]
    session = await started_table(store, members)
    await refused(session.join(105, 1), "err.hand_in_progress")
    await play_through(session)
    assert session.between_hands
    seat = await session.join(105, 1)
    assert seat == 1 and session.seats == [HUMANS[0], "105", HUMANS[2], CPU]
    [stored] = [r for r in await store.open_tables() if r.id == session.id]
    assert stored is not None and stored.seats == session.seats
    await session.next_hand()
    assert session.hand is not None and session.hand.status == Status()
    assert (await store.hands(session.id))[0].header["members"] == session.seats


async def test_a_seat_left_mid_hand_is_taken_by_a_person_before_the_next_deal(
        store: SqliteStore) -> None:
    """The seat of a player who left mid-hand is the computer's from the next deal; before
    it, a person may take it as they would a computer's, and plays the next hand themselves,
    after a restart too."""
    session = await started_table(store)
    assert await session.leave(int(HUMANS[2])) is True
    await refused(session.join(105, 0), "err.hand_in_progress")
    await play_through(session)
    assert session.between_hands and session.leaving == {2}
    seat = await session.join(105, 0)
    assert seat == 2 and session.seats == [*HUMANS[:2], "105", HUMANS[3]]
    assert session.leaving == set() and 2 not in session.autoplay
    [row] = [r for r in await store.open_tables() if r.id == session.id]
    again = await TableSession.restore(row, store)
    assert again.leaving == set() and again.seats == session.seats
    await again.next_hand()
    assert again.seats[2] == "105" and 2 not in again.autoplay
    assert (await store.hands(session.id))[0].header["members"] == again.seats


async def test_a_seat_left_between_hands_waits_for_a_player(store: SqliteStore) -> None:
    session = await started_table(store)
    await play_through(session)
    assert await session.leave(int(HUMANS[3])) is False
    assert session.seats[3] is None and not session.full
    await refused(session.next_hand(), "err.not_full")
    await refused(session.add_computer(level="normal", by=Actor(int(HUMANS[1]))),
                  "err.not_manager")
    assert await session.add_computer(level="normal", by=Actor(OPENER)) == 3
    await session.next_hand()
    assert session.hand_number == 2


async def test_no_hand_in_the_lobby(store: SqliteStore) -> None:
    session = await new_table(store)
    await seat_all(session, HUMANS)
    await refused(session.act(101, Action("card", 0), hand_number=1), "err.no_hand")
    await refused(session.next_hand(), "err.no_hand")
    assert await session.computer_turn() is None
    assert session.waiting_for_human() == []


# -- playing a hand ----------------------------------------------------------------------------


async def test_four_humans_play_a_whole_hand(store: SqliteStore, db_path: Path) -> None:
    session = await started_table(store)
    hand = session.hand
    assert hand is not None
    outcomes: list[Moves] = []
    while not hand.finished:
        seat = hand.to_move
        assert seat is not None
        assert session.waiting_for_human() == [seat]
        action = first_legal(hand, seat)
        out = await click(session, seat, action)
        assert [(p.seat, p.action, p.by_computer) for p in out.played] == [(seat, action, False)]
        outcomes.append(out)
    result = hand.result
    assert result is not None
    assert [o.result for o in outcomes] == [None] * (len(outcomes) - 1) + [result]
    assert session.waiting_for_human() == []

    # The log holds every action once, by the user who clicked.
    assert await stored_actions(store, session) == to_record(hand)["actions"]
    assert action_rows(db_path, session.hand_id or 0) == [
        (i, 101 + seat, 0) for i, (seat, _) in enumerate(hand.actions)
    ]
    row = await store.current_hand(session.id)
    assert row is not None and row.finished_at is not None
    assert row.result is not None
    assert row.result["points"] == list(result.points)
    assert row.result["next_dealer"] == result.next_dealer
    assert row.result["status"] == result.status.to_json()

    # Status and dealing duty of these partnerships, and the standings.
    st = await store.get_status(GUILD, "filicau", ["101", "103"], ["102", "104"])
    assert st is not None
    assert st.next_dealer == HUMANS[result.next_dealer]
    assert st.masters == (None if result.status.masters is None else "ab"[result.status.masters])
    results = await store.results(GUILD, "filicau")
    assert len(results) == 1
    assert (results[0].points_a, results[0].points_b) == tuple(result.points)
    assert results[0].event == result.event
    assert results[0].hand_id == session.hand_id

    # Clicks on the finished hand are refused; the next hand follows the result.
    await refused(click(session, 0, Action("card", 0)), "err.hand_over")
    first_id = session.hand_id
    nxt = await session.next_hand()
    assert session.hand_number == 2 and session.hand_id != first_id
    assert nxt.dealer == result.next_dealer
    assert nxt.status == result.status
    await refused(session.next_hand(), "err.hand_in_progress")
    seat = nxt.to_move
    assert seat is not None
    await refused(
        session.act(101 + seat, first_legal(nxt, seat), hand_number=1, trick=0),
        "err.stale_hand",
    )


async def test_a_hand_reaching_masters_stores_them(store: SqliteStore) -> None:
    pack, dealer = find_deal("filicau", masters_hand())
    session = await started_table(store, deal=(pack, dealer))
    hand = session.hand
    assert hand is not None and hand.dealer == dealer
    out = await play(session)
    result = hand.result
    assert out is not None and out.result is result and result is not None
    assert result.event == "masters" and result.team is not None
    # Filicău: a slave (the dealer or the next seat) deals next.
    assert result.next_dealer % 2 != result.team
    st = await store.get_status(GUILD, "filicau", ["102", "104"], ["103", "101"])
    assert st is not None
    assert st.masters == "ab"[result.team]
    assert st.next_dealer == HUMANS[result.next_dealer]
    assert st.since is not None
    (res,) = await store.results(GUILD)
    assert (res.masters_before, res.masters_after, res.event_team) == (
        None, "ab"[result.team], "ab"[result.team])


# -- what is refused ---------------------------------------------------------------------------


async def snapshot(store: SqliteStore, session: TableSession) -> tuple[Any, ...]:
    hand = session.hand
    assert hand is not None
    return (to_record(hand), hand.to_move, [h[:] for h in hand.hands], list(hand.tricks),
            session.trick_number, session.hand_number, list(session.timeouts),
            await stored_actions(store, session))


def other_seat_card(hand: Hand, seat: int) -> Action:
    return Action("card", hand.hands[(seat + 1) % 4][0])


async def test_rejections_change_nothing(store: SqliteStore) -> None:
    session = await started_table(store)
    hand = session.hand
    assert hand is not None
    await play(session, stop=lambda h: played_at_least(h, 5))  # one trick and one card
    before = await snapshot(store, session)
    seat = hand.to_move
    assert seat is not None
    user = 101 + seat
    legal = first_legal(hand, seat)
    n = session.hand_number
    other = (seat + 1) % 4

    cases: list[tuple[Callable[[], Any], str]] = [
        (lambda: session.act(999, legal, hand_number=n, trick=1), "err.not_seated"),
        (lambda: session.act(101 + other, Action("card", hand.hands[other][0]),
                             hand_number=n, trick=1), "illegal.not_your_turn"),
        (lambda: session.act(user, other_seat_card(hand, seat), hand_number=n, trick=1),
         "illegal.not_your_card"),
        (lambda: session.act(user, legal, hand_number=n - 1, trick=1), "err.stale_hand"),
        (lambda: session.act(user, legal, hand_number=n + 1, trick=1), "err.stale_hand"),
        (lambda: session.act(user, legal, hand_number=n, trick=0), "err.stale_trick"),
        (lambda: session.act(user, Action("servant", 1), hand_number=n, trick=1),
         "illegal.wrong_phase"),
    ]
    for call, key in cases:
        await refused(call(), key)
        assert await snapshot(store, session) == before, key

    out = await session.act(user, legal, hand_number=n, trick=1)  # the right click still works
    assert out.played[0].seat == seat
    assert len(await stored_actions(store, session)) == 6


async def test_not_your_turn_carries_the_engine_params(store: SqliteStore) -> None:
    session = await started_table(store)
    hand = session.hand
    assert hand is not None and hand.to_move is not None
    other = (hand.to_move + 2) % 4
    err = await refused(
        session.act(101 + other, Action("card", hand.hands[other][0]), hand_number=1, trick=0),
        "illegal.not_your_turn",
    )
    assert err.params == {"seat": other, "to_move": hand.to_move}


def must_follow_card(hand: Hand) -> Action | None:
    """A card the seat to move holds but may not play because it must follow suit."""
    seat = hand.to_move
    if seat is None or not hand.trick:
        return None
    legal = hand.legal_actions(seat)
    for c in hand.hands[seat]:
        action = Action("card", c)
        if action in legal:
            continue
        try:
            hand.copy().apply(seat, action)
        except IllegalAction as e:
            if e.reason == "must_follow":
                return action
    return None


async def test_a_follow_suit_violation_is_refused(store: SqliteStore) -> None:
    session = await started_table(store, options=NO_EARLY_END)
    hand = session.hand
    assert hand is not None
    await play(session, stop=lambda h: must_follow_card(h) is not None)
    bad = must_follow_card(hand)
    assert bad is not None, "no follow-suit position in this deal"
    seat = hand.to_move
    assert seat is not None
    before = await snapshot(store, session)
    err = await refused(click(session, seat, bad), "illegal.must_follow")
    assert "suit" in err.params
    assert await snapshot(store, session) == before


async def test_two_identical_clicks_at_once_apply_once(store: SqliteStore) -> None:
    session = await started_table(store)
    hand = session.hand
    assert hand is not None
    seat = hand.to_move
    assert seat is not None
    action = first_legal(hand, seat)

    def same_click() -> Any:
        return session.act(101 + seat, action, hand_number=1, trick=0)

    results = await asyncio.gather(same_click(), same_click(), return_exceptions=True)
    applied = [r for r in results if isinstance(r, Moves)]
    errors = [r for r in results if not isinstance(r, Moves)]
    assert len(applied) == 1 and len(errors) == 1
    assert isinstance(errors[0], SessionError) and errors[0].key == "illegal.not_your_turn"
    assert hand.actions == [(seat, action)]
    assert await stored_actions(store, session) == to_record(hand)["actions"]


async def test_two_identical_clicks_closing_a_trick_apply_once(store: SqliteStore) -> None:
    session = await started_table(store)
    hand = session.hand
    assert hand is not None
    await play(session, stop=lambda h: played_at_least(h, 3))
    seat = hand.to_move
    assert seat is not None
    action = first_legal(hand, seat)
    calls = [session.act(101 + seat, action, hand_number=1, trick=0) for _ in range(2)]
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert sum(isinstance(r, Moves) for r in results) == 1
    keys = [r.key for r in results if isinstance(r, SessionError)]
    assert keys == ["err.stale_trick"]
    assert len(hand.actions) == 4 and len(hand.tricks) == 1
    assert await stored_actions(store, session) == to_record(hand)["actions"]


# -- computers and timeouts --------------------------------------------------------------------


async def test_computer_turn_plays_computer_seats_only(store: SqliteStore, db_path: Path) -> None:
    seats: list[Member] = ["101", CPU, CPU, CPU]
    session = await started_table(store, seats, options=NO_EARLY_END)
    hand = session.hand
    assert hand is not None
    while not hand.finished:
        seat = hand.to_move
        assert seat is not None
        if seat == 0:
            assert session.waiting_for_human() == [0]
            assert await session.computer_turn() is None  # the human's turn: nothing done
            await click(session, 0, first_legal(hand, 0))
        else:
            assert session.waiting_for_human() == []
            expected = SimplePlayer().choose(seat_view(hand, seat))
            out = await session.computer_turn()
            assert out is not None
            assert [(p.seat, p.action, p.by_computer) for p in out.played] == [
                (seat, expected, True)]
    assert hand.result is not None
    assert await session.computer_turn() is None
    assert action_rows(db_path, session.hand_id or 0) == [
        (i, 101 if seat == 0 else None, int(seat != 0)) for i, (seat, _) in enumerate(hand.actions)
    ]
    assert await stored_actions(store, session) == to_record(hand)["actions"]


async def human_turn(session: TableSession, hand: Hand) -> None:
    """Let the computers play until seat 0 (the human) is to move."""
    while hand.to_move != 0:
        assert await session.computer_turn() is not None


async def test_three_timeouts_in_a_row_put_the_seat_in_autoplay_until_resume(
    store: SqliteStore, db_path: Path
) -> None:
    session = await started_table(store, ["101", CPU, CPU, CPU], options=NO_EARLY_END)
    hand = session.hand
    assert hand is not None
    for timeout in range(3):
        await human_turn(session, hand)
        assert session.waiting_for_human() == [0]
        legal = hand.legal_actions(0)  # played by Normal (tests/test_ai_bot.py), not simple
        out = await session.computer_turn(timed_out=True)
        assert out is not None
        assert [(p.seat, p.by_computer) for p in out.played] == [(0, True)]
        assert out.played[0].action in legal
        assert (0 in session.autoplay) == (timeout == 2)

    # In autoplay the seat is played without waiting for a timeout.
    await human_turn(session, hand)
    assert session.waiting_for_human() == []
    out = await session.computer_turn()
    assert out is not None and out.played[0].seat == 0

    session.resume(101)
    await human_turn(session, hand)
    assert session.waiting_for_human() == [0]
    assert await session.computer_turn() is None
    await click(session, 0, first_legal(hand, 0))
    human_rows = [r for r in action_rows(db_path, session.hand_id or 0)
                  if hand.actions[r[0]][0] == 0]
    assert [(user, by_cpu) for _, user, by_cpu in human_rows] == [(None, 1)] * 4 + [(101, 0)]


async def test_timeouts_must_be_in_a_row(store: SqliteStore) -> None:
    session = await started_table(store, ["101", CPU, CPU, CPU], options=NO_EARLY_END)
    hand = session.hand
    assert hand is not None
    for timed_out in (True, True, False, True, True):
        await human_turn(session, hand)
        assert session.waiting_for_human() == [0]
        if timed_out:
            assert await session.computer_turn(timed_out=True) is not None
        else:
            await click(session, 0, first_legal(hand, 0))
    assert 0 not in session.autoplay
    await human_turn(session, hand)
    assert session.waiting_for_human() == [0]
    assert await session.computer_turn(timed_out=True) is not None
    assert 0 in session.autoplay


# -- restoring after a restart -----------------------------------------------------------------


async def test_restore_mid_trick_and_play_on(store: SqliteStore, db_path: Path) -> None:
    session = await started_table(store)
    old = session.hand
    assert old is not None
    await play(session, stop=lambda h: played_at_least(h, 6))  # one trick and two cards
    assert len(old.tricks) == 1 and len(old.trick) == 2
    await store.close()  # the process stops

    store2 = await open_store(db_path)
    try:
        (row,) = await store2.open_tables()
        assert (row.id, row.state, row.seats) == (session.id, "playing", HUMANS)
        restored = await TableSession.restore(row, store2)
        hand = restored.hand
        assert hand is not None
        assert (restored.hand_number, restored.hand_id, restored.state) == (
            1, session.hand_id, "playing")
        assert (hand.to_move, hand.hands, hand.tricks, hand.trick) == (
            old.to_move, old.hands, old.tricks, old.trick)
        assert (hand.dealer, hand.trump, hand.status) == (old.dealer, old.trump, old.status)
        assert to_record(hand) == to_record(old)
        assert restored.trick_number == session.trick_number == 1
        assert restored.waiting_for_human() == session.waiting_for_human()

        out = await play(restored)
        assert out is not None and out.result is not None and hand.result is out.result
        stored = await store2.current_hand(row.id)
        assert stored is not None and stored.result is not None
        assert stored.actions == to_record(hand)["actions"]
        assert [r[0] for r in action_rows(db_path, row.id)] == list(range(len(hand.actions)))
        again = replay(stored.record())
        assert again.result == hand.result
        assert len(await store2.results(GUILD)) == 1
        st = await store2.get_status(GUILD, "filicau", ["101", "103"], ["102", "104"])
        assert st is not None and st.next_dealer == HUMANS[hand.result.next_dealer]
    finally:
        await store2.close()


async def test_restore_a_lobby(store: SqliteStore, db_path: Path) -> None:
    session = await new_table(store)
    await session.join(101, 0)
    await session.add_computer(team=1)
    await store.close()
    store2 = await open_store(db_path)
    try:
        (row,) = await store2.open_tables()
        restored = await TableSession.restore(row, store2)
        assert (restored.state, restored.seats, restored.hand) == (
            "lobby", ["101", CPU, None, None], None)
        assert await restored.join(102, 0) == 2
    finally:
        await store2.close()


async def test_display_names_survive_a_restart(store: SqliteStore, db_path: Path) -> None:
    """Servant buttons are labelled with names seen at join time; a restart keeps them, and
    a player who left is forgotten."""
    session = await new_table(store)
    await session.join(101, 0, "Ana")
    await session.join(102, 1, "Béla")
    await session.leave(102)
    await store.close()
    store2 = await open_store(db_path)
    try:
        (row,) = await store2.open_tables()
        restored = await TableSession.restore(row, store2)
        assert restored.names == {"101": "Ana"}
        assert restored.turn_seconds == session.turn_seconds
    finally:
        await store2.close()


async def test_restore_after_a_finished_hand_deals_the_next_from_its_result(
    store: SqliteStore, db_path: Path
) -> None:
    pack, dealer = find_deal("filicau", masters_hand())
    session = await started_table(store, deal=(pack, dealer))
    await play(session)
    result = session.hand.result if session.hand else None
    assert result is not None
    await store.close()
    store2 = await open_store(db_path)
    try:
        (row,) = await store2.open_tables()
        restored = await TableSession.restore(row, store2)
        assert restored.hand is not None and restored.hand.finished
        assert (restored.status, restored.next_dealer) == (result.status, result.next_dealer)
        nxt = await restored.next_hand()
        assert (nxt.status, nxt.dealer, restored.hand_number) == (
            result.status, result.next_dealer, 2)
        assert len(await store2.results(GUILD)) == 1  # the bookkeeping is not done twice
    finally:
        await store2.close()


async def test_restore_while_the_servant_is_to_be_chosen(
    store: SqliteStore, db_path: Path
) -> None:
    session = await started_table(store, game="filko", deal=find_deal(
        "filko", lambda h: h.phase == "servant"))
    await play(session)
    hand = session.hand
    assert hand is not None and hand.phase == "servant" and hand.to_move is not None
    masters = hand.to_move % 2
    await store.close()
    store2 = await open_store(db_path)
    try:
        (row,) = await store2.open_tables()
        restored = await TableSession.restore(row, store2)
        assert restored.hand is not None and restored.hand.phase == "servant"
        assert restored.waiting_for_human() == [masters, masters + 2]
        out = await restored.act(101 + masters, Action("servant", 1 - masters),
                                 hand_number=1)
        assert out.result is not None and out.result.status == Status(masters, 1 - masters)
    finally:
        await store2.close()


class CrashingStore:
    """The real store, except that one method fails as if the process stopped there."""

    def __init__(self, inner: SqliteStore, crash_in: str) -> None:
        self.inner = inner
        self.crash_in = crash_in

    def __getattr__(self, name: str) -> Any:
        if name == self.crash_in:
            async def crash(*args: Any, **kwargs: Any) -> None:
                raise ConnectionAbortedError(f"stopped in {name}")
            return crash
        return getattr(self.inner, name)


@pytest.mark.parametrize("crash_in", ["finish_hand", "put_status", "add_result"])
async def test_restore_completes_the_bookkeeping_of_the_last_hand(
    store: SqliteStore, db_path: Path, crash_in: str
) -> None:
    """The process stops somewhere between the hand's last action and the end of its
    bookkeeping: after a restart, the result, the status and the standings are all there."""
    pack, dealer = find_deal("filicau", masters_hand())
    session = await started_table(store, deal=(pack, dealer))
    session.store = CrashingStore(store, crash_in)
    with pytest.raises(ConnectionAbortedError):
        await play(session)
    result = session.hand.result if session.hand else None
    assert result is not None
    await store.close()

    store2 = await open_store(db_path)
    try:
        (row,) = await store2.open_tables()
        restored = await TableSession.restore(row, store2)
        assert (restored.status, restored.next_dealer) == (result.status, result.next_dealer)
        stored = await store2.current_hand(row.id)
        assert stored is not None and stored.result is not None
        st = await store2.get_status(GUILD, "filicau", ["101", "103"], ["102", "104"])
        assert st is not None, "the partnership status was lost"
        assert st.masters == "ab"[result.status.masters or 0]
        assert st.next_dealer == HUMANS[result.next_dealer]
        assert len(await store2.results(GUILD)) == 1, "the hand is missing from the standings"
    finally:
        await store2.close()


# -- status between partnerships ---------------------------------------------------------------

FIRST_SEATINGS = {
    "a_first": ["101", "102", "103", "104"],  # team 0 is canonical team "a"
    "b_first": ["102", "101", "104", "103"],  # team 0 is canonical team "b"
}
SECOND_SEATINGS = {
    "same": [0, 1, 2, 3],
    "pairs_swapped": [1, 0, 3, 2],  # the pair of team A now sits as team B
    "partners_swapped": [2, 1, 0, 3],
    "both_swapped": [3, 2, 1, 0],
    "rotated": [1, 2, 3, 0],
}


def reseat(seats: Sequence[Member | None], order: Sequence[int]) -> list[Member]:
    out = [seats[i] for i in order]
    assert all(m is not None for m in out)
    return [m for m in out if m is not None]


@pytest.mark.parametrize("second", SECOND_SEATINGS)
@pytest.mark.parametrize("first", FIRST_SEATINGS)
async def test_filicau_masters_carry_over_to_a_new_table(
    store: SqliteStore, first: str, second: str
) -> None:
    pack, dealer = find_deal("filicau", masters_hand())
    seats = FIRST_SEATINGS[first]
    one = await started_table(store, seats, deal=(pack, dealer), channel=10)
    await play(one)
    result = one.hand.result if one.hand else None
    assert result is not None and result.team is not None and result.event == "masters"
    masters = {seats[result.team], seats[result.team + 2]}
    dealer_member = seats[result.next_dealer]
    # The standings name teams "a"/"b" by their members, whatever seats they had.
    letter = "a" if sorted(masters) == ["101", "103"] else "b"
    (res,) = await store.results(GUILD)
    assert (res.team_a, res.team_b) == (["101", "103"], ["102", "104"])
    assert (res.masters_before, res.masters_after, res.event_team) == (None, letter, letter)
    points = {"a": result.points[result.team], "b": result.points[1 - result.team]}
    if letter == "b":
        points = {"a": points["b"], "b": points["a"]}
    assert (res.points_a, res.points_b) == (points["a"], points["b"])
    await one.close()

    new_seats = reseat(seats, SECOND_SEATINGS[second])
    want_masters = new_seats.index(next(iter(masters))) % 2
    want_dealer = new_seats.index(dealer_member)
    assert want_dealer % 2 != want_masters  # a slave deals
    # If the session ignored what is stored, this dealer (the other slave) would deal.
    two = await new_table(store, channel=10)
    await seat_all(two, new_seats)
    assert two.known is not None and two.known.next_dealer == dealer_member
    rig(two, FixedDeal(pack, (want_dealer + 2) % 4))
    hand = await two.start(OPENER, is_admin=False)
    assert {new_seats[want_masters], new_seats[want_masters + 2]} == masters
    assert hand.status == Status(masters=want_masters)
    assert hand.dealer == want_dealer
    row = await store.current_hand(two.id)
    assert row is not None
    assert row.header["status"] == {"masters": want_masters, "servant": None}
    assert row.header["dealer"] == want_dealer
    # The second hand's standings row knows who were masters before it.
    await play(two)
    assert two.hand is not None and two.hand.result is not None
    (_, res2) = await store.results(GUILD)
    assert res2.masters_before == letter


async def test_other_pairs_of_the_same_people_start_even(store: SqliteStore) -> None:
    pack, dealer = find_deal("filicau", masters_hand())
    one = await started_table(store, deal=(pack, dealer), channel=10)
    await play(one)
    await one.close()
    two = await new_table(store, channel=10)
    await seat_all(two, ["101", "103", "102", "104"])  # 101 and 102 are partners now
    assert two.known is None
    hand = await two.start(OPENER, is_admin=False)
    assert hand.status == Status()
    # Another server: even too.
    three = await new_table(store, channel=30, guild=GUILD + 1)
    await seat_all(three, HUMANS)
    hand = await three.start(OPENER, is_admin=True)
    assert hand.status == Status()


async def play_to_servant(session: TableSession) -> tuple[Hand, int]:
    await play(session)
    hand = session.hand
    assert hand is not None and hand.phase == "servant" and hand.to_move is not None
    return hand, hand.to_move % 2


async def test_filko_only_the_masters_choose_the_servant(store: SqliteStore) -> None:
    deal = find_deal("filko", lambda h: h.phase == "servant")
    session = await started_table(store, game="filko", deal=deal)
    hand, masters = await play_to_servant(session)
    assert not hand.finished and hand.result is None
    assert session.waiting_for_human() == [masters, masters + 2]
    row = await store.current_hand(session.id)
    assert row is not None and row.result is None
    assert await store.get_status(GUILD, "filko", HUMANS[0::2], HUMANS[1::2]) is None
    before = await snapshot(store, session)

    slave = 1 - masters
    for seat in (slave, slave + 2):  # the slaves may not choose, not even themselves
        for servant in (slave, masters):
            await refused(session.act(101 + seat, Action("servant", servant), hand_number=1),
                          "illegal.not_your_turn")
    await refused(session.act(101 + masters, Action("servant", masters + 2), hand_number=1),
                  "illegal.servant_not_opponent")
    await refused(session.act(999, Action("servant", slave), hand_number=1), "err.not_seated")
    await refused(session.act(101 + masters, Action("card", hand.hands[masters][0])
                              if hand.hands[masters] else Action("card", 0), hand_number=1),
                  "illegal.wrong_phase")
    assert await snapshot(store, session) == before

    # Either master may choose: here the second one does.
    out = await session.act(101 + masters + 2, Action("servant", slave + 2), hand_number=1)
    result = out.result
    assert result is not None and hand.phase == FINISHED
    assert result.status == Status(masters, slave + 2)
    assert (result.event, result.team, result.next_dealer) == ("masters", masters, slave + 2)
    assert out.played[0].seat == masters + 2
    actions = await stored_actions(store, session)
    assert actions[-1] == {"seat": masters + 2, "servant": slave + 2}
    assert actions == to_record(hand)["actions"]
    st = await store.get_status(GUILD, "filko", HUMANS[1::2], HUMANS[0::2])
    assert st is not None
    assert (st.masters, st.servant, st.next_dealer) == (
        "ab"[masters], HUMANS[slave + 2], HUMANS[slave + 2])
    nxt = await session.next_hand()
    assert (nxt.status, nxt.dealer) == (Status(masters, slave + 2), slave + 2)


@pytest.mark.parametrize("second", SECOND_SEATINGS)
async def test_filko_masters_and_servant_carry_over_to_a_new_table(
    store: SqliteStore, second: str
) -> None:
    deal = find_deal("filko", lambda h: h.phase == "servant")
    one = await started_table(store, game="filko", deal=deal, channel=10)
    _, masters = await play_to_servant(one)
    servant = (masters + 3) % 4
    out = await one.act(101 + masters, Action("servant", servant), hand_number=1)
    assert out.result is not None and out.result.next_dealer == servant
    await one.close()

    new_seats = reseat(HUMANS, SECOND_SEATINGS[second])
    want_masters = new_seats.index(HUMANS[masters]) % 2
    want_servant = new_seats.index(HUMANS[servant])
    two = await new_table(store, game="filko", channel=20)
    await seat_all(two, new_seats)
    rig(two, FixedDeal(deal[0], (want_servant + 1) % 4))
    hand = await two.start(OPENER, is_admin=False)
    assert hand.status == Status(want_masters, want_servant)
    assert hand.dealer == want_servant


async def test_the_dealer_among_two_computers_is_the_right_one(store: SqliteStore) -> None:
    """Both computers are stored as the same member: the dealing duty of the computer in
    seat 3 (a slave) must not pass to the computer in seat 0 (a master)."""
    seats: list[Member] = [CPU, "102", "103", CPU]
    pack, dealer = find_deal("filicau", masters_hand(team=0), dealers=(2, 3),
                             policy=table_policy(seats))
    one = await started_table(store, seats, deal=(pack, dealer), channel=10)
    await play(one)
    result = one.hand.result if one.hand else None
    assert result is not None and result.status == Status(masters=0)
    assert result.next_dealer == 3
    await one.close()

    two = await new_table(store, channel=10)
    await seat_all(two, seats)
    rig(two, FixedDeal(pack, 1))
    hand = await two.start(OPENER, is_admin=False)
    assert hand.status == Status(masters=0)
    assert hand.dealer % 2 == 1, f"seat {hand.dealer}, one of the masters, deals"
    assert hand.dealer == 3


async def test_the_next_seat_deals_after_an_even_hand_among_two_computers(
    store: SqliteStore,
) -> None:
    """Even after the hand: the seat after the dealer (the computer in seat 3) deals next,
    not the other computer."""
    seats: list[Member] = [CPU, "102", "103", CPU]
    pack, dealer = find_deal(
        "filicau", lambda h: h.result is not None and h.result.event == "no_change",
        dealers=(2,), policy=table_policy(seats))
    one = await started_table(store, seats, deal=(pack, dealer), channel=10)
    await play(one)
    result = one.hand.result if one.hand else None
    assert result is not None and result.status == Status() and result.next_dealer == 3
    await one.close()

    two = await new_table(store, channel=10)
    await seat_all(two, seats)
    rig(two, FixedDeal(pack, 1))
    hand = await two.start(OPENER, is_admin=False)
    assert hand.dealer == 3


async def test_wendish_solos_owed_follow_the_players_across_tables(store: SqliteStore) -> None:
    """Muss-Solo counts each player's solos in the match: stored per person, so the same
    players sitting in other seats at a new table find their own counts."""
    options = {"deals": 8, "muss_solo": 1}
    first = await new_table(store, game="wendish", options=options)
    await seat_all(first, HUMANS)
    status = Status(score=(2, -1, 0, -1), deals=3, solos=(1, 0, 0, 1))
    stored = first._to_store(status, 1, None)
    again = await new_table(store, game="wendish", options=options, channel=11)
    await seat_all(again, [HUMANS[2], HUMANS[3], HUMANS[0], HUMANS[1]])
    restored, dealer = again.stored_status(stored)
    assert restored.solos == (0, 1, 1, 0) and restored.score == (0, -1, 2, -1)
    assert restored.deals == 3 and dealer == 3
