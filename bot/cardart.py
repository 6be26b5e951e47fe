"""Card pictures: German-suited cards drawn with Pillow from simple shapes.

Pure functions, plain data in, pictures out (no Discord here): ``card_image`` gives one card
face, ``hand_png`` a player's hand with the index numbers of its buttons, ``table_png`` the
trick in progress around a table. Everything is drawn by this module from polygons, ellipses
and lines, supersampled (4x for cards, 2x for the table) and scaled down so the edges are
smooth. Text is set in DejaVu Sans, shipped in ``bot/fonts`` (a subset: Latin with every
accent, Greek, Cyrillic), so names keep their accents ("Ștefan", "Őrs"), and the emoji of
names in Noto Emoji (monochrome, shipped beside it; licences in ``bot/fonts/LICENSE.txt``):
"Ana 🌻" keeps her sunflower. What neither font has (🂡) is dropped. The same input always
gives the same bytes.

- Suit signs: acorns (E) a brown nut in a cup, leaves (G) a blue-green leaf with veins,
  hearts (H) a red heart, bells (S) a golden bell. Small signs (the corners and the pips: 8
  to 10 px on a phone) are bold silhouettes that differ by shape, not only by colour: the
  acorn a T (a narrow nut under a wide cup), the bell an O with a slot, the leaf a spade on
  a stem.
- Ranks: the rank in the two corners as the reader's language names it (``corner_label``,
  from the catalogs: Á K F A in Hungarian, where "A" is the Under, *alsó*) above the suit sign;
  the Ace a large sign, the Ten to the Seven as many signs as they count. The figures: the
  King wears a crown and a beard and carries the sign on his chest; the Over raises the sign
  above his tall hat; the Under holds it down at his feet.
- Sizes are for a 2x screen (a card is 120x180 px and is shown about 60x90), so that pictures
  stay sharp on phones and desktops when Discord scales them down.
- Themes: ``"light"`` (white cards on Discord's light grey), ``"dark"`` (slate cards on
  Discord's dark grey, the default) and ``"fourcolour"`` (white cards on dark grey; black
  acorns, dark blue-green leaves, vermilion hearts, yellow bells); the picture is opaque, so
  it reads in either client theme. In every theme a colour-blind player (red-green or
  blue-yellow) tells the four suits apart by colour: the leaves are blue-green and the acorns
  differ from the hearts in lightness. The four-colour theme goes further: its suits differ in
  lightness alone, so they stay apart in grey too. Cards that cannot be played are half
  greyed and lowered, their corners kept above 3:1 contrast.
- The table labels the trump sign and the shown cards, puts each name by its own card (at
  five and six seats the side seats' names beside their cards, toward the rim), the name of
  the seat to move on a blue pill with an arrow, and frames the card that takes the trick so
  far in gold.

Speed (``tools/card_pictures.py --bench``: CPU time per image, median of 15, Pillow 13 on the
project's 2-core VM; CPU time, because wall time on this shared VM drifted up to 3x while
other jobs ran):

======================================  ======  ===========  =======
image                                     cold  cards known   cached
======================================  ======  ===========  =======
``hand_png``, 8 cards (one row)          54 ms         9 ms  0.02 ms
``hand_png``, 16 cards (two rows)        90 ms        18 ms  0.02 ms
``table_png``, 4 seats, 3 cards played   53 ms        15 ms  0.03 ms
``table_png``, 6 seats, 5 cards played   65 ms        19 ms  0.04 ms
``card_image``, one face                  4 ms            -        -
======================================  ======  ===========  =======

*cold*: nothing cached, every card face drawn (happens once per face, theme and language:
64 faces, about 0.25 s in all); *cards known*: the faces are cached but the picture is new
(the usual case: a card less, another set of playable cards); *cached*: the same picture
again.
"""

from __future__ import annotations

import io
import math
import unicodedata
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from bot import texts
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
    RANK_CODES,
    SEVEN,
    TEN,
    UNDER,
    rank_of,
    suit_of,
)

__all__ = ["CARD_H", "CARD_W", "THEMES", "card_image", "clear_caches", "corner_label", "hand_png",
           "ranking_png", "suit_sign", "table_png"]

THEMES: Final = ("light", "dark", "fourcolour")
#: One card face at full size (a 2x picture: shown at about 60x90 on screen).
CARD_W: Final = 120
CARD_H: Final = 180
#: Shapes are drawn this many times larger and scaled down: smooth edges without antialiasing.
_SS: Final = 4
_RADIUS: Final = 9.0
#: Suit signs smaller than this (in card units) are drawn as bold silhouettes: at phone size
#: (a card about 50 px wide) the corner and pip signs are 8 to 10 px, where only the outline
#: and a light/dark split still read.
_SMALL_SIGN: Final = 26.0

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Point = tuple[float, float]


@dataclass(frozen=True)
class _Palette:
    """The colours of the suit signs and of the figures' clothes."""

    nut: tuple[RGB, RGB, RGB]  # acorn: fill, outline, shine
    cup: tuple[RGB, RGB]  # acorn's cup: fill, outline
    leaf: tuple[RGB, RGB]
    heart: tuple[RGB, RGB, RGB]
    bell: tuple[RGB, RGB, RGB, RGB]  # fill, outline, band, shine
    robe: tuple[RGB, RGB, RGB, RGB]  # per suit


#: The cards' own colours, shifted so that a colour-blind player still tells four suits apart:
#: the leaves are blue-green (teal), which stays blue for a red-green colour-blind eye, where
#: the old grass green turned the same olive-brown as the acorns and the hearts; the acorns are
#: far darker than the hearts on white cards (lighter on the dark theme's slate cards), so that
#: those two, both yellowish to such an eye, still differ in lightness. Every two suits stay at
#: least 15 CIEDE2000 apart under simulated protanopia, deuteranopia and tritanopia
#: (``tests/test_cardart.py``; before: 1.2 between acorns and hearts for a deuteranope).
_GERMAN: Final = _Palette(  # on white cards
    nut=((72, 48, 24), (36, 22, 8), (156, 118, 80)), cup=((128, 94, 56), (36, 22, 8)),
    leaf=((0, 144, 144), (0, 78, 80)), heart=((216, 80, 48), (128, 30, 10), (255, 172, 150)),
    bell=((240, 200, 0), (128, 90, 0), (196, 140, 0), (255, 236, 150)),
    robe=((112, 74, 38), (0, 122, 124), (196, 64, 40), (232, 184, 20)),
)
#: The same on the dark theme's slate cards: light tan acorns, lighter gold bells.
_GERMAN_DARK: Final = _Palette(
    nut=((184, 144, 120), (96, 66, 44), (236, 212, 192)), cup=((124, 92, 66), (70, 48, 30)),
    leaf=((0, 144, 160), (0, 70, 82)), heart=((208, 56, 24), (112, 20, 0), (255, 150, 128)),
    bell=((248, 216, 104), (122, 90, 10), (200, 150, 40), (255, 246, 200)),
    robe=((150, 112, 82), (0, 120, 134), (186, 48, 26), (236, 196, 80)),
)
#: Four colours far apart in lightness as well as hue, on white cards: black acorns, dark
#: blue-green leaves, light vermilion hearts, yellow bells (after the Okabe-Ito palette). Where
#: the cards' own colours above keep the suits apart for red-green and blue-yellow colour
#: blindness, these keep them apart by lightness alone: in grey (no colour vision at all, a
#: phone's screen in the sun or set to greyscale) they stay at least 15 CIEDE2000 apart too.
_FOUR: Final = _Palette(
    nut=((28, 26, 26), (0, 0, 0), (120, 112, 106)), cup=((12, 12, 12), (0, 0, 0)),
    leaf=((0, 100, 80), (0, 48, 38)), heart=((235, 80, 30), (120, 30, 0), (255, 180, 150)),
    bell=((246, 212, 40), (96, 72, 0), (150, 110, 0), (255, 244, 170)),
    robe=((70, 68, 72), (0, 112, 90), (222, 74, 30), (232, 190, 30)),
)


