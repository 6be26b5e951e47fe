"""How much could any model of a level's play tell about its cards? The ceiling of reading
the play (docs/computer-players.md, "How much the play can tell"; issue 46), repeatable:

    python -m benchmarks.play_entropy --game filicau --level hard_unread --hands 60 --seeds 8

A search level decides from its view and its own random numbers. Seen from another seat,
which knows neither its cards nor its numbers, its card is drawn from a policy ``p(card |
its view)``; reading the play weighs guesses of its cards by a model ``q`` of that policy
(``engine.ai.reading``). No model can tell more than ``p`` itself, so this asks:

1. ``--hands`` self-play hands of four players of ``--level``, dealt as the training's
   (``engine.tools.train.self_play``, on a seed of its own), untimed and with the level's
   own samples.
2. At every card choice with more than one legal card, the same view is decided again by
   ``--seeds`` players of the level with other seeds: their cards are draws from ``p``.
3. Per choice, in nats, averaged over the choices (with 95 % intervals):

   - ``uniform``: log of the number of legal cards, what the unread levels assume;
   - ``entropy``: of the draws (the plug-in estimate, which is biased low; and with the
     Miller-Madow correction, ``+ (cards drawn - 1) / (2 seeds)``): how random the level's
     play is for one who knew its cards; ``uniform - entropy`` is the most a model can tell;
   - ``model``: the shipped card network's cross-entropy with the draws (its log-loss on
     them, unbiased): ``uniform - model`` is what it tells;
   - ``room``: ``model - entropy``, the mean KL divergence of the model from the level's
     policy: what a perfect model of the play would add. (Against the plug-in entropy it is
     an upper bound.)
   - ``agree``: the share of choices where every seed chose the same card.

``--model FILE.npz`` (any number of times) measures other card networks (``engine.tools.train
--out``) on the same draws as the shipped one: their ``model``, ``model_tells``, ``room`` and
``share_told`` under ``models``.

Printed as JSON, leads and cards played to a trick apart, and all together.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from collections import Counter
from functools import lru_cache
from typing import Any

import numpy as np

from engine.actions import Action, action_from_json
from engine.ai import make_player, reading
from engine.ai.reading import ReadingModel
from engine.hand import PLAYING, Hand
from engine.record import start
from engine.tools.arena import mean_ci
from engine.tools.train import self_play
from engine.view import seat_view


def model_log_chance(model: ReadingModel, hand: Hand, seat: int, action: Action) -> float:
    """``model``'s card network's log chance of ``seat`` playing ``action`` now (no uniform
    part mixed in)."""
    after = hand.copy()
    after.apply(seat, action)
    rows = reading.played_rows(after)
    assert rows is not None
    chances = reading.log_chances(model.cards.scores(rows.x), rows, 0.0)
    return float(chances[-1])


@lru_cache(maxsize=16)
def load_model(game: str, path: str | None) -> ReadingModel:
    """The model in ``path`` (an ``.npz`` of ``engine.tools.train``), else the shipped one;
    read once a process, not once a hand."""
    if path is None:
        model = reading.load(game)
        assert model is not None, f"no reading model ships for {game}"
        return model
    with np.load(path, allow_pickle=False) as arrays:
        return reading.model_from_arrays(game, dict(arrays))


def choices(job: tuple[str, str, int, int, int, tuple[str, ...]]) -> list[dict[str, Any]]:
    """Hand ``i``'s card choices with more than one legal card: the number of legal cards,
    whether it leads, the cards ``seeds`` re-seeded players drew, and the log chance of
    each by the shipped model (``log_q``) and by each of ``paths`` (``log_q_by``)."""
    game, level, seed, i, seeds, paths = job
    model = load_model(game, None)
    others = [load_model(game, p) for p in paths]
    record = self_play(game, level, seed, i)
    hand = start(record)
    out: list[dict[str, Any]] = []
    for obj in record["actions"]:
        seat, action = obj["seat"], action_from_json(obj)
        legal = hand.legal_actions(seat) if hand.phase == PLAYING else ()
        if len(legal) > 1 and action.kind == "card":
            view = seat_view(hand, seat)
            drawn = Counter(
                make_player(level, seed=10**9 + seed * 10**6 + i * 100 + k,
                            timed=False).choose(view)
                for k in range(seeds))
            out.append({"legal": len(legal), "lead": not hand.trick,
                        "drawn": list(drawn.values()),
                        "log_q": [model_log_chance(model, hand, seat, a) for a in drawn],
                        "log_q_by": [[model_log_chance(m, hand, seat, a) for a in drawn]
                                     for m in others]})
        hand.apply(seat, action)
    return out


def summary(found: list[dict[str, Any]], seeds: int, model_at: int | None = None
            ) -> dict[str, Any]:
    """The figures of the docstring over these choices (for the model of ``--model`` number
    ``model_at``, not the shipped one, when given)."""
    uniform, plug, corrected, model, agree = [], [], [], [], []
    for c in found:
        p = np.array(c["drawn"], dtype=float) / seeds
        h = float(-(p * np.log(p)).sum())
        uniform.append(math.log(c["legal"]))
        plug.append(h)
        corrected.append(h + (len(p) - 1) / (2 * seeds))
        log_q = c["log_q"] if model_at is None else c["log_q_by"][model_at]
        model.append(float(-(p * np.array(log_q)).sum()))
        agree.append(float(len(p) == 1))

    def fig(values: list[float]) -> list[float]:
        m, lo, hi = mean_ci(values)
        return [round(m, 3), round(lo, 3), round(hi, 3)]

    room = [m - h for m, h in zip(model, plug, strict=True)]
    room_mm = [m - h for m, h in zip(model, corrected, strict=True)]
    told = [u - m for u, m in zip(uniform, model, strict=True)]
    most = [u - h for u, h in zip(uniform, corrected, strict=True)]
    return {"choices": len(found), "uniform": fig(uniform), "entropy": fig(plug),
            "entropy_miller_madow": fig(corrected), "model": fig(model),
            "model_tells": fig(told), "most_a_model_can_tell": fig(most),
            "room": fig(room), "room_miller_madow": fig(room_mm), "agree": fig(agree),
            "share_told": round(sum(told) / sum(most), 3) if sum(most) > 0 else None}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.play_entropy",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="filicau")
    parser.add_argument("--level", default="hard_unread")
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--seeds", type=int, default=8, help="re-seeded players a choice")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--model", action="append", default=[],
                        help="another card network's .npz to measure beside the shipped one")
    args = parser.parse_args(argv)
    if args.seeds < 2:
        parser.error("--seeds must be at least 2")
    jobs = [(args.game, args.level, args.seed, i, args.seeds, tuple(args.model))
            for i in range(args.hands)]
    if args.workers > 1:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            found = [c for part in pool.imap(choices, jobs, chunksize=1) for c in part]
    else:
        found = [c for part in map(choices, jobs) for c in part]
    report: dict[str, Any] = {"game": args.game, "level": args.level, "hands": args.hands,
                              "seeds": args.seeds}
    for name, part in (("leads", [c for c in found if c["lead"]]),
                       ("follows", [c for c in found if not c["lead"]]), ("all", found)):
        report[name] = summary(part, args.seeds) if part else None
        if part and args.model:
            report[name]["models"] = {
                path: {k: v for k, v in summary(part, args.seeds, at).items()
                       if k in ("model", "model_tells", "room", "share_told")}
                for at, path in enumerate(args.model)}
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
