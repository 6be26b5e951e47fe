"""Filcau, the Romanian 20-card game (seed 003; RULINGS.md, "Filcau (Romanian, 20 cards)").

A hand runs through these phases (``Hand.phase``):

- ``deal``: the seat before the dealer cuts or knocks (``{"deal": "cut"}``/``"knock"``).
  Nobody holds a card yet.
- knock: five cards each at once (pack indexes 0-4 to the seat after the dealer, 5-9 to the
  next...), then ``bind``.
- cut: three cards each (packets of 3, then 2: indexes 0-11, then 12-19), then ``fris``, an
  open window: any seat may make fris with an Over it holds, the dealer deals on, the others
  may say they will not (``pass``) or look at their last two cards (``look``), which closes
  the window for everybody (seed rule 2). Deal on or look: the last two each, then ``bind``.
  Fris: trump is named and play starts with ``fris_trick`` on the three-card hands; a seat
  without Under or King asks for its last two cards face up (``face_up``); the others get
  theirs once the fris trick is over.
- ``bind`` (*legare*): one turn each from the seat after the dealer; the strongest binding
  names trump; nobody binds: redeal.
- ``play``, with the duty of a binder of three who won the first trick to lead a plain card.

``hand.hands`` holds only the cards dealt so far, so views show nothing that is not dealt.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from engine.actions import (
    Action,
    IllegalAction,
    NotationError,
    choice,
    parse_card,
    parse_flag,
    parse_suit_value,
    register_kind,
    same,
)
from engine.cards import (
    ACE,
    COUNT_POINTS,
    KING,
    OVERS,
    PACK_20,
    SUITS,
    TRUMP,
    UNDER,
    Card,
    card,
    code,
    mask_of,
    rank_of,
    suit_letter,
    suit_of,
)
from engine.hand import PLAYING, Hand, HandResult, Trick
from engine.rules.base import Options, Rules, flag_false
from engine.status import RecordError, Status

if TYPE_CHECKING:
    from engine.view import SeatView

DEAL = "deal"
FRIS = "fris"
FRIS_TRICK = "fris_trick"
BIND = "bind"

#: Game points that win a match.
MATCH_POINTS = 11

#: ``knock_holders`` by dealer.
_KNOCK_HOLDERS = tuple(tuple((dealer + 1 + i // 5) % 4 for i in range(20)) for dealer in range(4))

#: The statuses ``outcome`` reads, by boss team (the match score aside).
_BOSS = {m: Status(masters=m) for m in (None, 0, 1)}


class Bind(NamedTuple):
    """A binding (*legare*): trump suit, how many trumps, the lowest of them."""

    trump: int
    #: How many trumps (the record's ``count``).
    number: int
    lowest: Card


class Fris(NamedTuple):
    """Fris: the Over shown and the suit named trump."""

    over: Card
    trump: int


def _parse_bind(v: Any) -> Bind:
    if not isinstance(v, Mapping) or set(v) != {"trump", "count", "lowest"}:
        raise NotationError(f"a binding is {{trump, count, lowest}}, not {v!r}")
    count = v["count"]
    if isinstance(count, bool) or not isinstance(count, int):
        raise NotationError(f"a binding's count must be a number, not {count!r}")
    return Bind(parse_suit_value(v["trump"]), count, parse_card(v["lowest"]))


def _dump_bind(b: Bind) -> dict[str, Any]:
    return {"trump": suit_letter(b.trump), "count": b.number, "lowest": code(b.lowest)}


def _parse_fris(v: Any) -> Fris:
    """``"GO"`` (trump: the Over's suit) or ``{"over": "GO", "trump": "H"}``."""
    if isinstance(v, str):
        over = parse_card(v)
        return Fris(over, suit_of(over))
    if not isinstance(v, Mapping) or set(v) != {"over", "trump"}:
        raise NotationError(f"fris is an Ober (\"GO\") or {{over, trump}}, not {v!r}")
    return Fris(parse_card(v["over"]), parse_suit_value(v["trump"]))


def _dump_fris(f: Fris) -> Any:
    if f.trump == suit_of(f.over):
        return code(f.over)
    return {"over": code(f.over), "trump": suit_letter(f.trump)}


register_kind("deal", choice("cut", "knock"), same)
register_kind("fris", _parse_fris, _dump_fris)
register_kind("deal_on", parse_flag, same)
register_kind("look", parse_flag, same)
register_kind("bind", _parse_bind, _dump_bind)
register_kind("closed", parse_flag, same)
register_kind("face_up", parse_flag, same)

CUT = Action("deal", "cut")
KNOCK = Action("deal", "knock")
DEAL_ON = Action("deal_on", True)
#: A player in the fris window looks at his last two cards: that closes the window for all
#: (seed 003, rule 2), as the dealer dealing on does.
LOOK = Action("look", True)
PASS = Action("pass", True)
CLOSED = Action("closed", True)
FACE_UP = Action("face_up", True)

_OVER_SET = frozenset(OVERS)
_SMALL = (KING, UNDER)


def trumps_for(cards: Sequence[Card], suit: int) -> list[Card]:
    """The cards that are trumps when ``suit`` is trump, strongest first."""
    overs = [c for c in OVERS if c in cards]
    plain = sorted((c for c in cards if suit_of(c) == suit and c not in _OVER_SET),
                   key=rank_of)
    return overs + plain


def low_key(c: Card) -> int:
    """How high a lowest trump is: Overs above the trump suit's A 10 K U."""
    if c in _OVER_SET:
        return 20 - OVERS.index(c)
    return 10 - rank_of(c)


def bind_key(b: Bind) -> tuple[int, int]:
    return (b.number, low_key(b.lowest))


#: Bit masks of the Overs, and of the trumps when each suit is trump (the Overs and that
#: suit's A 10 K U): a binding counts bits.
_OVER_MASK = mask_of(OVERS)
_TRUMPS = tuple(_OVER_MASK | mask_of(c for c in PACK_20 if suit_of(c) == s) for s in SUITS)


def is_closed(cards: Sequence[Card]) -> bool:
    """Five trumps for some suit (*închis*)."""
    mask = mask_of(cards)
    return len(cards) == 5 and any((mask & t).bit_count() == 5 for t in _TRUMPS)


def bindings(cards: Sequence[Card]) -> list[Bind]:
    """Every binding these five cards allow (RULINGS: an Over, 3 or 4 trumps, not 4 with an
    Ace as the fifth card)."""
    out: list[Bind] = []
    mask = mask_of(cards)
    if not mask & _OVER_MASK:
        return out
    for s in SUITS:
        trumps = mask & _TRUMPS[s]
        number = trumps.bit_count()
        if number not in (3, 4):
            continue
        if number == 4:
            fifth = (mask & ~trumps).bit_length() - 1
            if rank_of(fifth) == ACE:
                continue
        # The lowest trump (``trumps_for(cards, s)[-1]``) is the highest card of the suit's
        # own, else the last Over: the highest card number either way.
        plain = trumps & ~_OVER_MASK
        out.append(Bind(s, number, (plain or trumps).bit_length() - 1))
    return out


def strongest(cards: Sequence[Card]) -> list[Bind]:
    """The bindings a player may say: his strongest (several when suits tie)."""
    every = bindings(cards)
    if not every:
        return []
    best = max(map(bind_key, every))
    return [b for b in every if bind_key(b) == best]


def bind_choices(cards: Sequence[Card]) -> tuple[Action, ...]:
    """What the holder of ``cards`` may say in the binding round: închis with five trumps,
    else his strongest bindings or pass."""
    return _bind_choices(mask_of(cards))


@lru_cache(maxsize=1 << 14)
def _bind_choices(mask: int) -> tuple[Action, ...]:
    # Every seat says something once a deal, and a 20-card pack has 15,504 five-card hands:
    # each is worked out once, not in every deal.
    cards = [c for c in PACK_20 if mask >> c & 1]
    if is_closed(cards):
        return (CLOSED,)
    return (*(Action("bind", b) for b in strongest(cards)), PASS)


class Filcau20Options(Options):
    #: ``free``: the fris maker names any suit trump (seed 003); ``over_suit``: the suit of
    #: the Over he shows.
    fris_trump: Literal["free", "over_suit"] = "free"


class Filcau20(Rules):
    game = "filcau20"
    title = "Filcau (20 cards)"
    goal = (
        "Take Aces and Tens in your tricks: 6 or more of the 8 move your team one step up the "
        "ladder, servants → even → masters (the boss team, șef), and the others one step down."
    )
    options_model = Filcau20Options
    rulings = (
        "20 cards (A 10 K O U of each suit; Romanian 11 10 4 3 2), 5 each; the seat after the "
        "dealer leads. Trumps: EO GO HO SO (EO is the baul), then trump A 10 K U.",
        "Follow suit; if void, trump if able; otherwise any card. Aces and Tens 1 point each "
        "(8 in all).",
        "The seat before the dealer cuts or knocks. Knock: 5 cards each, then binding (legare).",
        "Cut: 3 cards each, then the fris window: the first to show an Ober makes fris and "
        "names trump; the dealer may deal on at any time, and any other player who looks at "
        "his last two cards (also after passing) closes the window for all. Then 2 more each; "
        "no fris: binding.",
        "Fris trick: the fris Ober leads; each must play an Unter or King; one who has none "
        "gets his last two cards face up; then he must play an Unter or King if one of his "
        "five cards is one, else any card but an Ober. Nobody plays an Ober on it.",
        "Binding (legare): each in turn binds (3 or 4 trumps with at least one Ober: the count "
        "and the lowest trump), says închis (closed) with five trumps, or passes. Never bind "
        "5, nor 4 with an Ace as the fifth card. One must bind one's strongest binding.",
        "Most trumps wins the binding; equal: the higher lowest trump; still equal: earlier "
        "in turn. Nobody binds: redeal, same dealer.",
        "A binder of three who won the first trick must lead a plain card to the second.",
        "Ladder slugă ↔ egal ↔ șef (servant ↔ even ↔ boss): a team with 6+ points steps up, "
        "the other down (a boss stays boss). After each hand the boss team scores 1; first "
        "to 11 wins the match (then 0-0, both even).",
        "Both even: the deal passes to the next seat; otherwise the two servants deal in turn.",
        "fris_trump option: free (default: the fris maker names any suit) or over_suit (the "
        "suit of the fris Ober).",
        "early_end (default on): the hand stops once no remaining play can change its outcome.",
        "House rules: a player with five trumps says închis and counts as a pass; a seat that "
        "passed the fris window can no longer make fris (it may still look); after a match is "
        "won both teams start even at 0-0.",
    )

    players = 4
    pack = PACK_20
    #: The cut's packets; a knock deals 5 each at once (``knock_holders``).
    packets = (3, 2)
    points = COUNT_POINTS
    total_points = 8
    restricts_play = True
    status_fields = frozenset({"masters", "servant", "score"})

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        assert isinstance(options, Filcau20Options)
        self.free_trump = options.fris_trump == "free"

    # -- dealing ---------------------------------------------------------------------------

    def knock_holders(self, dealer: int) -> tuple[int, ...]:
        """Knocked: five each at once, from the seat after the dealer."""
        return _KNOCK_HOLDERS[dealer]

    def deal_holders(self, dealer: int, mode: str) -> tuple[int, ...]:
        return self.knock_holders(dealer) if mode == "knock" else self.holders(dealer)

    def _give(self, hand: Hand, indexes: Sequence[int], holders: Sequence[int]) -> None:
        """Deal the pack cards at ``indexes`` to their ``holders``."""
        pack = hand.pack
        got: list[list[Card]] = [[] for _ in range(4)]
        for i in indexes:
            got[holders[i]].append(pack[i])
        hand.dealt = tuple([d + tuple(g) for d, g in zip(hand.dealt, got, strict=True)])
        for seat, cards in enumerate(got):
            if cards:
                hand.give(seat, cards)
                # Held in card order, the order the legal cards are listed in
                # (``restrict_play``).
                hand.hands[seat].sort()

    def _second_packet(self, hand: Hand, seat: int) -> list[int]:
        k = (seat - hand.dealer - 1) % 4
        return [12 + 2 * k, 13 + 2 * k]

    def _deal_rest(self, hand: Hand) -> None:
        """The last two cards of each seat that has not had them face up."""
        up = hand.pending.get("face_up", ())
        rest = [i for s in range(4) if s not in up for i in self._second_packet(hand, s)]
        self._give(hand, sorted(rest), self.holders(hand.dealer))

    def start(self, hand: Hand) -> None:
        hand.hands = [[] for _ in range(4)]
        hand.dealt = ((),) * 4
        hand.hands_changed()
        hand.phase = DEAL
        hand.to_move = (hand.dealer - 1) % 4

    # -- status ----------------------------------------------------------------------------

    def check_status(self, status: Status) -> None:
        super().check_status(status)
        if (status.masters is None) != (status.servant is None):
            raise RecordError("Filcau status has a servant exactly when a team is boss (masters)")
        if status.servant is not None and (
            not 0 <= status.servant < 4 or status.servant % 2 == status.masters
        ):
            raise RecordError("status.servant must be a seat of the servant team")
        if status.score is not None and (
            len(status.score) != 2 or not all(0 <= x < MATCH_POINTS for x in status.score)
        ):
            raise RecordError(f"status.score must be two numbers from 0 to {MATCH_POINTS - 1}")
        # A team becomes boss at the end of a hand and scores its game point at once, so a
        # boss team always has one (and a status with a boss always carries the score).
        if status.masters is not None and (status.score or (0, 0))[status.masters] < 1:
            raise RecordError(
                f"the boss team {status.masters} has at least 1 game point (it scores one "
                "after every hand it ends as boss)"
            )

    def check_deal(self, dealer: int, status: Status) -> None:
        # With a boss team the two servants deal in turn: the next dealer is the servant.
        if status.servant is not None and dealer != status.servant:
            raise RecordError(
                f"the servant (seat {status.servant}) deals while a team is boss, not seat {dealer}"
            )

    @staticmethod
    def ladder(masters: int | None, points: Sequence[int]) -> int | None:
        """The boss team after a hand (None: both even)."""
        for team in (0, 1):
            if points[team] >= 6:
                if masters is None or masters == team:
                    return team
                return None  # the servants climb to even, the boss drops to even
        return masters

    def outcome(self, status: Status, points: Sequence[int]) -> Hashable:
        return Status(masters=self.ladder(status.masters, points))

    def _fixed_table(self, status: Status) -> list[list[bool]]:
        # The outcome reads only who is boss, not the match score: one table for each.
        return super()._fixed_table(_BOSS[status.masters])

    def next_dealer(self, masters: int | None, dealer: int) -> int:
        if masters is None:
            return (dealer + 1) % 4
        # The servants deal in turn: the dealer's partner if the dealer is a servant, else
        # the next seat (an opponent of the boss dealer, so a servant).
        return (dealer + 2) % 4 if dealer % 2 != masters else (dealer + 1) % 4

    def match_goal(self) -> str | None:
        return (f"After each hand the masters score 1 game point; the first team to "
                f"{MATCH_POINTS} wins the match.")

    def first_dealer(self, status: Status, rng: random.Random) -> int:
        return rng.randrange(4) if status.servant is None else status.servant

    def settle(self, hand: Hand) -> None:
        before = hand.status
        points = hand.team_points()
        masters = self.ladder(before.masters, points)
        six = next((t for t in (0, 1) if points[t] >= 6), None)
        if masters == before.masters:
            event, team = ("stay_masters", masters) if six is not None else ("no_change", None)
        elif before.masters is None:
            event, team = "masters", masters
        else:
            event, team = "liberated", six
        score = list(before.score or (0, 0))
        if masters is not None:
            score[masters] += 1
        extra: dict[str, Any] = {"score": tuple(score)}
        nxt = self.next_dealer(masters, hand.dealer)
        if masters is not None and score[masters] >= MATCH_POINTS:
            extra["match_winner"] = [masters]
            extra["final_status"] = Status(
                masters=masters, servant=nxt, score=(score[0], score[1])
            ).to_json()
            status = Status(score=(0, 0))
            nxt = (hand.dealer + 1) % 4
        elif masters is None:
            status = Status(score=(score[0], score[1]))
        else:
            status = Status(masters=masters, servant=nxt, score=(score[0], score[1]))
        self.finish(hand, HandResult(
            points=tuple(points), status_before=before, status=status, next_dealer=nxt,
            event=event, team=team, early=any(hand.hands), extra=extra,
        ))

    def _redeal(self, hand: Hand) -> None:
        self.finish(hand, HandResult(
            points=(0, 0), status_before=hand.status, status=hand.status,
            next_dealer=hand.dealer, event="redeal",
        ))

    # -- the phases before play ----------------------------------------------------------

    def window_timeout(self, hand: Hand) -> tuple[int, Action] | None:
        # Nobody made fris in time: the dealer deals on (RULINGS: the window closes when the
        # dealer deals on or after the table's timeout).
        return (hand.dealer, DEAL_ON) if hand.phase == FRIS else None

    def hold_back(self, hand: Hand, seat: int) -> bool:
        # A computer dealer deals on only once everybody else has passed (or the window's
        # time runs out); it still makes fris at once when it wants to.
        return hand.phase == FRIS and seat == hand.dealer and len(self.actors(hand)) > 1

    def actors(self, hand: Hand) -> list[int]:
        # The seats the window waits for. A seat that passed is not one of them (nobody
        # waits for it) although it may still look (``phase_legal``).
        if hand.phase == FRIS:
            out = hand.pending.get("fris_passed", ())
            seats = [(hand.dealer + k) % 4 for k in range(1, 5)]
            return [s for s in seats if s == hand.dealer or s not in out]
        return super().actors(hand)

    def action_parts(self, action: Action) -> dict[str, Any] | None:
        """A fris always with both parts, the Ober and the trump it names (its notation
        leaves the trump out when it is the Ober's own suit)."""
        if action.kind == "fris":
            fris: Fris = action.value
            return {"over": code(fris.over), "trump": suit_letter(fris.trump)}
        return super().action_parts(action)

    def _fris_actions(self, hand: Hand, seat: int) -> list[Action]:
        out: list[Action] = []
        for c in OVERS:
            if c in hand.hands[seat]:
                suits = SUITS if self.free_trump else (suit_of(c),)
                out.extend(Action("fris", Fris(c, s)) for s in suits)
        return out

    def phase_legal(self, hand: Hand, seat: int) -> list[Action]:
        phase = hand.phase
        if phase == FRIS:
            if seat in hand.pending.get("fris_passed", ()):
                # RULINGS: any seat but the dealer may look while the window is open, also
                # after declining to fris.
                return [LOOK]
            if seat not in self.actors(hand):
                return []
            if seat == hand.dealer:
                return [*self._fris_actions(hand, seat), DEAL_ON]
            return [*self._fris_actions(hand, seat), PASS, LOOK]
        if seat != hand.to_move:
            return []
        if phase == DEAL:
            return [CUT, KNOCK]
        if phase == BIND:
            return list(bind_choices(hand.hands[seat]))
        if phase == FRIS_TRICK:
            cards = self._fris_cards(hand, seat)
            return [Action("card", c) for c in cards] if cards else [FACE_UP]
        return []

    def _fris_cards(self, hand: Hand, seat: int) -> list[Card]:
        held = hand.sort_hand(hand.hands[seat])
        if not hand.trick:
            return [hand.pending["fris"][1].over]
        small = [c for c in held if rank_of(c) in _SMALL]
        if seat in hand.pending.get("face_up", ()):
            # Seed rules 3, 4, 6: a Ten or Ace only with no Under or King even after the turn.
            return small or [c for c in held if c not in _OVER_SET]
        return small

    def phase_apply(self, hand: Hand, seat: int, action: Action) -> None:
        kind = action.kind
        if kind == "deal":
            hand.pending["deal"] = action.value
            if action.value == "knock":
                self._give(hand, range(20), self.knock_holders(hand.dealer))
                self._open_binding(hand)
            else:
                self._give(hand, range(12), self.holders(hand.dealer))
                hand.phase = FRIS
                hand.to_move = hand.dealer
        elif kind in ("deal_on", "look"):
            self._deal_rest(hand)
            self._open_binding(hand)
        elif kind == "fris":
            fris: Fris = action.value
            hand.pending["fris"] = (seat, fris)
            hand.shown.append(fris.over)
            hand.set_trump(fris.trump)
            hand.restricted = False  # no binder, no duty to lead plain
            hand.phase = FRIS_TRICK
            hand.leader = hand.to_move = seat
        elif kind == "pass" and hand.phase == FRIS:
            hand.pending["fris_passed"] = (*hand.pending.get("fris_passed", ()), seat)
        elif kind in ("pass", "bind", "closed"):
            said = action.value if kind == "bind" else kind
            hand.pending["binds"] = (*hand.pending.get("binds", ()), (seat, said))
            if seat == hand.dealer:
                self._close_binding(hand)
            else:
                hand.to_move = (seat + 1) % 4
        elif kind == "face_up":
            hand.pending["face_up"] = (*hand.pending.get("face_up", ()), seat)
            packet = self._second_packet(hand, seat)
            self._give(hand, packet, self.holders(hand.dealer))
            hand.shown.extend(hand.pack[i] for i in packet)
        elif kind == "card":
            self._fris_play(hand, seat, action.value)

    def _open_binding(self, hand: Hand) -> None:
        hand.phase = BIND
        hand.to_move = (hand.dealer + 1) % 4

    def _close_binding(self, hand: Hand) -> None:
        best: tuple[int, Bind] | None = None
        for seat, said in hand.pending.get("binds", ()):
            if isinstance(said, Bind) and (best is None or bind_key(said) > bind_key(best[1])):
                best = (seat, said)
        if best is None:
            self._redeal(hand)
            return
        hand.pending["binder"] = best
        # Only a binder of three may owe a plain lead (``restrict_play``).
        hand.restricted = best[1].number == 3
        hand.set_trump(best[1].trump)
        hand.phase = PLAYING
        hand.leader = hand.to_move = (hand.dealer + 1) % 4

    def _fris_play(self, hand: Hand, seat: int, c: Card) -> None:
        """A card to the fris trick (played here: the trick loop of ``Hand`` knows no
        face-up request), then the rest of the deal and ordinary play."""
        hand.discard(seat, (c,))
        hand.trick.append(c)
        if len(hand.trick) < 4:
            hand.to_move = (seat + 1) % 4
            return
        order = hand.order
        assert order is not None
        trick = tuple(hand.trick)
        winner = (hand.leader + order.winner(trick)) % 4
        won = sum(self.points[x] for x in trick)
        hand.taken[winner] += won
        hand.team_taken[hand.team[winner]] += won
        hand.tricks.append(Trick(hand.leader, trick, winner))
        hand.trick = []
        self._deal_rest(hand)
        hand.phase = PLAYING
        hand.leader = hand.to_move = winner

    def explain(self, hand: Hand, seat: int, action: Action) -> IllegalAction:
        phase, kind = hand.phase, action.kind
        if not isinstance(seat, int) or not 0 <= seat < 4:
            return IllegalAction("no_such_seat", f"there is no seat {seat}", seat=seat)
        if phase == FRIS and kind == "fris" and seat in self.actors(hand):
            return IllegalAction(
                "fris_without_over", f"seat {seat} cannot make fris with that "
                f"{'' if self.free_trump else '(the Ober names its own suit) '}card",
                seat=seat,
            )
        if phase == FRIS and seat in hand.pending.get("fris_passed", ()):
            if action.value is False:
                return flag_false(action)
            return IllegalAction(
                "not_your_turn", f"seat {seat} declined to fris: it may only look at its last "
                "two cards now", seat=seat,
            )
        if seat not in self.actors(hand):
            return IllegalAction("not_your_turn", f"seat {seat} may not act now", seat=seat)
        if action.value is False:
            return flag_false(action)
        if phase == BIND and kind == "bind":
            if CLOSED in self.phase_legal(hand, seat):
                return IllegalAction(
                    "must_say_closed", "with five trumps one cannot bind: say închis"
                )
            return IllegalAction(
                "bind_not_strongest", "one may only bind one's strongest binding "
                "(3 or 4 trumps with an Ober, not 4 with an Ace beside)",
            )
        if phase == FRIS_TRICK and kind == "card":
            c = action.value
            if c not in hand.hands[seat]:
                return IllegalAction("not_your_card", f"seat {seat} does not hold {code(c)}",
                                     seat=seat, card=code(c))
            if not hand.trick:
                return IllegalAction("must_lead_fris_over", "the fris Ober leads the fris trick")
            if c in _OVER_SET:
                return IllegalAction("no_over_on_fris", "nobody may play an Ober on the fris")
            if FACE_UP in self.phase_legal(hand, seat):
                return IllegalAction(
                    "must_turn_face_up", "without Unter or King, ask for the last two cards "
                    "face up first",
                )
            return IllegalAction("fris_small_card", "on the fris one must play an Unter or King",
                                 card=code(c))
        if phase == FRIS_TRICK and kind == "face_up":
            return IllegalAction("face_up_has_small", "only a player without Unter or King may "
                                 "ask for his cards face up")
        return IllegalAction(
            "wrong_phase", f"{action} is not allowed now ({phase})", phase=phase
        )

    # -- the binder of three's lead --------------------------------------------------------

    def _plain_lead_due(self, hand: Hand, seat: int) -> bool:
        binder = hand.pending.get("binder")
        return (
            binder is not None and binder[0] == seat and binder[1].number == 3
            and len(hand.tricks) == 1 and not hand.trick and hand.tricks[0].winner == seat
        )

    def restrict_play(self, hand: Hand, seat: int, cards: list[Card]) -> list[Card]:
        if self._plain_lead_due(hand, seat):
            order = hand.order
            assert order is not None
            cards = [c for c in cards if order.suit[c] != TRUMP] or cards
        elif hand.tricks:
            # Past the first trick, the lead to the second was the binder's duty or nobody's.
            hand.restricted = False
        # In card order, not the order dealt (which nobody else knows).
        return sorted(cards)

    def explain_card(self, hand: Hand, seat: int, card_: Card) -> IllegalAction | None:
        if self._plain_lead_due(hand, seat) and card_ not in self.restrict_play(
            hand, seat, list(hand.hands[seat])
        ):
            return IllegalAction(
                "must_lead_plain", "a binder of three who won the first trick leads a plain "
                "card", card=code(card_),
            )
        return None

    # -- what the table sees -------------------------------------------------------------

    def public_info(self, hand: Hand) -> dict[str, Any]:
        p = hand.pending
        binds = []
        for seat, said in p.get("binds", ()):
            if isinstance(said, Bind):
                binds.append({"seat": seat, "bind": _dump_bind(said)})
            else:
                binds.append({"seat": seat, said: True})
        binder = p.get("binder")
        fris = p.get("fris")
        score = hand.status.score or (0, 0)
        return {
            "deal": p.get("deal"),
            "bindings": binds,
            "binding": None if binder is None else {"seat": binder[0], **_dump_bind(binder[1])},
            "fris": None if fris is None else {
                "seat": fris[0], "over": code(fris[1].over), "trump": suit_letter(fris[1].trump)
            },
            "fris_passed": list(p.get("fris_passed", ())),
            "face_up": [
                {"seat": s, "cards": [code(c) for c in hand.dealt[s][3:5]]}
                for s in p.get("face_up", ())
            ],
            "score": list(score),
        }

    def private_info(self, hand: Hand, seat: int) -> dict[str, Any]:
        # Which of its cards came in the first packet (a cut's three): search players need
        # it to rebuild the deal.
        return {"first": [code(c) for c in sorted(hand.dealt[seat][:3])]}

    # -- computer players --------------------------------------------------------------------

    def suggest(self, view: SeatView) -> Action | None:
        legal = view.legal
        if not legal:
            return None
        kinds = {a.kind for a in legal}
        seat = view.seat
        if "deal" in kinds:
            return CUT
        if view.phase == FRIS:
            fris = self._fris_choice(view.hand, legal)
            if fris is not None:
                return fris
            return DEAL_ON if DEAL_ON in legal else PASS
        if view.phase == BIND:
            if CLOSED in legal:
                return CLOSED
            binds = [a for a in legal if a.kind == "bind"]
            if not binds:
                return PASS
            mine = max(binds, key=lambda a: bind_key(a.value))
            best: tuple[int, Bind] | None = None
            for entry in view.public.get("bindings", ()):
                if "bind" in entry:
                    b = _parse_bind(entry["bind"])
                    if best is None or bind_key(b) > bind_key(best[1]):
                        best = (entry["seat"], b)
            if best is not None and bind_key(best[1]) >= bind_key(mine.value):
                return PASS
            if best is not None and view.team[best[0]] == view.team[seat] and mine.value.number < 4:
                return PASS  # the partner's trump will do
            return mine
        return None

    @staticmethod
    def _fris_choice(held: Sequence[Card], legal: Sequence[Action]) -> Action | None:
        """Fris with an Over and another trump for the suit it names (or the acorn Over,
        the baul); name the suit with most trumps, Aces and Tens first."""
        fris = [a for a in legal if a.kind == "fris"]
        if not fris:
            return None

        def worth(a: Action) -> tuple[int, int, int]:
            f: Fris = a.value
            trumps = trumps_for(held, f.trump)
            return (len(trumps), sum(COUNT_POINTS[c] for c in trumps), -OVERS.index(f.over))

        best = max(fris, key=worth)
        f = best.value
        if len(trumps_for(held, f.trump)) >= 2 or f.over == OVERS[0]:
            return best
        return None

    def determinize(self, view: SeatView, hidden: Mapping[int, Sequence[Card]]) -> Hand | None:
        """Rebuild the deal: played and held cards to their seats, face-up cards in their
        seat's second packet, the fris Over and the cards played to the fris trick in the
        first, cards not dealt yet where they lie. Past actions are replayed without
        checking them against the guess (a guess that ignores a binding or a void still
        gives a playable sample). Decisions before play use the rule of thumb."""
        if view.phase in (DEAL, FRIS, BIND):
            raise RecordError("decided by rule of thumb")
        if view.order is None:
            raise RecordError("no trump yet")
        info = view.public
        mode = info.get("deal") or "cut"
        dealer = view.dealer
        holders = self.deal_holders(dealer, mode)
        n = 4
        plays: list[list[Card]] = [[] for _ in range(n)]
        fris_cards: dict[int, Card] = {}
        for ti, t in enumerate(view.tricks):
            for i, c in enumerate(t.cards):
                plays[(t.leader + i) % n].append(c)
                if ti == 0 and info.get("fris") is not None:
                    fris_cards[(t.leader + i) % n] = c
        for i, c in enumerate(view.trick):
            s = (view.leader + i) % n
            plays[s].append(c)
            if not view.tricks and info.get("fris") is not None:
                fris_cards[s] = c
        hidden = self._fitting_guess(view, hidden, plays)
        first_own = [card(x) for x in view.private.get("first", ())]
        pack: list[Card | None] = [None] * 20
        # Shown cards (the fris Over, face-up cards) lie where everybody saw them.
        for c, i in zip(view.shown, view.shown_at, strict=True):
            pack[i] = c
        shown = set(view.shown)
        used: set[Card] = set(shown)
        for seat in range(n):
            held = list(view.hand) if seat == view.seat else list(hidden.get(seat, ()))
            cards = plays[seat] + held
            slots = [i for i, h in enumerate(holders) if h == seat]
            # A cut's second packet is dealt once the seat holds five cards.
            if mode == "cut" and len(cards) < 5:
                slots = slots[:3]
            must_first = {fris_cards.get(seat)} | (set(first_own) if seat == view.seat else set())
            early = [c for c in cards if c in must_first and c not in shown]
            ordered = early + [c for c in cards if c not in shown and c not in early]
            free_slots = [i for i in slots if pack[i] is None]
            if len(ordered) != len(free_slots):
                raise RecordError(f"seat {seat} cannot have been dealt these cards")
            for i, c in zip(free_slots, ordered, strict=True):
                pack[i] = c
            used.update(cards)
        spare = [c for c in self.pack if c not in used]
        free = [i for i, c in enumerate(pack) if c is None]
        if len(spare) != len(free):
            raise RecordError("the guess does not fill the deal")
        for i, c in zip(free, spare, strict=True):
            pack[i] = c
        hand = Hand(self, dealer, pack, view.status)  # type: ignore[arg-type]
        for seat, action in view.actions:
            if action is None:
                raise RecordError("a hidden action")
            if hand.phase == PLAYING:
                if action.value not in hand.hands[seat]:
                    raise RecordError("the guess cannot replay the view")
                hand._legal = (action,)  # replayed as it was played, whatever the guess
                hand.apply(seat, action)
            else:
                if action.kind == "card" and action.value not in hand.hands[seat]:
                    raise RecordError("the guess cannot replay the view")
                hand.actions.append((seat, action))
                self.phase_apply(hand, seat, action)
                hand.hands_changed()
        if hand.phase != view.phase or hand.to_move != view.to_move:
            raise RecordError("the replayed hand does not reach the view's state")
        return hand


    def _fitting_guess(
        self, view: SeatView, hidden: Mapping[int, Sequence[Card]], plays: list[list[Card]]
    ) -> Mapping[int, Sequence[Card]]:
        """The guess, or a re-deal of its cards among the same seats (a few tries, seeded by
        the guess itself so the rebuild stays a function of view and guess) that agrees with
        what the table saw: voids shown in play after the fris trick, each seat's binding (or
        închis, or none) and a face-up request made without Under or King."""
        order = view.order
        assert order is not None
        info = view.public
        shown = set(view.shown)
        others = [s for s in range(4) if s != view.seat and s in hidden]
        pool = [c for s in others for c in hidden[s] if c not in shown]
        fixed = {s: [c for c in hidden[s] if c in shown] for s in others}
        sizes = {s: len(hidden[s]) - len(fixed[s]) for s in others}
        said = {seat: b for seat, b in self._binds_said(info)}
        up = {e["seat"]: {card(x) for x in e["cards"]} for e in info.get("face_up", ())}
        # Plays after which a seat is known to lack a suit (or trumps too).
        voids: list[tuple[int, int, bool, int]] = []   # (seat, suit, no trumps either, index)
        skip_first = info.get("fris") is not None
        tricks = [t.cards for t in view.tricks] + ([tuple(view.trick)] if view.trick else [])
        leaders = [t.leader for t in view.tricks] + [view.leader]
        count = [0] * 4
        for ti, cards in enumerate(tricks):
            led = order.suit[cards[0]]
            for i, c in enumerate(cards):
                seat = (leaders[ti] + i) % 4
                count[seat] += 1
                if i and not (skip_first and ti == 0) and order.suit[c] != led:
                    no_trump = led != TRUMP and order.suit[c] != TRUMP
                    voids.append((seat, led, no_trump, count[seat]))

        def fits(guess: Mapping[int, Sequence[Card]]) -> bool:
            for seat in others:
                dealt = plays[seat] + list(guess[seat])
                if seat in said and len(dealt) == 5:
                    b = said[seat]
                    if b == "closed" and not is_closed(dealt):
                        return False
                    if b != "closed" and is_closed(dealt):
                        return False
                    if isinstance(b, Bind) and b not in strongest(dealt):
                        return False
                # Asked for the last two face up: the first three held no Under or King.
                if seat in up and any(rank_of(c) in _SMALL for c in dealt if c not in up[seat]):
                    return False
            for seat, suit, no_trump, k in voids:
                if seat not in others:
                    continue
                later = plays[seat][k:] + list(guess[seat])
                if any(order.suit[c] == suit or (no_trump and order.suit[c] == TRUMP)
                       for c in later):
                    return False
            return True

        if fits(hidden) or not pool:
            return hidden
        rng = random.Random(repr(sorted((s, sorted(h)) for s, h in hidden.items())))
        for _ in range(60):
            rng.shuffle(pool)
            guess: dict[int, list[Card]] = {}
            i = 0
            for s in others:
                guess[s] = fixed[s] + pool[i:i + sizes[s]]
                i += sizes[s]
            if fits(guess):
                return guess
        return hidden

    @staticmethod
    def _binds_said(info: Mapping[str, Any]) -> list[tuple[int, Bind | str]]:
        out: list[tuple[int, Bind | str]] = []
        for entry in info.get("bindings", ()):
            if "bind" in entry:
                out.append((entry["seat"], _parse_bind(entry["bind"])))
            elif entry.get("closed"):
                out.append((entry["seat"], "closed"))
            else:
                out.append((entry["seat"], "pass"))
        return out


__all__ = ["BIND", "DEAL", "FRIS", "FRIS_TRICK", "Bind", "Filcau20", "Fris", "bindings",
           "strongest"]
