"""Doppelkopf for the computer players: rules of thumb and the rebuild of hidden hands.

``suggest`` is the rule of thumb for every choice that is not a card in ``play``: the
Vorbehalt (a solo when the hand would make most tricks alone; the Hochzeit with both ``EO``,
kept stille only with a hand that wins alone; the Armut with two trumps or fewer, or three
low ones), the solo a vorgeführt seat names, the Armut's cards, taking it (with eight trumps),
and in the first tricks (``ansagen``) both the announcements (Re or Kontra with a hand that
expects to win, an Absage with one that expects to win big) and the cards (a plain Ace first,
points onto a known partner's trick, the cheapest card that takes a trick worth taking).
Easy plays by it throughout; Normal for everything before the ``play`` phase; Hard searches
the ``ansagen`` phase's choices (``searched_choices``), each played out through the rest of
the announcements by this rule of thumb (``thumb``), and the cards after it.

``determinize`` deals the cards a seat cannot see consistently with everything public, and
checks each guess by replaying the deal's actions on it: the voids shown by not following;
the Hochzeit's both ``EO`` with its player; a seat shown Kontra in a normal game holds no
``EO`` (and one that announced Re must hold one: the replay refuses its Re otherwise); the
hidden Vorbehalte given kinds that lose to the one that won; an Armut's three cards each way
(the trumps given back are public). A stille Hochzeit the table cannot see is drawn less
often than chance would (a player with both ``EO`` usually says Hochzeit).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from engine.actions import PLAY, Action, IllegalAction
from engine.cards import ACE, CARD_POINTS, PACK_24, TEN, TRUMP, Card, card, twice_mask
from engine.determinize import plays_so_far
from engine.hand import PLAYING, Hand
from engine.inference import Knowledge, sample
from engine.rules.doppelkopf import parties
from engine.rules.doppelkopf.deck import ALTE, FUCHS, NORMAL_SUIT, SOLOS, order_of, trumps_of
from engine.rules.doppelkopf.games import (
    ARMUT,
    HOCHZEIT,
    NORMAL,
    NORMAL_GAMES,
    SOLO_OF_WORD,
    STILLE,
    order_key,
)
from engine.rules.doppelkopf.kinds import (
    ANSAGE,
    ANSAGEN,
    ARMUT_KIND,
    GESUND_ACTION,
    GIVE_BACK,
    LAY,
    MITNEHMEN,
    RE,
    RESERVE,
    RUECKGABE,
    SOLO_ACTIONS,
    TAKE_ACTION,
    VORBEHALT,
    VORBEHALT_KIND,
    VORFUEHREN,
    WEITER_ACTION,
    level_of,
)
from engine.rules.doppelkopf.kinds import ARMUT as ARMUT_PHASE
from engine.rules.doppelkopf.protocol import DoppelkopfRules
from engine.status import RecordError, Status
from engine.trumps import TrumpOrder

if TYPE_CHECKING:
    from engine.view import SeatView

#: The phases before the tricks: the rules of thumb decide them (``determinize`` refuses).
BEFORE_PLAY = frozenset({VORBEHALT, VORFUEHREN, ARMUT_PHASE, MITNEHMEN, RUECKGABE})


# -- how strong a hand is --------------------------------------------------------------------------


def strength(game: str, cards: Sequence[Card]) -> float:
    """A rough count of the tricks ``cards`` make in ``game`` (a solo's name or ``normal``),
    scaled to twelve cards: each trump by its rank among the game's trumps, each plain Ace
    (a Ten with it), and with trumps enough the plain suits one is void in."""
    suit, value, plain_suits, few = _values(game)
    total = 0.0
    trumps = 0
    count, aces, tens = [0] * 5, [0] * 5, [0] * 5
    for c in cards:
        s = suit[c]
        if s == TRUMP:
            total += value[c]
            trumps += 1
            continue
        count[s] += 1
        rank = c & 7
        if rank == ACE:
            aces[s] += 1
        elif rank == TEN:
            tens[s] += 1
    for s in plain_suits:
        a = aces[s]
        if a:
            # Two Aces of one suit: the second wins only if the suit goes round twice.
            total += 0.85 + 0.35 * (a - 1)
            if tens[s] and (few or count[s] <= 3):
                total += 0.3
    if trumps >= (4 if few else 7):
        total += 0.3 * sum(1 for s in plain_suits if not count[s])
    return total * 12 / max(1, len(cards))


@lru_cache(maxsize=16)
def _values(game: str) -> tuple[tuple[int, ...], tuple[float, ...], tuple[int, ...], bool]:
    """``strength``'s tables for ``game``: the suit each card follows, each trump's worth by
    its rank among the game's trumps, the plain suits, whether trumps are few."""
    key = game if game in SOLOS else order_key(game)
    order = order_of(key)
    trumps = trumps_of(key)
    few = len(trumps) <= 4  # Damen-, Bubensolo
    value = [0.0] * 32
    for r, c in enumerate(trumps):
        value[c] = max(0.3, 1.0 - (0.18 if few else 0.06) * r)
    plain = tuple(sorted({order.suit[c] for c in PACK_24} - {TRUMP}))
    return order.suit, tuple(value), plain, few


#: The tricks (of twelve) a hand should expect to make alone before its seat plays a solo,
#: and the trumps it needs.
SOLO_BAR = 8.35
SOLO_TRUMPS = {"damen": 4, "buben": 4, "fleischlos": 0}


def best_solo(solos: Sequence[str], cards: Sequence[Card]) -> tuple[str, float]:
    """The solo ``cards`` would play best among ``solos``, and how far it clears the bar."""
    best, margin = solos[0], -99.0
    for s in solos:
        order = order_of(s)
        trumps = sum(1 for c in cards if order.suit[c] == TRUMP)
        if trumps < SOLO_TRUMPS.get(s, 8) * len(cards) / 12:
            continue
        m = strength(s, cards) - SOLO_BAR
        if s == "fleischlos":
            m -= 0.6  # no trump to come back with: riskier than its count says
        if m > margin:
            best, margin = s, m
    return best, margin


#: A party's strength (``strength`` of the normal game) to say Re or Kontra, and for each
#: Absage after it.
ANSAGE_BAR = {1: 6.6, 2: 8.6, 3: 9.8, 4: 10.8, 5: 11.6}


# -- the rules of thumb ---------------------------------------------------------------------------


def suggest(rules: DoppelkopfRules, view: SeatView) -> Action | None:
    phase = view.phase
    cards = list(view.hand)
    legal = view.legal
    if phase == VORBEHALT:
        return _reservation(rules, cards, legal, view.status, view.seat)
    if phase == VORFUEHREN:
        solos = [a.value for a in legal]
        return SOLO_ACTIONS[best_solo(solos, cards)[0]]
    if phase == ARMUT_PHASE:
        return min(legal, key=lambda a: _lay_cost(a.value))
    if phase == MITNEHMEN:
        trumps = sum(1 for c in cards if NORMAL_SUIT[c] == TRUMP)
        return TAKE_ACTION if trumps >= 8 and TAKE_ACTION in legal else WEITER_ACTION
    if phase == RUECKGABE:
        return min(legal, key=lambda a: _return_cost(a.value, cards))
    if phase == ANSAGEN:
        order = view.order
        assert order is not None
        party = view.team[view.seat]
        if party is None:
            party = view.private.get("team")
        plays = plays_so_far(view)
        return _early_trick(
            order, view.card_points, cards, legal, list(view.trick), view.leader, view.seat,
            list(view.team), party, plays, _game(view.public.get("spiel")))
    return None


def thumb(rules: DoppelkopfRules, hand: Hand, seat: int) -> Action | None:
    """``suggest`` in the ``ansagen`` phase worked out from the hand without building the
    seat's view (the search settles the rest of that phase by it, for every sample and every
    choice), reading only what the view shows the seat: its cards, its legal actions, the
    tricks, the parties the table knows and its own."""
    if hand.phase != ANSAGEN:
        return None
    order = hand.order
    assert order is not None
    shown = parties.shown(hand)
    party = parties.own_party(hand, seat)
    plays = [((t.leader + i) % 4, c) for t in hand.tricks for i, c in enumerate(t.cards)]
    plays += [((hand.leader + i) % 4, c) for i, c in enumerate(hand.trick)]
    kind = hand.pending["kind"]
    game = NORMAL if kind in NORMAL_GAMES or kind in (HOCHZEIT, ARMUT) else kind
    return _early_trick(order, rules.points, list(hand.hands[seat]),
                        hand.legal_actions(seat), list(hand.trick), hand.leader, seat, shown,
                        party, plays, game)


def _game(contract: str | None) -> str:
    """The ``strength`` key of the table's game word."""
    return SOLO_OF_WORD.get(contract or "", NORMAL)


def _reservation(rules: DoppelkopfRules, cards: list[Card], legal: Sequence[Action],
                 status: Status, seat: int) -> Action:
    kinds = [a.value for a in legal if a.kind == VORBEHALT_KIND]
    solos = [k for k in kinds if k in SOLOS]
    if solos:
        solo, margin = best_solo(solos, cards)
        if rules.owes(status, seat):
            # A Pflichtsolo is owed: better a fair hand now than a poor one vorgeführt.
            margin += 1.2
        if margin >= 0:
            return RESERVE[solo]
    if HOCHZEIT in kinds:
        if strength(NORMAL, cards) >= 10.0:
            return GESUND_ACTION  # a stille Hochzeit: this hand wins alone
        return RESERVE[HOCHZEIT]
    if ARMUT_KIND in kinds:
        trumps = [c for c in cards if NORMAL_SUIT[c] == TRUMP]
        top = order_of(NORMAL).permanent[:5]
        if len(trumps) <= 2 or not any(c in top for c in trumps):
            return RESERVE[ARMUT_KIND]
    return GESUND_ACTION


def _lay_cost(cards: tuple[Card, ...]) -> tuple[int, int]:
    """The Armut seat keeps its Aces: it lays aside the cheapest plain cards."""
    plain = [c for c in cards if NORMAL_SUIT[c] != TRUMP]
    return (sum(1 for c in plain if c % 8 == ACE), sum(CARD_POINTS[c] for c in plain))


def _return_cost(cards: tuple[Card, ...], held: Sequence[Card]) -> tuple[int, int, int]:
    """The taker gives back no trump if he can, and the plain cards that leave him void."""
    trumps = sum(1 for c in cards if NORMAL_SUIT[c] == TRUMP)
    left = list(held)
    for c in cards:
        left.remove(c)
    suits = {NORMAL_SUIT[c] for c in left if NORMAL_SUIT[c] != TRUMP}
    return (trumps, len(suits), -sum(CARD_POINTS[c] for c in cards if c % 8 == ACE))


def _early_trick(order: TrumpOrder, points: Sequence[int], cards: list[Card],
                 legal: Sequence[Action], trick: list[Card], leader: int, me: int,
                 shown: Sequence[int | None], party: int | None,
                 plays: Sequence[tuple[int, Card]], game: str) -> Action:
    """An announcement, or the card to play, in the first tricks."""
    ansagen = [a for a in legal if a.kind == ANSAGE]
    if ansagen:
        lowest = min(ansagen, key=lambda a: level_of(a.value))
        level = level_of(lowest.value)
        bar = ANSAGE_BAR[level] + (0.0 if party == RE else 0.4)
        if strength(game, cards) >= bar:
            return lowest
    plays_only = [a.value for a in legal if a.kind == "card"]
    return PLAY[card_choice(order, points, plays_only, cards, trick, leader, me, shown, party,
                            plays)]


def card_choice(order: TrumpOrder, points: Sequence[int], legal: list[Card],
                held: Sequence[Card], trick: list[Card], leader: int, me: int,
                shown: Sequence[int | None], party: int | None,
                plays: Sequence[tuple[int, Card]]) -> Card:
    """A card by rule of thumb (``legal``: the plays allowed, each once)."""
    if len(legal) == 1:
        return legal[0]
    suit, power = order.suit, order.power

    def cost(c: Card) -> tuple[int, bool, int]:
        # What a card costs to throw: Augen, being a trump, strength; the Fuchs is dear.
        return (points[c] + (20 if c == FUCHS else 0), suit[c] == TRUMP, power[c])

    led_suits = {suit[c] for i, (_, c) in enumerate(plays) if i % 4 == 0}
    if not trick:
        aces = [c for c in legal if suit[c] != TRUMP and c % 8 == ACE and suit[c] not in led_suits]
        if aces:
            return min(aces, key=lambda c: sum(1 for x in held if suit[x] == suit[c]))
        trumps = [c for c in legal if suit[c] == TRUMP]
        if party == RE and len(trumps) >= 5:
            return min(trumps, key=lambda c: (c == FUCHS, power[c]))
        plain = [c for c in legal if suit[c] != TRUMP]
        return min(plain or legal, key=cost)
    win_i = order.winner(trick)
    best = trick[win_i]
    winner = (leader + win_i) % 4
    last = len(trick) == 3
    mate = party is not None and shown[winner] == party and winner != me
    # A partner's trick is safe enough for points when nobody is left to play, or when he
    # holds it with a trump as high as the third-best top trump.
    top = order.permanent
    safe = last or (suit[best] == TRUMP and (len(top) < 4 or power[best] >= power[top[3]]))
    if mate and safe:
        givers = [c for c in legal if not order.beats(c, best) or suit[c] != TRUMP]
        return max(givers or legal, key=lambda c: (points[c], -power[c]))
    in_trick = sum(points[c] for c in trick)
    winners = [c for c in legal if order.beats(c, best)]
    if winners and (in_trick >= 10 or last or any(points[c] >= 10 for c in winners)):
        plain = [c for c in winners if suit[c] != TRUMP]
        if plain:
            return max(plain, key=lambda c: points[c])
        if last or in_trick >= 10:
            return min(winners, key=lambda c: (c == FUCHS and not last, power[c]))
    return min(legal, key=cost)


# -- the rebuild of hidden hands ------------------------------------------------------------------


@dataclass(frozen=True)
class _Knowledge(Knowledge):
    """``Knowledge`` with cards each seat is known not to hold (``forbidden[s]``, a mask)."""

    forbidden: tuple[int, ...] = ()

    def allowed(self, seat: int, c: Card) -> bool:
        return not (self.void[seat] >> self.suit[c] & 1 or self.forbidden[seat] >> c & 1)


#: The chance that a drawn deal with a stille Hochzeit nobody has seen is kept.
STILLE_KEPT = 0.15


def knowledge(rules: DoppelkopfRules, view: SeatView) -> tuple[_Knowledge, list[tuple[int, Card]]]:
    """What ``view.seat`` knows of the cards it cannot see, and the plays so far."""
    me = view.seat
    order = view.order
    assert order is not None
    plays = plays_so_far(view)
    public = view.public
    known: list[list[Card]] = [[] for _ in range(4)]
    armut = view.private.get("armut")
    declarer, partner = public.get("declarer"), public.get("partner")
    contract = public.get("spiel")
    if armut and contract == ARMUT and partner is not None and declarer is not None:
        # The two of an Armut know where the six cards went: what the Armut seat laid aside
        # and did not get back is with the taker, what the taker gave back and had not been
        # given is with the Armut seat (until played).
        laid, back = [card(x) for x in armut["laid"]], [card(x) for x in armut["returned"]]
        other: int = partner if me == declarer else declarer
        moved = _less(laid, back) if other == partner else _less(back, laid)
        known[other] = _less(moved, [c for s, c in plays if s == other])
    void = [0] * 4
    forbidden = [0] * 4
    led = TRUMP
    for i, (seat, c) in enumerate(plays):
        if i % 4 == 0:
            led = order.suit[c]
        elif order.suit[c] != led:
            void[seat] |= 1 << led
    alte = 1 << ALTE
    if contract == HOCHZEIT or contract == "hochzeit_solo" or contract == "stille_hochzeit":
        for s in range(4):
            if s != declarer:
                forbidden[s] |= alte
    elif contract == "normalspiel":
        for s in range(4):
            if view.team[s] == 1:
                forbidden[s] |= alte  # D5.6 (e), (c): Kontra holds no Kreuz-Dame
    seen = list(view.hand) + [c for _, c in plays] + [c for h in known for c in h]
    unknown = list(rules.pack)
    for c in seen:
        unknown.remove(c)
    need = tuple(0 if s == me else view.hand_sizes[s] - len(known[s]) for s in range(4))
    k = _Knowledge(me, tuple(unknown), tuple(map(tuple, known)), need, tuple(void),
                   order.suit, tuple(forbidden))
    return k, plays


def determinize(rules: DoppelkopfRules, view: SeatView, hidden: Mapping[int, Sequence[Card]]
                ) -> Hand:
    """A full hand consistent with ``view`` (see the module's doc); ``hidden`` only seeds the
    draw. Raises ``RecordError`` before the tricks (the rules of thumb decide there)."""
    if view.phase != PLAYING:
        # Before the tricks and while announcements are open, the rules of thumb decide:
        # searching the first tricks' cards and announcements, played out through the rest
        # of them, costs several times a decision's time.
        raise RecordError("the choices before the announcements end are decided by rule "
                          "of thumb")
    global _built
    built = _built
    if built is None or built[0] is not view:
        k, plays = knowledge(rules, view)
        built = _built = (view, (k, plays), {}, [])
    k, plays = built[1]
    seed = repr(sorted((s, sorted(c)) for s, c in hidden.items()))
    done = built[2].get(seed)
    if done is not None:
        return done.copy()
    rng = random.Random(seed)
    template = built[3]
    quick = _quick(rules, view)
    for _ in range(60):
        guess = sample(k, rng)
        if quick and template:
            hand = _reshuffled(rules, view, plays, guess, template[0], rng)
        else:
            hand = _rebuild(rules, view, plays, guess, rng)
            if hand is not None and quick:
                template.append(hand.copy())
        if hand is not None:
            built[2][seed] = hand
            return hand.copy()
    raise RecordError("no deal fits what the table has seen")


#: The last view, its knowledge and plays, the deals rebuilt for it by the seed of their
#: draw, and the first of them (``_reshuffled``'s template).
_built: tuple[object, tuple[_Knowledge, list[tuple[int, Card]]], dict[str, Hand],
              list[Hand]] | None = None


def _quick(rules: DoppelkopfRules, view: SeatView) -> bool:
    """Whether ``_reshuffled`` may stand in for the replay: the hidden cards decide nothing
    of the deal's course but the parties of a normal game (no Armut, no Schweinchen, no
    other seat's Vorbehalt that lost, whose kind the replay must choose for each guess)."""
    if rules.opts.schweinchen or view.public.get("spiel") in (ARMUT, None):
        return False
    winner = _winning_reservation(view)
    return all(a is not None or s == view.seat or (winner is not None and s == winner[0])
               for s, a in view.actions)


def _reshuffled(rules: DoppelkopfRules, view: SeatView, plays: Sequence[tuple[int, Card]],
                guess: Mapping[int, Sequence[Card]], template: Hand, rng: random.Random
                ) -> Hand | None:
    """``_rebuild`` without the replay: ``template``, a rebuilt deal of the same view, with
    this guess's cards dealt in (the pack, the hands, their masks), the normal game's parties
    worked out again from the ``EO`` (a stille Hochzeit where one seat holds both), and the
    same check of the parties the table has seen. Everything else (the tricks, who took
    what, the announcements) the cards of the guess cannot change."""
    me = view.seat
    now = [list(view.hand) if s == me else list(guess.get(s, ())) for s in range(4)]
    if any(len(now[s]) != view.hand_sizes[s] for s in range(4)):
        return None
    after = [list(h) for h in now]
    for seat, c in plays:
        after[seat].append(c)
    p = template.pending
    kind, declarer, alone = p["kind"], p["declarer"], p["alone"]
    if view.public.get("spiel") == "normalspiel":
        both = [s for s in range(4) if after[s].count(ALTE) == 2]
        if both and both[0] != me and rng.random() > STILLE_KEPT:
            return None
        kind, declarer, alone = (STILLE, both[0], True) if both else (NORMAL, None, False)
    holders = rules.holders(view.dealer)
    nxt = [iter(d) for d in after]
    try:
        pack = tuple(next(nxt[seat]) for seat in holders)
    except StopIteration:
        return None
    hand = template.copy()
    hand.pack = pack
    hand.dealt = rules.deal(pack, view.dealer)
    hand.hands = [list(d) for d in hand.dealt]
    for seat, c in plays:
        hand.hands[seat].remove(c)
    if kind in NORMAL_GAMES:
        re = {declarer} if kind == STILLE else {s for s in range(4) if ALTE in after[s]}
        hand.team = [0 if s in re else 1 for s in range(4)]
        hand.team_taken = [sum(hand.taken[s] for s in range(4) if hand.team[s] == t)
                           for t in (0, 1)]
    pending = hand.pending
    pending.pop("_shown", None)
    pending.update(kind=kind, declarer=declarer, alone=alone,
                   twice=tuple(map(twice_mask, hand.hands)))
    hand.hands_changed()
    if tuple(parties.shown(hand)) != tuple(view.team):
        return None
    return hand


def _rebuild(rules: DoppelkopfRules, view: SeatView, plays: Sequence[tuple[int, Card]],
             guess: Mapping[int, Sequence[Card]], rng: random.Random) -> Hand | None:
    me = view.seat
    now = [list(view.hand) if s == me else list(guess.get(s, ())) for s in range(4)]
    if any(len(now[s]) != view.hand_sizes[s] for s in range(4)):
        return None
    after = [list(h) for h in now]
    for seat, c in plays:
        after[seat].append(c)
    public = view.public
    contract = public.get("spiel")
    if contract == "normalspiel":
        both = [s for s in range(4) if after[s].count(ALTE) == 2]
        if both and both[0] != me and rng.random() > STILLE_KEPT:
            return None
    lay: tuple[Card, ...] | None = None
    back: tuple[Card, ...] | None = None
    dealt = after
    if contract == ARMUT and public.get("partner") is not None:
        got = _armut_exchange(view, after, rng)
        if got is None:
            return None
        dealt, lay, back = got
    holders = rules.holders(view.dealer)
    nxt = [iter(d) for d in dealt]
    try:
        pack = [next(nxt[seat]) for seat in holders]
    except StopIteration:
        return None
    hand = Hand(view.rules, view.dealer, pack, view.status)
    winner = _winning_reservation(view)
    mine = view.private.get("vorbehalt")
    try:
        for seat, action in view.actions:
            if action is None:
                action = _hidden_action(rules, hand, seat, me, mine, winner, lay, back)
                if action is None:
                    return None
            hand.apply(seat, action)
    except IllegalAction:
        return None
    if hand.phase != view.phase or hand.to_move != view.to_move or \
            tuple(parties.shown(hand)) != tuple(view.team):
        return None
    return hand


def _winning_reservation(view: SeatView) -> tuple[int, str] | None:
    """The seat and kind of the Vorbehalt that won, as the table knows it."""
    contract = view.public.get("spiel")
    declarer = view.public.get("declarer")
    if declarer is None or contract is None:
        return None
    if contract in SOLO_OF_WORD:
        if view.public.get("vorgefuehrt") is not None:
            return None
        return declarer, SOLO_OF_WORD[contract]
    if contract in (HOCHZEIT, "hochzeit_solo"):
        return declarer, HOCHZEIT
    if contract == ARMUT:
        return declarer, ARMUT_KIND
    return None


def _hidden_action(rules: DoppelkopfRules, hand: Hand, seat: int, me: int, mine: str | None,
                   winner: tuple[int, str] | None, lay: tuple[Card, ...] | None,
                   back: tuple[Card, ...] | None) -> Action | None:
    """The value of an action the view hides, as it must have been in this guess."""
    phase = hand.phase
    if phase == VORBEHALT:
        if seat == me and mine is not None:
            return RESERVE[mine]
        if winner is not None and winner[0] == seat:
            return RESERVE[winner[1]]
        # A Vorbehalt that lost: the lowest kind this hand could have said (the replay, and
        # the check of the view's state after it, refuse one that would have won).
        kinds = rules.reservations(hand.hands[seat], hand.status, seat)
        for kind in (HOCHZEIT, ARMUT_KIND, *SOLOS):
            if kind in kinds:
                return RESERVE[kind]
        return None
    if phase == ARMUT_PHASE and lay is not None:
        return Action(LAY, lay)
    if phase == RUECKGABE and back is not None:
        return Action(GIVE_BACK, back)
    return None


def _armut_exchange(view: SeatView, after: list[list[Card]], rng: random.Random
                    ) -> tuple[list[list[Card]], tuple[Card, ...], tuple[Card, ...]] | None:
    """Each seat's cards as dealt, undoing an Armut's exchange (D5.8), with the three cards
    laid aside and given back: known to the two of the Armut, drawn for the others (the
    Armut seat's trumps after it are exactly those given back; what it laid aside came from
    the taker's fifteen)."""
    public = view.public
    declarer, taker = public["declarer"], public["partner"]
    own = view.private.get("armut")
    a_after, t_after = list(after[declarer]), list(after[taker])
    if own:
        lay = [card(x) for x in own["laid"]]
        back = [card(x) for x in own["returned"]]
    else:
        trumps = [c for c in a_after if NORMAL_SUIT[c] == TRUMP]
        if len(trumps) != public.get("armut_trumps_back", 0):
            return None
        plain = [c for c in a_after if NORMAL_SUIT[c] != TRUMP]
        if len(plain) < 3 - len(trumps):
            return None
        back = trumps + rng.sample(plain, 3 - len(trumps))
        pool = t_after + back
        pool_trumps = [c for c in pool if NORMAL_SUIT[c] == TRUMP]
        rng.shuffle(pool_trumps)
        lay = pool_trumps[:3]
        rest = list(pool)
        for c in lay:
            rest.remove(c)
        lay += rng.sample(rest, 3 - len(lay))
        if lay.count(ALTE) == 2:
            return None
    dealt = [list(h) for h in after]
    a_dealt, t_dealt = list(a_after), list(t_after)
    try:
        for c in back:
            a_dealt.remove(c)
        t_dealt.extend(back)
        for c in lay:
            t_dealt.remove(c)
    except ValueError:
        return None
    a_dealt.extend(lay)
    dealt[declarer], dealt[taker] = a_dealt, t_dealt
    return dealt, tuple(sorted(lay)), tuple(sorted(back))


def _less(cards: Sequence[Card], taken: Sequence[Card]) -> list[Card]:
    """``cards`` less ``taken``, as multisets."""
    out = list(cards)
    for c in taken:
        if c in out:
            out.remove(c)
    return out
