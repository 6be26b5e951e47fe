"""Bavarian Schafkopf for the computer players: rules of thumb and the rebuild of hidden hands.

``suggest`` is the rule of thumb for every choice that is not a card (and for the cards of a
Ramsch or of a Bettel's declarer, who want no tricks): Easy plays by it, Normal uses it for
everything before play, and Hard for what it does not search (knocking, the Hochzeit).
Hard weighs the announcement, the clarification, the game and the doublings by search: each
sample rebuilds the hand (``determinize``) and plays every choice out.

``determinize`` deals the cards a seat cannot see consistently with everything public: the
voids shown by not following, the open hand of a failed claim, the declarer of a Sauspiel
not holding the Ace he called (and holding a card of its suit), the Hochzeit's exchange (the
declarer had one trump and has none left). A guess is checked by replaying every action of
the deal on it (the called Ace's duties included); a guess the replay refuses is drawn again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from engine.actions import Action, IllegalAction
from engine.cards import ACE, KING, OVER, TEN, TRUMP, UNDER, Card, card, rank_of, suit_of
from engine.determinize import plays_so_far
from engine.hand import PLAYING, Hand
from engine.inference import Knowledge, sample
from engine.rules.bavarian import kinds as g
from engine.rules.bavarian.games import (
    BETTEL,
    FARBGEIER,
    FARBWENZ,
    GEIER,
    HOCHZEIT,
    RAMSCH,
    SAUSPIEL,
    SIE,
    SOLO,
    WENZ,
    Contract,
    order_of,
    trumps_of,
)
from engine.rules.bavarian.protocol import BavarianRules
from engine.rules.thumbs import least_card
from engine.status import RecordError

if TYPE_CHECKING:
    from engine.view import SeatView


# -- rules of thumb ----------------------------------------------------------------------------


def strength(contract: Contract, cards: Sequence[Card], pack: Sequence[Card]) -> float:
    """A rough count of the tricks ``cards`` make when their holder declares ``contract``:
    each trump by its rank among the game's trumps, plain Aces, Tens behind their Ace, and
    (with trumps enough to use them) the plain suits one is void in."""
    order = order_of(contract)
    trumps = trumps_of(contract, pack)
    rank = _ranks(trumps)
    mine = [c for c in cards if order.suit[c] == TRUMP]
    wenzlike = len(trumps) <= 4
    total = 0.0
    for c in mine:
        r = rank[c]
        total += max(0.35, (1.0 - 0.1 * r) if wenzlike else (1.0 - 0.08 * r))
    plain_suits = {order.suit[c] for c in cards if order.suit[c] != TRUMP}
    for s in plain_suits:
        held = [c for c in cards if order.suit[c] == s]
        top = max(held, key=lambda c: order.power[c])
        if rank_of(top) == ACE:
            total += 1.0 if wenzlike else 0.85
            if any(rank_of(c) == TEN for c in held):
                total += 0.6 if wenzlike else 0.4
    if len(mine) >= (2 if wenzlike else 4):
        suits = {order.suit[c] for c in pack if order.suit[c] != TRUMP}
        total += 0.3 * len(suits - plain_suits)
    return total * 8 / max(1, len(cards) if len(cards) >= 6 else 8)


@lru_cache(maxsize=64)
def _ranks(trumps: tuple[Card, ...]) -> dict[Card, int]:
    return {c: i for i, c in enumerate(trumps)}


def _tout_safe(contract: Contract, cards: Sequence[Card], pack: Sequence[Card]) -> bool:
    """A Tout only with the top trumps and nothing that can lose a trick."""
    order = order_of(contract)
    trumps = trumps_of(contract, pack)
    mine = [c for c in cards if order.suit[c] == TRUMP]
    if len(mine) < len(cards) - 1:
        return False
    top = all(c in cards for c in trumps[:len(mine)])
    plain = [c for c in cards if order.suit[c] != TRUMP]
    return top and all(rank_of(c) == ACE for c in plain)


def _bettel_safe(cards: Sequence[Card]) -> bool:
    """A Bettel only with low cards: nothing above a Ten (Bettel's ranks) but one Unter."""
    high = sum(1 for c in cards if rank_of(c) in (ACE, KING, OVER))
    unders = sum(1 for c in cards if rank_of(c) == UNDER)
    return high == 0 and unders <= 1


def _call_score(cards: Sequence[Card], suit: int) -> tuple[int, int]:
    """Which Ace a good player calls: the suit he holds fewest cards of (one is best: the
    partner's Ace wins its trick alone), without its Ten if he can."""
    held = [c for c in cards if suit_of(c) == suit and rank_of(c) not in (OVER, UNDER)]
    return (len(held), sum(1 for c in held if rank_of(c) == TEN))


#: How strong a hand must be to play each kind of game (``strength``), and the trumps it
#: needs. A Sauspiel counts on the partner.
NEEDS = {SAUSPIEL: (2.9, 4), SOLO: (4.7, 6), WENZ: (5.0, 2), GEIER: (5.0, 2),
         FARBWENZ: (4.9, 5), FARBGEIER: (4.9, 5), HOCHZEIT: (0.0, 1)}


def best_game(rules: BavarianRules, cards: Sequence[Card], games: Sequence[Contract]
              ) -> tuple[Contract | None, float]:
    """The game a player holding ``cards`` would play, by rule of thumb, among ``games``
    (None when none looks good), with how far it clears its bar."""
    pack = rules.pack
    best: tuple[Contract | None, float] = (None, -99.0)
    for c in games:
        if c.kind == SIE:
            return c, 99.0
        if c.kind == BETTEL:
            margin = 0.5 if _bettel_safe(cards) else -9.0
        elif c.tout:
            margin = 2.0 + strength(c, cards, pack) if _tout_safe(c, cards, pack) else -9.0
        else:
            bar, trumps = NEEDS[c.kind]
            order = order_of(c)
            count = sum(1 for x in cards if order.suit[x] == TRUMP)
            if count < trumps * len(cards) / 8:
                continue
            margin = strength(c, cards, pack) - bar
            if c.kind == SAUSPIEL:
                margin -= 0.05 * _call_score(cards, c.suit)[0]  # type: ignore[arg-type]
            if c.kind == HOCHZEIT:
                margin = 0.2 - strength(Contract(SAUSPIEL, 0), cards, pack) / 20
        if margin > best[1]:
            best = (c, margin)
    return best if best[1] >= 0 else (None, best[1])


def own_team(view: SeatView) -> int | None:
    """The seat's party as it knows it: public, or its own secret."""
    team = view.team[view.seat]
    return view.private.get("team") if team is None else team


def _stoss_margin(rules: BavarianRules, contract: Contract, cards: Sequence[Card],
                  team: int | None) -> float:
    """How clearly the seat expects its party to win: for a Kontra, the opponent's own hand
    against the declared game; for a Re, the declarer's margin over his bar."""
    mine = strength(contract, cards, rules.pack)
    if team == g.DECLARING:
        bar, _ = NEEDS.get(contract.kind, (5.0, 0))
        return mine - bar - 1.5
    # An opponent of a Sauspiel needs about half the trumps' power; of a Solo, more.
    return mine - (3.6 if contract.kind in (SAUSPIEL, HOCHZEIT) else 4.6)


def suggest(rules: BavarianRules, view: SeatView) -> Action | None:
    legal = view.legal
    phase = view.phase
    cards = view.hand
    if phase in _BIDDING:
        return _bidding(rules, phase, cards, legal)
    if phase in g.WINDOWS:
        return _window(rules, Contract.parse(view.public["contract"]), cards, legal,
                       own_team(view))
    if phase == g.KNOCK:
        tops = sum(1 for c in cards if rank_of(c) in (OVER, UNDER))
        return Action(g.KLOPFEN if tops >= 3 else g.WEITER, True)
    if phase == g.WEDDING:
        order = order_of(None)
        trumps = sum(1 for c in cards if order.suit[c] == TRUMP)
        take = trumps >= 3 and any(a.kind == g.HEIRATEN for a in legal)
        return Action(g.HEIRATEN if take else g.WEITER, True)
    if phase == g.EXCHANGE:
        order = order_of(None)
        points = view.card_points

        def cost(a: Action) -> tuple[int, int, int]:
            c = a.value
            same = sum(1 for x in cards if order.suit[x] == order.suit[c])
            return (rank_of(c) == ACE, same, points[c])
        return min(legal, key=cost)
    if phase in (PLAYING, g.LEAD) and view.public.get("contract") is not None:
        contract_name = view.public["contract"]
        least = contract_name == RAMSCH or (
            contract_name == BETTEL and own_team(view) == g.DECLARING)
        if least:
            return least_card(view)
    return None


_BIDDING = frozenset({g.ANNOUNCE, g.CLARIFY, g.CHOOSE})


def _bidding(rules: BavarianRules, phase: str, cards: Sequence[Card], legal: Sequence[Action]
             ) -> Action:
    """``suggest`` in the announcement, the clarification and the declaration."""
    if phase == g.ANNOUNCE:
        contract, _ = best_game(rules, cards, rules.contracts(cards))
        return Action(g.DAD if contract is not None else g.WEITER, True)
    if phase == g.CLARIFY:
        bids = [a.value for a in legal if a.kind == g.BID]
        games = [c for c in rules.contracts(cards) if c.game_class in bids]
        contract, _ = best_game(rules, cards, games)
        return Action(g.BID, contract.game_class) if contract is not None else Action(g.WEITER,
                                                                                     True)
    games = [Contract.parse(a.value) for a in legal]
    contract, _ = best_game(rules, cards, games)
    if contract is None:
        # Bound to play (the only "I dad", or the clarification was won): the best bet.
        contract = max(games, key=lambda c: strength(c, cards, rules.pack)
                       - NEEDS.get(c.kind, (9.0, 0))[0])
    return Action(g.GAME, contract.name)


def _window(rules: BavarianRules, contract: Contract, cards: Sequence[Card],
            legal: Sequence[Action], team: int | None) -> Action:
    """``suggest`` in a doubling window."""
    stoss = [a for a in legal if a.kind == g.STOSS]
    if stoss and _stoss_margin(rules, contract, cards, team) > 0:
        return stoss[0]
    return Action(g.WEITER, True)


def thumb(rules: BavarianRules, hand: Hand, seat: int) -> Action | None:
    """``rule_of_thumb(seat_view(hand, seat))`` in the bidding and the doubling windows,
    worked out from the hand without building the seat's view: the search settles the
    choices after the one it weighs this way, for every sample and every choice. It reads
    only what the view would show the seat: its cards as the view sorts them, its legal
    actions, the declared game, its own party (public, or its secret in a window)."""
    phase = hand.phase
    if phase in _BIDDING:
        cards = hand.sort_hand(hand.hands[seat])
        legal = hand.legal_actions(seat)
        action = _bidding(rules, phase, cards, legal)
    elif phase in g.WINDOWS:
        cards = hand.sort_hand(hand.hands[seat])
        legal = hand.legal_actions(seat)
        action = _window(rules, hand.pending["contract"], cards, legal, hand.team[seat])
    else:
        return None
    return action if action in legal else legal[0]


# -- the rebuild of hidden hands ----------------------------------------------------------------


@dataclass(frozen=True)
class _Knowledge(Knowledge):
    """``Knowledge`` with cards each seat is known not to hold (``forbidden[s]``, a mask)."""

    forbidden: tuple[int, ...] = ()

    def allowed(self, seat: int, c: Card) -> bool:
        return not (self.void[seat] >> self.suit[c] & 1 or self.forbidden[seat] >> c & 1)


#: The last view's knowledge: the search rebuilds the same view once per sample.
_last: tuple[object, _Knowledge, list[tuple[int, Card]]] | None = None


def knowledge(rules: BavarianRules, view: SeatView) -> tuple[_Knowledge, list[tuple[int, Card]]]:
    """What ``view.seat`` knows of the cards it cannot see, and the plays so far."""
    global _last
    last = _last
    if last is not None and last[0] is view:
        return last[1], last[2]
    n = 4
    me = view.seat
    public = view.public
    order = view.order
    assert order is not None
    plays = plays_so_far(view)
    played = {c for _, c in plays}
    known: list[list[Card]] = [[] for _ in range(n)]
    for entry in public.get("open_hand", ()):
        if entry["seat"] != me:
            known[entry["seat"]] = [card(x) for x in entry["cards"]]
    void = [0] * n
    forbidden = [0] * n
    led = TRUMP
    for i, (seat, c) in enumerate(plays):
        if i % n == 0:
            led = order.suit[c]
        elif order.suit[c] != led:
            void[seat] |= 1 << led
    contract_name = public.get("contract")
    declarer = public.get("declarer")
    if contract_name is not None and contract_name != RAMSCH:
        contract = Contract.parse(contract_name)
        if contract.kind == SAUSPIEL and declarer is not None:
            ace = contract.called
            assert ace is not None
            forbidden[declarer] |= 1 << ace
            # B6.3(a): on the first trick led in the called suit, the Ace's holder plays it;
            # whoever followed with another card of the suit does not hold it.
            suit = order.suit[ace]
            for t in range(0, len(plays), n):
                trick = plays[t:t + n]
                if order.suit[trick[0][1]] == suit:
                    for seat, c in trick[1:]:
                        if order.suit[c] == suit and c != ace:
                            forbidden[seat] |= 1 << ace
                    break
        partner = public.get("partner")
        if contract.kind == HOCHZEIT and declarer is not None and partner is not None:
            void[declarer] |= 1 << TRUMP  # he gave his only trump away
            # The two of them know where the exchanged cards went.
            exchange = view.private.get("exchange") or {}
            for holder, key in ((partner, "trump"), (declarer, "card")):
                moved = card(exchange[key]) if exchange.get(key) else None
                if moved is not None and holder != me and moved not in played:
                    known[holder].append(moved)
    seen = set(view.hand) | played | {c for h in known for c in h}
    unknown = tuple(c for c in rules.pack if c not in seen)
    need = tuple(0 if s == me else view.hand_sizes[s] - len(known[s]) for s in range(n))
    k = _Knowledge(me, unknown, tuple(map(tuple, known)), need, tuple(void), order.suit,
                   tuple(forbidden))
    _last = (view, k, plays)
    return k, plays


def determinize(rules: BavarianRules, view: SeatView, hidden: Mapping[int, Sequence[Card]]
                ) -> Hand:
    """A full hand consistent with ``view`` (see the module's doc); ``hidden`` only seeds
    the draw. Raises ``RecordError`` in the phases the rules of thumb decide alone."""
    if view.phase not in rules.searched_choices and view.phase not in (PLAYING, g.LEAD):
        raise RecordError("knocking and the Hochzeit are decided by rule of thumb")
    global _built
    k, plays = knowledge(rules, view)
    seed = repr(sorted((s, sorted(c)) for s, c in hidden.items()))
    # The same guess seeds the same draws and so rebuilds the same deal: a search drawing a
    # guess again (late in a deal few are left) gets a copy instead of replaying the deal.
    built = _built
    if built is None or built[0] is not view:
        built = _built = (view, {})
    done = built[1].get(seed)
    if done is not None:
        return done.copy()
    rng = random.Random(seed)
    for _ in range(40):
        guess = sample(k, rng)
        hand = _rebuild(rules, view, plays, guess, rng)
        if hand is not None:
            built[1][seed] = hand
            return hand.copy()
    raise RecordError("no deal fits what the table has seen")


#: The deals rebuilt for the last view, by the seed of their draw (``determinize``).
_built: tuple[object, dict[str, Hand]] | None = None


def _rebuild(rules: BavarianRules, view: SeatView, plays: Sequence[tuple[int, Card]],
             guess: Mapping[int, Sequence[Card]], rng: random.Random) -> Hand | None:
    me = view.seat
    held = [list(view.hand) if s == me else list(guess.get(s, ())) for s in range(4)]
    dealt: list[list[Card]] = [[] for _ in range(4)]
    for seat, c in plays:
        dealt[seat].append(c)
    for s in range(4):
        dealt[s].extend(held[s])
    public = view.public
    give: Card | None = None
    contract_name = public.get("contract")
    if contract_name is not None and contract_name.startswith(HOCHZEIT) and \
            public.get("partner") is not None:
        # Undo the exchange: the declarer's one trump went to the partner, who gave back a
        # plain card.
        declarer, partner = public["declarer"], public["partner"]
        trump_suit = order_of(None).suit
        exchange = view.private.get("exchange")
        if exchange is not None:
            trump, give = card(exchange["trump"]), card(exchange["card"])
        else:
            trumps = [c for c in dealt[partner] if trump_suit[c] == TRUMP]
            plain = [c for c in dealt[declarer] if trump_suit[c] != TRUMP]
            if not trumps or not plain:
                return None
            trump, give = rng.choice(trumps), rng.choice(plain)
        dealt[partner].remove(trump)
        dealt[partner].append(give)
        dealt[declarer].remove(give)
        dealt[declarer].append(trump)
    holders = rules.holders(view.dealer)
    nxt = [iter(d) for d in dealt]
    try:
        pack = [next(nxt[seat]) for seat in holders]
    except StopIteration:
        return None
    hand = Hand(view.rules, view.dealer, pack, view.status)
    try:
        for seat, action in view.actions:
            if action is None:
                assert give is not None
                action = Action(g.GIVE, give)
            hand.apply(seat, action)
    except IllegalAction:
        return None
    if hand.phase != view.phase or hand.to_move != view.to_move:
        return None
    return hand
