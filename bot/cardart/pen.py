"""Drawing in card units: a pen that draws on a supersampled picture in the units of a card
(120 x 180), the shipped fonts, and the curves the suit signs are made of.

>>> from PIL import Image
>>> big = Image.new("RGBA", (CARD_W * SS, CARD_H * SS))
>>> Pen(big, SS).ellipse(60, 90, 10, 10, (255, 0, 0))
>>> big.reduce(SS).getpixel((60, 90))
(255, 0, 0, 255)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFont

#: One card face at full size (a 2x picture: shown at about 60x90 on screen).
CARD_W: Final = 120
CARD_H: Final = 180
#: Shapes are drawn this many times larger and scaled down: smooth edges without antialiasing.
SS: Final = 4
RADIUS: Final = 9.0
#: Suit signs smaller than this (in card units) are drawn as bold silhouettes: at phone size
#: (a card about 50 px wide) the corner and pip signs are 8 to 10 px, where only the outline
#: and a light/dark split still read.
SMALL_SIGN: Final = 26.0

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Point = tuple[float, float]
#: A colour to draw with: RGB on a picture, a level (0..255) on a mask.
Ink = RGB | int


class Pen:
    """Draws in card units (a card is 120 x 180) on a picture ``f`` pixels per unit."""

    def __init__(self, image: Image.Image, f: float) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.f = f

    def _xy(self, points: Sequence[Point]) -> list[Point]:
        f = self.f
        return [(x * f, y * f) for x, y in points]

    def _w(self, width: float) -> int:
        return max(1, round(width * self.f)) if width else 0

    def poly(self, points: Sequence[Point], fill: Ink | None, outline: Ink | None = None,
             width: float = 0.0) -> None:
        self.draw.polygon(self._xy(points), fill=fill, outline=outline, width=self._w(width))

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: Ink | None,
                outline: Ink | None = None, width: float = 0.0) -> None:
        f = self.f
        self.draw.ellipse(((cx - rx) * f, (cy - ry) * f, (cx + rx) * f, (cy + ry) * f),
                          fill=fill, outline=outline, width=self._w(width))

    def line(self, points: Sequence[Point], fill: Ink, width: float) -> None:
        self.draw.line(self._xy(points), fill=fill, width=self._w(width), joint="curve")
        r = width / 2  # round caps
        for x, y in (points[0], points[-1]):
            self.ellipse(x, y, r, r, fill)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: Ink | None,
             outline: Ink | None = None, width: float = 0.0, radius: float = 0.0) -> None:
        f = self.f
        self.draw.rounded_rectangle((x0 * f, y0 * f, x1 * f, y1 * f), radius=radius * f,
                                    fill=fill, outline=outline, width=self._w(width))

    def text(self, x: float, y: float, text: str, size: float, fill: RGB, anchor: str = "mm",
             bold: float = 0.0, heavy: bool = False, max_w: float | None = None) -> None:
        px = round(size * self.f)
        if max_w is not None:  # a long word ("10" in a heavy face) shrinks to fit the corner
            while px > 4 and text_font(px, heavy).getlength(text) > max_w * self.f:
                px -= 1
        stroke = round(bold * self.f)
        self.draw.text((x * self.f, y * self.f), text, font=text_font(px, heavy),
                       fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=fill)


FONTS: Final = Path(__file__).resolve().parent.parent / "fonts"


@lru_cache(maxsize=128)
def text_font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (a subset shipped in ``bot/fonts``: Latin, Greek, Cyrillic), so that names
    keep their accents: "Ștefan", "Őrs"."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


#: Noto Emoji's glyphs fill the whole em where DejaVu's capitals fill three quarters of it:
#: set this much smaller, an emoji stands a little above the capitals beside it, as in a chat.
EMOJI_SCALE: Final = 0.9


@lru_cache(maxsize=64)
def emoji_font(size: int) -> ImageFont.FreeTypeFont:
    """Noto Emoji (monochrome, shipped in ``bot/fonts``) for the emoji in names: "Ana 🌻"."""
    return ImageFont.truetype(str(FONTS / "NotoEmoji-SemiBold.ttf"),
                              max(1, round(size * EMOJI_SCALE)))


def curve(fx: Callable[[float], float], fy: Callable[[float], float], n: int = 72,
          t0: float = 0.0, t1: float = 2 * math.pi) -> list[Point]:
    return [(fx(t0 + (t1 - t0) * i / n), fy(t0 + (t1 - t0) * i / n)) for i in range(n + 1)]


def fit(points: Sequence[Point], cx: float, cy: float, w: float, h: float) -> list[Point]:
    """Scale and move ``points`` so that their bounding box is ``w`` x ``h`` around (cx, cy)."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return [(cx + ((x - x0) / (x1 - x0) - 0.5) * w, cy + ((y - y0) / (y1 - y0) - 0.5) * h)
            for x, y in points]


# The heart curve (point down, y grows downwards), used for hearts and, upside down, leaves.
HEART: Final = curve(lambda t: 16 * math.sin(t) ** 3,
                      lambda t: -(13 * math.cos(t) - 5 * math.cos(2 * t)
                                  - 2 * math.cos(3 * t) - math.cos(4 * t)))
