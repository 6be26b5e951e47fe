"""Rules of thumb more than one game shares: the computers' choices that need no search.

The games' own ``suggest`` hooks call these; they read only a ``SeatView``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action

if TYPE_CHECKING:
    from engine.view import SeatView


def least_card(view: SeatView) -> Action | None:
    """A card for "least", where every card point taken counts against you: duck under the
    best card of the trick when possible (shedding the most points while doing so); when
    every card would win, win with the one that costs least; lead the weakest card."""
    order = view.order
    cards = [a.value for a in view.legal if a.kind == "card"]
    if order is None or not cards:
        return None
    points = view.card_points
    if not view.trick:
        pick = min(cards, key=lambda c: (order.power[c], points[c]))
    else:
        best = view.trick[order.winner(view.trick)]
        under = [c for c in cards if not order.beats(c, best)]
        if under:
            pick = max(under, key=lambda c: (points[c], order.power[c]))
        else:
            pick = min(cards, key=lambda c: (points[c], order.power[c]))
    return Action("card", pick)
