"""Filkó, the Hungarian 4-player game (seeds 000/001; RULINGS.md, "Filkó")."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from engine.actions import Action, IllegalAction
from engine.cards import COUNT_POINTS, PACK_30, PACK_32, Card, card
from engine.hand import HandResult
from engine.rules.base import Options, Rules
from engine.status import RecordError, Status

if TYPE_CHECKING:
    from engine.hand import Hand

SERVANT = "servant"
_CHOOSE = -1  # outcome marker: new masters still to choose their Servant

#: The top-trump options of the Hungarian family (RULINGS.md, "Top trumps"), by player count.
TOP_TRUMPS: dict[str, dict[int, tuple[str, ...]]] = {
    "standard": {4: ("EO", "GO", "HO", "SO")},
    "hearts_seven": {4: ("H7", "EO", "GO", "HO", "SO"), 6: ("H7", "E7", "EO", "GO", "HO", "SO")},
    "leaves_low": {4: ("EO", "HO", "SO", "GO")},
}


def top_trumps(option: str, players: int) -> tuple[Card, ...]:
    by_players = TOP_TRUMPS[option]
    return tuple(card(c) for c in by_players.get(players, by_players[4]))


class FilkoOptions(Options):
    top_trumps: Literal["standard", "hearts_seven", "leaves_low"] = "standard"


class Filko(Rules):
    game = "filko"
    title = "Filkó"
    goal = (
        "Take Aces and Tens in your tricks: 6 or more of the 8 make your team masters (or keep it "
        "masters); the first masters choose a Servant from the others, who deals every hand."
    )
    options_model = FilkoOptions
    rulings: ClassVar[tuple[str, ...]] = (
        "32 cards, dealt four at a time, twice round; the seat after the dealer leads.",
        "Trump from the cut: the bottom card of the pack is shown; while it is an Ober, the next "
        "one up too. Shown cards go to the dealer; a fifth goes to the seat before the dealer.",
        "Obers are the top trumps; follow suit, else trump if able, else any card.",
        "Aces and Tens score 1 point each (8 in all).",
        "A team with 6 or more points becomes (or stays) masters; otherwise no change. Once "
        "there are masters, never even again.",
        "The first time a team becomes masters, they choose one opponent as Servant, who deals "
        "every hand. When the Servant's team takes 6+, the seat after the old Servant becomes "
        "Servant. Before any masters, the deal passes to the next seat.",
        "top_trumps option: standard (EO GO HO SO), hearts_seven (H7 above the Obers), "
        "leaves_low (EO HO SO GO).",
        "early_end (default on): the hand stops once no remaining play can change its outcome.",
    )

    players = 4
    pack = PACK_32
    packets = (4, 4)
    points = COUNT_POINTS
    total_points = 8
    #: Points that make (or keep) a team masters.
    win_points = 6

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        assert isinstance(options, FilkoOptions)
        self.top_trumps = top_trumps(options.top_trumps, self.players)

    def start(self, hand: Hand) -> None:
        # The cut shows the bottom card of the pack, then the next ones up.
        last = len(hand.pack) - 1
        self.shown_from(hand, range(last, -1, -1))

    def check_status(self, status: Status) -> None:
        super().check_status(status)
        if (status.masters is None) != (status.servant is None):
            raise RecordError("Filkó status needs both masters and servant, or neither")
        if status.servant is not None and (
            not 0 <= status.servant < self.players or status.servant % 2 == status.masters
        ):
            raise RecordError("status.servant must be a seat of the team that is not masters")

    def check_deal(self, dealer: int, status: Status) -> None:
        if status.servant is not None and dealer != status.servant:
            raise RecordError(
                f"the Servant (seat {status.servant}) deals while masters stand, not seat {dealer}"
            )

    def outcome(self, status: Status, points: Sequence[int]) -> Hashable:
        return self.new_status(status, points)

    def new_status(self, status: Status, points: Sequence[int]) -> Status:
        """The status after a hand with these points (``servant`` is ``_CHOOSE`` when new
        masters still have to choose their Servant)."""
        for team in (0, 1):
            if points[team] >= self.win_points:
                if status.masters is None:
                    return Status(team, _CHOOSE)
                if status.masters == team:
                    return status
                assert status.servant is not None
                return Status(team, (status.servant + 1) % self.players)
        return status

    def settle(self, hand: Hand) -> None:
        status = self.new_status(hand.status, hand.team_points())
        if status.servant == _CHOOSE:
            assert status.masters is not None
            hand.phase = SERVANT
            # Any master may choose; the lowest seat is the one asked.
            hand.to_move = status.masters
            return
        self._finish(hand, status)

    def _finish(self, hand: Hand, status: Status) -> None:
        before = hand.status
        points = hand.team_points()
        event, team = self.event(before, status, points)
        assert status.servant is not None or status.masters is None
        self.finish(hand, HandResult(
            points=tuple(points), status_before=before, status=status,
            next_dealer=self.next_dealer(status, hand.dealer), event=event, team=team,
            early=any(hand.hands), extra=self.result_extra(status),
        ))

    def event(
        self, before: Status, status: Status, points: Sequence[int]
    ) -> tuple[str, int | None]:
        """The result's event key and the team it is about."""
        if (status == before and before.masters is not None
                and points[before.masters] >= self.win_points):
            return "stay_masters", before.masters
        if status == before:
            return "no_change", None
        if before.masters is None:
            return "masters", status.masters
        return "liberated", status.masters

    def result_extra(self, status: Status) -> dict[str, Any]:
        """``HandResult.extra`` (nothing in Filkó)."""
        return {}

    def next_dealer(self, status: Status, dealer: int) -> int:
        return (dealer + 1) % self.players if status.servant is None else status.servant

    def first_dealer(self, status: Status, rng: random.Random) -> int:
        return rng.randrange(self.players) if status.servant is None else status.servant

    # -- the Servant choice ----------------------------------------------------------------

    def actors(self, hand: Hand) -> list[int]:
        if hand.phase == SERVANT:
            masters = hand.to_move
            assert masters is not None
            # Teams sit alternately: team t is seats t, t + 2, ... (4 or 6 players).
            return list(range(masters, self.players, 2))
        return super().actors(hand)

    def phase_legal(self, hand: Hand, seat: int) -> list[Action]:
        if hand.phase != SERVANT or seat not in self.actors(hand):
            return []
        return [Action(SERVANT, s) for s in range(self.players) if s % 2 != seat % 2]

    def phase_apply(self, hand: Hand, seat: int, action: Action) -> None:
        masters = seat % 2
        self._finish(hand, Status(masters, action.value))

    def explain(self, hand: Hand, seat: int, action: Action) -> IllegalAction:
        if hand.phase == SERVANT:
            if action.kind != SERVANT:
                return IllegalAction(
                    "wrong_phase", "the masters must choose their Servant first", phase=SERVANT
                )
            if seat not in self.actors(hand):
                return IllegalAction(
                    "not_your_turn", f"seat {seat} is not one of the masters who choose",
                    seat=seat,
                )
            return IllegalAction(
                "servant_not_opponent",
                f"the Servant must be an opponent of the masters, not seat {action.value}",
                servant=action.value,
            )
        return super().explain(hand, seat, action)


