"""The click protocol: what a button or a select menu of the bot carries in its custom_id.

A component's custom_id is its whole state, so that every button ever sent works again after
a restart (``fc:OP:TABLE[:ARGS]`` for buttons, ``fs:OP:TABLE[:ARGS]`` for select menus). The
renderer writes ids with ``button_id``/``select_id`` and the tables cog reads them with
``parse``; both name operations from the one enumeration below, so an operation cannot be
written one way and read another.

>>> button_id(Op.CARD, 7, 2, 0, "EO")
'fc:card:7:2:0:EO'
>>> click = parse("fc:card:7:2:0:EO")
>>> click
Click(kind='fc', op=<Op.CARD: 'card'>, table_id=7, args=('2', '0', 'EO'))
>>> click.get("hand", int), click.get("card", int) == cards.card("EO")
(2, True)
>>> parse("fc:zap:7") is None, parse("fc:card:7:0:0:EO") is None  # no hand 0
(True, True)

Every argument is declared once (``SHAPES``): its type and range. ``parse`` reads a custom_id
against it and hands out a ``Click`` whose arguments are checked, or None: the cogs read
typed values and never see text the bot did not write.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeVar, cast

from engine import cards
from engine.actions import Action, action_from_json
from engine.errors import EngineError
from engine.rules import GAMES

T = TypeVar("T")


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
    # finding a game: a seat at a table, from a list of tables or a call for one more
    TAKE = "take"
    # a tournament's announcement (the id is the tournament's): args: signup|withdraw|start
    TOURNAMENT = "tour"


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
    #: A public message the table posted (a result), or the bot did for all (a call for one
    #: more player, a tournament's announcement).
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
    # /leaderboard answers in public: its pages turn there.
    Op.LEADERBOARD: _POST,
    # From /tables (only its asker sees it) or a call for one more (public): never drawn on
    # the table message, which has its own Join.
    Op.TAKE: _PRIVATE | _POST,
    Op.TOURNAMENT: _POST,
}


@dataclass(frozen=True)
class Click:
    """A component's click as its custom_id (and a menu's chosen values) ask for it, every
    argument already read and checked against its operation's declaration (``SHAPES``):
    ``get`` hands them out typed."""

    kind: str
    op: Op
    table_id: int
    #: The custom_id's arguments as written (after ``OP:TABLE``).
    args: tuple[str, ...] = ()
    #: The arguments and menu values, read (by the names ``SHAPES`` gives them).
    fields: Mapping[str, object] = field(default_factory=dict, repr=False, compare=False)

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

    def has(self, name: str) -> bool:
        return name in self.fields

    def get(self, name: str, kind: type[T]) -> T:
        """An argument, of the type its declaration reads it as.

        >>> parse("fc:card:7:2:0:EO").get("trick", int)
        0
        """
        value = self.fields[name]
        if not isinstance(value, kind):
            raise TypeError(f"{self.op.value}: {name} is {value!r}, not a {kind.__name__}")
        return value


# -- what each operation carries -------------------------------------------------------------

#: Hand numbers and seasons are stored as 32-bit integers; table ids as 64-bit ones.
INT32 = 2**31 - 1
INT64 = 2**63 - 1
_DIGITS = re.compile(r"-?[0-9]{1,19}")
_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
#: Discord's limit on a menu value.
MAX_VALUE = 100


class Reader(Protocol):
    """Reads one argument from its text; ``ValueError`` for anything the bot never writes."""

    def read(self, raw: str) -> object: ...


@dataclass(frozen=True)
class Int:
    """A whole number in ASCII digits, from ``low`` to ``high``.

    >>> Int(0, 31).read("7")
    7
    >>> Int(0, 31).read("32")
    Traceback (most recent call last):
    ...
    ValueError: '32' is not a whole number from 0 to 31
    """

    low: int
    high: int

    def read(self, raw: str) -> int:
        if _DIGITS.fullmatch(raw) and self.low <= int(raw) <= self.high:
            return int(raw)
        raise ValueError(f"{raw[:40]!r} is not a whole number from {self.low} to {self.high}")


@dataclass(frozen=True)
class Word:
    """One of a few words."""

    words: frozenset[str]

    def read(self, raw: str) -> str:
        if raw in self.words:
            return raw
        raise ValueError(f"{raw[:40]!r} is not one of {sorted(self.words)}")


@dataclass(frozen=True)
class Name:
    """A name of the bot's own (a computer level, an action's kind, an option): lower-case
    letters, digits and ``_``, at most 32."""

    def read(self, raw: str) -> str:
        if _NAME.fullmatch(raw):
            return raw
        raise ValueError(f"{raw[:40]!r} is not a name")


@dataclass(frozen=True)
class CardCode:
    """A card's code as the bot writes it (``EO``, ``H10``): the engine's card."""

    def read(self, raw: str) -> int:
        c = cards.card(raw)
        if cards.code(c) != raw:
            raise ValueError(f"{raw!r} is not written as the bot writes card codes")
        return c


def _no_float(raw: str) -> object:
    raise ValueError(f"{raw[:40]!r}: the bot writes no fractions")


def _small_int(raw: str) -> int:
    value = int(raw)
    if not -INT32 <= value <= INT32:
        raise ValueError(f"{raw[:40]!r} is out of range")
    return value


def read_json(raw: str) -> Any:
    """A JSON value of at most ``MAX_VALUE`` characters: strings, booleans, null, lists,
    objects, whole numbers within 32 bits (no fractions, no NaN or infinities).

    >>> read_json('["EO","H10"]'), read_json("true")
    (['EO', 'H10'], True)
    """
    if len(raw) > MAX_VALUE:
        raise ValueError("a JSON value longer than the bot writes")
    return json.loads(raw, parse_float=_no_float, parse_int=_small_int,
                      parse_constant=_no_float)


@dataclass(frozen=True)
class ActionText:
    """An action as ``KIND:JSON`` (``fris:true``, ``card:"EO"``): the engine's ``Action``.

    >>> ActionText().read('card:"EO"')
    Action(kind='card', value=3)
    """

    def read(self, raw: str) -> Action:
        kind, sep, value = raw.partition(":")
        if not sep:
            raise ValueError(f"{raw[:40]!r} is not KIND:JSON")
        return _action(Name().read(kind), read_json(value))


@dataclass(frozen=True)
class OptionEntry:
    """A lobby option's menu value, ``name=json``: (name, value)."""

    def read(self, raw: str) -> tuple[str, Any]:
        name, sep, value = raw.partition("=")
        if not sep:
            raise ValueError(f"{raw[:40]!r} is not an option entry")
        return Name().read(name), read_json(value)


