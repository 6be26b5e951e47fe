"""The trick in progress around a table of 2 to 6 seats: the trump sign, the cards shown to
everybody, each name by its own card, the seat to move on a blue pill, and the card that takes
the trick so far framed in gold.

>>> from engine.cards import card
>>> png = table_png(seats=["Ana", "Béla"], trick=[(1, card("EO"))], trump=None, faces="french")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot import texts
from bot.cardart.cards import check_card, deck_of, face_for, language, paste_card, png
from bot.cardart.pen import CARD_H, CARD_W, RADIUS, RGB, SS, Pen
from bot.cardart.text import pill_label, printable
from bot.cardart.themes import GOLD, check_faces, theme_of
from engine.cards import ACORNS, BELLS, HEARTS, LEAVES

TABLE_W: Final = 800
TABLE_H: Final = 620
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
    x, y = TABLE_W / 2 + rx * math.cos(a), TABLE_H / 2 + ry * math.sin(a)
    toward_middle = "right" if x <= TABLE_W / 2 + 1 else "left"
    return _Seat(x, y, "below" if math.sin(a) > -0.3 else "above", toward_middle + " top")


@lru_cache(maxsize=16)
def _table_base(n: int, theme: str) -> Image.Image:
    """The table with an empty place for each seat's card."""
    t = theme_of(theme)
    ss = 2  # large shapes: twice the size is smooth enough, and four times faster than 4
    big = Image.new("RGBA", (TABLE_W * ss, TABLE_H * ss), (*t.bg, 255))
    pen = Pen(big, ss)
    pen.rect(6, 6, TABLE_W - 6, TABLE_H - 6, t.rim, radius=120)
    pen.rect(18, 18, TABLE_W - 18, TABLE_H - 18, t.felt, t.felt_line, 2, radius=108)
    scale = _card_scale(n)
    cw, ch = CARD_W * scale, CARD_H * scale
    for seat in range(n):
        x, y = _seat(seat, n).x, _seat(seat, n).y
        pen.rect(x - cw / 2, y - ch / 2, x + cw / 2, y + ch / 2, None, t.felt_line, 1.6,
                 radius=RADIUS * scale)
    # The trump badge's ring, top left.
    gold, gold_line = GOLD
    pen.ellipse(70, 70, 46, 46, t.face, gold_line, 1.5)
    pen.ellipse(70, 70, 42, 42, None, gold, 3)
    return big.reduce(ss)


@lru_cache(maxsize=16)
def _trump_badge(trump: int | None, theme: str, faces: str) -> Image.Image:
    size = 76
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    pen = Pen(big, SS)
    if trump is None:
        pen.text(size / 2, size / 2, "?", 44, theme_of(theme).muted, bold=0.8)
    else:
        deck_of(faces).sign(pen, trump, size / 2, size / 2, 54, theme_of(theme))
    return big.reduce(SS)


def table_png(*, seats: Sequence[str], trick: Sequence[tuple[int, int]], trump: int | None,
              shown: Sequence[int] = (), theme: str = "dark", to_move: int | None = None,
              winner: int | None = None, lang: str | None = None,
              faces: str = "german") -> bytes:
    """The trick in progress as a PNG.

    ``seats`` are the names by seat (2 to 6; seat 0 sits at the bottom, the next seat to its
    right), ``trick`` the (seat, card) pairs played so far, ``trump`` the trump suit (top left,
    labelled; ``None``: not fixed yet), ``shown`` the cards shown to everybody (small, bottom
    left, labelled), ``to_move`` the seat whose turn it is (its name on a blue pill with an
    arrow), ``winner`` the seat whose card takes the trick so far (a gold frame and a label on
    that card). Labels and corners are in ``lang`` (default: the current language), the cards
    and the trump sign drawn with ``faces`` (``"german"`` or ``"french"``).
    """
    names = tuple(str(s) for s in seats)
    if not 2 <= len(names) <= 6:
        raise ValueError(f"a table has 2 to 6 seats, not {len(names)}")
    played = tuple((int(s), int(c)) for s, c in trick)
    for s, c in played:
        check_card(c)
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
        check_card(c)
    return _table_png(names, played, trump, shown_, theme, to_move, winner, language(lang),
                      check_faces(faces))


_CAPTION_SIZE: Final = 18


