"""Placeholder."""
from __future__ import annotations

from typing import Any


def suggest(rules: Any, view: Any) -> Any:
    return None

def determinize(rules: Any, view: Any, hidden: Any) -> Any:
    from engine.status import RecordError
    raise RecordError("not yet")
