"""The German-suited faces: acorns, leaves, hearts and bells, the King, the Ober and the Unter.

- Suit signs: acorns (E) a brown nut in a cup, leaves (G) a blue-green leaf with veins,
  hearts (H) a red heart, bells (S) a golden bell. Small signs (the corners and the pips: 8
  to 10 px on a phone) are bold silhouettes that differ by shape, not only by colour: the
  acorn a T (a narrow nut under a wide cup), the bell an O with a slot, the leaf a spade on
  a stem.
- The Ace a large sign in a double ring, the Ten to the Seven as many signs as they count, in
  two columns. The figures: the King wears a crown and a beard and carries the sign on his
  chest; the Ober raises the sign above his tall hat; the Unter holds it down at his feet.
"""

from __future__ import annotations

import math
from typing import Final

from bot.cardart.deck import Deck
from bot.cardart.pen import HEART, RGB, SMALL_SIGN, Pen, Point, curve, fit
from bot.cardart.themes import GERMAN, GOLD, RUBY, SKIN, TRIM, GermanPalette, Theme
from engine.cards import (
    ACE,
    ACORNS,
    BELLS,
    EIGHT,
    HEARTS,
    KING,
    LEAVES,
    NINE,
    OVER,
    SEVEN,
    TEN,
    UNDER,
)


def _sign(pen: Pen, suit: int, cx: float, cy: float, size: float,
               pal: GermanPalette = GERMAN) -> None:
    """The sign of ``suit`` in a ``size`` x ``size`` box centred on (cx, cy).

    Small signs (under ``SMALL_SIGN``) are bold silhouettes that differ by shape, not only by
    colour: the acorn is narrow below a wide dark cup, the bell round and wide with a dark slot
    across, the heart wide with its point down, the leaf pointing up on a stem.
    """
    s = size
    small = s < SMALL_SIGN
    w = max(0.6, s * (0.085 if small else 0.05))  # outline width

    def at(u: float, v: float) -> Point:
        return (cx + u * s, cy + v * s)

    if suit == HEARTS:
        fill, outline, shine = pal.heart
        pen.poly(fit(HEART, cx, cy, s * 0.96, s * 0.86), fill, outline, w)
        if not small:
            pen.ellipse(*at(-0.2, -0.17), s * 0.08, s * 0.055, shine)
    elif suit == LEAVES:
        fill, outline = pal.leaf
        leaf = [(x, -y) for x, y in HEART]  # point up
        top_y = cy - s * 0.06
        if small:  # narrower and pointed on a long stem: a spade, where the bell is an O
            pen.line([at(0, 0.2), at(0.03, 0.5)], outline, s * 0.12)
            pen.poly(fit(leaf, cx, cy - s * 0.1, s * 0.66, s * 0.8), fill, outline, w)
            return
        pen.line([at(0, 0.28), at(0.02, 0.5)], outline, s * 0.07)  # stem
        pen.poly(fit(leaf, cx, top_y, s * 0.86, s * 0.84), fill, outline, w)
        pen.line([at(0, 0.3), at(0, -0.38)], outline, s * 0.035)  # veins
        for v in (-0.14, 0.04, 0.2):
            pen.line([at(0, v + 0.07), at(-0.23, v - 0.06)], outline, s * 0.028)
            pen.line([at(0, v + 0.07), at(0.23, v - 0.06)], outline, s * 0.028)
    elif suit == ACORNS:
        nut, nut_line, shine = pal.nut
        cup, cup_line = pal.cup
        if small:
            # A narrow nut under a cup half again as wide: a T, where the bell is an O.
            egg = curve(lambda t: math.sin(t) * 0.2,
                         lambda t: -math.cos(t) * 0.3 * (1.0 if math.cos(t) > 0 else 1.15))
            pen.poly([at(u, v + 0.15) for u, v in egg], nut, nut_line, w)
            pen.line([at(0, -0.3), at(0.06, -0.5)], cup_line, s * 0.11)  # stalk
            dome = curve(lambda t: math.cos(t) * 0.4, lambda t: -math.sin(t) * 0.2,
                          n=36, t0=0.0, t1=math.pi)
            rim = curve(lambda t: math.cos(t) * 0.4, lambda t: math.sin(t) * 0.09,
                         n=18, t0=math.pi, t1=0.0)
            pen.poly([at(u, v - 0.06) for u, v in dome + rim], cup, cup_line, w)
            return
        egg = curve(lambda t: math.sin(t) * 0.27,
                     lambda t: -math.cos(t) * 0.34 * (1.0 if math.cos(t) > 0 else 1.12))
        pen.poly([at(u, v + 0.12) for u, v in egg], nut, nut_line, w)
        pen.ellipse(*at(-0.1, 0.16), s * 0.05, s * 0.11, shine)
        pen.line([at(0, -0.3), at(0.05, -0.48)], cup_line, s * 0.07)  # stalk
        dome = curve(lambda t: math.cos(t) * 0.34, lambda t: -math.sin(t) * 0.2,
                      n=36, t0=0.0, t1=math.pi)
        rim = curve(lambda t: math.cos(t) * 0.34, lambda t: math.sin(t) * 0.06,
                     n=18, t0=math.pi, t1=0.0)
        pen.poly([at(u, v - 0.06) for u, v in dome + rim], cup, cup_line, w)
        for u in (-0.2, -0.07, 0.07, 0.2):  # scales of the cup
            for v in (-0.12, -0.02):
                if not (v < -0.1 and abs(u) > 0.15):  # the dome is narrower on top
                    pen.ellipse(*at(u, v), s * 0.03, s * 0.025, cup_line)
    elif suit == BELLS:
        fill, outline, band, shine = pal.bell
        if small:
            # Round and wide, with a dark slot right across: an O, where the acorn is a T.
            pen.ellipse(*at(0, -0.41), s * 0.08, s * 0.08, None, outline, s * 0.06)  # loop
            pen.ellipse(*at(0, 0.07), s * 0.45, s * 0.43, fill, outline, w)
            pen.line([at(-0.36, 0.16), at(0.36, 0.16)], outline, s * 0.12)  # slot
            return
        pen.ellipse(*at(0, -0.39), s * 0.07, s * 0.07, None, outline, s * 0.04)  # loop
        pen.ellipse(*at(0, 0.04), s * 0.38, s * 0.38, fill, outline, w)
        pen.rect(*at(-0.365, -0.1), *at(0.365, -0.02), band)  # band
        pen.line([at(-0.3, 0.2), at(0.3, 0.2)], outline, s * 0.05)  # slot
        pen.ellipse(*at(0, 0.2), s * 0.075, s * 0.075, outline)
        pen.ellipse(*at(-0.16, -0.2), s * 0.07, s * 0.045, shine)
    else:  # pragma: no cover - suit_of gives 0..3
        raise ValueError(suit)



