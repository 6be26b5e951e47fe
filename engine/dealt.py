"""What a player was dealt against what chance predicts: trumps, Aces and Tens a hand, the
mean chance expects, and the range chance allows over that many hands
(``docs/fair-deals.md``, "What you were dealt").

A seat dealt ``n`` cards of a well-shuffled pack of ``N`` holding ``K`` cards of a kind has
a hypergeometric count of them: mean ``nK/N``. Over many hands the mean a hand falls, 95 times
in 100, within the range ``figures`` gives (exact up to ``EXACT_HANDS`` hands, from the
distribution of the sum; beyond, the normal approximation with the exact variance):

>>> from engine import make_rules
>>> rules = make_rules("filicau")
>>> d = Dealt.of(rules, [0, 1, 8, 9, 16, 24, 25, 31])   # EA E10 GA G10 HA SA S10 S7
>>> d.seen["aces"], d.seen["tens"], d.seen["trumps"]
(4, 3, 0)
>>> f = figures([d] * 10)["aces"]
>>> f.hands, f.mean, f.expected, (f.low, f.high), f.exact, f.within
(10, 4.0, 1.0, (0.5, 1.5), True, False)

"Trumps" are the trumps of the game's usual contract as its ranking lists them
(``engine.ranking``): the permanent top trumps, and the trump suit's cards where the game
fixes the suit before the deal; where a hand picks its trump suit after the deal (a shown
card, the Old Man, a call, fris or binding) the permanent top trumps alone:

>>> Dealt.in_pack(make_rules("filicau"))["trumps"], Dealt.in_pack(make_rules("schafkopf"))["trumps"]
(4, 14)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from statistics import NormalDist
from typing import Any, Final

from engine.cards import ACE, TEN, Card, rank_of
from engine.hand import Hand
from engine.ranking import card_ranking
from engine.rules.base import Rules

#: What is counted, in the order a profile shows it.
KINDS: Final = ("trumps", "aces", "tens")
#: Up to this many hands the range is exact (about 50 ms for the three kinds); beyond, the
#: normal approximation, whose bounds on the sum are within one card of the exact ones there
#: (a sixtieth of a card a hand) and cost nothing.
EXACT_HANDS: Final = 60
#: The share of chance's outcomes the range holds.
LEVEL: Final = 0.95


@cache
def _kinds(rules: Rules) -> dict[str, frozenset[Card]]:
    # Rules are shared per game and options (``shared_rules``): one entry each.
    trumps = frozenset(card_ranking(rules).trumps)
    return {"trumps": trumps,
            "aces": frozenset(c for c in rules.pack if rank_of(c) == ACE),
            "tens": frozenset(c for c in rules.pack if rank_of(c) == TEN)}


@cache
def _in_pack(rules: Rules) -> tuple[tuple[str, int], ...]:
    return tuple((k, sum(1 for c in rules.pack if c in s)) for k, s in _kinds(rules).items())


@dataclass(frozen=True)
class Dealt:
    """What one seat was dealt in one hand, counted: the pack's size, the seat's cards, and
    for each kind how many the seat got and how many the pack holds (copies counted)."""

    pack: int
    cards: int
    seen: Mapping[str, int]
    marked: Mapping[str, int]

    @classmethod
    def of(cls, rules: Rules, cards: Sequence[Card]) -> Dealt:
        """``cards`` dealt to a seat at a table of ``rules``."""
        kinds = _kinds(rules)
        return cls(len(rules.pack), len(cards),
                   {k: sum(1 for c in cards if c in s) for k, s in kinds.items()},
                   dict(_in_pack(rules)))

    @classmethod
    def of_hand(cls, hand: Hand, seat: int) -> Dealt:
        """What ``seat`` was dealt in ``hand`` (the cards a game deals in two steps, as far
        as they were dealt; a widow taken is not dealt)."""
        return cls.of(hand.rules, hand.dealt[seat])

    @staticmethod
    def in_pack(rules: Rules) -> dict[str, int]:
        """How many cards of each kind the game's pack holds."""
        return dict(_in_pack(rules))

    def to_json(self) -> dict[str, Any]:
        """A small object to keep with a hand's result: ``{"pack": 32, "cards": 8,
        "trumps": [seen, in the pack], ...}``."""
        return {"pack": self.pack, "cards": self.cards,
                **{k: [self.seen[k], self.marked[k]] for k in KINDS}}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Dealt:
        return cls(int(obj["pack"]), int(obj["cards"]),
                   {k: int(obj[k][0]) for k in KINDS}, {k: int(obj[k][1]) for k in KINDS})


