"""Filkó with Hats (seeds 000/001, "Filkó with Hats"; RULINGS.md, "Hungarian multi-player
variants"): 4-player Filkó scored in card points, with hats for the losers and a partner signal.

- Card points A 11, 10 10, K 4, O 3, U 2 (120 in all). 61 or more wins: the winners become (or
  stay) masters, exactly as Filkó's 6+ does (the first masters choose a Servant, who deals;
  the Servant's team winning frees it and the seat after the old Servant serves). 60-60 is a
  draw and changes nothing.
- The team that is not masters wears hats until it wins: ``public_info()["hats"]``.
- The signal: any seat, at any moment of the play, in turn or not, may show one of four faces
  asking for a suit (``{"seat": 2, "signal": "H"}``); the whole table sees it. At most one
  signal per seat per trick.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from engine.actions import Action, IllegalAction, parse_suit_value, register_kind
from engine.cards import CARD_POINTS, SUITS, suit_letter
from engine.hand import PLAYING
from engine.rules.filko import Filko
from engine.status import Status

if TYPE_CHECKING:
    from engine.hand import Hand

SIGNAL = "signal"
register_kind(SIGNAL, parse_suit_value, suit_letter)

#: One Action per suit, so that free_legal allocates nothing.
_SIGNALS = tuple(Action(SIGNAL, s) for s in SUITS)

#: The faces of the seed, by suit (for the bot's buttons and messages).
FACES = {
    "E": "pulls the mouth to one side",
    "G": "glances up",
    "H": "shows the tip of the tongue",
    "S": "blows up the cheeks",
}


class FilkoHats(Filko):
    game = "filko_hats"
    title = "Filkó with Hats"
    goal = (
        "Take card points in your tricks: 61 or more of the 120 win the hand, and the losers wear "
        "hats until they win one."
    )
    losers_badge = "hat"
    rulings = (
        "As 4-player Filkó (32 cards dealt 4 and 4, trump from the cut, Obers the top trumps, "
        "follow suit, else trump if able), but scored in card points: A 11, 10 10, K 4, O 3, "
        "U 2 (120 in all).",
        "61 or more wins: the winners become (or stay) masters; 60-60 is a draw, no change.",
        "The team that is not masters wears hats until it wins a hand.",
        "The first time a team wins, they choose one opponent as Servant, who deals every hand. "
        "When the hat team wins, the seat after the old Servant becomes Servant. Before any "
        "win, the deal passes to the next seat.",
        "Signals: during play any player may, in turn or not, show one of four faces asking for "
        "a suit (mouth to one side: acorns; glance up: leaves; tip of the tongue: hearts; cheeks "
        "blown up: bells). The whole table sees it. At most one signal per player per trick.",
        "top_trumps option: standard (EO GO HO SO), hearts_seven (H7 above the Obers), "
        "leaves_low (EO HO SO GO).",
        "early_end (default on): the hand stops once a team has 61 (or at 60-60); the points "
        "shown are those taken.",
        "House rules: 60-60 is a draw and changes nothing; any "
        "player may make a face, at most once a trick, and everybody sees it; the hats are a "
        "badge on the standings.",
    )

    points = CARD_POINTS
    total_points = 120
    win_points = 61
    free_kinds = frozenset({SIGNAL})

    # -- scoring ---------------------------------------------------------------------------

    def outcome(self, status: Status, points: Sequence[int]) -> Hashable:
        """The new status and the winning team (None: a draw). The winner is part of the
        outcome so that an early end never turns a win into a "draw"."""
        winner = next((t for t in (0, 1) if points[t] >= self.win_points), None)
        return self.new_status(status, points), winner

    def outcome_value(self, status_before: Status, outcome: Hashable, team: int) -> float:
        assert isinstance(outcome, tuple)
        return super().outcome_value(status_before, outcome[0], team)

    def _fixed_table(self, status: Status) -> list[list[bool]]:
        """Closed form of the generic table: the outcome is settled once a team has 61, or at
        60-60 (nothing left). Independent of the status, so built once."""
        table = self._fixed.get(Status())
        if table is None:
            total, win = self.total_points, self.win_points
            table = [
                [p0 >= win or p1 >= win or p0 + p1 == total for p1 in range(total + 1 - p0)]
                for p0 in range(total + 1)
            ]
            self._fixed[Status()] = table
        return table

    def event(
        self, before: Status, status: Status, points: Sequence[int]
    ) -> tuple[str, int | None]:
        """``hats_on`` (first win: the losers put hats on), ``hats_stay`` (the masters win
        again), ``hats_off`` (the hat team wins: hats change heads), ``draw`` (60-60); the
        team is the winners."""
        winner = next((t for t in (0, 1) if points[t] >= self.win_points), None)
        if winner is None:
            return "draw", None
        if before.masters is None:
            return "hats_on", winner
        if before.masters == winner:
            return "hats_stay", winner
        return "hats_off", winner

    def result_extra(self, status: Status) -> dict[str, Any]:
        return {"hats": hats(status)}

    # -- signals ---------------------------------------------------------------------------

    def _signal_open(self, hand: Hand) -> bool:
        return hand.phase == PLAYING and not hand.play_over

    def free_legal(self, hand: Hand, seat: int) -> list[Action]:
        if not self._signal_open(hand) or not 0 <= seat < self.players:
            return []
        trick = len(hand.tricks)
        if any(s == seat and t == trick for t, s, _ in hand.pending.get(SIGNAL, ())):
            return []
        return list(_SIGNALS)

    def free_apply(self, hand: Hand, seat: int, action: Action) -> None:
        # Copy on write: Hand.copy shares pending values.
        signals = hand.pending.get(SIGNAL, ())
        hand.pending[SIGNAL] = (*signals, (len(hand.tricks), seat, action.value))

    def explain(self, hand: Hand, seat: int, action: Action) -> IllegalAction:
        if action.kind != SIGNAL:
            return super().explain(hand, seat, action)
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            return IllegalAction("no_such_seat", f"there is no seat {seat}", seat=seat)
        if not self._signal_open(hand):
            return IllegalAction(
                "no_signal_now", "signals are made only while the cards are played",
                phase=hand.phase,
            )
        if action.value not in SUITS:
            return IllegalAction(
                "bad_signal", f"{action.value!r} is not a suit to signal", signal=action.value
            )
        return IllegalAction(
            "already_signalled", f"seat {seat} has already signalled in this trick", seat=seat
        )

    # -- what the table sees -----------------------------------------------------------------

    def public_info(self, hand: Hand) -> dict[str, Any]:
        """``hats``: the team wearing hats (after the hand once it is over), or None.
        ``signals``: ``[seat, suit letter]`` of the signals made during the current trick
        (the one being played, or the next if none of its cards is down yet), in order.
        ``last_signal``: each seat's latest signal in the hand (a suit letter) or None."""
        signals = hand.pending.get(SIGNAL, ())
        trick = len(hand.tricks)
        last: list[str | None] = [None] * self.players
        for _, s, suit in signals:
            last[s] = suit_letter(suit)
        status = hand.result.status if hand.result is not None else hand.status
        return {
            "hats": hats(status),
            "signals": [[s, suit_letter(suit)] for t, s, suit in signals if t == trick],
            "last_signal": last,
        }


def hats(status: Status) -> int | None:
    """The team wearing hats with this status: the team that is not masters."""
    return None if status.masters is None else 1 - status.masters