@dataclass(frozen=True)
class _Theme:
    bg: RGB
    text: RGB
    muted: RGB
    face: RGB
    edge: RGB
    line: RGB  # outlines of the figures
    ink: tuple[RGB, RGB, RGB, RGB]  # rank codes, per suit
    shadow: int  # alpha of the shadow under a card
    felt: RGB
    felt_line: RGB
    rim: RGB
    label_bg: RGB
    label_text: RGB
    accent: RGB  # playable index numbers: the colour of Discord's primary buttons
    accent_text: RGB
    palette: _Palette = _GERMAN
    #: How much of the background veils a card that cannot be played: little on the dark
    #: theme, whose cards are close to the background already.
    veil: float = 0.15


_THEMES: Final = {
    "light": _Theme(
        bg=(242, 243, 245), text=(49, 51, 56), muted=(128, 132, 142),
        face=(255, 255, 255), edge=(148, 152, 160), line=(60, 50, 48),
        ink=((72, 48, 24), (0, 116, 118), (196, 58, 28), (156, 110, 0)),
        shadow=70, felt=(46, 125, 82), felt_line=(98, 168, 126), rim=(122, 84, 52),
        label_bg=(255, 255, 255), label_text=(32, 34, 38),
        accent=(88, 101, 242), accent_text=(255, 255, 255),
    ),
    "dark": _Theme(
        bg=(43, 45, 49), text=(219, 222, 225), muted=(148, 152, 162),
        face=(64, 67, 75), edge=(128, 132, 142), line=(22, 22, 26),
        ink=((214, 178, 152), (80, 200, 214), (255, 112, 84), (250, 214, 100)),
        shadow=120, felt=(28, 78, 52), felt_line=(58, 118, 84), rim=(70, 50, 36),
        label_bg=(30, 31, 34), label_text=(230, 232, 235),
        accent=(88, 101, 242), accent_text=(255, 255, 255), palette=_GERMAN_DARK, veil=0.06,
    ),
    # White cards (the four colours need a light face) on Discord's dark grey.
    "fourcolour": _Theme(
        bg=(43, 45, 49), text=(219, 222, 225), muted=(148, 152, 162),
        face=(255, 255, 255), edge=(150, 154, 162), line=(60, 50, 48),
        ink=((24, 22, 22), (0, 96, 76), (204, 60, 16), (150, 108, 0)),
        shadow=120, felt=(28, 78, 52), felt_line=(58, 118, 84), rim=(70, 50, 36),
        label_bg=(30, 31, 34), label_text=(230, 232, 235),
        accent=(88, 101, 242), accent_text=(255, 255, 255), palette=_FOUR,
    ),
}


def _theme(theme: str) -> _Theme:
    try:
        return _THEMES[theme]
    except KeyError:
        raise ValueError(f"unknown theme {theme!r}; use one of {THEMES}") from None


def _check_card(card: int) -> None:
    if not isinstance(card, int) or not 0 <= card < 32:
        raise ValueError(f"{card!r} is not a card (an int 0..31)")


# -- drawing in card units -------------------------------------------------------------------


class _Pen:
    """Draws in card units (a card is 120 x 180) on a picture ``f`` pixels per unit."""

    def __init__(self, image: Image.Image, f: float) -> None:
        self.draw = ImageDraw.Draw(image)
        self.f = f

    def _xy(self, points: Sequence[Point]) -> list[Point]:
        f = self.f
        return [(x * f, y * f) for x, y in points]

    def _w(self, width: float) -> int:
        return max(1, round(width * self.f)) if width else 0

    def poly(self, points: Sequence[Point], fill: RGB | None, outline: RGB | None = None,
             width: float = 0.0) -> None:
        self.draw.polygon(self._xy(points), fill=fill, outline=outline, width=self._w(width))

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: RGB | None,
                outline: RGB | None = None, width: float = 0.0) -> None:
        f = self.f
        self.draw.ellipse(((cx - rx) * f, (cy - ry) * f, (cx + rx) * f, (cy + ry) * f),
                          fill=fill, outline=outline, width=self._w(width))

    def line(self, points: Sequence[Point], fill: RGB, width: float) -> None:
        self.draw.line(self._xy(points), fill=fill, width=self._w(width), joint="curve")
        r = width / 2  # round caps
        for x, y in (points[0], points[-1]):
            self.ellipse(x, y, r, r, fill)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: RGB | None,
             outline: RGB | None = None, width: float = 0.0, radius: float = 0.0) -> None:
        f = self.f
        self.draw.rounded_rectangle((x0 * f, y0 * f, x1 * f, y1 * f), radius=radius * f,
                                    fill=fill, outline=outline, width=self._w(width))

    def text(self, x: float, y: float, text: str, size: float, fill: RGB, anchor: str = "mm",
             bold: float = 0.0, heavy: bool = False, max_w: float | None = None) -> None:
        px = round(size * self.f)
        if max_w is not None:  # a long word ("10" in a heavy face) shrinks to fit the corner
            while px > 4 and _font(px, heavy).getlength(text) > max_w * self.f:
                px -= 1
        stroke = round(bold * self.f)
        self.draw.text((x * self.f, y * self.f), text, font=_font(px, heavy),
                       fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=fill)


_FONTS: Final = Path(__file__).resolve().parent / "fonts"


@lru_cache(maxsize=128)
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (a subset shipped in ``bot/fonts``: Latin, Greek, Cyrillic), so that names
    keep their accents: "Ștefan", "Őrs"."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(_FONTS / name), size)


