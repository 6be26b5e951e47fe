"""A game's own facts worded for a Discord message: ``bot.voice.facts``'s words, drawn as
Discord draws them (people mentioned). The wording itself is the voice's.

>>> from bot.texts import speaking
>>> with speaking("en"):
...     word("H"), word("EO"), word("sauspiel_S")
('❤️ hearts', '🌰\\xa0Ober', 'Sauspiel with the bells Ace (die Hundsgfickte)')
"""

from __future__ import annotations

from typing import Any

from bot.voice import facts as voice
from bot.voice.markdown import markdown

#: Facts the table shows elsewhere (the match score field) or that only computers need.
SKIP = voice.SKIP


def word(value: str) -> str:
    """A card code, suit letter or game word as players read it."""
    return markdown(voice.word(value))


def counted_line(counted: list[dict[str, Any]]) -> str:
    """What a result counted (``bot.voice.facts.counted_line``)."""
    return markdown(voice.counted_line(counted))
