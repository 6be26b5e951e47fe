"""The engine benchmark: random complete hands through the public state API.

Each hand is shuffled, dealt (``Match.deal``), played to the end by asking ``legal_actions``
and calling ``apply`` for a random choice, and scored (``Match.record_result``): the same calls
the bot makes, so the figure is what the bot and the computer players can count on.

``compare_openspiel`` runs the same loop against OpenSpiel's Skat (C++ driven through its
Python API, ``pip install -e '.[openspiel]'``), alternating the two in one process so that a
shared machine's drifting speed hits both alike.

``floor`` runs the same loop with the rules taken out (real hands' legal actions handed back
in order): what the calls alone cost in CPython, so what is left is the rules' own work.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from engine.actions import Action
from engine.match import Match
from engine.rules import make_rules


@contextmanager
def _no_gc() -> Iterator[None]:
    """Like timeit, pause the cyclic garbage collector while timing. The engine makes no
    reference cycles, so reference counting frees every hand as before."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


class _Playable(Protocol):
    """What the benchmark loop calls: the engine's ``Match`` and ``Hand``, or the floor's."""

    def deal(self) -> Any: ...
    def record_result(self, hand: Any) -> Any: ...


def _play(match: _Playable, hands: int, rand: Callable[[], float]) -> tuple[int, float]:
    """The loop every figure here times: deal, then ask for the legal actions and apply a
    random one until the hand has a result, then score it. Returns the actions played and
    the seconds taken."""
    actions = 0
    with _no_gc():
        start = time.perf_counter()
        for _ in range(hands):
            hand = match.deal()
            while hand.result is None:
                seat = hand.to_move
                if seat is None:  # a game's open window: the first seat that may act
                    seat = hand.actors()[0]
                legal = hand.legal_actions(seat)
                hand.apply(seat, legal[int(rand() * len(legal))])
            actions += len(hand.actions)
            match.record_result(hand)
        elapsed = time.perf_counter() - start
    return actions, elapsed


def _figures(game: str, hands: int, seed: int, actions: int, elapsed: float) -> dict[str, Any]:
    return {
        "game": game,
        "hands": hands,
        "seed": seed,
        "actions": actions,
        "seconds": round(elapsed, 4),
        "hands_per_second": round(hands / elapsed, 1),
        "actions_per_second": round(actions / elapsed),
    }


def bench(game: str, hands: int, seed: int) -> dict[str, Any]:
    """Play ``hands`` random hands of ``game``; hands and actions per second."""
    actions, elapsed = _play(Match(make_rules(game), seed=seed), hands,
                             random.Random(seed).random)
    return _figures(game, hands, seed, actions, elapsed)


class _ReplayedHand:
    """A hand that answers the loop's calls with what a real hand answered, in order, and
    decides nothing: the same number of actions and the same legal tuples, no rules."""

    __slots__ = ("_next", "_steps", "actions", "result", "to_move")

    def __init__(self, steps: list[tuple[int, tuple[Action, ...]]]) -> None:
        self.result: object = None
        self.actions: list[Action] = []
        self._steps = steps
        self._next = 0
        self.to_move: int | None = steps[0][0]

    def actors(self) -> list[int]:
        return [self._steps[self._next][0]]

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        return self._steps[self._next][1]

    def apply(self, seat: int, action: Action) -> None:
        self.actions.append(action)
        self._next += 1
        if self._next == len(self._steps):
            self.result = True
        else:
            self.to_move = self._steps[self._next][0]


class _ReplayedMatch:
    def __init__(self, hands: list[list[tuple[int, tuple[Action, ...]]]]) -> None:
        self._hands = hands
        self._dealt = 0

    def deal(self) -> _ReplayedHand:
        steps = self._hands[self._dealt % len(self._hands)]
        self._dealt += 1
        return _ReplayedHand(steps)

    def record_result(self, hand: _ReplayedHand) -> None:
        return None


def floor(game: str, hands: int, seed: int, kept: int = 200) -> dict[str, Any]:
    """The benchmark loop with the rules taken out: ``kept`` real random hands of ``game``
    are recorded (who acted, the legal actions offered), then ``hands`` hands are timed
    that only hand those answers back. No engine with this API, however fast, can pass the
    floor's figure in CPython: it is what the calls alone cost."""
    match = Match(make_rules(game), seed=seed)
    rand = random.Random(seed).random
    recorded: list[list[tuple[int, tuple[Action, ...]]]] = []
    for _ in range(kept):
        hand = match.deal()
        steps: list[tuple[int, tuple[Action, ...]]] = []
        while hand.result is None:
            seat = hand.to_move if hand.to_move is not None else hand.actors()[0]
            legal = hand.legal_actions(seat)
            steps.append((seat, legal))
            hand.apply(seat, legal[int(rand() * len(legal))])
        match.record_result(hand)
        recorded.append(steps)
    actions, elapsed = _play(_ReplayedMatch(recorded), hands, random.Random(seed).random)
    return _figures(f"floor:{game}", hands, seed, actions, elapsed)


def bench_openspiel(games: int, seed: int, name: str = "skat") -> dict[str, Any]:
    """The same loop on an OpenSpiel game: from ``new_initial_state`` to terminal, every step
    (the deal's chance steps included, as its API deals) a uniform pick from
    ``legal_actions``. Needs ``open_spiel`` installed."""
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    game = pyspiel.load_game(name)
    rand = random.Random(seed).random
    actions = 0
    with _no_gc():
        start = time.perf_counter()
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[int(rand() * len(legal))])
                actions += 1
        elapsed = time.perf_counter() - start
    return {
        "game": f"openspiel:{name}",
        "hands": games,
        "seed": seed,
        "actions": actions,
        "seconds": round(elapsed, 4),
        "hands_per_second": round(games / elapsed, 1),
        "actions_per_second": round(actions / elapsed),
    }


def compare_openspiel(game: str, hands: int, seed: int, rounds: int = 5,
                      run_openspiel: Callable[[int, int], dict[str, Any]] = bench_openspiel,
                      ) -> dict[str, Any]:
    """``rounds`` runs of each, alternating, in this process: the engine, OpenSpiel, and the
    floor (the same loop with the rules taken out). The median of each and the ratios to
    OpenSpiel (hands per second, and actions per second: an OpenSpiel Skat game is about 62
    actions, its deal included, a hand here about 25). ``floor_ratio`` is the most any
    engine behind this API could reach against OpenSpiel in this Python."""
    runs: dict[str, list[dict[str, Any]]] = {"engine": [], "openspiel": [], "floor": []}
    for r in range(rounds):
        runs["engine"].append(bench(game, hands, seed + r))
        runs["openspiel"].append(run_openspiel(hands, seed + r))
        runs["floor"].append(floor(game, hands, seed + r))

    def median(who: str, figure: str) -> float:
        return float(statistics.median(run[figure] for run in runs[who]))

    other, other_a = median("openspiel", "hands_per_second"), median(
        "openspiel", "actions_per_second")
    return {
        "game": game,
        "openspiel_game": "skat",
        "rounds": rounds,
        "hands": hands,
        "hands_per_second": {who: median(who, "hands_per_second") for who in runs},
        "ratio": round(median("engine", "hands_per_second") / other, 2),
        "floor_ratio": round(median("floor", "hands_per_second") / other, 2),
        "actions_per_second": {who: median(who, "actions_per_second") for who in runs},
        "actions_ratio": round(median("engine", "actions_per_second") / other_a, 2),
        "per_round": {who: [run["hands_per_second"] for run in runs[who]] for who in runs},
    }
