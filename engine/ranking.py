"""A game's card ranking as players learn it: the trumps high to low, then each plain suit.

Nothing here is on the hot path: ``card_ranking`` reads the same ``TrumpOrder`` the hand plays
by (``engine.trumps``), so what a "how to play" page shows is what the tricks do.

>>> from engine.cards import codes
>>> from engine.rules import make_rules
>>> r = card_ranking(make_rules("schafkopf3"))
>>> codes(r.trumps)
['EO', 'GO', 'HO', 'SO', 'EU', 'GU', 'HU', 'SU', 'SA', 'S10', 'SK', 'S9', 'S8', 'S7']
>>> [(suit, codes(cards)) for suit, cards in r.plain][0]
(0, ['EA', 'E10', 'EK', 'E9', 'E8', 'E7'])

A game whose trump suit each hand fixes (a shown card, the Old Man, fris or binding) has only
its permanent trumps fixed: ``trump_suit`` is None, and every suit is listed as it ranks when
it is not trump (a trump suit keeps that order, below the permanent trumps):

>>> r = card_ranking(make_rules("filicau"))
>>> codes(r.trumps), r.trump_suit
(['EO', 'GO', 'HO', 'SO'], None)
>>> codes(dict(r.plain)[2])
['HA', 'H10', 'HK', 'HU', 'H9', 'H8', 'H7']
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import SUITS, TRUMP, Card, Suit
from engine.rules.base import Rules
from engine.trumps import trump_order


@dataclass(frozen=True)
class Ranking:
    #: The trumps, highest first: the permanent ones, then (when the game fixes it) the trump
    #: suit's cards.
    trumps: tuple[Card, ...]
    #: The trump suit every hand starts with, or None when each hand fixes its own.
    trump_suit: Suit | None
    #: Each suit that is not trump, in suit order, with its cards highest first (permanent
    #: trumps left out: they belong to no suit).
    plain: tuple[tuple[Suit, tuple[Card, ...]], ...]
    #: How many cards the permanent trumps are (the first ones of ``trumps``).
    permanent: int


def card_ranking(rules: Rules) -> Ranking:
    """``rules``' ranking of its own pack (with its options: ``top_trumps``, a smaller pack),
    with the game's usual trump suit (``Rules.usual_trump``) when it has one; each card once,
    also where the pack holds every card twice (Doppelkopf)."""
    suit = rules.usual_trump
    order = trump_order(rules.top_trumps, suit)
    pack = sorted(set(rules.pack), key=order.sort_key)
    trumps = tuple(c for c in pack if order.suit[c] == TRUMP)
    permanent = sum(1 for c in trumps if c in rules.top_trumps)
    plain = tuple(
        (s, tuple(c for c in pack if order.suit[c] == s))
        for s in SUITS if s != suit
    )
    return Ranking(trumps=trumps, trump_suit=suit, plain=plain, permanent=permanent)
