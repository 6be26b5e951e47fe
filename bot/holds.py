"""Seats held for invited players (``/table new invite:``, ``/crossplay invite``): who may
take an open seat. Pure.

A table keeps its holds in its runtime state (``HELD``: member -> until when, as a POSIX
time), so that they survive a restart. A hold keeps one open seat for its member until it
runs out — an empty seat, or between hands one a person may take (a computer's, or one whose
player left mid-hand): somebody else may sit down only while more seats are open than there
are holds for people not seated yet. The invited take any free seat; a seated member's hold keeps
nothing (should they leave, it keeps their seat again until it runs out). The opener may
still give a held seat to a computer: the invitation was theirs.

>>> runtime = {HELD: {"7": 1000.0, "8": 500.0}}
>>> active(runtime, now=600.0)
{'7': 1000.0}
>>> free_for("9", free=2, seated=[], runtime=runtime, now=600.0)
1
>>> free_for("9", free=1, seated=[], runtime=runtime, now=600.0)
0
>>> free_for("7", free=1, seated=[], runtime=runtime, now=600.0)
1
>>> free_for("9", free=1, seated=["7"], runtime=runtime, now=600.0)
1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: The key of the holds in a table's runtime state.
HELD = "held"


def active(runtime: Mapping[str, Any], now: float) -> dict[str, float]:
    """The holds still running: member -> until when."""
    held = runtime.get(HELD)
    if not isinstance(held, dict):
        return {}
    out: dict[str, float] = {}
    for member, until in held.items():
        if isinstance(until, int | float) and not isinstance(until, bool) and until > now:
            out[str(member)] = float(until)
    return out


def holding(member: str, seated: Iterable[str | None], runtime: Mapping[str, Any],
            now: float) -> dict[str, float]:
    """The running holds that keep a seat from ``member``: those of others not seated."""
    present = set(seated)
    return {m: until for m, until in active(runtime, now).items()
            if m != member and m not in present}


def free_for(member: str, *, free: int, seated: Iterable[str | None],
             runtime: Mapping[str, Any], now: float) -> int:
    """How many of ``free`` empty seats ``member`` may take now."""
    if member in active(runtime, now):
        return free
    return max(0, free - len(holding(member, seated, runtime, now)))


def until_of(member: str, seated: Iterable[str | None], runtime: Mapping[str, Any],
             now: float) -> float | None:
    """When the first hold that keeps a seat from ``member`` runs out (for the refusal)."""
    held = holding(member, seated, runtime, now)
    return min(held.values()) if held else None


def with_holds(runtime: Mapping[str, Any], members: Iterable[str], until: float,
               now: float) -> dict[str, float]:
    """The holds after holding a seat for each of ``members`` until ``until`` (the ones run
    out dropped)."""
    held = active(runtime, now)
    for member in members:
        held[member] = until
    return held
