"""A tournament's scores and standings: pure, from what each table's round left.

Every finished hand leaves, for each seat, a *value* (higher is better: what the hand was
worth to the seat's side as the engine counts it, then that side's card points as the side
wanted them, ``bot.tournaments.round_scores``) and the seat's *side* in that hand (partners share
one).

**Swiss.** A hand gives each seat *hand points*: 1 for every other side that did worse, ½ for
every other side that did as well, over the number of other sides; in a game of two sides
that is 1 for the winners, ½ each for a draw, 0 for the losers. The standings add them up.
Tie-breaks, in order: *Buchholz* (for each round, the average final score of the other
entrants at your table: who you met), then *hands won* (hands your side finished alone on
top), then who signed up first.

**Duplicate.** Every table of a round plays the same boards from the same seats, so each
seat's value on a board is compared with the same seat's at every other table that played
the board (the same cards): 1 *match point* for each table it beat, ½ for each it tied. The
standings add up the match points, shown also as a share of the most a player could have
had. Tie-breaks, in order: *tops* (boards where you beat every other table), then the hand
points at your own table (the Swiss score), then who signed up first. A board a table did
not finish counts for nobody at that table.

Fillers (computers seated where the entrants did not fill a table, ``cpu:LEVEL`` without an
``#``) are ranked nowhere and count as nobody met.

>>> two = HandScore(1, ((1.0, 90.0), (-1.0, 30.0), (1.0, 90.0), (-1.0, 30.0)), (0, 1, 0, 1))
>>> hand_points(two)
[1.0, 0.0, 1.0, 0.0]
>>> tied = HandScore(1, ((0.0, 60.0),) * 4, (0, 1, 0, 1))
>>> hand_points(tied)
[0.5, 0.5, 0.5, 0.5]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import fmean

#: What a hand was worth to a seat, comparable between seats and tables: (the outcome's
#: value for the seat's side, the side's card points as it wanted them).
Value = tuple[float, float]


def is_filler(entrant: str) -> bool:
    """A computer that only fills a seat (``cpu:LEVEL``); computer entrants are numbered."""
    return entrant.startswith("cpu:") and "#" not in entrant


@dataclass(frozen=True)
class HandScore:
    """One finished hand of one table: each seat's value and side."""

    number: int
    values: tuple[Value, ...]
    sides: tuple[int, ...]


@dataclass(frozen=True)
class TableRound:
    """What one table's round left: who sat where, and its finished hands."""

    round: int
    table: int
    seats: tuple[str, ...]
    hands: tuple[HandScore, ...] = ()


@dataclass(frozen=True)
class Standing:
    """One entrant's place: ``score`` (hand points, or match points in duplicate), the
    tie-breaks in the order they count, and the score of each round."""

    entrant: str
    place: int
    score: float
    tiebreaks: tuple[float, ...]
    rounds: tuple[float, ...]
    #: Duplicate: the match points as a share of the most possible (0-100); else None.
    percent: float | None = None


@dataclass
class _Tally:
    score: float = 0.0
    by_round: dict[int, float] = field(default_factory=lambda: defaultdict(float))
    hand_points: float = 0.0
    wins: int = 0
    tops: int = 0
    possible: float = 0.0
    met: list[list[str]] = field(default_factory=list)


def hand_points(hand: HandScore) -> list[float]:
    """Each seat's hand points (see the module docstring)."""
    side_value: dict[int, Value] = {}
    for side, value in zip(hand.sides, hand.values, strict=True):
        side_value.setdefault(side, value)
    others = len(side_value) - 1
    out = []
    for side in hand.sides:
        if others == 0:
            out.append(0.5)
            continue
        mine = side_value[side]
        beaten = sum(1 for s, v in side_value.items() if s != side and mine > v)
        tied = sum(1 for s, v in side_value.items() if s != side and mine == v)
        out.append((beaten + tied / 2) / others)
    return out


