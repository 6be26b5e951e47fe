"""Pairing benchmark: how far each round's draw is from the fewest meetings again it could have.

    python -m benchmarks.pairing                 # 60 fields, the figures in docs/community.md
    python -m benchmarks.pairing --fields 6 --json

Random fields of 8-64 entrants (all people) play 3-7 rounds of a random game shape (tables
of 2, 3, 4 with and without fixed partners, 5, and 6 with fixed partners), Swiss or
duplicate, with random results (random hands scored by ``bot.tournaments.scoring``, so the
standings and their score groups are real). Each field is played twice, once with each
draw, each from its own history:

- **before**: the draw before issue 43 (kept here as it was, its peer in the same run):
  consecutive groups of the standings, one pass of swaps at the tables' borders, a snake
  draft over fixed sides;
- **after**: ``bot.tournaments.pairing.draw``.

For every round after the first, the draw's cost in meetings again (``History.repeats``:
1 for each time two at a table sat together before, 2 more for each time two partners were
partners before) is set against the **minimum** for that round's standings, history and
table sizes, found by a reference solver that knows nothing of the draw's weights:

- tables of two: a minimum-weight perfect matching on the meeting costs alone (exact);
- bigger tables of up to ``EXACT_UP_TO`` entrants: a branch and bound over every seating
  (tables and sides unordered), exact unless it runs out of ``NODES`` nodes;
- bigger fields: the best of ``LONG_RUNS`` annealings ten times longer than the draw's, from
  other seeds, and of the draw itself (not a proof; a round found at 0 is one).

Reported per draw: the mean excess over the minimum per round, the rounds whose minimum is 0
drawn above it, and over the rounds whose minimum is above 0 the excess as a share of the
minimum (summed, and the worst round); also the pairs meeting again (unweighted).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import networkx as nx

from bot.tournaments import pairing, scoring
from bot.tournaments.pairing import History, Layout
from bot.tournaments.scoring import HandScore, TableRound

FILL = "cpu:easy"
#: The game shapes drawn: a name and its table (sides where partners are fixed).
SHAPES: dict[str, Layout] = {
    "officers (2)": Layout(2),
    "schafkopf3 (3)": Layout(3),
    "filicau (4, partners)": Layout(4, (0, 1, 0, 1)),
    "schafkopf (4)": Layout(4),
    "filko5 (5)": Layout(5),
    "filko6 (6, partners)": Layout(6, (0, 1, 0, 1, 0, 1)),
}
EXACT_UP_TO = 16
NODES = 400_000
LONG_RUNS = 2
LONG_EFFORT = 10.0


# -- the draw before issue 43 (its peer) -------------------------------------------------------


def _meetings(group: Sequence[str], met: dict[frozenset[str], int]) -> int:
    return sum(met.get(frozenset((a, b)), 0) for a, b in combinations(group, 2))


def before_draw(ranked: Sequence[str], layout: Layout,
                tables_so_far: Sequence[Sequence[str]]) -> list[list[str]]:
    """The draw as it was: consecutive groups, one border-swap pass, a snake draft."""
    met: dict[frozenset[str], int] = {}
    for table in tables_so_far:
        people = [e for e in table if not scoring.is_filler(e)]
        for a, b in combinations(people, 2):
            met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    size = layout.size
    count = pairing.table_count(len(ranked), size)
    groups: list[list[str]] = []
    at = 0
    for people_here in pairing._group_sizes(len(ranked), count):
        groups.append(list(ranked[at:at + people_here]))
        at += people_here
    for i in range(len(groups) - 1):
        upper, lower = groups[i], groups[i + 1]
        if not upper or not lower:
            continue
        swapped_upper, swapped_lower = [*upper[:-1], lower[0]], [upper[-1], *lower[1:]]
        if (_meetings(swapped_upper, met) + _meetings(swapped_lower, met)
                < _meetings(upper, met) + _meetings(lower, met)):
            groups[i], groups[i + 1] = swapped_upper, swapped_lower
    return [_snake(group + [FILL] * (size - len(group)), layout.sides) for group in groups]


def _snake(group: Sequence[str], seat_teams: Sequence[int] | None) -> list[str]:
    """A snake draft over the fixed sides, best first (the ranking's order without)."""
    if seat_teams is None:
        return list(group)
    sides = sorted(set(seat_teams))
    room = {side: list(seat_teams).count(side) for side in sides}
    picks: dict[int, list[str]] = {side: [] for side in sides}
    forward = True
    queue: list[int] = []
    for entrant in group:
        if not queue:
            queue = sides[:] if forward else sides[::-1]
            forward = not forward
        while room[queue[0]] == len(picks[queue[0]]):
            queue.pop(0)
            if not queue:
                queue = sides[:] if forward else sides[::-1]
                forward = not forward
        picks[queue.pop(0)].append(entrant)
    out: list[str] = []
    taken = dict.fromkeys(sides, 0)
    for side in seat_teams:
        out.append(picks[side][taken[side]])
        taken[side] += 1
    return out


# -- the reference: the fewest meetings again -------------------------------------------------


@dataclass
class Minimum:
    cost: int
    proven: bool
    how: str


def _costs(ranked: Sequence[str], history: History) -> tuple[list[list[int]], list[list[int]]]:
    again = [[pairing.TABLE_AGAIN * history.together.get(pairing.pair(a, b), 0)
              for b in ranked] for a in ranked]
    partner = [[pairing.PARTNER_AGAIN * history.partners.get(pairing.pair(a, b), 0)
                for b in ranked] for a in ranked]
    return again, partner


def matched_minimum(ranked: Sequence[str], history: History) -> Minimum:
    """Tables of two: a maximum-weight perfect matching on the meetings alone."""
    n = len(ranked)
    again, _ = _costs(ranked, history)
    ends = n + n % 2
    top = max((again[a][b] for a in range(n) for b in range(n)), default=0) + 1
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(ends))
    for a in range(n):
        for b in range(a + 1, ends):
            graph.add_edge(a, b, weight=top - (again[a][b] if b < n else 0))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    cost = sum(again[a][b] for a, b in matching if a < n and b < n)
    return Minimum(cost, True, "matching")


