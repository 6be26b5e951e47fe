"""A match: hands one after another, with status and the deal carried from each to the next.

Randomness (first dealer, the shuffle) comes only from the match's seed, so a seeded match is
the same every time:

>>> from engine import Match, make_rules
>>> m = Match(make_rules("filicau"), seed=7)
>>> hand = m.deal()
>>> while not hand.finished:
...     seat = hand.to_move
...     hand.apply(seat, hand.legal_actions()[0])
>>> m.record_result(hand).status == hand.result.status
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card
from engine.hand import Hand, HandResult
from engine.rules.base import Rules
from engine.status import EVEN, Status


class Match:
    def __init__(
        self,
        rules: Rules,
        *,
        seed: int | None = None,
        status: Status = EVEN,
        dealer: int | None = None,
    ) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.status = status
        rules.check_status(status)
        self.dealer = rules.first_dealer(status, self.rng) if dealer is None else dealer
        #: The result of the last hand, and how many hands were played (the full history lives
        #: in the records, not in memory).
        self.last_result: HandResult | None = None
        self.hands_played = 0

    def shuffled_pack(self) -> list[Card]:
        """The rules' pack, shuffled by the match's own generator.

        Fisher-Yates driven by ``random()`` floats, as ``random.shuffle(x, random)`` did up
        to Python 3.10: uniform to within 2**-53, and a quarter cheaper than
        ``random.shuffle``'s Python-level ``_randbelow`` loop, which the benchmark feels."""
        pack = list(self.rules.pack)
        rand = self.rng.random
        for i in range(len(pack) - 1, 0, -1):
            j = int(rand() * (i + 1))
            pack[i], pack[j] = pack[j], pack[i]
        return pack

    def deal(self, pack: Sequence[Card] | None = None) -> Hand:
        """The next hand, dealt by the match's dealer from ``pack`` (default: shuffled)."""
        return Hand(self.rules, self.dealer, self.shuffled_pack() if pack is None else pack,
                    self.status)

    def record_result(self, hand: Hand) -> HandResult:
        """Carry a finished hand's status and next dealer into the match."""
        if hand.result is None:
            raise ValueError("the hand is not finished")
        self.last_result = hand.result
        self.hands_played += 1
        self.status = hand.result.status
        self.dealer = hand.result.next_dealer
        return hand.result
