"""Wendish Schafkopf, four players (seed 004; RULINGS.md, "Wendish Schafkopf").

Teams form in each deal: the holders of the Old Ones (``EO``, ``GO``) play together, and
nobody knows who they are until the cards show it. A player dealt both Old Ones calls a card
(its holder is his partner and must play it as soon as it is legal), says "the first trick
is with me" (the first other player to take a trick is his partner), or says nothing and plays
a quiet solo. Before play anyone may announce a Lust Solo with a trump suit of his choice.

Internally team 0 is always the side of the Old Ones (the caller and his partner, the
soloist) and team 1 the others; ``public_team`` hides that until it is public.

The declaring round (phase ``declare``): from the seat after the dealer, each seat in turn
says ``pass``, ``solo`` with a suit (a Lust Solo: the round ends at once, the first to announce
one plays it), or, holding both Old Ones, ``call`` a card or ``first_trick``. A holder of both
who passes plays a quiet solo: saying nothing is what the table sees of every other pass.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, field_validator, model_validator

from engine.actions import (
    Action,
    IllegalAction,
    parse_flag,
    parse_suit_value,
    register_kind,
    same,
)
from engine.cards import (
    BELLS,
    CARD_POINTS,
    OVER,
    PACK_24,
    PACK_32,
    SCHAFKOPF_TRUMPS,
    SUITS,
    TRUMP,
    UNDER,
    Card,
    card,
    code,
    rank_of,
    suit_letter,
    suit_of,
)
from engine.determinize import plays_so_far, rebuild
from engine.hand import FINISHED, PLAYING, Hand, HandResult
from engine.rules.base import Options, Rules, flag_false
from engine.status import RecordError, Status

if TYPE_CHECKING:
    from engine.view import SeatView

#: The declaring round before play.
DECLARE = "declare"

#: Action kinds: ``{"pass": true}``, ``{"solo": "H"}`` (a Lust Solo, hearts the trump suit),
#: ``{"call": "GA"}``, ``{"first_trick": true}``.
PASS, SOLO, CALL, FIRST = "pass", "solo", "call", "first_trick"
register_kind(SOLO, parse_suit_value, suit_letter)
register_kind(FIRST, parse_flag, same)

#: Contracts (``pending["contract"]`` and ``extra["contract"]``).
NORMAL, CALLED, FIRST_TRICK = "normal", "call", "first_trick"
QUIET, LUST = "quiet_solo", "lust_solo"

EO, GO = card("EO"), card("GO")
OLD_ONES = (EO, GO)

#: The declaring round's actions, made once: what every seat may say, the first trick and
#: each card a holder of both Old Ones may call.
_DECLARE = (Action(PASS, True), *(Action(SOLO, s) for s in SUITS))
_FIRST = Action(FIRST, True)
_CALLS = tuple(Action(CALL, c) for c in range(32))


class WendishOptions(Options):
    #: 32 cards (8 each) or 24 cards (no 8s and 7s, 6 each).
    pack: Literal[32, 24] = 32
    #: Deals in a match (a multiple of 4, so that everybody deals as often); 0: open-ended.
    deals: int = Field(0, ge=0, le=96, json_schema_extra={"choices": [0, 4, 8, 12, 16]})

    @field_validator("deals")
    @classmethod
    def _whole_rounds(cls, v: int) -> int:
        if v % 4:
            raise ValueError("deals must be a multiple of 4 (0: no set length)")
        return v

    #: Muss-Solo (seed 004, "by agreement"): the Lust Solos each player must play in a match
    #: (0: none). Needs a set match length; a solo still owed when the match ends is paid as
    #: a lost simple solo (1 to each of the other three).
    muss_solo: int = Field(0, ge=0, le=8, json_schema_extra={"choices": [0, 1, 2]})
    #: Counters (seed 004: "a kitty into which each player deposits a certain amount of coins
    #: or counters"): each player starts the match with this many, the scores are paid in
    #: them, and the match ends when a player has none left (0: scores from 0, no such end).
    counters: int = Field(0, ge=0, le=999, json_schema_extra={"choices": [0, 12, 24]})

    @model_validator(mode="after")
    def _muss_solo_needs_a_match(self) -> WendishOptions:
        if self.muss_solo and not self.deals:
            raise ValueError("muss_solo needs a match of set length (the deals option)")
        if self.muss_solo * 4 > self.deals and self.deals:
            raise ValueError("muss_solo asks more solos than a match has deals")
        return self


def _played_by(hand: Hand, wanted: Sequence[Card]) -> dict[Card, int]:
    """The seat that played each card of ``wanted`` that has been played."""
    out: dict[Card, int] = {}
    n = hand.n
    for t in hand.tricks:
        for i, c in enumerate(t.cards):
            if c in wanted:
                out[c] = (t.leader + i) % n
    for i, c in enumerate(hand.trick):
        if c in wanted:
            out[c] = (hand.leader + i) % n
    return out


class Wendish(Rules):
    game = "wendish"
    title = "Wendish Schafkopf"
    goal = (
        "The holders of the Obers of acorns and leaves (the Old Ones) play together, secretly "
        "until the cards show it, against the other two; a side needs 61 or more of the 120 "
        "card points."
    )
    options_model = WendishOptions
    rulings = (
        "4 players, 32 cards dealt in two packets of 4 (8 each); option pack 24: no 8s and "
        "7s, two packets of 3 (6 each). The seat after the dealer leads; the deal passes left.",
        "Trumps: EO GO HO SO EU GU HU SU, then bells A 10 K 9 8 7. Follow suit if able, "
        "else any card (no duty to trump).",
        "The holders of EO and GO (the Old Ones) are secret partners, known as the cards "
        "show it.",
        "One player with both Old Ones calls any card he lacks (its holder is his partner and "
        "must play it as soon as it is legal), or says 'the first trick is with me' (the first "
        "other player to take a trick is his partner), or says nothing: a quiet solo.",
        "Before play, from the seat after the dealer, anyone may announce a Lust Solo and name "
        "the trump suit (Obers and Unters stay the top trumps); the first to announce plays it.",
        "61+ wins. Score 1, +1 schneider (loser under 30), +1 schwarz (loser took no trick); "
        "a solo wins or loses that from each of the three others.",
        "deals option (default 0, open-ended): a match of that many deals, a multiple of 4.",
        "early_end (default on): the hand stops once no remaining play can change its score.",
        "muss_solo option (default 0; a Muss-Solo agreement): each player must "
        "announce that many Lust Solos in a match; house rule: a solo still owed when the "
        "match ends is paid as a lost simple solo, 1 to each of the other three.",
        "counters option (default 0; a kitty of counters): each player starts the "
        "match with that many counters and pays and is paid in them; house rule: the "
        "match ends as soon as a player has none left, the most counters wins.",
        "House rules: the first Lust Solo announced is played, even "
        "over an earlier call; with 24 cards the packets are of 3; a match is open-ended unless "
        "the deals option sets its length.",
    )

    fixed_teams = False
    score_by_seat = True
    status_fields = frozenset({"score", "deals", "solos"})

    players = 4
    teams = 2
    pack = PACK_32
    packets = (4, 4)
    points = CARD_POINTS
    total_points = 120
    top_trumps = SCHAFKOPF_TRUMPS
    usual_trump = BELLS
    must_trump = False
    #: The called card's duty.
    restricts_play = True

    def __init__(self, options: Options) -> None:
        assert isinstance(options, WendishOptions)
        if options.pack == 24:
            self.pack = PACK_24
            self.packets = (3, 3)
        super().__init__(options)
        self.after_trick = self._after_trick
        self.match_deals = options.deals
        self.muss_solo = options.muss_solo
        self.counters = options.counters

    # -- the deal and the declaring round ----------------------------------------------------

    def start(self, hand: Hand) -> None:
        hand.set_trump(BELLS)
        hand.pending.update(
            contract=None, declarer=None, called=None, solo_suit=None, partner=None, bid=None
        )
        hand.phase = DECLARE
        hand.to_move = (hand.dealer + 1) % hand.n

    def phase_legal(self, hand: Hand, seat: int) -> list[Action]:
        if hand.phase != DECLARE or seat != hand.to_move:
            return []
        held = hand.hands[seat]
        if EO in held and GO in held:
            order = hand.order
            assert order is not None
            return [*_DECLARE, _FIRST, *(
                _CALLS[c] for c in sorted((c for c in self.pack if c not in held),
                                          key=order.sort_key))]
        return list(_DECLARE)

    def phase_apply(self, hand: Hand, seat: int, action: Action) -> None:
        if action.kind == SOLO:
            self._begin_play(hand, LUST, seat, {seat}, solo_suit=action.value)
            return
        if action.kind in (CALL, FIRST):
            hand.pending["bid"] = (seat, action.kind, action.value)
        if len(hand.actions) < hand.n:
            hand.to_move = (seat + 1) % hand.n
            return
        holder = {c: s for s, h in enumerate(hand.hands) for c in h if c in OLD_ONES}
        eo, go = holder[EO], holder[GO]
        bid = hand.pending["bid"]
        if eo != go:
            self._begin_play(hand, NORMAL, None, {eo, go})
        elif bid is None:
            self._begin_play(hand, QUIET, eo, {eo})
        elif bid[1] == FIRST:
            self._begin_play(hand, FIRST_TRICK, eo, {eo})
        else:
            called = bid[2]
            partner = next(s for s, h in enumerate(hand.hands) if called in h)
            self._begin_play(hand, CALLED, eo, {eo, partner}, called=called, partner=partner)

    def _begin_play(
        self, hand: Hand, contract: str, declarer: int | None, side: set[int], *,
        solo_suit: int | None = None, called: Card | None = None, partner: int | None = None,
    ) -> None:
        for s in range(hand.n):
            hand.set_team(s, 0 if s in side else 1)
        if solo_suit is not None:
            hand.set_trump(solo_suit)
        hand.pending.update(contract=contract, declarer=declarer, called=called,
                            solo_suit=solo_suit, partner=partner)
        # Only a called card brings a duty (to play it as soon as it is legal).
        hand.restricted = called is not None
        hand.phase = PLAYING
        hand.leader = hand.to_move = (hand.dealer + 1) % hand.n

    def explain(self, hand: Hand, seat: int, action: Action) -> IllegalAction:
        if hand.phase == DECLARE:
            if seat != hand.to_move:
                return IllegalAction(
                    "not_your_turn", f"not seat {seat}'s turn: seat {hand.to_move} declares",
                    seat=seat, to_move=hand.to_move,
                )
            if action.value is False:
                return flag_false(action)
            if action.kind in (CALL, FIRST):
                return IllegalAction(
                    "cannot_call", "only a player holding both Old Ones (EO, GO) may call, "
                    "and only a card he does not hold", seat=seat,
                )
            if action.kind == "card":
                return IllegalAction(
                    "wrong_phase", "every player declares (pass or solo) before play",
                    phase=DECLARE,
                )
        return super().explain(hand, seat, action)

    # -- play ---------------------------------------------------------------------------------

    def restrict_play(self, hand: Hand, seat: int, cards: list[Card]) -> list[Card]:
        pending = hand.pending
        called = pending["called"]
        if called in cards:
            return [called]
        if called not in hand.hands[pending["partner"]]:
            hand.restricted = False  # the called card is played: its duty is over
        return cards

    def explain_card(self, hand: Hand, seat: int, card_: Card) -> IllegalAction | None:
        called = hand.pending.get("called")
        if called is None or called == card_ or called not in hand.hands[seat]:
            return None
        order = hand.order
        assert order is not None
        if hand.trick:
            led = order.suit[hand.trick[0]]
            if order.suit[called] != led and any(order.suit[c] == led for c in hand.hands[seat]):
                return None
        return IllegalAction(
            "must_play_called",
            f"seat {seat} holds the called card {code(called)} and must play it now",
            card=code(card_), called=code(called),
        )

    def _after_trick(self, hand: Hand) -> None:
        p = hand.pending
        if p["contract"] == FIRST_TRICK and p["partner"] is None:
            winner = hand.tricks[-1].winner
            if winner != p["declarer"]:
                p["partner"] = winner
                hand.set_team(winner, 0)

    # -- scoring ------------------------------------------------------------------------------

    def match_goal(self) -> str | None:
        ends = []
        if self.match_deals:
            ends.append(f"A match is {self.match_deals} deals; the highest total score wins it.")
        if self.counters:
            ends.append(f"Everybody starts with {self.counters} counters and pays in them; the "
                        "match ends when a player has none left.")
        return " ".join(ends) or None

    def check_status(self, status: Status) -> None:
        super().check_status(status)
        # A soloist wins or loses up to 3 from each of the other three; what one seat wins
        # the others pay, from the counters each started with (``settle``).
        self.check_match(status, self.match_deals, swing=9, zero_sum=True,
                         start=self.counters)
        solos, deals = status.solos, status.deals
        if solos is not None and (
            not self.muss_solo or len(solos) != self.players or not all(x >= 0 for x in solos)
        ):
            raise RecordError("status.solos needs the muss_solo option: Lust Solos per seat")
        if self.muss_solo and (solos is None) != (deals is None):
            raise RecordError("with muss_solo, status.solos and status.deals go together "
                              "(every hand of the match writes both)")
        if solos is not None and sum(solos) > (deals or 0):
            raise RecordError(f"status.solos: {sum(solos)} Lust Solos cannot have been played "
                              f"in {deals or 0} deal(s) (at most one a deal)")
        if self.counters and status.score is not None and min(status.score) <= 0:
            raise RecordError("status.score: a seat without counters has ended the match "
                              "(every seat of a match still on has at least 1)")

    def outcome(self, status: Status, points: Sequence[int]) -> Hashable:
        """(winning team, 1 or 2 with schneider); schwarz needs the tricks, see
        ``outcome_fixed``."""
        win = 0 if points[0] >= 61 else 1
        return (win, 2 if points[1 - win] < 30 else 1)

    def outcome_value(self, status_before: Status, outcome: Hashable, team: int) -> float:
        assert isinstance(outcome, tuple)
        win, value = outcome
        return (0.4 + 0.2 * int(value)) * (1 if win == team else -1)

    def revealed(self, hand: Hand) -> bool:
        """Does the whole table know every seat's team?"""
        p = hand.pending
        contract = p["contract"]
        if contract == LUST:
            return True
        if contract == FIRST_TRICK:
            return p["partner"] is not None
        # A card no seat holds any more has been played.
        if contract == CALLED:
            return p["called"] not in hand.hands[p["partner"]]
        return not any(c in held for held in hand.hands for c in OLD_ONES)

    def outcome_fixed(self, hand: Hand) -> bool:
        # Only once the teams are public: stopping (or not stopping) must tell nobody who
        # plays with whom; and a "first trick" partner may still be to come.
        if not self.revealed(hand):
            return False
        p0, p1 = hand.team_taken
        left = self.total_points - p0 - p1
        if p0 >= 61:
            loser, low = 1, p1
        elif p0 + left <= 60:
            loser, low = 0, p0
        else:
            return False
        if low < 30 <= low + left:
            return False
        # Schwarz stays open while the losers have not taken a trick.
        team = hand.team
        return any(team[t.winner] == loser for t in hand.tricks)

    def alone(self, hand: Hand) -> bool:
        p = hand.pending
        return p["contract"] in (QUIET, LUST) or (
            p["contract"] == FIRST_TRICK and p["partner"] is None
        )

    def settle(self, hand: Hand) -> None:
        p = hand.pending
        team = hand.team
        points = tuple(hand.team_taken)
        win = 0 if points[0] >= 61 else 1
        lose = 1 - win
        schneider = points[lose] < 30
        schwarz = not any(team[t.winner] == lose for t in hand.tricks)
        value = 1 + schneider + schwarz
        sign = 1 if win == 0 else -1
        if self.alone(hand):
            scores = [sign * value * (3 if s == p["declarer"] else -1) for s in range(hand.n)]
        else:
            scores = [sign * value * (1 if team[s] == 0 else -1) for s in range(hand.n)]
        before = hand.status
        n = hand.n
        old = before.score or (self.counters,) * n
        total = tuple(a + b for a, b in zip(old, scores, strict=True))
        extra: dict[str, Any] = {
            "scores": scores, "contract": p["contract"], "declarer": p["declarer"],
            "partner": self._partner(hand), "value": value, "schneider": schneider,
            "schwarz": schwarz, "teams": list(team),
        }
        solos: tuple[int, ...] | None = None
        if self.muss_solo:
            solos = tuple(
                x + (p["contract"] == LUST and s == p["declarer"])
                for s, x in enumerate(before.solos or (0,) * n)
            )
        played = (before.deals or 0) + 1
        match_over = (bool(self.match_deals) and played >= self.match_deals) or (
            bool(self.counters) and min(total) <= 0
        )
        if match_over:
            if solos is not None:
                owed = [max(0, self.muss_solo - x) for x in solos]
                penalty = [sum(owed) - owed[s] - (n - 1) * owed[s] for s in range(n)]
                if any(penalty):
                    extra["muss_solo_penalty"] = penalty
                    total = tuple(a + b for a, b in zip(total, penalty, strict=True))
            best = max(total)
            extra["match_score"] = list(total)
            extra["final_status"] = Status(
                score=total, deals=played if self.match_deals else None, solos=solos
            ).to_json()
            extra["match_winner"] = [s for s in range(n) if total[s] == best]
            status = Status()
        else:
            status = Status(score=total, deals=played if self.match_deals else None,
                            solos=solos)
        event = "schwarz" if schwarz else "schneider" if schneider else "won"
        self.finish(hand, HandResult(
            points=points, status_before=before, status=status,
            next_dealer=(hand.dealer + 1) % hand.n, event=event, team=win,
            early=any(hand.hands), extra=extra,
        ))

    def _partner(self, hand: Hand) -> int | None:
        """The declarer's partner (called or first trick), or the second Old One's holder."""
        p = hand.pending
        if p["contract"] in (CALLED, FIRST_TRICK):
            partner: int | None = p["partner"]
            return partner
        if p["contract"] == NORMAL:
            side = [s for s in range(hand.n) if hand.team[s] == 0]
            return side[1]
        return None

    # -- what the table knows -----------------------------------------------------------------

    def public_team(self, hand: Hand, seat: int) -> int | None:
        if hand.play_over or hand.phase == FINISHED:
            return hand.team[seat]
        if hand.phase == DECLARE:
            return None
        p = hand.pending
        contract = p["contract"]
        if contract == LUST:
            return hand.team[seat]
        if contract in (CALLED, FIRST_TRICK):
            if seat == p["declarer"]:
                return 0
            if contract == FIRST_TRICK:
                known = p["partner"] is not None
            else:
                known = bool(_played_by(hand, (p["called"],)))
            return hand.team[seat] if known else None
        # Nothing was announced: a normal game or a quiet solo, as the Old Ones show it.
        shown = _played_by(hand, OLD_ONES)
        if len(shown) == 2:
            return hand.team[seat]
        return 0 if seat in shown.values() else None

    def side_roles(self, hand: Hand) -> tuple[str, ...]:
        """The Old Ones' side (team 0) and the others; a soloist and the defenders once a
        solo is public (a Lust Solo at once, a quiet solo when play is over: until then it
        looks like any hand of the Old Ones). Nothing while the declaring round runs."""
        if hand.phase == DECLARE:
            return ()
        contract = hand.pending["contract"]
        if contract == LUST or (contract == QUIET and (hand.play_over
                                                       or hand.phase == FINISHED)):
            return ("soloist", "defenders")
        return ("old_ones", "others")

    def public_team_points(self, hand: Hand) -> tuple[int, ...]:
        """The points per team once every seat's team is public; ``()`` while any is secret
        (each seat's ``taken`` stays public: tricks are)."""
        if hand.phase != DECLARE and (hand.play_over or self.revealed(hand)):
            return tuple(hand.team_taken)
        return ()

    def public_info(self, hand: Hand) -> dict[str, Any]:
        p = hand.pending
        info: dict[str, Any] = {
            "pack": len(self.pack), "deals": self.match_deals, "contract": None,
            "declarer": None, "called": None, "solo_suit": None, "partner": None,
        }
        if hand.phase == DECLARE:
            bid = p["bid"]
            if bid is not None:
                seat, kind, value = bid
                info.update(contract=kind, declarer=seat,
                            called=code(value) if kind == CALL else None)
            return info
        contract = p["contract"]
        over = hand.play_over or hand.phase == FINISHED
        if contract in (NORMAL, QUIET) and not over and len(_played_by(hand, OLD_ONES)) < 2:
            return info  # nothing announced and not yet shown
        info.update(contract=contract, declarer=p["declarer"])
        if contract == LUST:
            info["solo_suit"] = suit_letter(p["solo_suit"])
        if contract == CALLED:
            info["called"] = code(p["called"])
            if over or _played_by(hand, (p["called"],)):
                info["partner"] = p["partner"]
        elif contract == FIRST_TRICK:
            info["partner"] = p["partner"]
        elif contract == NORMAL:
            info["partner"] = self._partner(hand)
            info["declarer"] = next(s for s in range(hand.n) if hand.team[s] == 0)
        return info

    def private_info(self, hand: Hand, seat: int) -> dict[str, Any]:
        """``team``: the seat's own team as it knows it (0 = the Old Ones' side), once play
        starts; None while a "first trick" partner is still to be found."""
        held = hand.hands[seat]
        info: dict[str, Any] = {"old_ones": sum(c in held for c in OLD_ONES)}
        p = hand.pending
        if hand.phase == DECLARE or (
            p["contract"] == FIRST_TRICK and p["partner"] is None and seat != p["declarer"]
        ):
            info["team"] = None
        else:
            info["team"] = hand.team[seat]
        return info

    # -- computer players ---------------------------------------------------------------------

    def suggest(self, view: SeatView) -> Action | None:
        """Declare by counting trumps: a Lust Solo with nearly all trumps; with both Old Ones
        a quiet solo when strong, else call the highest trump not held."""
        if view.phase != DECLARE:
            return None
        held = view.hand
        n = len(held)
        tops = sum(rank_of(c) in (OVER, UNDER) for c in held)

        def trumps(suit: int) -> int:
            return sum(rank_of(c) in (OVER, UNDER) or suit_of(c) == suit for c in held)

        def strong(suit: int) -> bool:
            t = trumps(suit)
            return (t >= n - 1 and tops >= 3) or (t >= n - 2 and tops >= 4)

        both = EO in held and GO in held
        if both and strong(BELLS):
            return Action(PASS, True)
        best = max(SUITS, key=lambda s: (trumps(s), s == BELLS))
        if strong(best) or self.solo_due(view):
            return Action(SOLO, best)
        if both:
            legal = {a.value for a in view.legal if a.kind == CALL}
            for c in (*SCHAFKOPF_TRUMPS, *(c for c in self.pack if suit_of(c) == BELLS)):
                if c in legal:
                    return Action(CALL, c)
        return Action(PASS, True)

    def solo_due(self, view: SeatView) -> bool:
        """Muss-Solo: the seat still owes as many Lust Solos as the match has deals left."""
        if not self.muss_solo or not any(a.kind == SOLO for a in view.legal):
            return False
        status = view.status
        owed = self.muss_solo - (status.solos or (0,) * self.players)[view.seat]
        return owed > 0 and owed >= self.match_deals - (status.deals or 0)

    def determinize(self, view: SeatView, hidden: Mapping[int, Sequence[Card]]) -> Hand | None:
        """Deal the unseen cards again, consistently with everything public: a caller holds
        both Old Ones and not his called card; a seat that did not play the called card when
        it was legal lacks it; a seat that did not follow lacks the led suit. ``hidden`` (the
        common guess, which knows none of this) only seeds the shuffle. During the declaring
        round the hand is not rebuilt (``RecordError``): bids are ``suggest``'s."""
        if view.phase == DECLARE:
            raise RecordError("declarations are decided by rule of thumb")
        rng = random.Random(repr(sorted((s, sorted(c)) for s, c in hidden.items())))
        n = view.players
        order = view.order
        assert order is not None
        plays = plays_so_far(view)
        played = {c for _, c in plays}
        forced: list[list[Card]] = [[] for _ in range(n)]
        banned: list[set[Card]] = [set() for _ in range(n)]
        for seat, action in view.actions:
            if action is not None and action.kind in (CALL, FIRST):
                forced[seat] = [c for c in OLD_ONES if c not in played]
                if action.kind == CALL:
                    banned[seat].add(action.value)
        void = [0] * n
        called = card(view.public["called"]) if view.public.get("contract") == CALLED else None
        called_at = next((i for i, (_, x) in enumerate(plays) if x == called), len(plays))
        led = TRUMP
        for i, (seat, c) in enumerate(plays):
            if i % n == 0:
                led = order.suit[c]
            elif order.suit[c] != led:
                void[seat] |= 1 << led
            # Playing another card when the called card was legal proves it is not held.
            if called is not None and i < called_at and (
                i % n == 0 or order.suit[called] == led or order.suit[c] != led
            ):
                banned[seat].add(called)
        me = view.seat
        forced[me] = []
        own = set(view.hand)
        known = own | played | {c for f in forced for c in f}
        unknown = [c for c in self.pack if c not in known]
        need = [0 if s == me else view.hand_sizes[s] - len(forced[s]) for s in range(n)]
        allowed = {
            c: [s for s in range(n) if s != me and need[s] and not void[s] >> order.suit[c] & 1
                and c not in banned[s]]
            for c in unknown
        }
        got = deal_unknown(unknown, need, allowed, rng)
        if got is None:
            raise RecordError("no deal fits what the table has seen")
        held = [list(view.hand) if s == me else forced[s] + got[s] for s in range(n)]
        return rebuild(view, plays, held)


def deal_unknown(
    cards: Sequence[Card], need: Sequence[int], allowed: Mapping[Card, Sequence[int]],
    rng: random.Random, tries: int = 60,
) -> dict[int, list[Card]] | None:
    """Give each card to one of its allowed seats so that seat ``s`` gets ``need[s]`` cards:
    most constrained cards first, seats chosen in proportion to the room they have left."""
    for _ in range(tries):
        cap = list(need)
        order = list(cards)
        rng.shuffle(order)
        order.sort(key=lambda c: len(allowed[c]))
        out: dict[int, list[Card]] = {s: [] for s in range(len(need))}
        for c in order:
            opts = [s for s in allowed[c] if cap[s] > 0]
            if not opts:
                break
            r = rng.random() * sum(cap[s] for s in opts)
            pick = opts[-1]
            for s in opts:
                r -= cap[s]
                if r < 0:
                    pick = s
                    break
            cap[pick] -= 1
            out[pick].append(c)
        else:
            if not any(cap):
                return out
    return None
