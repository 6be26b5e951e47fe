"""Doppelkopf's pack, its special cards, and how the cards rank in each game (RULINGS.md D1,
D2, D3, D6.2).

Each card exists twice (D1.1): the pack is the 24 cards ``A 10 K O U 9`` of the four suits,
twice, or without the nines 20 twice. The two copies are one card of the engine (the same
int, the same code), so a hand is a multiset and records name cards by code; the hand's mask
has each card once and the game keeps the cards each seat holds twice (``Hand.fold_pairs``).
Of two identical cards in a trick the one played first wins (D2.5) with no rule of its own:
the trick goes to the first of its strongest cards.

>>> from engine.cards import codes
>>> codes(trumps_of("normal"))
['H10', 'EO', 'GO', 'HO', 'SO', 'EU', 'GU', 'HU', 'SU', 'SA', 'S10', 'SK', 'S9']
>>> codes(trumps_of("herz")), codes(trumps_of("damen"))[:2]
(['H10', 'EO', 'GO', 'HO', 'SO', 'EU', 'GU', 'HU', 'SU', 'HA', 'HK', 'H9'], ['EO', 'GO'])
>>> from engine.cards import CARD_POINTS
>>> len(PACK_48), len(PACK_40), sum(CARD_POINTS[c] for c in PACK_40)
(48, 40, 240)
"""

from __future__ import annotations

from functools import lru_cache

from engine.cards import (
    ACE,
    ACORNS,
    BELLS,
    HEARTS,
    KING,
    LEAVES,
    OVER,
    OVERS,
    PACK_24,
    SCHAFKOPF_TRUMPS,
    TEN,
    TRUMP,
    UNDER,
    UNDERS,
    Card,
    card,
    pack_of,
)
from engine.trumps import TrumpOrder, trump_order

#: D1.1: the 24 cards twice; without nines (``nines = false``) the 20 twice.
PACK_48 = PACK_24 + PACK_24
PACK_40 = pack_of((ACE, TEN, KING, OVER, UNDER)) * 2

#: The cards with names of their own: the Dulle (``H10``), the Kreuz-Dame or "Alte" (``EO``,
#: whose holders are Re), the Fuchs (``SA``), the Karlchen (``EU``).
DULLE = card("H10")
ALTE = card("EO")
FUCHS = card("SA")
KARLCHEN = card("EU")

#: D2.2: the normal game's top trumps, then the Karo (bells) suit.
NORMAL_TOP = (DULLE, *SCHAFKOPF_TRUMPS)

#: The solos of D6.1 (``solo_set``), in the TSR's order, and the suit each Farbsolo makes
#: trump (the Karo-Solo is the normal game's order).
SOLOS = ("damen", "buben", "kreuz", "pik", "herz", "karo", "fleischlos")
SOLO_SUITS = {"kreuz": ACORNS, "pik": LEAVES, "herz": HEARTS, "karo": BELLS}

#: The games played with the normal game's trumps (D2.2): where Schweinchen applies (D14.1).
NORMAL_TRUMPS = frozenset({"normal", "stille", "hochzeit", "armut", "karo"})


@lru_cache(maxsize=32)
def order_of(game: str, schweinchen: bool = False) -> TrumpOrder:
    """How the cards rank in ``game`` (a solo's name, or one of ``NORMAL_TRUMPS``; D2.2,
    D6.2); ``schweinchen``: one seat holds both Fuchs, which rank above the Dullen (D2.9)."""
    if game in NORMAL_TRUMPS:
        return trump_order(((FUCHS,) if schweinchen else ()) + NORMAL_TOP, BELLS)
    if game == "damen":
        return trump_order(OVERS, None)
    if game == "buben":
        return trump_order(UNDERS, None)
    if game == "fleischlos":
        return trump_order((), None)
    return trump_order(NORMAL_TOP, SOLO_SUITS[game])


def trumps_of(game: str, schweinchen: bool = False) -> list[Card]:
    """The game's trumps, highest first, each once."""
    order = order_of(game, schweinchen)
    return sorted((c for c in PACK_24 if order.suit[c] == TRUMP), key=lambda c: -order.power[c])


#: D2.2's trump test, for D5.7 (Armut: at most three trumps) and D5.6 (a plain card on a
#: trump lead).
NORMAL_SUIT = order_of("normal").suit


def normal_trumps(cards: list[Card] | tuple[Card, ...]) -> int:
    """How many of ``cards`` are trumps of the normal game (D2.2)."""
    return sum(1 for c in cards if NORMAL_SUIT[c] == TRUMP)

