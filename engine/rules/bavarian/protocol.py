"""What the rules of thumb, the refusals and the scoring read of Bavarian Schafkopf's rules.

``engine.rules.bavarian.game.Schafkopf`` is the game; it calls ``computer``, ``refusals`` and
``scoring`` for its hooks. Those take the rules as a ``BavarianRules`` (this protocol, which
``Schafkopf`` has) rather than importing the game, so the imports run one way: the game over
its helpers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from engine.cards import Card
from engine.rules.bavarian.games import Contract
from engine.rules.bavarian.options import SchafkopfOptions, Tariff

if TYPE_CHECKING:
    from engine.hand import Hand, HandResult


class BavarianRules(Protocol):
    """The rules of one Bavarian Schafkopf table, as its helpers read them."""

    #: The pack (32 cards, or 24 with ``short_pack``).
    pack: tuple[Card, ...]
    #: The table's options, and the tariff they set.
    opts: SchafkopfOptions
    rates: Tariff
    #: The short pack: six Laufende count from three, an Ace runs away with three cards.
    short: bool
    run_away: int
    point_of: Callable[[Card], int]

    @property
    def searched_choices(self) -> frozenset[str]:
        """The phases before play that Hard weighs by search."""

    def contracts(self, cards: Sequence[Card]) -> list[Contract]:
        """The games a hand of these cards may declare at this table."""

    def classes(self, cards: Sequence[Card]) -> list[str]:
        """The classes of game those contracts belong to (for the clarification)."""

    def level(self, hand: Hand) -> int:
        """The doubling level reached (0: none, 1: Kontra, 2: Re...)."""

    def window_actors(self, hand: Hand) -> tuple[int, ...]:
        """The seats the doubling window asks now."""

    def holders(self, dealer: int) -> tuple[int, ...]:
        """Which seat each card of the pack is dealt to."""

    def finish(self, hand: Hand, result: HandResult) -> None:
        """End the hand with this result."""
