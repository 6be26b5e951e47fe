"""The Hungarian 5-player games (seeds 000/001; RULINGS.md, "Hungarian multi-player variants"):
5-player Filkó, Rich and Poor, and Kelebia.

All three deal 30 cards three at a time (6 each) and form their teams in each deal: the
holder of ``EO`` (the Old Man) names trump; his partner is the holder of a card he calls
(5-player Filkó, Kelebia, Rich and Poor with ``called_partner``) or of ``GO`` (Rich and
Poor). Who that partner is stays secret until the card is played: ``public_team`` gives None
for every seat but the Old Man's, ``public_team_points`` hides the team sums, and an early
end is decided on what everyone knows (it must hold whoever the partner is), so that even
the hand going on reveals nothing.

Team 0 is always the Old Man's (the Rich), team 1 the others. While masters stand (5-player
Filkó; Rich and Poor ``until_freed``) the status carries the teams of each seat, the trump
suit and the first leader (the Old Man of the deal that formed the teams); such a hand has
no trump phase and starts with play.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, ClassVar, Literal

from engine.actions import IllegalAction
from engine.cards import (
    PACK_30_KELEBIA,
    TRUMP,
    Card,
    card,
    code,
)
from engine.rules.base import Options
from engine.rules.filko import FilkoOptions, top_trumps
from engine.rules.old_man import OLD_MAN_TEAM, OTHERS, OldManGame
from engine.status import EVEN, RecordError, Status

if TYPE_CHECKING:
    from engine.hand import Hand

#: Kelebia's permanent trumps, high to low (RULINGS.md, "Kelebia").
KELEBIA_TOP = tuple(card(c) for c in ("EO", "H7", "GO", "HO", "SO", "S7", "G7", "E7"))


class FilkoFiveOptions(FilkoOptions):
    """``top_trumps`` (as in 4-player Filkó) and ``early_end``."""


class FilkoFive(OldManGame):
    game = "filko5"
    title = "5-player Filkó"
    goal = (
        "The Old Man (who holds the Ober of acorns) names trump and calls a card: its holder "
        "is his secret partner. 6 or more of the 8 Aces and Tens make a side masters; the "
        "Servant's side frees itself with 6, or by taking none at all."
    )
    options_model: ClassVar[type[Options]] = FilkoFiveOptions
    rulings: ClassVar[tuple[str, ...]] = (
        "5 players, 30 cards (no G7, S7), dealt three at a time (6 each); teams form in each "
        "deal.",
        "With no masters, the holder of EO (the Old Man) names trump and calls a card of that "
        "suit (no top trump) he does not hold; its holder is his secret partner until the card "
        "is played. The Old Man leads.",
        "Obers are the top trumps; follow suit, else trump if able, else any card. Aces and "
        "Tens score 1 point each (8 in all).",
        "With no masters, 6+ points make masters (8-0 too): the dealer becomes Servant if he "
        "lost, else the first losing seat after him. 5-3 or 4-4: the next seat deals.",
        "While masters stand, the same teams, trump, Servant (who deals) and first leader carry "
        "on. The Servant's team is liberated by scoring 0 (swimming away), 6, 7 or 8: no "
        "masters, the seat after the old Servant deals, the Old Man calls again.",
        "top_trumps option: standard (EO GO HO SO), hearts_seven (H7 above the Obers), "
        "leaves_low (EO HO SO GO).",
        "early_end (default on): the hand stops once no remaining play can change its "
        "outcome, whoever the secret partner is.",
        "House rule: the holder of the called card has no duty to "
        "play it early.",
    )

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.top_trumps = self.top_trumps_for(options)

    def top_trumps_for(self, options: Options) -> tuple[Card, ...]:
        assert isinstance(options, FilkoOptions)
        return top_trumps(options.top_trumps, self.players)

    def outcome(self, status: Status, points: Sequence[int]) -> Hashable:
        if status.masters is None:
            for team in (OLD_MAN_TEAM, OTHERS):
                if points[team] >= 6:
                    return ("masters", team)
            return ("none",)
        servants = points[1 - status.masters]
        return ("liberated",) if servants == 0 or servants >= 6 else ("stay",)

    def outcome_value(self, status_before: Status, outcome: Hashable, team: int) -> float:
        assert isinstance(outcome, tuple)
        if outcome[0] == "masters":
            return 1.0 if outcome[1] == team else -1.0
        if outcome[0] == "stay":
            return 1.0 if status_before.masters == team else -1.0
        return 0.0

    def settle(self, hand: Hand) -> None:
        before = hand.status
        points = hand.team_points()
        out = self.outcome(before, points)
        assert isinstance(out, tuple)
        if before.masters is None:
            if out[0] == "masters":
                masters = out[1]
                servant = self.first_loser(hand, 1 - masters)
                self._result(hand, self.standing(hand, masters, servant), servant,
                             "masters", masters)
            else:
                self._result(hand, EVEN, (hand.dealer + 1) % self.players, "no_change", None)
            return
        assert before.servant is not None
        servants = 1 - before.masters
        if out[0] == "liberated":
            event = "swam_away" if points[servants] == 0 else "liberated"
            self._result(hand, EVEN, (before.servant + 1) % self.players, event, servants)
        else:
            self._result(hand, before, before.servant, "stay_masters", before.masters)


class Kelebia(FilkoFive):
    game = "kelebia"
    title = "Kelebia"
    options_model: ClassVar[type[Options]] = Options
    rulings = (
        "5-player Filkó as played in Kelebia: 30 cards (no G8, E8), dealt three at a time.",
        "Eight permanent trumps, high to low: EO H7 GO HO SO S7 G7 E7.",
        "Follow suit, else trump if able; and beat the highest card so far in the trick "
        "when able (following suit or trumping as required).",
        "With no masters, the holder of EO (the Old Man) names trump and calls a card of that "
        "suit (no top trump) he does not hold; its holder is his secret partner until the card "
        "is played. The Old Man leads. Aces and Tens score 1 point each.",
        "Masters, Servant, swimming away and liberation as in 5-player Filkó.",
        "early_end (default on): the hand stops once no remaining play can change its "
        "outcome, whoever the secret partner is.",
        "House rules: following a plain suit someone "
        "trumped, any card of the suit will do; a suit of which the Old Man holds every "
        "callable card cannot be named.",
    )
    pack = PACK_30_KELEBIA
    must_beat = True

    def top_trumps_for(self, options: Options) -> tuple[Card, ...]:
        return KELEBIA_TOP

    def explain_card(self, hand: Hand, seat: int, card_: Card) -> IllegalAction | None:
        """A card that follows (or trumps) as required but does not beat the trick while
        another one would: refused as ``must_beat``."""
        order = hand.order
        if not hand.trick or order is None or card_ not in hand.hands[seat]:
            return None
        cards = hand.hands[seat]
        led = order.suit[hand.trick[0]]
        required = ([c for c in cards if order.suit[c] == led]
                    or [c for c in cards if order.suit[c] == TRUMP] or cards)
        best = hand.trick[order.winner(hand.trick)]
        if card_ in required and not order.beats(card_, best) and any(
                order.beats(c, best) for c in required):
            return IllegalAction(
                "must_beat",
                f"{code(card_)} does not beat the trick: seat {seat} must beat it if able",
                card=code(card_),
            )
        return None


class RichPoorOptions(FilkoOptions):
    #: ``per_deal``: teams form anew each deal. ``until_freed``: the same teams and dealer
    #: until the dealing team scores 6+.
    rich_poor_teams: Literal["per_deal", "until_freed"] = "per_deal"
    #: The Rich are the Old Man and the holder of a card he calls (not ``GO``'s holder).
    called_partner: bool = False


class RichPoor(OldManGame):
    game = "rich_poor"
    title = "Rich and Poor"
    goal = (
        "The Rich (the holders of the Obers of acorns and leaves) need 6 of the 8 Aces and "
        "Tens to win; the Poor need 3."
    )
    options_model: ClassVar[type[Options]] = RichPoorOptions
    roles: ClassVar[tuple[str, str]] = ("rich", "poor")
    rulings = (
        "5 players, 30 cards (no G7, S7), dealt three at a time (6 each).",
        "The holders of EO and GO (the Rich) play against the three others (the Poor); one "
        "player holding both plays alone against four. GO's holder is secret until GO is "
        "played. The holder of EO names trump and leads.",
        "Obers are the top trumps; follow suit, else trump if able, else any card. Aces and "
        "Tens score 1 point each (8 in all).",
        "The Rich win with 6+ points, the Poor with 3+. A loser deals next: the dealer if he "
        "lost, else the first losing seat after him.",
        "rich_poor_teams option: per_deal (default; teams form anew each deal) or until_freed "
        "(the same teams, trump, first leader and dealer until the dealing team scores 6+).",
        "called_partner option (default off): the Rich are the Old Man and the holder of a "
        "card he calls, as in 5-player Filkó.",
        "top_trumps option: standard (EO GO HO SO), hearts_seven (H7 above the Obers), "
        "leaves_low (EO HO SO GO). Whatever the order, the Rich are the holders of EO and GO.",
        "early_end (default on): the hand stops once no remaining play can change its "
        "outcome, whoever the secret partner is.",
        "House rules: the EO holder leads; a player holding both EO "
        "and GO announces nothing and plays alone.",
    )

    def __init__(self, options: Options) -> None:
        assert isinstance(options, RichPoorOptions)
        self.calls = options.called_partner
        self.until_freed = options.rich_poor_teams == "until_freed"
        self.old_man_team_sizes = (2,) if self.calls else (1, 2)
        super().__init__(options)
        self.top_trumps = top_trumps(options.top_trumps, self.players)

    def check_status(self, status: Status) -> None:
        if not self.until_freed and status != EVEN:
            raise RecordError("Rich and Poor per deal keeps no status")
        super().check_status(status)

    def outcome(self, status: Status, points: Sequence[int]) -> Hashable:
        if status.masters is None:
            return ("win", OLD_MAN_TEAM if points[OLD_MAN_TEAM] >= 6 else OTHERS)
        dealers = 1 - status.masters
        return ("freed",) if points[dealers] >= 6 else ("stay",)

    def outcome_value(self, status_before: Status, outcome: Hashable, team: int) -> float:
        assert isinstance(outcome, tuple)
        if outcome[0] == "win":
            return 1.0 if outcome[1] == team else -1.0
        if outcome[0] == "stay":
            return 1.0 if status_before.masters == team else -1.0
        return 0.0

    def settle(self, hand: Hand) -> None:
        before = hand.status
        points = hand.team_points()
        winner = OLD_MAN_TEAM if points[OLD_MAN_TEAM] >= 6 else OTHERS
        if before.masters is None:
            dealer = self.first_loser(hand, 1 - winner)
            status = self.standing(hand, winner, dealer) if self.until_freed else EVEN
            event = "rich_win" if winner == OLD_MAN_TEAM else "poor_win"
            self._result(hand, status, dealer, event, winner, winner=winner)
            return
        assert before.servant is not None
        dealers = 1 - before.masters
        if points[dealers] >= 6:
            self._result(hand, EVEN, self.first_loser(hand, before.masters), "freed",
                         dealers, winner=winner)
        else:
            self._result(hand, before, before.servant, "not_freed", before.masters,
                         winner=winner)

