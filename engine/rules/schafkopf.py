"""Schafkopf for three (seed 002, RULINGS.md "Schafkopf (3 players)").

The widow, the declarer and the match are ``engine.rules.widow.WidowGame``'s; this game adds
its scoring (the declarer's table, "least" when all pass) and the computer's way of playing
least.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.actions import Action
from engine.cards import PACK_32
from engine.hand import PLAYING, Hand
from engine.rules.base import POINTS_WEIGHT
from engine.rules.thumbs import least_card
from engine.rules.widow import MODE_ALONE, WidowGame

if TYPE_CHECKING:
    from engine.view import SeatView


class Schafkopf3(WidowGame):
    game = "schafkopf3"
    title = "Schafkopf (3 players)"
    goal = (
        "Take the widow and play alone against the other two for 61 or more of the 120 card "
        "points, or pass and defend; if everybody passes, whoever takes the fewest card "
        "points wins."
    )
    rulings = (
        "32 cards: 3 each, 2 to the widow, 4 each, 3 each (10 each); the seat after the dealer "
        "leads.",
        "Trumps: EO GO HO SO EU GU HU SU, then bells A 10 K 9 8 7. Other suits A 10 K 9 8 7. "
        "Follow suit if able, else any card (no duty to trump).",
        "From the dealer's left, each may take the widow; the taker buries two face down, which "
        "count for him, and plays alone against the other two.",
        "Card points A 11, 10 10, K 4, O 3, U 2 (120). The declarer scores: all tricks +6, "
        "91+ +4, 61+ +2, 31-60 -2, 1-30 -4, 0 points -6 (opponents do not score).",
        "All pass: least. Fewest card points wins 2 (4 with 0 points); ties go to the one who "
        "took a trick least recently; three-way tie: the dealer. One player with all 120 loses "
        "4, the others score 0. The widow counts for the winner of the last trick.",
        "A match is a set number of deals, a multiple of 3 (deals option, default 9); the "
        "deal passes to the left; the highest total wins the match.",
        "early_end (default on): a declarer game stops once its score is decided.",
        "House rules: in least the widow counts for the winner of the "
        "last trick (Skat's Ramsch rule); a declarer's score is his alone, not paid by each "
        "opponent.",
    )

    pack = PACK_32

    def suggest(self, view: SeatView) -> Action | None:
        # "Least": every card point taken counts against you, so Easy ducks.
        if view.phase == PLAYING and view.public.get("mode") == MODE_ALONE:
            return least_card(view)
        return super().suggest(view)

    def wants_points(self, hand: Hand, team: int) -> bool:
        return hand.pending.get("mode") != MODE_ALONE

    def declarer_value(self, points: int, all_tricks: bool, no_trick: bool) -> int:
        if all_tricks:
            return 6
        if points >= 91:
            return 4
        if points >= 61:
            return 2
        if points > 30:
            return -2
        if points > 0:
            return -4
        return -6

    def settle_declarer(self, hand: Hand, declarer: int) -> None:
        got = hand.team_taken[0]
        all_tricks = not any(hand.hands) and all(t.winner == declarer for t in hand.tricks)
        value = self.declarer_value(got, all_tricks, False)
        scores = [value if s == declarer else 0 for s in range(self.players)]
        level = ("schwarz" if abs(value) == 6 else "schneider" if abs(value) == 4
                 else "simple")
        self.finish_scored(
            hand, scores, "declarer_won" if value > 0 else "declarer_lost", 0,
            {"declarer": declarer, "declarer_points": got, "level": level},
        )

    def least_scores(self, hand: Hand) -> tuple[list[int], int, str]:
        """Per-seat scores of a least game, the seat the event is about, and the event."""
        taken = hand.taken
        n = self.players
        for s in range(n):
            if taken[s] == self.total_points:
                return [-4 if x == s else 0 for x in range(n)], s, "least_all"
        fewest = min(taken)
        tied = [s for s in range(n) if taken[s] == fewest]
        if len(tied) == n:
            winner = hand.dealer
        else:
            last = {s: -1 for s in tied}
            for i, t in enumerate(hand.tricks):
                if t.winner in last:
                    last[t.winner] = i
            winner = min(tied, key=lambda s: last[s])
        value = 4 if fewest == 0 else 2
        return [value if x == winner else 0 for x in range(n)], winner, "least_won"

    def settle_alone(self, hand: Hand) -> None:
        scores, seat, event = self.least_scores(hand)
        self.finish_scored(hand, scores, event, seat, {"least_winner": seat})

    def alone_value(self, points: Sequence[int], seat: int) -> float:
        """Least, for search: the score (ties shared), and fewer points better (the search
        adds more-is-better card points beside the outcome; this turns it round)."""
        n = len(points)
        total = max(1, self.total_points)
        correction = -2 * POINTS_WEIGHT * (2 * points[seat] - sum(points)) / total
        if max(points) == self.total_points:
            return (-1.0 if points[seat] == self.total_points else 0.0) + correction
        fewest = min(points)
        tied = [s for s in range(n) if points[s] == fewest]
        value = (4 if fewest == 0 else 2) / len(tied) if seat in tied else 0.0
        return value / 4 + correction
