"""Which cards are trumps, and how every card ranks, once a game's trump is fixed.

Every game of the family has *permanent* top trumps (the Overs, in Schafkopf the Unders too,
in Kelebia some Sevens) above the cards of a trump suit, which ranks like a plain suit:
A 10 K (O) U 9 8 7. ``TrumpOrder`` turns that into two flat tables indexed by card, which the
trick-taking loop reads without branching on the game:

>>> from engine.cards import card, HEARTS, TRUMP, OVERS
>>> order = TrumpOrder(OVERS, HEARTS)
>>> order.suit[card("GO")] == TRUMP, order.suit[card("H7")] == TRUMP, order.suit[card("GA")]
(True, True, 1)
>>> order.beats(card("SO"), card("HA"))
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from engine.cards import ALL_CARDS, TRUMP, Card, Suit, code, rank_of, suit_of

_TOP = 1000
_TRUMP_SUIT = 500


@dataclass(frozen=True)
class TrumpOrder:
    #: Permanent trumps, highest first.
    permanent: tuple[Card, ...]
    #: The trump suit, or None when only the permanent trumps are trumps.
    trump_suit: Suit | None
    #: ``suit[c]``: the suit a card follows as (``TRUMP`` for every trump).
    suit: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: ``power[c]``: higher beats lower within the same ``suit``; any trump beats any plain card.
    power: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: ``led_rank[s][c]``: how strong card ``c`` is in a trick led in suit ``s``: any trump
    #: beats the led suit, which beats the rest (all 0). The trick's winner is its maximum.
    led_rank: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    #: ``masks[s]``: bit mask (bit ``c`` for card ``c``) of the cards that follow suit ``s``
    #: (index ``TRUMP`` for the trumps).
    masks: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __init__(self, permanent: Sequence[Card], trump_suit: Suit | None) -> None:
        object.__setattr__(self, "permanent", tuple(permanent))
        object.__setattr__(self, "trump_suit", trump_suit)
        top = {c: i for i, c in enumerate(self.permanent)}
        suits: list[int] = []
        powers: list[int] = []
        for c in ALL_CARDS:
            if c in top:
                suits.append(TRUMP)
                powers.append(_TOP - top[c])
            elif suit_of(c) == trump_suit:
                suits.append(TRUMP)
                powers.append(_TRUMP_SUIT - rank_of(c))
            else:
                suits.append(suit_of(c))
                powers.append(100 - rank_of(c))
        object.__setattr__(self, "suit", tuple(suits))
        object.__setattr__(self, "power", tuple(powers))
        object.__setattr__(self, "led_rank", tuple(
            tuple(2000 + powers[c] if suits[c] == TRUMP else 1000 + powers[c] if suits[c] == led
                  else 0 for c in ALL_CARDS)
            for led in range(TRUMP + 1)
        ))
        object.__setattr__(
            self, "masks", tuple(sum(1 << c for c in ALL_CARDS if suits[c] == s)
                                 for s in range(TRUMP + 1))
        )

    # The two tables below are derived from ``led_rank`` and ``power`` on first use, not in
    # ``__init__``: an order that sets its own ranks after ``super().__init__`` (Bavarian
    # Bettel's) gets tables that agree with them. (Cached in the instance's dict, which a
    # frozen dataclass allows: later reads cost a plain attribute look-up.)

    @cached_property
    def led_key(self) -> tuple[Callable[[Card], int], ...]:
        """``led_key[s]``: ``led_rank[s].__getitem__`` made fast (a list's): the key that
        finds a trick's winner, ``max(trick, key=led_key[s])``."""
        return tuple(list(ranks).__getitem__ for ranks in self.led_rank)

    @cached_property
    def beaters(self) -> tuple[int, ...]:
        """``beaters[b]``: bit mask of the cards that beat ``b`` when ``b`` is winning the
        trick (``beats(c, b)`` for every ``c`` in it): games where players must beat read it."""
        return tuple(sum(1 << c for c in ALL_CARDS if self.beats(c, b)) for b in ALL_CARDS)

    def is_trump(self, c: Card) -> bool:
        return self.suit[c] == TRUMP

    def beats(self, c: Card, best: Card) -> bool:
        """Does ``c``, played after ``best`` (the card winning the trick so far), beat it?"""
        sc, sb = self.suit[c], self.suit[best]
        if sc == sb:
            return self.power[c] > self.power[best]
        return sc == TRUMP

    def winner(self, trick: Sequence[Card]) -> int:
        """Index in ``trick`` of the card that wins it."""
        return trick.index(max(trick, key=self.led_key[self.suit[trick[0]]]))

    def sort_key(self, c: Card) -> tuple[int, int]:
        """Trumps first, strongest first; then the plain suits in suit order."""
        s = self.suit[c]
        return (-1 if s == TRUMP else s, -self.power[c])

    def trumps_high_to_low(self, pack: Sequence[Card]) -> list[str]:
        return [code(c) for c in sorted((c for c in pack if self.is_trump(c)), key=self.sort_key)]


@lru_cache(maxsize=512)
def trump_order(permanent: tuple[Card, ...], trump_suit: Suit | None) -> TrumpOrder:
    """The (shared, immutable) order for these top trumps and trump suit."""
    return TrumpOrder(permanent, trump_suit)

