"""Words with their parts named: a ``Text`` is plain strings and segments — a person, a card,
a suit, a number, a moment, emphasis — so that every surface draws each part its own way
(Discord a mention and markdown, a page a ``<bdi>`` and ``<strong>``) and none has to undo
another's syntax.

A sentence of the catalogs becomes a ``Text`` with ``say``: its placeholders take segments as
they are, its ``**bold**`` and ```code``` marks (the catalogs' only markup) become
``Strong`` and ``Code``.

>>> from bot.texts import speaking
>>> ana = Person("Ana", member="42", seat=0)
>>> with speaking("en"):
...     text = say("result.next_dealer", user=ana)
>>> text.plain
'Ana deals next.'
>>> [type(part).__name__ for part in text.parts]
['Person', 'str']
>>> with speaking("en"):
...     say("result.next_in").parts
('Press ', Strong(text=Text('Next hand')), ' to go on.')
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from bot.texts import FORMATTER, current_language, hungarian_article, template


@dataclass(frozen=True, slots=True)
class Person:
    """Somebody at a table, named apart from the words around them (a name may be written
    in any script, any direction, any length: each surface isolates it).

    ``name``: how the table names them in full (a computer with its level); ``member``: the
    Discord user, for a mention (None: a computer or an empty seat); ``short``: the name
    where room is short (a button, a picture), if it differs."""

    name: str
    member: str | None = None
    seat: int | None = None
    short: str | None = None


@dataclass(frozen=True, slots=True)
class Card:
    """A card: its code (``EO``) and its label in the language in force (``🌰 Ober``)."""

    code: str
    label: str


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit: its letter (``H``) and its label in the language in force (``❤️ hearts``)."""

    letter: str
    label: str


@dataclass(frozen=True, slots=True)
class Number:
    """A number a sentence is about (points, a score), as the sentence writes it."""

    value: int | float
    text: str


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment each reader sees in their own clock and language: ``relative`` ("in 30
    seconds", counting) or ``date`` (a day). ``text`` is its plain fallback."""

    at: float
    style: Literal["relative", "date"]
    text: str = ""


@dataclass(frozen=True, slots=True)
class Strong:
    """Emphasis (the catalogs' ``**…**``)."""

    text: Text


@dataclass(frozen=True, slots=True)
class Code:
    """A command or a literal (the catalogs' ```…```)."""

    text: str


Segment = str | Person | Card | Suit | Number | Moment | Strong | Code


class Text:
    """A sequence of strings and segments: immutable, flat (adjacent strings merged).

    >>> Text("a", Text("b", Card("EO", "🌰 Ober")), "", "c").parts
    ('ab', Card(code='EO', label='🌰 Ober'), 'c')
    >>> Text.join(" · ", [Text("x"), Text("y")]).plain
    'x · y'
    """

    __slots__ = ("parts",)
    parts: tuple[Segment, ...]

    def __init__(self, *parts: Segment | Text) -> None:
        flat: list[Segment] = []
        last_str = False
        for part in parts:
            pieces: tuple[Segment, ...] = part.parts if isinstance(part, Text) else (part,)
            for p in pieces:
                if type(p) is str:
                    if not p:
                        continue
                    if last_str:
                        flat[-1] += p  # type: ignore[operator]
                        continue
                    last_str = True
                else:
                    last_str = False
                flat.append(p)
        object.__setattr__(self, "parts", tuple(flat))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Text does not change")

    def __add__(self, other: Segment | Text) -> Text:
        return Text(self, other)

    def __radd__(self, other: Segment) -> Text:
        return Text(other, self)

    def __bool__(self) -> bool:
        return bool(self.parts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and other.parts == self.parts

    def __hash__(self) -> int:
        return hash(self.parts)

    def __iter__(self) -> Iterator[Segment]:
        return iter(self.parts)

    def __repr__(self) -> str:
        return f"Text({', '.join(map(repr, self.parts))})"

    @property
    def plain(self) -> str:
        """The words alone, each segment as plain text (a person by their name)."""
        return "".join(plain(part) for part in self.parts)

    @staticmethod
    def join(separator: str | Text, texts: Iterable[Segment | Text]) -> Text:
        out: list[Segment | Text] = []
        for i, text in enumerate(texts):
            if i:
                out.append(separator)
            out.append(text)
        return Text(*out)

    def people(self) -> list[Person]:
        """Every person named, in order (emphasis looked into)."""
        found: list[Person] = []
        for part in self.parts:
            if isinstance(part, Person):
                found.append(part)
            elif isinstance(part, Strong):
                found.extend(part.text.people())
        return found


def plain(part: Segment | Text) -> str:
    """One part as plain text."""
    if isinstance(part, str):
        return part
    if isinstance(part, Text):
        return part.plain
    if isinstance(part, Person):
        return part.name
    if isinstance(part, Card):
        return part.label
    if isinstance(part, Suit):
        return part.label
    if isinstance(part, Number | Moment):
        return part.text
    if isinstance(part, Strong):
        return part.text.plain
    return part.text


# -- the catalogs' sentences ---------------------------------------------------------------------

#: The catalogs' markup: bold and code.
_MARK = re.compile(r"(\*\*|`)")

#: A parsed template: literal runs (marks split out) and fields (name, format spec).
_Token = tuple[Literal["text", "mark", "field"], str, str]


@lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[_Token, ...]:
    out: list[_Token] = []
    for literal, field, spec, _conversion in string.Formatter().parse(text):
        for i, piece in enumerate(_MARK.split(literal)):
            if piece:
                out.append(("mark" if i % 2 else "text", piece, ""))
        if field is not None:
            out.append(("field", field, spec or ""))
    return tuple(out)


def _value(value: Any, spec: str) -> Segment | Text:
    if isinstance(value, Text | Person | Card | Suit | Number | Moment | Strong | Code):
        if spec in ("az", "Az"):
            article = hungarian_article(plain(value))
            return Text(f"{article.capitalize() if spec == 'Az' else article} ", value)
        return value
    return FORMATTER.format_field(value, spec)


def fill(text: str, params: dict[str, Any]) -> Text:
    """A template (``{name}`` fields, ``**``/````` marks) filled in.

    >>> fill("**{option}** cannot be {value}.", {"option": "early end", "value": 3}).parts
    (Strong(text=Text('early end')), ' cannot be 3.')
    """
    stack: list[tuple[str, list[Segment | Text]]] = [("", [])]
    for kind, piece, spec in _tokens(text):
        if kind == "text":
            stack[-1][1].append(piece)
        elif kind == "field":
            stack[-1][1].append(_value(params[piece], spec))
        elif stack[-1][0] == piece:
            mark, parts = stack.pop()
            inner = Text(*parts)
            stack[-1][1].append(Strong(inner) if mark == "**" else Code(inner.plain))
        else:
            stack.append((piece, []))
    while len(stack) > 1:  # a mark never closed: plain as written
        mark, parts = stack.pop()
        stack[-1][1].extend([mark, *parts])
    return Text(*stack[0][1])


def say(key: str, /, **params: Any) -> Text:
    """The catalog's sentence ``key`` in the language in force, filled in (an entry with
    plural forms takes the form for ``params["count"]``), as a ``Text``."""
    if not params:
        return _said(key, current_language())
    return fill(template(key, params.get("count")), params)


@lru_cache(maxsize=4096)
def _said(key: str, lang: str) -> Text:
    """A sentence without fields, made once per language (a badge, a prompt: every step
    says them again)."""
    return fill(template(key), {})