def _action(kind: str, value: Any) -> Action:
    try:
        return action_from_json({kind: value})
    except (EngineError, TypeError, KeyError, IndexError, AttributeError) as e:
        raise ValueError(f"not an action: {kind}: {value!r}") from e


@dataclass(frozen=True)
class Arg:
    """One argument of a custom_id; ``rest``: it takes every part left (JSON may hold
    colons)."""

    name: str
    reader: Reader
    rest: bool = False


@dataclass(frozen=True)
class Values:
    """What a select menu's chosen values hold: ``low`` to ``high`` of them, each read by
    ``reader``; one value is kept as ``name``, several as a tuple."""

    name: str
    reader: Reader
    low: int = 1
    high: int = 1


@dataclass(frozen=True)
class Shape:
    """One way an operation's component is written: its arguments, a menu's values."""

    args: tuple[Arg, ...] = ()
    values: Values | None = None


HAND = Arg("hand", Int(1, INT32))
TRICK = Arg("trick", Int(0, 31))
NO_ARGS = (Shape(),)

#: Every component the bot writes, by kind (button or menu) and operation: the shapes its
#: custom_id (and values) may have. Anything else is not the bot's and is refused unread.
SHAPES: dict[tuple[str, Op], tuple[Shape, ...]] = {
    **{(BUTTON, op): NO_ARGS for op in (Op.SIT, Op.UNCPU, Op.START, Op.CANCEL, Op.HAND,
                                       Op.LAST, Op.RULES, Op.ACTIVITY)},
    (BUTTON, Op.JOIN): (Shape((Arg("team", Int(0, 1)),)),),
    (BUTTON, Op.LEAVE): (Shape(), Shape((HAND, Arg("answer", Word(frozenset({"yes", "no"})))))),
    # Buttons of older versions carried the level (or none: a Normal one).
    (BUTTON, Op.CPU): (Shape(), Shape((Arg("level", Name()),))),
    (SELECT, Op.CPU): (Shape(values=Values("level", Name())),),
    # The lobby's options in menus of 25: the second menu carries its index.
    (SELECT, Op.OPTION): (Shape(values=Values("option", OptionEntry())),
                          Shape((Arg("menu", Int(1, 4)),), Values("option", OptionEntry()))),
    (BUTTON, Op.NEXT): (Shape((HAND,)),),
    (BUTTON, Op.CARD): (Shape((HAND, TRICK, Arg("card", CardCode()))),),
    (BUTTON, Op.ACT): (Shape((HAND, Arg("action", ActionText(), rest=True))),),
    # Choices in menus of 25: the second menu on carries its index.
    (SELECT, Op.ACT): (Shape((HAND,), Values("action", ActionText())),
                       Shape((HAND, Arg("menu", Int(1, 4))), Values("action", ActionText()))),
    (SELECT, Op.TOGETHER): (Shape((HAND, Arg("kind", Name())),
                                  Values("cards", CardCode(), 1, 32)),),
    (BUTTON, Op.SERVANT): (Shape((HAND, Arg("seat", Int(0, 9)))),),
    (BUTTON, Op.HINT): (Shape((HAND, TRICK)),),
    # A review's ◀ ▶ carry the trick to show (one past either end on the disabled one).
    (BUTTON, Op.REVIEW): (Shape((HAND,)), Shape((HAND, Arg("step", Int(-1, 32))))),
    # Its ◀ ▶ carry the page to show (page 0 on the disabled ◀ of the first).
    (BUTTON, Op.LEADERBOARD): (Shape((Arg("game", Word(frozenset(GAMES))),
                                      Arg("season", Int(1, INT32)),
                                      Arg("page", Int(0, INT32)))),),
    # A seat at the table the id names (from /tables or a call for one more).
    (BUTTON, Op.TAKE): NO_ARGS,
    # A tournament's announcement (the id is the tournament's): sign up, withdraw, start.
    (BUTTON, Op.TOURNAMENT): (Shape((Arg("action", Word(frozenset(
        {"signup", "withdraw", "start"}))),)),),
}


