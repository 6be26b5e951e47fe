"""What a tournament table's round left, read from its stored hands.

A finished hand is replayed from its record (``engine.replay``) and each seat gets its
*value*: what the hand was worth to the seat's side as the engine counts it
(``Rules.outcome_value``, from -1 to 1: the measure the computer players aim for and the
arena compares duplicate deals by), then the side's card points, counted against a side
that wants none (Schafkopf's *least*). Partners share a side (``Hand.team``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.store import HandRow, TournamentTable
from bot.tournaments.scoring import HandScore, TableRound, Value
from engine import Hand, replay


def seat_values(hand: Hand) -> tuple[tuple[Value, ...], tuple[int, ...]]:
    """A finished hand's value and side for each seat."""
    result = hand.result
    assert result is not None, "the hand is not finished"
    rules = hand.rules
    before = result.status_before
    outcome: Any = (result.status if "masters" in rules.status_fields
                    else rules.outcome(before, list(result.points)))
    values = []
    for seat in range(rules.players):
        team = hand.team[seat]
        points = float(result.points[team])
        wanted = points if rules.wants_points(hand, team) else -points
        values.append((float(rules.outcome_value(before, outcome, team)), wanted))
    return tuple(values), tuple(hand.team)


def hand_score(row: HandRow) -> HandScore | None:
    """A stored hand's score, or None while it is not finished."""
    if row.result is None:
        return None
    hand = replay(row.record())
    if hand.result is None:
        return None
    values, sides = seat_values(hand)
    return HandScore(row.number, values, sides)


def round_result(rows: Iterable[HandRow], hands: int) -> dict[str, Any]:
    """What a table's round left, as the tournament keeps it: its first ``hands`` hands'
    scores (a hand not finished counts for nobody)."""
    scores = [s for row in sorted(rows, key=lambda r: r.number) if row.number <= hands
              if (s := hand_score(row)) is not None]
    return {"hands": [{"number": s.number, "values": [list(v) for v in s.values],
                       "sides": list(s.sides)} for s in scores]}


def table_round(table: TournamentTable) -> TableRound:
    """A round's table as the scoring reads it (its hands once its result is kept)."""
    hands: list[HandScore] = []
    for raw in (table.result or {}).get("hands", []):
        hands.append(HandScore(int(raw["number"]),
                               tuple((float(v[0]), float(v[1])) for v in raw["values"]),
                               tuple(int(s) for s in raw["sides"])))
    return TableRound(table.round, table.number, tuple(table.seats), tuple(hands))


def table_rounds(tables: Sequence[TournamentTable]) -> list[TableRound]:
    """Every table whose round is over (its result kept)."""
    return [table_round(t) for t in tables if t.result is not None]