#: Noto Emoji's glyphs fill the whole em where DejaVu's capitals fill three quarters of it:
#: set this much smaller, an emoji stands a little above the capitals beside it, as in a chat.
_EMOJI_SCALE: Final = 0.9


@lru_cache(maxsize=64)
def _emoji_font(size: int) -> ImageFont.FreeTypeFont:
    """Noto Emoji (monochrome, shipped in ``bot/fonts``) for the emoji in names: "Ana 🌻"."""
    return ImageFont.truetype(str(_FONTS / "NotoEmoji-SemiBold.ttf"),
                              max(1, round(size * _EMOJI_SCALE)))


def _curve(fx: Callable[[float], float], fy: Callable[[float], float], n: int = 72,
           t0: float = 0.0, t1: float = 2 * math.pi) -> list[Point]:
    return [(fx(t0 + (t1 - t0) * i / n), fy(t0 + (t1 - t0) * i / n)) for i in range(n + 1)]


def _fit(points: Sequence[Point], cx: float, cy: float, w: float, h: float) -> list[Point]:
    """Scale and move ``points`` so that their bounding box is ``w`` x ``h`` around (cx, cy)."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return [(cx + ((x - x0) / (x1 - x0) - 0.5) * w, cy + ((y - y0) / (y1 - y0) - 0.5) * h)
            for x, y in points]


# The heart curve (point down, y grows downwards), used for hearts and, upside down, leaves.
_HEART: Final = _curve(lambda t: 16 * math.sin(t) ** 3,
                       lambda t: -(13 * math.cos(t) - 5 * math.cos(2 * t)
                                   - 2 * math.cos(3 * t) - math.cos(4 * t)))



def _suit_sign(pen: _Pen, suit: int, cx: float, cy: float, size: float,
               pal: _Palette = _GERMAN) -> None:
    """The sign of ``suit`` in a ``size`` x ``size`` box centred on (cx, cy).

    Small signs (under ``_SMALL_SIGN``) are bold silhouettes that differ by shape, not only by
    colour: the acorn is narrow below a wide dark cup, the bell round and wide with a dark slot
    across, the heart wide with its point down, the leaf pointing up on a stem.
    """
    s = size
    small = s < _SMALL_SIGN
    w = max(0.6, s * (0.085 if small else 0.05))  # outline width

    def at(u: float, v: float) -> Point:
        return (cx + u * s, cy + v * s)

    if suit == HEARTS:
        fill, outline, shine = pal.heart
        pen.poly(_fit(_HEART, cx, cy, s * 0.96, s * 0.86), fill, outline, w)
        if not small:
            pen.ellipse(*at(-0.2, -0.17), s * 0.08, s * 0.055, shine)
    elif suit == LEAVES:
        fill, outline = pal.leaf
        leaf = [(x, -y) for x, y in _HEART]  # point up
        top_y = cy - s * 0.06
        if small:  # narrower and pointed on a long stem: a spade, where the bell is an O
            pen.line([at(0, 0.2), at(0.03, 0.5)], outline, s * 0.12)
            pen.poly(_fit(leaf, cx, cy - s * 0.1, s * 0.66, s * 0.8), fill, outline, w)
            return
        pen.line([at(0, 0.28), at(0.02, 0.5)], outline, s * 0.07)  # stem
        pen.poly(_fit(leaf, cx, top_y, s * 0.86, s * 0.84), fill, outline, w)
        pen.line([at(0, 0.3), at(0, -0.38)], outline, s * 0.035)  # veins
        for v in (-0.14, 0.04, 0.2):
            pen.line([at(0, v + 0.07), at(-0.23, v - 0.06)], outline, s * 0.028)
            pen.line([at(0, v + 0.07), at(0.23, v - 0.06)], outline, s * 0.028)
    elif suit == ACORNS:
        nut, nut_line, shine = pal.nut
        cup, cup_line = pal.cup
        if small:
            # A narrow nut under a cup half again as wide: a T, where the bell is an O.
            egg = _curve(lambda t: math.sin(t) * 0.2,
                         lambda t: -math.cos(t) * 0.3 * (1.0 if math.cos(t) > 0 else 1.15))
            pen.poly([at(u, v + 0.15) for u, v in egg], nut, nut_line, w)
            pen.line([at(0, -0.3), at(0.06, -0.5)], cup_line, s * 0.11)  # stalk
            dome = _curve(lambda t: math.cos(t) * 0.4, lambda t: -math.sin(t) * 0.2,
                          n=36, t0=0.0, t1=math.pi)
            rim = _curve(lambda t: math.cos(t) * 0.4, lambda t: math.sin(t) * 0.09,
                         n=18, t0=math.pi, t1=0.0)
            pen.poly([at(u, v - 0.06) for u, v in dome + rim], cup, cup_line, w)
            return
        egg = _curve(lambda t: math.sin(t) * 0.27,
                     lambda t: -math.cos(t) * 0.34 * (1.0 if math.cos(t) > 0 else 1.12))
        pen.poly([at(u, v + 0.12) for u, v in egg], nut, nut_line, w)
        pen.ellipse(*at(-0.1, 0.16), s * 0.05, s * 0.11, shine)
        pen.line([at(0, -0.3), at(0.05, -0.48)], cup_line, s * 0.07)  # stalk
        dome = _curve(lambda t: math.cos(t) * 0.34, lambda t: -math.sin(t) * 0.2,
                      n=36, t0=0.0, t1=math.pi)
        rim = _curve(lambda t: math.cos(t) * 0.34, lambda t: math.sin(t) * 0.06,
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


def suit_sign(suit: int, size: float = 20.0, *, px: int | None = None,
              theme: str = "dark") -> Image.Image:
    """The sign of ``suit`` alone as drawn on a card: ``size`` card units (the corner's sign is
    20, a pip 19, the Ace's 60; under 26 the bold small form), in a picture ``px`` pixels
    square (default ``size``: a full-size card), RGBA, transparent around."""
    if suit not in (ACORNS, LEAVES, HEARTS, BELLS):
        raise ValueError(f"{suit!r} is not a suit")
    px = round(size) if px is None else px
    f = px * _SS / size
    big = Image.new("RGBA", (px * _SS, px * _SS), (0, 0, 0, 0))
    _suit_sign(_Pen(big, f), suit, size / 2, size / 2, size, _theme(theme).palette)
    return big.reduce(_SS)


# -- figures ----------------------------------------------------------------------------------

_SKIN: Final = (242, 204, 170)
_HAIR: Final = (112, 72, 40)
_TRIM: Final = (246, 240, 226)
_GOLD: Final = ((244, 198, 52), (150, 104, 8))
_HAT: Final = (72, 92, 176)
_RUBY: Final = (222, 44, 52)  # the jewel of the King's crown
_CAP: Final = (96, 98, 110)
_BOOT: Final = (60, 46, 40)


def _head(pen: _Pen, cx: float, cy: float, line: RGB) -> None:
    pen.ellipse(cx, cy, 10.5, 11.5, _SKIN, line, 1.0)
    pen.ellipse(cx - 3.5, cy - 1, 1.1, 1.3, line)  # eyes
    pen.ellipse(cx + 3.5, cy - 1, 1.1, 1.3, line)
    pen.line([(cx - 3, cy + 5), (cx + 3, cy + 5)], line, 0.9)


def _figure(pen: _Pen, rank: int, suit: int, t: _Theme) -> None:
    robe = t.palette.robe[suit]
    pal = t.palette
    line = t.line
    if rank == KING:
        pen.poly([(47, 72), (73, 72), (82, 82), (84, 152), (36, 152), (38, 82)], robe, line, 1.0)
        pen.rect(56, 84, 64, 152, _TRIM, line, 0.8)
        _head(pen, 60, 58, line)
        pen.poly([(49, 60), (71, 60), (68, 74), (60, 80), (52, 74)], _TRIM, line, 0.9)  # beard
        pen.line([(56, 65), (64, 65)], line, 0.9)
        pen.ellipse(60, 76, 17, 5, _TRIM, line, 0.8)  # collar
        gold, gold_line = _GOLD
        pen.poly([(46, 49), (44, 31), (52, 40), (60, 26), (68, 40), (76, 31), (74, 49)],
                 gold, gold_line, 1.0)  # crown
        pen.ellipse(60, 43, 2.4, 2.4, _RUBY)
        pen.ellipse(60, 109, 15, 15, t.face, line, 1.0)  # the sign on the chest
        _suit_sign(pen, suit, 60, 109, 20, pal)
    elif rank == OVER:
        pen.line([(42, 96), (36, 128)], robe, 7)  # left arm, down
        pen.poly([(50, 86), (70, 86), (80, 94), (82, 148), (38, 148), (40, 94)], robe, line, 1.0)
        pen.rect(38, 116, 82, 121, _TRIM, line, 0.7)  # belt
        pen.rect(45, 147, 55, 156, _BOOT, line, 0.7)
        pen.rect(65, 147, 75, 156, _BOOT, line, 0.7)
        pen.line([(76, 94), (85, 76), (74, 58)], robe, 7)  # right arm, up
        pen.ellipse(36, 129, 3.5, 3.5, _SKIN, line, 0.7)
        _head(pen, 60, 75, line)
        pen.ellipse(60, 66, 14, 3.2, _HAT, line, 0.8)  # tall hat with a feather
        pen.poly([(51, 65), (53, 54), (67, 54), (69, 65)], _HAT, line, 0.8)
        pen.line([(52, 56), (44, 46), (40, 36)], _TRIM, 2.4)
        pen.ellipse(74, 58, 3.5, 3.5, _SKIN, line, 0.7)
        _suit_sign(pen, suit, 60, 37, 30, pal)  # raised high
    elif rank == UNDER:
        pen.rect(45, 112, 55, 134, _TRIM, line, 0.7)  # legs
        pen.rect(65, 112, 75, 134, _TRIM, line, 0.7)
        pen.line([(42, 64), (36, 98)], robe, 7)  # left arm
        pen.poly([(50, 56), (70, 56), (80, 64), (82, 116), (38, 116), (40, 64)], robe, line, 1.0)
        pen.rect(38, 90, 82, 95, _TRIM, line, 0.7)
        pen.ellipse(36, 99, 3.5, 3.5, _SKIN, line, 0.7)
        _head(pen, 60, 44, line)
        pen.ellipse(61, 33, 14, 5.5, _CAP, line, 0.8)  # flat cap
        pen.line([(76, 64), (84, 96), (75, 128)], robe, 7)  # right arm, down
        pen.ellipse(75, 130, 3.5, 3.5, _SKIN, line, 0.7)
        _suit_sign(pen, suit, 60, 145, 30, pal)  # held low
    else:  # pragma: no cover
        raise ValueError(rank)


# Pips of the Seven to the Ten: (column, row) with column -1/0/1 and row 0..1 (top to bottom).
_PIPS: Final = {
    SEVEN: [(c, r) for c in (-1, 1) for r in (0, 0.5, 1)] + [(0, 0.25)],
    EIGHT: [(c, r) for c in (-1, 1) for r in (0, 1 / 3, 2 / 3, 1)],
    NINE: [(c, r) for c in (-1, 1) for r in (0, 1 / 3, 2 / 3, 1)] + [(0, 0.5)],
    TEN: [(c, r) for c in (-1, 1) for r in (0, 0.25, 0.5, 0.75, 1)],
}


_CORNER_W: Final = 40
_CORNER_H: Final = 60


def _corner(pen: _Pen, card: int, t: _Theme, label: str) -> None:
    suit = suit_of(card)
    size = 25.0 if len(label) > 1 else 29.0
    pen.text(20, 4, label, size, t.ink[suit], anchor="mt", bold=0.4, heavy=True,
             max_w=_CORNER_W - 4)
    _suit_sign(pen, suit, 20, 45, 22, t.palette)


@lru_cache(maxsize=1024)
def _face(card: int, theme: str, scale: float, label: str) -> Image.Image:
    """One card face, ``scale`` times the full size, RGBA with transparent corners; ``label``
    is its rank in the corners."""
    _check_card(card)
    t = _theme(theme)
    pal = t.palette
    f = _SS * scale
    big = Image.new("RGBA", (round(CARD_W * f), round(CARD_H * f)), (*t.face, 0))
    pen = _Pen(big, f)
    pen.rect(0, 0, CARD_W - 1 / f, CARD_H - 1 / f, t.face, t.edge, 1.6, radius=_RADIUS)
    suit, rank = suit_of(card), rank_of(card)
    if rank == ACE:
        pen.ellipse(60, 90, 40, 40, None, t.ink[suit], 1.2)
        pen.ellipse(60, 90, 36, 36, None, t.ink[suit], 0.6)
        _suit_sign(pen, suit, 60, 90, 60, pal)
    elif rank in _PIPS:
        for col, row in _PIPS[rank]:
            _suit_sign(pen, suit, 60 + col * 13, 32 + row * 116, 19, pal)
    else:
        _figure(pen, rank, suit, t)
    # The corner index, drawn once and turned round for the opposite corner.
    cw, ch = round(_CORNER_W * f), round(_CORNER_H * f)
    corner = Image.new("RGBA", (cw, ch), (0, 0, 0, 0))
    _corner(_Pen(corner, f), card, t, label)
    big.alpha_composite(corner)
    big.alpha_composite(corner.transpose(Image.Transpose.ROTATE_180),
                        (big.width - cw, big.height - ch))
    return big.reduce(_SS)


def corner_label(rank: int, lang: str | None = None) -> str:
    """The rank as the cards' corners show it to a reader of ``lang`` (default: the current
    language of ``bot.texts``): from the catalogs' ``corner.*`` entries, e.g. the Over is "O"
    in English, "F" (*felső*) in Hungarian, the Ace "A" in English and "Á" (*ász*) in
    Hungarian, where "A" is the Under (*alsó*)."""
    code = RANK_CODES[rank]
    catalog = texts.CATALOGS.get(lang or texts.current_language(), texts.EN)
    return catalog.get(f"corner.{code}") or texts.EN.get(f"corner.{code}") or code


def _language(lang: str | None) -> str:
    lang = lang or texts.current_language()
    return lang if lang in texts.CATALOGS else texts.DEFAULT


def _card_face(card: int, theme: str, scale: float, lang: str) -> Image.Image:
    return _face(card, theme, scale, corner_label(rank_of(card), lang))


def card_image(card: int, theme: str = "dark", *, lang: str | None = None) -> Image.Image:
    """The face of ``card`` (an int of ``engine.cards``): 120 x 180 px RGBA, corners transparent;
    the corners show the rank as a reader of ``lang`` names it (default: the current language).

    Cached: the same object comes back for the same arguments, so do not draw on it (copy it).
    """
    return _card_face(card, theme, 1.0, _language(lang))


#: How far a card that cannot be played now is greyed (and veiled: ``_Theme.veil``): enough to
#: tell it from the playable ones at a glance, little enough that its corner still reads
#: (contrast kept above 3:1 in every theme, ``tests/test_cardart.py``).
_GREY: Final = 0.5


@lru_cache(maxsize=1024)
def _dimmed(card: int, theme: str, scale: float, label: str) -> Image.Image:
    """A card that cannot be played now: its colours greyed and a light veil of the background
    over it. Greying rather than fading keeps the lightness of its ink, so that on the dark
    theme the card does not sink into the background."""
    face = _face(card, theme, scale, label)
    grey = face.convert("LA").convert("RGBA")
    dim = Image.blend(face, grey, _GREY)
    t = _theme(theme)
    dim = Image.blend(dim, Image.new("RGBA", face.size, (*t.bg, 255)), t.veil)
    dim.putalpha(face.getchannel("A"))
    return dim


@lru_cache(maxsize=16)
def _shadow(theme: str, scale: float) -> tuple[Image.Image, int]:
    """A soft shadow for a card of ``scale``, and how far it reaches out of the card."""
    pad = max(2, round(5 * scale))
    w, h = round(CARD_W * scale), round(CARD_H * scale)
    img = Image.new("RGBA", (w + 2 * pad, h + 2 * pad), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        (pad, pad + 2 * scale, pad + w, pad + h + 2 * scale), radius=_RADIUS * scale,
        fill=(0, 0, 0, _theme(theme).shadow))
    return img.filter(ImageFilter.GaussianBlur(pad / 2)), pad


@lru_cache(maxsize=256)
def _pill(w: int, h: int, fill: RGB) -> Image.Image:
    """A rounded label background, supersampled."""
    big = Image.new("RGBA", (w * _SS, h * _SS), (*fill, 0))
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w * _SS - 1, h * _SS - 1), radius=h * _SS / 2,
                                          fill=fill)
    return big.reduce(_SS)


def _paste_card(canvas: Image.Image, face: Image.Image, theme: str, scale: float, x: int,
                y: int) -> None:
    shadow, pad = _shadow(theme, scale)
    canvas.alpha_composite(shadow, (x - pad, y - pad))
    canvas.alpha_composite(face, (x, y))


def _png(canvas: Image.Image) -> bytes:
    out = io.BytesIO()
    canvas.convert("RGB").save(out, "PNG", compress_level=3)
    return out.getvalue()


# -- text the fonts can show -----------------------------------------------------------------

#: Characters that belong to the emoji before them: the zero-width joiner of a sequence (👨‍👩‍👧),
#: the variation selectors (❤️), skin tones (👍🏽), the keycap (1️⃣) and the tags of a subdivision
#: flag. They travel with their emoji and are dropped where no emoji precedes them.
_EMOJI_MARKS: Final = frozenset(
    ["\u200d", "\ufe0e", "\ufe0f", "\u20e3"]
    + [chr(c) for c in range(0x1F3FB, 0x1F400)] + [chr(c) for c in range(0xE0020, 0xE0080)])

#: A piece of text and whether it is set in the emoji font.
Run = tuple[str, bool]


@lru_cache(maxsize=2)
def _notdef(emoji: bool) -> bytes:
    font = _emoji_font(20) if emoji else _font(20)
    return bytes(font.getmask("\uffff"))


@lru_cache(maxsize=4096)
def _has_glyph(ch: str, emoji: bool = False) -> bool:
    if emoji:
        return bytes(_emoji_font(20).getmask(ch)) != _notdef(True)
    return ch == " " or bytes(_font(20).getmask(ch)) != _notdef(False)


@lru_cache(maxsize=1024)
def _runs(text: str) -> tuple[Run, ...]:
    """``text`` as the fonts can show it, in runs of text (DejaVu Sans) and emoji (Noto Emoji).

    DejaVu covers Latin (accents included: "Ștefan", "Őrs"), Greek and Cyrillic; a character it
    lacks is drawn from the emoji font if that has it (😀, 🌰, ❤️: an emoji asked for by U+FE0F
    comes from there even where DejaVu has the symbol), else loses its accent if that helps,
    else goes (🂡). Spaces are collapsed and trimmed.
    """
    chars: list[Run] = []  # one character at a time, then merged
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    for i, ch in enumerate(text):
        if ch in _EMOJI_MARKS:
            if chars and chars[-1][1]:
                chars.append((ch, True))
            continue
        asks_emoji = text[i + 1:i + 2] == "\ufe0f"
        if (asks_emoji or not _has_glyph(ch)) and _has_glyph(ch, emoji=True):
            chars.append((ch, True))
        elif _has_glyph(ch):
            chars.append((ch, False))
        else:
            chars.extend((c, False) for c in unicodedata.normalize("NFKD", ch)
                         if not unicodedata.combining(c) and _has_glyph(c))
    # What was dropped may leave two spaces side by side, or one at an end.
    kept = [run for i, run in enumerate(chars)
            if run[0] != " " or (0 < i < len(chars) - 1 and chars[i - 1][0] != " ")]
    while kept and kept[-1][0] == " ":
        kept.pop()
    return _merge(kept)


def _printable(text: str) -> str:
    """``text`` with what the fonts cannot show spelled without accents or dropped."""
    return "".join(run for run, _ in _runs(text))


def _run_font(size: int, bold: bool, emoji: bool) -> ImageFont.FreeTypeFont:
    return _emoji_font(size) if emoji else _font(size, bold)


def _text_width(runs: Sequence[Run], size: int, bold: bool = False) -> float:
    return sum(_run_font(size, bold, emoji).getlength(run) for run, emoji in runs)


def _ellipsize(runs: tuple[Run, ...], size: int, max_w: int,
               bold: bool = False) -> tuple[Run, ...]:
    """``runs`` cut short with "…" to fit ``max_w`` pixels."""
    if _text_width(runs, size, bold) <= max_w:
        return runs
    chars = [(ch, emoji) for run, emoji in runs for ch in run]
    while chars:
        chars.pop()
        while chars and (chars[-1][0] in _EMOJI_MARKS or chars[-1][0] == " "):
            chars.pop()  # no half of an emoji sequence, no space before the "…"
        cut = _merge([*chars, ("…", False)])
        if _text_width(cut, size, bold) <= max_w:
            return cut
    return (("…", False),)


def _merge(chars: Sequence[Run]) -> tuple[Run, ...]:
    runs: list[Run] = []
    for ch, emoji in chars:
        if runs and runs[-1][1] == emoji:
            runs[-1] = (runs[-1][0] + ch, emoji)
        else:
            runs.append((ch, emoji))
    return tuple(runs)


def _draw_runs(draw: ImageDraw.ImageDraw, x: float, cy: float, runs: Sequence[Run], size: int,
               fill: RGB, bold: bool = False, centre: bool = True) -> None:
    """``runs`` on one line, vertically centred on ``cy`` as DejaVu's anchor "m" does (between
    its ascender and descender), starting at ``x`` or, with ``centre``, centred on it; the
    emoji sit on the same baseline."""
    font = _font(size, bold)
    ascent, descent = font.getmetrics()
    baseline = cy + (ascent - descent) / 2
    if centre:
        x -= _text_width(runs, size, bold) / 2
    for run, emoji in runs:
        run_font = _run_font(size, bold, emoji)
        draw.text((x, baseline), run, font=run_font, fill=fill, anchor="ls")
        x += run_font.getlength(run)


def _label(canvas: Image.Image, x: int, cy: int, text: str, size: int, fill: RGB,
           ink: RGB, max_w: int, bold: bool = False, align: str = "centre") -> None:
    """A text on a pill at height ``cy``: centred on ``x``, or with ``align`` "left" starting
    there, "right" ending there."""
    runs = _ellipsize(_runs(text), size, max_w, bold)
    w = round(_text_width(runs, size, bold)) + size
    h = round(size * 1.5)
    cx = x if align == "centre" else x + w // 2 if align == "left" else x - (w - w // 2)
    canvas.alpha_composite(_pill(w, h, fill), (cx - w // 2, cy - h // 2))
    _draw_runs(ImageDraw.Draw(canvas), cx, cy, runs, size, ink, bold)


# -- the hand ---------------------------------------------------------------------------------

_MARGIN: Final = 16
_STEP: Final = 88  # a card covers the right 27 % of the one before
_LIFT: Final = 14  # playable cards stand this much higher
_NUM_SIZE: Final = 20
_NUM_H: Final = 38
_ROW_GAP: Final = 12
_PER_ROW: Final = 8


def hand_png(cards: Sequence[int], *, theme: str = "dark",
             playable: Collection[int] | None = None, labels: bool = True,
             lang: str | None = None) -> bytes:
    """A player's hand as a PNG: the cards in the given order, overlapping from left to right.

    With ``playable``, the other cards are faded and the playable ones stand a little higher;
    with ``labels``, each card has its index number (1..n) under it, on a blue pill when it
    can be played, to match the buttons. Over 8 cards the hand takes two rows. The corners
    show the ranks as a reader of ``lang`` names them (default: the current language).
    """
    cards = tuple(cards)
    for c in cards:
        _check_card(c)
    keep = None if playable is None else frozenset(c for c in playable if c in cards)
    return _hand_png(cards, theme, keep, labels, _language(lang))


@lru_cache(maxsize=256)
def _hand_png(cards: tuple[int, ...], theme: str, playable: frozenset[int] | None,
              labels: bool, lang: str) -> bytes:
    t = _theme(theme)
    n = len(cards)
    first = n if n <= _PER_ROW else (n + 1) // 2
    rows = [cards[:first], cards[first:]] if n > _PER_ROW else [cards]
    per_row = max(1, first)
    lift = _LIFT if playable is not None else 0
    row_h = lift + CARD_H + (_NUM_H if labels else 0)
    width = 2 * _MARGIN + (per_row - 1) * _STEP + CARD_W
    height = 2 * _MARGIN + len(rows) * row_h + (len(rows) - 1) * _ROW_GAP - (
        8 if labels else 0)
    canvas = Image.new("RGBA", (width, height), (*t.bg, 255))
    draw = ImageDraw.Draw(canvas)
    index = 0
    for r, row in enumerate(rows):
        top = _MARGIN + r * (row_h + _ROW_GAP)
        for i, c in enumerate(row):
            index += 1
            x = _MARGIN + i * _STEP
            ok = playable is None or c in playable
            label = corner_label(rank_of(c), lang)
            face = _face(c, theme, 1.0, label) if ok else _dimmed(c, theme, 1.0, label)
            y = top + (0 if ok else lift)
            _paste_card(canvas, face, theme, 1.0, x, y)
            if labels:
                visible = CARD_W if i == len(row) - 1 else _STEP
                cx, cy = x + visible // 2, top + lift + CARD_H + _NUM_H // 2
                if playable is not None and ok:
                    canvas.alpha_composite(_pill(36, 28, t.accent), (cx - 18, cy - 14))
                    ink = t.accent_text
                else:
                    ink = t.muted if playable is not None else t.text
                draw.text((cx, cy), str(index), font=_font(_NUM_SIZE), fill=ink, anchor="mm")
    return _png(canvas)


# -- the table --------------------------------------------------------------------------------

_TABLE_W: Final = 800
_TABLE_H: Final = 620
_SHOWN_SCALE: Final = 0.5
_NAME_SIZE: Final = 20
@dataclass(frozen=True)
class _Seat:
    """Where a seat's card lies on the table (its centre), on which side of it the name goes
    ("above", "below", "left", "right") and where "★ takes" goes when it takes the trick
    ("left top": beside it on the left, level with its top)."""

    x: float
    y: float
    name: str
    takes: str


#: Two to four seats: cards of full size on an ellipse (these half-axes), so that no two
#: cards overlap; names below the cards, above them at the top; "★ takes" beside the card on
#: the side facing the middle, level with its top.
_ELLIPSE: Final = {2: (232, 140), 3: (232, 150), 4: (232, 150)}
#: Five and six seats: smaller cards closer together, so that the names of the seats at the
#: sides go beside their cards, toward the rim where those players sit (on an ellipse the side
#: seats' cards stack two high, and their names, above and below the pair, sat as near the
#: other card of the pair or the shown cards as their own). "★ takes" goes on the side facing
#: the middle, opposite the name, where the felt is free.
_CLOSE: Final = {
    5: (_Seat(400, 460, "below", "above"), _Seat(540, 360, "right", "left top"),
        _Seat(500, 170, "above", "below"), _Seat(300, 170, "above", "below"),
        _Seat(260, 360, "left", "right top")),
    6: (_Seat(400, 460, "below", "above"), _Seat(520, 392, "right", "left top"),
        _Seat(520, 228, "right", "left bottom"), _Seat(400, 160, "above", "below"),
        _Seat(280, 228, "left", "right bottom"), _Seat(280, 392, "left", "right top")),
}
_CLOSE_SCALE: Final = 0.8


def _card_scale(n: int) -> float:
    return 1.0 if n in _ELLIPSE else _CLOSE_SCALE


def _seat(seat: int, n: int) -> _Seat:
    """Where ``seat`` sits at a table of ``n``: seat 0 at the bottom, the next seat to its
    right (anticlockwise, as these games are played)."""
    if n not in _ELLIPSE:
        return _CLOSE[n][seat]
    rx, ry = _ELLIPSE[n]
    a = math.pi / 2 - seat * 2 * math.pi / n
    x, y = _TABLE_W / 2 + rx * math.cos(a), _TABLE_H / 2 + ry * math.sin(a)
    toward_middle = "right" if x <= _TABLE_W / 2 + 1 else "left"
    return _Seat(x, y, "below" if math.sin(a) > -0.3 else "above", toward_middle + " top")


@lru_cache(maxsize=16)
def _table_base(n: int, theme: str) -> Image.Image:
    """The table with an empty place for each seat's card."""
    t = _theme(theme)
    ss = 2  # large shapes: twice the size is smooth enough, and four times faster than 4
    big = Image.new("RGBA", (_TABLE_W * ss, _TABLE_H * ss), (*t.bg, 255))
    pen = _Pen(big, ss)
    pen.rect(6, 6, _TABLE_W - 6, _TABLE_H - 6, t.rim, radius=120)
    pen.rect(18, 18, _TABLE_W - 18, _TABLE_H - 18, t.felt, t.felt_line, 2, radius=108)
    scale = _card_scale(n)
    cw, ch = CARD_W * scale, CARD_H * scale
    for seat in range(n):
        x, y = _seat(seat, n).x, _seat(seat, n).y
        pen.rect(x - cw / 2, y - ch / 2, x + cw / 2, y + ch / 2, None, t.felt_line, 1.6,
                 radius=_RADIUS * scale)
    # The trump badge's ring, top left.
    gold, gold_line = _GOLD
    pen.ellipse(70, 70, 46, 46, t.face, gold_line, 1.5)
    pen.ellipse(70, 70, 42, 42, None, gold, 3)
    return big.reduce(ss)


