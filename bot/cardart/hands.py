"""Rows of cards: a player's hand (with the index numbers of its buttons, the cards that cannot
be played greyed) and a game's card ranking (titled rows, highest first).

>>> from engine.cards import cards
>>> png = hand_png(cards(["EO", "H10"]), faces="french", lang="de")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot.cardart.cards import (
    check_card,
    corner_label,
    dimmed_image,
    face_image,
    language,
    paste_card,
    png,
)
from bot.cardart.pen import CARD_H, CARD_W, text_font
from bot.cardart.text import draw_runs, pill, text_runs
from bot.cardart.themes import check_faces, theme_of
from engine.cards import rank_of

_MARGIN: Final = 16
_STEP: Final = 88  # a card covers the right 27 % of the one before
_LIFT: Final = 14  # playable cards stand this much higher
_NUM_SIZE: Final = 20
_NUM_H: Final = 38
_ROW_GAP: Final = 12
_PER_ROW: Final = 8


def hand_png(cards: Sequence[int], *, theme: str = "dark",
             playable: Collection[int] | None = None, labels: bool = True,
             lang: str | None = None, faces: str = "german") -> bytes:
    """A player's hand as a PNG: the cards in the given order, overlapping from left to right.

    With ``playable``, the other cards are faded and the playable ones stand a little higher;
    with ``labels``, each card has its index number (1..n) under it, on a blue pill when it
    can be played, to match the buttons. Over 8 cards the hand takes two rows. The corners
    show the ranks as a reader of ``lang`` names them (default: the current language); the
    cards have ``faces`` (``"german"`` or ``"french"``).
    """
    cards = tuple(cards)
    for c in cards:
        check_card(c)
    keep = None if playable is None else frozenset(c for c in playable if c in cards)
    return _hand_png(cards, theme, keep, labels, language(lang), check_faces(faces))


@lru_cache(maxsize=256)
def _hand_png(cards: tuple[int, ...], theme: str, playable: frozenset[int] | None,
              labels: bool, lang: str, faces: str) -> bytes:
    t = theme_of(theme)
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
            label = corner_label(rank_of(c), lang, faces)
            draw_face = face_image if ok else dimmed_image
            face = draw_face(c, theme, faces, 1.0, label)
            y = top + (0 if ok else lift)
            paste_card(canvas, face, theme, 1.0, x, y)
            if labels:
                visible = CARD_W if i == len(row) - 1 else _STEP
                cx, cy = x + visible // 2, top + lift + CARD_H + _NUM_H // 2
                if playable is not None and ok:
                    canvas.alpha_composite(pill(36, 28, t.accent), (cx - 18, cy - 14))
                    ink = t.accent_text
                else:
                    ink = t.muted if playable is not None else t.text
                draw.text((cx, cy), str(index), font=text_font(_NUM_SIZE), fill=ink, anchor="mm")
    return png(canvas)



# -- a game's card ranking --------------------------------------------------------------------

_RANK_SCALE: Final = 0.6
_RANK_STEP: Final = 56
_RANK_PER_ROW: Final = 8
_RANK_TITLE: Final = 18


def ranking_png(rows: Sequence[tuple[str, Sequence[int]]], *, theme: str = "dark",
                lang: str | None = None, faces: str = "german") -> bytes:
    """A card ranking as a PNG: each row a title (``"Trumps"``, a suit's name) over its cards,
    highest on the left, overlapping as in a hand; a row of more than 8 cards goes on over
    two lines. The corners show the ranks as a reader of ``lang`` names them, on cards
    with ``faces``."""
    for _, cards in rows:
        for c in cards:
            check_card(c)
    return _ranking_png(tuple((title, tuple(cards)) for title, cards in rows), theme,
                        language(lang), check_faces(faces))


@lru_cache(maxsize=64)
def _ranking_png(rows: tuple[tuple[str, tuple[int, ...]], ...], theme: str, lang: str,
                 faces: str) -> bytes:
    t = theme_of(theme)
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
            draw_runs(draw, _MARGIN, y + title_h // 2, text_runs(title), _RANK_TITLE, t.text,
                       bold=True, centre=False)
            y += title_h
        for i, c in enumerate(cards):
            face = face_image(c, theme, faces, _RANK_SCALE, corner_label(rank_of(c), lang, faces))
            paste_card(canvas, face, theme, _RANK_SCALE, _MARGIN + i * _RANK_STEP, y)
        y += ch + _ROW_GAP
    return png(canvas)


def clear_caches() -> None:
    """Forget the hands and rankings drawn so far."""
    _hand_png.cache_clear()
    _ranking_png.cache_clear()
