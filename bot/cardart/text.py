"""Text the fonts can show, and labels: names keep their accents (DejaVu Sans) and their emoji
(Noto Emoji), both shipped in ``bot/fonts``; what neither font has is dropped.

>>> printable("🂡 Őrs")
'Őrs'
>>> text_runs("Ana 🌻")
(('Ana ', False), ('🌻', True))
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from bot.cardart.pen import RGB, SS, emoji_font, text_font


@lru_cache(maxsize=256)
def pill(w: int, h: int, fill: RGB) -> Image.Image:
    """A rounded label background, supersampled."""
    big = Image.new("RGBA", (w * SS, h * SS), (*fill, 0))
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=h * SS / 2,
                                          fill=fill)
    return big.reduce(SS)



#: the variation selectors (❤️), skin tones (👍🏽), the keycap (1️⃣) and the tags of a subdivision
#: flag. They travel with their emoji and are dropped where no emoji precedes them.
EMOJI_MARKS: Final = frozenset(
    ["\u200d", "\ufe0e", "\ufe0f", "\u20e3"]
    + [chr(c) for c in range(0x1F3FB, 0x1F400)] + [chr(c) for c in range(0xE0020, 0xE0080)])

#: A piece of text and whether it is set in the emoji font.
Run = tuple[str, bool]


@lru_cache(maxsize=2)
def _notdef(emoji: bool) -> bytes:
    font = emoji_font(20) if emoji else text_font(20)
    return bytes(font.getmask("\uffff"))


@lru_cache(maxsize=4096)
def _has_glyph(ch: str, emoji: bool = False) -> bool:
    if emoji:
        return bytes(emoji_font(20).getmask(ch)) != _notdef(True)
    return ch == " " or bytes(text_font(20).getmask(ch)) != _notdef(False)


@lru_cache(maxsize=1024)
def text_runs(text: str) -> tuple[Run, ...]:
    """``text`` as the fonts can show it, in runs of text (DejaVu Sans) and emoji (Noto Emoji).

    DejaVu covers Latin (accents included: "Ștefan", "Őrs"), Greek and Cyrillic; a character it
    lacks is drawn from the emoji font if that has it (😀, 🌰, ❤️: an emoji asked for by U+FE0F
    comes from there even where DejaVu has the symbol), else loses its accent if that helps,
    else goes (🂡). Spaces are collapsed and trimmed.
    """
    chars: list[Run] = []  # one character at a time, then merged
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    for i, ch in enumerate(text):
        if ch in EMOJI_MARKS:
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


def printable(text: str) -> str:
    """``text`` with what the fonts cannot show spelled without accents or dropped."""
    return "".join(run for run, _ in text_runs(text))


def _run_font(size: int, bold: bool, emoji: bool) -> ImageFont.FreeTypeFont:
    return emoji_font(size) if emoji else text_font(size, bold)


def text_width(runs: Sequence[Run], size: int, bold: bool = False) -> float:
    return sum(_run_font(size, bold, emoji).getlength(run) for run, emoji in runs)


def ellipsize(runs: tuple[Run, ...], size: int, max_w: int,
               bold: bool = False) -> tuple[Run, ...]:
    """``runs`` cut short with "…" to fit ``max_w`` pixels."""
    if text_width(runs, size, bold) <= max_w:
        return runs
    chars = [(ch, emoji) for run, emoji in runs for ch in run]
    while chars:
        chars.pop()
        while chars and (chars[-1][0] in EMOJI_MARKS or chars[-1][0] == " "):
            chars.pop()  # no half of an emoji sequence, no space before the "…"
        cut = _merge([*chars, ("…", False)])
        if text_width(cut, size, bold) <= max_w:
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


def draw_runs(draw: ImageDraw.ImageDraw, x: float, cy: float, runs: Sequence[Run], size: int,
               fill: RGB, bold: bool = False, centre: bool = True) -> None:
    """``runs`` on one line, vertically centred on ``cy`` as DejaVu's anchor "m" does (between
    its ascender and descender), starting at ``x`` or, with ``centre``, centred on it; the
    emoji sit on the same baseline."""
    font = text_font(size, bold)
    ascent, descent = font.getmetrics()
    baseline = cy + (ascent - descent) / 2
    if centre:
        x -= text_width(runs, size, bold) / 2
    for run, emoji in runs:
        run_font = _run_font(size, bold, emoji)
        draw.text((x, baseline), run, font=run_font, fill=fill, anchor="ls")
        x += run_font.getlength(run)


def pill_label(canvas: Image.Image, x: int, cy: int, text: str, size: int, fill: RGB,
           ink: RGB, max_w: int, bold: bool = False, align: str = "centre") -> None:
    """A text on a pill at height ``cy``: centred on ``x``, or with ``align`` "left" starting
    there, "right" ending there."""
    runs = ellipsize(text_runs(text), size, max_w, bold)
    w = round(text_width(runs, size, bold)) + size
    h = round(size * 1.5)
    cx = x if align == "centre" else x + w // 2 if align == "left" else x - (w - w // 2)
    canvas.alpha_composite(pill(w, h, fill), (cx - w // 2, cy - h // 2))
    draw_runs(ImageDraw.Draw(canvas), cx, cy, runs, size, ink, bold)
