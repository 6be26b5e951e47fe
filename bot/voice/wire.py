"""The voice as the pages and the Activity receive it: a ``Text`` as JSON spans — plain
strings, and one object per segment naming its kind — which their script draws as HTML (a
person in ``<bdi>``, emphasis in ``<strong>``, a card with its code). ``html`` draws the same
on the server, for the pages made there.

>>> from pydantic import TypeAdapter
>>> from bot.voice.text import Card, Person, Strong, Text
>>> text = Text(Person("Ana", member="42", seat=0), ": ", Card("EO", "🌰 Ober"), " ",
...             Strong(Text("now")))
>>> for s in TypeAdapter(Spans).validate_python(spans(text)):
...     print(repr(s) if isinstance(s, str) else s.model_dump_json())
{"k":"person","text":"Ana","seat":0}
': '
{"k":"card","text":"🌰 Ober","card":"EO"}
' '
{"k":"text","text":"now","strong":true}
>>> html(Text(Person("<b>", member="1"), " & ", Strong(Text("Next hand"))))
Markup('<bdi dir="auto" class="person">&lt;b&gt;</bdi> &amp; <strong>Next hand</strong>')
"""

from __future__ import annotations

from typing import Any, Literal

from markupsafe import Markup, escape
from pydantic import BaseModel, ConfigDict, Field

from bot.voice.text import Card, Code, Moment, Number, Person, Segment, Strong, Suit, Text


def _none(value: object) -> bool:
    return value is None


def _false(value: object) -> bool:
    return value is False


class Span(BaseModel):
    """One segment of a text: ``k`` its kind (``text``: plain words, set apart only by
    ``strong``), ``text`` its words in the reader's language; a person's ``seat``, a card's
    code, a suit's letter, a moment's time (seconds) and ``style``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    k: Literal["text", "person", "card", "suit", "number", "time", "code"]
    text: str
    strong: bool = Field(default=False, exclude_if=_false)
    seat: int | None = Field(default=None, exclude_if=_none)
    card: str | None = Field(default=None, exclude_if=_none)
    suit: str | None = Field(default=None, exclude_if=_none)
    at: float | None = Field(default=None, exclude_if=_none)
    style: Literal["relative", "date"] | None = Field(default=None, exclude_if=_none)


#: A text on the wire.
Spans = list[str | Span]
#: A text as JSON-able data, before the models read it (``Span``'s fields, left out at their
#: defaults): a state is built as data and validated once, in pydantic's core.
SpanData = str | dict[str, Any]


def spans(text: Text | Segment | None, *, strong: bool = False) -> list[SpanData]:
    """``text`` as spans' data (none for None)."""
    if text is None:
        return []
    out: list[SpanData] = []
    for part in text.parts if isinstance(text, Text) else (text,):
        out.extend(_span(part, strong))
    return out


def _span(part: Segment, strong: bool) -> list[SpanData]:
    data: dict[str, Any]
    if type(part) is str:
        return [{"k": "text", "text": part, "strong": True} if strong else part]
    if isinstance(part, Strong):
        return spans(part.text, strong=True)
    if isinstance(part, Person):
        data = {"k": "person", "text": part.name, "seat": part.seat}
    elif isinstance(part, Card):
        data = {"k": "card", "text": part.label, "card": part.code}
    elif isinstance(part, Suit):
        data = {"k": "suit", "text": part.label, "suit": part.letter}
    elif isinstance(part, Number):
        data = {"k": "number", "text": part.text}
    elif isinstance(part, Moment):
        data = {"k": "time", "text": part.text, "at": part.at, "style": part.style}
    else:
        assert isinstance(part, Code)
        data = {"k": "code", "text": part.text}
    if strong:
        data["strong"] = True
    return [data]


def html(text: Text | Segment | None) -> Markup:
    """``text`` as HTML for a page the server makes (escaped; a person's name isolated)."""
    if text is None:
        return Markup("")
    if isinstance(text, Text):
        return Markup("").join(html(part) for part in text.parts)
    if isinstance(text, str):
        return escape(text)
    if isinstance(text, Person):
        return Markup('<bdi dir="auto" class="person">{}</bdi>').format(text.name)
    if isinstance(text, Strong):
        return Markup("<strong>{}</strong>").format(html(text.text))
    if isinstance(text, Code):
        return Markup("<code>{}</code>").format(text.text)
    if isinstance(text, Card):
        return Markup('<span class="card" data-card="{}">{}</span>').format(text.code,
                                                                            text.label)
    if isinstance(text, Suit):
        return Markup('<span class="suit" data-suit="{}">{}</span>').format(text.letter,
                                                                            text.label)
    return escape(text.text)
