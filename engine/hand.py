"""One hand (one deal) of any game in the family, as a state machine.

A ``Hand`` is built from what a game record holds: the rules (game and options), the dealer,
the status before the hand and the pack, top card first. Everything after that is actions:

>>> from engine import Hand, make_rules, cards
>>> hand = Hand(make_rules("filicau"), dealer=0, pack=cards.PACK_32)
>>> hand.to_move, cards.suit_letter(hand.trump)   # the seat after the dealer leads
(1, 'E')
>>> first = hand.legal_actions()[0]
>>> hand.apply(1, first)
>>> hand.to_move
2

The play of tricks is the same for every game and lives here, kept tight because computer
players and the benchmark run it millions of times. What differs between games (how trump is
chosen, extra phases before or after play, duties on top of follow-suit, scoring and status)
are hooks on the ``Rules`` object.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.actions import BYTE_PLAYS, PLAY, Action, IllegalAction
from engine.cards import BIT, SUIT_NAMES, TRUMP, Card, code
from engine.status import EVEN, RecordError, Status
from engine.trumps import TrumpOrder, trump_order

if TYPE_CHECKING:
    from engine.rules.base import Rules

#: Phases every game shares. Games with bidding add their own (strings, so records read well).
PLAYING = "play"
#: The hand is over and nothing is owed. (Not ``engine.cards.OVER``, the card rank.)
FINISHED = "finished"


class Trick(NamedTuple):
    leader: int
    cards: tuple[Card, ...]
    winner: int


#: ``PLAY`` and ``BIT`` as lists (a list's ``__getitem__`` is a plain builtin method, a
#: tuple's a slot wrapper that costs several times as much a call), and ``PLAY[c]`` as a
#: fast callable.
_PLAYS = list(PLAY)
_BITS = list(BIT)
_play_of = _PLAYS.__getitem__

#: ``Trick._make`` without its Python-level call, for the hot path.
_new_trick = tuple.__new__


@dataclass(frozen=True, init=False)
class HandResult:
    """What a finished hand decided."""

    #: Points taken per team (teams as in ``Hand.team``).
    points: tuple[int, ...]
    status_before: Status
    status: Status
    next_dealer: int
    #: What happened, as a key for the bot's messages: ``ran_away``, ``masters``,
    #: ``stay_masters``, ``no_change``, ``liberated``...
    event: str
    #: The team the event is about (the new masters, the team that ran away), if any.
    team: int | None = None
    #: True when the hand stopped early because no remaining play could change the outcome,
    #: or because the game's rules end it there.
    early: bool = False
    #: Why it stopped early, where the game's rules ended it (a key of
    #: ``Rules.early_reasons``: a lost Tout, a claim); "" when no card could change the
    #: outcome any more.
    early_reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: Each seat's team as the hand ended (``Hand.team``; set by ``Rules.finish``): a result
    #: names who played with whom, also where the teams formed in the deal.
    teams: tuple[int, ...] = ()
    #: What each of those teams was (``Rules.side_roles``: ``("declarer", "defenders")``,
    #: the Old Man's side and the others...); ``()`` where sides have no role.
    sides: tuple[str, ...] = ()

    def __init__(
        self, points: tuple[int, ...], status_before: Status, status: Status, next_dealer: int,
        event: str, team: int | None = None, early: bool = False, early_reason: str = "",
        extra: dict[str, Any] | None = None, teams: tuple[int, ...] = (),
        sides: tuple[str, ...] = (),
    ) -> None:
        # Every hand and every search playout ends with a result: one dict for all fields
        # costs half what a frozen dataclass's object.__setattr__ per field does.
        object.__setattr__(self, "__dict__", {
            "points": points, "status_before": status_before, "status": status,
            "next_dealer": next_dealer, "event": event, "team": team, "early": early,
            "early_reason": early_reason, "extra": {} if extra is None else extra,
            "teams": teams, "sides": sides,
        })


# ``HandResult.__init__`` is written out (for speed): a field added to the class alone would
# be refused as an argument, so the two lists are compared once, at import.
if list(inspect.signature(HandResult.__init__).parameters)[1:] != [
        f.name for f in fields(HandResult)]:
    raise TypeError("HandResult.__init__ must take every HandResult field, in order")


class Hand:
    """The state of one hand. Mutable, like python-chess's ``Board``: ``apply`` changes it in
    place after checking the action; ``copy`` gives an independent state to explore."""

    __slots__ = (
        "_fast",
        "_led",
        "_legal",
        "_masks",
        "_phase",
        "_playing",
        "_suit",
        "_suit_masks",
        "actions",
        "dealer",
        "dealt",
        "hands",
        "leader",
        "n",
        "order",
        "pack",
        "pending",
        "play_over",
        "restricted",
        "result",
        "rules",
        "shown",
        "status",
        "taken",
        "team",
        "team_taken",
        "to_move",
        "trick",
        "tricks",
        "trump",
    )

    rules: Rules
    n: int
    dealer: int
    status: Status
    pack: tuple[Card, ...]
    dealt: tuple[tuple[Card, ...], ...]
    hands: list[list[Card]]
    order: TrumpOrder | None
    trump: int | None
    shown: list[Card]
    team: list[int]
    _phase: str
    _playing: bool
    _fast: bool
    #: True once the last card is played or the hand stopped early (a Servant may still be
    #: owed): from then on the unplayed cards are public.
    play_over: bool
    #: True while the game's ``restrict_play`` may still narrow the legal cards (it starts
    #: as ``rules.restricts_play``); a game clears it once its duties are over for the hand,
    #: and the hand stops asking. (``duties_over()`` goes further: no must-beat either, and
    #: the plays listed in card order, as in the plain games.)
    restricted: bool
    to_move: int | None
    leader: int
    trick: list[Card]
    tricks: list[Trick]
    taken: list[int]
    team_taken: list[int]
    actions: list[tuple[int, Action]]
    result: HandResult | None
    #: Scratch space for a game's own phases (bids so far, the called card...).
    pending: dict[str, Any]
    _legal: tuple[Action, ...] | None
    _masks: list[int]
    _suit_masks: tuple[int, ...]
    _suit: tuple[int, ...]
    _led: int

    def __init__(
        self, rules: Rules, dealer: int, pack: Sequence[Card], status: Status = EVEN, *,
        check: bool = True,
    ) -> None:
        """``check=False`` skips checking dealer, pack and status: only for a deal the
        engine made itself (``Match.deal``: the rules' pack shuffled, the status and dealer
        a hand's result), never for what a record or a caller gives."""
        self.rules = rules
        self.n = n = rules.players
        if check:
            if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
                raise RecordError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
            if len(pack) != len(rules.pack) or frozenset(pack) != rules.pack_set or (
                    rules.twice and sorted(pack) != rules.pack_sorted):
                raise RecordError(_pack_problem(pack, rules.pack))
            rules.check_status(status)
            rules.check_deal(dealer, status)
        self.dealer = dealer
        self.status = status
        self.pack = pack = tuple(pack)
        self.dealt = dealt = rules.deal(pack, dealer)
        self.hands = list(map(list, dealt))
        # (``held_mask`` where the pack holds every card twice: a hand is a multiset.)
        self._masks = list(map(rules.mask_of, dealt))
        self.order = None
        self.trump = None
        self.shown = []
        self.team = list(rules.seat_teams)
        self.trick = []
        self.tricks = []
        self.taken = [0] * n
        self.team_taken = [0] * rules.teams
        self.actions = []
        self.result = None
        self.pending = {}
        self._legal = None
        self._suit_masks = ()
        self._suit = ()
        self._led = TRUMP
        self.leader = (dealer + 1) % n
        self.to_move = self.leader
        self.phase = PLAYING
        self.play_over = False
        self.restricted = rules.restricts_play
        rules.start(self)

    @property
    def phase(self) -> str:
        """``play``, ``finished``, or a game's own phase (``servant``, bidding...)."""
        return self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        self._phase = value
        self._playing = value == PLAYING
        # Follow suit and trump are the only duties: legal plays take the mask path.
        self._fast = self._playing and self.rules.plain_play
        self._legal = None

    # -- what can be done ------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """The hand is over and nothing is owed (a Servant still to choose counts as owed)."""
        return self.phase == FINISHED

    def actors(self) -> list[int]:
        """The seats that may act now (one, except in a game's free-for-all windows)."""
        if self.phase == PLAYING or self.phase == FINISHED:
            return [] if self.to_move is None else [self.to_move]
        return self.rules.actors(self)

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """The actions allowed now, for ``seat`` (default: the seat to move)."""
        legal = self._legal
        to_move = self.to_move
        if seat is None or seat == to_move:
            if legal is not None:
                return legal
            if self._playing and to_move is not None:
                # Follow suit; if void, trump (where the game says so); otherwise anything.
                # Hands are bit masks here.
                mask = held = self._masks[to_move]
                if self.trick:
                    mask = held & self._suit_masks[self._led]
                    if not mask:
                        if self.rules.must_trump:
                            mask = held & self._suit_masks[TRUMP]
                        if not mask:
                            mask = held
                if self._fast:
                    # No other duty: four table lookups make the tuple of plays.
                    b0, b1, b2, b3 = BYTE_PLAYS
                    legal = self._legal = (
                        b0[mask & 255] + b1[mask >> 8 & 255] + b2[mask >> 16 & 255]
                        + b3[mask >> 24]
                    )
                    return legal
                legal = self._legal = self._special_plays(to_move, mask)
                return legal
        return self._legal_slow(seat)

    def _legal_slow(self, seat: int | None) -> tuple[Action, ...]:
        to_move = self.to_move
        if seat is not None and seat != to_move:
            # Another seat than the one to move: only games with open windows allow that.
            if self._playing or self._phase == FINISHED:
                return ()
            return tuple(self.rules.phase_legal(self, seat))
        if to_move is None or self._playing or self._phase == FINISHED:
            legal: tuple[Action, ...] = ()  # (the play's own legal cards are listed above)
        else:
            legal = tuple(self.rules.phase_legal(self, to_move))
        self._legal = legal
        return legal

    def _special_plays(self, seat: int, mask: int) -> tuple[Action, ...]:
        """Legal plays in games with duties beyond follow-suit-and-trump, in the order the
        seat holds its cards, from ``mask`` (what follow-suit allows). The common duties are
        bit masks, as on the plain path."""
        rules = self.rules
        if rules.must_beat and self.trick:
            # Beat the trick's best card if able (with the cards that follow as required).
            order = self.order
            assert order is not None
            best = max(self.trick, key=order.led_key[self._led])
            beating = mask & order.beaters[best]
            if beating:
                mask = beating
        cards: list[Card] = self.hands[seat]
        whole = mask == self._masks[seat]
        if self.restricted:
            if not whole:
                cards = [c for c in cards if _BITS[c] & mask]
            return tuple(map(_play_of, rules.restrict_play(self, seat, list(cards))))
        if whole:
            return tuple(map(_play_of, cards))
        # A loop, not a comprehension and a map: this runs for every card of these games.
        bits, plays = _BITS, _PLAYS
        legal = []
        for c in cards:
            if bits[c] & mask:
                legal.append(plays[c])
        return tuple(legal)

    def legal_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now (empty unless it is that seat's turn to play)."""
        if self.phase != PLAYING or seat != self.to_move:
            return []
        return [a.value for a in self.legal_actions(seat)]

    # -- doing it --------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Apply ``action`` by ``seat``, or raise ``IllegalAction`` and change nothing."""
        if not self._playing:
            self._apply_phase(seat, action)
            return
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if seat != self.to_move or action not in legal:
            if action[0] in self.rules.free_kinds:
                self._apply_free(seat, action)
                return
            raise self._explain(seat, action)
        # The trick-taking loop of every game, kept flat: search and the benchmark run it
        # millions of times.
        self._legal = None
        self.actions.append((seat, action))
        c = action[1]
        self.hands[seat].remove(c)
        self._masks[seat] ^= 1 << c
        trick = self.trick
        trick.append(c)
        n = self.n
        if len(trick) < n:
            if len(trick) == 1:
                self._led = self._suit[c]
            self.to_move = seat + 1 if seat + 1 < n else 0
            return
        leader = self.leader
        # The winner is the trick's strongest card in the led suit's ranking
        # (TrumpOrder.winner, inlined: this runs for every trick of every search).
        key = self.order.led_key[self._led]  # type: ignore[union-attr]
        winner = (leader + trick.index(max(trick, key=key))) % n
        rules = self.rules
        won = sum(map(rules.point_of, trick))
        if won:
            self.taken[winner] += won
            self.team_taken[self.team[winner]] += won
        self.tricks.append(_new_trick(Trick, (leader, tuple(trick), winner)))
        self.trick = []
        self.leader = self.to_move = winner
        if rules.after_trick is not None:
            rules.after_trick(self)
        if not self.hands[winner] or (rules.early_end and rules.outcome_fixed(self)):
            self.to_move = None
            self._legal = None
            self.play_over = True
            rules.settle(self)

    def free_actions(self, seat: int) -> tuple[Action, ...]:
        """The out-of-turn actions ``seat`` may take now (a partner signal), beside its turn."""
        if self._phase == FINISHED or not self.rules.free_kinds:
            return ()
        return tuple(self.rules.free_legal(self, seat))

    def _apply_free(self, seat: int, action: Action) -> None:
        if action not in self.free_actions(seat):
            raise self.rules.explain(self, seat, action)
        self.actions.append((seat, action))
        self.rules.free_apply(self, seat, action)
        # It may change what the seat to move may do (Doppelkopf: a reply now in time).
        self._legal = None

    def _apply_phase(self, seat: int, action: Action) -> None:
        if self._phase == FINISHED:
            raise IllegalAction("hand_over", "the hand is over")
        if action not in self.legal_actions(seat):
            if action[0] in self.rules.free_kinds:
                self._apply_free(seat, action)
                return
            raise self.rules.explain(self, seat, action)
        self._legal = None
        self.actions.append((seat, action))
        self.rules.phase_apply(self, seat, action)
        self._legal = None

    def _explain(self, seat: int, action: Action) -> IllegalAction:
        if self.phase == FINISHED:
            return IllegalAction("hand_over", "the hand is over")
        if action.kind != "card":
            return IllegalAction("wrong_phase", f"it is time to play a card, not to {action.kind}")
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            return IllegalAction("no_such_seat", f"there is no seat {seat}", seat=seat)
        if seat != self.to_move:
            return IllegalAction(
                "not_your_turn", f"not seat {seat}'s turn: seat {self.to_move} is to play",
                seat=seat, to_move=self.to_move,
            )
        c = action.value
        if c not in self.hands[seat]:
            return IllegalAction(
                "not_your_card", f"seat {seat} does not hold {code(c)}", seat=seat, card=code(c)
            )
        reason = self.rules.explain_card(self, seat, c)
        if reason is not None:
            return reason
        order = self.order
        assert order is not None
        led = order.suit[self.trick[0]]
        hand = self.hands[seat]
        if any(order.suit[x] == led for x in hand) and order.suit[c] != led:
            name = "trumps" if led == TRUMP else SUIT_NAMES[led]
            return IllegalAction(
                "must_follow", f"{code(c)} does not follow suit: seat {seat} must play {name}",
                card=code(c), suit=name,
            )
        if (self.rules.must_trump and order.suit[c] != led and order.suit[c] != TRUMP
                and any(order.suit[x] == TRUMP for x in hand)):
            return IllegalAction(
                "must_trump", f"{code(c)} is no trump: seat {seat} cannot follow and must trump",
                card=code(c),
            )
        return IllegalAction(
            "must_beat", f"{code(c)} does not beat the trick: seat {seat} must beat it if able",
            card=code(c),
        )

    # -- reading it ------------------------------------------------------------------------

    def team_points(self) -> list[int]:
        """Points taken by each team so far."""
        return self.team_taken[:]

    def set_team(self, seat: int, team: int) -> None:
        """Put ``seat`` in ``team`` (games whose teams form during the hand), moving the
        points it has taken."""
        old = self.team[seat]
        self.team_taken[old] -= self.taken[seat]
        self.team_taken[team] += self.taken[seat]
        self.team[seat] = team

    def played(self) -> list[Card]:
        return [c for t in self.tricks for c in t.cards] + self.trick

    def sort_hand(self, cards: Sequence[Card]) -> list[Card]:
        """Cards as a player holds them: trumps first, strongest first, then by suit."""
        if self.order is None:
            return sorted(cards)
        return sorted(cards, key=self.order.sort_key)

    def copy(self) -> Hand:
        """An independent copy (for search); rules and the pack are shared, being immutable."""
        new = Hand.__new__(Hand)
        new.rules = self.rules
        new.n = self.n
        new.dealer = self.dealer
        new.status = self.status
        new.pack = self.pack
        new.dealt = self.dealt
        new.hands = [h[:] for h in self.hands]
        new.order = self.order
        new.trump = self.trump
        new.shown = self.shown[:]
        new.team = self.team[:]
        new._phase = self._phase
        new._playing = self._playing
        new._fast = self._fast
        new.play_over = self.play_over
        new.restricted = self.restricted
        new.to_move = self.to_move
        new.leader = self.leader
        new.trick = self.trick[:]
        new.tricks = self.tricks[:]
        new.taken = self.taken[:]
        new.team_taken = self.team_taken[:]
        new.actions = self.actions[:]
        new.result = self.result
        new.pending = dict(self.pending)
        new._legal = self._legal
        new._suit_masks = self._suit_masks
        new._masks = self._masks[:]
        new._suit = self._suit
        new._led = self._led
        return new

    def set_trump(self, trump_suit: int | None) -> None:
        """Fix trump (rules hooks call this once trump is known)."""
        self.set_order(trump_order(self.rules.top_trumps, trump_suit))

    def set_order(self, order: TrumpOrder) -> None:
        """Rank the cards by ``order``: for games whose top trumps change from hand to hand
        (Bavarian Schafkopf's Wenz has only the Unders), or whose plain suits rank otherwise
        (its Bettel). ``trump`` becomes the order's trump suit."""
        self.trump = order.trump_suit
        self.order = order
        self._suit = order.suit
        self._suit_masks = order.masks
        self._legal = None

    def duties_over(self) -> None:
        """No duty beyond following suit (and trumping, where the game says so) is left in
        this hand's play: a game whose duties end during the hand (Bavarian Schafkopf's called
        Ace, once its suit has been led) lets its legal plays take the fast path from here. A
        change of phase goes back to what the rules say."""
        self._fast = self._playing
        self._legal = None

    def give(self, seat: int, cards: Iterable[Card]) -> None:
        """Add ``cards`` to what ``seat`` holds (a widow taken, cards dealt or turned up
        during the hand), keeping the hand's masks in step."""
        held = self.hands[seat]
        mask = self._masks[seat]
        for c in cards:
            held.append(c)
            mask |= 1 << c
        self._masks[seat] = mask
        self._legal = None

    def give_card(self, seat: int, c: Card) -> None:
        """``give`` for one card (Officers' turned-up cards, one or two every trick)."""
        self.hands[seat].append(c)
        self._masks[seat] |= 1 << c
        self._legal = None

    def discard(self, seat: int, cards: Iterable[Card]) -> None:
        """Take ``cards`` out of what ``seat`` holds (cards buried), masks in step."""
        held = self.hands[seat]
        mask = self._masks[seat]
        for c in cards:
            held.remove(c)
            mask &= ~(1 << c)
        self._masks[seat] = mask
        self._legal = None

    def hands_changed(self) -> None:
        """Phases that move cards between hands (widow, burying; in a pack with every card
        twice, any move: ``give`` and ``discard`` assume each card once) call this."""
        self._masks = list(map(self.rules.mask_of, self.hands))
        self._legal = None

    def fold_pairs(self, twice: Sequence[int]) -> tuple[int, ...]:
        """In a pack with every card twice (``Rules.twice``) a seat's mask has each card it
        holds once, however many copies, and the game keeps ``twice``, each seat's mask of
        the cards it holds twice. The trick loop's one ``^`` clears a card's bit when either
        copy is played: for a seat that held it twice, put the bit back, and return what
        each seat still holds twice. A seat plays once a trick, so the game calls this after
        each trick (``Rules.after_trick``) and the masks are right again for the next.

        >>> from engine import make_rules
        >>> from engine.cards import card, twice_mask
        >>> hand = Hand(make_rules("doppelkopf"), 3, make_rules("doppelkopf").pack)
        >>> eo = card("EO")
        >>> hand.hands[1].count(eo), twice_mask(hand.hands[1]) >> eo & 1
        (2, 1)
        >>> twice = [twice_mask(h) for h in hand.hands]
        >>> hand._masks[1] ^= 1 << eo; hand.hands[1].remove(eo)   # what a play of EO does
        >>> twice = hand.fold_pairs(twice)
        >>> hand._masks[1] >> eo & 1, twice[1] >> eo & 1
        (1, 0)
        """
        masks = self._masks
        out = []
        for s, two in enumerate(twice):
            lone = two & ~masks[s]
            if lone:
                masks[s] |= lone
                two ^= lone
            out.append(two)
        self._legal = None
        return tuple(out)

    def give_trick(self, winner: int) -> None:
        """The trick just completed goes to ``winner``, who leads next, rather than to the
        seat its strongest card gave it to: for a game whose rule for two identical cards
        ranks the later one higher (Doppelkopf's Dullen, D2.6). Only from
        ``Rules.after_trick``, before anything else reads the trick."""
        t = self.tricks[-1]
        if t.winner == winner:
            return
        won = sum(map(self.rules.point_of, t.cards))
        team = self.team
        self.taken[t.winner] -= won
        self.team_taken[team[t.winner]] -= won
        self.taken[winner] += won
        self.team_taken[team[winner]] += won
        self.tricks[-1] = Trick(t.leader, t.cards, winner)
        self.leader = self.to_move = winner
        self._legal = None


def _pack_problem(pack: Sequence[Card], expected: Sequence[Card]) -> str:
    from collections import Counter

    have, want = Counter(pack), Counter(expected)
    extra = sorted((have - want).elements())
    missing = sorted((want - have).elements())
    each = "twice" if len(set(expected)) < len(expected) else "once"
    parts = [f"the pack must hold the game's {len(set(expected))} cards {each} each"]
    if missing:
        parts.append("missing " + " ".join(code(c) for c in missing))
    if extra:
        parts.append("extra or repeated " + " ".join(code(c) for c in extra))
    return "; ".join(parts)