@lru_cache(maxsize=256)
def _table_png(seats: tuple[str, ...], trick: tuple[tuple[int, int], ...], trump: int | None,
               shown: tuple[int, ...], theme: str, to_move: int | None, winner: int | None,
               lang: str, faces: str) -> bytes:
    t = theme_of(theme)
    n = len(seats)
    canvas = _table_base(n, theme).copy()
    canvas.alpha_composite(_trump_badge(trump, theme, faces), (70 - 38, 70 - 38))
    words = texts.CATALOGS[lang]

    def word(key: str) -> str:
        return words.get(key) or texts.EN[key]

    pill_label(canvas, 70, 136, word("picture.trump"), _CAPTION_SIZE, t.label_bg, t.label_text,
           130, bold=True)
    # Shown cards, small and overlapping, bottom left (under the trump sign's side).
    sh = round(CARD_H * _SHOWN_SCALE)
    step = 40 if len(shown) <= 4 else 150 // (len(shown) - 1)
    for i, c in enumerate(shown):
        paste_card(canvas, face_for(c, theme, faces, _SHOWN_SCALE, lang), theme, _SHOWN_SCALE,
                    76 + i * step, TABLE_H - 40 - sh)
    if shown:
        span = (len(shown) - 1) * step + round(CARD_W * _SHOWN_SCALE)
        # Over their lower edge: above them it sat by the name of the seat on the left.
        cy = TABLE_H - 40 - 6
        pill_label(canvas, 76 + span // 2, cy, word("picture.shown"), _CAPTION_SIZE, t.label_bg,
               t.label_text, 170, bold=True)
    scale = _card_scale(n)
    cw, ch = round(CARD_W * scale), round(CARD_H * scale)
    for seat, c in trick:
        place = _seat(seat, n)
        x0, y0 = round(place.x - cw / 2), round(place.y - ch / 2)
        if seat == winner:  # a gold frame round the card that takes the trick so far
            frame = _frame(cw, ch, scale)
            canvas.alpha_composite(frame, (x0 - 5, y0 - 5))
        paste_card(canvas, face_for(c, theme, faces, scale, lang), theme, scale, x0, y0)
        if seat == winner:
            _takes_label(canvas, word("picture.takes"), place.takes, (x0, y0, x0 + cw, y0 + ch))
    for seat, name in enumerate(seats):
        place = _seat(seat, n)
        text = printable(name) or f"#{seat + 1}"
        if seat == to_move:
            _name_label(canvas, place, cw, ch, "▶ " + text, t.accent, t.accent_text, bold=True)
        else:
            _name_label(canvas, place, cw, ch, text, t.label_bg, t.label_text)
    return png(canvas)


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
        pill_label(canvas, round(place.x), round(y), text, _NAME_SIZE, fill, ink,
               _NAME_W[bold], bold)
    else:
        dx = cw / 2 + _NAME_GAP + 2
        x = place.x + dx if place.name == "right" else place.x - dx
        pill_label(canvas, round(x), round(place.y), text, _NAME_SIZE, fill, ink,
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
        pill_label(canvas, (x0 + x1) // 2, y, "★ " + word, _CAPTION_SIZE, GOLD[0], (40, 30, 0),
               150, bold=True)
        return
    y = y0 + 18 if level == "top" else y1 - 18
    x, align = (x1 + 6, "left") if side == "right" else (x0 - 6, "right")
    pill_label(canvas, x, y, "★ " + word, _CAPTION_SIZE, GOLD[0], (40, 30, 0), 150, bold=True,
           align=align)


@lru_cache(maxsize=8)
def _frame(cw: int, ch: int, scale: float) -> Image.Image:
    """A gold frame 5 px round a card of cw x ch."""
    gold, gold_line = GOLD
    big = Image.new("RGBA", ((cw + 10) * SS, (ch + 10) * SS), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, (cw + 10) * SS - 1, (ch + 10) * SS - 1), radius=(RADIUS * scale + 5) * SS,
        fill=gold, outline=gold_line, width=SS)
    return big.reduce(SS)


def clear_caches(*, pieces: bool) -> None:
    """Forget the tables drawn so far and, with ``pieces``, the empty tables, trump signs and
    frames they are made of."""
    _table_png.cache_clear()
    if pieces:
        for fn in (_table_base, _trump_badge, _frame):
            fn.cache_clear()