@lru_cache(maxsize=8)
def _trump_badge(trump: int | None, theme: str) -> Image.Image:
    size = 76
    big = Image.new("RGBA", (size * _SS, size * _SS), (0, 0, 0, 0))
    pen = _Pen(big, _SS)
    if trump is None:
        pen.text(size / 2, size / 2, "?", 44, _theme(theme).muted, bold=0.8)
    else:
        _suit_sign(pen, trump, size / 2, size / 2, 54, _theme(theme).palette)
    return big.reduce(_SS)


def table_png(*, seats: Sequence[str], trick: Sequence[tuple[int, int]], trump: int | None,
              shown: Sequence[int] = (), theme: str = "dark", to_move: int | None = None,
              winner: int | None = None, lang: str | None = None) -> bytes:
    """The trick in progress as a PNG.

    ``seats`` are the names by seat (2 to 6; seat 0 sits at the bottom, the next seat to its
    right), ``trick`` the (seat, card) pairs played so far, ``trump`` the trump suit (top left,
    labelled; ``None``: not fixed yet), ``shown`` the cards shown to everybody (small, bottom
    left, labelled), ``to_move`` the seat whose turn it is (its name on a blue pill with an
    arrow), ``winner`` the seat whose card takes the trick so far (a gold frame and a label on
    that card). Labels and corners are in ``lang`` (default: the current language).
    """
    names = tuple(str(s) for s in seats)
    if not 2 <= len(names) <= 6:
        raise ValueError(f"a table has 2 to 6 seats, not {len(names)}")
    played = tuple((int(s), int(c)) for s, c in trick)
    for s, c in played:
        _check_card(c)
        if not 0 <= s < len(names):
            raise ValueError(f"seat {s} is not at this table")
    if trump is not None and trump not in (ACORNS, LEAVES, HEARTS, BELLS):
        raise ValueError(f"{trump!r} is not a suit")
    for seat in (to_move, winner):
        if seat is not None and not 0 <= seat < len(names):
            raise ValueError(f"seat {seat} is not at this table")
    if winner is not None and winner not in {s for s, _ in played}:
        raise ValueError(f"seat {winner} has no card in the trick")
    shown_ = tuple(shown)
    for c in shown_:
        _check_card(c)
    return _table_png(names, played, trump, shown_, theme, to_move, winner, _language(lang))


