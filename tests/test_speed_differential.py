"""The engine's speed work changes no record and no result: a differential test.

``tests/data/engine_reference.jsonl`` was written by the engine *before* the speed work
(commit 4957c46, ``python tests/test_speed_differential.py``): random hands of every game,
each with its record, a digest of the legal actions of every actor at every step, and the
resulting state as ``python -m engine replay`` reports it. The current engine must replay
every record to the same legal actions at every step and the same report: an optimisation
that changes who may play what, who wins a trick or how a hand is scored fails here.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.actions import action_from_json, action_to_json
from engine.hand import Hand
from engine.match import Match
from engine.record import replay, report, start, to_record
from engine.rules import GAMES, make_rules

DATA = Path(__file__).parent / "data" / "engine_reference.jsonl"
HANDS_PER_GAME = 40


def _legal_now(hand: Hand) -> list[Any]:
    """Every actor's legal actions (and out-of-turn actions) at this step, as JSON."""
    return [
        [seat, [action_to_json(a) for a in hand.legal_actions(seat)],
         [action_to_json(a) for a in hand.free_actions(seat)]]
        for seat in hand.actors()
    ]


def _digest(steps: list[Any]) -> str:
    return hashlib.sha256(json.dumps(steps, sort_keys=True).encode()).hexdigest()


def random_records(game: str, hands: int, seed: int) -> list[dict[str, Any]]:
    """``hands`` hands of a seeded match with uniformly random actions, status carried on."""
    match = Match(make_rules(game), seed=seed)
    rng = random.Random(seed)
    out = []
    for _ in range(hands):
        hand = match.deal()
        steps = []
        while not hand.finished:
            steps.append(_legal_now(hand))
            seat = rng.choice(hand.actors())
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
        match.record_result(hand)
        assert hand.result is not None
        out.append({
            "record": to_record(hand),
            "legal_digest": _digest(steps),
            "report": _report(hand),
            "event": hand.result.event,
            "early": hand.result.early,
        })
    return out


#: Keys ``report`` gained after the reference was written (issue 44: ``may_act``, every
#: seat that may act with its actions, which the legal digests above already cover).
NEWER_KEYS = frozenset({"may_act"})


def _report(hand: Hand) -> dict[str, Any]:
    """``report`` as the reference has it."""
    return {k: v for k, v in report(hand).items() if k not in NEWER_KEYS}


def _reference() -> list[dict[str, Any]]:
    with DATA.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_reference_covers_every_game() -> None:
    assert {r["record"]["game"] for r in _reference()} == set(GAMES)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_legal_actions_and_results_as_before(game: str) -> None:
    refs = [r for r in _reference() if r["record"]["game"] == game]
    assert len(refs) == HANDS_PER_GAME
    for ref in refs:
        record = ref["record"]
        hand = start(record)
        steps = []
        for obj in record["actions"]:
            steps.append(_legal_now(hand))
            hand.apply(obj["seat"], action_from_json(obj))
        assert hand.finished
        assert _digest(steps) == ref["legal_digest"], record
        assert _report(hand) == ref["report"]
        assert hand.result is not None
        assert (hand.result.event, hand.result.early) == (ref["event"], ref["early"])
        # And the record replays to the same report through the public replay too.
        assert _report(replay(record)) == ref["report"]


@pytest.mark.slow
def test_random_hands_today_match_the_reference_generation() -> None:
    """The generator itself (the bench's kind of play) still produces the stored hands:
    same shuffles, same legal actions, same results."""
    for game in sorted(GAMES):
        now = random_records(game, 5, seed=sum(map(ord, game)))
        ref = [r for r in _reference() if r["record"]["game"] == game][:5]
        assert now == ref, game


if __name__ == "__main__":
    DATA.parent.mkdir(exist_ok=True)
    with DATA.open("w", encoding="utf-8") as f:
        for g in sorted(GAMES):
            for r in random_records(g, HANDS_PER_GAME, seed=sum(map(ord, g))):
                f.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"wrote {DATA}", file=sys.stderr)
