"""Card faces for the pages: ``bot.cardart``'s drawing of each card as a PNG, per theme and
language (the corners name the ranks as the reader's language does), made once per process
and served with a long cache lifetime (a face never changes for the same URL).

>>> png = card_png("H10", "dark", "en")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> card_png("H10", "dark", "en") is png
True
"""

from __future__ import annotations

import io
from functools import lru_cache

from bot import cardart
from bot.texts import LANGUAGES
from engine.cards import CardError, card

THEMES = ("light", "dark", "fourcolour")


def known(code: str, theme: str, lang: str) -> bool:
    if theme not in THEMES or lang not in LANGUAGES:
        return False
    try:
        card(code)
    except CardError:
        return False
    return True


@lru_cache(maxsize=32 * len(THEMES) * 4)
def card_png(code: str, theme: str, lang: str) -> bytes:
    """One face, 120 x 180 px (shown at half that: sharp on 2x screens)."""
    out = io.BytesIO()
    cardart.card_image(card(code), theme, lang=lang).save(out, "PNG", optimize=True)
    return out.getvalue()
