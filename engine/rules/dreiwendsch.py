"""Dreiwendsch, Wendish Schafkopf for three (seed 004; RULINGS.md "Wendish Schafkopf").

The holder of ``EO`` (or, with the option ``skat_to: "forehand"``, the seat after the dealer)
may take the two-card skat, bury two and play a solo against the other
two, or decline: then all three play for themselves and the most card points wins. The
widow machinery, teams and match are ``engine.rules.widow.WidowGame``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Literal

from engine.cards import PACK_20, PACK_32, card
from engine.rules.base import Options
from engine.rules.widow import MatchOptions, WidowGame

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.view import SeatView

OLD_ONE = card("EO")


class DreiwendschOptions(MatchOptions):
    #: Sharp cards: 20 cards (no 9s, 8s, 7s), 6 each, 2 in the skat.
    sharp: bool = False
    #: Who may take the skat: the holder of ``EO`` (the seed's rule) or, "if pre-agreed",
    #: forehand (the seat after the dealer).
    skat_to: Literal["old_one", "forehand"] = "old_one"


class Dreiwendsch(WidowGame):
    game = "dreiwendsch"
    title = "Dreiwendsch"
    goal = (
        "The holder of the Ober of acorns may take the widow (the skat) and play alone against "
        "the other two for 61 or more of the 120 card points; if he declines, everybody plays "
        "alone and whoever takes the most card points wins."
    )
    options_model: ClassVar[type[Options]] = DreiwendschOptions
    declarer_role: ClassVar[str] = "soloist"
    rulings = (
        "32 cards: 3 each, 4 each, 2 to the skat, 3 each (10 each); the seat after the dealer "
        "leads.",
        "Trumps as in 3-player Schafkopf: EO GO HO SO EU GU HU SU, then bells A 10 K 9 8 7. "
        "Follow suit only (no duty to trump).",
        "The EO holder may take the skat, bury two (they count for him) and play alone "
        "against the other two; or decline, and all play for themselves. With EO in the "
        "skat, all play for themselves.",
        "Card points A 11, 10 10, K 4, O 3, U 2 (120). The soloist wins with 61+. Score 1, +1 "
        "schneider (loser under 30), +1 schwarz (loser took no trick), won or lost from each "
        "of the other two.",
        "All for themselves: the most card points wins 1 from each player with fewer (a tie "
        "for most: each of them wins 1 from the other player). The skat counts for the "
        "winner of the last trick.",
        "sharp option (default off): 20 cards, no 9s, 8s, 7s; 2 each, 2 each, 2 to the skat, "
        "2 each (6 each).",
        "A match is a set number of deals, a multiple of 3 (deals option, default 9); the "
        "deal passes to the left; the highest total wins the match.",
        "early_end (default on): a solo stops once its score is decided.",
        "skat_to option: old_one (default: the EO holder may take the skat) or forehand (the "
        "seat after the dealer may take it, whoever holds EO; a variant agreed before play).",
        "House rules: all for themselves, the most card points wins 1 "
        "from each player with fewer; with sharp cards the skat is laid after the second "
        "packet; a match as in Schafkopf for three.",
    )

    top_value = 3
    #: A soloist wins or loses up to 3 from each of the other two; all for themselves, a
    #: winner takes at most 2 (``settle_declarer``, ``most_scores``): every deal adds to 0.
    deal_swing = 6
    zero_sum = True

    def __init__(self, options: Options) -> None:
        assert isinstance(options, DreiwendschOptions)
        self.sharp = options.sharp
        self.skat_to = options.skat_to
        if options.sharp:
            self.pack = PACK_20
            self.packets = (2, 2, 2)
        else:
            self.pack = PACK_32
            self.packets = (3, 4, 3)
        self.widow_after = 2
        super().__init__(options)

    # -- the skat --------------------------------------------------------------------------

    def first_asked(self, hand: Hand) -> int | None:
        if self.skat_to == "forehand":
            return (hand.dealer + 1) % self.players
        for seat in range(self.players):
            if OLD_ONE in hand.hands[seat]:
                return seat
        return None  # EO lies in the skat: all play for themselves

    def next_asked(self, hand: Hand, seat: int) -> int | None:
        return None

    # -- scoring ---------------------------------------------------------------------------

    def declarer_value(self, points: int, all_tricks: bool, no_trick: bool) -> int:
        if points >= 61:
            return 1 + (self.total_points - points < 30) + all_tricks
        return -(1 + (points < 30) + no_trick)

    def settle_declarer(self, hand: Hand, declarer: int) -> None:
        got = hand.team_taken[0]
        done = not any(hand.hands)
        all_tricks = done and all(t.winner == declarer for t in hand.tricks)
        no_trick = done and not any(t.winner == declarer for t in hand.tricks)
        value = self.declarer_value(got, all_tricks, no_trick)
        n = self.players
        scores = [(n - 1) * value if s == declarer else -value for s in range(n)]
        level = ("schwarz" if abs(value) == 3 else "schneider" if abs(value) == 2
                 else "simple")
        self.finish_scored(
            hand, scores, "solo_won" if value > 0 else "solo_lost", 0,
            {"declarer": declarer, "declarer_points": got, "level": level},
        )

    @staticmethod
    def most_scores(points: Sequence[int]) -> tuple[list[int], list[int]]:
        """Per-seat scores when all play alone, and the winners (most card points)."""
        n = len(points)
        best = max(points)
        winners = [s for s in range(n) if points[s] == best]
        losers = n - len(winners)
        scores = [losers if s in winners else -len(winners) for s in range(n)]
        if not losers:
            scores = [0] * n
        return scores, winners

    def settle_alone(self, hand: Hand) -> None:
        scores, winners = self.most_scores(hand.taken)
        event = "most_won" if any(scores) else "all_even"
        team = winners[0] if len(winners) == 1 else None
        self.finish_scored(hand, scores, event, team, {"winners": winners})

    def alone_value(self, points: Sequence[int], seat: int) -> float:
        scores, _ = self.most_scores(points)
        return scores[seat] / (self.players - 1)

    # -- computer players ------------------------------------------------------------------

    def take_threshold(self, view: SeatView) -> float:
        return 12.0 if not self.sharp else 8.0
