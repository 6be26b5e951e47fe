"""Doppelkopf's kinds of game as data (RULINGS.md D4.3, D5, D6).

A deal's game is its *kind*: ``normal``, ``stille`` (the stille Hochzeit, D5.5),
``hochzeit`` (D5.3), ``armut`` (D5.7) or a solo of D6.1 (``damen`` ... ``fleischlos``). The
public word of a game (``contract`` in facts and results) is its German name:
``normalspiel``, ``stille_hochzeit``, ``hochzeit``, ``hochzeit_solo`` (a Hochzeit that found
no partner, played as a Karo-Solo), ``armut``, ``damensolo`` ... ``fleischloser``.

>>> precedence("damen", pflicht=True) > precedence("kreuz", pflicht=False) > precedence("armut")
True
>>> contract_word("herz", alone=True), contract_word("hochzeit", alone=True)
('herzsolo', 'hochzeit_solo')
"""

from __future__ import annotations

from engine.rules.doppelkopf.deck import SOLOS

NORMAL = "normal"
STILLE = "stille"
HOCHZEIT = "hochzeit"
ARMUT = "armut"
#: The games with hidden parties that look like a normal game (D5.6 (e)-(g)).
NORMAL_GAMES = frozenset({NORMAL, STILLE})
#: The games whose extras count (D9.4): never a solo, nor a stille Hochzeit, nor a Hochzeit
#: that found no partner (``alone``).
EXTRA_GAMES = frozenset({NORMAL, HOCHZEIT, ARMUT})

#: D4.3's categories: Pflichtsolo > Lustsolo > Armut > Hochzeit (D14.7: two Lustsoli of any
#: types are equal, the seat nearer forehand wins).
_PFLICHT, _LUST, _ARMUT, _HOCHZEIT = 3, 2, 1, 0


def precedence(kind: str, *, pflicht: bool = False) -> int:
    """The category of a Vorbehalt of ``kind`` (a solo is a Pflichtsolo when its seat still
    owes one, ``pflicht``)."""
    if kind in SOLOS:
        return _PFLICHT if pflicht else _LUST
    return _ARMUT if kind == ARMUT else _HOCHZEIT


#: The solos' words (D6.1), and back.
SOLO_WORDS = {"damen": "damensolo", "buben": "bubensolo", "kreuz": "kreuzsolo",
              "pik": "piksolo", "herz": "herzsolo", "karo": "karosolo",
              "fleischlos": "fleischloser"}
SOLO_OF_WORD = {word: solo for solo, word in SOLO_WORDS.items()}


def contract_word(kind: str, *, alone: bool = False) -> str:
    """The game's word for the table (see the module's doc)."""
    if kind in SOLOS:
        return SOLO_WORDS[kind]
    if kind == HOCHZEIT and alone:
        return "hochzeit_solo"
    return {NORMAL: "normalspiel", STILLE: "stille_hochzeit"}.get(kind, kind)


#: Every game word (``contract_word``).
CONTRACT_WORDS = ("normalspiel", "stille_hochzeit", HOCHZEIT, "hochzeit_solo", ARMUT,
                  *SOLO_WORDS.values())


def order_key(kind: str) -> str:
    """The ``deck.order_of`` key of a game: the solos' own, the normal game's for the rest
    (a Hochzeit turned solo is a Karo-Solo, with the same trumps)."""
    return kind if kind in SOLOS else NORMAL