def match_points(boards: Mapping[int, Value]) -> dict[int, float]:
    """One seat of one board at each table that played it (table -> value): each table's
    match points against the others."""
    return {table: sum(1.0 if value > other else 0.5 if value == other else 0.0
                       for t, other in boards.items() if t != table)
            for table, value in boards.items()}


def _tallies(entrants: Sequence[str], tables: Iterable[TableRound]) -> dict[str, _Tally]:
    tallies = {e: _Tally() for e in entrants}
    for table in tables:
        for hand in table.hands:
            points = hand_points(hand)
            for seat, entrant in enumerate(table.seats):
                tally = tallies.get(entrant)
                if tally is None:
                    continue
                tally.hand_points += points[seat]
                if points[seat] == 1.0:
                    tally.wins += 1
        people = [e for e in table.seats if not is_filler(e)]
        for entrant in set(people):
            if entrant in tallies:
                tallies[entrant].met.append([e for e in people if e != entrant])
    return tallies


def _places(rows: Sequence[tuple[tuple[float, ...], int, Standing]]) -> list[Standing]:
    ordered = sorted(rows, key=lambda r: (tuple(-x for x in r[0]), r[1]))
    return [Standing(s.entrant, place, s.score, s.tiebreaks, s.rounds, s.percent)
            for place, (_, _, s) in enumerate(ordered, start=1)]


def swiss(entrants: Sequence[str], tables: Sequence[TableRound], rounds: int) -> list[Standing]:
    """The standings of a Swiss tournament (``entrants`` in the order they signed up)."""
    tallies = _tallies(entrants, tables)
    for table in tables:
        for hand in table.hands:
            points = hand_points(hand)
            for seat, entrant in enumerate(table.seats):
                if entrant in tallies:
                    tallies[entrant].by_round[table.round] += points[seat]
    for tally in tallies.values():
        tally.score = tally.hand_points
    rows = []
    for order, entrant in enumerate(entrants):
        tally = tallies[entrant]
        buchholz = sum(fmean(tallies[o].score for o in others if o in tallies)
                       for others in tally.met if any(o in tallies for o in others))
        key = (tally.score, float(buchholz), float(tally.wins))
        rows.append((key, order, Standing(entrant, 0, tally.score, key[1:],
                                          _by_round(tally, rounds))))
    return _places(rows)


def duplicate(entrants: Sequence[str], tables: Sequence[TableRound],
              rounds: int) -> list[Standing]:
    """The standings of a duplicate tournament (``entrants`` in the order they signed
    up)."""
    tallies = _tallies(entrants, tables)
    # Each board (round, hand) and seat: the value at every table that finished it.
    boards: dict[tuple[int, int, int], dict[int, Value]] = defaultdict(dict)
    for table in tables:
        for hand in table.hands:
            for seat, value in enumerate(hand.values):
                boards[(table.round, hand.number, seat)][table.table] = value
    for table in tables:
        for hand in table.hands:
            for seat, entrant in enumerate(table.seats):
                tally = tallies.get(entrant)
                if tally is None:
                    continue
                played = boards[(table.round, hand.number, seat)]
                mp = match_points(played)[table.table]
                tally.score += mp
                tally.by_round[table.round] += mp
                tally.possible += len(played) - 1
                if len(played) > 1 and mp == len(played) - 1:
                    tally.tops += 1
    rows = []
    for order, entrant in enumerate(entrants):
        tally = tallies[entrant]
        key = (tally.score, float(tally.tops), tally.hand_points)
        percent = 100 * tally.score / tally.possible if tally.possible else None
        rows.append((key, order, Standing(entrant, 0, tally.score, key[1:],
                                          _by_round(tally, rounds), percent)))
    return _places(rows)


def _by_round(tally: _Tally, rounds: int) -> tuple[float, ...]:
    return tuple(tally.by_round.get(r, 0.0) for r in range(1, rounds + 1))


def standings(format: str, entrants: Sequence[str], tables: Sequence[TableRound],
              rounds: int) -> list[Standing]:
    return (duplicate if format == "duplicate" else swiss)(entrants, tables, rounds)
