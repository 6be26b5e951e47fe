"""What the Hungarian 5-player games share (``engine.rules.filko5``: 5-player Filkó, Kelebia,
Rich and Poor): the Old Man, holder of ``EO``, names trump; his partner is the holder of a
card he calls or of ``GO``, secret until that card is played.

Who that partner is stays secret until the card is played: ``public_team`` gives None
for every seat but the Old Man's, ``public_team_points`` hides the team sums, and an early
end is decided on what everyone knows (it must hold whoever the partner is), so that even
the hand going on reveals nothing.

Team 0 is always the Old Man's (the Rich), team 1 the others. While masters stand (5-player
Filkó; Rich and Poor ``until_freed``) the status carries the teams of each seat, the trump
suit and the first leader (the Old Man of the deal that formed the teams); such a hand has
no trump phase and starts with play.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import Action, IllegalAction
from engine.cards import (
    ACE,
    ALL_CARDS,
    COUNT_POINTS,
    PACK_30,
    SUIT_NAMES,
    SUITS,
    TEN,
    TRUMP,
    Card,
    card,
    code,
    suit_letter,
    suit_of,
)
from engine.determinize import hand_from_view, plays_so_far
from engine.hand import PLAYING, HandResult
from engine.inference import Knowledge, infer, sample
from engine.rules.base import Rules
from engine.status import RecordError, Status
from engine.trumps import trump_order

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.view import SeatView

#: Phases: the Old Man names trump, then (in the calling games) calls his partner's card.
TRUMP_PHASE = "trump"
CALL_PHASE = "call"

EO = card("EO")
GO = card("GO")

#: The Old Man's team (the Rich) and the others (the Poor).
OLD_MAN_TEAM = 0
OTHERS = 1

_rebuilding = threading.local()

#: The Old Man's actions, made once.
_NAME_TRUMP = tuple(Action("trump", s) for s in SUITS)
_CALL = tuple(Action("call", c) for c in ALL_CARDS)
#: The statuses ``outcome`` reads, by masters team.
_MASTERS = {m: Status(masters=m) for m in (None, 0, 1)}


@dataclass(frozen=True)
class _Knowledge(Knowledge):
    """``Knowledge`` with cards each seat is known not to hold (``forbidden[s]``, a mask)."""

    forbidden: tuple[int, ...] = ()

    def allowed(self, seat: int, c: Card) -> bool:
        return not (self.void[seat] >> self.suit[c] & 1 or self.forbidden[seat] >> c & 1)


def knowledge(view: SeatView) -> Knowledge:
    """What ``view.seat`` knows of the hidden cards in these games: the common inference
    (voids, shown cards), plus ``EO`` held by the Old Man until played, the called card not
    held by him, and under ``must_beat`` the cards a seat would have had to beat with."""
    k = infer(view)
    n = view.players
    known = [list(cards) for cards in k.known]
    need = list(k.need)
    unknown = list(k.unknown)
    forbidden = [0] * n
    if view.status.teams is None and view.unplayed is None:
        old = view.public["old_man"]
        if EO in unknown:
            unknown.remove(EO)
            known[old].append(EO)
            need[old] -= 1
        called = view.public.get("partner_card")
        if view.rules.calls and called is not None:  # type: ignore[attr-defined]
            forbidden[old] |= 1 << card(called)
    order = view.order
    if view.rules.must_beat and order is not None:
        trick: list[Card] = []
        for seat, c in plays_so_far(view):
            if len(trick) == n:
                trick = []
            if trick:
                best = trick[order.winner(trick)]
                led = order.suit[trick[0]]
                if order.suit[c] in (led, TRUMP) and not order.beats(c, best):
                    # It followed (or trumped) without beating: it held nothing that beats.
                    for x in view.rules.pack:
                        if order.suit[x] == order.suit[c] and order.beats(x, best):
                            forbidden[seat] |= 1 << x
            trick.append(c)
    return _Knowledge(k.seat, tuple(unknown), tuple(map(tuple, known)), tuple(need), k.void,
                      k.suit, tuple(forbidden))


class OldManGame(Rules):
    """What the three games share: the Old Man's trump phase, the secret partner, the status
    with standing teams, the first loser after the dealer, the computer's rules of thumb."""

    players = 5
    teams = 2
    pack = PACK_30
    packets = (3, 3)
    points = COUNT_POINTS
    total_points = 8
    fixed_teams: ClassVar[bool] = False
    status_fields: ClassVar[frozenset[str]] = frozenset(
        {"masters", "servant", "teams", "trump", "leader"}
    )
    #: The Old Man calls a card (else his partner holds ``GO``).
    calls: bool = True

    # -- the deal ------------------------------------------------------------------------

    def start(self, hand: Hand) -> None:
        status = hand.status
        if status.teams is not None:
            # Standing teams: same teams, trump and first leader; play starts at once.
            assert status.trump is not None and status.leader is not None
            hand.team = list(status.teams)
            hand.set_trump(status.trump)
            hand.leader = hand.to_move = status.leader
            return
        old = self._holder(hand, EO)
        hand.pending["old_man"] = old
        team = [OTHERS] * self.players
        team[old] = OLD_MAN_TEAM
        if not self.calls:
            partner = self._holder(hand, GO)
            team[partner] = OLD_MAN_TEAM
            hand.pending["partner_card"] = GO
            hand.pending["partner"] = partner
        hand.team = team
        hand.phase = TRUMP_PHASE
        hand.leader = hand.to_move = old

    @staticmethod
    def _holder(hand: Hand, c: Card) -> int:
        return next(s for s, cards in enumerate(hand.hands) if c in cards)

    def callable_cards(self, hand: Hand, suit: int) -> list[Card]:
        """The cards the Old Man may call with ``suit`` trump: those of that suit that are no
        permanent top trump (the Overs; Kelebia's Sevens) and that he does not hold."""
        held = hand.hands[hand.pending["old_man"]]
        return [c for c in self._suit_calls[suit] if c not in held]

    @cached_property
    def _suit_calls(self) -> tuple[tuple[Card, ...], ...]:
        """Per suit, the pack's cards of that suit that are no permanent top trump."""
        top = self.top_trumps
        return tuple(tuple(c for c in self.pack if suit_of(c) == s and c not in top)
                     for s in SUITS)

    def _fixed_table(self, status: Status) -> list[list[bool]]:
        # The outcome reads only who are masters, not the standing teams, trump and leader:
        # one table for each.
        return super()._fixed_table(_MASTERS[status.masters])

    # -- the Old Man's phases --------------------------------------------------------------

    def phase_legal(self, hand: Hand, seat: int) -> list[Action]:
        if seat != hand.to_move:
            return []
        if hand.phase == TRUMP_PHASE:
            if not self.calls:
                return list(_NAME_TRUMP)
            held = hand.hands[hand.pending["old_man"]]
            return [_NAME_TRUMP[s] for s in SUITS
                    if any(c not in held for c in self._suit_calls[s])]
        if hand.phase == CALL_PHASE:
            assert hand.trump is not None
            return [_CALL[c] for c in self.callable_cards(hand, hand.trump)]
        return []

    def phase_apply(self, hand: Hand, seat: int, action: Action) -> None:
        if action.kind == "trump":
            hand.set_trump(action.value)
            if self.calls:
                hand.phase = CALL_PHASE
                return
        else:
            partner = self._holder(hand, action.value)
            hand.pending["partner_card"] = action.value
            hand.pending["partner"] = partner
            hand.team[partner] = OLD_MAN_TEAM
        hand.phase = PLAYING
        hand.leader = hand.to_move = hand.pending["old_man"]

    def explain(self, hand: Hand, seat: int, action: Action) -> IllegalAction:
        phase = hand.phase
        if phase not in (TRUMP_PHASE, CALL_PHASE):
            return super().explain(hand, seat, action)
        if seat != hand.to_move:
            return IllegalAction(
                "not_your_turn", f"seat {seat} may not act now: the Old Man (seat "
                f"{hand.to_move}) {'names trump' if phase == TRUMP_PHASE else 'calls'}",
                seat=seat, to_move=hand.to_move,
            )
        if action.kind != phase:
            what = "name trump" if phase == TRUMP_PHASE else "call a card"
            return IllegalAction(
                "wrong_phase", f"the Old Man must {what} first", phase=phase
            )
        if phase == TRUMP_PHASE:
            return IllegalAction(
                "no_card_to_call",
                f"the Old Man holds every card he could call in {SUIT_NAMES[action.value]}",
                suit=suit_letter(action.value),
            )
        c = action.value
        if c in hand.hands[seat]:
            return IllegalAction(
                "call_held", f"the Old Man holds {code(c)}: he must call a card he lacks",
                card=code(c),
            )
        assert hand.trump is not None
        return IllegalAction(
            "call_not_trump_suit",
            f"{code(c)} cannot be called: call a card of {SUIT_NAMES[hand.trump]} that is not "
            "a top trump", card=code(c), suit=suit_letter(hand.trump),
        )

    # -- secrecy ---------------------------------------------------------------------------

    def revealed(self, hand: Hand) -> bool:
        """Does everyone know every seat's team? Standing teams are public; a secret partner
        is known once his card is played (it left his hand) or play is over."""
        if hand.status.teams is not None or hand.play_over:
            return True
        pending = hand.pending
        partner = pending.get("partner")
        return partner is not None and pending["partner_card"] not in hand.hands[partner]

    def public_team(self, hand: Hand, seat: int) -> int | None:
        if self.revealed(hand):
            return hand.team[seat]
        return OLD_MAN_TEAM if seat == hand.pending["old_man"] else None

    def public_team_points(self, hand: Hand) -> tuple[int, ...]:
        return tuple(hand.team_taken) if self.revealed(hand) else ()

    #: What the Old Man's side (team 0) and the others are called (Rich and Poor: the Rich
    #: and the Poor).
    roles: ClassVar[tuple[str, str]] = ("old_man", "others")

    def side_roles(self, hand: Hand) -> tuple[str, ...]:
        return self.roles

    def public_info(self, hand: Hand) -> dict[str, Any]:
        pending = hand.pending
        if hand.status.teams is not None:
            teams = hand.status.teams
            old = hand.status.leader
            rich = [s for s in range(self.players) if teams[s] == OLD_MAN_TEAM]
            return {"old_man": old, "partner_card": None,
                    "partner": next((s for s in rich if s != old), old)}
        card_ = pending.get("partner_card")
        return {
            "old_man": pending["old_man"],
            "partner_card": None if card_ is None else code(card_),
            "partner": pending.get("partner") if self.revealed(hand) else None,
        }

    def private_info(self, hand: Hand, seat: int) -> dict[str, Any]:
        """Every seat knows its own team once the partner card is fixed (the partner holds it,
        the others do not); the partner knows the Old Man is his partner."""
        if hand.status.teams is not None or "partner" not in hand.pending:
            return {}
        return {"team": hand.team[seat]}

    def outcome_fixed(self, hand: Hand) -> bool:
        table = hand.pending.get("_fixed")
        if table is None:
            table = hand.pending["_fixed"] = self._fixed_table(hand.status)
        if self.revealed(hand):
            p0, p1 = hand.team_taken
            return table[p0][p1]
        # The partner is secret: stop only if the outcome is settled whoever he is, so that
        # the hand going on tells nobody anything.
        old = hand.pending["old_man"]
        taken = hand.taken
        total = sum(taken)
        for p in self._candidates(old):
            p0 = taken[old] + (taken[p] if p != old else 0)
            if not table[p0][total - p0]:
                return False
        return True

    def _candidates(self, old: int) -> list[int]:
        """Seats that may be the secret partner, as everyone sees it."""
        return [s for s in range(self.players) if not self.calls or s != old]

    def determinize(self, view: SeatView, hidden: Mapping[int, Sequence[Card]]) -> Hand | None:
        """The common rebuild, from a guess that also respects what only this game lets a
        seat know: ``EO`` is the Old Man's until played (he named trump), the called card is
        not his (he called a card he lacks), and, where players must beat (Kelebia), a seat
        that did not beat the trick holds no card that would have. A guess that breaks one
        of these is replaced by one drawn with them (seeded by the guess, so deterministic).
        The Old Man's own choices of trump and card are left to ``suggest``."""
        if getattr(_rebuilding, "on", False):
            return None
        if view.phase in (TRUMP_PHASE, CALL_PHASE) and view.seat == view.to_move:
            raise RecordError("the Old Man chooses by rule of thumb")
        k = knowledge(view)
        guess: Mapping[int, Sequence[Card]] = hidden
        if not all(k.allowed(s, c) for s, cards in hidden.items() for c in cards
                   if c not in k.known[s]) or any(
                       not set(k.known[s]) <= set(cards) for s, cards in hidden.items()):
            guess = sample(k, random.Random(repr(sorted(hidden.items()))))
        _rebuilding.on = True
        try:
            return hand_from_view(view, guess)
        finally:
            _rebuilding.on = False

    # -- results ---------------------------------------------------------------------------

    def first_loser(self, hand: Hand, losers: int) -> int:
        """The dealer if his team lost, else the first seat after him on the losing team."""
        n = self.players
        return next(s for s in ((hand.dealer + k) % n for k in range(n)) if hand.team[s] == losers)

    def old_man(self, hand: Hand) -> int:
        leader = hand.status.leader
        return hand.pending["old_man"] if leader is None else leader

    def standing(self, hand: Hand, masters: int, servant: int) -> Status:
        assert hand.trump is not None
        return Status(masters=masters, servant=servant, teams=tuple(hand.team),
                      trump=hand.trump, leader=self.old_man(hand))

    def check_status(self, status: Status) -> None:
        super().check_status(status)
        values = (status.masters, status.servant, status.teams, status.trump, status.leader)
        if all(v is None for v in values):
            return
        if any(v is None for v in values):
            raise RecordError(
                f"{self.title} status needs masters, servant, teams, trump and leader, or none"
            )
        teams, servant, leader, trump = status.teams, status.servant, status.leader, status.trump
        assert teams is not None and servant is not None and leader is not None
        n = self.players
        if len(teams) != n or not set(teams) <= {OLD_MAN_TEAM, OTHERS}:
            raise RecordError(f"status.teams must give team 0 or 1 for each of the {n} seats")
        if teams.count(OLD_MAN_TEAM) not in self.old_man_team_sizes:
            raise RecordError("status.teams: team 0 (the Old Man's) has the wrong size")
        if not 0 <= leader < n or teams[leader] != OLD_MAN_TEAM:
            raise RecordError("status.leader must be the Old Man, a seat of team 0")
        if not 0 <= servant < n or teams[servant] == status.masters:
            raise RecordError("status.servant must be a seat of the team that is not masters")
        if trump not in SUITS:
            raise RecordError("status.trump must be a suit (0 to 3)")

    def check_deal(self, dealer: int, status: Status) -> None:
        if status.servant is not None and dealer != status.servant:
            raise RecordError(
                f"the Servant (seat {status.servant}) deals while masters stand, not seat {dealer}"
            )

    old_man_team_sizes: tuple[int, ...] = (2,)

    def first_dealer(self, status: Status, rng: random.Random) -> int:
        return rng.randrange(self.players) if status.servant is None else status.servant

    def _result(self, hand: Hand, status: Status, next_dealer: int, event: str,
                team: int | None, **extra: Any) -> None:
        self.finish(hand, HandResult(
            points=tuple(hand.team_points()), status_before=hand.status, status=status,
            next_dealer=next_dealer, event=event, team=team, early=any(hand.hands),
            extra=dict(extra),
        ))

    # -- computer players' rules of thumb ----------------------------------------------------

    def suggest(self, view: SeatView) -> Action | None:
        legal = view.legal
        if view.phase == TRUMP_PHASE:
            def strength(a: Action) -> tuple[int, int]:
                order = trump_order(self.top_trumps, a.value)
                trumps = [c for c in view.hand if order.suit[c] == TRUMP]
                high = sum(order.power[c] for c in trumps)
                return (len(trumps), high)
            return max(legal, key=strength) if legal else None
        if view.phase == CALL_PHASE:
            calls = [a for a in legal if a.kind == "call"]
            for rank in (ACE, TEN):
                for a in calls:
                    if a.value & 7 == rank:
                        return a
            return min(calls, key=lambda a: a.value & 7) if calls else None
        return None


