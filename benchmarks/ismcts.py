"""The engine's levels against OpenSpiel's IS-MCTS, in duplicate deals:

    python -m benchmarks.ismcts --game filicau --a hard --simulations 100 --deals 200

``--a`` (an engine level, ``engine.ai.make_player``) plays duplicate deals against
OpenSpiel's own Python implementation of Information Set Monte Carlo Tree Search
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``: Cowling, Powley and Whitehouse 2012,
UCT with ``--uct`` as its constant, the most visited action played) on the engine's games
wrapped for OpenSpiel (``benchmarks.openspiel_games``). Each of its ``--simulations``
iterations draws a deal consistent with what its seat knows (the engine's uniform guess,
as the unread levels guess), walks its tree and finishes with one random rollout
(``RolloutEvaluator``: OpenSpiel's random rollout, played on the engine's hand directly).
The deals, the scoring and the confidence intervals are the arena's
(``engine.tools.arena``: each pack played twice with the teams swapped; outcome value, or
in Bavarian Schafkopf the payout, A - B per deal).

"Equal CPU a decision": both sides' CPU time per decision with a choice is measured in the
match itself and printed beside the result (``cpu_ms``); ``--simulations`` is set so that
IS-MCTS's mean is at least the engine level's (``--calibrate`` plays ``--deals`` deals of
both and prints the simulations that would match). Players are seeded, so a run repeats.
Needs ``pip install -e '.[openspiel]'``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from benchmarks.openspiel_games import (
    EngineState,
    RolloutEvaluator,
    action_of,
    register,
    resample,
)
from engine.actions import Action
from engine.ai import make_player
from engine.determinize import hand_from_view
from engine.inference import infer, sample
from engine.players import Player
from engine.status import RecordError
from engine.tools.arena import mean_ci, play_deal
from engine.view import SeatView


class IsmctsPlayer:
    """OpenSpiel's IS-MCTS as an engine ``Player`` (``choose(view)``): the search starts from
    a state consistent with the view (its hidden cards never read: every iteration draws
    them anew)."""

    name = "ismcts"

    def __init__(self, game: str, seed: int, simulations: int, uct_c: float = 2.0) -> None:
        self.game = pyspiel.load_game(register(game))
        self.rng = random.Random(f"ismcts|{seed}")
        self.bot = ismcts.ISMCTSBot(
            self.game, RolloutEvaluator(seed), uct_c, simulations,
            random_state=np.random.RandomState(seed % 2**32),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        self.bot.set_resampler(self._resample)
        self._root: tuple[object, int] | None = None

    def _resample(self, state: EngineState, player: int) -> EngineState:
        return resample(state, player, self.rng)

    def choose(self, view: SeatView) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        knowledge = infer(view)
        for _ in range(20):
            try:
                hand = hand_from_view(view, sample(knowledge, self.rng))
                break
            except RecordError:
                continue
        else:  # pragma: no cover - the view's own deal always fits
            return view.legal[0]
        state = EngineState(self.game, hand)
        return action_of(int(self.bot.step(state)))


class Timed:
    """A player whose CPU time per decision with a choice is kept (``times``)."""

    def __init__(self, player: Player, times: list[float]) -> None:
        self.player = player
        self.times = times
        self.name = getattr(player, "name", "?")

    def choose(self, view: SeatView) -> Action:
        t0 = time.process_time()
        action = self.player.choose(view)
        if len(view.legal) > 1:
            self.times.append(time.process_time() - t0)
        return action

    def see(self, hand: Any) -> None:  # an open-hand player is shown the hand
        see = getattr(self.player, "see", None)
        if see is not None:
            see(hand)


def run(game: str, a: str, deals: int, seed: int, simulations: int, uct_c: float = 2.0,
        log: Any = None, err: Any = sys.stderr, minutes: float | None = None) -> dict[str, Any]:
    """Play ``deals`` duplicate deals (fewer if ``minutes`` run out first: the deal in play
    is finished, and since deals come in order a run cut short is a fair sample)."""
    times: dict[str, list[float]] = {"a": [], "ismcts": []}

    def make(level: str, seed: int, timed: bool = False) -> Player:
        if level == "ismcts":
            return Timed(IsmctsPlayer(game, seed, simulations, uct_c), times["ismcts"])
        return Timed(make_player(level, seed=seed, timed=timed), times["a"])

    diffs: list[float] = []
    points: list[float] = []
    started = time.perf_counter()
    for i in range(deals):
        if minutes is not None and time.perf_counter() - started > 60 * minutes:
            break
        r = play_deal(game, a, "ismcts", seed, i, make)
        diffs.append(r.diff)
        points.append(r.points_diff)
        if log is not None:
            log.write(json.dumps({"deal": i, "diff": r.diff, "points_diff": r.points_diff,
                                  "events": r.events}) + "\n")
            log.flush()
        if err is not None:
            err.write(f"\r{i + 1}/{deals} deals, A - IS-MCTS {sum(diffs) / len(diffs):+.3f}, "
                      f"{time.perf_counter() - started:.0f} s")
            err.flush()
    if err is not None:
        err.write("\n")
    m, lo, hi = mean_ci(diffs)
    pm, plo, phi = mean_ci(points)
    return {
        "game": game, "a": a, "b": f"ismcts({simulations} simulations, uct {uct_c})",
        "deals": len(diffs), "seed": seed,
        "diff_per_deal": {"mean": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)]},
        "points_diff_per_deal": {"mean": round(pm, 4), "ci95": [round(plo, 4), round(phi, 4)]},
        "cpu_ms": {side: _summary(t) for side, t in times.items()},
        "seconds": round(time.perf_counter() - started, 1),
    }


def _summary(times: list[float]) -> dict[str, float | int]:
    t = sorted(times)
    if not t:
        return {"decisions": 0}
    return {"decisions": len(t), "mean": round(1000 * sum(t) / len(t), 1),
            "p50": round(1000 * t[len(t) // 2], 1),
            "p95": round(1000 * t[min(len(t) - 1, int(0.95 * len(t)))], 1)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ismcts",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="filicau")
    parser.add_argument("--a", default="hard", help="the engine's level")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--uct", type=float, default=2.0)
    parser.add_argument("--calibrate", action="store_true",
                        help="print the simulations that give IS-MCTS the level's CPU time")
    parser.add_argument("--log", help="each deal as a JSON line")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after the deal in play once this many minutes have passed")
    args = parser.parse_args(argv)
    log = open(args.log, "w", encoding="utf-8") if args.log else None  # noqa: SIM115
    r = run(args.game, args.a, args.deals, args.seed, args.simulations, args.uct, log,
            minutes=args.minutes)
    if args.calibrate:
        per = r["cpu_ms"]["ismcts"]["mean"] / args.simulations
        r["calibrated_simulations"] = round(r["cpu_ms"]["a"]["mean"] / per)
    print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