_CAPTION_SIZE: Final = 18


@lru_cache(maxsize=256)
def _table_png(seats: tuple[str, ...], trick: tuple[tuple[int, int], ...], trump: int | None,
               shown: tuple[int, ...], theme: str, to_move: int | None, winner: int | None,
               lang: str) -> bytes:
    t = _theme(theme)
    n = len(seats)
    canvas = _table_base(n, theme).copy()
    canvas.alpha_composite(_trump_badge(trump, theme), (70 - 38, 70 - 38))
    words = texts.CATALOGS[lang]

    def word(key: str) -> str:
        return words.get(key) or texts.EN[key]

    _label(canvas, 70, 136, word("picture.trump"), _CAPTION_SIZE, t.label_bg, t.label_text,
           130, bold=True)
    # Shown cards, small and overlapping, bottom left (under the trump sign's side).
    sh = round(CARD_H * _SHOWN_SCALE)
    step = 40 if len(shown) <= 4 else 150 // (len(shown) - 1)
    for i, c in enumerate(shown):
        _paste_card(canvas, _card_face(c, theme, _SHOWN_SCALE, lang), theme, _SHOWN_SCALE,
                    76 + i * step, _TABLE_H - 40 - sh)
    if shown:
        span = (len(shown) - 1) * step + round(CARD_W * _SHOWN_SCALE)
        # Over their lower edge: above them it sat by the name of the seat on the left.
        cy = _TABLE_H - 40 - 6
        _label(canvas, 76 + span // 2, cy, word("picture.shown"), _CAPTION_SIZE, t.label_bg,
               t.label_text, 170, bold=True)
    scale = _card_scale(n)
    cw, ch = round(CARD_W * scale), round(CARD_H * scale)
    for seat, c in trick:
        place = _seat(seat, n)
        x0, y0 = round(place.x - cw / 2), round(place.y - ch / 2)
        if seat == winner:  # a gold frame round the card that takes the trick so far
            frame = _frame(cw, ch, scale)
            canvas.alpha_composite(frame, (x0 - 5, y0 - 5))
        _paste_card(canvas, _card_face(c, theme, scale, lang), theme, scale, x0, y0)
        if seat == winner:
            _takes_label(canvas, word("picture.takes"), place.takes, (x0, y0, x0 + cw, y0 + ch))
    for seat, name in enumerate(seats):
        place = _seat(seat, n)
        text = _printable(name) or f"#{seat + 1}"
        if seat == to_move:
            _name_label(canvas, place, cw, ch, "▶ " + text, t.accent, t.accent_text, bold=True)
        else:
            _name_label(canvas, place, cw, ch, text, t.label_bg, t.label_text)
    return _png(canvas)


