"""Duplicate matches between computer levels.

``python -m engine arena --a hard --b easy --deals N`` deals N packs. Each deal is played twice
with the same pack, dealer and status but the teams swapped: level A sits in seats 0 and 2
the first time and in seats 1 and 3 the second, so the luck of the cards cancels out. A deal
starts even, or (two deals in three) with the dealer's opponents masters, so that running away
and staying masters are tested too: A holds the masters' cards in one of its two hands and B
in the other (a slave deals while there are slaves, so the same pack and dealer cannot make
the same level masters twice). Per deal the score is the mean, over its two hands, of A's outcome
value minus B's (``Rules.outcome_value``: +1 masters, 0 even, -1 slaves), which is what the
players aim for; card points are reported beside it. Players are deterministic (fixed
samples, no time cap), so a run repeats exactly.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from engine.ai import OpenHandPlayer, make_player
from engine.hand import Hand
from engine.players import Player
from engine.rules import make_rules
from engine.status import Status
from engine.view import seat_view


@dataclass
class DealResult:
    #: A's and B's outcome value and card points in each of the two hands (the mean over
    #: their seats: a seat's value is its team's).
    value_a: list[float] = field(default_factory=list)
    value_b: list[float] = field(default_factory=list)
    points_a: list[float] = field(default_factory=list)
    points_b: list[float] = field(default_factory=list)
    #: ``"A masters"``, ``"B ran away"``... one per hand.
    events: list[str] = field(default_factory=list)
    #: Per seat: its value when A held its cards minus its value when B did.
    seat_diffs: list[float] = field(default_factory=list)
    seat_points_diffs: list[float] = field(default_factory=list)

    @property
    def diff(self) -> float:
        """A's advantage on this pack: the mean, over the seats, of what the seat's cards
        were worth in A's hands minus in B's (with two alternating teams, the mean of A's
        team value minus B's over the two hands, as before)."""
        return statistics.fmean(self.seat_diffs)

    @property
    def points_diff(self) -> float:
        return statistics.fmean(self.seat_points_diffs)


def _status(game: str, kind: int, masters_team: int | None, dealer: int) -> Status:
    if masters_team is None:
        return Status()
    if game == "filko":
        servant = dealer if dealer % 2 != masters_team else (dealer + 1) % 4
        return Status(masters_team, servant)
    return Status(masters_team)


def play_hand(hand: Hand, players: list[Player]) -> Hand:
    while not hand.finished:
        seat = hand.actors()[0]
        player = players[seat]
        if isinstance(player, OpenHandPlayer):
            player.see(hand)
        hand.apply(seat, player.choose(seat_view(hand, seat)))
    return hand


def play_deal(game: str, a: str, b: str, seed: int, index: int,
              make: Callable[..., Player] = make_player) -> DealResult:
    """One pack played twice: A in the even seats, then in the odd ones. In games with a
    status (masters), a deal starts even or, two deals in three, with the dealer's opponents
    masters (A in one hand, B in the other); games without one (the Schafkopf family) always
    start afresh. ``make(level, seed=, timed=)`` makes the players (``make_player``; a
    benchmark may bring players of its own)."""
    rules = make_rules(game)
    rng = random.Random(f"arena|{seed}|{index}")
    pack = list(rules.pack)
    rng.shuffle(pack)
    dealer = rng.randrange(rules.players)
    kind = index % 3  # 0 even, else masters stand
    has_status = "masters" in rules.status_fields
    if not has_status:
        kind = 0
    out = DealResult()
    values: list[list[float]] = []
    points: list[list[float]] = []
    # The rules let no master deal while masters stand (a slave or the Servant does): the
    # masters are the dealer's opponents in both hands.
    masters = None if kind == 0 else rules.seat_teams[(dealer + 1) % rules.players]
    for a_team in (0, 1):
        status = _status(game, kind, masters, dealer)
        players: list[Player] = []
        a_seats = [s for s in range(rules.players) if s % 2 == a_team]
        for s in range(rules.players):
            level = a if s in a_seats else b
            players.append(make(level, seed=seed * 1000 + index * 10 + s, timed=False))
        hand = play_hand(Hand(rules, dealer, pack, status), players)
        result = hand.result
        assert result is not None
        outcome = (result.status if has_status
                   else rules.outcome(status, list(result.points)))
        payouts = rules.payouts(result)
        seat_values = list(payouts) if payouts is not None else [
            rules.outcome_value(status, outcome, hand.team[s]) for s in range(rules.players)]
        seat_points = [float(result.points[hand.team[s]]) for s in range(rules.players)]
        values.append(seat_values)
        points.append(seat_points)
        b_seats = [s for s in range(rules.players) if s not in a_seats]
        out.value_a.append(statistics.fmean(seat_values[s] for s in a_seats))
        out.value_b.append(statistics.fmean(seat_values[s] for s in b_seats))
        out.points_a.append(statistics.fmean(seat_points[s] for s in a_seats))
        out.points_b.append(statistics.fmean(seat_points[s] for s in b_seats))
        who = "" if result.team is None or not has_status else (
            "A " if result.team == a_team else "B ")
        out.events.append(who + result.event.replace("_", " "))
    # Hand 0: A in the even seats; hand 1: A in the odd ones.
    sign = [1.0 if s % 2 == 0 else -1.0 for s in range(rules.players)]
    out.seat_diffs = [sign[s] * (values[0][s] - values[1][s]) for s in range(rules.players)]
    out.seat_points_diffs = [sign[s] * (points[0][s] - points[1][s])
                             for s in range(rules.players)]
    return out


def _work(job: tuple[str, str, str, int, int, Callable[..., Player]]) -> DealResult:
    return play_deal(*job)


def _results(game: str, a: str, b: str, deals: int, seed: int, workers: int,
             make: Callable[..., Player], first: int = 0) -> Iterator[DealResult]:
    jobs = [(game, a, b, seed, i, make) for i in range(first, first + deals)]
    if workers <= 1:
        yield from map(_work, jobs)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(_work, jobs, chunksize=1)


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% confidence interval (normal approximation)."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, m, m
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def progress(done: int, total: int, started: float, err: TextIO) -> None:
    width = 30
    filled = width * done // max(total, 1)
    elapsed = time.perf_counter() - started
    eta = elapsed / done * (total - done) if done else 0.0
    err.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals "
              f"{elapsed:6.1f} s, ~{eta:5.0f} s left")
    if done == total:
        err.write("\n")
    err.flush()


