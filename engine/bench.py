"""The engine benchmark: random complete hands through the public state API.

Each hand is shuffled, dealt (``Match.deal``), played to the end by asking ``legal_actions``
and calling ``apply`` for a random choice, and scored (``Match.record_result``): the same calls
the bot makes, so the figure is what the bot and the computer players can count on.

``compare_openspiel`` runs the same loop against OpenSpiel's Skat (C++ driven through its
Python API, ``pip install -e '.[openspiel]'``), alternating the two in one process so that a
shared machine's drifting speed hits both alike.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

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


def bench(game: str, hands: int, seed: int) -> dict[str, Any]:
    """Play ``hands`` random hands of ``game``; hands and actions per second."""
    rules = make_rules(game)
    match = Match(rules, seed=seed)
    rand = random.Random(seed).random
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
    return {
        "game": game,
        "hands": hands,
        "seed": seed,
        "actions": actions,
        "seconds": round(elapsed, 4),
        "hands_per_second": round(hands / elapsed, 1),
        "actions_per_second": round(actions / elapsed),
    }


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
    """``rounds`` runs of each, alternating, in this process; the median of each and their
    ratio (hands per second, and actions per second: an OpenSpiel Skat game is about 62
    actions, its deal included, a hand here about 25)."""
    ours: list[float] = []
    theirs: list[float] = []
    ours_a: list[float] = []
    theirs_a: list[float] = []
    for r in range(rounds):
        a = bench(game, hands, seed + r)
        b = run_openspiel(hands, seed + r)
        ours.append(a["hands_per_second"])
        ours_a.append(a["actions_per_second"])
        theirs.append(b["hands_per_second"])
        theirs_a.append(b["actions_per_second"])
    mine, other = statistics.median(ours), statistics.median(theirs)
    mine_a, other_a = statistics.median(ours_a), statistics.median(theirs_a)
    return {
        "game": game,
        "openspiel_game": "skat",
        "rounds": rounds,
        "hands": hands,
        "hands_per_second": {"engine": mine, "openspiel": other},
        "ratio": round(mine / other, 2),
        "actions_per_second": {"engine": mine_a, "openspiel": other_a},
        "actions_ratio": round(mine_a / other_a, 2),
        "per_round": {"engine": ours, "openspiel": theirs},
    }
