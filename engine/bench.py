"""The engine benchmark: random complete hands through the public state API.

Each hand is shuffled, dealt (``Match.deal``), played to the end by asking ``legal_actions``
and calling ``apply`` for a random choice, and scored (``Match.record_result``): the same calls
the bot makes, so the figure is what the bot and the computer players can count on.
"""

from __future__ import annotations

import gc
import random
import time
from typing import Any

from engine.match import Match
from engine.rules import make_rules


def bench(game: str, hands: int, seed: int) -> dict[str, Any]:
    rules = make_rules(game)
    match = Match(rules, seed=seed)
    rand = random.Random(seed).random
    actions = 0
    # Like timeit, pause the cyclic garbage collector while timing. The engine makes no
    # reference cycles, so reference counting frees every hand as before.
    gc_was_on = gc.isenabled()
    gc.disable()
    start = time.perf_counter()
    for _ in range(hands):
        hand = match.deal()
        while hand.result is None:
            legal = hand.legal_actions()
            hand.apply(hand.to_move, legal[int(rand() * len(legal))])  # type: ignore[arg-type]
        actions += len(hand.actions)
        match.record_result(hand)
    elapsed = time.perf_counter() - start
    if gc_was_on:
        gc.enable()
    return {
        "game": game,
        "hands": hands,
        "seed": seed,
        "actions": actions,
        "seconds": round(elapsed, 4),
        "hands_per_second": round(hands / elapsed, 1),
    }
