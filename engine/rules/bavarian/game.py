"""Bavarian Schafkopf, four players (RULINGS.md, "Bavarian Schafkopf", B1-B15).

A deal goes through these phases (``Hand.phase``), each ruling named where it is applied:

- ``knock`` (option ``klopfen``, B12.6): with the first packet in hand, each player from
  forehand knocks (``{"klopfen": true}``) or not (``{"weiter": true}``);
- ``announce`` (B4.1): each player from forehand says "Weiter" (``{"weiter": true}``) or
  "I dad" (``{"dad": true}``);
- ``clarify`` (B4.5): two or more said "I dad": they name classes of game
  (``{"class": "wenz"}``) or give way (``{"weiter": true}``) until one is left;
- ``game`` (B4.6): the declarer names his game (``{"game": "sauspiel_G"}``: a Sauspiel with
  the Gras Ace called; ``"solo_tout_H"``, ``"wenz"``...);
- ``wedding`` and ``exchange`` (option ``hochzeit``, B12.5): the others accept
  (``{"heiraten": true}``) or not; the first to accept takes the trump and gives back a
  plain card (``{"give": "S7"}``, seen by the two only);
- ``kontra`` and ``re`` (B10): the window for doubling. Every seat that may, by what the
  table knows, double now acts at once (``{"stoss": 1}`` is Kontra, ``2`` Re, ``3`` Sup...;
  ``{"weiter": true}`` declines); a hidden partner is asked like the opponents and may only
  decline, so that nobody learns who he is. These phases open after the declaration (with
  ``stoss_window = second_card``, after forehand's first card: see ``lead``) and close when
  every seat asked has answered, or when the table's window time runs out;
- ``lead`` (``second_card`` only): forehand's first card. The window is already open
  (B10.3): a seat that may double may do so now, out of turn (B10.5); once the card is down
  the ``kontra`` or ``re`` phase asks the seats that may still double;
- ``play``: the tricks (B7), with the called Ace's duties (B6.3); the player on lead may
  claim the rest (``{"claim": true}``, B8.3) at the start of a trick once no doubling can be
  given any more (B8.6: with ``second_card`` from trick 2).

Team 0 is the declaring party, team 1 the opponents; before the declaration, and in a Ramsch,
each seat is its own team (``Rules.teams`` is 4). ``public_team`` hides the Sauspiel partner
until the called Ace is played or he says Re (B6.2).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from engine.actions import (
    PLAY,
    Action,
    IllegalAction,
)
from engine.cards import (
    CARD_POINTS,
    HEARTS,
    PACK_24,
    PACK_32,
    SCHAFKOPF_TRUMPS,
    TRUMP,
    Card,
    code,
    codes,
    mask_of,
)
from engine.hand import PLAYING, HandResult
from engine.rules.base import Options, Rules
from engine.rules.bavarian import computer, refusals, scoring
from engine.rules.bavarian.claims import claim_holds
from engine.rules.bavarian.games import (
    ALL_CONTRACTS,
    BETTEL,
    CLASS_RANK,
    HOCHZEIT,
    OPTION_OF,
    RAMSCH,
    SAUSPIEL,
    SIE,
    SIE_MASKS,
    Contract,
    callable_in,
    laufende,
    order_of,
    trump_count,
)
from engine.rules.bavarian.kinds import (
    ANNOUNCE,
    BID,
    CHOOSE,
    CLAIM,
    CLARIFY,
    DAD,
    DECLARING,
    EXCHANGE,
    GAME,
    GIVE,
    HEIRATEN,
    KLOPFEN,
    KNOCK,
    KONTRA,
    LEAD,
    OPPONENTS,
    RE,
    STOSS,
    STOSS_NAMES,
    WEDDING,
    WINDOWS,
)
from engine.rules.bavarian.kinds import DAD_ACTION as _DAD
from engine.rules.bavarian.kinds import WEITER_ACTION as _WEITER
from engine.rules.bavarian.options import SchafkopfOptions
from engine.rules.bavarian.words import EARLY_REASONS, KIND_WORDS
from engine.status import RecordError, Status

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.view import SeatView

class _Clar(NamedTuple):
    """The clarification (B4.5): the seats still to challenge, the seat holding and the class
    it named, the seat challenging now and the class it named (None until it names one)."""

    queue: tuple[int, ...]
    holder: int | None
    held: str | None
    challenger: int | None
    named: str | None


#: ``pending["games"]`` before any seat's games are worked out (``Schafkopf._games``).
_NO_GAMES: tuple[None, ...] = (None,) * 4
#: The choices of the knock and the announcement.
_KNOCKS = (Action(KLOPFEN, True), _WEITER)
_SAYS = (_WEITER, _DAD)
#: A doubling window's choices for the seats of the side that may double, by level; the
#: hidden partner's (``_DECLINE``).
_STOSS = {level: (Action(STOSS, level), _WEITER) for level in range(1, 8)}
_DECLINE = (_WEITER,)
#: The clarification's choice of each class.
_BIDS = {c: Action(BID, c) for c in CLASS_RANK}
#: The seats in order from each forehand.
_ROUND = tuple(tuple((start + k) % 4 for k in range(4)) for start in range(4))


def _classes_of(contracts: Sequence[Contract]) -> list[str]:
    return sorted({c.game_class for c in contracts}, key=CLASS_RANK.__getitem__)


class Schafkopf(Rules):
    game = "schafkopf"
    title = "Bavarian Schafkopf"
    options_model = SchafkopfOptions
    goal = (
        "Say which game you play, a Sauspiel with the hidden holder of the Ace you call or a "
        "game alone against the other three, and take 61 or more of the 120 card points; "
        "every hand is paid between the players, and each player's balance runs on from "
        "hand to hand."
    )
    rulings = (
        "4 players, 32 cards dealt 4 and 4 from forehand, the seat after the dealer, who leads "
        "to the first trick; the deal passes to the next seat. Card points A 11, 10 10, K 4, "
        "O 3, U 2 (120). Short pack option: 24 cards (no 8s and 7s), dealt 3 and 3.",
        "Trumps in a Sauspiel: EO GO HO SO EU GU HU SU, then hearts A 10 K 9 8 7; a Farbsolo "
        "puts its suit in place of hearts, a Wenz has only the four Unters. Follow the led "
        "suit (the trumps are one suit), else any card; there is no duty to trump.",
        "From forehand each says Weiter or I dad, once. If several want to play, the higher "
        "game wins (Sauspiel < Wenz < Farbsolo < Tout < Sie), then the seat nearer forehand.",
        "In a Sauspiel the declarer calls the Ace of acorns, leaves or bells (never hearts) "
        "of a suit he holds a card of that is no trump, but not its Ace; its holder is his "
        "hidden partner, known when the Ace is played or when he says Re.",
        "Until the called suit has been led, the Ace's holder must play the Ace when the suit "
        "is led, may not throw it on another trick unless it is his last card, and may lead "
        "the suit only with the Ace, unless he holds four of it (short pack: three): then he "
        "may run away.",
        "When all pass, the cards are thrown in and nobody pays. Options: Ramsch (everybody "
        "alone; whoever takes the most card points pays each of the others) or Stock (each "
        "pays into a pot that the next Sauspiel wins or doubles).",
        "A Tout is lost at the first trick the opponents take, a Bettel at the first trick "
        "the declarer takes: the hand stops there. The player on lead may lay down his hand "
        "and claim the rest.",
        "61 card points win (60 : 60 loses); Schneider with 91 or more, or lost with 30 or "
        "fewer; Schwarz: no trick. Laufende (top trumps in an unbroken run) count from 3 "
        "(Wenz, Geier: from 2), with or without alike.",
        "Once the game is named, each opponent may say Kontra, and then the declarer or his "
        "partner Re; each doubles the value. The table asks everyone who may double at once "
        "(the hidden partner too, who may only say Weiter, so that nobody learns who he is) "
        "until the first card is played; Kontra and Re at most (an option allows none, or "
        "Sup, Hirsch and more, up to 6).",
        "Tariff option, 10/50 by default: a Sauspiel is worth 10, a solo 50, and 10 more for "
        "each Laufender, for Schneider and for Schwarz; a Tout twice that, a Sie four times "
        "with 8 Laufende; each knock and doubling doubles it. In a Sauspiel each winner gets "
        "it and each loser pays it; alone, the declarer gets it from each of the three or "
        "pays it to each. The balances always add up to zero.",
        "House options, off by default: short pack, Geier, Farbwenz, Farbgeier, Bettel, "
        "Hochzeit (a lone trump is married), Klopfen (knocking after the first four cards), "
        "Ramsch with a Jungfrau paid double.",
        "House rules: players who want to play outbid each other in seat order, the earlier "
        "seat keeping its place with a game at least as high; a claim is checked against "
        "every hand, and a wrong one leaves the hand open while play goes on; doubling ends "
        "at the first card (an option: the second); with the short pack the Ace's holder "
        "runs away with three cards of the called suit; only a Sauspiel wins or doubles the "
        "Stock; in a Ramsch, players tied for the most card points each pay.",
    )

    kind_words = KIND_WORDS
    early_reasons = EARLY_REASONS
    #: Schafkopf is played for a running balance (issue 34): ``Status.score``.
    score_kind = "balance"

    fixed_teams = False
    score_by_seat = True
    status_fields: ClassVar[frozenset[str]] = frozenset({"score", "pot"})
    #: Hard weighs the announcement, the clarification, the game and the doublings by
    #: search (``determinize`` rebuilds the hand in them).
    searched_choices: ClassVar[frozenset[str]] = frozenset(
        {ANNOUNCE, CLARIFY, CHOOSE, KONTRA, RE})

    players = 4
    teams = 4
    pack = PACK_32
    packets = (4, 4)
    points = CARD_POINTS
    total_points = 120
    top_trumps = SCHAFKOPF_TRUMPS
    usual_trump = HEARTS
    must_trump = False
    #: The called Ace's duties (B6.3).
    restricts_play = True
    free_kinds = frozenset({CLAIM, STOSS})

    def __init__(self, options: Options) -> None:
        assert isinstance(options, SchafkopfOptions)
        if options.short_pack:
            self.pack = PACK_24
            self.packets = (3, 3)
        super().__init__(options)
        self.opts = options
        self.rates = options.rates()
        self.short = options.short_pack
        #: B6.3(c): how many cards of the called suit let its Ace's holder run away.
        self.run_away = 3 if options.short_pack else 4
        self._sie_mask = SIE_MASKS[self.short]
        self.after_trick = self._after_trick
        self.early_end = True  # only Tout, Bettel and claims stop a deal (B8)

    # -- the deal ------------------------------------------------------------------------------

    def start(self, hand: Hand) -> None:
        hand.set_order(order_of(None))
        hand.trump = None  # nothing is trump until a game is declared
        hand.pending.update(
            said=(), knocks=(), clar=None, limit=None, contract=None, declarer=None,
            partner=None, stoss=(), decided=frozenset(), duty=False, failed=(),
            credit=None, stop=False, claimed=None, given=None, taken=None, resume=None,
            games=_NO_GAMES, asked=(),
        )
        forehand = (hand.dealer + 1) % 4
        if self.opts.klopfen:
            # B12.6: knocking is done seeing the first packet only.
            first = self.packets[0]
            hand.hands = [list(cards[:first]) for cards in hand.dealt]
            hand.hands_changed()
            hand.phase = KNOCK
        else:
            hand.phase = ANNOUNCE
        hand.leader = hand.to_move = forehand

    @staticmethod
    def forehand(hand: Hand) -> int:
        return (hand.dealer + 1) % 4

    # -- who acts ------------------------------------------------------------------------------

    def actors(self, hand: Hand) -> list[int]:
        if hand.phase in WINDOWS:
            return list(hand.pending["asked"])
        return super().actors(hand)

    def phase_legal(self, hand: Hand, seat: int) -> Sequence[Action]:
        # The choices are made once (``_KNOCKS``, ``_SAYS``, ``_STOSS``), and a seat's games
        # once per deal (``_games``): every action of the bidding asks for them.
        phase = hand.phase
        if phase in WINDOWS:
            return self._window_legal(hand, seat)
        if seat != hand.to_move:
            return ()
        if phase == ANNOUNCE:
            return _SAYS
        if phase == KNOCK:
            return _KNOCKS
        if phase == CLARIFY:
            return [*map(_BIDS.__getitem__, self._bids(hand, seat)), _WEITER]
        if phase == CHOOSE:
            limit = hand.pending["limit"]
            return [Action(GAME, c.name) for c in self._games(hand, seat)
                    if limit is None or c.game_class == limit]
        if phase == WEDDING:
            plain = self._plain_cards(hand.hands[seat])
            return ([Action(HEIRATEN, True)] if plain else []) + [_WEITER]
        if phase == EXCHANGE:
            return [Action(GIVE, c) for c in hand.sort_hand(self._plain_cards(hand.hands[seat]))]
        if phase == LEAD:
            return [PLAY[c] for c in self.restrict_play(hand, seat, list(hand.hands[seat]))]
        return []

    def phase_apply(self, hand: Hand, seat: int, action: Action) -> None:
        self._appliers[hand.phase](hand, seat, action)

    @cached_property
    def _appliers(self) -> dict[str, Callable[[Hand, int, Action], None]]:
        """``phase_apply`` by phase (one look-up: the bidding's every action comes here)."""
        return {KNOCK: self._knock, ANNOUNCE: self._announce, CLARIFY: self._clarify,
                CHOOSE: self._choose, WEDDING: self._wedding, EXCHANGE: self._exchange_action,
                KONTRA: self._window, RE: self._window, LEAD: self._lead}

    def _choose(self, hand: Hand, seat: int, action: Action) -> None:
        self.declare(hand, seat, Contract.parse(action.value))

    def _exchange_action(self, hand: Hand, seat: int, action: Action) -> None:
        self._exchange(hand, seat, action.value)

    def _lead(self, hand: Hand, seat: int, action: Action) -> None:
        # The first card goes through the trick loop like any other. With stoss_window =
        # second_card the window is open from the declaration (B10.3): a doubling given
        # before this card (``free_apply``) stands, and now every seat that may still double
        # is asked, having seen the card, before the second card.
        hand.actions.pop()
        hand.phase = PLAYING
        hand.apply(seat, action)
        hand.pending["resume"] = hand.to_move
        level = self.level(hand)
        if level <= self.opts.stoss_max:
            self._open_window(hand, level)
        else:
            self._close_window(hand)

    # -- B12.6 knocking, B4 announcement and clarification ------------------------------------

    def _knock(self, hand: Hand, seat: int, action: Action) -> None:
        if action.kind == KLOPFEN:
            hand.pending["knocks"] = (*hand.pending["knocks"], seat)
        if seat != hand.dealer:
            hand.to_move = (seat + 1) % 4
            return
        hand.hands = [list(cards) for cards in hand.dealt]
        hand.hands_changed()
        hand.phase = ANNOUNCE
        hand.to_move = self.forehand(hand)

    def _announce(self, hand: Hand, seat: int, action: Action) -> None:
        said = (*hand.pending["said"], (seat, action.kind == DAD))
        hand.pending["said"] = said
        if seat != hand.dealer:
            hand.to_move = (seat + 1) % 4
            return
        players = [s for s, dad in said if dad]
        if not players:
            self.all_pass(hand)
        elif len(players) == 1:
            self._to_declare(hand, players[0], None)
        else:
            # B4.5: the first who said "I dad" names a class (or gives way), then each later
            # one challenges in turn.
            hand.pending["clar"] = _Clar(queue=tuple(players[1:]), holder=None, held=None,
                                         challenger=players[0], named=None)
            hand.phase = CLARIFY
            hand.to_move = players[0]

    def _bids(self, hand: Hand, seat: int) -> list[str]:
        """The classes ``seat`` may name now in the clarification (B4.5, B4.7)."""
        clar: _Clar = hand.pending["clar"]
        allowed = self._classes(hand, seat)
        if seat == clar.challenger:
            floor = -1 if clar.held is None else CLASS_RANK[clar.held]
            return [c for c in allowed if CLASS_RANK[c] > floor]
        assert clar.named is not None
        return [c for c in allowed if CLASS_RANK[c] >= CLASS_RANK[clar.named]]

    def _clarify(self, hand: Hand, seat: int, action: Action) -> None:
        # Each step builds the next ``_Clar`` whole (``_replace`` costs three times as much).
        clar: _Clar = hand.pending["clar"]
        named = action.value if action.kind == BID else None
        if seat == clar.challenger and clar.named is None:
            if named is None:
                clar = _Clar(clar.queue, clar.holder, clar.held, None, None)  # he gives way
            elif clar.holder is None:
                clar = _Clar(clar.queue, seat, named, None, None)
            else:
                hand.pending["clar"] = _Clar(clar.queue, clar.holder, clar.held,
                                             clar.challenger, named)
                hand.to_move = clar.holder  # the earlier seat answers
                return
        elif named is not None:
            # The holder keeps his seat with a class at least as high ("I aa"): the
            # challenger must go higher again.
            hand.pending["clar"] = _Clar(clar.queue, clar.holder, named, clar.challenger, None)
            hand.to_move = clar.challenger
            return
        else:
            # The holder yields: the challenger holds with the class he named.
            clar = _Clar(clar.queue, clar.challenger, clar.named, None, None)
        if clar.queue:
            clar = _Clar(clar.queue[1:], clar.holder, clar.held, clar.queue[0], None)
            hand.pending["clar"] = clar
            hand.to_move = clar.challenger
            return
        hand.pending["clar"] = clar
        if clar.holder is None:
            self.all_pass(hand)
        else:
            self._to_declare(hand, clar.holder, clar.held)

    def classes(self, cards: Sequence[Card]) -> list[str]:
        """The classes a player holding ``cards`` may name (B4.7), low to high."""
        return _classes_of(self.contracts(cards))

    def _games(self, hand: Hand, seat: int) -> list[Contract]:
        """``contracts`` of the cards ``seat`` holds in the bidding (all he was dealt),
        worked out once per deal: the clarification and the declaration ask for it at every
        action. Only asked before the first card and any Hochzeit's exchange."""
        games: tuple[tuple[list[Contract], list[str]] | None, ...] = hand.pending["games"]
        mine = games[seat]
        if mine is None:
            contracts = self.contracts(hand.hands[seat])
            mine = (contracts, _classes_of(contracts))
            hand.pending["games"] = (*games[:seat], mine, *games[seat + 1:])
        return mine[0]

    def _classes(self, hand: Hand, seat: int) -> list[str]:
        """``classes`` of what ``seat`` holds in the bidding (see ``_games``)."""
        self._games(hand, seat)
        return hand.pending["games"][seat][1]  # type: ignore[no-any-return]

    def contracts(self, cards: Sequence[Card]) -> list[Contract]:
        """Every game a player holding ``cards`` may declare, in class and suit order."""
        # Asked for every seat in every deal: what the options allow is sorted out once
        # (``_allowed``), only what depends on the cards is checked here.
        sauspiele, hochzeit, middle, sie = self._allowed
        mask = mask_of(cards)
        out = [sauspiele[s] for s in callable_in(mask) if s in sauspiele]
        if hochzeit is not None and trump_count(cards) == 1:
            out.append(hochzeit)
        out += middle
        if sie is not None and mask & self._sie_mask == self._sie_mask:
            out.append(sie)
        return out

    @cached_property
    def _allowed(self) -> tuple[dict[int, Contract], Contract | None, list[Contract],
                                Contract | None]:
        """The games the options allow, in ``ALL_CONTRACTS``' order (the Sauspiele by suit,
        the Hochzeit, the games every hand may declare, Sie), for ``contracts``."""
        opts = self.opts
        sauspiele: dict[int, Contract] = {}
        hochzeit = sie = None
        middle = []
        for c in ALL_CONTRACTS:
            option = OPTION_OF.get(c.kind)
            if option is not None and not getattr(opts, option):
                continue
            if c.kind == SAUSPIEL:
                assert c.suit is not None
                sauspiele[c.suit] = c
            elif c.kind == HOCHZEIT:
                hochzeit = c
            elif c.kind == SIE:
                sie = c
            else:
                middle.append(c)
        return sauspiele, hochzeit, middle, sie

    def playable(self, hand: Hand, seat: int, limit: str | None) -> list[Contract]:
        """The games ``seat`` may declare now: any he may play, or after a clarification
        exactly those of the class he named (B4.6)."""
        games = self._games(hand, seat)
        return games if limit is None else [c for c in games if c.game_class == limit]

    def _to_declare(self, hand: Hand, seat: int, limit: str | None) -> None:
        hand.pending["limit"] = limit
        hand.pending["declarer"] = seat
        hand.phase = CHOOSE
        hand.to_move = seat

    # -- the game --------------------------------------------------------------------------------

    def declare(self, hand: Hand, seat: int, contract: Contract) -> None:
        p = hand.pending
        p["contract"] = contract
        p["declarer"] = seat
        hand.set_order(order_of(contract))
        if contract.kind == SIE:
            # B9.6: not played out; the declarer wins as he declares it.
            self._form_teams(hand, {seat})
            hand.play_over = True
            hand.to_move = None
            self.settle(hand)
            return
        if contract.kind == HOCHZEIT:
            hand.phase = WEDDING
            hand.to_move = (seat + 1) % 4
            return
        side = {seat}
        if contract.kind == SAUSPIEL:
            ace = contract.called
            partner = next(s for s in range(4) if ace in hand.hands[s])
            side.add(partner)
            p["partner"] = partner
            p["duty"] = True
        self._form_teams(hand, side)
        self._open_window_or_play(hand)

    def _form_teams(self, hand: Hand, side: set[int]) -> None:
        for s in range(4):
            hand.set_team(s, DECLARING if s in side else OPPONENTS)
        # B9.4: the Laufende are counted on the declaring party's hands as dealt (after a
        # Hochzeit's exchange: as they are now, before the first card).
        party = hand.pending["party_cards"] = frozenset(c for s in side for c in hand.hands[s])
        # Counted once here, not at every settling (each playout of the search settles).
        hand.pending["laufende"] = laufende(hand.pending["contract"], self.pack, party)

    def _wedding(self, hand: Hand, seat: int, action: Action) -> None:
        declarer = hand.pending["declarer"]
        if action.kind == HEIRATEN:
            trump = next(c for c in hand.hands[declarer] if self._is_trump(c))
            hand.hands[declarer].remove(trump)
            hand.hands[seat].append(trump)
            hand.hands_changed()
            hand.pending["partner"] = seat
            hand.pending["taken"] = trump
            hand.phase = EXCHANGE
            return
        if (seat + 1) % 4 == declarer:
            self.all_pass(hand)  # B12.5: nobody accepts
            return
        hand.to_move = (seat + 1) % 4

    def _exchange(self, hand: Hand, seat: int, c: Card) -> None:
        declarer = hand.pending["declarer"]
        hand.hands[seat].remove(c)
        hand.hands[declarer].append(c)
        hand.hands_changed()
        hand.pending["given"] = c
        self._form_teams(hand, {declarer, seat})
        self._open_window_or_play(hand)

    @staticmethod
    def _is_trump(c: Card) -> bool:
        return order_of(None).suit[c] == TRUMP

    def _plain_cards(self, cards: Sequence[Card]) -> list[Card]:
        return [c for c in cards if not self._is_trump(c)]

    def all_pass(self, hand: Hand) -> None:
        """B5: thrown in, or a Ramsch (B12.7), or each pays into the Stock (B12.8)."""
        mode = self.opts.all_pass
        if mode == "ramsch":
            hand.pending["contract"] = Contract(RAMSCH)
            hand.pending["declarer"] = None
            self._start_play(hand)
            return
        hand.play_over = True
        hand.to_move = None
        scoring.thrown_in(self, hand, stock=mode == "stock")

    # -- B10 the doubling window ---------------------------------------------------------------

    def _open_window_or_play(self, hand: Hand) -> None:
        if not self.opts.stoss_max:
            self._start_play(hand)
        elif self.opts.stoss_window == "second_card":
            hand.phase = LEAD
            hand.leader = hand.to_move = self.forehand(hand)
        else:
            self._open_window(hand, 1)

    def _open_window(self, hand: Hand, level: int) -> None:
        hand.pending["decided"] = frozenset()
        hand.phase = KONTRA if level % 2 else RE
        # Who is asked changes only with the window's own answers: kept until the next
        # (``asked``), as every call of ``actors`` and ``phase_legal`` in a window needs it.
        actors = hand.pending["asked"] = self.window_actors(hand)
        if actors:
            hand.to_move = actors[0]
        else:  # pragma: no cover - some seat is always asked
            self._close_window(hand)

    def level(self, hand: Hand) -> int:
        """The doubling the window asks for now: 1 Kontra, 2 Re, 3 Sup..."""
        return len(hand.pending["stoss"]) + 1

    def window_actors(self, hand: Hand) -> tuple[int, ...]:
        """Every seat that may, by what the table knows, give this doubling and has not
        answered: the opponents and any seat that may be the hidden partner for a Kontra,
        the declaring party and such seats for a Re."""
        decided = hand.pending["decided"]
        other = OPPONENTS if self.level(hand) % 2 else DECLARING
        start = self.forehand(hand)
        teams = self.public_teams(hand)
        return tuple(s for s in _ROUND[start]
                     if s not in decided and teams[s] in (other, None))

    def _window_legal(self, hand: Hand, seat: int) -> Sequence[Action]:
        if seat not in hand.pending["asked"]:
            return ()
        level = len(hand.pending["stoss"]) + 1
        if hand.team[seat] == (OPPONENTS if level % 2 else DECLARING):
            return _STOSS[level]
        return _DECLINE  # the hidden partner is asked too, and may only decline

    def _window(self, hand: Hand, seat: int, action: Action) -> None:
        if action.kind == STOSS:
            hand.pending["stoss"] = (*hand.pending["stoss"], seat)
            if action.value < self.opts.stoss_max:
                self._open_window(hand, action.value + 1)
                return
            self._close_window(hand)
            return
        hand.pending["decided"] = hand.pending["decided"] | {seat}
        # A decline shows nothing (``public_teams`` is as it was): the others stay asked.
        actors = hand.pending["asked"] = tuple(s for s in hand.pending["asked"] if s != seat)
        if actors:
            hand.to_move = actors[0]
        else:
            self._close_window(hand)

    def _close_window(self, hand: Hand) -> None:
        resume = hand.pending["resume"]
        if resume is None:
            self._start_play(hand)
        else:
            self._playing(hand)
            hand.to_move = resume

    def _start_play(self, hand: Hand) -> None:
        contract: Contract = hand.pending["contract"]
        hand.set_order(order_of(contract))
        self._playing(hand)
        hand.leader = hand.to_move = self.forehand(hand)

    @staticmethod
    def _playing(hand: Hand) -> None:
        hand.phase = PLAYING
        if not hand.pending["duty"]:
            hand.duties_over()  # no called Ace to watch: follow suit is the only duty

    def window_timeout(self, hand: Hand) -> tuple[int, Action] | None:
        """The window closes by itself (B10.3) when the table's window time runs out: the
        seats that have not answered decline, one after the other."""
        if hand.phase not in WINDOWS:
            return None
        actors = hand.pending["asked"]
        return (actors[0], _WEITER) if actors else None

    # -- play: B6.3 the called Ace, B8 the abbreviated game -------------------------------------

    def restrict_play(self, hand: Hand, seat: int, cards: list[Card]) -> list[Card]:
        # In card order, as the hand's fast path lists them: a seat's legal actions must not
        # depend on the order its cards were dealt in (views are compared whole).
        cards.sort()
        p = hand.pending
        if not p["duty"]:
            return cards
        ace: Card = p["contract"].called
        held = hand.hands[seat]
        if ace not in held:
            return cards
        order = hand.order
        assert order is not None
        suit = order.suit[ace]
        if hand.trick:
            if order.suit[hand.trick[0]] == suit:
                return [ace]  # (a) searched
            if len(held) > 1:
                return [c for c in cards if c != ace]  # (b) no discarding
            return cards
        if sum(1 for c in held if order.suit[c] == suit) >= self.run_away:
            return cards  # (c) running away
        return [c for c in cards if c == ace or order.suit[c] != suit]  # (c)

    def explain_card(self, hand: Hand, seat: int, card_: Card) -> IllegalAction | None:
        return refusals.explain_card(self, hand, seat, card_)

    def _after_trick(self, hand: Hand) -> None:
        p = hand.pending
        trick = hand.tricks[-1]
        order = hand.order
        assert order is not None
        contract: Contract = p["contract"]
        if p["duty"] and order.suit[trick.cards[0]] == order.suit[contract.called]:  # type: ignore[index]
            p["duty"] = False  # B6.3(d): the called suit has been led
            hand.duties_over()
        if contract.tout and hand.team[trick.winner] != DECLARING:
            p["stop"], p["credit"] = True, trick.winner  # B8.1
        elif contract.kind == BETTEL and trick.winner == p["declarer"]:
            p["stop"], p["credit"] = True, trick.winner  # B8.2

    def outcome_fixed(self, hand: Hand) -> bool:
        return bool(hand.pending["stop"])

    def position_key(self, hand: Hand) -> tuple[object, ...]:
        """Besides cards, leader, points and teams, a deal's value from a trick's start
        depends on the called Ace's duty, the tricks each seat took (Schwarz, a Ramsch's
        Durchmarsch and Jungfrau) and the Laufende (the declaring party's cards as dealt)."""
        tricks = [0, 0, 0, 0]
        for t in hand.tricks:
            tricks[t.winner] += 1
        p = hand.pending
        return (p["duty"], *tricks, p.get("laufende"))

    def free_legal(self, hand: Hand, seat: int) -> list[Action]:
        """B10.3, B10.5: with ``stoss_window = second_card``, while forehand has not led,
        any seat of the party whose doubling it is may give it, out of turn. B8.3: the
        player on lead, at the start of a trick, may claim the rest, but not while a
        doubling may still be given (B8.6: with ``second_card`` first at trick 2)."""
        p = hand.pending
        if hand.phase == LEAD:
            level = len(p["stoss"]) + 1
            if level <= self.opts.stoss_max and \
                    hand.team[seat] == (OPPONENTS if level % 2 else DECLARING):
                return [_STOSS[level][0]]
            return []
        if (hand.phase != PLAYING or hand.trick or seat != hand.to_move
                or hand.play_over or seat in p["failed"]
                or p["contract"].kind in (BETTEL, RAMSCH)):
            return []
        return [Action(CLAIM, True)]

    def free_apply(self, hand: Hand, seat: int, action: Action) -> None:
        if action.kind == STOSS:
            # Before forehand's first card (``second_card``): the doubling stands, and the
            # window asks for the next one once the card is down (``_lead``).
            hand.pending["stoss"] = (*hand.pending["stoss"], seat)
            return
        assert hand.order is not None
        others = [hand.hands[s] for s in range(4) if s != seat]
        if claim_holds(hand.order, hand.hands[seat], others):
            p = hand.pending
            p["claimed"] = p["credit"] = seat
            p["stop"] = True
            hand.play_over = True
            hand.to_move = None
            self.settle(hand)
        else:
            # B8.4: his hand lies open for the rest of the deal; play goes on.
            hand.pending["failed"] = (*hand.pending["failed"], seat)

    # -- why an action is refused (engine.rules.bavarian.refusals) -----------------------------

    def explain(self, hand: Hand, seat: int, action: Action) -> IllegalAction:
        return refusals.explain(self, hand, seat, action)

    # -- what everyone knows ----------------------------------------------------------------------

    def partner_known(self, hand: Hand) -> bool:
        """B6.2: is the Sauspiel partner public? When the called Ace has been played, when he
        said Re, when both opponents have shown themselves by doubling, or when play is over."""
        p = hand.pending
        contract = p["contract"]
        if contract is None or contract.kind != SAUSPIEL or hand.play_over:
            return True
        partner = p["partner"]
        if contract.called not in hand.hands[partner]:
            return True
        doublers = self._doublers(hand)
        return partner in doublers or len({s for s in doublers if s != p["declarer"]}) >= 2

    @staticmethod
    def _doublers(hand: Hand) -> tuple[int, ...]:
        return tuple(hand.pending["stoss"])

    def side_roles(self, hand: Hand) -> tuple[str, ...]:
        """The declaring party (the soloist, alone) and the defenders once a game is named;
        before that, in a Ramsch and while a Hochzeit finds its partner, each plays alone.
        A role is shown on a seat only once its team is public (``public_team``)."""
        contract = hand.pending["contract"]
        if contract is None or contract.kind == RAMSCH or hand.phase in (WEDDING, EXCHANGE):
            return ()
        alone = contract.kind not in (SAUSPIEL, HOCHZEIT)
        return ("soloist" if alone else "declarer", "defenders")

    def public_team(self, hand: Hand, seat: int) -> int | None:
        return self.public_teams(hand)[seat]

    def public_teams(self, hand: Hand) -> list[int | None]:
        """``public_team`` of every seat (a doubling window asks for all four: the partner's
        being known is worked out once)."""
        p = hand.pending
        contract = p["contract"]
        if contract is None or contract.kind == RAMSCH or hand.phase in (WEDDING, EXCHANGE):
            return [None] * 4
        if self.partner_known(hand):
            return list(hand.team)
        declarer, doublers = p["declarer"], self._doublers(hand)
        # A doubling shows its giver's party (only the opponents Kontra, B10.1).
        return [hand.team[s] if s == declarer else OPPONENTS if s in doublers else None
                for s in range(4)]

    def public_team_points(self, hand: Hand) -> tuple[int, ...]:
        contract = hand.pending["contract"]
        if contract is None or contract.kind == RAMSCH or not self.partner_known(hand) \
                or hand.phase in (WEDDING, EXCHANGE):
            return ()
        return tuple(hand.team_taken[:2])

    def public_action(self, hand: Hand, seat: int, action: Action) -> Action | None:
        # B12.5: the card given back in a Hochzeit is seen by the two only.
        return None if action.kind == GIVE else action

    def public_info(self, hand: Hand) -> dict[str, Any]:
        p = hand.pending
        info: dict[str, Any] = {}
        if self.opts.all_pass == "stock":
            # B12.8: the pot at stake in this deal (the next Sauspiel wins it or doubles it);
            # once the deal is settled, the pot its result leaves, so that the table and the
            # result say the same (issue 44).
            status = hand.status if hand.result is None else hand.result.status
            info["pot"] = status.pot or 0
        if p["knocks"]:
            info["knocks"] = list(p["knocks"])
        contract: Contract | None = p["contract"]
        if contract is None:
            dads = [s for s, dad in p["said"] if dad]
            if dads:
                info["dad"] = dads
            clar: _Clar | None = p["clar"]
            if clar is not None and clar.holder is not None:
                info["bidding"] = {"seat": clar.holder, "value": clar.held}
            if hand.phase == CHOOSE:
                info["declarer"] = p["declarer"]
            return info
        if contract.kind == RAMSCH:
            info["contract"] = RAMSCH
        else:
            info["contract"] = contract.name
            info["declarer"] = p["declarer"]
            if contract.called is not None:
                info["called"] = code(contract.called)
            if p["partner"] is not None and hand.phase not in (WEDDING, EXCHANGE) \
                    and self.partner_known(hand):
                info["partner"] = p["partner"]
        if p["stoss"]:
            info["doubles"] = [{"seat": s, "stoss": STOSS_NAMES[i]}
                               for i, s in enumerate(p["stoss"])]
        if p["failed"] and not hand.play_over:
            info["open_hand"] = [{"seat": s, "cards": codes(hand.sort_hand(hand.hands[s]))}
                                 for s in p["failed"]]
        if p["claimed"] is not None:
            info["claimed"] = p["claimed"]
        return info

    def private_info(self, hand: Hand, seat: int) -> dict[str, Any]:
        """While the Sauspiel partner is hidden, each seat knows its own party (the partner
        holds the called Ace); the two of a Hochzeit know the cards they exchanged."""
        p = hand.pending
        contract = p["contract"]
        out: dict[str, Any] = {}
        if contract is not None and contract.kind != RAMSCH and hand.phase not in (
                WEDDING, EXCHANGE) and self.public_team(hand, seat) is None:
            out["team"] = hand.team[seat]
        if p["taken"] is not None and seat in (p["declarer"], p["partner"]):
            out["exchange"] = {"trump": code(p["taken"]),
                               "card": None if p["given"] is None else code(p["given"])}
        return out

    def wants_points(self, hand: Hand, team: int) -> bool:
        """Nobody wants card points in a Ramsch, nor a Bettel's declarer (tricks)."""
        contract = hand.pending["contract"]
        return contract is None or not (
            contract.kind == RAMSCH or (contract.kind == BETTEL and team == DECLARING))

    # -- status and results ----------------------------------------------------------------------

    def check_status(self, status: Status) -> None:
        super().check_status(status)
        if status.score is not None and len(status.score) != 4:
            raise RecordError("status.score must hold one balance per seat (4)")
        pot = status.pot
        if pot is not None and (self.opts.all_pass != "stock" or pot < 0 or pot % 2):
            raise RecordError("status.pot needs all_pass stock, and is even and not negative")
        if sum(status.score or ()) + (pot or 0):
            raise RecordError("the balances and the pot must add up to zero")

    def outcome(self, status: Status, points: Sequence[int]) -> Hashable:
        """Whether the declaring party made 61 (the search and the arena value whole hands:
        ``hand_value``, ``payouts``)."""
        return points[0] >= 61

    def outcome_value(self, status_before: Status, outcome: Hashable, team: int) -> float:
        return 1.0 if bool(outcome) == (team == DECLARING) else -1.0

    def settle(self, hand: Hand) -> None:
        scoring.settle(self, hand)

    def payouts(self, result: HandResult) -> tuple[float, ...] | None:
        return tuple(float(x) for x in result.extra["scores"])

    def hand_value(self, hand: Hand, team: int) -> float:
        """The payout of a seat of ``team`` in Solo rates, softly capped at 8 (a Tout or a
        doubled Solo is worth more than a Sauspiel, but not without bound), plus a small
        share for card points (fewer in a Ramsch)."""
        result = hand.result
        if result is None:
            return 0.0
        seat = next(s for s in range(4) if hand.team[s] == team)
        v = 8.0 * math.tanh(result.extra["scores"][seat] / (8.0 * self.rates.solo))
        taken = hand.taken[seat] if len(result.points) == 4 else result.points[min(team, 1)]
        share = (2 * taken - 120) / 1200
        return v - share if result.extra["game"] == RAMSCH else v + share

    # -- computer players ------------------------------------------------------------------------

    def suggest(self, view: SeatView) -> Action | None:
        return computer.suggest(self, view)

    def thumb(self, hand: Hand, seat: int) -> Action | None:
        return computer.thumb(self, hand, seat)

    def determinize(self, view: SeatView, hidden: Mapping[int, Sequence[Card]]) -> Hand | None:
        return computer.determinize(self, view, hidden)

