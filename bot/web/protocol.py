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
- ``act``: reserved for a seated, proven player (issue 36); a spectator's is refused with
  ``error``/``not_seated``.

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


Incoming = Annotated[Resume | Act, Field(discriminator="type")]
_INCOMING: TypeAdapter[Resume | Act] = TypeAdapter(Incoming)


def read(text: str) -> Resume | Act | None:
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
    """Who is at the other end of a socket. Today always a spectator (the public view);
    issue 36's Activity makes a ``player`` of a user whose Discord identity the bot checked
    (``user_id``), who receives their own seat's view and may send ``act``."""

    role: Role = "spectator"
    user_id: int | None = None
    seat: int | None = None


SPECTATOR = Viewer()


@dataclass(frozen=True)
class Hello:
    viewer: dict[str, Any]
    watch: str
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
    v: int = VERSION
    type: str = "error"


Outgoing = Hello | StepMessage | Clock | Gone | Error


def dump(message: Outgoing) -> str:
    return json.dumps(asdict(message), separators=(",", ":"), ensure_ascii=False)


def hello(viewer: Viewer, watch: str) -> Hello:
    return Hello(viewer={"role": viewer.role, "seat": viewer.seat}, watch=watch)


__all__ = ["VERSION", "Act", "Clock", "Error", "Gone", "Hello", "Resume", "StepMessage",
           "Viewer", "dump", "hello", "read"]
