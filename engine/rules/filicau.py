"""Filicău, the Romanian 4-player game (seeds 000/001; RULINGS.md, "Filicău")."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from engine.cards import COUNT_POINTS, PACK_32
from engine.hand import HandResult
from engine.rules.base import Rules
from engine.status import EVEN, RecordError, Status

if TYPE_CHECKING:
    from engine.hand import Hand


class Filicau(Rules):
    game = "filicau"
    title = "Filicău"
    goal = (
        "Take Aces and Tens in your tricks: 6 or 7 of the 8 make your team masters, 8 to 0 puts "
        "everybody back to even, and 4–4 or 5–3 changes nothing."
    )
    losers = "slaves"
    rulings = (
        "32 cards, dealt one at a time, 8 each; the seat after the dealer leads.",
        "Trump: the first card dealt to the dealer is shown; while it is an Ober, the next card "
        "dealt to the dealer is shown too. The last shown card's suit is trump.",
        "The four Obers are always the top trumps (acorns, leaves, hearts, bells) and do not "
        "belong to their printed suit.",
        "Follow suit; if void, trump if able; otherwise any card. No duty to beat.",
        "Aces and Tens score 1 point each (8 in all).",
        "6-2 or 7-1: that team become masters, the others slaves. 4-4 or 5-3: no change. "
        "8-0: all even again (the team with 0 ran away).",
        "With slaves, a slave deals: the previous dealer or the next seat, whichever is a slave. "
        "When even, the deal passes to the next seat.",
        "early_end (default on): the hand stops once no remaining play can change its outcome.",
    )

    players = 4
    pack = PACK_32
    packets = (1,) * 8
    points = COUNT_POINTS
    total_points = 8

    def start(self, hand: Hand) -> None:
        # Cards dealt to the dealer lie at pack indexes 3, 7, 11...
        self.shown_from(hand, range(3, 32, 4))

    def check_status(self, status: Status) -> None:
        super().check_status(status)
        if status.servant is not None:
            raise RecordError("Filicău has no Servant: status.servant must be null")

    def check_deal(self, dealer: int, status: Status) -> None:
        # A slave deals every hand while there are slaves (``next_dealer``): seats of the
        # masters' team never do, so a record with a master dealing cannot come from play.
        if status.masters is not None and dealer % 2 == status.masters:
            raise RecordError(
                f"a slave deals while team {status.masters} are masters, not seat {dealer} "
                f"(a master): the dealer must be seat {1 - status.masters} or "
                f"{3 - status.masters}"
            )

    def outcome(self, status: Status, points: Sequence[int]) -> Hashable:
        return self._decide(status, points)[0]

    def _decide(self, status: Status, points: Sequence[int]) -> tuple[Status, str, int | None]:
        for team in (0, 1):
            if points[team] == 8:
                return EVEN, "ran_away", 1 - team
            if points[team] >= 6:
                event = "stay_masters" if status.masters == team else "masters"
                return Status(masters=team), event, team
        return status, "no_change", None

    def settle(self, hand: Hand) -> None:
        points = hand.team_points()
        status, event, team = self._decide(hand.status, points)
        self.finish(hand, HandResult(
            points=tuple(points), status_before=hand.status, status=status,
            next_dealer=self.next_dealer(status, hand.dealer), event=event, team=team,
            early=any(hand.hands),
        ))

    def next_dealer(self, status: Status, dealer: int) -> int:
        if status.masters is None:
            return (dealer + 1) % 4
        # Neighbours are opponents, so exactly one of the two is a slave.
        return dealer if dealer % 2 != status.masters else (dealer + 1) % 4

    def first_dealer(self, status: Status, rng: random.Random) -> int:
        if status.masters is None:
            return rng.randrange(4)
        return rng.choice([1 - status.masters, 3 - status.masters])
