"""Who sits where each round of a tournament: the draw. Pure (no I/O), and reproducible: the
same standings, history and seed give the same tables (``docs/community.md``, *The draw*).

The entrants come ranked, best first (the standings; the first round: a seeded shuffle of the
sign-ups). The tables are as few as the seats allow (``table_count``), their people as even
as can be; a computer fills each seat left over (``fill``: ranked nowhere, met by nobody),
and that seat is the bot's *bye*. Every entrant is seated once, and every table has a
person. Then the draw weighs, each strictly before all that follow it:

- **Meeting again** (``History.repeats``): ``TABLE_AGAIN`` for each time two at a table sat
  at one table before, ``PARTNER_AGAIN`` more for each time two partners (where partners
  are fixed) were partners before: none where that can be, else as few as can be.
- At tables of two (the Swiss system's rules, exactly): no second bye while someone has had
  none; the bye to the lowest-ranked; no two who must both have one colour (``must_have``);
  the score groups (``scores``; a player floats to the nearest group where they must);
  the colours each would like (``colour_cost``); neighbours in the ranking.
- At bigger tables, as one weighed sum below the meetings: the score groups (each pair of
  table-mates, how many places apart their scores put them), the short tables to those
  who sat at one least and then to the bottom, the two sides' strength (no side stacks
  the table's best), colours and seats.

In duplicate (``scores`` None) there are no score groups: the tables mix freely, as a
player is compared with the same seat at the other tables. A *colour* is a side where
partners are fixed, the seat at a table of two (``Layout.colour``).

Tables of two are paired by a minimum-cost perfect matching (the blossom algorithm,
``networkx``): exact. Bigger tables are drawn by simulated annealing over seat swaps from two
starts, a tabu search while people still meet again, and a descent to a local minimum; the
moves are counted, not timed, and every random number comes from ``seed``: the same input,
the same draw, in any process (``benchmarks/pairing.py`` sets it against the minimum).

>>> draw(list("abcdefg"), Layout(4), fill="cpu:easy")
[['a', 'b', 'c', 'd'], ['e', 'f', 'g', 'cpu:easy']]

a and b, c and d met in round 1, a and c in seat 0: round 2 has no rematch, everyone
changes colour, and the bye of the odd field goes to the lowest-ranked:

>>> before = History.of([(1, ["a", "b"]), (1, ["c", "d"])], Layout(2))
>>> draw(list("abcde"), Layout(2), fill="cpu:easy", history=before)
[['d', 'a'], ['b', 'c'], ['e', 'cpu:easy']]
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import networkx as nx

from bot.tournaments.scoring import is_filler

#: The cost of two people at one table again, for each time they sat at one before.
TABLE_AGAIN = 1
#: What two partners add for each time they were partners before (so partners again cost 3,
#: three times sitting at one table again: choosing whom you play *with* decides more).
PARTNER_AGAIN = 2
#: Annealing moves per seat of the round, for each start (``effort`` multiplies it).
MOVES_PER_SEAT = 80
#: Starts of the annealing: the ranked draw, then a seeded shuffle.
STARTS = 2
#: The tabu search's budget where people still meet again: swaps weighed by their meetings
#: again (``effort`` multiplies it; a constant step each, ``_tabu``), and the least number
#: of steps for which a swap taken may not be undone (as many again at random on top).
TABU_SWAPS = 1_000_000
TABU_TENURE = 8
#: ... and it ends after this many steps a seat without a better draw (``effort`` multiplies
#: it): where nobody need meet again the last meeting can take a few thousand steps to go,
#: where somebody must the search would only spend the rest of its budget.
TABU_PATIENCE = 100
#: A bigger table's bye weighs, for each time before, like floating this many places.
SHORT_AGAIN_PLACES = 2

#: Two entrants, the lesser first.
Pair = tuple[str, str]


def pair(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


def is_person(entrant: str) -> bool:
    """A member's user id (computers are ``cpu:...``)."""
    return not entrant.startswith("cpu:")