def exact_minimum(ranked: Sequence[str], layout: Layout, history: History,
                  bound: int) -> Minimum | None:
    """Branch and bound over every seating of the round, tables and sides unordered; None
    where it ran out of nodes before a proof. ``bound``: a cost known to be reachable."""
    n, k = len(ranked), layout.size
    again, partner = _costs(ranked, history)
    people = pairing._group_sizes(n, pairing.table_count(n, k))
    sides = 2 if layout.sides is not None else 1
    room = k // sides if sides == 2 else k
    # The most met first: their choices prune most.
    order = sorted(range(n), key=lambda e: -sum(again[e]))
    members: list[list[list[int]]] = [[[] for _ in range(sides)] for _ in people]
    count = [0] * len(people)
    best = [bound]
    nodes = [0]

    def added(e: int, t: int, side: int) -> int:
        cost = 0
        for s in range(sides):
            for other in members[t][s]:
                cost += again[e][other] + (partner[e][other] if s == side else 0)
        return cost

    def bound_rest(at: int) -> int:
        """Each entrant still to seat adds at least its cheapest place among those seated."""
        total = 0
        for e in order[at:]:
            cheapest = None
            for t in range(len(people)):
                if count[t] == people[t]:
                    continue
                for side in range(sides):
                    if len(members[t][side]) < room:
                        c = added(e, t, side)
                        cheapest = c if cheapest is None or c < cheapest else cheapest
            total += cheapest or 0
        return total

    def search(at: int, cost: int) -> bool:
        nodes[0] += 1
        if nodes[0] > NODES:
            return False
        if at == n:
            best[0] = min(best[0], cost)
            return True
        if cost + bound_rest(at) >= best[0]:
            return True
        e = order[at]
        options = []
        empty_seen: set[int] = set()
        for t in range(len(people)):
            if count[t] == people[t]:
                continue
            if count[t] == 0:
                if people[t] in empty_seen:
                    continue  # empty tables of one size are alike
                empty_seen.add(people[t])
            for side in range(sides):
                if len(members[t][side]) >= room:
                    continue
                if side and not members[t][0] and not members[t][1]:
                    continue  # the sides of an empty table are alike
                options.append((added(e, t, side), t, side))
        options.sort()
        for c, t, side in options:
            if cost + c >= best[0]:
                break
            members[t][side].append(e)
            count[t] += 1
            finished = search(at + 1, cost + c)
            members[t][side].pop()
            count[t] -= 1
            if not finished:
                return False
        return True

    if bound == 0:
        return Minimum(0, True, "zero")
    if not search(0, 0):
        return None
    return Minimum(best[0], True, "branch and bound")