def arena(game: str, a: str, b: str, deals: int, seed: int = 0, workers: int = 1,
          err: TextIO | None = sys.stderr, log: TextIO | None = None,
          make: Callable[..., Player] = make_player, first: int = 0) -> dict[str, Any]:
    """Play ``deals`` duplicate deals; with a ``log``, each deal's differences as a JSON line
    as soon as it is played (deals come in order, so a cut-short run is a fair sample).
    ``make`` makes the players, as in ``play_deal`` (a module-level function, so that the
    workers can be handed it). A deal is its seed and its number, so ``first`` goes on
    where a logged run of the same seed stopped: deals ``first``, ``first + 1``... are the
    ones that run would have played next."""
    started = time.perf_counter()
    results: list[DealResult] = []
    for r in _results(game, a, b, deals, seed, workers, make, first):
        results.append(r)
        if log is not None:
            log.write(json.dumps({"deal": first + len(results) - 1, "diff": r.diff,
                                  "points_diff": r.points_diff, "events": r.events}) + "\n")
            log.flush()
        if err is not None:
            progress(len(results), deals, started, err)
    diffs = [r.diff for r in results]
    m, lo, hi = mean_ci(diffs)
    pm, plo, phi = mean_ci([r.points_diff for r in results])
    events = Counter(e for r in results for e in r.events)
    hands = 2 * len(results)
    return {
        "game": game, "a": a, "b": b, "deals": len(results), "hands": hands, "seed": seed,
        "first": first,
        "points_per_hand": {
            "a": round(sum(p for r in results for p in r.points_a) / hands, 3),
            "b": round(sum(p for r in results for p in r.points_b) / hands, 3),
        },
        "outcomes": dict(sorted(events.items())),
        "value_per_hand": {
            "a": round(sum(v for r in results for v in r.value_a) / hands, 4),
            "b": round(sum(v for r in results for v in r.value_b) / hands, 4),
        },
        "diff_per_deal": {"mean": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)]},
        "points_diff_per_deal": {"mean": round(pm, 4), "ci95": [round(plo, 4), round(phi, 4)]},
        "seconds": round(time.perf_counter() - started, 1),
    }


def format_arena(r: dict[str, Any]) -> str:
    lines = [
        f"{r['game']}: {r['a']} (A) vs {r['b']} (B), {r['deals']} duplicate deals "
        f"({r['hands']} hands), seed {r['seed']}"
        + (f" from deal {r['first']}" if r["first"] else "") + f", {r['seconds']} s",
        f"  points per hand:  A {r['points_per_hand']['a']}  B {r['points_per_hand']['b']}",
        f"  outcome value per hand (+1 masters, 0 even, -1 slaves):  "
        f"A {r['value_per_hand']['a']}  B {r['value_per_hand']['b']}",
        "  status outcomes: " + ", ".join(f"{k}: {v}" for k, v in r["outcomes"].items()),
        f"  A - B outcome value per deal: {r['diff_per_deal']['mean']:+.4f} "
        f"(95% CI {r['diff_per_deal']['ci95'][0]:+.4f} .. {r['diff_per_deal']['ci95'][1]:+.4f})",
        f"  A - B card points per deal:   {r['points_diff_per_deal']['mean']:+.4f} "
        f"(95% CI {r['points_diff_per_deal']['ci95'][0]:+.4f} .. "
        f"{r['points_diff_per_deal']['ci95'][1]:+.4f})",
    ]
    return "\n".join(lines)
