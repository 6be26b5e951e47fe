"""The table socket's messages: typed JSON, every message with its protocol version ``v``.

Server to page, in order on one socket:

- ``hello``: who the connection is (``viewer``: its role, and its seat once a proven player
  sits — issue 36's Activity), and how the table is watched (``watch``).
- ``step``: the table after ``at`` actions of hand ``hand`` (a stored hand id; ``number`` is
  the table's hand number), with the ``move`` that led there (None for a snapshot: the first
  message, or after a jump) and ``deadline`` (wall-clock seconds when the wait for the people
  to act ends, or None). Steps of one hand come in order, one per action, never twice.
- ``clock``: only the deadline changed.
- ``gone``: the page has nothing more to show (``reason``: ``closed`` table, watching
  ``off``, link ``revoked``); the server closes the socket after it.
- ``error``: a message of the page was refused (``reason``), nothing changed.

Page to server:

- ``resume``: the last step the page has (``hand``, ``at``): the server sends the steps
  after it (a page that reconnects, to this process or another, misses no move), or a
  snapshot if that hand is no longer the table's.
- ``act``: a proven player's action (the Activity, ``bot.web.activity``): the engine's JSON
  of it, with the step it was chosen at (``hand``, ``at``) and, if the page says, its
  ``seat``; anything not the player's now is refused with ``error``, nothing changed. A
  table page's (a spectator's) is refused with ``error``/``not_seated``.
- ``seat``: a proven player's seat change (``op``: ``leave``, ``sit`` with a ``team`` at a
  table of fixed partnerships, ``back`` after the computer took over their turns, ``next``
  to deal the next hand of hand ``hand``).
- ``hint``: a proven player asks what the computer would play at step (``hand``, ``at``).

The Activity's sockets get besides: ``step`` messages with ``mine`` (the player's own seat,
``bot.web.seatview``), ``notice`` (a public notice of the table: a seat left, the computer
plays for a seat) and ``answer`` (a hint, for its asker only).

>>> read('{"v": 1, "type": "resume", "hand": 3, "at": 5}')
Resume(v=1, type='resume', hand=3, at=5)
>>> read('{"v": 1, "type": "resume", "hand": 3, "at": -1}') is None
True
>>> read('{"v": 2, "type": "resume", "hand": 3, "at": 5}') is None
True
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

VERSION = 1

#: A socket message a page may send at most (bytes): anything longer is refused unread.
MAX_MESSAGE = 4096


class _In(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")

    v: Literal[1]


class Resume(_In):
    type: Literal["resume"]
    hand: int | None = Field(default=None, ge=0, lt=2**63)
    at: int = Field(default=0, ge=0, le=10_000)


class Act(_In):
    type: Literal["act"]
    hand: int = Field(ge=0, lt=2**63)
    at: int = Field(ge=0, le=10_000)
    action: dict[str, Any]
    #: The seat the page acts for (it must be the player's own).
    seat: int | None = Field(default=None, ge=0, le=16)


class SeatChange(_In):
    type: Literal["seat"]
    op: Literal["leave", "sit", "back", "next"]
    team: Literal[0, 1] | None = None
    hand: int | None = Field(default=None, ge=0, lt=2**63)


class Hint(_In):
    type: Literal["hint"]
    hand: int = Field(ge=0, lt=2**63)
    at: int = Field(ge=0, le=10_000)


Message = Resume | Act | SeatChange | Hint
Incoming = Annotated[Message, Field(discriminator="type")]
_INCOMING: TypeAdapter[Message] = TypeAdapter(Incoming)


def read(text: str) -> Message | None:
    """A page's message, or None for anything this version does not define."""
    if len(text) > MAX_MESSAGE:
        return None
    try:
        return _INCOMING.validate_python(json.loads(text))
    except (ValueError, ValidationError):
        return None


Role = Literal["spectator", "player"]


@dataclass(frozen=True)
class Viewer:
    """Who is at the other end of a socket: a spectator of a table's page (the public view),
    or someone in the table's channel's Activity whose Discord identity the bot checked
    (``user_id``): a ``player`` while they hold a seat, who receives their own seat's view
    and may send ``act``; else a spectator who sees what the channel sees."""

    role: Role = "spectator"
    user_id: int | None = None
    seat: int | None = None


SPECTATOR = Viewer()


@dataclass(frozen=True)
class Hello:
    viewer: dict[str, Any]
    watch: str
    #: For the Activity: the table's settings its page follows (``confirm``: a card is
    #: played with a second tap) and where its card pictures are.
    table: dict[str, Any] | None = None
    v: int = VERSION
    type: str = "hello"


@dataclass(frozen=True)
class StepMessage:
    hand: int
    number: int
    at: int
    state: dict[str, Any]
    move: dict[str, Any] | None
    deadline: float | None
    #: True when the page sees the table one trick behind.
    delayed: bool = False
    #: The server's clock when the message was made: a page counts the deadline down by
    #: the server's clock, not by its own (a phone's may be off by minutes).
    now: float = 0.0
    v: int = VERSION
    type: str = "step"


@dataclass(frozen=True)
class SeatStep(StepMessage):
    """A step as the player of a seat sees it: the table, and their own part of it."""

    #: ``bot.web.seatview.seat_state`` of the player's seat in this hand (None: they hold no
    #: seat in it), with ``status``: what the table's live side says of the seat.
    mine: dict[str, Any] | None = None


@dataclass(frozen=True)
class Notice:
    """A public notice of the table (``key``: a sentence of the catalogs), worded."""

    key: str
    seat: int
    text: str
    v: int = VERSION
    type: str = "notice"


@dataclass(frozen=True)
class Answer:
    """An answer to one player's question (a hint about stored hand ``hand``), for them
    only."""

    text: str
    hand: int
    v: int = VERSION
    type: str = "answer"


@dataclass(frozen=True)
class Clock:
    deadline: float | None
    now: float = 0.0
    v: int = VERSION
    type: str = "clock"


GoneReason = Literal["closed", "off", "revoked"]


@dataclass(frozen=True)
class Gone:
    reason: GoneReason
    v: int = VERSION
    type: str = "gone"


@dataclass(frozen=True)
class Error:
    reason: str
    #: The refusal in the asker's language (the Activity shows it).
    text: str | None = None
    v: int = VERSION
    type: str = "error"


Outgoing = Hello | StepMessage | Clock | Gone | Error | Notice | Answer


#: Fields left out of a message while they are None (the pages' messages stay as they were).
_OPTIONAL = frozenset({"text", "table"})


def dump(message: Outgoing) -> str:
    data = {k: v for k, v in asdict(message).items() if v is not None or k not in _OPTIONAL}
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def hello(viewer: Viewer, watch: str, table: dict[str, Any] | None = None) -> Hello:
    return Hello(viewer={"role": viewer.role, "seat": viewer.seat}, watch=watch, table=table)


__all__ = ["VERSION", "Act", "Answer", "Clock", "Error", "Gone", "Hello", "Hint", "Notice",
           "Resume", "SeatChange", "SeatStep", "StepMessage", "Viewer", "dump", "hello",
           "read"]