# -- figures----------------------------------------------------------------------------------

_HAT: Final = (72, 92, 176)
_CAP: Final = (96, 98, 110)
_BOOT: Final = (60, 46, 40)


def _head(pen: Pen, cx: float, cy: float, line: RGB) -> None:
    pen.ellipse(cx, cy, 10.5, 11.5, SKIN, line, 1.0)
    pen.ellipse(cx - 3.5, cy - 1, 1.1, 1.3, line)  # eyes
    pen.ellipse(cx + 3.5, cy - 1, 1.1, 1.3, line)
    pen.line([(cx - 3, cy + 5), (cx + 3, cy + 5)], line, 0.9)


def _figure(pen: Pen, rank: int, suit: int, t: Theme) -> None:
    robe = t.german.robe[suit]
    pal = t.german
    line = t.line
    if rank == KING:
        pen.poly([(47, 72), (73, 72), (82, 82), (84, 152), (36, 152), (38, 82)], robe, line, 1.0)
        pen.rect(56, 84, 64, 152, TRIM, line, 0.8)
        _head(pen, 60, 58, line)
        pen.poly([(49, 60), (71, 60), (68, 74), (60, 80), (52, 74)], TRIM, line, 0.9)  # beard
        pen.line([(56, 65), (64, 65)], line, 0.9)
        pen.ellipse(60, 76, 17, 5, TRIM, line, 0.8)  # collar
        gold, gold_line = GOLD
        pen.poly([(46, 49), (44, 31), (52, 40), (60, 26), (68, 40), (76, 31), (74, 49)],
                 gold, gold_line, 1.0)  # crown
        pen.ellipse(60, 43, 2.4, 2.4, RUBY)
        pen.ellipse(60, 109, 15, 15, t.face, line, 1.0)  # the sign on the chest
        _sign(pen, suit, 60, 109, 20, pal)
    elif rank == OVER:
        pen.line([(42, 96), (36, 128)], robe, 7)  # left arm, down
        pen.poly([(50, 86), (70, 86), (80, 94), (82, 148), (38, 148), (40, 94)], robe, line, 1.0)
        pen.rect(38, 116, 82, 121, TRIM, line, 0.7)  # belt
        pen.rect(45, 147, 55, 156, _BOOT, line, 0.7)
        pen.rect(65, 147, 75, 156, _BOOT, line, 0.7)
        pen.line([(76, 94), (85, 76), (74, 58)], robe, 7)  # right arm, up
        pen.ellipse(36, 129, 3.5, 3.5, SKIN, line, 0.7)
        _head(pen, 60, 75, line)
        pen.ellipse(60, 66, 14, 3.2, _HAT, line, 0.8)  # tall hat with a feather
        pen.poly([(51, 65), (53, 54), (67, 54), (69, 65)], _HAT, line, 0.8)
        pen.line([(52, 56), (44, 46), (40, 36)], TRIM, 2.4)
        pen.ellipse(74, 58, 3.5, 3.5, SKIN, line, 0.7)
        _sign(pen, suit, 60, 37, 30, pal)  # raised high
    elif rank == UNDER:
        pen.rect(45, 112, 55, 134, TRIM, line, 0.7)  # legs
        pen.rect(65, 112, 75, 134, TRIM, line, 0.7)
        pen.line([(42, 64), (36, 98)], robe, 7)  # left arm
        pen.poly([(50, 56), (70, 56), (80, 64), (82, 116), (38, 116), (40, 64)], robe, line, 1.0)
        pen.rect(38, 90, 82, 95, TRIM, line, 0.7)
        pen.ellipse(36, 99, 3.5, 3.5, SKIN, line, 0.7)
        _head(pen, 60, 44, line)
        pen.ellipse(61, 33, 14, 5.5, _CAP, line, 0.8)  # flat cap
        pen.line([(76, 64), (84, 96), (75, 128)], robe, 7)  # right arm, down
        pen.ellipse(75, 130, 3.5, 3.5, SKIN, line, 0.7)
        _sign(pen, suit, 60, 145, 30, pal)  # held low
    else:  # pragma: no cover
        raise ValueError(rank)


