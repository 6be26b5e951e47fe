"""The status a partnership carries from hand to hand: who are masters, who is Servant."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class RecordError(ValueError):
    """A record, status or option that cannot describe a legal hand."""


@dataclass(frozen=True, slots=True)
class Status:
    """``masters``: the masters' team (0 = seats 0 and 2, 1 = seats 1 and 3) or None when even.
    ``servant``: the seat that must deal every hand (Filkó), or None."""

    masters: int | None = None
    servant: int | None = None

    @property
    def even(self) -> bool:
        return self.masters is None

    def to_json(self) -> dict[str, Any]:
        return {"masters": self.masters, "servant": self.servant}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | None) -> Status:
        if obj is None:
            return cls()
        if not isinstance(obj, Mapping):
            raise RecordError(f"status must be an object, not {obj!r}")
        masters, servant = obj.get("masters"), obj.get("servant")
        for name, v in (("masters", masters), ("servant", servant)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise RecordError(f"status.{name} must be a number or null, not {v!r}")
        return cls(masters, servant)


EVEN = Status()
