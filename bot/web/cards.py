"""Card faces for the pages: ``bot.cardart``'s drawing of each card as a PNG, per faces (German
or French), theme and language (the corners name the ranks as the reader's language does),
made once per process and served with a long cache lifetime (a face never changes for the
same URL).

Each face has one address, ``FACES/THEME/LANG/CODE.png``, spelled exactly as ``base`` and
``engine.cards.code`` spell it: any other spelling (``eo.png``, ``Dark``, a space) is not a
face, so that nobody can make the server draw more faces than it keeps (issue 44: 1,152
spellings were served against a cache of 384).

>>> base("french", "dark", "en")
'/cards/french/dark/en/'
>>> png = card_png("french", "dark", "en", "H10")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> card_png("french", "dark", "en", "H10") is png
True
>>> known("french", "dark", "en", "H10"), known("french", "dark", "en", "h10")
(True, False)
>>> faces_of("filicau", "game"), faces_of("filicau", "french")
('german', 'french')
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Final

from bot import cardart
from bot.texts import LANGUAGES
from engine.cards import ALL_CARDS, card, code
from engine.rules import GAMES, Rules

THEMES: Final = cardart.THEMES
FACES: Final = cardart.FACES
#: Every card code as the engine spells it (``EO``, ``H10``): the only spellings served.
CODES: Final = frozenset(code(c) for c in ALL_CARDS)


def base(faces: str, theme: str, lang: str, prefix: str = "/cards/") -> str:
    """The address the faces of one deck, theme and language are under (a page adds
    ``CODE.png``); the Activity's are under ``cards/`` relative to its page."""
    return f"{prefix}{faces}/{theme}/{lang}/"


def faces_of(game: str, chosen: str) -> str:
    """The faces the cards of ``game``'s pages are drawn with: the server's ``chosen`` faces
    (``GuildSettings.faces``), or with ``cardart.AS_PLAYED`` those the game is played with."""
    return cardart.faces_for(GAMES.get(game, Rules), chosen)


def known(faces: str, theme: str, lang: str, code_: str) -> bool:
    """Whether this is a face's one spelling: exactly a deck, a theme, a language and a code
    as they are written (no other case, no spaces)."""
    return faces in FACES and theme in THEMES and lang in LANGUAGES and code_ in CODES


@lru_cache(maxsize=len(CODES) * len(FACES) * len(THEMES) * len(LANGUAGES))
def card_png(faces: str, theme: str, lang: str, code_: str) -> bytes:
    """One face, 120 x 180 px (shown at half that: sharp on 2x screens)."""
    out = io.BytesIO()
    cardart.card_image(card(code_), theme, lang=lang, faces=faces).save(out, "PNG",
                                                                         optimize=True)
    return out.getvalue()
