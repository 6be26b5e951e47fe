"""Who sits at which table each round: Swiss pairing for tables of any size. Pure.

The entrants come ranked, best first (the standings after the last round; for the first
round a seeded shuffle of the sign-ups). Swiss pairing by score, for tables of ``size``:

1. The ranked entrants are cut into consecutive groups, one per table: the players of like
   score meet. The tables are as few as the seats allow (``ceil(n / size)``); where the seats
   outnumber the entrants the groups at the bottom are one short, and a computer fills each
   seat left over (``fill``, marked as such and ranked nowhere).
2. Every table needs a person (the bot plays no table of computers only): a group of
   computer entrants alone takes the nearest person below (or above) it in the ranking.
3. Rematches are avoided where that costs little: for each two neighbouring tables, the last
   of the upper and the first of the lower swap places if that makes fewer pairs who met
   before sit together (one pass, top to bottom; a person never leaves the only table they
   would keep a person at).
4. Seats: where partners are fixed (Filicău: seats 0 and 2 against 1 and 3) the group's best
   and worst make one side and the middle two the other (in general: a snake draft over the
   sides, best first), so that no side stacks the table's best players; otherwise the
   seats follow the ranking.

>>> draw(["a", "b", "c", "d", "e", "f", "g"], 4, fill="cpu:easy")
[['a', 'b', 'c', 'd'], ['e', 'f', 'g', 'cpu:easy']]
>>> seat(["a", "b", "c", "d"], (0, 1, 0, 1))
['a', 'b', 'd', 'c']
>>> draw(["cpu:easy#1", "cpu:easy#2", "x", "y"], 2, fill="cpu:easy",
...      person=lambda e: not e.startswith("cpu:"))
[['cpu:easy#1', 'x'], ['cpu:easy#2', 'y']]
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Mapping, Sequence

Met = Mapping[frozenset[str], int]


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


def _meetings(group: Sequence[str], met: Met) -> int:
    return sum(met.get(frozenset((a, b)), 0)
               for i, a in enumerate(group) for b in group[i + 1:])


def _persons(group: Sequence[str], person: Callable[[str], bool]) -> int:
    return sum(1 for e in group if person(e))


def draw(ranked: Sequence[str], size: int, *, fill: str, met: Met | None = None,
         person: Callable[[str], bool] = is_person) -> list[list[str]]:
    """The round's tables, each a list of ``size`` entrants (``fill`` for a computer that
    fills a seat), best-ranked group first. The seats are not yet assigned (``seat``)."""
    met = met or {}
    tables = table_count(len(ranked), size)
    groups: list[list[str]] = []
    at = 0
    for count in _group_sizes(len(ranked), tables):
        groups.append(list(ranked[at:at + count]))
        at += count
    _give_each_a_person(groups, person)
    for i in range(len(groups) - 1):
        upper, lower = groups[i], groups[i + 1]
        if not upper or not lower:
            continue
        a, b = upper[-1], lower[0]
        swapped_upper, swapped_lower = [*upper[:-1], b], [a, *lower[1:]]
        if (_persons(swapped_upper, person) == 0 or _persons(swapped_lower, person) == 0):
            continue
        if (_meetings(swapped_upper, met) + _meetings(swapped_lower, met)
                < _meetings(upper, met) + _meetings(lower, met)):
            groups[i], groups[i + 1] = swapped_upper, swapped_lower
    return [group + [fill] * (size - len(group)) for group in groups]


def _give_each_a_person(groups: list[list[str]], person: Callable[[str], bool]) -> None:
    """A group without a person swaps its last entrant for the nearest person of a group
    that has two or more (below first, then above)."""
    for i, group in enumerate(groups):
        if _persons(group, person) or not group:
            continue
        order = list(range(i + 1, len(groups))) + list(range(i - 1, -1, -1))
        for j in order:
            other = groups[j]
            if _persons(other, person) < 2:
                continue
            # The person of that group nearest in rank to this one.
            candidates = [k for k, e in enumerate(other) if person(e)]
            k = candidates[0] if j > i else candidates[-1]
            group[-1], other[k] = other[k], group[-1]
            break


def seat(group: Sequence[str], seat_teams: Sequence[int] | None) -> list[str]:
    """One table's seats from its group (best first): a snake draft over the fixed sides,
    or the ranking's order where sides form in the deal (``seat_teams`` None)."""
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
    taken = {side: 0 for side in sides}
    for side in seat_teams:
        out.append(picks[side][taken[side]])
        taken[side] += 1
    return out


def meetings(tables: Collection[Sequence[str]], fill_prefix: str = "cpu:") -> dict[
        frozenset[str], int]:
    """How often each two entrants sat together in these tables (fillers are nobody)."""
    out: dict[frozenset[str], int] = {}
    for table in tables:
        people = [e for e in table if not (e.startswith(fill_prefix) and "#" not in e)]
        for i, a in enumerate(people):
            for b in people[i + 1:]:
                key = frozenset((a, b))
                out[key] = out.get(key, 0) + 1
    return out
