"""The abbreviated game (RULINGS.md B8.3): is a claim of all remaining tricks safe?

The test is deliberately simple (B14): leading the trumps from the top, then each plain suit
from the top, must win every trick whatever the others hold, the claimer's partner treated
like an opponent.

>>> from engine.cards import cards
>>> from engine.rules.bavarian.games import order_of
>>> order = order_of(None)
>>> claim_holds(order, cards(["EO", "GO", "EA"]), [cards(["HO", "E10", "G7"]),
...                                                cards(["SU", "H9", "S7"]), []])
True
>>> claim_holds(order, cards(["EO", "HO", "EA"]), [cards(["GO", "E10"]), [], []])
False
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import TRUMP, Card
from engine.trumps import TrumpOrder


def claim_holds(order: TrumpOrder, mine: Sequence[Card], others: Sequence[Sequence[Card]]
                ) -> bool:
    """B8.3 on the hands as they are now: (1) each of the claimer's trumps beats every trump
    the others hold; (2) holding any plain card, no other player has more trumps than he
    does, and in each plain suit he holds, each of his cards beats every card of that suit
    the others hold."""
    suit, power = order.suit, order.power
    my_trumps = [c for c in mine if suit[c] == TRUMP]
    their_trumps = [c for h in others for c in h if suit[c] == TRUMP]
    if my_trumps and their_trumps and (
            min(power[c] for c in my_trumps) < max(power[c] for c in their_trumps)):
        return False
    plain = [c for c in mine if suit[c] != TRUMP]
    if not plain:
        return True
    if any(sum(1 for c in h if suit[c] == TRUMP) > len(my_trumps) for h in others):
        return False
    for s in {suit[c] for c in plain}:
        low = min(power[c] for c in plain if suit[c] == s)
        if any(suit[c] == s and power[c] > low for h in others for c in h):
            return False
    return True


def claim_could_hold(order: TrumpOrder, mine: Sequence[Card], unseen: Sequence[Card],
                     others: int) -> bool:
    """Whether some deal of the ``unseen`` cards among the ``others`` players would let
    ``claim_holds`` hold: what beats the claimer's trumps and plain cards is among the
    unseen cards wherever they are; only how many trumps each other player holds depends on
    the deal. A surface offers a claim only then (issue 44: a player on lead with E9 E7
    S10 was offered one).

    >>> from engine.cards import cards
    >>> from engine.rules.bavarian.games import order_of
    >>> order = order_of(None)
    >>> claim_could_hold(order, cards(["E9", "E7", "S10"]), cards(["EA", "HO"]), 3)
    False
    >>> claim_could_hold(order, cards(["EO", "GO", "EA"]), cards(["HO", "E9", "H7"]), 3)
    True
    """
    suit, power = order.suit, order.power
    my_trumps = [c for c in mine if suit[c] == TRUMP]
    their_trumps = [c for c in unseen if suit[c] == TRUMP]
    if my_trumps and their_trumps and (
            min(power[c] for c in my_trumps) < max(power[c] for c in their_trumps)):
        return False
    plain = [c for c in mine if suit[c] != TRUMP]
    if not plain:
        return True
    if len(their_trumps) > others * len(my_trumps):
        return False  # somebody would hold more trumps than the claimer
    for s in {suit[c] for c in plain}:
        low = min(power[c] for c in plain if suit[c] == s)
        if any(suit[c] == s and power[c] > low for c in unseen):
            return False
    return True
