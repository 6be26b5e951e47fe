"""One card's face: the deck's drawing between two corner indexes (the rank as the reader's
language names it, above the suit sign), cached per card, theme, faces, size and label; the
greyed face of a card that cannot be played; the shadow a card casts.

>>> from engine.cards import card
>>> corner_label(card("EO") % 8, "de"), corner_label(card("EO") % 8, "de", "french")
('O', 'D')
>>> card_image(card("EO"), "dark", lang="en", faces="french").size
(120, 180)
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw, ImageFilter

from bot import texts
from bot.cardart import french, german
from bot.cardart.deck import Deck
from bot.cardart.pen import CARD_H, CARD_W, RADIUS, SS, Pen
from bot.cardart.themes import check_faces, theme_of
from engine.cards import RANK_CODES, rank_of, suit_of

DECKS: Final[dict[str, Deck]] = {"german": german.DECK, "french": french.DECK}


def check_card(card: int) -> None:
    if not isinstance(card, int) or not 0 <= card < 32:
        raise ValueError(f"{card!r} is not a card (an int 0..31)")


def deck_of(faces: str) -> Deck:
    return DECKS[check_faces(faces)]


_CORNER_W: Final = 40
_CORNER_H: Final = 60


def _corner(pen: Pen, card: int, deck: Deck, theme: str, label: str) -> None:
    t = theme_of(theme)
    suit = suit_of(card)
    size = 25.0 if len(label) > 1 else 29.0
    pen.text(20, 4, label, size, deck.ink(t)[suit], anchor="mt", bold=0.4, heavy=True,
             max_w=_CORNER_W - 4)
    deck.sign(pen, suit, 20, 45, 22, t)


@lru_cache(maxsize=2048)
def face_image(card: int, theme: str, faces: str, scale: float, label: str) -> Image.Image:
    """One card face, ``scale`` times the full size, RGBA with transparent corners; ``label``
    is its rank in the corners."""
    check_card(card)
    t = theme_of(theme)
    deck = deck_of(faces)
    f = SS * scale
    big = Image.new("RGBA", (round(CARD_W * f), round(CARD_H * f)), (*t.face, 0))
    pen = Pen(big, f)
    pen.rect(0, 0, CARD_W - 1 / f, CARD_H - 1 / f, t.face, t.edge, 1.6, radius=RADIUS)
    deck.body(pen, suit_of(card), rank_of(card), t)
    # The corner index, drawn once and turned round for the opposite corner.
    cw, ch = round(_CORNER_W * f), round(_CORNER_H * f)
    corner = Image.new("RGBA", (cw, ch), (0, 0, 0, 0))
    _corner(Pen(corner, f), card, deck, theme, label)
    big.alpha_composite(corner)
    big.alpha_composite(corner.transpose(Image.Transpose.ROTATE_180),
                        (big.width - cw, big.height - ch))
    return big.reduce(SS)


def corner_label(rank: int, lang: str | None = None, faces: str = "german") -> str:
    """The rank as the cards' corners show it to a reader of ``lang`` (default: the current
    language of ``bot.texts``), on a card with ``faces``: from the catalogs' ``corner.*``
    entries (German faces) and ``corner.french.*`` (French faces). The German faces' Over is
    "O" in English, "F" (*felső*) in Hungarian, the Ace "A" in English and "Á" (*ász*) in
    Hungarian, where "A" is the Under (*alsó*); the same card with French faces is the Queen,
    "Q" in English and "D" (*Dame*, *damă*, *dáma*) in German, Romanian and Hungarian."""
    code = RANK_CODES[rank]
    key = deck_of(faces).corner_key + code
    catalog = texts.CATALOGS.get(lang or texts.current_language(), texts.EN)
    return catalog.get(key) or texts.EN.get(key) or code


def language(lang: str | None) -> str:
    lang = lang or texts.current_language()
    return lang if lang in texts.CATALOGS else texts.DEFAULT


def face_for(card: int, theme: str, faces: str, scale: float, lang: str) -> Image.Image:
    """The face of ``card`` with the corners a reader of ``lang`` reads."""
    return face_image(card, theme, faces, scale, corner_label(rank_of(card), lang, faces))


def card_image(card: int, theme: str = "dark", *, lang: str | None = None,
               faces: str = "german") -> Image.Image:
    """The face of ``card`` (an int of ``engine.cards``) with ``faces`` (``"german"`` or
    ``"french"``): 120 x 180 px RGBA, corners transparent; the corners show the rank as a
    reader of ``lang`` names it (default: the current language).

    Cached: the same object comes back for the same arguments, so do not draw on it (copy it).
    """
    return face_for(card, theme, faces, 1.0, language(lang))


#: How far a card that cannot be played now is greyed (and veiled: ``Theme.veil``): enough to
#: tell it from the playable ones at a glance, little enough that its corner still reads
#: (contrast kept above 3:1 in every theme, ``tests/test_cardart.py``).
_GREY: Final = 0.5


@lru_cache(maxsize=2048)
def dimmed_image(card: int, theme: str, faces: str, scale: float, label: str) -> Image.Image:
    """A card that cannot be played now: its colours greyed and a light veil of the background
    over it. Greying rather than fading keeps the lightness of its ink, so that on the dark
    theme the card does not sink into the background."""
    face = face_image(card, theme, faces, scale, label)
    grey = face.convert("LA").convert("RGBA")
    dim = Image.blend(face, grey, _GREY)
    t = theme_of(theme)
    dim = Image.blend(dim, Image.new("RGBA", face.size, (*t.bg, 255)), t.veil)
    dim.putalpha(face.getchannel("A"))
    return dim


def suit_sign(suit: int, size: float = 20.0, *, px: int | None = None,
              theme: str = "dark", faces: str = "german") -> Image.Image:
    """The sign of ``suit`` alone as drawn on a card with ``faces``: ``size`` card units (the
    corner's sign is 22, a pip about 19, the Ace's 60; under 26 the bold small form), in a
    picture ``px`` pixels square (default ``size``: a full-size card), RGBA, transparent
    around."""
    if suit not in range(4):
        raise ValueError(f"{suit!r} is not a suit")
    px = round(size) if px is None else px
    f = px * SS / size
    big = Image.new("RGBA", (px * SS, px * SS), (0, 0, 0, 0))
    deck_of(faces).sign(Pen(big, f), suit, size / 2, size / 2, size, theme_of(theme))
    return big.reduce(SS)


@lru_cache(maxsize=16)
def shadow(theme: str, scale: float) -> tuple[Image.Image, int]:
    """A soft shadow for a card of ``scale``, and how far it reaches out of the card."""
    pad = max(2, round(5 * scale))
    w, h = round(CARD_W * scale), round(CARD_H * scale)
    img = Image.new("RGBA", (w + 2 * pad, h + 2 * pad), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        (pad, pad + 2 * scale, pad + w, pad + h + 2 * scale), radius=RADIUS * scale,
        fill=(0, 0, 0, theme_of(theme).shadow))
    return img.filter(ImageFilter.GaussianBlur(pad / 2)), pad


def paste_card(canvas: Image.Image, face: Image.Image, theme: str, scale: float, x: int,
               y: int) -> None:
    card_shadow, pad = shadow(theme, scale)
    canvas.alpha_composite(card_shadow, (x - pad, y - pad))
    canvas.alpha_composite(face, (x, y))


def png(canvas: Image.Image) -> bytes:
    out = io.BytesIO()
    canvas.convert("RGB").save(out, "PNG", compress_level=3)
    return out.getvalue()


def clear_caches() -> None:
    """Forget the card faces drawn so far, and the French suit signs they are made of."""
    for fn in (face_image, dimmed_image, shadow):
        fn.cache_clear()
    french.clear_caches()