def shuffled(entrants: Sequence[str], seed: str) -> list[str]:
    """The first round's order: the sign-ups shuffled by the tournament's seed."""
    order = list(entrants)
    random.Random(seed).shuffle(order)
    return order


def table_count(entrants: int, size: int) -> int:
    return max(1, math.ceil(entrants / size))


def _group_sizes(n: int, tables: int) -> list[int]:
    """People per table: as even as can be, the upper tables fuller."""
    return [n // tables + (1 if i < n % tables else 0) for i in range(tables)]


@dataclass(frozen=True)
class Layout:
    """A table's seats: how many, and each seat's side where partners are fixed (Filicău:
    ``(0, 1, 0, 1)``, seats 0 and 2 against 1 and 3); None where sides form in the deal.

    >>> Layout(4, (0, 1, 0, 1)).colour(2), Layout(2).colour(1), Layout(3).colour(1)
    (0, 1, None)
    """

    size: int
    sides: tuple[int, ...] | None = None

    def colour(self, seat: int) -> int | None:
        """A seat's *colour*: its side where partners are fixed, the seat itself at a table
        of two, else none (no seat of a table moves first by right: the first dealer is
        drawn by chance)."""
        if self.sides is not None:
            return self.sides[seat]
        return seat if self.size == 2 else None

    def partners(self, a: int, b: int) -> bool:
        return self.sides is not None and a != b and self.sides[a] == self.sides[b]


@dataclass(frozen=True)
class History:
    """What the rounds so far leave the next draw: who sat together and who were partners
    (how often), who sat at a table a computer filled, and each one's seats and colours by
    round.

    >>> h = History.of([(1, ["a", "b", "c", "cpu:easy"])], Layout(4, (0, 1, 0, 1)))
    >>> h.together[("a", "b")], h.partners.get(("a", "c")), h.short["a"], h.colours["b"]
    (1, 1, 1, (1,))
    >>> h.repeats([["a", "b", "c", "d"]], Layout(4, (0, 1, 0, 1)))  # a and c partners again
    5
    """

    together: Mapping[Pair, int] = field(default_factory=dict)
    partners: Mapping[Pair, int] = field(default_factory=dict)
    #: Rounds each sat at a table a computer filled (the bye, ``draw``).
    short: Mapping[str, int] = field(default_factory=dict)
    seats: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    colours: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, tables: Iterable[tuple[int, Sequence[str]]], layout: Layout | None = None
           ) -> History:
        """From the tables played, each with its round (seats in order, fillers too)."""
        layout = layout or Layout(0)
        together: dict[Pair, int] = {}
        partners: dict[Pair, int] = {}
        short: dict[str, int] = {}
        seats: dict[str, list[int]] = {}
        colours: dict[str, list[int]] = {}
        for _, table in sorted(tables, key=lambda rt: rt[0]):
            people = [(s, e) for s, e in enumerate(table) if not is_filler(e)]
            for (s, a), (u, b) in combinations(people, 2):
                key = pair(a, b)
                together[key] = together.get(key, 0) + 1
                if len(table) == layout.size and layout.partners(s, u):
                    partners[key] = partners.get(key, 0) + 1
            alone = len(people) == 1  # a bye at a table of two: no colour
            for s, e in people:
                if len(people) < len(table):
                    short[e] = short.get(e, 0) + 1
                seats.setdefault(e, []).append(s)
                colour = layout.colour(s) if len(table) == layout.size else None
                if colour is not None and not alone:
                    colours.setdefault(e, []).append(colour)
        return cls(together, partners, short, {e: tuple(s) for e, s in seats.items()},
                   {e: tuple(c) for e, c in colours.items()})

    def repeats(self, tables: Iterable[Sequence[str]], layout: Layout) -> int:
        """What these tables cost in meetings again (``TABLE_AGAIN``, ``PARTNER_AGAIN``)."""
        cost = 0
        for table in tables:
            people = [(s, e) for s, e in enumerate(table) if not is_filler(e)]
            for (s, a), (u, b) in combinations(people, 2):
                key = pair(a, b)
                cost += TABLE_AGAIN * self.together.get(key, 0)
                if layout.partners(s, u):
                    cost += PARTNER_AGAIN * self.partners.get(key, 0)
        return cost

    def rematches(self, tables: Iterable[Sequence[str]]) -> int:
        """How many pairs at these tables sat at one table before."""
        return sum(1 for table in tables
                   for a, b in combinations([e for e in table if not is_filler(e)], 2)
                   if self.together.get(pair(a, b), 0))


