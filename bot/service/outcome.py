"""What a request to a table did, as the table service answers it (``bot.service``).

An ``Outcome`` says what changed (the seat the actor has now, the moves, a new hand) and what
to tell the actor, as a sentence of the catalogs (``Words``: a key and its values, never a
surface's text): the Discord surface words it with mentions and markdown, the Activity as
plain text. A request that needs a yes first (leaving during a hand) changes nothing and
asks (``ask``).

>>> Words("hand.left").params
{}
>>> Outcome(seat=2, say=Words("hand.left")).changed
True
>>> Outcome(ask=Words("hand.leave_ask")).changed
False
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.session import Moves
from bot.store import HandRow
from engine.ai.analysis import Decision, Hint
from engine.view import SeatView


@dataclass(frozen=True)
class Words:
    """A sentence of the catalogs (``bot.texts``) and its values."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """What one request did (see the module docstring)."""

    #: The actor's seat (after the request: where they sat down; before it: where they left).
    seat: int | None = None
    #: The actions applied, and the hand's result if they ended it.
    moves: Moves | None = None
    #: A new hand was dealt (the table started, or Next hand).
    dealt: bool = False
    #: What to tell the actor.
    say: Words | None = None
    #: A question to answer first; nothing changed.
    ask: Words | None = None

    @property
    def changed(self) -> bool:
        return self.ask is None


#: The actor's own surface answers them as soon as the request is taken: the Discord click
#: within its 3 s, before the news goes out to every surface and the table moves on.
Reply = Callable[[Outcome], Awaitable[object]]


@dataclass(frozen=True)
class Advice:
    """A hint: what the computer would do in the asker's position, and each choice's
    chances, from the asker's own view."""

    seat: int
    view: SeatView
    hint: Hint


@dataclass(frozen=True)
class Review:
    """A finished hand for one who played in it: its stored row, their seat, and Hard's view
    of each decision they made."""

    row: HandRow
    seat: int
    decisions: list[Decision]
