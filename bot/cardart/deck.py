"""What a deck is to the drawing: its suit signs, what it draws between a card's corners,
and the ink of the corners' letters. ``bot.cardart.german`` and ``bot.cardart.french`` each
make one; ``bot.cardart.cards`` draws a face with either."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.cardart.pen import RGB, Pen
from bot.cardart.themes import Theme

#: Draws ``suit``'s sign in a ``size`` x ``size`` box centred on (cx, cy), in the theme's
#: colours: ``sign(pen, suit, cx, cy, size, theme)``.
Sign = Callable[[Pen, int, float, float, float, Theme], None]


@dataclass(frozen=True)
class Deck:
    #: ``"german"`` or ``"french"`` (``themes.FACES``).
    name: str
    sign: Sign
    #: Draws what lies between the corners of the card of ``suit`` and ``rank``:
    #: ``body(pen, suit, rank, theme)``.
    body: Callable[[Pen, int, int, Theme], None]
    #: The colour of the corners' rank letters, per suit.
    ink: Callable[[Theme], tuple[RGB, RGB, RGB, RGB]]
    #: The catalog entries that name the ranks in the corners: ``PREFIX + rank code``.
    corner_key: str