def minimum(ranked: Sequence[str], layout: Layout, history: History, seed: str,
            drawn: int) -> Minimum:
    if layout.size == 2:
        return matched_minimum(ranked, history)
    if drawn == 0:
        return Minimum(0, True, "zero")
    if len(ranked) <= EXACT_UP_TO:
        exact = exact_minimum(ranked, layout, history, drawn)
        if exact is not None:
            return exact
    cost = drawn
    for run in range(LONG_RUNS):
        tables = pairing.draw(ranked, layout, fill=FILL, history=history,
                              seed=f"{seed}/long{run}", effort=LONG_EFFORT)
        _check(tables, list(ranked), layout)  # a minimum only from a legal seating
        cost = min(cost, history.repeats(tables, layout))
    return Minimum(cost, cost == 0, "long annealing")


# -- a field --------------------------------------------------------------------------------


@dataclass
class Round:
    field: int
    shape: str
    format: str
    entrants: int
    round: int
    drawn: int
    rematches: int
    least: int
    proven: bool
    how: str
    seconds: float


def random_hands(rng: random.Random, layout: Layout, hands: int) -> tuple[HandScore, ...]:
    out = []
    k = layout.size
    for number in range(1, hands + 1):
        if layout.sides is not None:
            sides = layout.sides
        else:
            alone = rng.randrange(k)
            if k >= 4 and rng.random() < 0.6:
                mate = rng.choice([s for s in range(k) if s != alone])
                sides = tuple(0 if s in (alone, mate) else 1 for s in range(k))
            else:
                sides = tuple(0 if s == alone else 1 for s in range(k))
        worth = {side: (float(rng.choice((-1, 0, 1))), float(rng.randrange(120)))
                 for side in set(sides)}
        out.append(HandScore(number, tuple(worth[s] for s in sides), sides))
    return tuple(out)


Draw = Callable[[Sequence[str], Layout, "Tournament", str], list[list[str]]]


@dataclass
class Tournament:
    entrants: list[str]
    layout: Layout
    format: str
    played: list[TableRound] = field(default_factory=list)

    def history(self) -> History:
        return History.of([(t.round, t.seats) for t in self.played], self.layout)


def _after(ranked: Sequence[str], layout: Layout, tour: Tournament, seed: str
           ) -> list[list[str]]:
    scores = None
    if tour.format == "swiss" and tour.played:
        standings = scoring.standings(tour.format, tour.entrants, tour.played, 7)
        scores = {s.entrant: s.score for s in standings}
    return pairing.draw(ranked, layout, fill=FILL, history=tour.history(), scores=scores,
                        seed=seed)


def _before(ranked: Sequence[str], layout: Layout, tour: Tournament, seed: str
            ) -> list[list[str]]:
    return before_draw(ranked, layout, [t.seats for t in tour.played])


DRAWS: dict[str, Draw] = {"before": _before, "after": _after}


def play(number: int, seed: int, draw_name: str, most: int = 64) -> list[Round]:
    """Field ``number`` of the run ``seed``, drawn by ``draw_name``: its rounds after the
    first, each against its minimum."""
    rng = random.Random(f"field {seed}/{number}")
    shape = rng.choice(sorted(SHAPES))
    layout = SHAPES[shape]
    n = rng.randint(8, max(8, most))
    rounds = rng.randint(3, 7)
    fmt = rng.choice(("swiss", "duplicate"))
    hands = rng.randint(1, 3)
    entrants = [f"p{i:02d}" for i in range(n)]
    tour = Tournament(entrants, layout, fmt)
    results = random.Random(f"results {seed}/{number}")  # the same for both draws
    out = []
    for r in range(1, rounds + 1):
        if r == 1:
            ranked = pairing.shuffled(entrants, f"{seed}/{number}")
        else:
            ranked = [s.entrant for s in scoring.standings(fmt, entrants, tour.played, rounds)]
        history = tour.history()
        clock = time.process_time()
        tables = DRAWS[draw_name](ranked, layout, tour, f"{seed}/{number}:{r}")
        seconds = time.process_time() - clock
        _check(tables, entrants, layout)
        if r > 1:
            drawn = history.repeats(tables, layout)
            least = minimum(ranked, layout, history, f"{seed}/{number}:{r}", drawn)
            if least.cost > drawn:  # the draw found better than the reference: it is the bar
                least = Minimum(drawn, False, least.how)
            out.append(Round(number, shape, fmt, n, r, drawn, history.rematches(tables),
                             least.cost, least.proven, least.how, seconds))
        for t, seats in enumerate(tables, start=1):
            tour.played.append(TableRound(r, t, tuple(seats),
                                          random_hands(results, layout, hands)))
    return out


