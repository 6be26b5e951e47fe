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

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from engine.errors import RecordError

#: Fields holding one seat number (the bot maps them to members and back).
SEAT_FIELDS = ("servant", "leader")
#: Fields holding one entry per seat (``teams``, ``solos``; ``score`` when a game scores
#: seats).
PER_SEAT_FIELDS = ("teams", "solos")


@dataclass(frozen=True, slots=True)
class Status:
    """``masters``: the masters' team (in 4-player games 0 = seats 0 and 2, 1 = seats 1 and 3)
    or None when even. ``servant``: the seat that must deal every hand, or None.

    Games whose standing teams are not the seating order (5-player Filkó) keep ``teams``, the
    team of each seat while masters stand, with the ``trump`` suit and first ``leader`` they
    carry on with. Games played as a match keep ``score`` (game or victory points, per team or
    per seat as the game says) and ``deals`` played so far; Wendish with Muss-Solo keeps the
    Lust Solos each seat has played in the match (``solos``); Bavarian Schafkopf keeps each
    seat's running balance (``score``) and the Stock's ``pot``."""

    masters: int | None = None
    servant: int | None = None
    teams: tuple[int, ...] | None = None
    trump: int | None = None
    leader: int | None = None
    score: tuple[int, ...] | None = None
    deals: int | None = None
    solos: tuple[int, ...] | None = None
    #: A pot carried from deal to deal (Bavarian Schafkopf's Stock): what the players paid in
    #: and nobody has taken out yet, so that ``sum(score) + pot == 0``.
    pot: int | None = None

    @property
    def even(self) -> bool:
        return self.masters is None

    def to_json(self) -> dict[str, Any]:
        """``masters`` and ``servant`` always (the 4-player records' shape), the rest only
        when set."""
        out: dict[str, Any] = {"masters": self.masters, "servant": self.servant}
        for name in ("teams", "trump", "leader", "score", "deals", "solos", "pot"):
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
            if name in ("teams", "score", "solos"):
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


EVEN = Status()

__all__ = ["EVEN", "PER_SEAT_FIELDS", "SEAT_FIELDS", "RecordError", "Status"]