#: Names are cut short to this width (a seat to play: to the second; a name beside a card,
#: which has less room: to the last two).
_NAME_W: Final = (170, 190)
_NAME_W_BESIDE: Final = (160, 180)
#: The gap between a card and its name.
_NAME_GAP: Final = 4


def _name_label(canvas: Image.Image, place: _Seat, cw: int, ch: int, text: str, fill: RGB,
                ink: RGB, bold: bool = False) -> None:
    h = round(_NAME_SIZE * 1.5)
    if place.name in ("above", "below"):
        dy = ch / 2 + _NAME_GAP + h / 2
        y = place.y + dy if place.name == "below" else place.y - dy
        _label(canvas, round(place.x), round(y), text, _NAME_SIZE, fill, ink,
               _NAME_W[bold], bold)
    else:
        dx = cw / 2 + _NAME_GAP + 2
        x = place.x + dx if place.name == "right" else place.x - dx
        _label(canvas, round(x), round(place.y), text, _NAME_SIZE, fill, ink,
               _NAME_W_BESIDE[bold], bold, align="left" if place.name == "right" else "right")


def _takes_label(canvas: Image.Image, word: str, where: str, card: tuple[int, int, int, int]
                 ) -> None:
    """"★ takes" beside the card that takes the trick so far (the box ``card``), ``where`` its
    seat says: on the side that faces the middle of the table, where the felt is free."""
    x0, y0, x1, y1 = card
    h = round(_CAPTION_SIZE * 1.5)
    side, _, level = where.partition(" ")
    if side in ("above", "below"):
        y = y0 - 6 - h // 2 if side == "above" else y1 + 6 + h // 2
        _label(canvas, (x0 + x1) // 2, y, "★ " + word, _CAPTION_SIZE, _GOLD[0], (40, 30, 0),
               150, bold=True)
        return
    y = y0 + 18 if level == "top" else y1 - 18
    x, align = (x1 + 6, "left") if side == "right" else (x0 - 6, "right")
    _label(canvas, x, y, "★ " + word, _CAPTION_SIZE, _GOLD[0], (40, 30, 0), 150, bold=True,
           align=align)


