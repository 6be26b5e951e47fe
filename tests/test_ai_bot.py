"""Computer levels in the bot: Add computer picks a level, timeouts are played by Normal, and
the decision runs off the event loop without breaking the table's lock semantics."""

from __future__ import annotations

import asyncio
import os
import pickle
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from bot_fixtures import CPU, first_legal, new_table, started_table
from fake_discord import UPDATE_MESSAGE, Harness

import bot.session as session_module
from bot import thinking
from bot.seats import computer
from bot.session import COMPUTER_LEVELS, TIMEOUT_LEVEL, thinking_level
from bot.store import SqliteStore
from bot.texts import t
from engine import Action, Match, make_rules, seat_view
from engine.ai import EasyPlayer, SearchPlayer
from engine.players import SimplePlayer
from engine.view import SeatView

NO_EARLY_END = {"early_end": False}


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(tmp_path / "bot.db")
    await s.open()
    yield s
    await s.close()


def _player_for(member: str, seat: int) -> Any:
    return thinking.player(thinking_level(member), seat)


def test_levels_map_to_players() -> None:
    assert COMPUTER_LEVELS == ("easy", "normal", "hard")
    assert TIMEOUT_LEVEL == "normal"
    assert isinstance(_player_for(computer("easy"), 1), EasyPlayer)
    for level in ("normal", "hard"):
        player = _player_for(computer(level), 1)
        assert isinstance(player, SearchPlayer) and player.name == level
    # A person the computer plays for: Normal. Tables from before the levels: simple.
    human = _player_for("101", 0)
    assert isinstance(human, SearchPlayer) and human.name == "normal"
    assert isinstance(_player_for(CPU, 1), SimplePlayer)


async def test_add_computer_takes_a_level(store: SqliteStore) -> None:
    session = await new_table(store)
    assert await session.add_computer(level="hard") == 0
    assert await session.add_computer(team=1, level="easy") == 1
    assert session.seats[:2] == ["cpu:hard", "cpu:easy"]
    with pytest.raises(session_module.SessionError) as e:
        await session.add_computer(level="grandmaster")
    assert e.value.key == "err.bad_level"


class Recorder:
    """A player that records the thread it was asked on and plays the first legal action."""

    name = "recorder"

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []

    def choose(self, view: SeatView) -> Action:
        self.threads.append(threading.current_thread())
        return view.legal[0]


