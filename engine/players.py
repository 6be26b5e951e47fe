"""Players the engine ships: they decide from a ``SeatView`` only.

The computer levels the bot offers (Easy, Normal, Hard) are in ``engine.ai`` and implement the
same ``Player`` protocol.
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.actions import Action
from engine.cards import ACE, TRUMP
from engine.view import SeatView


class Player(Protocol):
    name: str

    def choose(self, view: SeatView) -> Action: ...


class RandomPlayer:
    """Any legal action, uniformly."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal)


class SimplePlayer:
    """A legal-move player with a little sense: win a trick cheaply when it can, else throw
    its least valuable card; lead its strongest plain Ace or else its lowest card."""

    name = "simple"

    def choose(self, view: SeatView) -> Action:
        legal = list(view.legal)
        order = view.order
        if len(legal) == 1 or legal[0].kind != "card" or order is None:
            return legal[0]
        if not all(isinstance(a.value, int) for a in legal):
            # A game whose pack holds each card twice names its cards by code (Doppelkopf):
            # its own rule of thumb plays them.
            suggested = view.rules.suggest(view)
            return suggested if suggested in legal else legal[0]
        points = view.card_points
        cards = [a.value for a in legal]

        def worth(c: int) -> tuple[int, bool, int]:
            return (points[c], order.suit[c] == TRUMP, order.power[c])

        if not view.trick:
            aces = [c for c in cards if order.suit[c] != TRUMP and c % 8 == ACE]
            return next(a for a in legal if a.value == (aces[0] if aces else min(cards, key=worth)))
        best = view.trick[order.winner(view.trick)]
        winners = [c for c in cards if order.beats(c, best)]
        if winners:
            pick = min(winners, key=lambda c: (order.suit[c] == TRUMP, order.power[c]))
        else:
            pick = min(cards, key=worth)
        return next(a for a in legal if a.value == pick)