def _read(shape: Shape, args: tuple[str, ...], values: Sequence[object] | None
          ) -> dict[str, object] | None:
    """The fields of a click of this shape, or None if it is not of this shape."""
    fields: dict[str, object] = {}
    for i, arg in enumerate(shape.args):
        if i >= len(args):
            return None
        raw = ":".join(args[i:]) if arg.rest else args[i]
        try:
            fields[arg.name] = arg.reader.read(raw)
        except (ValueError, TypeError):
            return None
    if len(args) > len(shape.args) and not (shape.args and shape.args[-1].rest):
        return None
    if shape.values is not None:
        spec = shape.values
        if values is None or not spec.low <= len(values) <= spec.high or not all(
                isinstance(v, str) and len(v) <= MAX_VALUE for v in values):
            return None
        try:
            read = tuple(spec.reader.read(str(v)) for v in values)
        except (ValueError, TypeError):
            return None
        fields[spec.name] = read[0] if spec.high == 1 else read
    return fields


def button_id(op: Op, table_id: int, *args: str | int) -> str:
    return _make(BUTTON, op, table_id, args)


def select_id(op: Op, table_id: int, *args: str | int) -> str:
    return _make(SELECT, op, table_id, args)


def _make(kind: str, op: Op, table_id: int, args: tuple[str | int, ...]) -> str:
    custom_id = ":".join((kind, op.value, str(table_id), *(str(a) for a in args)))
    if len(custom_id) > MAX_ID:
        raise ValueError(f"custom_id longer than Discord allows: {custom_id!r}")
    return custom_id


def op_of(name: str) -> Op | None:
    try:
        return Op(name)
    except ValueError:
        return None


def parse(custom_id: str, values: Sequence[object] | None = None) -> Click | None:
    """The click a custom_id (and a menu's chosen ``values``) asks for, every argument read
    and checked; None for anything the bot never writes (an unknown operation, a missing,
    extra or out-of-range argument, a value no menu of the bot offers).

    >>> parse("fc:card:7:2:99:EO") is None  # a trick beyond the last
    True
    >>> parse("fs:together:7:3:bury", ["EO", "H10"]).get("action", Action)
    Action(kind='bury', value=(3, 17))
    """
    if len(custom_id) > MAX_ID:
        return None
    m = _ANY.fullmatch(custom_id)
    op = op_of(m["op"]) if m else None
    if m is None or op is None:
        return None
    shapes = SHAPES.get((m["kind"], op))
    table = int(m["table"])
    if shapes is None or not (table == 0 if op is Op.LEADERBOARD else 0 < table <= INT64):
        return None
    args = tuple(m["args"].split(":")) if m["args"] is not None else ()
    for shape in shapes:
        fields = _read(shape, args, values)
        if fields is None:
            continue
        if op is Op.TOGETHER:
            # Cards chosen together are one action of the menu's kind.
            codes = [cards.code(c) for c in cast(tuple[int, ...], fields["cards"])]
            try:
                fields["action"] = _action(str(fields["kind"]), codes)
            except ValueError:
                return None
        return Click(m["kind"], op, table, args, fields)
    return None
