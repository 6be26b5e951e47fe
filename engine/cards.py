"""Cards, suits, ranks and packs of the German-suited pack.

A card is a small int, ``suit * 8 + rank``, so that the engine's inner loops index lists
instead of hashing strings; its code is the suit letter plus the rank, as in
``../shared/RULINGS.md``:

>>> from engine.cards import card, code, suit_of, rank_of, ACORNS, OVER
>>> code(card("EO"))
'EO'
>>> suit_of(card("H10")), rank_of(card("EO")) == OVER, suit_of(card("EO")) == ACORNS
(2, True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from engine.errors import EngineError

Card = int
Suit = int

ACORNS: Final = 0
LEAVES: Final = 1
HEARTS: Final = 2
BELLS: Final = 3
SUITS: Final = (ACORNS, LEAVES, HEARTS, BELLS)
SUIT_LETTERS: Final = ("E", "G", "H", "S")
SUIT_NAMES: Final = ("acorns", "leaves", "hearts", "bells")

#: Rank indexes, strongest first in every game of the family (Ace high, Ten second).
ACE, TEN, KING, OVER, UNDER, NINE, EIGHT, SEVEN = range(8)
RANK_CODES: Final = ("A", "10", "K", "O", "U", "9", "8", "7")
RANK_NAMES: Final = ("Ace", "Ten", "King", "Ober", "Unter", "Nine", "Eight", "Seven")

#: The pseudo-suit of every trump, Overs included (they do not belong to their printed suit).
TRUMP: Final = 4

ALL_CARDS: Final = tuple(range(32))
_CODES: Final = tuple(SUIT_LETTERS[c // 8] + RANK_CODES[c % 8] for c in ALL_CARDS)
_BY_CODE: Final = {c: i for i, c in enumerate(_CODES)}


class CardError(EngineError):
    """A card code that names no card."""


def card(code_: str) -> Card:
    """The card with this code (``"EO"``, ``"H10"``); case-insensitive."""
    try:
        return _BY_CODE[code_.strip().upper()]
    except (KeyError, AttributeError):
        raise CardError(f"{code_!r} is not a card code (suit E/G/H/S + rank A/10/K/O/U/9/8/7)")\
            from None


def code(c: Card) -> str:
    """The code of a card, e.g. ``"EO"``."""
    return _CODES[c]


def codes(cards: Iterable[Card]) -> list[str]:
    return [_CODES[c] for c in cards]


def cards(codes_: Iterable[str]) -> list[Card]:
    return [card(c) for c in codes_]


def make(suit: Suit, rank: int) -> Card:
    return suit * 8 + rank


def suit_of(c: Card) -> Suit:
    return c >> 3


def rank_of(c: Card) -> int:
    return c & 7


def suit_letter(s: Suit) -> str:
    return SUIT_LETTERS[s]


def parse_suit(letter: str) -> Suit:
    try:
        return SUIT_LETTERS.index(letter.strip().upper())
    except (ValueError, AttributeError):
        raise CardError(f"{letter!r} is not a suit letter (E, G, H or S)") from None


def pack_of(ranks: Sequence[int], *, without: Iterable[str] = ()) -> tuple[Card, ...]:
    """A pack of every suit in ``ranks``, less the named cards, in a fixed order."""
    left_out = {card(c) for c in without}
    return tuple(make(s, r) for s in SUITS for r in ranks if make(s, r) not in left_out)


PACK_32: Final = pack_of(range(8))
#: 6-player and 5-player Filkó: no Sevens of leaves and bells.
PACK_30: Final = pack_of(range(8), without=("G7", "S7"))
#: Kelebia: no Eights of leaves and acorns.
PACK_30_KELEBIA: Final = pack_of(range(8), without=("G8", "E8"))
#: 24 cards: no Eights and Sevens.
PACK_24: Final = pack_of((ACE, TEN, KING, OVER, UNDER, NINE))
#: The Romanian Filcau: 11 = A, 10, 4 = K, 3 = O, 2 = U.
PACK_20: Final = pack_of((ACE, TEN, KING, OVER, UNDER))

#: Filicău family: each Ace and Ten is one point (8 in all).
COUNT_POINTS: Final = tuple(1 if c % 8 in (ACE, TEN) else 0 for c in ALL_CARDS)
#: Schafkopf family and Filkó with Hats: A 11, 10 10, K 4, O 3, U 2 (120 in all).
CARD_POINTS: Final = tuple((11, 10, 4, 3, 2, 0, 0, 0)[c % 8] for c in ALL_CARDS)

#: ``BIT[c]``: the bit of card ``c`` in a card mask.
BIT: Final = tuple(1 << c for c in ALL_CARDS)


def mask_of(cards_: Iterable[Card]) -> int:
    return sum(map(_bit_of, cards_))


#: ``BIT[c]`` as a fast callable: a list's ``__getitem__`` is a plain builtin method, a
#: tuple's a slot wrapper that costs several times as much a call.
_bit_of = list(BIT).__getitem__

#: A pack may hold every card twice (Doppelkopf): the two copies are the same card (the same
#: int, the same code), so a hand is a multiset. Its mask (``Hand``'s) has each card's bit
#: once, however many copies it holds (``held_mask``); the game keeps the cards held twice
#: (``twice_mask``) beside it (``Hand.fold_pairs``).


def held_mask(cards_: Iterable[Card]) -> int:
    """The bits of the cards among ``cards_``, each once (``mask_of`` for a multiset).

    >>> held_mask(cards(["EO", "SA", "EO"])) == mask_of(cards(["EO", "SA"]))
    True
    """
    mask = 0
    for c in cards_:
        mask |= 1 << c
    return mask


def twice_mask(cards_: Iterable[Card]) -> int:
    """The bits of the cards ``cards_`` holds twice.

    >>> twice_mask(cards(["EO", "SA", "EO"])) == BIT[card("EO")]
    True
    """
    once = twice = 0
    for c in cards_:
        bit = 1 << c
        if once & bit:
            twice |= bit
        once |= bit
    return twice


OVERS: Final = tuple(make(s, OVER) for s in SUITS)
UNDERS: Final = tuple(make(s, UNDER) for s in SUITS)
#: Schafkopf's permanent top trumps, highest first: the Overs then the Unders, each in suit
#: order acorns, leaves, hearts, bells (``EO GO HO SO EU GU HU SU``); Schafkopf for three,
#: Dreiwendsch, Wendish and Officers' Schafkopf use them.
SCHAFKOPF_TRUMPS: Final = OVERS + UNDERS