def colour_cost(past: Sequence[int], colour: int) -> int:
    """What giving ``colour`` to a player whose colours were ``past`` costs: how many more
    of it than of the other they would have had (none if fewer), and 2 more for a third
    time running.

    >>> colour_cost((), 0), colour_cost((0,), 0), colour_cost((0,), 1), colour_cost((1, 1), 1)
    (1, 2, 0, 5)
    """
    same = sum(1 for c in past if c == colour)
    cost = max(0, 2 * same - len(past) + 1)
    if len(past) >= 2 and past[-1] == past[-2] == colour:
        cost += 2
    return cost


def draw(ranked: Sequence[str], layout: Layout, *, fill: str,
         history: History | None = None, scores: Mapping[str, float] | None = None,
         seed: str = "", person: Callable[[str], bool] = is_person,
         effort: float = 1.0) -> list[list[str]]:
    """The round's tables, seated (``fill`` for a computer filling a seat), best-ranked
    table first. ``scores``: the Swiss standings' scores (score groups); None: no score
    groups (duplicate, or a first round). ``effort`` scales the search at bigger tables."""
    costs = _Field(ranked, layout, history or History(), scores, person)
    if layout.size == 2:
        tables = _matched(costs, random.Random(f"{seed}/colours"))
    else:
        tables = _annealed(costs, seed, effort)
    n = len(ranked)
    tables.sort(key=lambda seats: min(seats))
    return [[fill if e == n else ranked[e] for e in seats] for seats in tables]


# -- the costs -------------------------------------------------------------------------------

class _Field:
    """The round's entrants by rank (0 the best) and every cost of the draw as integers."""

    def __init__(self, ranked: Sequence[str], layout: Layout, history: History,
                 scores: Mapping[str, float] | None, person: Callable[[str], bool]) -> None:
        n = self.n = len(ranked)
        k = self.k = layout.size
        self.layout = layout
        self.people = _group_sizes(n, table_count(n, k))
        self.person = [person(e) for e in ranked]
        rounds = 1 + max((len(s) for s in history.seats.values()), default=0)
        self.rounds = rounds
        # Score groups: a player's level is how many score more (equal scores, one level).
        if scores is None:
            self.swiss = False
            self.level = [0] * n
        else:
            self.swiss = True
            values = [round(float(scores.get(e, 0.0)), 9) for e in ranked]
            self.level = [sum(1 for v in values if v > mine) for mine in values]
        # Strength for the tables: the score group first, then the rank within it.
        self.strength = [(n + 1) * lvl + i for i, lvl in enumerate(self.level)] \
            if self.swiss else [0] * n
        self.again = [[TABLE_AGAIN * history.together.get(pair(a, b), 0) for b in ranked]
                      for a in ranked]
        self.partner_again = [[PARTNER_AGAIN * history.partners.get(pair(a, b), 0)
                               for b in ranked] for a in ranked]
        self.short_before = [history.short.get(e, 0) for e in ranked]
        self.past_colours = [history.colours.get(e, ()) for e in ranked]
        self.past_seats = [history.seats.get(e, ()) for e in ranked]

    def colour(self, entrant: int, seat: int) -> int:
        colour = self.layout.colour(seat)
        return 0 if colour is None else colour_cost(self.past_colours[entrant], colour)

    def seat(self, entrant: int, seat: int) -> int:
        return sum(1 for s in self.past_seats[entrant] if s == seat)


# -- tables of two: a matching ---------------------------------------------------------------


