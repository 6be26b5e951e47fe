"""How well could a perfect reader place the hidden cards? ``python -m benchmarks.posterior
--level hard_unread --hands 40 --guesses 32 --seeds 6 --workers 2``

A reader weighs each guess of the hidden hands by how likely the others' actions so far are
in it. The shipped model (``engine.ai.reading``) gives that likelihood from a small network;
here it comes from the level itself, the best model of its play there is: at every earlier
decision of another seat (with more than one legal action), the guess's view of that seat is
decided again by ``--seeds`` players of ``--level`` with seeds of their own, and the action
the seat took gets the share of them that chose it (add-half smoothed). A guess's weight is
the product over those decisions.

The positions are those of ``benchmarks.reading_model``'s *P(true holder)*: the hands of
``--level`` playing itself from its seeds (``reading|SEED|i``, hands ``--first`` on; with the
defaults, its test hands), at the seat to move's leads after two to five tricks. At each,
``--guesses`` guesses consistent with the view (voids and shown cards) are drawn and every
hidden point card's true holder gets its share of them: unweighted, as Hard unread searches,
and weighed by the level's own play. Both are printed as JSON with the figure from the first
half of the guesses, so a weighed share that still moves from the half to the whole says the
guesses are too few (fewer guesses pull the weighed share towards the unweighted one).

It costs guesses × seeds × earlier decisions of the level a position: minutes of Hard's
decisions for a few hundred cards.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
from typing import Any

from benchmarks.reading_model import hidden_point_cards, holder_positions, play
from engine.ai import make_player
from engine.determinize import hand_from_view
from engine.hand import Hand
from engine.inference import infer, sample
from engine.players import Player
from engine.tools.arena import mean_ci
from engine.view import seat_view

#: Seeds of the players deciding again: none of them is a seat of the self-play.
SEED_BASE = 10**9


def position_shares(job: tuple[dict[str, Any], str, int, int, int]) -> list[list[float]]:
    """For one hand's positions: per hidden point card, its true holder's share among the
    guesses unweighted, weighed over the first half of the guesses, weighed over all."""
    record, level, guesses, seeds, salt = job
    deciders = [make_player(level, seed=SEED_BASE + k, timed=False) for k in range(seeds)]
    out: list[list[float]] = []
    for hand, seat in holder_positions(record):
        view = seat_view(hand, seat)
        knowledge = infer(view)
        rng = random.Random(f"posterior|{salt}|{len(hand.actions)}")
        drawn = [hand_from_view(view, sample(knowledge, rng)) for _ in range(guesses)]
        logs = [_log_likelihood(g, seat, deciders) for g in drawn]
        top = max(logs)
        weights = [math.exp(v - top) for v in logs]
        half = guesses // 2
        for c, other in hidden_point_cards(hand, view):
            has = [c in g.hands[other] for g in drawn]
            out.append([sum(has) / guesses,
                        _share(weights[:half], has[:half]), _share(weights, has)])
    return out


def _share(weights: list[float], has: list[bool]) -> float:
    return sum(w for w, h in zip(weights, has, strict=True) if h) / sum(weights)


def _log_likelihood(guess: Hand, seat: int, deciders: list[Player]) -> float:
    """The log of the chance, by the deciders' own play, of every earlier action of the
    other seats in ``guess`` (the hand replayed from its deal)."""
    hand = Hand(guess.rules, guess.dealer, guess.pack, guess.status)
    total = 0.0
    for actor, action in list(guess.actions):
        if actor != seat:
            view = seat_view(hand, actor)
            legal = view.legal
            if len(legal) > 1:
                chosen = sum(p.choose(view) == action for p in deciders)
                total += math.log((chosen + 0.5) / (len(deciders) + 0.5 * len(legal)))
        hand.apply(actor, action)
    return total


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.posterior", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="filicau")
    p.add_argument("--level", default="hard_unread")
    p.add_argument("--hands", type=int, default=40)
    p.add_argument("--first", type=int, default=10,
                   help="the first self-play hand (reading_model's test hands follow its "
                        "training hands)")
    p.add_argument("--guesses", type=int, default=32)
    p.add_argument("--seeds", type=int, default=6, help="players deciding each view again")
    p.add_argument("--seed", type=int, default=9, help="the self-play's seed")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--log", default=None,
                   help="each hand's cards to this file as it is done (JSONL: the unweighted, "
                        "half and whole weighed shares of each card)")
    args = p.parse_args(argv)
    if args.guesses < 2 or args.seeds < 1:
        p.error("--guesses must be at least 2 and --seeds at least 1")
    log = None if args.log is None else open(args.log, "w", encoding="utf-8")  # noqa: SIM115
    hands = [(args.level, args.seed, i, args.game)
             for i in range(args.first, args.first + args.hands)]
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        records = pool.map(play, hands, chunksize=1)
        jobs = [(r, args.level, args.guesses, args.seeds, i) for i, r in enumerate(records)]
        cards: list[list[float]] = []
        for i, found in enumerate(pool.imap(position_shares, jobs, chunksize=1)):
            cards += found
            if log is not None:
                log.write(json.dumps({"hand": args.first + i, "cards": found}) + "\n")
                log.flush()
    if log is not None:
        log.close()
    report: dict[str, Any] = {"game": args.game, "level": args.level, "hands": args.hands,
                              "guesses": args.guesses, "seeds": args.seeds,
                              "cards": len(cards)}
    if cards:
        for name, col in (("unweighted", 0), ("weighed_half", 1), ("weighed", 2)):
            report[name] = round(sum(c[col] for c in cards) / len(cards), 4)
        m, lo, hi = mean_ci([c[2] - c[0] for c in cards])
        # Cards of one position share its guesses, so the interval leans a little narrow.
        report["weighed_minus_unweighted"] = {"mean": round(m, 4),
                                              "ci95": [round(lo, 4), round(hi, 4)]}
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
