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
        #: The status and dealer the last hand settled: dealing from them, nothing needs
        #: checking again.
        self._settled: tuple[Status, int] | None = None

    def shuffled_pack(self) -> list[Card]:
        """The rules' pack, shuffled by the match's own generator.

        Fisher-Yates fed by one ``getrandbits`` call (a 32-bit word per step, reduced modulo
        the step's range: a bias below 1e-8 for packs this size). A fifth of the benchmark's
        time went into ``random.shuffle``'s Python-level ``_randbelow`` loop."""
        pack = list(self.rules.pack)
        n = len(pack)
        words = memoryview(self.rng.getrandbits(32 * n).to_bytes(4 * n, "little")).cast("I")
        for i in range(n - 1, 0, -1):
            j = words[i] % (i + 1)
            pack[i], pack[j] = pack[j], pack[i]
        return pack

    def deal(self, pack: Sequence[Card] | None = None) -> Hand:
        """The next hand, dealt by the match's dealer from ``pack`` (default: shuffled)."""
        if pack is not None:
            return Hand(self.rules, self.dealer, pack, self.status)
        # The rules' own pack shuffled, and the status and dealer a hand of this match settled
        # (the rules made them): the hand need not check them again.
        settled = self._settled
        trusted = settled is not None and settled[0] is self.status and settled[1] == self.dealer
        return Hand(self.rules, self.dealer, self.shuffled_pack(), self.status, check=not trusted)

    def record_result(self, hand: Hand) -> HandResult:
        """Carry a finished hand's status and next dealer into the match."""
        if hand.result is None:
            raise ValueError("the hand is not finished")
        self.last_result = hand.result
        self.hands_played += 1
        self.status = hand.result.status
        self.dealer = hand.result.next_dealer
        self._settled = (self.status, self.dealer)
        return hand.result