# Pips of the Seven to the Ten: (column, row) with column -1/0/1 and row 0..1 (top to bottom).
_PIPS: Final = {
    SEVEN: [(c, r) for c in (-1, 1) for r in (0, 0.5, 1)] + [(0, 0.25)],
    EIGHT: [(c, r) for c in (-1, 1) for r in (0, 1 / 3, 2 / 3, 1)],
    NINE: [(c, r) for c in (-1, 1) for r in (0, 1 / 3, 2 / 3, 1)] + [(0, 0.5)],
    TEN: [(c, r) for c in (-1, 1) for r in (0, 0.25, 0.5, 0.75, 1)],
}


def _body(pen: Pen, suit: int, rank: int, t: Theme) -> None:
    ink = t.german.ink[suit]
    if rank == ACE:
        pen.ellipse(60, 90, 40, 40, None, ink, 1.2)
        pen.ellipse(60, 90, 36, 36, None, ink, 0.6)
        _sign(pen, suit, 60, 90, 60, t.german)
    elif rank in _PIPS:
        for col, row in _PIPS[rank]:
            _sign(pen, suit, 60 + col * 13, 32 + row * 116, 19, t.german)
    else:
        _figure(pen, rank, suit, t)


def _theme_sign(pen: Pen, suit: int, cx: float, cy: float, size: float, t: Theme) -> None:
    _sign(pen, suit, cx, cy, size, t.german)


DECK: Final = Deck("german", _theme_sign, _body, lambda t: t.german.ink, "corner.")