def _check(tables: list[list[str]], entrants: list[str], layout: Layout) -> None:
    seated = sorted(e for t in tables for e in t if e != FILL)
    assert seated == sorted(entrants), "every entrant seated once"
    assert all(len(t) == layout.size for t in tables)
    people = [sum(1 for e in t if e != FILL) for t in tables]
    assert max(people) - min(people) <= 1, "people per table as even as can be"


# -- the report -------------------------------------------------------------------------------


def summary(rounds: list[Round]) -> dict[str, Any]:
    zero = [r for r in rounds if r.least == 0]
    above = [r for r in rounds if r.least > 0]
    excess = sum(r.drawn - r.least for r in above)
    return {
        "rounds": len(rounds),
        "mean_excess": round(sum(r.drawn - r.least for r in rounds) / max(1, len(rounds)), 3),
        "rounds_min_0": len(zero),
        "rounds_min_0_drawn_above": sum(1 for r in zero if r.drawn > 0),
        "rounds_min_above_0": len(above),
        "excess_over_min_percent": round(100 * excess / max(1, sum(r.least for r in above)),
                                         1),
        "worst_round_percent": round(max((100 * (r.drawn - r.least) / r.least
                                          for r in above), default=0.0), 1),
        "rematches_mean": round(sum(r.rematches for r in rounds) / max(1, len(rounds)), 2),
        "proven_minimum_share": round(sum(r.proven for r in rounds) / max(1, len(rounds)), 3),
        "draw_seconds_max": round(max((r.seconds for r in rounds), default=0.0), 3),
        "draw_seconds_mean": round(sum(r.seconds for r in rounds) / max(1, len(rounds)), 4),
    }


def run(fields: int, seed: int, draws: Sequence[str] = tuple(DRAWS), most: int = 64
        ) -> dict[str, Any]:
    report: dict[str, Any] = {"fields": fields, "seed": seed, "most": most}
    for name in draws:
        rounds = [r for number in range(fields) for r in play(number, seed, name, most)]
        report[name] = summary(rounds)
        by_shape: dict[str, list[Round]] = {}
        for r in rounds:
            by_shape.setdefault(r.shape, []).append(r)
        report[f"{name}_by_shape"] = {s: summary(rs) for s, rs in sorted(by_shape.items())}
    return report


def table(report: dict[str, Any]) -> str:
    keys = [("mean_excess", "mean excess a round"),
            ("rounds_min_0_drawn_above", "rounds with minimum 0 drawn above it"),
            ("excess_over_min_percent", "excess over a minimum above 0, %"),
            ("worst_round_percent", "worst round, % over its minimum"),
            ("rematches_mean", "pairs meeting again a round")]
    lines = [f"{report['fields']} fields, seed {report['seed']}, "
             f"{report['after']['rounds']} rounds after the first "
             f"({report['after']['rounds_min_0']} with minimum 0 for the new draw); "
             f"minimum proven for {100 * report['after']['proven_minimum_share']:.0f} %",
             "", "| | before | after |", "|---|---|---|"]
    lines += [f"| {label} | {report['before'][k]} | {report['after'][k]} |"
              for k, label in keys]
    lines += ["", "| shape | rounds | before: excess % / min-0 above | after |",
              "|---|---|---|---|"]
    for shape, after in report["after_by_shape"].items():
        before = report["before_by_shape"][shape]
        lines.append(f"| {shape} | {after['rounds']} | {before['excess_over_min_percent']} / "
                     f"{before['rounds_min_0_drawn_above']} | "
                     f"{after['excess_over_min_percent']} / "
                     f"{after['rounds_min_0_drawn_above']} |")
    lines.append(f"\nthe new draw's time a round: mean {report['after']['draw_seconds_mean']} s,"
                 f" most {report['after']['draw_seconds_max']} s (CPU)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.pairing",
                                     description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--fields", type=int, default=60)
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--most", type=int, default=64, help="entrants a field at most")
    parser.add_argument("--json", action="store_true", help="the report as JSON")
    args = parser.parse_args(argv)
    report = run(args.fields, args.seed, most=args.most)
    print(json.dumps(report, indent=1) if args.json else table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())