@dataclass(frozen=True, order=True)
class Odds:
    """The chance of a kind in one hand: ``hand`` cards from a pack of ``pack`` holding
    ``marked`` of the kind (the hypergeometric distribution).

    >>> o = Odds(32, 4, 8)
    >>> o.mean, round(o.variance, 4), [round(p, 4) for p in o.pmf()]
    (1.0, 0.6774, [0.2955, 0.4503, 0.2149, 0.0374, 0.0019])
    """

    pack: int
    marked: int
    hand: int

    @property
    def mean(self) -> float:
        return self.hand * self.marked / self.pack

    @property
    def variance(self) -> float:
        n, k, m = self.pack, self.marked, self.hand
        return 0.0 if n < 2 else m * (k / n) * (1 - k / n) * (n - m) / (n - 1)

    def pmf(self) -> list[float]:
        """``pmf()[x]``: the chance of exactly ``x`` (0 to the most possible)."""
        return list(_pmf(self.pack, self.marked, self.hand))


@cache
def _pmf(pack: int, marked: int, hand: int) -> tuple[float, ...]:
    total = math.comb(pack, hand)
    return tuple(math.comb(marked, x) * math.comb(pack - marked, hand - x) / total
                 for x in range(min(marked, hand) + 1))


@dataclass(frozen=True)
class Figure:
    """One kind over a player's hands: the mean a hand they were dealt, the mean chance
    expects, and the range of the mean that chance gives ``LEVEL`` of the time."""

    kind: str
    hands: int
    mean: float
    expected: float
    low: float
    high: float
    #: The range is exact (the distribution of the sum), not the normal approximation.
    exact: bool

    @property
    def within(self) -> bool:
        """The mean lies in the range chance allows (``1 - LEVEL`` of fair players' figures
        lie outside it: one kind in twenty, on average)."""
        return self.low <= self.mean <= self.high


def _convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for j, q in enumerate(b):
        if q:
            for i, p in enumerate(a):
                out[i + j] += p * q
    return out


@lru_cache(maxsize=4096)
def _exact(groups: tuple[tuple[Odds, int], ...], level: float) -> tuple[int, int]:
    """The range of the sum over these hands (``Odds`` and how many hands had them); the
    same hands give the same range, so it is kept for the next profile."""
    dist = [1.0]
    for odds, hands in groups:
        pmf = odds.pmf()
        for _ in range(hands):
            dist = _convolve(dist, pmf)
    return _quantile(dist, (1 - level) / 2), _quantile(dist, (1 + level) / 2)


def _quantile(dist: Sequence[float], p: float) -> int:
    """The smallest total whose cumulative chance reaches ``p`` (a hair of rounding spared,
    so that a sum of floats just short of ``p`` does not move the bound by one)."""
    acc = 0.0
    for s, q in enumerate(dist):
        acc += q
        if acc >= p - 1e-12:
            return s
    return len(dist) - 1


def _normal(groups: tuple[tuple[Odds, int], ...], level: float) -> tuple[int, int]:
    mean = sum(o.mean * h for o, h in groups)
    sd = math.sqrt(sum(o.variance * h for o, h in groups))
    top = sum(min(o.marked, o.hand) * h for o, h in groups)
    z = NormalDist().inv_cdf((1 + level) / 2)

    def bound(x: float) -> int:
        # The discrete quantile: the smallest s with P(S <= s) >= p, P(S <= s) taken as
        # Phi((s + 1/2 - mean) / sd), the continuity correction.
        return min(top, max(0, math.ceil(x - 0.5 - 1e-9)))

    return bound(mean - z * sd), bound(mean + z * sd)


def figures(dealt: Iterable[Dealt], level: float = LEVEL) -> dict[str, Figure]:
    """Each kind's figure over these hands (of one game: trumps mean something else in
    another), or nothing for no hands."""
    hands = list(dealt)
    if not hands:
        return {}
    out = {}
    for kind in KINDS:
        # Counted as plain tuples: hashing a dataclass a hand costs more than the rest.
        counted = Counter((d.pack, d.marked[kind], d.cards) for d in hands)
        groups = tuple(sorted((Odds(*key), h) for key, h in counted.items()))
        n = len(hands)
        seen = sum(d.seen[kind] for d in hands)
        expected = sum(o.mean * h for o, h in groups)
        exact = n <= EXACT_HANDS
        low, high = (_exact if exact else _normal)(groups, level)
        out[kind] = Figure(kind, n, seen / n, expected / n, low / n, high / n, exact)
    return out