@lru_cache(maxsize=8)
def _frame(cw: int, ch: int, scale: float) -> Image.Image:
    """A gold frame 5 px round a card of cw x ch."""
    gold, gold_line = _GOLD
    big = Image.new("RGBA", ((cw + 10) * _SS, (ch + 10) * _SS), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, (cw + 10) * _SS - 1, (ch + 10) * _SS - 1), radius=(_RADIUS * scale + 5) * _SS,
        fill=gold, outline=gold_line, width=_SS)
    return big.reduce(_SS)


# -- a game's card ranking --------------------------------------------------------------------

_RANK_SCALE: Final = 0.6
_RANK_STEP: Final = 56
_RANK_PER_ROW: Final = 8
_RANK_TITLE: Final = 18


def ranking_png(rows: Sequence[tuple[str, Sequence[int]]], *, theme: str = "dark",
                lang: str | None = None) -> bytes:
    """A card ranking as a PNG: each row a title (``"Trumps"``, a suit's name) over its cards,
    highest on the left, overlapping as in a hand; a row of more than 8 cards goes on over
    two lines. The corners show the ranks as a reader of ``lang`` names them."""
    for _, cards in rows:
        for c in cards:
            _check_card(c)
    return _ranking_png(tuple((title, tuple(cards)) for title, cards in rows), theme,
                        _language(lang))


