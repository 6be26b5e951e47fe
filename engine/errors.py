"""The engine's exception types, under one base so that a caller can catch them all.

>>> from engine.errors import EngineError, OptionsError, RecordError
>>> e = OptionsError("filko", [("top_trumps", "spades_high", "literal_error",
...                             "Input should be 'standard', 'hearts_seven' or 'leaves_low'")])
>>> isinstance(e, RecordError) and isinstance(e, EngineError)
True
>>> e.option, e.value, e.reason
('top_trumps', 'spades_high', 'literal_error')
>>> str(e)
"bad options for filko: top_trumps: Input should be 'standard', 'hearts_seven' or 'leaves_low'"
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple


class EngineError(ValueError):
    """Anything the engine refuses: a bad record, option, card code, notation or action."""


class RecordError(EngineError):
    """A record, status or option that cannot describe a legal hand."""


class OptionProblem(NamedTuple):
    """One option the game refuses. ``option`` is its name (``"options"`` when the problem is
    the options object itself), ``value`` what was given (None when absent), ``reason`` a
    stable key (pydantic's error type: ``extra_forbidden``, ``literal_error``, ``bool_type``,
    ``value_error``...) and ``message`` the English sentence."""

    option: str
    value: Any
    reason: str
    message: str


class OptionsError(RecordError):
    """A game's options that its options model refuses (an unknown option, a value out of
    range). Each problem is kept as data, so that the bot can word it in the user's language;
    ``str(error)`` is the English summary. A ``RecordError`` too, because a record with bad
    options is a bad record."""

    def __init__(self, game: str, problems: Sequence[tuple[str, Any, str, str]]) -> None:
        self.game = game
        self.problems = tuple(OptionProblem(*p) for p in problems)
        text = "; ".join(f"{p.option}: {p.message}" for p in self.problems)
        super().__init__(f"bad options for {game}: {text}")

    @property
    def option(self) -> str:
        """The first refused option's name."""
        return self.problems[0].option if self.problems else "options"

    @property
    def value(self) -> Any:
        return self.problems[0].value if self.problems else None

    @property
    def reason(self) -> str:
        return self.problems[0].reason if self.problems else "invalid"