def must_have(past: Sequence[int]) -> int | None:
    """The colour a player must have next where it can be: the other one after the same
    twice running, or after two more of one than of the other.

    >>> must_have((0, 0)), must_have((0, 1, 0)), must_have((1, 0, 1, 1)), must_have((0, 1))
    (1, None, 0, None)
    """
    if len(past) >= 2 and past[-1] == past[-2]:
        return 1 - past[-1]
    ones = sum(past)
    if abs(2 * ones - len(past)) >= 2:
        return 0 if 2 * ones > len(past) else 1
    return None


def _weights(parts: Sequence[Sequence[int]], pairs: int) -> list[int]:
    """Weights that order the parts of a cost strictly, the first outweighing all the rest
    of any ``pairs`` tables together (``parts``: each table's parts, most important first).

    >>> _weights([(1, 3), (0, 1)], 2)
    [7, 1]
    """
    tops = [max((p[i] for p in parts), default=0) for i in range(len(parts[0]))] \
        if parts else []
    weights = [0] * len(tops)
    below = 0
    for i in range(len(tops) - 1, -1, -1):
        weights[i] = below + 1
        below += weights[i] * pairs * tops[i]
    return weights


def _matched(f: _Field, coin: random.Random) -> list[list[int]]:
    """Pairs of a minimum-cost perfect matching; an odd field pairs one entrant with the
    filler (node ``n``: the bye). The cost of a pair has parts in the order of the module
    docstring, weighed so that each outranks all the later ones together (``_weights``):
    meeting again, a second bye, the bye above the lowest-ranked, two who must both have
    the same colour, the score groups apart, the colours' costs, the ranks apart."""
    n = f.n
    ends = n + n % 2
    must = [must_have(f.past_colours[e]) for e in range(n)]
    parts: dict[tuple[int, int], tuple[int, ...]] = {}
    straight: dict[tuple[int, int], bool] = {}
    for a in range(n):
        for b in range(a + 1, n):
            if not (f.person[a] or f.person[b]):
                continue  # a table of computers only
            ways = (f.colour(a, 0) + f.colour(b, 1), f.colour(a, 1) + f.colour(b, 0))
            straight[(a, b)] = ways[0] < ways[1] or (ways[0] == ways[1] and coin.random() < .5)
            clash = must[a] is not None and must[a] == must[b]
            parts[(a, b)] = (f.again[a][b], 0, 0, int(clash),
                             abs(f.level[a] - f.level[b]) if f.swiss else 0, min(ways),
                             b - a if f.swiss else 0)
        if ends > n and f.person[a]:
            straight[(a, n)] = True
            parts[(a, n)] = (0, f.short_before[a], n - 1 - a, 0, 0, 0, 0)
    weights = _weights(list(parts.values()), ends // 2)
    costs = {edge: sum(w * p for w, p in zip(weights, part, strict=True))
             for edge, part in parts.items()}
    top = max(costs.values(), default=0) + 1
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(ends))
    for (a, b), cost in costs.items():
        graph.add_edge(a, b, weight=top - cost)
    tables = []
    for a, b in sorted(tuple(sorted(e)) for e in nx.max_weight_matching(graph,
                                                                        maxcardinality=True)):
        if b == n:  # the bye: the seat the player's colours ask for (a bye counts none)
            tables.append([a, b] if f.colour(a, 0) <= f.colour(a, 1) else [b, a])
        else:
            tables.append([a, b] if straight[(a, b)] else [b, a])
    return tables


# -- bigger tables: annealing ----------------------------------------------------------------


