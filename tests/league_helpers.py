"""For the leagues' tests: a clock the test sets, and hands as their stored results."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.leagues.months import instant
from bot.store import ResultRow

GUILD = 810_000_000_000_000_001
OTHER_GUILD = 810_000_000_000_000_002
#: A game whose teams form in the deal and whose hands score players: the side with the
#: higher score wins (``bot.ratings.model.placings``).
GAME = "schafkopf"


class Clock:
    """The time the test says it is (aware, UTC)."""

    def __init__(self, at: str) -> None:
        self.now = instant(at)

    def set(self, at: str) -> datetime:
        self.now = instant(at)
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now

    def stamp(self) -> str:
        return self.now.isoformat(timespec="microseconds")


_ids = itertools.count(1)


def hand(winners: Sequence[str], losers: Sequence[str], at: str | datetime, *,
         guild: int = GUILD, game: str = GAME, hand_id: int | None = None,
         tied: bool = False) -> ResultRow:
    """A finished hand that ``winners`` won against ``losers`` (all tied when ``tied``)."""
    members = [*winners, *losers]
    scores = dict.fromkeys(members, 0) if tied else {
        **dict.fromkeys(winners, 10), **dict.fromkeys(losers, -10)}
    return ResultRow(
        hand_id=next(_ids) if hand_id is None else hand_id, guild_id=guild, game=game,
        team_a=[], team_b=[], points_a=0, points_b=0, masters_before=None,
        masters_after=None, event="won", event_team=None,
        finished_at=at if isinstance(at, str) else at.isoformat(timespec="microseconds"),
        members=members, scores=scores)


def rated(*rows: ResultRow) -> list[tuple[ResultRow, bool]]:
    return [(row, True) for row in rows]


def lines(table: Any) -> list[list[tuple[str, str]]]:
    """A table's divisions as (player, move) lines, in order."""
    return [[(s.player, s.move) for s in d.standings] for d in table.divisions]