async def test_timeouts_are_played_by_normal_off_the_event_loop(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    recorder = Recorder()

    def fake_make_player(level: str, seed: int | None = 0, **kw: Any) -> Recorder:
        asked.append(level)
        return recorder

    monkeypatch.setattr(thinking, "make_player", fake_make_player)
    session = await started_table(store, ["101", "102", "103", "104"], options=NO_EARLY_END)
    hand = session.hand
    assert hand is not None
    seat = hand.to_move
    out = await session.computer_turn(timed_out=True)
    assert out is not None and out.played[0].seat == seat and out.played[0].by_computer
    assert asked == ["normal"]
    assert recorder.threads and recorder.threads[0] is not threading.main_thread()
    assert session.timeouts[seat or 0] == 1


async def test_a_move_made_while_the_computer_thinks_wins(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player whose turn timed out clicks while the computer decides for them: their card
    stands, the computer's decision is dropped, and the timeout is not counted."""
    entered, release = threading.Event(), threading.Event()

    class Slow:
        name = "slow"

        def choose(self, view: SeatView) -> Action:
            entered.set()
            release.wait(5)
            return view.legal[-1]

    monkeypatch.setattr(thinking, "player", lambda level, seat: Slow())
    session = await started_table(store, ["101", "102", "103", "104"], options=NO_EARLY_END)
    hand = session.hand
    assert hand is not None
    seat = hand.to_move
    assert seat is not None
    task = asyncio.create_task(session.computer_turn(timed_out=True))
    while not entered.is_set():
        await asyncio.sleep(0.01)
    # The event loop is free while the computer thinks: the player's own click goes through.
    mine = first_legal(hand, seat)
    await session.act(101 + seat, mine, hand_number=1)
    release.set()
    assert await task is None
    assert hand.actions == [(seat, mine)]
    assert session.timeouts[seat] == 0


async def test_computers_think_in_a_worker_process() -> None:
    """The bot's default: decisions in a process pool, from a pickled SeatView, the same as
    in this process (decisions are a pure function of the seed and the view)."""
    hand = Match(make_rules("filko", {"top_trumps": "hearts_seven"}), seed=11).deal()
    seat = hand.to_move
    assert seat is not None
    view = seat_view(hand, seat)
    assert pickle.loads(pickle.dumps(view.rules)) is view.rules  # shared, cached rules
    thinking.start(1)
    try:
        # Easy: a pure function of the view. Normal and Hard stop at a wall-clock cap, so on
        # a busy machine the niced worker may count fewer samples than this process and
        # rightly choose otherwise; their reproducibility is the engine's tests' (untimed).
        action = await thinking.decide("easy", seat, view)
        # The worker yields the CPU to the event loop that answers clicks.
        pool = thinking._pool
        assert pool is not None
        worker_nice = await asyncio.get_running_loop().run_in_executor(pool, os.nice, 0)
    finally:
        thinking.stop()
    assert worker_nice == min(19, os.nice(0) + thinking.WORKER_NICENESS)
    assert action in hand.legal_actions()
    assert action == thinking.decide_now("easy", seat, view)


async def test_computer_seats_play_their_level(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    levels: list[str] = []
    original = thinking.make_player

    def spy(level: str, seed: int | None = 0, **kw: Any) -> Any:
        levels.append(level)
        return original(level, seed, **kw)

    monkeypatch.setattr(thinking, "make_player", spy)
    session = await started_table(store, ["101", CPU, "103", CPU])
    for s, level in ((1, "easy"), (3, "hard")):
        session.seats[s] = computer(level)
    hand = session.hand
    assert hand is not None
    while hand.to_move in (0, 2):
        await session.act(101 + hand.to_move, first_legal(hand, hand.to_move), hand_number=1)
    seat = hand.to_move
    view = seat_view(hand, seat or 0)
    out = await session.computer_turn()
    assert out is not None and out.played[0].action in view.legal
    assert levels == ["easy" if seat == 1 else "hard"]


# -- the lobby ----------------------------------------------------------------------------------


def computer_named(seat: int, level: str) -> str:
    return t("lobby.computer_named", name=t("lobby.computer_seat", seat=seat),
             level=t(f"level.{level}"))


async def test_the_add_computer_menu_picks_the_level(h: Harness) -> None:
    ana = h.user("ana")
    r = await h.command(ana, "table new", game="filicau")
    menu = h.table_message().select("cpu")
    assert menu is not None and menu["placeholder"] == t("lobby.add_cpu")
    assert [(o["label"], o["value"]) for o in menu["options"]] == [
        (t("btn.add_cpu_easy"), "easy"), (t("btn.add_cpu"), "normal"),
        (t("btn.add_cpu_hard"), "hard")]
    await h.press(ana, t("btn.join_a"))
    r = await h.add_computer(ana, "hard")
    assert r.type == UPDATE_MESSAGE
    # Seat 1 is Ana's; the computers are named by their seats (from 1) and levels.
    assert computer_named(2, "hard") in r.text
    r = await h.add_computer(ana, "easy")
    assert computer_named(3, "easy") in r.text
    r = await h.add_computer(ana)
    session = h.session()
    assert sorted(m for m in session.seats if m and m.startswith("cpu:")) == [
        "cpu:easy", "cpu:hard", "cpu:normal"]
    # The table is full: no menu to add one more.
    assert h.table_message().select("cpu") is None


async def test_a_forged_level_is_refused(h: Harness) -> None:
    ana = h.user("ana")
    await h.command(ana, "table new", game="filicau")
    session = h.session()
    r = await h.click(ana, f"fc:cpu:{session.id}:grandmaster", forge=True)
    assert r.rejected_with(t("err.bad_level", level="grandmaster"))
    assert all(m is None for m in session.seats)


async def test_a_cancelled_computer_move_is_stored_and_applied_or_neither(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A driver cancelled while its move is being stored (a click restarted it) still applies
    the move: the log never runs ahead of the hand."""
    session = await started_table(store, [CPU, "102", CPU, "104"], options=NO_EARLY_END)
    hand = session.hand
    assert hand is not None
    while hand.to_move not in (0, 2):
        seat = hand.to_move or 0
        await session.act(101 + seat, first_legal(hand, seat), hand_number=1)
    entered, release = asyncio.Event(), asyncio.Event()
    append = session.store.append_action

    async def slow_append(*args: Any, **kw: Any) -> None:
        entered.set()
        await release.wait()
        await append(*args, **kw)

    monkeypatch.setattr(session.store, "append_action", slow_append)
    before = len(hand.actions)
    task = asyncio.create_task(session.computer_turn())
    await entered.wait()
    task.cancel()
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with session.lock:  # the shielded move finishes under the lock
        assert len(hand.actions) == before + 1
    record = await store.current_hand(session.id)
    assert record is not None and len(record.actions) == before + 1