class _Tables:
    """One draw of bigger tables being improved: each table's seats and cost. The filler is
    entrant ``n`` (a zero row in every cost)."""

    def __init__(self, f: _Field) -> None:
        self.f = f
        k = f.k
        n = self.filler = f.n
        # The costs below the meetings, as integers: score groups (pairs' strength apart),
        # the short tables (to those who had fewest, then the lowest-ranked), the sides'
        # balance, colours and seats.
        self.short = [SHORT_AGAIN_PLACES * (n + 1) * f.short_before[i] + (n - 1 - i)
                      for i in range(n)] + [0]
        self.seat_cost = [[4 * f.colour(i, s) + f.seat(i, s) for s in range(k)]
                          for i in range(n)] + [[0] * k]
        big = (n + 1) * (n + 1)
        secondary = (len(f.people) * (k * (k - 1) // 2 + k) * big
                     + n * (SHORT_AGAIN_PLACES * (n + 1) * f.rounds + n)
                     + n * (4 * (f.rounds + 3) + f.rounds) + 1)
        #: One meeting again outweighs everything else the draw weighs.
        self.unit = secondary
        strength = f.strength
        apart = [[self.unit * f.again[a][b] + abs(strength[a] - strength[b])
                  for b in range(n)] + [0] for a in range(n)] + [[0] * (n + 1)]
        partners = [[apart[a][b] + self.unit * f.partner_again[a][b] for b in range(n)]
                    + [0] for a in range(n)] + [[0] * (n + 1)]
        layout = f.layout
        #: Each two seats of a table, with what two entrants there cost.
        self.seat_pairs = [(s, u, partners if layout.partners(s, u) else apart)
                           for s, u in combinations(range(k), 2)]
        #: For each seat, the others with what an entrant there and one here cost.
        self.around = [[(u, partners if layout.partners(s, u) else apart)
                        for u in range(k) if u != s] for s in range(k)]
        self.sides = list(layout.sides) if layout.sides is not None and f.swiss else None
        self.strength = [*strength, 0]
        self.is_person = [*f.person, False]
        self.seats: list[list[int]] = []
        self.cost: list[int] = []
        self.total = 0

    def table_cost(self, seats: list[int]) -> int:
        cost = 0
        for s, u, between in self.seat_pairs:
            cost += between[seats[s]][seats[u]]
        seat_cost = self.seat_cost
        for s, a in enumerate(seats):
            cost += seat_cost[a][s]
        filler = self.filler
        if filler in seats:
            short = self.short
            cost += sum(short[a] for a in seats)
        if self.sides is not None and seats.count(filler) % 2 == 0:
            strength = self.strength
            sums = [0, 0]
            counts = [0, 0]
            for side, a in zip(self.sides, seats, strict=True):
                if a != filler:
                    sums[side] += strength[a]
                    counts[side] += 1
            if counts[0] == counts[1]:
                cost += abs(sums[0] - sums[1])
        return cost

    def start(self, seats: list[list[int]]) -> None:
        self.seats = [list(t) for t in seats]
        self.cost = [self.table_cost(t) for t in self.seats]
        self.total = sum(self.cost)

    def try_swap(self, t: int, s: int, u: int, v: int) -> int | None:
        """Swap seat s of table t with seat v of table u: the change of cost, or None where
        it is not allowed (the even spread of people, a person at every table)."""
        seats = self.seats
        here, there = seats[t], seats[u]
        a, b = here[s], there[v]
        if a == b:  # two fillers
            return None
        if t == u:
            here[s], here[v] = b, a
            new = self.table_cost(here)
            here[s], here[v] = a, b
            return new - self.cost[t]
        filler = self.filler
        # A person may take a filler's seat only from a table of one more person: the
        # people per table stay as even as can be.
        if a == filler and here.count(filler) != there.count(filler) + 1:
            return None
        if b == filler and there.count(filler) != here.count(filler) + 1:
            return None
        is_person = self.is_person
        if (is_person[a] != is_person[b]
                and not any(is_person[e] for e in (here if is_person[a] else there)
                            if e != a and e != b)):
            return None  # it would leave a table without a person
        if a == filler or b == filler:
            here[s], there[v] = b, a
            delta = (self.table_cost(here) + self.table_cost(there)
                     - self.cost[t] - self.cost[u])
            here[s], there[v] = a, b
            return delta
        # Two entrants change tables: only what each costs with its table-mates changes.
        seat_cost = self.seat_cost
        delta = seat_cost[b][s] - seat_cost[a][s] + seat_cost[a][v] - seat_cost[b][v]
        for w, between in self.around[s]:
            x = here[w]
            delta += between[b][x] - between[a][x]
        for w, between in self.around[v]:
            x = there[w]
            delta += between[a][x] - between[b][x]
        if filler in here:
            delta += self.short[b] - self.short[a]
        if filler in there:
            delta += self.short[a] - self.short[b]
        if self.sides is not None:
            delta += self._rebalanced(here, s, b) + self._rebalanced(there, v, a)
        return delta

    def _rebalanced(self, seats: list[int], s: int, new: int) -> int:
        """What the sides' balance of a table changes by if ``new`` takes seat ``s``."""
        assert self.sides is not None
        strength = self.strength
        filler = self.filler
        sums = [0, 0]
        counts = [0, 0]
        for side, a in zip(self.sides, seats, strict=True):
            if a != filler:
                sums[side] += strength[a]
                counts[side] += 1
        if counts[0] != counts[1]:
            return 0
        before = abs(sums[0] - sums[1])
        sums[self.sides[s]] += strength[new] - strength[seats[s]]
        return abs(sums[0] - sums[1]) - before

    def swap(self, t: int, s: int, u: int, v: int) -> None:
        seats = self.seats
        seats[t][s], seats[u][v] = seats[u][v], seats[t][s]
        old = self.cost[t] + (self.cost[u] if u != t else 0)
        self.cost[t] = self.table_cost(seats[t])
        if u != t:
            self.cost[u] = self.table_cost(seats[u])
        self.total += self.cost[t] + (self.cost[u] if u != t else 0) - old


def _ranked_start(f: _Field, order: Sequence[int]) -> list[list[int]]:
    """Tables cut from ``order`` in turn (fuller tables first), fillers in the last seats,
    then every table given a person (a table of computers takes the nearest person of a
    table that has two)."""
    groups: list[list[int]] = []
    at = 0
    for count in f.people:
        groups.append(list(order[at:at + count]))
        at += count
    for i, group in enumerate(groups):
        if any(f.person[e] for e in group):
            continue
        for j in [*range(i + 1, len(groups)), *range(i - 1, -1, -1)]:
            others = [k for k, e in enumerate(groups[j]) if f.person[e]]
            if len(others) >= 2:
                k = others[0] if j > i else others[-1]
                group[-1], groups[j][k] = groups[j][k], group[-1]
                break
    return [group + [f.n] * (f.k - len(group)) for group in groups]


def _anneal(tables: _Tables, rng: random.Random, moves: int) -> None:
    """Simulated annealing over seat swaps: half the moves cool from well above one meeting
    again to well below it, the other half over the smaller costs."""
    f = tables.f
    k = f.k
    seats = len(tables.seats) * k
    unit = tables.unit
    # Hot enough to take a meeting again often, cold enough to take none; then from about
    # a float of one place per seat to nothing.
    half = moves // 2
    phases = ((2.0 * unit, unit / 30.0, half), (float((f.n + 1) * k), 0.5, moves - half))
    best_cost = tables.total
    best = [list(t) for t in tables.seats]
    draw = rng.random
    exp = math.exp
    cost = tables.cost
    for phase, (high, low, count) in enumerate(phases):
        ratio = (low / high) ** (1.0 / max(1, count))
        heat = high
        for _ in range(count):
            heat *= ratio
            t, s = divmod(int(draw() * seats), k)
            if not phase and draw() < 0.5:
                # Half the moves of the first phase start at a table where people meet
                # again: that is where the draw can still get better.
                again = [x for x, c in enumerate(cost) if c >= unit]
                if again:
                    t = again[int(draw() * len(again))]
            u, v = divmod(int(draw() * seats), k)
            if t == u and s == v:
                continue
            delta = tables.try_swap(t, s, u, v)
            if delta is None or (delta > 0 and draw() >= exp(-delta / heat)):
                continue
            tables.swap(t, s, u, v)
            if tables.total < best_cost:
                best_cost = tables.total
                best = [list(x) for x in tables.seats]
    tables.start(best)


def _descend(tables: _Tables) -> None:
    """Take any swap that lowers the cost until none does: a local minimum."""
    count = len(tables.seats)
    k = tables.f.k
    seats = [(t, s) for t in range(count) for s in range(k)]
    better = True
    while better:
        better = False
        for i, (t, s) in enumerate(seats):
            for u, v in seats[i + 1:]:
                delta = tables.try_swap(t, s, u, v)
                if delta is not None and delta < 0:
                    tables.swap(t, s, u, v)
                    better = True


def _tabu(tables: _Tables, rng: random.Random, swaps: int, patience: int) -> None:
    """Conflict-directed tabu search: at a table where people meet again, take the best
    swap of one of its seats with a seat of another table, even a worse one, but not one
    that undoes a recent swap unless it beats the best so far.

    The swaps are weighed first by the meetings again alone, from a running count of what
    each entrant meets again at each table (graph colouring's tabu search keeps the same):
    a constant step a swap instead of the whole cost, so the search takes many more steps
    in the same time, and only the swaps that meet least again are weighed whole."""
    f = tables.f
    k = f.k
    unit = tables.unit
    seats = tables.seats
    count = len(seats)
    filler = tables.filler
    met = [[*row, 0] for row in f.again] + [[0] * (filler + 1)]
    #: What each entrant (the filler too: nothing) meets again at each table.
    meets = [[sum(met[e][x] for x in table) for table in seats] for e in range(filler + 1)]
    best_cost = tables.total
    best = [list(t) for t in seats]
    tabu: dict[tuple[int, int], int] = {}
    draw = rng.random
    step = better = 0
    while swaps > 0 and step - better < patience:
        step += 1
        again = [x for x, c in enumerate(tables.cost) if c >= unit]
        if not again:
            break
        t = again[int(draw() * len(again))]
        here = seats[t]
        weighed: list[tuple[int, int, int, int]] = []
        for s, a in enumerate(here):
            mine = meets[a]
            if a == filler or not mine[t]:
                continue  # only those who meet someone again move
            met_a = met[a]
            for u in range(count):
                if u == t:
                    continue
                swaps -= k
                gain = mine[u] - mine[t]
                for v, b in enumerate(seats[u]):
                    theirs = meets[b]
                    weighed.append((gain - 2 * met_a[b] + theirs[t] - theirs[u], s, u, v))
        weighed.sort()
        choice = None
        for meeting, s, u, v in weighed:
            if choice is not None and meeting > choice[0][0]:
                break  # the least meeting again that can be taken: weighed whole
            delta = tables.try_swap(t, s, u, v)
            if delta is None:
                continue
            a, b = here[s], seats[u][v]
            key = (a, b) if a < b else (b, a)
            if tabu.get(key, -1) >= step and tables.total + delta >= best_cost:
                continue
            rank = (meeting, delta, draw())
            if choice is None or rank < choice[0]:
                choice = (rank, s, u, v, key)
        if choice is None:
            continue
        _, s, u, v, key = choice
        a, b = here[s], seats[u][v]
        tables.swap(t, s, u, v)
        for e in range(filler + 1):
            row, met_e = meets[e], met[e]
            row[t] += met_e[b] - met_e[a]
            row[u] += met_e[a] - met_e[b]
        tabu[key] = step + TABU_TENURE + int(draw() * TABU_TENURE)
        if tables.total < best_cost:
            best_cost, better = tables.total, step
            best = [list(x) for x in seats]
    tables.start(best)


def _annealed(f: _Field, seed: str, effort: float) -> list[list[int]]:
    moves = max(1, int(MOVES_PER_SEAT * effort * len(f.people) * f.k))
    best: list[list[int]] | None = None
    best_cost = 0
    tables = _Tables(f)
    for start in range(STARTS):
        rng = random.Random(f"{seed}/{start}")
        order = list(range(f.n))
        if start:
            rng.shuffle(order)
        tables.start(_ranked_start(f, order))
        _anneal(tables, rng, moves)
        if best is None or tables.total < best_cost:
            best, best_cost = [list(t) for t in tables.seats], tables.total
    assert best is not None
    tables.start(best)
    if tables.total >= tables.unit and len(f.people) > 1:
        _tabu(tables, random.Random(f"{seed}/tabu"), int(effort * TABU_SWAPS),
              int(effort * TABU_PATIENCE * len(f.people) * f.k))
    _descend(tables)
    return tables.seats
