"""The widow games: Schafkopf for three (``engine.rules.schafkopf``) and Dreiwendsch
(``engine.rules.dreiwendsch``).

A two-card widow dealt between two packets, taken by one player who buries two cards face
down and plays alone against the other two, or left lying while all three play for
themselves; scores per seat over a match of a set number of deals.

Teams: before the widow is decided and when all play alone, each seat is its own team
(``team[s] == s``, three entries of team points). Once a player takes the widow the hand has
two teams, the declarer (team 0) and the other two (team 1), so the team points have two
entries. The buried cards count for the declarer and the widow left lying for the winner of
the last trick; both are added when play ends (``settle``), so no view shows their points
before.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field, field_validator

from engine.actions import Action, IllegalAction, parse_flag, register_kind, same
from engine.cards import (
    BELLS,
    CARD_POINTS,
    OVER,
    SCHAFKOPF_TRUMPS,
    TRUMP,
    UNDER,
    Card,
    card,
    code,
    codes,
    rank_of,
)
from engine.determinize import plays_so_far
from engine.hand import PLAYING, Hand, HandResult
from engine.rules.base import Options, Rules
from engine.status import EVEN, RecordError, Status

if TYPE_CHECKING:
    from engine.view import SeatView

#: Phases before play: the widow is offered, then the taker buries two cards.
OFFER = "widow"
BURY = "bury"
#: Action kinds: ``{"take": true}`` takes the widow, ``{"pass": true}`` declines it,
#: ``{"bury": ["EA", "G10"]}`` lays two cards away.
TAKE = "take"
PASS = "pass"
BURY_KIND = "bury"

register_kind(TAKE, parse_flag, same)

#: ``BURIALS[a][b]`` (``a < b``): the action burying cards ``a`` and ``b``, made once (a
#: taker has 66 pairs to choose from).
BURIALS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(BURY_KIND, (a, b)) for b in range(32)) for a in range(32)
)

#: The pseudo-seat of the widow in ``holders``.
WIDOW = -1

#: Modes of a hand (``public_info["mode"]``).
MODE_OFFER = "offer"
MODE_DECLARER = "declarer"
MODE_ALONE = "alone"


class MatchOptions(Options):
    #: Deals in a match: a multiple of 3, so that everyone deals equally often.
    #: The lobby offers these match lengths (any positive multiple of 3 is valid).
    deals: int = Field(9, json_schema_extra={"choices": [3, 6, 9, 12, 18, 24]})

    @field_validator("deals")
    @classmethod
    def _whole_rounds(cls, v: int) -> int:
        if v < 3 or v % 3:
            raise ValueError("deals must be a positive multiple of 3")
        return v


class WidowGame(Rules):

    """Three players, a widow, a declarer who buries two, or all alone; a match of deals."""

    fixed_teams = False
    score_by_seat = True
    status_fields: ClassVar[frozenset[str]] = frozenset({"score", "deals"})
    options_model: ClassVar[type[Options]] = MatchOptions

    players = 3
    teams = 3
    points = CARD_POINTS
    total_points = 120
    top_trumps = SCHAFKOPF_TRUMPS
    usual_trump = BELLS
    must_trump = False
    #: Packet sizes of the dealing rounds, and after how many rounds the widow is dealt.
    packets: tuple[int, ...] = (3, 4, 3)
    widow_after: int = 1
    widow_size: int = 2
    #: The largest score change of a declarer game (for the computer players' scale).
    top_value: int = 6
    #: The most one seat's match score can move in a deal, and whether every deal's scores
    #: add up to 0 (what one wins the others pay): ``check_status`` refuses a score that
    #: no match reaches.
    deal_swing: ClassVar[int] = 6
    zero_sum: ClassVar[bool] = False
    #: Hard weighs taking the widow against passing by search; burying stays a rule of thumb
    #: (66 pairs to choose from).
    searched_choices: ClassVar[frozenset[str]] = frozenset({OFFER})

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        assert isinstance(options, MatchOptions)
        self.match_deals = options.deals
        self._widow_at: dict[int, tuple[int, ...]] = {}
        #: ``declarer_value`` by the declarer's points (neither all tricks nor none), for
        #: ``outcome_fixed`` after every trick.
        self._values = [self.declarer_value(p, False, False)
                        for p in range(self.total_points + 1)]

    # -- dealing ---------------------------------------------------------------------------

    def holders(self, dealer: int) -> tuple[int, ...]:
        """Pack index -> seat, with ``WIDOW`` (-1) for the widow's cards."""
        known = self._holders.get(dealer)
        if known is not None:
            return known
        out: list[int] = []
        n = self.players
        for r, size in enumerate(self.packets):
            if r == self.widow_after:
                out.extend([WIDOW] * self.widow_size)
            for k in range(1, n + 1):
                out.extend([(dealer + k) % n] * size)
        self._holders[dealer] = tuple(out)
        return self._holders[dealer]

    def widow_at(self, dealer: int) -> tuple[int, ...]:
        """The pack indexes of the widow's cards."""
        known = self._widow_at.get(dealer)
        if known is None:
            known = self._widow_at[dealer] = tuple(
                i for i, h in enumerate(self.holders(dealer)) if h == WIDOW
            )
        return known

    def widow(self, hand: Hand) -> tuple[Card, ...]:
        return tuple(hand.pack[i] for i in self.widow_at(hand.dealer))

    # -- the widow -------------------------------------------------------------------------

    def start(self, hand: Hand) -> None:
        hand.set_trump(BELLS)
        hand.pending["mode"] = MODE_OFFER
        hand.pending["passed"] = ()
        first = self.first_asked(hand)
        if first is None:
            self.play_alone(hand)
        else:
            hand.phase = OFFER
            hand.to_move = first

    def first_asked(self, hand: Hand) -> int | None:
        """The first seat offered the widow (None: nobody may take it)."""
        return (hand.dealer + 1) % self.players

    def next_asked(self, hand: Hand, seat: int) -> int | None:
        """After ``seat`` passed: the next seat offered the widow, or None (all alone)."""
        return None if seat == hand.dealer else (seat + 1) % self.players

    def phase_legal(self, hand: Hand, seat: int) -> list[Action]:
        if seat != hand.to_move:
            return []
        if hand.phase == OFFER:
            return [Action(TAKE, True), Action(PASS, True)]
        if hand.phase == BURY:
            held = sorted(hand.hands[seat])
            return [BURIALS[a][b] for a, b in itertools.combinations(held, 2)]
        return []

    def phase_apply(self, hand: Hand, seat: int, action: Action) -> None:
        if action.kind == TAKE:
            hand.pending["declarer"] = seat
            hand.give(seat, self.widow(hand))
            hand.phase = BURY
            hand.to_move = seat
        elif action.kind == PASS:
            hand.pending["passed"] = (*hand.pending["passed"], seat)
            nxt = self.next_asked(hand, seat)
            if nxt is None:
                self.play_alone(hand)
            else:
                hand.to_move = nxt
        else:
            buried = tuple(action.value)
            hand.discard(seat, buried)
            hand.pending["buried"] = buried
            hand.pending["buried_points"] = sum(map(self.point_of, buried))
            self.play_declarer(hand, seat)

    def play_declarer(self, hand: Hand, declarer: int) -> None:
        hand.pending["mode"] = MODE_DECLARER
        hand.team = [0 if s == declarer else 1 for s in range(self.players)]
        hand.team_taken = [0, 0]
        self._begin_play(hand)

    def play_alone(self, hand: Hand) -> None:
        hand.pending["mode"] = MODE_ALONE
        self._begin_play(hand)

    def _begin_play(self, hand: Hand) -> None:
        hand.phase = PLAYING
        hand.leader = hand.to_move = (hand.dealer + 1) % self.players

    def explain(self, hand: Hand, seat: int, action: Action) -> IllegalAction:
        if hand.phase in (OFFER, BURY):
            if seat != hand.to_move:
                return IllegalAction(
                    "not_your_turn", f"seat {seat} may not act now: seat {hand.to_move} is to act",
                    seat=seat, to_move=hand.to_move,
                )
            if hand.phase == OFFER and action.kind not in (TAKE, PASS):
                return IllegalAction(
                    "wrong_phase", "the widow is offered: take it or pass", phase=hand.phase
                )
            if hand.phase == BURY:
                if action.kind != BURY_KIND:
                    return IllegalAction(
                        "wrong_phase", "the declarer must bury two cards first",
                        phase=hand.phase,
                    )
                cards = tuple(action.value)
                if len(set(cards)) != 2:
                    return IllegalAction(
                        "bury_two", f"bury exactly two cards, not {len(set(cards))}",
                        count=len(set(cards)),
                    )
                for c in cards:
                    if c not in hand.hands[seat]:
                        return IllegalAction(
                            "not_your_card", f"seat {seat} does not hold {code(c)}",
                            seat=seat, card=code(c),
                        )
        return super().explain(hand, seat, action)

    # -- what each seat may know -----------------------------------------------------------

    def public_action(self, hand: Hand, seat: int, action: Action) -> Action | None:
        return None if action.kind == BURY_KIND else action

    #: What the player who took the widow is called (Dreiwendsch: the soloist).
    declarer_role: ClassVar[str] = "declarer"

    def side_roles(self, hand: Hand) -> tuple[str, ...]:
        """The declarer (team 0) and the defenders once the widow is taken; while it is
        offered and when all play alone, each seat is its own side, with no role."""
        if hand.pending.get("mode") == MODE_DECLARER:
            return (self.declarer_role, "defenders")
        return ()

    def public_info(self, hand: Hand) -> dict[str, Any]:
        pending = hand.pending
        status = hand.status
        info: dict[str, Any] = {
            "mode": pending.get("mode"),
            "declarer": pending.get("declarer"),
            "passed": list(pending.get("passed", ())),
            "widow_lying": "declarer" not in pending,
            "match": {
                "score": list(status.score or (0,) * self.players),
                "deals": status.deals or 0,
                "length": self.match_deals,
            },
        }
        if hand.play_over:
            # The hand is scored: the widow and the buried cards are shown.
            info["widow"] = codes(self.widow(hand))
            if "buried" in pending:
                info["buried"] = codes(pending["buried"])
        return info

    def private_info(self, hand: Hand, seat: int) -> dict[str, Any]:
        if hand.pending.get("declarer") != seat:
            return {}
        out: dict[str, Any] = {"widow": codes(self.widow(hand))}
        if "buried" in hand.pending:
            out["buried"] = codes(hand.pending["buried"])
        return out

    # -- status and match ------------------------------------------------------------------

    def check_status(self, status: Status) -> None:
        super().check_status(status)
        self.check_match(status, self.match_deals, swing=self.deal_swing,
                         zero_sum=self.zero_sum)

    def match_goal(self) -> str | None:
        return f"A match is {self.match_deals} deals; the highest total score wins it."

    def first_dealer(self, status: Status, rng: random.Random) -> int:
        return rng.randrange(self.players)

    def next_dealer(self, dealer: int) -> int:
        return (dealer + 1) % self.players

    def finish_scored(
        self, hand: Hand, scores: Sequence[int], event: str, team: int | None,
        extra: Mapping[str, Any],
    ) -> None:
        """Close the hand with these per-seat score changes, carrying the match on."""
        before = hand.status
        score = tuple(
            a + b for a, b in zip(before.score or (0,) * self.players, scores, strict=True)
        )
        deals = (before.deals or 0) + 1
        out: dict[str, Any] = {"scores": list(scores), **extra}
        if deals >= self.match_deals:
            best = max(score)
            out["match_winner"] = [s for s in range(self.players) if score[s] == best]
            out["match_score"] = list(score)
            out["final_status"] = Status(score=score, deals=deals).to_json()
            status = EVEN
        else:
            status = Status(score=score, deals=deals)
        if "buried" in hand.pending:
            out["buried"] = codes(hand.pending["buried"])
        out["widow"] = codes(self.widow(hand))
        self.finish(hand, HandResult(
            points=tuple(hand.team_taken), status_before=before, status=status,
            next_dealer=self.next_dealer(hand.dealer), event=event, team=team,
            early=any(hand.hands), extra=out,
        ))

    def settle(self, hand: Hand) -> None:
        if hand.pending["mode"] == MODE_DECLARER:
            declarer = hand.pending["declarer"]
            won = hand.pending["buried_points"]
            hand.taken[declarer] += won
            hand.team_taken[0] += won
            self.settle_declarer(hand, declarer)
        else:
            # The widow counts for the winner of the last trick.
            winner = hand.tricks[-1].winner
            won = sum(self.points[c] for c in self.widow(hand))
            hand.taken[winner] += won
            hand.team_taken[hand.team[winner]] += won
            self.settle_alone(hand)

    def settle_declarer(self, hand: Hand, declarer: int) -> None:
        """Score a declarer's (or soloist's) hand: each widow game pays its own way
        (``Schafkopf3``, ``Dreiwendsch``)."""
        raise NotImplementedError

    def settle_alone(self, hand: Hand) -> None:
        """Score a hand everybody played alone: least in Schafkopf for three, most points
        in Dreiwendsch."""
        raise NotImplementedError

    # -- early end and the computer players' values ----------------------------------------

    def declarer_value(self, points: int, all_tricks: bool, no_trick: bool) -> int:
        """The declarer's score change for these final points (buried cards included)."""
        raise NotImplementedError

    def outcome_fixed(self, hand: Hand) -> bool:
        """Only a declarer game can be decided early: when every split of the points still
        out gives the declarer the same score (all tricks, 0 points included)."""
        pending = hand.pending
        if pending.get("mode") != MODE_DECLARER:
            return False
        got = hand.team_taken[0] + pending["buried_points"]
        left = self.total_points - got - hand.team_taken[1]
        # The value only grows with the declarer's points: the ends of the range decide...
        values = self._values
        value = values[got]
        if values[got + left] != value:
            return False
        # ...unless taking no trick, or all of them, is still to come and scores apart.
        declarer = pending["declarer"]
        if not any(t.winner == declarer for t in hand.tricks) and self.declarer_value(
                got, False, True) != value:
            return False
        return any(t.winner != declarer for t in hand.tricks) or self.declarer_value(
            self.total_points, True, False) == value

    def outcome(self, status: Status, points: Sequence[int]) -> Hashable:
        """For the computer players: ``("declarer", score)`` when two teams play (points of
        the declarer, then of the others), else ``("alone", points per seat)``. All tricks
        and no trick are read from the points (120 and 0)."""
        if len(points) == 2:
            d = points[0]
            return (MODE_DECLARER, self.declarer_value(d, d == self.total_points, d == 0))
        return (MODE_ALONE, tuple(points))

    def outcome_value(self, status_before: Status, outcome: Hashable, team: int) -> float:
        assert isinstance(outcome, tuple)
        mode, what = outcome
        if mode == MODE_DECLARER:
            v = float(what) / self.top_value
            return v if team == 0 else -v
        return self.alone_value(what, team)

    def alone_value(self, points: Sequence[int], seat: int) -> float:
        """How good these final points are for ``seat`` when everybody plays alone (-1 to 1),
        as the game scores it."""
        raise NotImplementedError

    # -- computer players ------------------------------------------------------------------

    def determinize(self, view: SeatView, hidden: Mapping[int, Sequence[Card]]) -> Hand | None:
        """Rebuild the hand for a search player: in the play, or while the widow is offered
        (``searched_choices``); burying is the rule of thumb's (``suggest``). The cards no
        seat holds or played (the widow, or the declarer's buried cards) are the ones the
        guess leaves over; a declarer knows its own buried cards, so a guess that gave one of them
        to another seat swaps it for a leftover card that seat may hold."""
        if view.phase != PLAYING and view.phase not in self.searched_choices:
            raise RecordError("burying is decided by rule of thumb")
        n = self.players
        plays = plays_so_far(view)
        held: list[list[Card]] = [list(view.hand) if s == view.seat else list(hidden.get(s, ()))
                                  for s in range(n)]
        for s in range(n):
            if len(held[s]) != view.hand_sizes[s]:
                raise RecordError(f"seat {s} must hold {view.hand_sizes[s]} cards")
        mine = view.private.get("buried")
        if mine is not None:
            buried = tuple(_cards(mine))
            voids = _voids(view, plays)
            used = {c for _, c in plays} | {c for h in held for c in h}
            spare = [c for c in self.pack if c not in used and c not in buried]
            for s in range(n):
                for i, c in enumerate(held[s]):
                    if c in buried:
                        swap = next((x for x in spare if view.order is None
                                     or not voids[s] >> view.order.suit[x] & 1), None)
                        if swap is None:
                            raise RecordError("no card to swap for a buried one")
                        spare.remove(swap)
                        held[s][i] = swap
        used = {c for _, c in plays} | {c for h in held for c in h}
        out = [c for c in self.pack if c not in used]
        if len(out) != self.widow_size:
            raise RecordError("the guess must leave the widow's cards over")
        buried = tuple(sorted(out))
        dealt: list[list[Card]] = [[] for _ in range(n)]
        for seat, c in plays:
            dealt[seat].append(c)
        for s in range(n):
            dealt[s].extend(held[s])
        # A declarer's picked-up widow is taken to be the cards it buried: the state of play
        # is the same whichever two cards the widow held.
        holders = self.holders(view.dealer)
        pack: list[Card] = []
        nxt = [iter(d) for d in dealt]
        widow = iter(out)
        for h in holders:
            pack.append(next(widow) if h == WIDOW else next(nxt[h]))
        hand = Hand(self, view.dealer, pack, view.status)
        try:
            for seat, action in view.actions:
                hand.apply(seat, Action(BURY_KIND, buried) if action is None else action)
        except IllegalAction as e:
            raise RecordError(f"the guess cannot replay the view: {e}") from None
        if hand.phase != view.phase or hand.to_move != view.to_move:
            raise RecordError("the replayed hand does not reach the view's state")
        return hand

    def strength(self, cards: Sequence[Card], view: SeatView) -> float:
        """A rough worth of a hand for playing alone: Overs 3, Unders 2, other trumps 1,
        plain Aces 1.5, plain Tens guarded by their Ace 1, and 1 per plain suit missing."""
        order = view.order
        assert order is not None
        total = 0.0
        plain_suits = set()
        for c in cards:
            r = rank_of(c)
            if order.suit[c] == TRUMP:
                total += 3 if r == OVER else 2 if r == UNDER else 1
            else:
                plain_suits.add(order.suit[c])
                if r == 0:
                    total += 1.5
                elif r == 1 and (c - 1) in cards:
                    total += 1
        total += sum(1 for s in range(4) if s != BELLS and s not in plain_suits)
        return total

    def take_threshold(self, view: SeatView) -> float:
        return 13.0

    def suggest(self, view: SeatView) -> Action | None:
        if view.phase == OFFER:
            take = self.strength(view.hand, view) >= self.take_threshold(view)
            return Action(TAKE, True) if take else Action(PASS, True)
        if view.phase == BURY:
            return Action(BURY_KIND, choose_burial(view.hand, view))
        return None