@lru_cache(maxsize=64)
def _ranking_png(rows: tuple[tuple[str, tuple[int, ...]], ...], theme: str, lang: str) -> bytes:
    t = _theme(theme)
    cw, ch = round(CARD_W * _RANK_SCALE), round(CARD_H * _RANK_SCALE)
    title_h = round(_RANK_TITLE * 1.8)
    lines: list[tuple[str | None, tuple[int, ...]]] = []
    for name, cards in rows:
        first = len(cards) if len(cards) <= _RANK_PER_ROW else (len(cards) + 1) // 2
        lines.append((name, cards[:first]))
        if cards[first:]:
            lines.append((None, cards[first:]))
    per_row = max([len(cards) for _, cards in lines] + [1])
    width = 2 * _MARGIN + (per_row - 1) * _RANK_STEP + cw
    height = _MARGIN + sum((title_h if title is not None else 0) + ch + _ROW_GAP
                           for title, _ in lines) + _MARGIN - _ROW_GAP
    canvas = Image.new("RGBA", (width, height), (*t.bg, 255))
    draw = ImageDraw.Draw(canvas)
    y = _MARGIN
    for title, cards in lines:
        if title is not None:
            _draw_runs(draw, _MARGIN, y + title_h // 2, _runs(title), _RANK_TITLE, t.text,
                       bold=True, centre=False)
            y += title_h
        for i, c in enumerate(cards):
            face = _face(c, theme, _RANK_SCALE, corner_label(rank_of(c), lang))
            _paste_card(canvas, face, theme, _RANK_SCALE, _MARGIN + i * _RANK_STEP, y)
        y += ch + _ROW_GAP
    return _png(canvas)


# -- caches ---------------------------------------------------------------------------------


def clear_caches(*, faces: bool = True) -> None:
    """Forget the pictures drawn so far and, with ``faces``, the card faces too (for timing
    the first picture of a kind, ``tools/card_pictures.py --bench``)."""
    pictures = (_hand_png, _table_png, _ranking_png)
    drawn = (_face, _dimmed, _shadow, _pill, _table_base, _trump_badge, _frame)
    for fn in pictures + (drawn if faces else ()):
        fn.cache_clear()
