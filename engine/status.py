"""What a table carries from hand to hand: who are masters, who deals, what a match stands at.

One frozen value for every game; each game uses the fields it needs and leaves the rest None,
and ``Rules.check_status`` refuses what its game cannot hold. Seats are seat numbers at the
table; the bot stores them as members so that the same people find their status again
whatever seats they take.

>>> Status(masters=1, servant=2).to_json()
{'masters': 1, 'servant': 2}
>>> Status.from_json({"masters": 0, "servant": None, "score": [3, 7]}).score
(3, 7)
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from engine.errors import RecordError


class Kind(StrEnum):
    """What a status field holds, so that whoever keeps a status for people rather than
    seats (the bot) can translate every field without knowing the games.

    >>> FIELD_KINDS["servant"], FIELD_KINDS["score"]
    (<Kind.SEAT: 'seat'>, <Kind.SCORE: 'score'>)
    """

    #: One team number (``masters``).
    TEAM = "team"
    #: One seat number (``servant``, ``leader``).
    SEAT = "seat"
    #: One entry per seat (``teams``, ``solos``).
    PER_SEAT = "per_seat"
    #: One entry per seat when the game scores seats (``Rules.score_by_seat``), else one
    #: per team.
    SCORE = "score"
    #: A plain number, the same whoever sits where (``trump``, ``deals``).
    PLAIN = "plain"


def _kind(kind: Kind) -> Any:
    return field(default=None, metadata={"kind": kind})


@dataclass(frozen=True, init=False)
class Status:
    """``masters``: the masters' team (in 4-player games 0 = seats 0 and 2, 1 = seats 1 and 3)
    or None when even. ``servant``: the seat that must deal every hand, or None.

    Games whose standing teams are not the seating order (5-player Filkó) keep ``teams``, the
    team of each seat while masters stand, with the ``trump`` suit and first ``leader`` they
    carry on with. Games played as a match keep ``score`` (game or victory points, per team or
    per seat as the game says) and ``deals`` played so far; Wendish with Muss-Solo keeps the
    Lust Solos each seat has played in the match (``solos``); Bavarian Schafkopf keeps each
    seat's running balance (``score``) and the Stock's ``pot``."""

    masters: int | None = _kind(Kind.TEAM)
    servant: int | None = _kind(Kind.SEAT)
    teams: tuple[int, ...] | None = _kind(Kind.PER_SEAT)
    trump: int | None = _kind(Kind.PLAIN)
    leader: int | None = _kind(Kind.SEAT)
    score: tuple[int, ...] | None = _kind(Kind.SCORE)
    deals: int | None = _kind(Kind.PLAIN)
    solos: tuple[int, ...] | None = _kind(Kind.PER_SEAT)
    #: A pot carried from deal to deal (Bavarian Schafkopf's Stock): what the players paid in
    #: and nobody has taken out yet, so that ``sum(score) + pot == 0``.
    pot: int | None = _kind(Kind.PLAIN)

    def __init__(
        self, masters: int | None = None, servant: int | None = None,
        teams: tuple[int, ...] | None = None, trump: int | None = None,
        leader: int | None = None, score: tuple[int, ...] | None = None,
        deals: int | None = None, solos: tuple[int, ...] | None = None,
        pot: int | None = None,
    ) -> None:
        # A status is made after every hand (and every search playout): one dict for all
        # fields costs half what a frozen dataclass's object.__setattr__ per field does.
        object.__setattr__(self, "__dict__", {
            "masters": masters, "servant": servant, "teams": teams, "trump": trump,
            "leader": leader, "score": score, "deals": deals, "solos": solos, "pot": pot,
        })

    @property
    def even(self) -> bool:
        return self.masters is None

    def to_json(self) -> dict[str, Any]:
        """``masters`` and ``servant`` always (the 4-player records' shape), the rest only
        when set."""
        out: dict[str, Any] = {"masters": self.masters, "servant": self.servant}
        for name in FIELD_KINDS:
            if name in ("masters", "servant"):
                continue
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | None) -> Status:
        if obj is None:
            return cls()
        if not isinstance(obj, Mapping):
            raise RecordError(f"status must be an object, not {obj!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise RecordError(f"unknown status field(s): {', '.join(map(str, unknown))}")
        values: dict[str, Any] = {}
        for name in known:
            v = obj.get(name)
            if FIELD_KINDS[name] in LIST_KINDS:
                if v is not None:
                    if not isinstance(v, list | tuple) or not all(_is_int(x) for x in v):
                        raise RecordError(f"status.{name} must be a list of numbers or null")
                    v = tuple(v)
            elif v is not None and not _is_int(v):
                raise RecordError(f"status.{name} must be a number or null, not {v!r}")
            values[name] = v
        return cls(**values)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


#: Every status field and what it holds, in the order of ``Status``.
FIELD_KINDS: dict[str, Kind] = {f.name: f.metadata["kind"] for f in fields(Status)}
# ``Status.__init__`` is written out (for speed): a field added to the class alone would be
# refused as an argument, so the two lists are compared once, at import.
if list(inspect.signature(Status.__init__).parameters)[1:] != list(FIELD_KINDS):
    raise TypeError("Status.__init__ must take every Status field, in order")
#: The kinds whose value is a list.
LIST_KINDS = frozenset({Kind.PER_SEAT, Kind.SCORE})

EVEN = Status()

__all__ = ["EVEN", "FIELD_KINDS", "LIST_KINDS", "Kind", "RecordError", "Status"]
