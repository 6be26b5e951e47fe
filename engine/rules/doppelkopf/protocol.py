"""What Doppelkopf's scoring, refusals and rules of thumb read of its rules.

``engine.rules.doppelkopf.game.Doppelkopf`` is the game; it calls ``scoring``, ``refusals``
and ``computer`` for its hooks. Those take the rules as a ``DoppelkopfRules`` (this protocol,
which ``Doppelkopf`` has) rather than importing the game, so the imports run one way: the game
over its helpers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from engine.actions import Action
from engine.cards import Card
from engine.rules.doppelkopf.options import DoppelkopfOptions
from engine.status import Status

if TYPE_CHECKING:
    from engine.hand import Hand, HandResult


class DoppelkopfRules(Protocol):
    """The rules of one Doppelkopf table, as its helpers read them."""

    #: The pack (48 cards, or 40 without nines), its card points, the cards each seat is
    #: dealt (``n``: 12 or 10) and the counted deals of a match.
    pack: tuple[Card, ...]
    opts: DoppelkopfOptions
    n: int
    match_deals: int
    point_of: Callable[[Card], int]

    @property
    def points(self) -> tuple[int, ...]:
        """Each card's Augen (D1.2)."""

    def holders(self, dealer: int) -> tuple[int, ...]:
        """Which seat each card of the pack is dealt to."""

    def deal(self, pack: Sequence[Card], dealer: int) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards, in the order dealt."""

    def reservations(self, cards: Sequence[Card], status: Status, seat: int) -> list[str]:
        """The Vorbehalte a seat holding ``cards`` may say (D4.2, D5.7)."""

    def owes(self, status: Status, seat: int) -> bool:
        """D6.5: ``seat`` has still to play its Pflichtsolo in this match."""

    def lays(self, cards: Sequence[Card]) -> list[tuple[Card, ...]]:
        """The three cards an Armut seat holding ``cards`` may lay aside (D5.8)."""

    def ansage_steps(self, hand: Hand, seat: int) -> tuple[tuple[int, ...], bool]:
        """The levels ``seat`` may raise its party to now, and whether as a late reply."""

    def shift(self, hand: Hand) -> int:
        """D7.6: how many cards later the deadlines are (a Hochzeit's ``k - 1``)."""

    def play_cards(self, hand: Hand, seat: int) -> list[Card]:
        """The cards ``seat`` may play now, each once, in card order."""

    def announcements(self, hand: Hand, seat: int) -> list[Action]:
        """The announcements ``seat`` may make now."""

    def finish(self, hand: Hand, result: HandResult) -> None:
        """End the hand with this result."""
