"""The click protocol: what a button or a select menu of the bot carries in its custom_id.

A component's custom_id is its whole state, so that every button ever sent works again after
a restart (``fc:OP:TABLE[:ARGS]`` for buttons, ``fs:OP:TABLE[:ARGS]`` for select menus). The
renderer writes ids with ``button_id``/``select_id`` and the tables cog reads them with
``parse``; both name operations from the one enumeration below, so an operation cannot be
written one way and read another.

>>> button_id(Op.CARD, 7, 2, 0, "EO")
'fc:card:7:2:0:EO'
>>> parse("fc:card:7:2:0:EO")
Click(kind='fc', op=<Op.CARD: 'card'>, table_id=7, args=('2', '0', 'EO'))
>>> parse("fc:zap:7") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Op(StrEnum):
    """Every operation a component can ask for."""

    # the lobby
    JOIN = "join"  #: args: team (0 or 1)
    SIT = "sit"
    LEAVE = "leave"
    CPU = "cpu"  #: select: values level (buttons of older versions: args level)
    UNCPU = "uncpu"
    START = "start"
    CANCEL = "cancel"
    OPTION = "opt"  #: select: values "name=json"
    # the table message
    HAND = "hand"
    LAST = "last"
    ACTIVITY = "activity"  #: the table as a Discord Activity (answered with LAUNCH_ACTIVITY)
    RULES = "rules"
    NEXT = "next"  #: args: hand number
    # a hand view
    CARD = "card"  #: args: hand number, trick number, card code
    ACT = "act"  #: args: hand number, kind, JSON value (select: hand number; values KIND:JSON)
    TOGETHER = "together"  #: select: args hand number, kind; values: card codes
    SERVANT = "servant"  #: args: hand number, seat (buttons of older versions)
    HINT = "hint"  #: args: hand number, trick number
    # a finished hand
    REVIEW = "review"  #: args: hand number[, trick to show]
    # a leaderboard (table id 0: it belongs to no table)
    LEADERBOARD = "board"  #: args: game, season, page


BUTTON, SELECT = "fc", "fs"
#: The pattern discord.py matches a custom_id against (``DynamicItem`` templates).
BUTTON_TEMPLATE = r"fc:(?P<op>[a-z_]+):(?P<table>[0-9]+)(?::(?P<args>.*))?"
SELECT_TEMPLATE = r"fs:(?P<op>[a-z_]+):(?P<table>[0-9]+)(?::(?P<args>.*))?"
_ANY = re.compile(r"(?P<kind>f[cs]):(?P<op>[a-z_]+):(?P<table>[0-9]{1,20})(?::(?P<args>.*))?")
#: Discord's limit on a custom_id.
MAX_ID = 100


class Place(StrEnum):
    """The kinds of message a component of the bot sits on."""

    #: The table's public message (the lobby, then the table).
    TABLE = "table"
    #: A message only its user sees (a hand view, a review, a question): the only place
    #: private content is ever drawn.
    PRIVATE = "private"
    #: A public message the table posted (a result).
    POST = "post"


_TABLE, _PRIVATE, _POST = (frozenset({p}) for p in Place)
#: Where each operation's components are drawn (see ``Click.places`` for those that depend
#: on their arguments).
PLACES: dict[Op, frozenset[Place]] = {
    **dict.fromkeys((Op.JOIN, Op.SIT, Op.CPU, Op.UNCPU, Op.START, Op.CANCEL, Op.OPTION,
                     Op.HAND, Op.LAST, Op.RULES, Op.ACTIVITY), _TABLE),
    **dict.fromkeys((Op.CARD, Op.ACT, Op.TOGETHER, Op.SERVANT, Op.HINT), _PRIVATE),
    # Under a result (the table's own Next hand of older versions too).
    Op.NEXT: _POST | _TABLE,
    Op.LEADERBOARD: _POST | _PRIVATE,
}


@dataclass(frozen=True)
class Click:
    kind: str
    op: Op
    table_id: int
    args: tuple[str, ...]

    @property
    def places(self) -> frozenset[Place]:
        """The kinds of message this click may come from: a click from any other is forged
        (Discord only sends the ids a message carries)."""
        if self.op is Op.LEAVE:
            # Leave itself is on the table; the yes or no is on the question its asker saw.
            return _PRIVATE if self.args else _TABLE
        if self.op is Op.REVIEW:
            # From a result (or a /history answer) a review opens; its ◀ ▶ are its own.
            return _PRIVATE if len(self.args) > 1 else _POST | _PRIVATE
        return PLACES[self.op]


def button_id(op: Op, table_id: int, *args: str | int) -> str:
    return _make(BUTTON, op, table_id, args)


def select_id(op: Op, table_id: int, *args: str | int) -> str:
    return _make(SELECT, op, table_id, args)


def _make(kind: str, op: Op, table_id: int, args: tuple[str | int, ...]) -> str:
    custom_id = ":".join((kind, op.value, str(table_id), *(str(a) for a in args)))
    if len(custom_id) > MAX_ID:
        raise ValueError(f"custom_id longer than Discord allows: {custom_id!r}")
    return custom_id


def split_args(raw: str | None) -> tuple[str, ...]:
    return tuple(a for a in (raw or "").split(":") if a)


def op_of(name: str) -> Op | None:
    try:
        return Op(name)
    except ValueError:
        return None


def parse(custom_id: str) -> Click | None:
    """The click a custom_id asks for, or None for one the bot never writes."""
    m = _ANY.fullmatch(custom_id)
    op = op_of(m["op"]) if m else None
    if m is None or op is None:
        return None
    return Click(m["kind"], op, int(m["table"]), split_args(m["args"]))
