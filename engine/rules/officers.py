"""Officers' Schafkopf, two players (seed 004, "Two-Player Wendish Schafkopf"; RULINGS.md).

Each player has 8 piles in front of him: a face-down card with a face-up card on it. Only
face-up cards may be played; when the card on a pile is played, the card under it turns up.
Nobody, not even the owner, knows a face-down card until it turns up.

Model: pack indexes are dealt four at a time from the non-dealer: 0-3 non-dealer and 4-7
dealer face down (piles 0-3), 8-15 likewise (piles 4-7), then 16-31 the face-up cards in the
same order, one on each pile. ``hand.dealt[seat]`` is therefore the 8 face-down cards (piles
0-7) and then the 8 face-up cards. ``hand.hands[seat]`` holds only the seat's **face-up**
cards (what it may play): face-down cards stay out of it (and so out of every view) until they
turn up. A card turns up for the table (``public_info()["layout"]``) the moment the card on it
is played, and joins its owner's playable cards when the trick is complete (its owner cannot
play again before that anyway). ``hand_sizes`` counts playable face-up cards only.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any

from pydantic import Field, field_validator

from engine.cards import BELLS, CARD_POINTS, PACK_32, SCHAFKOPF_TRUMPS, Card, card, code
from engine.determinize import plays_so_far, rebuild
from engine.hand import Hand, HandResult
from engine.rules.base import Options, Rules
from engine.status import RecordError, Status

if TYPE_CHECKING:
    from engine.view import SeatView

PILES = 8


class OfficersOptions(Options):
    #: Deals in a match (even, so both deal as often); 0: open-ended.
    deals: int = Field(0, ge=0, le=96, json_schema_extra={"choices": [0, 2, 4, 6, 10]})

    @field_validator("deals")
    @classmethod
    def _even(cls, v: int) -> int:
        if v % 2:
            raise ValueError("deals must be even (0: no set length)")
        return v


class Officers(Rules):
    game = "officers"
    title = "Officers' Schafkopf"
    goal = (
        "Take 61 or more of the 120 card points; 60–60 is a draw."
    )
    options_model = OfficersOptions
    rulings = (
        "2 players, 32 cards: each has 8 face-down cards with a face-up card on each; nobody "
        "knows a face-down card, not even its owner.",
        "Only face-up cards are played; when a card is played, the card under it turns up.",
        "The non-dealer leads; the deal alternates.",
        "Trumps as in Wendish Schafkopf: EO GO HO SO EU GU HU SU, then bells A 10 K 9 8 7. "
        "Follow suit if able, else any card.",
        "61+ wins (60-60 is a draw). Score 1, +1 schneider (loser under 30), +1 schwarz "
        "(loser took no trick).",
        "deals option (default 0, open-ended): a match of that many deals, an even number.",
        "early_end (default on): the hand stops once no remaining play can change its score.",
        "House rules: 60-60 is a draw and scores nothing; a match is "
        "open-ended unless the deals option sets its length.",
    )

    fixed_teams = False
    score_by_seat = True
    status_fields = frozenset({"score", "deals"})

    players = 2
    teams = 2
    pack = PACK_32
    packets = (4, 4, 4, 4)
    points = CARD_POINTS
    total_points = 120
    top_trumps = SCHAFKOPF_TRUMPS
    usual_trump = BELLS
    must_trump = False

    def __init__(self, options: Options) -> None:
        assert isinstance(options, OfficersOptions)
        super().__init__(options)
        self.after_trick = self._after_trick
        self.match_deals = options.deals

    # -- the layout ---------------------------------------------------------------------------

    def start(self, hand: Hand) -> None:
        hand.set_trump(BELLS)
        dealt = hand.dealt
        hand.pending["piles"] = tuple(tuple(zip(d[:PILES], d[PILES:], strict=True)) for d in dealt)
        #: face-up card -> its owner and the card under it (a shared, never-changed dict).
        under: dict[Card, tuple[int, Card]] = {}
        for seat, d in enumerate(dealt):
            under.update(zip(d[PILES:], zip(repeat(seat), d[:PILES]), strict=True))
        hand.pending["under"] = under
        hand.hands = [list(d[PILES:]) for d in dealt]
        hand.hands_changed()

    def _after_trick(self, hand: Hand) -> None:
        """The cards turned up in this trick join their owners' playable cards."""
        under = hand.pending["under"]
        for c in hand.tricks[-1].cards:
            turned = under.get(c)
            if turned is not None:
                hand.give_card(*turned)

    def layout(self, hand: Hand) -> list[list[list[Any]]]:
        """Each seat's 8 piles as ``[face-up card or None, covered]``: ``covered`` while a
        face-down card lies under the face-up one."""
        played = set(hand.played())
        out = []
        for seat in hand.pending["piles"]:
            row: list[list[Any]] = []
            for down, up in seat:
                if up not in played:
                    row.append([code(up), True])
                elif down not in played:
                    row.append([code(down), False])
                else:
                    row.append([None, False])
            out.append(row)
        return out

    def piles(self, hand: Hand) -> list[list[list[str | None]]]:
        """Each seat's 8 piles as dealt, as far as the table has seen them: ``[face-up card,
        face-down card or None while it lies covered]``."""
        played = set(hand.played())
        return [[[code(up), code(down) if up in played else None] for down, up in seat]
                for seat in hand.pending["piles"]]

    def public_info(self, hand: Hand) -> dict[str, Any]:
        return {"layout": self.layout(hand), "piles": self.piles(hand),
                "deals": self.match_deals}

    # -- scoring ------------------------------------------------------------------------------

    def match_goal(self) -> str | None:
        if not self.match_deals:
            return None
        return f"A match is {self.match_deals} deals; the higher total score wins it."

    def check_status(self, status: Status) -> None:
        super().check_status(status)
        # A deal scores 1 to 3 to its winner and as much against the loser (``settle``).
        self.check_match(status, self.match_deals, swing=3, zero_sum=True)

    def outcome(self, status: Status, points: Sequence[int]) -> Hashable:
        """(winner or None for 60-60, 1 or 2 with schneider)."""
        for win in (0, 1):
            if points[win] >= 61:
                return (win, 2 if points[1 - win] < 30 else 1)
        return (None, 0)

    def outcome_value(self, status_before: Status, outcome: Hashable, team: int) -> float:
        assert isinstance(outcome, tuple)
        win, value = outcome
        if win is None:
            return 0.0
        return (0.4 + 0.2 * int(value)) * (1 if win == team else -1)

    def outcome_fixed(self, hand: Hand) -> bool:
        p0, p1 = hand.team_taken
        if p0 >= 61:
            loser, low = 1, p1
        elif p1 >= 61:
            loser, low = 0, p0
        else:
            # Nobody has 61: the outcome is only settled at 60-60 with no point left out (a
            # draw, whoever takes the last tricks; a draw knows no schwarz).
            return p0 + p1 == self.total_points
        left = self.total_points - p0 - p1
        if low < 30 <= low + left:
            return False
        return any(t.winner == loser for t in hand.tricks)

    def settle(self, hand: Hand) -> None:
        # Play is over: whatever still lies face down (under a card not played) is shown
        # with the unplayed cards.
        for seat, piles in enumerate(hand.pending["piles"]):
            held = hand.hands[seat]
            hand.give(seat, [down for down, up in piles if up in held])
        points = tuple(hand.team_taken)
        win: int | None = next((s for s in (0, 1) if points[s] >= 61), None)
        scores = [0, 0]
        schneider = schwarz = False
        value = 0
        if win is not None:
            lose = 1 - win
            schneider = points[lose] < 30
            schwarz = not any(t.winner == lose for t in hand.tricks)
            value = 1 + schneider + schwarz
            scores[win], scores[lose] = value, -value
        before = hand.status
        old = before.score or (0, 0)
        total = (old[0] + scores[0], old[1] + scores[1])
        extra: dict[str, Any] = {"scores": scores, "value": value, "schneider": schneider,
                                 "schwarz": schwarz}
        if self.match_deals:
            played_deals = (before.deals or 0) + 1
            if played_deals >= self.match_deals:
                best = max(total)
                extra["match_score"] = list(total)
                extra["final_status"] = Status(score=total, deals=played_deals).to_json()
                extra["match_winner"] = [s for s in (0, 1) if total[s] == best]
                status = Status()
            else:
                status = Status(score=total, deals=played_deals)
        else:
            status = Status(score=total)
        event = ("draw" if win is None else "schwarz" if schwarz else "schneider" if schneider
                 else "won")
        self.finish(hand, HandResult(
            points=points, status_before=before, status=status,
            next_dealer=1 - hand.dealer, event=event, team=win,
            early=len(hand.tricks) < len(self.pack) // 2, extra=extra,
        ))

    # -- computer players ---------------------------------------------------------------------

    def sample_hidden(self, view: SeatView, rng: random.Random) -> dict[int, list[Card]]:
        """A guess of every covered pile's face-down card: ``{seat: [card per covered pile, in
        pile order]}`` for both seats (face-down cards are unknown to their owner too)."""
        piles = view.public["piles"]
        seen = {c for row in piles for pair in row for c in pair if c is not None}
        unknown = [c for c in self.pack if code(c) not in seen]
        rng.shuffle(unknown)
        out: dict[int, list[Card]] = {}
        k = 0
        for seat, row in enumerate(piles):
            covered = sum(1 for _, down in row if down is None)
            out[seat] = unknown[k:k + covered]
            k += covered
        if k != len(unknown):
            raise RecordError("the piles do not account for every card")
        return out

    def determinize(self, view: SeatView, hidden: Mapping[int, Sequence[Card]]) -> Hand | None:
        """The hand with the face-down cards guessed: ``hidden`` as ``sample_hidden`` gives it
        (a card per covered pile, both seats); any other guess only seeds a fresh one."""
        piles = view.public["piles"]
        covered = [sum(1 for _, down in row if down is None) for row in piles]
        if any(len(hidden.get(s, ())) != covered[s] for s in range(self.players)):
            seed = repr(sorted((s, sorted(c)) for s, c in hidden.items()))
            hidden = self.sample_hidden(view, random.Random(seed))
        dealt: list[list[Card]] = []
        for seat, row in enumerate(piles):
            guesses = iter(hidden.get(seat, ()))
            downs = [next(guesses) if down is None else card(down) for _, down in row]
            dealt.append(downs + [card(up) for up, _ in row])
        return rebuild(view, plays_so_far(view), [], dealt)
