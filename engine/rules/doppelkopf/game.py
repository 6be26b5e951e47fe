"""Doppelkopf, four players (RULINGS.md, "Doppelkopf", D1-D14).

A deal goes through these phases (``Hand.phase``), each ruling named where it is applied:

- ``vorbehalt`` (D4): each seat from forehand says ``{"gesund": true}`` or Vorbehalt with its
  kind, ``{"vorbehalt": "damen"}`` (a solo of ``solo_set``), ``"hochzeit"`` (both ``EO``) or
  ``"armut"`` (option ``armut``); the table sees who said Vorbehalt, and then only the kind
  that wins (Pflichtsolo > Lustsolo > Armut > Hochzeit, the seat nearer forehand first);
- ``vorfuehren`` (D6.6, option ``pflichtsolo``): in a vorgeführt deal the seat that owes its
  Pflichtsolo names it, ``{"solo_type": "buben"}``;
- ``armut``, ``mitnehmen``, ``rueckgabe`` (D5.8): the Armut seat lays three cards aside
  (``{"armut_lay": [...]}``: all its trumps and plain cards of its choice), the others in turn
  take them (``{"mitnehmen": true}``) or not (``{"weiter": true}``), the taker gives three
  back (``{"armut_return": [...]}``); both lay and return are seen by the two only;
- ``ansagen`` and ``play``: the tricks (D2). While any seat may still announce (D7) the phase
  is ``ansagen``: the seat to play may announce (``{"ansage": "re"}``, ``"kontra"``,
  ``"keine_90"`` ... ``"schwarz"``: the step its party is raised to) before its card, and the
  others out of turn (``free_kinds``); once nobody may, ``play``.

Team 0 is Re, team 1 Kontra (D5). In a normal game the ``EO`` holders are Re from the deal on;
``public_team`` shows a party only as D5.6 lets the table know it (``parties``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import cached_property
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import PLAY, Action, IllegalAction
from engine.cards import BELLS, CARD_POINTS, TRUMP, Card, codes, twice_mask
from engine.hand import PLAYING, HandResult
from engine.rules.base import Options, Rules
from engine.rules.doppelkopf import computer, parties, refusals, scoring
from engine.rules.doppelkopf.announce import NEVER, floor, steps
from engine.rules.doppelkopf.deck import (
    ALTE,
    DULLE,
    FUCHS,
    NORMAL_SUIT,
    NORMAL_TOP,
    NORMAL_TRUMPS,
    PACK_40,
    PACK_48,
    SOLOS,
    normal_trumps,
    order_of,
)
from engine.rules.doppelkopf.games import (
    ARMUT,
    EXTRA_GAMES,
    HOCHZEIT,
    NORMAL,
    STILLE,
    contract_word,
    order_key,
    precedence,
)
from engine.rules.doppelkopf.kinds import (
    ANSAGE,
    ANSAGE_ACTIONS,
    ANSAGEN,
    GESUND_ACTION,
    GIVE_BACK,
    KONTRA,
    LAY,
    MITNEHMEN,
    PARTY_WORDS,
    RE,
    RESERVE,
    RUECKGABE,
    SOLO_ACTIONS,
    TAKE,
    TAKE_ACTION,
    VORBEHALT,
    VORBEHALT_KIND,
    VORFUEHREN,
    WEITER_ACTION,
    step_word,
)
from engine.rules.doppelkopf.kinds import ARMUT as ARMUT_PHASE
from engine.rules.doppelkopf.kinds import ARMUT_KIND as ARMUT_WORD
from engine.rules.doppelkopf.options import DoppelkopfOptions
from engine.rules.doppelkopf.words import KIND_WORDS
from engine.status import RecordError, Status

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.trumps import TrumpOrder
    from engine.view import SeatView

#: The most a seat's score can move in one deal: a solo's 3 S, S at most 21 (won, 90/60/30,
#: schwarz, Re and Kontra, eight Absage steps, four "reached against").
SWING = 63
#: The seats in order from each forehand.
_ROUND = tuple(tuple((start + k) % 4 for k in range(4)) for start in range(4))
#: The phases before the tricks, decided by the rules of thumb (``computer``).
BEFORE_PLAY = frozenset({VORBEHALT, VORFUEHREN, ARMUT_PHASE, MITNEHMEN, RUECKGABE})
_ASKED = (TAKE_ACTION, WEITER_ACTION)


class Doppelkopf(Rules):
    game = "doppelkopf"
    title = "Doppelkopf"
    #: Doppelkopf is played with the French pack (RULINGS.md D1.1); a server may still
    #: choose German faces for every game (``/admin faces``).
    faces = "french"
    options_model = DoppelkopfOptions
    goal = (
        "Take at least 121 of the 240 Augen with your party: the two holders of the "
        "Kreuz-Damen (EO) are Re, the other two Kontra, and nobody knows who is with whom "
        "until the cards or an announcement show it; a soloist plays alone against three. "
        "Announcing Re or Kontra, keine 90 and beyond makes the deal worth more, and a match "
        "adds the points up."
    )
    rulings = (
        "4 players, 48 cards: A 10 K O U 9 of each suit (O the Queen, U the Jack), each card "
        "twice (option: no nines, 40). Dealt three at a time from forehand, the seat after "
        "the dealer; the deal passes on. Augen A 11, 10 10, K 4, O 3, U 2: 240.",
        "Normal game trumps, high to low: H10 (the Dullen), EO GO HO SO, EU GU HU SU, SA S10 "
        "SK S9; clubs, spades and hearts (without its Ten) are plain suits A 10 K 9. Follow suit "
        "(trumps are one suit), else any card; no duty to trump. Of two identical cards the "
        "first played wins (option: the second Dulle beats the first).",
        "Before play each seat from forehand says gesund or Vorbehalt: a solo, a Hochzeit "
        "(both EO) or, as an option, an Armut. Pflichtsolo beats Lustsolo beats Armut beats "
        "Hochzeit, then the seat nearer forehand; only the winning Vorbehalt is shown.",
        "Normal game: the holders of the EO are Re, the others Kontra, shown only by an EO "
        "played, an announcement, a plain card on a trump lead, or two EO played by two "
        "seats. Both EO and gesund: a stille Hochzeit, alone and secret.",
        "Hochzeit: the holder of both EO plays with whoever else first wins one of the first "
        "three tricks (option: a plain-suit or a trump trick only); if nobody does, he plays "
        "a Karo-Solo.",
        "Solos: clubs, spades, hearts, diamonds (H10, Queens, Jacks, then that suit), Damen or "
        "Buben (only those are trumps), Fleischloser (no trumps). The soloist is Re alone; "
        "forehand leads (option: the soloist, who always leads a Pflichtsolo).",
        "Announcements, by the cards you hold: Re or Kontra until your second card, keine 90 "
        "until your third, keine 60, keine 30, schwarz one card later each; after a Hochzeit "
        "later by the tricks it took to find the partner. Steps may be skipped in time. A "
        "party that missed its own may answer Re or Kontra one card after the other's step.",
        "All tricks are played. Re wins with 121 Augen, Kontra with 120 (121 if only Kontra "
        "announced); after its keine 90 a party needs 151 (keine 60: 181, keine 30: 211, "
        "schwarz: every trick), its opponents only 90 (60, 30, a trick). Both may fail.",
        "Game points: won 1; the losers under 90, 60, 30, schwarz 1 each; Re, Kontra "
        "announced 2 each; each Absage step 1; 120 against keine 90 (90 against keine 60...) "
        "1. If nobody wins, only the under and against points count.",
        "Extras, only in normal games: against the Kreuz-Damen (Kontra won), each Doppelkopf "
        "(a trick of 40 Augen), each Fuchs (SA) caught, Karlchen (EU wins the last trick), "
        "for the party that earned them, netted against the other's.",
        "Each Re player scores the net S, each Kontra player -S; a soloist 3 S. A match is "
        "24 counted deals (option); the highest total wins.",
        "Options: Schweinchen (both SA in one hand rank above the Dullen), Armut (three trumps "
        "or fewer passed to a partner), Pflichtsolo (one solo each per match, vorgeführt at "
        "the end), the extras and solos, the Hochzeit's trick, a Lustsolo's lead.",
        "House rules: the first seat deals first; a Vorbehalt names its kind at once; no "
        "claims; no nines: dealt 3-4-3; an Armut nobody takes is dealt again; a party is "
        "shown only when the play makes it certain for everyone.",
    )
    kind_words = KIND_WORDS
    score_kind = "match"

    fixed_teams = False
    score_by_seat = True
    status_fields: ClassVar[frozenset[str]] = frozenset({"score", "deals", "solos"})
    #: The phases before the tricks and the first tricks (``ansagen``) go by the rules of
    #: thumb at every level (``computer``): the search plays the ``play`` phase.
    searched_choices: ClassVar[frozenset[str]] = frozenset({ANSAGEN})

    players = 4
    teams = 2
    pack = PACK_48
    packets: tuple[int, ...] = (3, 3, 3, 3)
    points = CARD_POINTS
    total_points = 240
    top_trumps = NORMAL_TOP
    usual_trump = BELLS
    must_trump = False
    free_kinds = frozenset({ANSAGE})

    def __init__(self, options: Options) -> None:
        assert isinstance(options, DoppelkopfOptions)
        if not options.nines:
            self.pack = PACK_40
            self.packets = (3, 4, 3)  # D3.3
        super().__init__(options)
        self.opts = options
        self.n = len(self.pack) // 4
        self.match_deals = options.match_deals
        self.after_trick = self._after_trick
        self.early_end = False  # D8.1: all tricks are played

    # -- the deal --------------------------------------------------------------------------

    def start(self, hand: Hand) -> None:
        hand.set_order(order_of(NORMAL))
        hand.trump = None  # nothing is settled before the Vorbehalt phase
        forehand = (hand.dealer + 1) % 4
        hand.pending.update(
            said=(), kind=None, declarer=None, partner=None, k=None, alone=False,
            pflicht=False, vorgefuehrt=False, levels=(0, 0), replied=(False, False),
            ansagen=(), laid=None, declined=(), returned=None, schwein=None, offers={},
            twice=tuple(map(twice_mask, hand.hands)), floor=(NEVER, NEVER),
        )
        self._form(hand, {s for s in range(4) if ALTE in hand.hands[s]})
        hand.leader = hand.to_move = forehand
        owner = self.vorgefuehrt_seat(hand.status, forehand)
        if owner is not None:
            # D6.6: no Vorbehalt phase; the seat names its Pflichtsolo.
            hand.pending.update(vorgefuehrt=True, declarer=owner, pflicht=True)
            self._form(hand, {owner})
            hand.phase = VORFUEHREN
            hand.to_move = owner
        else:
            hand.phase = VORBEHALT

    @staticmethod
    def forehand(hand: Hand) -> int:
        return (hand.dealer + 1) % 4

    @staticmethod
    def _form(hand: Hand, re: set[int]) -> None:
        for s in range(4):
            hand.set_team(s, RE if s in re else KONTRA)

    def owes(self, status: Status, seat: int) -> bool:
        """D6.5: ``seat`` has still to play its Pflichtsolo in this match."""
        return self.opts.pflichtsolo and not (status.solos or (0,) * 4)[seat]

    def vorgefuehrt_seat(self, status: Status, forehand: int) -> int | None:
        """D6.6: the seat whose Pflichtsolo is vorgeführt in the next deal, if any: when as
        many deals are left as seats still owe one, the first of them from forehand."""
        if not self.opts.pflichtsolo:
            return None
        owing = [s for s in _ROUND[forehand] if self.owes(status, s)]
        left = self.match_deals - (status.deals or 0)
        return owing[0] if owing and len(owing) == left else None

    # -- who may do what -------------------------------------------------------------------

    def phase_legal(self, hand: Hand, seat: int) -> Sequence[Action]:
        phase = hand.phase
        if seat != hand.to_move:
            return ()
        if phase == ANSAGEN:
            cards = map(PLAY.__getitem__, self.play_cards(hand, seat))
            if len(hand.hands[seat]) < hand.pending["floor"][hand.team[seat]]:
                return tuple(cards)  # (the seat may announce nothing now: most cards)
            return (*cards, *self.announcements(hand, seat))
        if phase == VORBEHALT:
            offers = hand.pending["offers"]
            mine = offers.get(seat)
            if mine is None:
                kinds = self.reservations(hand.hands[seat], hand.status, seat)
                mine = (GESUND_ACTION, *map(RESERVE.__getitem__, kinds))
                hand.pending["offers"] = {**offers, seat: mine}
            return mine  # type: ignore[no-any-return]
        if phase == VORFUEHREN:
            return [SOLO_ACTIONS[s] for s in self.opts.solos()]
        if phase == ARMUT_PHASE:
            return [Action(LAY, cards) for cards in self.lays(hand.hands[seat])]
        if phase == MITNEHMEN:
            return _ASKED
        if phase == RUECKGABE:
            return [Action(GIVE_BACK, cards) for cards in _threes(hand.hands[seat])]
        return ()

    def reservations(self, cards: Sequence[Card], status: Status, seat: int) -> list[str]:
        """D4.2: a solo of ``solo_set`` (any hand); ``hochzeit`` with both ``EO``;
        ``armut`` (option) with three trumps or fewer and not both ``EO`` (D5.7)."""
        out: list[str] = list(self.opts.solos())
        both = cards.count(ALTE) == 2
        if both:
            out.append(HOCHZEIT)
        if self.opts.armut and not both and normal_trumps(list(cards)) <= 3:
            out.append(ARMUT_WORD)
        return out

    def lays(self, cards: Sequence[Card]) -> list[tuple[Card, ...]]:
        """D5.8.1: every trump, made up to three with plain cards of the seat's choice (each
        set of cards once), in card order."""
        trumps = [c for c in cards if NORMAL_SUIT[c] == TRUMP]
        plain = sorted(c for c in cards if NORMAL_SUIT[c] != TRUMP)
        fill = 3 - len(trumps)
        return sorted({tuple(sorted((*trumps, *rest))) for rest in combinations(plain, fill)})

    def play_cards(self, hand: Hand, seat: int) -> list[Card]:
        """D2.4 on the seat's cards, each card once, in card order (as the hand's own mask
        path lists them in the ``play`` phase)."""
        held = hand.hands[seat]
        if hand.trick:
            order = hand.order
            assert order is not None
            suit = order.suit
            led = suit[hand.trick[0]]
            follow = [c for c in held if suit[c] == led]
            if follow:
                held = follow
        return sorted(set(held))

    # -- phases before the tricks ----------------------------------------------------------

    def phase_apply(self, hand: Hand, seat: int, action: Action) -> None:
        self._appliers[hand.phase](hand, seat, action)

    @cached_property
    def _appliers(self) -> dict[str, Callable[[Hand, int, Action], None]]:
        return {VORBEHALT: self._vorbehalt, VORFUEHREN: self._vorfuehren,
                ARMUT_PHASE: self._lay, MITNEHMEN: self._ask, RUECKGABE: self._give_back,
                ANSAGEN: self._ansagen}

    def _vorbehalt(self, hand: Hand, seat: int, action: Action) -> None:
        kind = action.value if action.kind == VORBEHALT_KIND else None
        said = (*hand.pending["said"], (seat, kind))
        hand.pending["said"] = said
        if len(said) < 4:
            hand.to_move = (seat + 1) % 4
            return
        # D4.3: the winning Vorbehalt (D14.7: equal categories go to the seat nearer
        # forehand, the earlier in ``said``).
        best: tuple[int, int, int, str] | None = None
        for i, (s, k) in enumerate(said):
            if k is None:
                continue
            rank = (precedence(k, pflicht=self.owes(hand.status, s)), -i, s, k)
            if best is None or rank > best:
                best = rank
        if best is None:
            both = [s for s in range(4) if hand.hands[s].count(ALTE) == 2]
            if both:
                self._settle_game(hand, STILLE, both[0])  # D5.5
            else:
                self._settle_game(hand, NORMAL, None)
            return
        _, _, s, k = best
        if k == ARMUT_WORD:
            p = hand.pending
            p["kind"], p["declarer"] = ARMUT, s
            self._form(hand, {s})
            hand.phase = ARMUT_PHASE
            hand.to_move = s
            return
        self._settle_game(hand, k, s, pflicht=k in SOLOS and self.owes(hand.status, s))

    def _vorfuehren(self, hand: Hand, seat: int, action: Action) -> None:
        self._settle_game(hand, action.value, seat, pflicht=True)

    def _settle_game(self, hand: Hand, kind: str, declarer: int | None, *,
                     pflicht: bool = False) -> None:
        """The kind of game is settled (D4.4): parties, trumps, who leads."""
        p = hand.pending
        p["kind"], p["declarer"], p["pflicht"] = kind, declarer, pflicht
        if kind in SOLOS or kind == STILLE:
            p["alone"] = True
        if declarer is not None and kind != NORMAL:
            self._form(hand, {declarer})
        lead = self.forehand(hand)
        if kind in SOLOS and (pflicht or self.opts.lustsolo_lead == "soloist"):
            assert declarer is not None
            lead = declarer  # D6.4
        self._start_play(hand, lead)

    def _start_play(self, hand: Hand, lead: int) -> None:
        p = hand.pending
        key = order_key(p["kind"])
        pig = None
        if self.opts.schweinchen and key in NORMAL_TRUMPS:
            # D2.9: one seat holds both Fuchs once play begins.
            pig = next((s for s in range(4) if hand.hands[s].count(FUCHS) == 2), None)
        p["schwein"] = pig
        hand.set_order(order_of(key, pig is not None))
        hand.leader = hand.to_move = lead
        hand.phase = ANSAGEN
        self._floors(hand)
        self._reopen(hand)

    # -- D5.8 the Armut ----------------------------------------------------------------------

    def _lay(self, hand: Hand, seat: int, action: Action) -> None:
        for c in action.value:
            hand.hands[seat].remove(c)
        self._moved(hand)
        hand.pending["laid"] = action.value
        hand.phase = MITNEHMEN
        hand.to_move = (seat + 1) % 4

    def _ask(self, hand: Hand, seat: int, action: Action) -> None:
        p = hand.pending
        if action.kind == TAKE:
            hand.hands[seat].extend(p["laid"])
            self._moved(hand)
            p["partner"] = seat
            hand.set_team(seat, RE)
            hand.phase = RUECKGABE
            return
        p["declined"] = (*p["declined"], seat)
        nxt = (seat + 1) % 4
        if nxt == p["declarer"]:
            scoring.thrown_in(self, hand)  # D5.8.3
            return
        hand.to_move = nxt

    def _give_back(self, hand: Hand, seat: int, action: Action) -> None:
        for c in action.value:
            hand.hands[seat].remove(c)
        hand.hands[hand.pending["declarer"]].extend(action.value)
        self._moved(hand)
        hand.pending["returned"] = action.value
        self._start_play(hand, self.forehand(hand))

    @staticmethod
    def _moved(hand: Hand) -> None:
        """Cards changed hands (the Armut): the masks, and the cards each seat holds twice."""
        hand.hands_changed()
        hand.pending["twice"] = tuple(map(twice_mask, hand.hands))

    # -- the tricks ----------------------------------------------------------------------------

    def _ansagen(self, hand: Hand, seat: int, action: Action) -> None:
        if action.kind == ANSAGE:
            self._announce(hand, seat, action)
            return
        # A card goes through the trick loop like any other; the phase is worked out again.
        hand.actions.pop()
        hand.phase = PLAYING
        hand.apply(seat, action)
        if not hand.play_over:
            hand.phase = ANSAGEN
            self._reopen(hand)

    def _reopen(self, hand: Hand) -> None:
        """``ansagen`` while any seat may announce now or later, else ``play``, for good:
        a Hochzeit's announcements start after its Klärungsstich, and otherwise nobody who
        may not announce now ever may again (a deadline only comes nearer; a reply needs
        the other party to announce first). The search relies on it: a deal in ``play``
        stays there, so its playouts meet no announcement."""
        if hand.play_over or hand.phase != ANSAGEN:
            return  # (``play`` is for good)
        p = hand.pending
        if p["kind"] == HOCHZEIT and p["k"] is None:
            return
        low, team, hands = p["floor"], hand.team, hand.hands
        if not any(len(hands[s]) >= low[team[s]] for s in range(4)):
            hand.phase = PLAYING

    def _floors(self, hand: Hand) -> None:
        """Each party's ``announce.floor``: once the game is settled (in a Hochzeit, at the
        Klärungsstich), and after each announcement."""
        p = hand.pending
        levels, replied, shift = p["levels"], p["replied"], self.shift(hand)
        if p["kind"] == HOCHZEIT and p["k"] is None:
            p["floor"] = (NEVER, NEVER)
            return
        p["floor"] = tuple(floor(self.n, shift, own=levels[party], other=levels[1 - party],
                                 replied=replied[party]) for party in (RE, KONTRA))

    def _after_trick(self, hand: Hand) -> None:
        t = hand.tricks[-1]
        order = hand.order
        assert order is not None
        mode = self.opts.dullen
        if mode != "first" and t.cards.count(DULLE) == 2 and order.suit[DULLE] == TRUMP \
                and t.cards[(t.winner - t.leader) % 4] == DULLE \
                and (mode == "second" or hand.hands[t.winner]):
            # D2.6: the second Dulle beats the first (but in the last trick, for
            # ``second_except_last``).
            later = len(t.cards) - 1 - t.cards[::-1].index(DULLE)
            hand.give_trick((t.leader + later) % 4)
        p = hand.pending
        p["twice"] = hand.fold_pairs(p["twice"])
        if p["kind"] == HOCHZEIT and p["k"] is None:
            self._klaerung(hand)
        self._reopen(hand)

    def _klaerung(self, hand: Hand) -> None:
        """D5.3, D5.4: the Klärungsstich."""
        p = hand.pending
        t = hand.tricks[-1]
        number = len(hand.tricks)
        finder = self.opts.hochzeit_finder
        trump_led = NORMAL_SUIT[t.cards[0]] == TRUMP
        if t.winner != p["declarer"] and (finder == "any" or trump_led == (finder == "trump")):
            p["k"], p["partner"] = number, t.winner
            hand.set_team(t.winner, RE)
        elif number == 3:
            p["k"], p["alone"] = 3, True  # a Karo-Solo of the Hochzeit player
        if p["k"] is not None:
            self._floors(hand)

    # -- D7 announcements ------------------------------------------------------------------

    def shift(self, hand: Hand) -> int:
        k = hand.pending["k"]
        return k - 1 if hand.pending["kind"] == HOCHZEIT and k is not None else 0

    def ansage_steps(self, hand: Hand, seat: int) -> tuple[tuple[int, ...], bool]:
        p = hand.pending
        kind = p["kind"]
        if kind is None or hand.play_over or hand.phase not in (PLAYING, ANSAGEN) or (
                kind == HOCHZEIT and p["k"] is None):
            return (), False  # D7.3
        party = hand.team[seat]
        if len(hand.hands[seat]) < p["floor"][party]:
            return (), False
        levels = p["levels"]
        return steps(self.n, self.shift(hand), held=len(hand.hands[seat]),
                     own=levels[party], other=levels[1 - party], replied=p["replied"][party])

    def announcements(self, hand: Hand, seat: int) -> list[Action]:
        levels, _ = self.ansage_steps(hand, seat)
        party = hand.team[seat]
        return [ANSAGE_ACTIONS[step_word(party, level)] for level in levels]

    def free_legal(self, hand: Hand, seat: int) -> list[Action]:
        """D7.2: any seat of a party may announce at any moment of the window; the seat to
        play has its announcements among its legal actions."""
        if hand.phase != ANSAGEN or seat == hand.to_move or not 0 <= seat < 4:
            return []
        return self.announcements(hand, seat)

    def free_apply(self, hand: Hand, seat: int, action: Action) -> None:
        self._announce(hand, seat, action)

    def _announce(self, hand: Hand, seat: int, action: Action) -> None:
        p = hand.pending
        party = hand.team[seat]
        levels = list(p["levels"])
        _, reply = self.ansage_steps(hand, seat)
        to = ANSAGE_LEVEL[action.value]
        # D11.5: seat, party, from and to, the cards held, a late reply or not.
        p["ansagen"] = (*p["ansagen"], (seat, party, levels[party], to, len(hand.hands[seat]),
                                        reply))
        levels[party] = to
        p["levels"] = tuple(levels)
        if reply:
            replied = list(p["replied"])
            replied[party] = True
            p["replied"] = tuple(replied)
        self._floors(hand)
        self._reopen(hand)

    # -- refusals (engine.rules.doppelkopf.refusals) ----------------------------------------

    def explain(self, hand: Hand, seat: int, action: Action) -> IllegalAction:
        return refusals.explain(self, hand, seat, action)

    # -- the end ---------------------------------------------------------------------------

    def settle(self, hand: Hand) -> None:
        scoring.settle(self, hand)

    def outcome(self, status: Status, points: Sequence[int]) -> Hashable:
        """Whether Re made 121 (the search values whole deals: ``hand_value``)."""
        return points[0] >= 121

    def outcome_value(self, status_before: Status, outcome: Hashable, team: int) -> float:
        return 1.0 if bool(outcome) == (team == RE) else -1.0

    def payouts(self, result: HandResult) -> tuple[float, ...] | None:
        return tuple(float(x) for x in result.extra["scores"])

    def hand_value(self, hand: Hand, team: int) -> float:
        """The score of a seat of ``team``, softly capped (a solo's 3 S is worth more than a
        normal game's S, but not without bound), plus a small share for its party's Augen."""
        result = hand.result
        if result is None:
            return 0.0
        seat = next(s for s in range(4) if hand.team[s] == team)
        v = 6.0 * math.tanh(result.extra["scores"][seat] / 6.0)
        return v + (2 * hand.team_taken[team] - 240) / 2400

    def position_key(self, hand: Hand) -> tuple[object, ...]:
        """Besides the cards held (the hand's masks have each card once: the cards held
        twice too), leader, Augen and teams, a deal's value from a trick's start depends on
        the levels (and late replies), the tricks each party took (schwarz) and the extras
        already earned."""
        p = hand.pending
        team = hand.team
        tricks = [0, 0]
        for t in hand.tricks:
            tricks[team[t.winner]] += 1
        earned = tuple((i.name, i.party) for i in scoring.trick_extras(
            hand.tricks, team, self.opts.extra_items(), self.points, final=False))
        return (*p["twice"], p["levels"], p["replied"], *tricks, earned)

    def check_status(self, status: Status) -> None:
        """A status a match reaches (D6.7, D9.8, D14.10): a score per seat adding up to
        zero, all even or all odd, moved at most ``SWING`` a deal played; the counted deals
        below ``match_deals`` (a match over is no status); with ``pflichtsolo`` each seat's
        Pflichtsolo played (0 or 1), never more owed than deals are left."""
        super().check_status(status)
        score, deals, solos = status.score, status.deals, status.solos
        if score is not None and len(score) != 4:
            raise RecordError("status.score must hold one number per seat (4)")
        if deals is not None and not 0 <= deals < self.match_deals:
            raise RecordError(f"status.deals must be from 0 to {self.match_deals - 1}: a "
                              "match that is over is no status (D14.10)")
        if (score is None) != (deals is None):
            raise RecordError("status.score and status.deals go together (every deal writes "
                              "both)")
        if solos is not None:
            if not self.opts.pflichtsolo:
                raise RecordError("status.solos needs the pflichtsolo option")
            if len(solos) != 4 or any(x not in (0, 1) for x in solos):
                raise RecordError("status.solos holds 0 or 1 per seat: its Pflichtsolo played")
        if self.opts.pflichtsolo:
            owed = sum(1 for s in range(4) if self.owes(status, s))
            if owed > self.match_deals - (deals or 0):
                raise RecordError("more Pflichtsoli are owed than deals are left (D14.10)")
        if score is None:
            return
        if sum(score):
            raise RecordError("status.score must add up to 0: what one seat wins the others "
                              "pay")
        if len({x % 2 for x in score}) > 1:
            raise RecordError("status.score: every deal's scores are all even or all odd "
                              "(D9.8), so the totals are too")
        # A Pflichtsolo not vorgeführt is a deal that is not counted (D6.5).
        played = (deals or 0) + sum(solos or ())
        if any(abs(x) > SWING * played for x in score):
            raise RecordError(f"status.score cannot have moved more than {SWING} a deal in "
                              f"{played} deal(s)")

    def first_dealer(self, status: Status, rng: Any) -> int:
        return 0  # D3.1

    def match_goal(self) -> str | None:
        return (f"A match is {self.match_deals} counted deals; the highest total score "
                "wins it.")

    # -- what the table knows (engine.rules.doppelkopf.parties) ------------------------------

    def public_order(self, hand: Hand) -> TrumpOrder | None:
        """D2.9: the Schweinchen is told when the first Fuchs is played; until then the table
        (and the trump line, and the order a hand is sorted by) knows the normal order."""
        if hand.pending.get("schwein") is not None and not self._pig_told(hand):
            return order_of(order_key(hand.pending["kind"]), False)
        return hand.order

    @staticmethod
    def _pig_told(hand: Hand) -> bool:
        return FUCHS in hand.trick or any(FUCHS in t.cards for t in hand.tricks)

    def public_team(self, hand: Hand, seat: int) -> int | None:
        return parties.shown(hand)[seat]

    def public_teams(self, hand: Hand) -> list[int | None]:
        return parties.shown(hand)

    def public_team_points(self, hand: Hand) -> tuple[int, ...]:
        return tuple(hand.team_taken) if parties.all_shown(hand) else ()

    def side_roles(self, hand: Hand) -> tuple[str, ...]:
        return PARTY_WORDS if hand.pending["kind"] is not None or \
            hand.pending["vorgefuehrt"] else ()

    def public_action(self, hand: Hand, seat: int, action: Action) -> Action | None:
        # D4.4: a Vorbehalt's kind is never shown (the winning one is, as the game); the
        # Armut's cards are seen by the two only (D5.8).
        return None if action.kind in (VORBEHALT_KIND, LAY, GIVE_BACK) else action

    def public_kind(self, hand: Hand) -> str | None:
        """The game as the table knows it: a stille Hochzeit is a normal game until it
        shows itself (D5.6 (g))."""
        kind: str | None = hand.pending["kind"]
        if kind == STILLE and not parties.all_shown(hand):
            return NORMAL
        return kind

    def public_info(self, hand: Hand) -> dict[str, Any]:
        p = hand.pending
        info: dict[str, Any] = {}
        said = [s for s, k in p["said"] if k is not None]
        if said:
            info["vorbehalt"] = said
        kind = self.public_kind(hand)
        if kind is not None:
            info["spiel"] = contract_word(kind, alone=p["alone"])
            if p["declarer"] is not None and kind != NORMAL:
                info["declarer"] = p["declarer"]
            if p["partner"] is not None:
                info["partner"] = p["partner"]
            if kind == HOCHZEIT and p["k"] is not None:
                info["klaerung"] = p["k"]
        elif p["vorgefuehrt"]:
            info["declarer"] = p["declarer"]
        if p["pflicht"]:
            info["pflichtsolo"] = True
        if p["vorgefuehrt"]:
            info["vorgefuehrt"] = p["declarer"]
        if p["declined"]:
            info["armut_declined"] = list(p["declined"])
        if p["returned"] is not None:
            info["armut_trumps_back"] = normal_trumps(p["returned"])
        if p["ansagen"]:
            info["ansagen"] = [{"seat": seat, "party": PARTY_WORDS[party],
                                "ansage": step_word(party, to), "reply": reply}
                               for seat, party, _, to, _, reply in p["ansagen"]]
        if p["kind"] is not None and hand.phase in (PLAYING, ANSAGEN):
            levels = p["levels"]
            info["levels"] = {"re": levels[RE], "kontra": levels[KONTRA]}
            info["needs"] = {"re": scoring.needs(RE, levels),
                             "kontra": scoring.needs(KONTRA, levels)}
        pig = p["schwein"]
        if pig is not None and self._pig_told(hand):
            info["schweinchen"] = pig  # D2.9: told when the first is played
        if parties.all_shown(hand) and p["kind"] is not None and hand.tricks:
            extras = scoring.trick_extras(
                hand.tricks, hand.team, self.opts.extra_items() if (
                    p["kind"] in (NORMAL, HOCHZEIT, ARMUT) and not p["alone"]) else (),
                self.points, final=hand.play_over)
            if extras:
                info["sonderpunkte"] = [{"extra": i.name, "party": PARTY_WORDS[i.party]}
                                        for i in extras]
        elif kind in EXTRA_GAMES and hand.tricks and not (p["alone"] and kind == p["kind"]):
            # The tricks as the table sees them; a stille Hochzeit looks like a normal game
            # here too, so its extras are shown as a normal game's would be (D5.6 (g)).
            seen = scoring.seen_extras(hand.tricks, self.opts.extra_items(), self.points,
                                       final=hand.play_over)
            if seen:
                info["extras_seen"] = seen
        info["match"] = {"deals": hand.status.deals or 0, "length": self.match_deals}
        if self.opts.pflichtsolo:
            info["pflicht_owed"] = [s for s in range(4) if self.owes(hand.status, s)]
        return info

    def private_info(self, hand: Hand, seat: int) -> dict[str, Any]:
        p = hand.pending
        out: dict[str, Any] = {}
        if parties.shown(hand)[seat] is None:
            own = parties.own_party(hand, seat)
            if own is not None:
                out["team"] = own
            if p["kind"] == STILLE and seat == p["declarer"]:
                out["stille_hochzeit"] = True
        mine = next((k for s, k in p["said"] if s == seat), None)
        if mine is not None:
            out["vorbehalt"] = mine
        if p["laid"] is not None and seat in (p["declarer"], p["partner"]):
            out["armut"] = {"laid": codes(p["laid"]),
                            "returned": codes(p["returned"]) if p["returned"] else []}
        return out

    # -- computer players (engine.rules.doppelkopf.computer) --------------------------------

    def suggest(self, view: SeatView) -> Action | None:
        return computer.suggest(self, view)

    def thumb(self, hand: Hand, seat: int) -> Action | None:
        return computer.thumb(self, hand, seat)

    def determinize(self, view: SeatView, hidden: Mapping[int, Sequence[Card]]) -> Hand | None:
        return computer.determinize(self, view, hidden)


#: The level each announcement word raises its party to.
ANSAGE_LEVEL = {"re": 1, "kontra": 1, "keine_90": 2, "keine_60": 3, "keine_30": 4,
                "schwarz": 5}


def _threes(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every set of three of ``cards`` (each once), in card order: D5.8.2's return."""
    return sorted(set(combinations(sorted(cards), 3)))

