"""What a seat can infer about the hidden hands, and random guesses consistent with it.

Two kinds of knowledge, both from the public record only:

- **voids**: a seat that did not follow the led suit holds none of it (suits as the trump
  order has them: Overs are trumps, not their printed suit); where the rules make a void
  seat trump, a seat that played a plain card to a plain lead holds no trumps either;
- **shown cards**: a card shown to fix trump stays with the seat it was dealt to until played
  (``view.shown_held``);
- once play is over (an early end), the unplayed cards are public (``view.unplayed``).

``sample`` deals the unknown cards to the other seats at random, never against either.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from engine.cards import TRUMP, Card
from engine.determinize import plays_so_far
from engine.view import SeatView


@dataclass(frozen=True)
class Knowledge:
    seat: int
    #: Cards whose holder is unknown to ``seat``.
    unknown: tuple[Card, ...]
    #: Cards known to be held, by seat (shown cards not yet played).
    known: tuple[tuple[Card, ...], ...]
    #: How many unknown cards each seat holds (0 for ``seat`` itself).
    need: tuple[int, ...]
    #: ``void[s]``: bit mask of the suits (``TRUMP`` included) seat ``s`` is known to lack.
    void: tuple[int, ...]
    #: ``suit[c]``: the suit card ``c`` follows as.
    suit: tuple[int, ...]

    def allowed(self, seat: int, c: Card) -> bool:
        return not self.void[seat] >> self.suit[c] & 1

    @cached_property
    def options(self) -> dict[Card, list[int]]:
        """``options[c]``: the other seats that may hold unknown card ``c`` (worked out once:
        the search draws hundreds of guesses from one ``Knowledge``)."""
        seats = [s for s in range(len(self.need)) if s != self.seat]
        return {c: [s for s in seats if self.need[s] and self.allowed(s, c)]
                for c in self.unknown}


def voids(view: SeatView) -> list[int]:
    """Suits each seat is known to lack, as bit masks (``1 << suit``)."""
    n = view.players
    out = [0] * n
    order = view.order
    rules = view.rules
    if order is None or rules.restricts_play:
        # Before trump, or with duties beyond follow-suit, not following proves nothing.
        return out
    suit = order.suit
    led = -1
    for i, (seat, c) in enumerate(plays_so_far(view)):
        if i % n == 0:
            led = suit[c]
            continue
        if suit[c] != led:
            out[seat] |= 1 << led
            if rules.must_trump and led != TRUMP and suit[c] != TRUMP:
                out[seat] |= 1 << TRUMP
    return out


def infer(view: SeatView) -> Knowledge:
    n = view.players
    seat = view.seat
    known: list[list[Card]] = [[] for _ in range(n)]
    if view.unplayed is not None:
        # Play is over (an early end shows the cards nobody played): nothing is hidden.
        known = [[] if s == seat else list(view.unplayed[s]) for s in range(n)]
    else:
        for c, holder in view.shown_held:
            if holder != seat:
                known[holder].append(c)
    taken = set(view.hand)
    taken.update(c for _, c in plays_so_far(view))
    for cards in known:
        taken.update(cards)
    unknown = tuple(c for c in view.rules.pack if c not in taken)
    need = tuple(0 if s == seat else view.hand_sizes[s] - len(known[s]) for s in range(n))
    suit = view.order.suit if view.order is not None else tuple(c >> 3 for c in range(32))
    return Knowledge(seat, unknown, tuple(map(tuple, known)), need, tuple(voids(view)), suit)


def sample(k: Knowledge, rng: random.Random) -> dict[int, list[Card]]:
    """Every other seat's unplayed cards, at random, consistent with ``k``. Unknown cards
    beyond what the seats hold (a widow, cards buried face down) are left out."""
    seats = [s for s in range(len(k.need)) if s != k.seat]
    options = k.options
    for _ in range(30):
        got = _greedy(k, seats, options, rng)
        if got is not None:
            return got
    got = _exhaustive(k, seats, options, rng)
    if got is None:  # pragma: no cover - the real deal always satisfies the knowledge
        free = {c: [s for s in seats if k.need[s]] for c in k.unknown}
        got = _exhaustive(k, seats, free, rng)
    assert got is not None
    return got


def _result(k: Knowledge, seats: list[int], out: dict[int, list[Card]]) -> dict[int, list[Card]]:
    for s in seats:
        out[s].extend(k.known[s])
    return out


def _greedy(k: Knowledge, seats: list[int], options: dict[Card, list[int]],
            rng: random.Random) -> dict[int, list[Card]] | None:
    """Most constrained cards first, each to a seat with room, chosen in proportion to the
    room it has left (uniform when nothing is known)."""
    cap = list(k.need)
    cards = list(k.unknown)
    rng.shuffle(cards)
    cards.sort(key=lambda c: len(options[c]))
    out: dict[int, list[Card]] = {s: [] for s in seats}
    rand = rng.random
    # Cards that stay with no seat (a widow, cards buried face down).
    spare = len(cards) - sum(cap)
    for c in cards:
        opts = [s for s in options[c] if cap[s]]
        if not opts:
            if spare > 0:
                spare -= 1
                continue
            return None
        r = rand() * sum(cap[s] for s in opts)
        for s in opts:
            r -= cap[s]
            if r < 0:
                break
        cap[s] -= 1
        out[s].append(c)
    return _result(k, seats, out)


def _exhaustive(k: Knowledge, seats: list[int], options: dict[Card, list[int]],
                rng: random.Random) -> dict[int, list[Card]] | None:
    cards = sorted(k.unknown, key=lambda c: len(options[c]))
    cap = list(k.need)
    out: dict[int, list[Card]] = {s: [] for s in seats}

    def place(i: int) -> bool:
        if i == len(cards):
            return True
        c = cards[i]
        opts = [s for s in options[c] if cap[s]]
        rng.shuffle(opts)
        for s in opts:
            cap[s] -= 1
            out[s].append(c)
            if place(i + 1):
                return True
            out[s].pop()
            cap[s] += 1
        # Leave the card with no seat while more cards remain than the seats have room for.
        return len(cards) - i > sum(cap) and place(i + 1)

    return _result(k, seats, out) if place(0) else None
