"""The voice as Discord draws it: a person as a mention, emphasis as markdown, a moment as
Discord's timestamp (each reader's client words it in their language and clock).

>>> from bot.voice.text import Card, Moment, Person, Strong, Text
>>> text = Text(Person("Ana", member="42"), " plays ", Card("EO", "🌰 Ober"), " ",
...             Strong(Text("now")), " ", Moment(1_800_000_000, "relative"))
>>> markdown(text)
'<@42> plays 🌰 Ober **now** <t:1800000000:R>'
>>> label(Text(Person("A" * 40, member="42"), " ", Person("Computer 2 (Easy)",
...                                                         short="Computer 2")))
'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA… Computer 2'
"""

from __future__ import annotations

from bot.voice.text import Code, Moment, Person, Segment, Strong, Text, plain

#: How long a name is where Discord cannot mention (a button, a picture): Discord's own
#: limit for a display name. A longer one (a name kept from elsewhere) is cut.
NAME_LIMIT = 32


def markdown(text: Text | Segment) -> str:
    """A ``Text`` for a message's content or an embed: people mentioned, marks as markdown."""
    if type(text) is Text:
        return "".join(p if type(p) is str else markdown(p) for p in text.parts)
    if type(text) is str:
        return text
    if isinstance(text, Person):
        return f"<@{text.member}>" if text.member is not None else text.name
    if isinstance(text, Strong):
        return f"**{markdown(text.text)}**"
    if isinstance(text, Code):
        return f"`{text.text}`"
    if isinstance(text, Moment):
        return f"<t:{int(text.at)}:{'R' if text.style == 'relative' else 'D'}>"
    return plain(text)


def label(text: Text | Segment) -> str:
    """A ``Text`` where Discord shows no markdown nor mentions (a button, a menu, a picture):
    a person by their short name, capped at ``NAME_LIMIT``."""
    if isinstance(text, Text):
        return "".join(label(part) for part in text.parts)
    if isinstance(text, Person):
        return cap(text.short or text.name)
    if isinstance(text, Strong):
        return label(text.text)
    return plain(text)


def cap(name: str, limit: int = NAME_LIMIT) -> str:
    return name if len(name) <= limit else name[:limit - 1] + "…"
