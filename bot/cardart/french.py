"""The French-suited faces: clubs ♣, spades ♠, hearts ♥ and diamonds ♦, the King, the Queen
and the Jack.

The engine keeps one code per card, whatever its faces: Kreuz (clubs) is ``E``, Pik (spades)
``G``, Herz (hearts) ``H``, Karo (diamonds) ``S``; the Queen (Dame) is the Ober ``O``, the
Jack (Bube) the Unter ``U``.

- Suit signs: bold silhouettes that differ by shape, as on every French card, so that the two
  suits of one colour (black clubs and spades, red hearts and diamonds) are told apart at a
  glance: the club three round leaves on a foot, the spade a pointed leaf on a foot, the heart
  a heart, the diamond a lozenge with its sides drawn in.
- The Ace one large sign; the Ten to the Seven as French cards lay them out (the Ten 4 + 2 +
  4, the Nine 4 + 1 + 4, the Eight 3 + 2 + 3, the Seven 3 + 1 + 3), the signs of the lower
  half upside down.
- The courts are double-ended, as French courts are: a half-length figure in a frame, the same
  figure turned round below, the suit sign beside each head. The King wears a crown with
  points and a beard and holds a sceptre; the Queen a rounded diadem over long hair, with a
  flower; the Jack a flat cap with a feather, with a halberd.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Final

from PIL import Image, ImageFilter

from bot.cardart.deck import Deck
from bot.cardart.pen import HEART, RGB, SMALL_SIGN, Pen, Point, curve, fit
from bot.cardart.themes import GOLD, HAIR, RUBY, SKIN, TRIM, Theme
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

#: The French suits by the engine's codes: clubs (Kreuz) are E, spades (Pik) G, diamonds (Karo)
#: S; hearts are hearts.
CLUBS: Final = ACORNS
SPADES: Final = LEAVES
DIAMONDS: Final = BELLS

#: A diamond with its four sides drawn in a little, as printed diamonds are (unit box).
_LOZENGE: Final = [
    (x0 + (x1 - x0) * t - 0.06 * math.sin(math.pi * t) * x_in,
     y0 + (y1 - y0) * t - 0.06 * math.sin(math.pi * t) * y_in)
    for (x0, y0), (x1, y1) in (((0.0, -0.5), (0.5, 0.0)), ((0.5, 0.0), (0.0, 0.5)),
                               ((0.0, 0.5), (-0.5, 0.0)), ((-0.5, 0.0), (0.0, -0.5)))
    for x_in, y_in in [((x0 + x1), (y0 + y1))]  # the edge's middle points away from the centre
    for t in (i / 16 for i in range(16))
]
#: The spade's leaf: the heart curve upside down.
_LEAF: Final = [(x, -y) for x, y in HEART]


def _foot(top: float, half_w: float) -> list[Point]:
    """The foot of a club or a spade: from a narrow neck at ``top`` (unit coordinates, the box
    is -0.5..0.5) flaring to ``half_w`` either side at the bottom, its sides drawn in."""
    neck = 0.05  # wide enough that the fill runs on through it inside the outline
    left = curve(lambda t: -neck - (half_w - neck) * t ** 2, lambda t: top + (0.5 - top) * t,
                 n=12, t0=0.0, t1=1.0)
    right = [(-x, y) for x, y in reversed(left)]
    return left + right


def _sign(pen: Pen, suit: int, cx: float, cy: float, size: float, t: Theme,
          flip: bool = False) -> None:
    """The French sign of ``suit`` in a ``size`` x ``size`` box centred on (cx, cy), upside
    down with ``flip`` (the pips of a card's lower half).

    Every sign is a silhouette with a thin darker outline (so that the light signs of the dark
    theme keep an edge on the slate card). Small ones (under ``SMALL_SIGN``: corners and pips,
    8 to 12 px on a phone) exaggerate what tells them apart, as the German small signs do: the
    club round with low wide side leaves, the spade a pointed leaf high above a wide foot, the
    diamond narrow and pointed, the heart wide at the top.
    """
    f = pen.f
    left, top = (cx - size / 2) * f, (cy - size / 2) * f  # the box's corner, in pixels
    x0, y0 = math.floor(left) - 1, math.floor(top) - 1
    layer = _layer(suit, size, flip, f, left - x0, top - y0, t.french.sign[suit])
    # A sign at the picture's edge (a corner's, a court's) may start left of or above it.
    cut = (max(0, -x0), max(0, -y0))
    pen.image.alpha_composite(layer.crop((*cut, *layer.size)), (max(0, x0), max(0, y0)))


@lru_cache(maxsize=1024)
def _layer(suit: int, size: float, flip: bool, f: float, dx: float, dy: float,
           colours: tuple[RGB, RGB]) -> Image.Image:
    """The sign alone, RGBA, ``f`` pixels per card unit, its box ``(dx, dy)`` pixels into
    the picture (the same for every pip of a column: drawn once a card, and once for all the
    cards that share it).

    The parts are drawn into a mask of the sign's box; the outline colour goes through the
    mask and the fill through the mask shrunk by the outline's width, so that where two parts
    meet (a club's leaves, a spade's foot) no outline crosses the sign.
    """
    s = size
    small = s < SMALL_SIGN
    fill, outline = colours
    turn = -1.0 if flip else 1.0
    side = math.ceil(s * f) + 3
    mask = Image.new("L", (side, side), 0)
    part = Pen(mask, f)

    def at(u: float, v: float) -> Point:
        return (dx / f + (u + 0.5) * s, dy / f + (turn * v + 0.5) * s)

    def poly(points: list[Point]) -> None:
        part.poly([at(u, v) for u, v in points], 255)

    def circle(u: float, v: float, r: float) -> None:
        x, y = at(u, v)
        part.ellipse(x, y, r * s, r * s, 255)

    _parts(suit, small, poly, circle, lambda a, b, width: part.line([at(*a), at(*b)], 255,
                                                                    width * s))
    edge = max(1, round(s * (0.03 if small else 0.02) * f))
    inside = mask.filter(ImageFilter.MinFilter(2 * edge + 1))
    layer = Image.new("RGBA", mask.size, (*outline, 0))
    layer.putalpha(mask)
    inner = Image.new("RGBA", mask.size, (*fill, 0))
    inner.putalpha(inside)
    layer.alpha_composite(inner)
    return layer


def _parts(suit: int, small: bool, poly: Callable[[list[Point]], None],
           circle: Callable[[float, float, float], None],
           line: Callable[[Point, Point, float], None]) -> None:
    """The parts of the sign of ``suit`` in unit coordinates (the box is -0.5..0.5)."""

    if suit == HEARTS:
        poly(fit(HEART, 0, 0, 0.96, 0.88))
    elif suit == DIAMONDS:
        if small:  # a plain rhombus, narrow and pointed: neither round like the club nor wide
            poly([(0.0, -0.5), (0.32, 0.0), (0.0, 0.5), (-0.32, 0.0)])
        else:
            poly([(u * 0.8, v * 0.96) for u, v in _LOZENGE])
    elif suit == SPADES:
        if small:  # a pointed leaf in the upper half, on a thin stem above a wide foot
            poly(_foot(0.2, 0.34))
            line((0, 0.0), (0, 0.25), 0.15)
            poly(fit(_LEAF, 0, -0.22, 0.8, 0.6))
        else:
            poly(_foot(0.05, 0.17))
            poly(fit(_LEAF, 0, -0.1, 0.9, 0.76))
    elif suit == CLUBS:
        # Small: a round top leaf, two side leaves low and wide, on a wide foot: round where
        # the diamond and the spade are pointed.
        if small:
            leaves = ((0.0, -0.2, 0.26), (-0.27, 0.18, 0.23), (0.27, 0.18, 0.23))
            poly(_foot(0.2, 0.36))
        else:
            leaves = ((0.0, -0.25, 0.215), (-0.255, 0.08, 0.215), (0.255, 0.08, 0.215))
            poly(_foot(0.02, 0.17))
        for u, v, r in leaves:
            circle(u, v, r)
        circle(0, 0.0 if small else -0.02, 0.13)  # where the three leaves meet
    else:  # pragma: no cover - suit_of gives 0..3
        raise ValueError(suit)


# Pips: (column, row) with column -1/0/1 and row 0..1 (top to bottom); the rows below the
# middle are drawn upside down, as on French cards.
_PIPS: Final = {
    SEVEN: [(c, r) for c in (-1, 1) for r in (0, 0.5, 1)] + [(0, 0.25)],
    EIGHT: [(c, r) for c in (-1, 1) for r in (0, 0.5, 1)] + [(0, 0.25), (0, 0.75)],
    NINE: [(c, r) for c in (-1, 1) for r in (0, 1 / 3, 2 / 3, 1)] + [(0, 0.5)],
    TEN: [(c, r) for c in (-1, 1) for r in (0, 1 / 3, 2 / 3, 1)] + [(0, 1 / 6), (0, 5 / 6)],
}
_PIP_SIZE: Final = 19
_PIP_COL: Final = 17  # the side columns' distance from the middle
_PIP_TOP: Final = 35
_PIP_SPAN: Final = 110


# -- courts -----------------------------------------------------------------------------------

#: The frame of a court's picture (card units), clear of the corner indexes; each half holds
#: one figure, drawn in a box ``_BUST_W`` wide and scaled down to the frame's width.
_FRAME: Final = (34.0, 20.0, 86.0, 160.0)
_BUST_W: Final = 60.0


def _bust(pen: Pen, rank: int, suit: int, t: Theme) -> None:
    """One half of a court card: a figure from the waist up, in a box 60 wide and 80 high (the
    upper half of the frame; the lower half is the same turned round). The head at (30, 30)."""
    line = t.line
    robe = t.french.robe[suit]
    gold, gold_line = GOLD
    if rank == OVER:  # long hair, behind the head and down to the shoulders
        pen.poly([(17, 30), (20, 18), (30, 14), (40, 18), (43, 30), (45, 58), (15, 58)],
                 HAIR, line, 0.8)
    elif rank == UNDER:  # short hair under the cap
        pen.ellipse(30, 25, 11, 9, HAIR, line, 0.8)
    # Shoulders and robe, a collar of the trim colour.
    pen.poly([(4, 81), (6, 54), (20, 44), (40, 44), (54, 54), (56, 81)], robe, line, 1.0)
    pen.poly([(20, 44), (30, 56), (40, 44)], TRIM, line, 0.8)
    pen.ellipse(30, 30, 9.5, 11, SKIN, line, 1.0)
    pen.ellipse(26.6, 29, 1.0, 1.2, line)  # eyes
    pen.ellipse(33.4, 29, 1.0, 1.2, line)
    if rank == KING:
        pen.poly([(22, 36), (38, 36), (36, 46), (30, 50), (24, 46)], TRIM, line, 0.8)  # beard
        pen.line([(26.5, 39), (33.5, 39)], line, 0.8)
        pen.poly([(19, 21), (18, 5), (24, 13), (30, 2), (36, 13), (42, 5), (41, 21)],
                 gold, gold_line, 0.9)  # a crown with points
        pen.ellipse(30, 16, 2.2, 2.2, RUBY)
        pen.line([(49, 80), (50, 24)], gold_line, 2.2)  # sceptre
        pen.ellipse(50, 22, 3.6, 3.6, gold, gold_line, 0.8)
    elif rank == OVER:
        pen.line([(27, 36), (33, 36)], line, 0.8)
        # A rounded diadem over the hair: no points, a jewel in front.
        pen.poly(curve(lambda a: 30 + 12 * math.cos(a), lambda a: 20 - 9 * math.sin(a),
                       n=24, t0=0.0, t1=math.pi), gold, gold_line, 0.9)
        pen.ellipse(30, 15, 2.4, 2.4, RUBY)
        pen.line([(48, 76), (47, 40)], (40, 120, 60), 1.4)  # a flower on its stalk
        for a in range(5):
            x = 47 + 3.2 * math.cos(a * 2 * math.pi / 5)
            y = 37 + 3.2 * math.sin(a * 2 * math.pi / 5)
            pen.ellipse(x, y, 2.4, 2.4, TRIM, line, 0.5)
        pen.ellipse(47, 37, 1.6, 1.6, gold)
    elif rank == UNDER:
        pen.line([(27, 36), (33, 36)], line, 0.8)
        # A flat cap pulled to one side, with a feather.
        pen.ellipse(29, 19.5, 14, 4.5, robe, line, 0.9)
        pen.poly([(19, 19), (22, 11), (36, 10), (40, 18)], robe, line, 0.9)
        pen.line([(37, 12), (44, 5), (49, 3)], gold, 2.0)
        pen.line([(51, 80), (51, 8)], (120, 84, 48), 1.6)  # a halberd's shaft and blade
        pen.poly([(51, 10), (58, 14), (58, 22), (51, 20)], (200, 204, 212), line, 0.7)
    else:  # pragma: no cover
        raise ValueError(rank)


def _court(pen: Pen, rank: int, suit: int, t: Theme) -> None:
    x0, y0, x1, y1 = _FRAME
    f = pen.f
    ink = t.french.ink[suit]
    pen.rect(x0, y0, x1, y1, None, ink, 1.0, radius=3)
    # The upper half drawn once, then turned round for the lower one.
    w, h = x1 - x0, (y1 - y0) / 2
    half = Image.new("RGBA", (round(w * f), round(h * f)), (0, 0, 0, 0))
    half_pen = Pen(half, f * w / _BUST_W)
    _bust(half_pen, rank, suit, t)
    _sign(half_pen, suit, 9, 11, 15, t)
    x, y = round(x0 * f), round(y0 * f)
    pen.image.alpha_composite(half, (x, y))
    pen.image.alpha_composite(half.transpose(Image.Transpose.ROTATE_180), (x, y + half.height))
    mid = y0 + h
    pen.line([(x0 + 1, mid), (x1 - 1, mid)], ink, 0.8)


def _body(pen: Pen, suit: int, rank: int, t: Theme) -> None:
    if rank == ACE:
        _sign(pen, suit, 60, 90, 58, t)
    elif rank in _PIPS:
        for col, row in _PIPS[rank]:
            _sign(pen, suit, 60 + col * _PIP_COL, _PIP_TOP + row * _PIP_SPAN, _PIP_SIZE, t,
                  flip=row > 0.5)
    else:
        _court(pen, rank, suit, t)


def _theme_sign(pen: Pen, suit: int, cx: float, cy: float, size: float, t: Theme) -> None:
    _sign(pen, suit, cx, cy, size, t)


def _ink(t: Theme) -> tuple[RGB, RGB, RGB, RGB]:
    return t.french.ink


DECK: Final = Deck("french", _theme_sign, _body, _ink, "corner.french.")


def clear_caches() -> None:
    """Forget the suit signs drawn so far."""
    _layer.cache_clear()