class Filko6(Filko):
    """6-player Filkó (RULINGS.md, "Hungarian multi-player variants"): two teams of three in
    alternate seats, 30 cards dealt 3 then 2; the cut, the play, masters and the Servant as in
    four players."""

    game = "filko6"
    title = "Filkó (6 players)"
    rulings = (
        "6 players in two teams of three, sitting alternately (seats 0, 2, 4 against 1, 3, 5).",
        "30 cards (no G7, S7), dealt 3 each then 2 each; the seat after the dealer leads.",
        "Trump from the cut: the bottom card of the pack is shown; while it is an Ober, the next "
        "one up too. The first two shown cards go to the dealer, the next two to the seat "
        "before the dealer (an opponent), a fifth to the dealer's partner two seats back.",
        "Obers are the top trumps; follow suit, else trump if able, else any card.",
        "Aces and Tens score 1 point each (8 in all).",
        "A team with 6 or more points becomes (or stays) masters; otherwise no change. Once "
        "there are masters, never even again.",
        "The first time a team becomes masters, any of them chooses one opponent as Servant, "
        "who deals every hand. When the Servant's team takes 6+, the seat after the old Servant "
        "becomes Servant. Before any masters, the deal passes to the next seat.",
        "top_trumps option: standard (EO GO HO SO), hearts_seven (H7 E7 above the Obers), "
        "leaves_low (EO HO SO GO).",
        "early_end (default on): the hand stops once no remaining play can change its outcome.",
        "House rule: any of the three masters may choose the "
        "Servant.",
    )

    players = 6
    pack = PACK_30
    packets = (3, 2)
