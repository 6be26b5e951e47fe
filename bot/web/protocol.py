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
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter, ValidationError

from bot.voice.wire import Span, Spans

VERSION: Literal[1] = 1

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


# -- server to page ------------------------------------------------------------------------------
#
# Every message a page receives, described once: these models are what the server sends
# (built with them, dumped by them), and the Activity's TypeScript types are generated from
# their JSON Schema (``python -m bot.web.schema``; CI checks that the generated file is
# current). A field left out of a message while it holds its default says so
# (``exclude_if``): the messages keep the shape the pages have always read.


def _none(value: object) -> bool:
    return value is None


def _false(value: object) -> bool:
    return value is False


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SeatState(_Out):
    """A seat as the table shows it: who sits there, their team letter (where teams have
    letters), their side's role once public (``declarer``, ``defenders``, ``old_man``...),
    their badges worded, the cards they hold and the card points they took (where each
    seat counts its own)."""

    name: str
    team: str | None = None
    role: str | None = Field(default=None, exclude_if=_none)
    badges: Spans = []
    cards: int = 0
    taken: int | None = None


class Played(_Out):
    seat: int
    card: str


class TrickState(_Out):
    cards: list[Played]
    winner: int


class Trump(_Out):
    """Trump as the game defines it: the suit (None: a game of permanent trumps alone, or
    of none) and the words (the permanent trumps, the suit, the cards shown for it)."""

    suit: str | None
    text: Spans


class TableState(_Out):
    """The table at one moment, as everybody may see it (``bot.web.views.table_state``)."""

    title: str
    heading: Spans
    number: int
    players: int
    seats: list[SeatState]
    #: The seats to act now.
    turn: list[int] = []
    #: The phase when it is not play (a choice, an open window).
    phase: Spans = []
    trump: Trump | None = None
    #: Cards shown to fix trump.
    shown: list[str] = []
    trick: list[Played] = []
    #: Who wins the trick so far.
    winner: int | None = None
    last: TrickState | None = None
    #: Each partnership's points, at a fixed-teams table.
    points: Spans | None = None
    #: The game's own facts (the called card, bids, the contract), one line each.
    facts: list[Spans] = []
    #: The match score or the balances.
    match: Spans | None = None
    unplayed: list[list[str]] | None = None
    result: list[Spans] | None = None
    lobby: bool = Field(default=False, exclude_if=_false)
    note: Spans | None = Field(default=None, exclude_if=_none)


class ReplayState(TableState):
    """A replay's step: every hand face up (the hand is over), the trick it shows, its moves,
    and the review's notes at this trick."""

    hands: list[list[str]] = []
    trick_shown: TrickState | None = None
    moves: list[Spans] = []
    notes: list[Spans] = []


class Move(_Out):
    seat: int
    text: Spans
    card: str | None = None


class Choice(_Out):
    """One choice the engine offers, sent back as ``{kind: value}``."""

    kind: str
    value: JsonValue
    free: bool
    label: Spans


class Together(_Out):
    """Cards chosen together (burying): ``size`` of ``cards``, sent as ``{kind: [codes]}``;
    ``widow``: those just taken."""

    kind: str
    size: int
    cards: list[str]
    label: Spans
    widow: list[str]


class SeatStatus(_Out):
    """What the table's live side says of the seat: the computer plays it after its turns
    ran out (``autoplay``), its player left during the hand (``left``)."""

    autoplay: bool | None = Field(default=None, exclude_if=_none)
    left: bool | None = Field(default=None, exclude_if=_none)


class Mine(_Out):
    """The player's own seat (``bot.web.seatview.seat_state``): sent to them only."""

    seat: int
    cards: list[str]
    legal: list[str]
    trumps: list[str]
    choices: list[Choice]
    together: Together | None
    private: list[Spans]
    prompt: Spans
    #: What a choice offered now does beyond the player's own hand, said once.
    notes: list[Spans] = []
    my_turn: bool
    hints: bool
    #: The seat's side's role as its player knows it (a secret partner knows theirs).
    role: str | None = Field(default=None, exclude_if=_none)
    status: SeatStatus = SeatStatus()


class ViewerInfo(_Out):
    role: Role
    seat: int | None


class TableInfo(_Out):
    """For the Activity: the table's settings its page follows (``confirm``: a card is
    played with a second tap), where its card pictures are, and who the user is."""

    confirm: bool
    cards: str
    user: str


class Hello(_Out):
    viewer: ViewerInfo
    watch: str
    table: TableInfo | None = Field(default=None, exclude_if=_none)
    v: Literal[1] = VERSION
    type: Literal["hello"] = "hello"


class Step(_Out):
    """The table after ``at`` actions of stored hand ``hand`` (0: the lobby)."""

    hand: int
    number: int
    at: int
    state: TableState
    move: Move | None
    deadline: float | None
    #: True when the page sees the table one trick behind.
    delayed: bool = False
    #: The server's clock when the message was made: a page counts the deadline down by
    #: the server's clock, not by its own (a phone's may be off by minutes).
    now: float = 0.0
    #: The player's own seat, for an Activity socket whose user holds one.
    mine: Mine | None = Field(default=None, exclude_if=_none)
    v: Literal[1] = VERSION
    type: Literal["step"] = "step"


class Notice(_Out):
    """A public notice of the table (``key``: a sentence of the catalogs), worded."""

    key: str
    seat: int
    text: Spans
    v: Literal[1] = VERSION
    type: Literal["notice"] = "notice"


class Answer(_Out):
    """An answer to one player's question (a hint about stored hand ``hand``), for them
    only: its lines."""

    text: list[Spans]
    hand: int
    v: Literal[1] = VERSION
    type: Literal["answer"] = "answer"


class Clock(_Out):
    deadline: float | None
    now: float = 0.0
    v: Literal[1] = VERSION
    type: Literal["clock"] = "clock"


GoneReason = Literal["closed", "off", "revoked"]


class Gone(_Out):
    reason: GoneReason
    v: Literal[1] = VERSION
    type: Literal["gone"] = "gone"


class Refusal(_Out):
    """A message of the page was refused (``reason``), nothing changed."""

    reason: str
    #: The refusal in the asker's language (the Activity shows it).
    text: str | None = Field(default=None, exclude_if=_none)
    v: Literal[1] = VERSION
    type: Literal["error"] = "error"


Outgoing = Annotated[Hello | Step | Clock | Gone | Refusal | Notice | Answer,
                     Field(discriminator="type")]
OUTGOING: TypeAdapter[Hello | Step | Clock | Gone | Refusal | Notice | Answer] = TypeAdapter(
    Outgoing)


def dump(message: _Out) -> str:
    """A message as the socket sends it."""
    return message.model_dump_json()


def hello(viewer: Viewer, watch: str, table: TableInfo | None = None) -> Hello:
    return Hello(viewer=ViewerInfo(role=viewer.role, seat=viewer.seat), watch=watch,
                 table=table)


__all__ = ["OUTGOING", "VERSION", "Act", "Answer", "Choice", "Clock", "Gone",
           "Hello", "Hint", "Mine", "Move", "Notice", "Played", "Refusal", "ReplayState", "Resume",
           "SeatChange", "SeatState", "SeatStatus", "Span", "Spans", "Step", "TableInfo",
           "TableState", "Together", "TrickState", "Trump", "Viewer", "dump", "hello", "read"]
