"""How long the computers take: decisions per level (``python -m engine ai-timing``), hints
and reviews (``python -m engine analysis-timing``).

``decision_timing`` measures each level with the time cap on, as the bot plays (or, with
``cpu``, CPU time with the caps off: a busy machine's figures); ``analysis_timing`` times a
hint at every decision with a choice and every seat's review of each hand.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from engine.ai import make_player
from engine.ai.analysis import decisions, hint, review_decision
from engine.hand import Hand
from engine.record import to_record
from engine.rules import make_rules
from engine.view import seat_view


def decision_timing(game: str, levels: list[str], hands: int, seed: int = 0,
           err: TextIO | None = sys.stderr, cpu: bool = False,
           options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Decision times of each level, time cap on, four players of that level per hand; only
    decisions with a choice (more than one legal action) count. The levels take turns hand by
    hand, so that a shared machine's drifting speed hits them alike.

    ``cpu``: this process's CPU time instead of the wall clock, with the time caps off, so that
    other programs on a busy machine neither add to the times nor cut searches short: what a
    decision costs, as on an idle machine.

    ``options``: the table's options, as a lobby sets them (the game's own defaults for
    those not given). ``loadavg``, at the end: the machine's load average when the run
    ended (CPU time is robust to it, the wall clock is not). ``slowest``: each level's five
    slowest decisions, with their phase and how many cards had been played.

    >>> r = decision_timing("schafkopf", ["easy"], 1, err=None, options={"klopfen": True})
    >>> r["options"], r["easy"]["decisions"] > 0, "loadavg" in r
    ({'klopfen': True}, True, True)
    """
    clock = time.process_time if cpu else time.perf_counter
    rules = make_rules(game, options)
    out: dict[str, Any] = {"game": game, "options": dict(options or {}), "hands": hands,
                           "seed": seed, "cpus": os.cpu_count(),
                           "clock": "cpu, no time cap" if cpu else "wall, time cap on"}
    times: dict[str, list[float]] = {level: [] for level in levels}
    slow: dict[str, list[tuple[float, str, int]]] = {level: [] for level in levels}
    started = time.perf_counter()
    for i in range(hands):
        for level in levels:
            rng = random.Random(f"timing|{seed}|{i}")
            pack = list(rules.pack)
            rng.shuffle(pack)
            players = [make_player(level, seed=seed + s, timed=not cpu)
                       for s in range(rules.players)]
            hand = Hand(rules, rng.randrange(rules.players), pack)
            while not hand.finished:
                seat = hand.actors()[0]
                view = seat_view(hand, seat)
                t0 = clock()
                action = players[seat].choose(view)
                dt = clock() - t0
                if len(view.legal) > 1:
                    times[level].append(dt)
                    slow[level].append((dt, view.phase, len(hand.played())))
                hand.apply(seat, action)
        if err is not None:
            err.write(f"\r{i + 1}/{hands} hands {time.perf_counter() - started:6.1f} s")
            err.flush()
    if err is not None:
        err.write("\n")
    out["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    for level in levels:
        t = sorted(times[level])
        out[level] = {
            "decisions": len(t),
            "mean_ms": round(1000 * statistics.fmean(t), 1) if t else 0.0,
            "p50_ms": round(1000 * t[len(t) // 2], 1) if t else 0.0,
            "p95_ms": round(1000 * t[min(len(t) - 1, int(0.95 * len(t)))], 1) if t else 0.0,
            "max_ms": round(1000 * t[-1], 1) if t else 0.0,
            "slowest": [[round(1000 * dt, 1), phase, played]
                        for dt, phase, played in sorted(slow[level], reverse=True)[:5]],
        }
    return out


def _summary(times: list[float]) -> dict[str, float | int]:
    times = sorted(times)
    if not times:
        return {"count": 0, "p50_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
    return {
        "count": len(times),
        "p50_ms": round(1000 * times[len(times) // 2], 1),
        "p95_ms": round(1000 * times[min(len(times) - 1, int(0.95 * len(times)))], 1),
        "max_ms": round(1000 * times[-1], 1),
    }


def analysis_timing(game: str, hands: int, seed: int = 0,
           progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """How long hints and reviews take (``python -m engine analysis-timing``): ``hands``
    shuffled hands played by untimed Normal players; a hint is asked at every decision with
    a choice, and every seat's review is made once the hand is over (``review``: per seat and
    hand; ``review_decision``: per decision, one worker task).

    >>> r = analysis_timing("filicau", 1)
    >>> r["hint"]["count"] > 0 and r["review"]["count"] == 4
    True
    """
    rules = make_rules(game)
    hint_times: list[float] = []
    review_times: list[float] = []
    task_times: list[float] = []
    for i in range(hands):
        rng = random.Random(f"analysis-timing|{seed}|{i}")
        pack = list(rules.pack)
        rng.shuffle(pack)
        hand = Hand(rules, rng.randrange(rules.players), pack)
        players = [make_player("normal", seed=s, timed=False) for s in range(rules.players)]
        while not hand.finished:
            seat = hand.actors()[0]
            view = seat_view(hand, seat)
            if len(view.legal) > 1:
                t0 = time.perf_counter()
                hint(view, seed=seat)
                hint_times.append(time.perf_counter() - t0)
            hand.apply(seat, players[seat].choose(view))
        record = to_record(hand)
        for seat in range(rules.players):
            # As ``bot.thinking`` runs a review: one task per decision.
            spent = 0.0
            for index in decisions(record, seat):
                t0 = time.perf_counter()
                review_decision(record, seat, index, seed=seat)
                dt = time.perf_counter() - t0
                task_times.append(dt)
                spent += dt
            review_times.append(spent)
        if progress is not None:
            progress(f"{game}: {i + 1}/{hands} hands")
    return {"game": game, "hands": hands, "seed": seed, "cpus": os.cpu_count(),
            "hint": _summary(hint_times), "review": _summary(review_times),
            "review_decision": _summary(task_times)}