def _cards(codes_: Sequence[str]) -> list[Card]:
    return [card(c) for c in codes_]


def _voids(view: SeatView, plays: Sequence[tuple[int, Card]]) -> list[int]:
    """Suits (bit masks) each seat showed it lacks by not following."""
    out = [0] * view.players
    order = view.order
    if order is None:
        return out
    led = -1
    for i, (seat, c) in enumerate(plays):
        if i % view.players == 0:
            led = order.suit[c]
        elif order.suit[c] != led:
            out[seat] |= 1 << led
    return out


def choose_burial(cards: Sequence[Card], view: SeatView) -> tuple[Card, Card]:
    """Two cards to bury: plain cards, making voids and saving points that are at risk
    (a Ten or King without its Ace); Aces are kept, they win their tricks. With fewer than
    two plain cards, the weakest trumps."""
    order = view.order
    assert order is not None
    points = view.card_points
    plain = [c for c in cards if order.suit[c] != TRUMP]
    if len(plain) < 2:
        trumps = sorted((c for c in cards if order.suit[c] == TRUMP),
                        key=lambda c: (points[c] > 0, order.power[c]))
        pick = (plain + trumps)[:2]
        return (min(pick), max(pick))
    count = {s: sum(1 for c in plain if order.suit[c] == s) for s in range(4)}

    def worth(pair: tuple[Card, Card]) -> float:
        v = 0.0
        for c in pair:
            r = rank_of(c)
            v += points[c]
            if r == 0:
                v -= 14  # an Ace takes its trick anyway
        suits = {order.suit[c] for c in pair}
        for s in suits:
            if count[s] == sum(1 for c in pair if order.suit[c] == s):
                v += 8  # a new void: plain leads can be trumped
        return v

    best = max(itertools.combinations(sorted(plain), 2), key=worth)
    return (best[0], best[1])
