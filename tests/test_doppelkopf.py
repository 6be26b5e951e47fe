"""Doppelkopf (RULINGS.md, "Doppelkopf", D1-D14; game id ``doppelkopf``): a test per ruling
group, per option of D10, the worked examples of D13 (as golden records), the points D14 makes
explicit, what the table shows of the parties at every step, random play, and the computers.

Deals are laid out seat by seat (``BASE``: seat 0 and seat 2 hold an ``EO`` each); the dealer
is seat 3, so seat 0 is forehand, as in D13.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from deal import deal as shared_deal

from engine import (
    Action,
    Hand,
    IllegalAction,
    Match,
    OptionsError,
    RecordError,
    ReplayError,
    Status,
    make_rules,
    public_view,
    replay,
    seat_view,
    to_record,
)
from engine.ai import make_player
from engine.cards import CARD_POINTS, card, code, codes
from engine.ranking import card_ranking
from engine.rules.doppelkopf.deck import trumps_of
from engine.rules.doppelkopf.scoring import Item, needs, tally

GOLDEN = Path(__file__).parent / "golden"

#: Seat 0 and seat 2 hold an EO (Re in a normal game), seat 1 and seat 3 none.
BASE = [
    "EO HO SU SA S10 H10 EA EK GA G9 HA H9",
    "GO SO GU HU SK S9 E10 E9 G10 GK HK H9",
    "EO H10 EU GO SA SK EA E10 GA G10 HA HK",
    "HO SO EU GU HU SU S10 S9 EK E9 GK G9",
]


def swap(hands: list[str], a: tuple[int, str], b: tuple[int, str]) -> list[str]:
    """``hands`` with seat ``a[0]``'s ``a[1]`` and seat ``b[0]``'s ``b[1]`` exchanged."""
    out = [h.split() for h in hands]
    out[a[0]].remove(a[1])
    out[b[0]].remove(b[1])
    out[a[0]].append(b[1])
    out[b[0]].append(a[1])
    return [" ".join(h) for h in out]


#: Seat 1 holds both EO (a Hochzeit, or a stille Hochzeit).
BOTH_EO = swap(swap(BASE, (0, "EO"), (1, "GO")), (2, "EO"), (1, "SO"))


def dk(hands: list[str] = BASE, dealer: int = 3, status: Status | None = None,
       **options: Any) -> Hand:
    return shared_deal("doppelkopf", hands, dealer, status, **options)


def A(kind: str, value: Any = True) -> Action:
    if kind == "card":
        return Action("card", card(value))
    return Action(kind, value)


def gesund(hand: Hand) -> None:
    while hand.phase == "vorbehalt":
        hand.apply(hand.to_move, A("gesund"))  # type: ignore[arg-type]


def play(hand: Hand, *cards: str) -> None:
    """Each card by the seat to move."""
    for c in " ".join(cards).replace("|", " ").split():
        hand.apply(hand.to_move, A("card", c))  # type: ignore[arg-type]


def legal(hand: Hand) -> list[str]:
    return [code(a.value) for a in hand.legal_actions() if a.kind == "card"]


def cards_of(text: str) -> list[int]:
    return [card(c) for c in text.split()]


def follow(hand: Hand, cards: int) -> None:
    """The seats to move play their first legal card, ``cards`` times."""
    for _ in range(cards):
        play(hand, legal(hand)[0])


def say(hand: Hand, seat: int, word: str) -> None:
    hand.apply(seat, A("ansage", word))


def refused(hand: Hand, seat: int, action: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        hand.apply(seat, action)
    return e.value


def finish(hand: Hand, rng: random.Random | None = None) -> None:
    """Play the rest with random legal cards."""
    rng = rng or random.Random(0)
    while not hand.finished:
        cards = [a for a in hand.legal_actions() if a.kind == "card"]
        hand.apply(hand.to_move, rng.choice(cards))  # type: ignore[arg-type]


# -- D1 cards and card points -------------------------------------------------------------------


@pytest.mark.parametrize(("nines", "size"), [(True, 48), (False, 40)])
def test_d1_every_card_twice_and_240_augen(nines: bool, size: int) -> None:
    rules = make_rules("doppelkopf", {"nines": nines})
    counts = Counter(rules.pack)
    assert len(rules.pack) == size and set(counts.values()) == {2}
    assert sum(CARD_POINTS[c] for c in rules.pack) == 240
    hand = Match(rules, seed=1).deal()
    assert [len(h) for h in hand.hands] == [size // 4] * 4
    assert ("E9" in codes(rules.pack)) is nines


def test_d1_a_pack_must_hold_each_card_exactly_twice() -> None:
    rules = make_rules("doppelkopf")
    pack = list(rules.pack)
    pack[pack.index(card("GO"))] = card("EO")  # three EO, one GO
    with pytest.raises(RecordError, match="twice"):
        Hand(rules, 0, pack)


# -- D2 trumps, following, winning ---------------------------------------------------------


def test_d2_2_the_normal_games_trumps_and_plain_suits() -> None:
    r = card_ranking(make_rules("doppelkopf"))
    assert " ".join(codes(r.trumps)) == "H10 EO GO HO SO EU GU HU SU SA S10 SK S9"
    plain = {s: codes(cs) for s, cs in r.plain}
    assert plain == {0: ["EA", "E10", "EK", "E9"], 1: ["GA", "G10", "GK", "G9"],
                     2: ["HA", "HK", "H9"]}


def test_d2_8a_a_heart_led_asks_for_a_plain_heart() -> None:
    hand = dk()
    gesund(hand)
    play(hand, "HA")  # seat 0 leads a Herz; seat 1 holds HK H9 (and no H10)
    assert legal(hand) == ["HK", "H9"]
    # Seat 2 holds HA HK and H10: H10 is a trump, and does not count as Herz.
    play(hand, "HK")
    assert legal(hand) == ["HA", "HK"]
    play(hand, "HA", "S9")  # seat 3 has no Herz at all: any card
    hand2 = dk(swap(BASE, (2, "HA"), (1, "S9")))
    gesund(hand2)
    play(hand2, "HA", "HK")
    # Seat 2's only Herz is now HK... and its H10, which is a trump: HK it must be.
    assert legal(hand2) == ["HK"]


def test_d2_5_of_two_identical_cards_the_first_wins() -> None:
    hand = dk()
    gesund(hand)
    play(hand, "GA", "G10", "GA", "G9")  # seat 0's GA, then seat 2's
    assert hand.tricks[0].winner == 0
    assert hand.taken[0] == 11 + 10 + 11


#: D2.8 (c): H10 by the leader (seat 0), EO, H10, SU; with each form of ``dullen``.
@pytest.mark.parametrize(("dullen", "winner"), [
    ("first", 0), ("second", 2), ("second_except_last", 2)])
def test_d2_6_the_two_dullen(dullen: str, winner: int) -> None:
    hand = dk(dullen=dullen)
    gesund(hand)
    play(hand, "H10", "GO", "H10", "SU")
    assert hand.tricks[0].winner == winner
    assert hand.leader == winner and hand.taken[winner] == 10 + 3 + 10 + 2


def test_d2_6_the_second_dulle_except_in_the_last_trick() -> None:
    # Seats 0 and 2 keep their H10 to the end; the rest is played so that seat 0 leads
    # the last trick: its H10, then seat 1, then seat 2's H10.
    for dullen, expected in (("first", 0), ("second", 2), ("second_except_last", 0)):
        rng = random.Random(3)
        for _ in range(200):
            hand = dk(dullen=dullen)
            gesund(hand)
            while len(hand.tricks) < 11:
                seat = hand.to_move
                assert seat is not None
                cards = [a for a in hand.legal_actions() if a.kind == "card"]
                keep = [a for a in cards if a.value != card("H10")] if seat in (0, 2) else cards
                hand.apply(seat, rng.choice(keep or cards))
            if hand.leader == 0 and hand.hands[0] == [card("H10")] == hand.hands[2] and \
                    hand.hands[1][0] not in (card("H10"),) and code(hand.hands[1][0]) not in (
                    "SA",) and code(hand.hands[3][0]) != "SA":
                play(hand, "H10", code(hand.hands[1][0]), "H10", code(hand.hands[3][0]))
                assert hand.tricks[-1].winner == expected, dullen
                break
        else:
            pytest.fail(f"no deal kept both Dullen to a last trick led by seat 0 ({dullen})")


def test_d2_8d_in_a_damensolo_the_h10_is_a_heart() -> None:
    hand = dk(swap(BASE, (1, "HK"), (0, "HA")))  # seat 0: HK H9, seat 1: HA H9
    for s, a in ((0, A("gesund")), (1, A("vorbehalt", "damen")), (2, A("gesund")),
                 (3, A("gesund"))):
        hand.apply(s, a)
    assert hand.pending["kind"] == "damen"
    play(hand, "HK", "H9")  # seat 0 leads HK (forehand leads a Lustsolo)
    assert legal(hand) == ["HA", "H10", "HK"]  # seat 2 holds HA H10 HK: H10 is Herz now
    play(hand, "H10")
    assert legal(hand) == ["HU"]  # seat 3's HU is a Herz card too, its HO a trump
    play(hand, "HU")
    assert hand.tricks[0].winner == 2  # A 10 K U 9: the Ten beats the King


def test_d2_9_schweinchen_the_two_fuchs_above_the_dullen() -> None:
    hands = swap(BASE, (2, "SA"), (0, "EK"))  # seat 0 holds both SA
    off = dk(hands)
    gesund(off)
    assert off.pending["schwein"] is None
    hand = dk(hands, schweinchen=True)
    gesund(hand)
    assert hand.pending["schwein"] == 0
    assert codes(trumps_of("normal", True))[:2] == ["SA", "H10"]
    assert "schweinchen" not in public_view(hand).public  # told when the first is played
    # Nor does the order the table is shown (the trump line, the hands' sorting) tell it.
    shown = public_view(hand).order
    assert shown is not None and shown.beats(card("H10"), card("SA"))
    assert seat_view(hand, 1).order == shown
    play(hand, "SA", "GO", "H10", "SU")
    assert hand.tricks[0].winner == 0 and public_view(hand).public["schweinchen"] == 0
    told = public_view(hand).order
    assert told is not None and told.beats(card("SA"), card("H10"))


# -- D3 dealing -----------------------------------------------------------------------------


@pytest.mark.parametrize("nines", [True, False])
def test_d3_dealing_in_threes_or_three_four_three(nines: bool) -> None:
    rules = make_rules("doppelkopf", {"nines": nines})
    for dealer in range(4):
        f = (dealer + 1) % 4
        if nines:
            seats = [(f + i // 3) % 4 for i in range(48)]
        else:
            seats = ([(f + i // 3) % 4 for i in range(12)]
                     + [(f + (i - 12) // 4) % 4 for i in range(12, 28)]
                     + [(f + (i - 28) // 3) % 4 for i in range(28, 40)])
        assert list(rules.holders(dealer)) == seats


def test_d3_1_seat_0_deals_first_and_the_deal_passes_on() -> None:
    match = Match(make_rules("doppelkopf"), seed=5)
    hand = match.deal()
    assert hand.dealer == 0 and hand.to_move == 1
    gesund(hand)
    finish(hand)
    assert match.record_result(hand).next_dealer == 1


# -- D4 the Vorbehalt phase -------------------------------------------------------------------


def test_d4_1_each_seat_once_from_forehand_and_what_it_may_say() -> None:
    hand = dk(BOTH_EO)
    assert hand.phase == "vorbehalt" and hand.to_move == 0

    def kinds(seat: int) -> list[str]:
        return [a.value for a in hand.legal_actions(seat) if a.kind == "vorbehalt"]

    assert kinds(0) == ["damen", "buben", "kreuz", "pik", "herz", "karo", "fleischlos"]
    hand.apply(0, A("gesund"))
    assert "hochzeit" in kinds(1)  # both EO
    assert [a.kind for a in hand.legal_actions(2)] == []  # not its turn
    assert refused(hand, 2, A("gesund")).reason == "not_your_turn"


def test_d4_7_the_winning_vorbehalt_and_the_others_kept_secret() -> None:
    # Seat 1 holds both EO and says Hochzeit, seat 2 names a Bubensolo: the solo wins.
    hand = dk(BOTH_EO)
    hand.apply(0, A("gesund"))
    hand.apply(1, A("vorbehalt", "hochzeit"))
    hand.apply(2, A("vorbehalt", "buben"))
    view = public_view(hand)
    assert view.public["vorbehalt"] == [1, 2] and "spiel" not in view.public
    assert [a for _, a in view.actions] == [A("gesund"), None, None]  # kinds never shown
    hand.apply(3, A("gesund"))
    view = public_view(hand)
    assert view.public["spiel"] == "bubensolo" and view.public["declarer"] == 2
    assert "hochzeit" not in json.dumps(view.public)
    assert view.team == (1, 1, 0, 1)  # a solo shows every party (D5.6 (a))
    assert seat_view(hand, 1).private["vorbehalt"] == "hochzeit"  # only seat 1 knows
    assert "vorbehalt" not in seat_view(hand, 0).private


def test_d4_7_a_pflichtsolo_beats_an_earlier_lustsolo() -> None:
    # Seat 0 has played its Pflichtsolo (a Lustsolo now), seat 2 still owes one.
    status = Status(score=(0, 0, 0, 0), deals=4, solos=(1, 1, 0, 1))
    hand = dk(status=status, pflichtsolo=True)
    hand.apply(0, A("vorbehalt", "kreuz"))
    hand.apply(1, A("gesund"))
    hand.apply(2, A("vorbehalt", "damen"))
    hand.apply(3, A("gesund"))
    p = hand.pending
    assert (p["kind"], p["declarer"], p["pflicht"]) == ("damen", 2, True)
    assert hand.to_move == 2  # a Pflichtsolo's soloist leads (D6.4)


def test_d14_7_two_lustsoli_the_seat_nearer_forehand_wins() -> None:
    hand = dk()
    hand.apply(0, A("gesund"))
    hand.apply(1, A("vorbehalt", "fleischlos"))
    hand.apply(2, A("vorbehalt", "kreuz"))
    hand.apply(3, A("vorbehalt", "damen"))
    assert (hand.pending["kind"], hand.pending["declarer"]) == ("fleischlos", 1)


def test_d4_2_refused_vorbehalte() -> None:
    hand = dk()
    assert refused(hand, 0, A("vorbehalt", "hochzeit")).reason == "vorbehalt_hochzeit"
    assert refused(hand, 0, A("vorbehalt", "armut")).reason == "vorbehalt_off"
    limited = dk(solo_set="damen_buben")
    assert refused(limited, 0, A("vorbehalt", "kreuz")).reason == "vorbehalt_off"
    # With armut on, a hand of more than three trumps may not take it (D5.7).
    assert refused(dk(armut=True), 0, A("vorbehalt", "armut")).reason == "vorbehalt_armut"


# -- D5 parties ----------------------------------------------------------------------------


def test_d5_1_the_eo_holders_are_re() -> None:
    hand = dk()
    gesund(hand)
    assert hand.pending["kind"] == "normal" and hand.team == [0, 1, 0, 1]
    assert public_view(hand).team == (None,) * 4
    assert seat_view(hand, 1).private["team"] == 1  # seat 1 knows: no EO
    assert public_view(hand).public["spiel"] == "normalspiel"


def hochzeit(hands: list[str] = BOTH_EO, **options: Any) -> Hand:
    hand = dk(hands, **options)
    hand.apply(0, A("gesund"))
    hand.apply(1, A("vorbehalt", "hochzeit"))
    hand.apply(2, A("gesund"))
    hand.apply(3, A("gesund"))
    return hand


def test_d5_3_the_hochzeit_finds_its_partner_and_shifts_the_deadlines() -> None:
    hand = hochzeit()
    assert public_view(hand).team == (None, 0, None, None)  # D14.3: its player at once
    assert hand.pending["kind"] == "hochzeit" and hand.to_move == 0
    assert refused(hand, 1, A("ansage", "re")).reason == "ansage_early"  # D7.3
    play(hand, "HA", "HK", "HA", "GK")  # trick 1: seat 0 wins (HA before HA): k = 1
    assert hand.pending["k"] == 1 and hand.pending["partner"] == 0
    assert public_view(hand).team == (0, 0, 1, 1)  # D5.6 (b)
    assert hand.team_points()[0] == 11 + 4 + 11 + 4  # Re counts it
    assert public_view(hand).public["klaerung"] == 1


def test_d5_3_a_hochzeit_that_wins_the_first_three_tricks_is_a_karo_solo() -> None:
    # Seat 1 holds both EO and both H10: it takes the first three tricks.
    hands = swap(swap(BOTH_EO, (0, "H10"), (1, "SK")), (2, "H10"), (1, "S9"))
    hand = hochzeit(hands)
    play(hand, "SA", "H10")
    follow(hand, 2)
    play(hand, "H10")
    follow(hand, 3)
    assert hand.pending["k"] is None and [t.winner for t in hand.tricks] == [1, 1]
    play(hand, "EO")
    follow(hand, 3)
    assert [t.winner for t in hand.tricks] == [1, 1, 1]
    p = hand.pending
    assert (p["k"], p["alone"], p["partner"]) == (3, True, None)
    assert public_view(hand).public["spiel"] == "hochzeit_solo"
    assert hand.team == [1, 0, 1, 1] and public_view(hand).team == (1, 0, 1, 1)
    assert rules_shift(hand) == 2


def rules_shift(hand: Hand) -> int:
    return hand.rules.shift(hand)  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize(("finder", "k"), [("any", 1), ("trump", 2), ("plain", 1)])
def test_d5_4_the_hochzeit_finder(finder: str, k: int) -> None:
    hand = hochzeit(hochzeit_finder=finder)
    play(hand, "HA", "HK", "HA", "GK")  # a plain trick won by seat 0
    assert hand.pending["k"] == (1 if finder != "trump" else None)
    play(hand, "SA", "SK", "SK", "SO")  # trick 2 led with a trump, won by seat 3 (SO)
    assert hand.pending["k"] == k
    assert hand.pending["partner"] == (0 if k == 1 else 3)


def test_d5_5_the_stille_hochzeit_stays_secret_until_the_second_eo() -> None:
    hand = dk(BOTH_EO)
    gesund(hand)
    p = hand.pending
    assert (p["kind"], p["declarer"], p["alone"]) == ("stille", 1, True)
    assert hand.team == [1, 0, 1, 1]
    assert public_view(hand).public["spiel"] == "normalspiel"
    assert seat_view(hand, 1).private == {"team": 0, "stille_hochzeit": True}
    assert seat_view(hand, 0).private == {"team": 1}
    play(hand, "SA", "EO")  # seat 1 plays one EO: Re (D5.6 (d)), nothing more
    assert public_view(hand).team == (None, 0, None, None)
    play(hand, legal(hand)[0])
    play(hand, legal(hand)[0])
    assert public_view(hand).team[1] == 0 and public_view(hand).public["spiel"] == "normalspiel"
    rng = random.Random(0)
    while hand.hands[1].count(card("EO")) and not hand.finished:
        if hand.to_move == 1 and card("EO") in [a.value for a in hand.legal_actions()]:
            hand.apply(1, A("card", "EO"))
            break
        cards = [a for a in hand.legal_actions() if a.kind == "card"]
        hand.apply(hand.to_move, rng.choice(cards))  # type: ignore[arg-type]
    assert public_view(hand).team == (1, 0, 1, 1)  # D5.6 (g)
    assert public_view(hand).public["spiel"] == "stille_hochzeit"


def test_d5_6_what_the_table_learns_in_a_normal_game() -> None:
    hand = dk()
    gesund(hand)
    play(hand, "EO")  # (d): seat 0 played an EO
    assert public_view(hand).team == (0, None, None, None)
    play(hand, "SO")  # seat 1 follows the trump lead
    say(hand, 3, "kontra")  # (c): an announcement shows its seat
    assert public_view(hand).team == (0, None, None, 1)
    play(hand, "EO", "SO")  # (f): two seats played an EO: the other two are Kontra
    assert public_view(hand).team == (0, 1, 0, 1)
    assert public_view(hand).team_points == (hand.team_points()[0], hand.team_points()[1])


def test_d5_6_e_a_plain_card_on_a_trump_lead_shows_kontra_and_d14_2() -> None:
    # Seat 1 holds no trump at all; seat 0 and seat 2 an EO each.
    s1 = "EA E10 EK E9 GA G10 GK G9 HA HK H9 E9"
    rest = sorted((Counter(" ".join(BASE).split()) - Counter(s1.split())).elements(),
                  key=lambda c: (c != "EO", c))
    tail = rest[2:]
    random.Random(4).shuffle(tail)
    hand = dk([" ".join([rest[0], *tail[:11]]), s1, " ".join([rest[1], *tail[11:22]]),
               " ".join(tail[22:])])
    gesund(hand)
    order = hand.order
    assert order is not None
    lead = next(c for c in sorted(hand.hands[0]) if order.is_trump(c) and code(c) != "EO")
    play(hand, code(lead))
    assert public_view(hand).team == (None, None, None, None)
    play(hand, legal(hand)[0])  # seat 1 has no trump: a plain card, so it is Kontra
    assert public_view(hand).team == (None, 1, None, None)
    # D14.2: a seat shown Re stays Re, whatever it plays later.
    say(hand, 2, "re")
    assert public_view(hand).team == (None, 1, 0, None)


def armut_deal() -> list[str]:
    """Seat 0 holds three trumps (HO SU S10) and no EO."""
    s0 = "HO SU S10 EA EK GA G9 HA H9 E9 GK HK"
    pool = Counter(" ".join(BASE).split()) - Counter(s0.split())
    rest = sorted(pool.elements(), key=lambda c: (c != "EO", c))
    rng = random.Random(7)
    tail = rest[2:]
    rng.shuffle(tail)
    return [s0, " ".join([rest[0], *tail[:11]]), " ".join([rest[1], *tail[11:22]]),
            " ".join(tail[22:])]


def test_d5_8_the_armut_lays_three_and_its_taker_gives_three_back() -> None:
    hand = dk(armut_deal(), armut=True)
    hand.apply(0, A("vorbehalt", "armut"))
    for s in (1, 2, 3):
        hand.apply(s, A("gesund"))
    assert hand.phase == "armut" and hand.to_move == 0
    assert public_view(hand).team == (0, None, None, None)  # D14.4
    lays = [a.value for a in hand.legal_actions()]
    assert all({card("HO"), card("SU"), card("S10")} <= set(v) for v in lays)
    assert refused(hand, 0, Action("armut_lay", tuple(sorted(card(c) for c in (
        "EA", "EK", "GA"))))).reason == "armut_lay"
    hand.apply(0, Action("armut_lay", tuple(sorted(card(c) for c in ("HO", "SU", "S10")))))
    assert public_view(hand).actions[-1] == (0, None)  # seen by the two only
    hand.apply(1, A("weiter"))
    hand.apply(2, A("mitnehmen"))
    assert len(hand.hands[2]) == 15 and public_view(hand).team == (0, 1, 0, 1)  # D14.4
    order = hand.order
    assert order is not None
    back = tuple(sorted(sorted(hand.hands[2], key=lambda c: (order.is_trump(c), c))[:3]))
    hand.apply(2, Action("armut_return", back))
    assert public_view(hand).public["armut_trumps_back"] == sum(map(order.is_trump, back))
    assert public_view(hand).public["armut_declined"] == [1]
    assert seat_view(hand, 0).private["armut"]["returned"] == codes(back)
    assert "armut" not in seat_view(hand, 1).private
    assert hand.phase in ("ansagen", "play") and hand.to_move == 0  # forehand leads
    finish(hand)
    assert hand.result is not None and hand.result.extra["partner"] == 2


def test_d5_8_an_armut_nobody_takes_is_dealt_again() -> None:
    status = Status(score=(2, -2, 2, -2), deals=3)
    hand = dk(armut_deal(), status=status, armut=True)
    hand.apply(0, A("vorbehalt", "armut"))
    for s in (1, 2, 3):
        hand.apply(s, A("gesund"))
    hand.apply(0, hand.legal_actions()[0])
    for s in (1, 2, 3):
        hand.apply(s, A("weiter"))
    r = hand.result
    assert hand.finished and r is not None
    assert (r.event, r.next_dealer, r.status) == ("armut_thrown_in", 3, status)  # D3.4


# -- D6 solos -----------------------------------------------------------------------------


@pytest.mark.parametrize(("solo", "trumps"), [
    ("kreuz", "H10 EO GO HO SO EU GU HU SU EA E10 EK E9"),
    ("herz", "H10 EO GO HO SO EU GU HU SU HA HK H9"),
    ("karo", "H10 EO GO HO SO EU GU HU SU SA S10 SK S9"),
    ("damen", "EO GO HO SO"), ("buben", "EU GU HU SU"), ("fleischlos", "")])
def test_d6_2_the_solos_trumps(solo: str, trumps: str) -> None:
    assert codes(trumps_of(solo)) == trumps.split()


@pytest.mark.parametrize(("lead", "expected"), [("forehand", 0), ("soloist", 2)])
def test_d6_4_who_leads_a_lustsolo(lead: str, expected: int) -> None:
    hand = dk(lustsolo_lead=lead)
    for s, a in ((0, A("gesund")), (1, A("gesund")), (2, A("vorbehalt", "pik")),
                 (3, A("gesund"))):
        hand.apply(s, a)
    assert hand.to_move == expected and hand.team == [1, 1, 0, 1]


def test_d6_5_a_pflichtsolo_is_not_counted_and_the_dealer_deals_again() -> None:
    status = Status(score=(0, 0, 0, 0), deals=2, solos=(0, 0, 0, 0))
    hand = dk(status=status, pflichtsolo=True, match_deals=8)
    for s, a in ((0, A("gesund")), (1, A("vorbehalt", "herz")), (2, A("gesund")),
                 (3, A("gesund"))):
        hand.apply(s, a)
    assert hand.pending["pflicht"] and hand.to_move == 1
    finish(hand)
    r = hand.result
    assert r is not None and r.status.deals == 2 and r.status.solos == (0, 1, 0, 0)
    assert r.next_dealer == 3  # the same dealer again
    # A Lustsolo (the seat has played its Pflichtsolo) is a counted deal.
    hand = dk(status=r.status, pflichtsolo=True, match_deals=8)
    for s, a in ((0, A("gesund")), (1, A("vorbehalt", "herz")), (2, A("gesund")),
                 (3, A("gesund"))):
        hand.apply(s, a)
    assert not hand.pending["pflicht"] and hand.to_move == 0
    finish(hand)
    assert hand.result is not None and hand.result.status.deals == 3
    assert hand.result.next_dealer == 0


def test_d6_6_vorfuehren_when_as_many_deals_are_left_as_pflichtsoli_owed() -> None:
    # match_deals 8, 6 counted: two deals left, seats 1 and 2 still owe theirs.
    status = Status(score=(0, 0, 0, 0), deals=6, solos=(1, 0, 0, 1))
    hand = dk(status=status, pflichtsolo=True, match_deals=8)
    assert hand.phase == "vorfuehren" and hand.to_move == 1  # the first from forehand
    assert public_view(hand).team == (1, 0, 1, 1)  # D14.5
    hand.apply(1, A("solo_type", "buben"))
    assert hand.to_move == 1 and hand.pending["vorgefuehrt"]
    finish(hand)
    r = hand.result
    assert r is not None and r.status.deals == 7 and r.status.solos == (1, 1, 0, 1)
    assert r.next_dealer == 0  # a vorgeführt deal counts, and the deal passes on


def test_d6_7_the_match_ends_after_match_deals_counted_deals() -> None:
    rules = make_rules("doppelkopf", {"match_deals": 4})
    match = Match(rules, seed=9)
    rng = random.Random(9)
    for _ in range(4):
        hand = match.deal()
        gesund(hand)
        finish(hand, rng)
        result = match.record_result(hand)
    assert result.extra["final_status"]["deals"] == 4
    totals = result.extra["final_status"]["score"]
    assert result.extra["match_winner"] == [s for s in range(4) if totals[s] == max(totals)]
    assert result.status == Status()  # the next match starts even


# -- D7 announcements -----------------------------------------------------------------------


def ansage_words(hand: Hand, seat: int) -> list[str]:
    free = hand.free_actions(seat)
    mine = hand.legal_actions(seat) if seat == hand.to_move else ()
    return [a.value for a in (*mine, *free) if a.kind == "ansage"]


def test_d7_4_re_until_the_second_card_keine_90_until_the_third() -> None:
    hand = dk()
    gesund(hand)
    assert hand.phase == "ansagen"
    assert ansage_words(hand, 0) == ["re", "keine_90", "keine_60", "keine_30", "schwarz"]
    assert ansage_words(hand, 1)[0] == "kontra"
    assert refused(hand, 1, A("ansage", "re")).reason == "ansage_party"
    play(hand, "HA", "HK", "HA", "GK")  # trick 1 (seat 0 wins it and leads)
    assert ansage_words(hand, 0)[0] == "re"  # holding 11
    play(hand, "GA")  # seat 0 holds 10 now
    e = refused(hand, 0, A("ansage", "re"))
    assert (e.reason, e.params["held"], e.params["needed"]) == ("ansage_late", 10, 11)
    say(hand, 2, "re")  # seat 2 still holds 11
    assert ansage_words(hand, 2) == ["keine_90", "keine_60", "keine_30", "schwarz"]
    assert refused(hand, 2, A("ansage", "re")).reason == "ansage_repeat"
    play(hand, "G10", "GA", "G9")
    # keine 90 needs 10 cards: seat 0 (10) may, seat 1 and seat 3 (10) reply Kontra.
    assert ansage_words(hand, 0)[0] == "keine_90"
    assert ansage_words(hand, 1) == ["kontra"]


def test_d7_5_several_steps_in_one_act() -> None:
    hand = dk()
    gesund(hand)
    say(hand, 0, "keine_60")  # Re, keine 90, keine 60 at once
    assert hand.pending["levels"] == (3, 0)
    assert public_view(hand).public["needs"] == {"re": 181, "kontra": 60}


@pytest.mark.parametrize("kontra_level", ["kontra", "keine_90", "keine_60"])
def test_d7_7_the_reply_window_follows_the_other_partys_last_step(kontra_level: str) -> None:
    """After Kontra the reply is open while holding 10, after keine 90 while holding 9,
    after keine 60 while holding 8 (D7.7's examples; D14.9: the latest step counts)."""
    hand = dk()
    gesund(hand)
    say(hand, 1, kontra_level)
    window = {"kontra": 10, "keine_90": 9, "keine_60": 8}[kontra_level]
    rng = random.Random(5)
    while len(hand.hands[2]) > window:
        cards = [a for a in hand.legal_actions() if a.kind == "card"]
        hand.apply(hand.to_move, rng.choice(cards))  # type: ignore[arg-type]
    # Seat 2 (Re) holds ``window`` cards: past its own deadline, within the reply's.
    assert len(hand.hands[2]) == window and ansage_words(hand, 2) == ["re"]
    say(hand, 2, "re")
    assert hand.pending["replied"] == (True, False)
    assert ansage_words(hand, 0) == []  # D14.8: no Absage after a late reply
    assert public_view(hand).public["ansagen"][-1] == {
        "seat": 2, "party": "re", "ansage": "re", "reply": True}


def test_d7_6_the_hochzeit_shift() -> None:
    hand = hochzeit()
    play(hand, "HA", "HK", "HA", "GK")  # k = 1: no shift
    assert rules_shift(hand) == 0
    hand = hochzeit()
    play(hand, "SA", "EO", "SK", "SO")  # seat 1 wins trick 1 (EO)
    assert hand.pending["k"] is None and hand.leader == 1
    play(hand, "HK", "HA", "GK", "H9")  # trick 2 led by seat 1, seat 2 wins: k = 2
    assert hand.pending["k"] == 2 and rules_shift(hand) == 1
    # thr(1) = 12 - 1 - 1 = 10: the seats holding 10 may still say Re / Kontra.
    assert all(len(h) == 10 for h in hand.hands)
    assert ansage_words(hand, 3)[0] == "kontra" and ansage_words(hand, 1)[0] == "re"


def test_d7_8_every_announcement_is_shown_with_seat_and_party() -> None:
    hand = dk()
    gesund(hand)
    say(hand, 3, "kontra")
    say(hand, 0, "keine_90")
    assert public_view(hand).public["ansagen"] == [
        {"seat": 3, "party": "kontra", "ansage": "kontra", "reply": False},
        {"seat": 0, "party": "re", "ansage": "keine_90", "reply": False}]
    assert public_view(hand).public["levels"] == {"re": 2, "kontra": 1}


def test_d7_2_a_seat_announces_out_of_turn_and_the_turn_stays() -> None:
    hand = dk()
    gesund(hand)
    assert hand.to_move == 0 and "kontra" in [a.value for a in hand.free_actions(1)]
    say(hand, 1, "kontra")
    assert hand.to_move == 0 and hand.actions[-1] == (1, A("ansage", "kontra"))


# -- D8 who wins -------------------------------------------------------------------------


@pytest.mark.parametrize(("levels", "re", "kontra"), [
    ((0, 0), 121, 120), ((1, 0), 121, 120), ((1, 1), 121, 120), ((0, 1), 120, 121),
    ((2, 0), 151, 90), ((2, 1), 151, 90), ((3, 0), 181, 60), ((4, 0), 211, 30),
    ((5, 0), "all_tricks", "one_trick"), ((2, 2), 151, 151)])
def test_d8_4_what_each_party_needs(levels: tuple[int, int], re: object, kontra: object) -> None:
    assert (needs(0, levels), needs(1, levels)) == (re, kontra)


def test_d8_3_with_both_parties_bound_nobody_may_win() -> None:
    t = tally((2, 2), (140, 100), (8, 4), [], gegen=True)
    assert t.winner is None and [(i.name, i.party) for i in t.items] == [("against_keine_90", 0)]


# -- D9 scoring ----------------------------------------------------------------------------


def test_d9_1_every_step_of_reached_against_counts() -> None:
    # Re keine 60, Kontra none: Kontra with 125 gets 120 against keine 90 and 90 against 60.
    t = tally((3, 0), (115, 125), (6, 6), [], gegen=True)
    assert t.winner == 1
    names = {i.name for i in t.items if i.party == 1}
    assert {"against_keine_90", "against_keine_60", "re_said", "re_keine_90",
            "re_keine_60", "won", "gegen_kreuz_damen"} <= names


def test_d9_4_extras_only_in_normal_games_and_d9_7_a_solo_counts_three_times() -> None:
    solo = dk()
    for s, a in ((0, A("vorbehalt", "karo")), (1, A("gesund")), (2, A("gesund")),
                 (3, A("gesund"))):
        solo.apply(s, a)
    finish(solo, random.Random(11))
    r = solo.result
    assert r is not None
    names = {i["item"] for i in r.extra["items"]}
    assert not names & {"doppelkopf", "fuchs", "karlchen", "gegen_kreuz_damen"}
    scores = r.extra["scores"]
    assert scores[0] == -3 * scores[1] and scores[1] == scores[2] == scores[3]


@pytest.mark.slow
def test_d9_8_random_deals_add_to_zero_all_even_or_all_odd() -> None:
    checked = random_deals(3000, seed=2)
    assert checked["deals"] == 3000
    assert min(checked[k] for k in ("solo", "hochzeit", "stille_hochzeit", "armut")) > 30


def test_d9_8_random_deals_quickly() -> None:
    checked = random_deals(150, seed=3)
    assert checked["deals"] == 150


# -- D10 options -----------------------------------------------------------------------------


def test_d10_options_are_validated() -> None:
    rules = make_rules("doppelkopf")
    assert rules.options.model_dump()["match_deals"] == 24
    with pytest.raises(OptionsError):
        make_rules("doppelkopf", {"match_deals": 6})
    with pytest.raises(OptionsError):
        make_rules("doppelkopf", {"dullen": "third"})
    with pytest.raises(OptionsError):
        make_rules("doppelkopf", {"extras": ["fuchs", "fuchs"]})
    with pytest.raises(OptionsError):
        make_rules("doppelkopf", {"pflichtsolo": True, "solo_set": []})
    with pytest.raises(OptionsError):
        make_rules("doppelkopf", {"colour": "red"})
    assert make_rules("doppelkopf", {"solo_set": ["pik", "damen"]}).opts.solos() == (  # type: ignore[attr-defined]
        "damen", "pik")


@pytest.mark.parametrize(("extras", "counted"), [
    ("standard", {"fuchs", "karlchen", "doppelkopf"}), ("none", set()),
    (["fuchs"], {"fuchs"}), ("with_karlchen_gefangen", {"karlchen_gefangen"})])
def test_d10_extras(extras: Any, counted: set[str]) -> None:
    found: set[str] = set()
    for seed in range(100):
        hand = dk(extras=extras)
        gesund(hand)
        finish(hand, random.Random(seed))
        assert hand.result is not None
        found |= {i["item"] for i in hand.result.extra["items"]}
    allowed = {"doppelkopf", "fuchs", "karlchen", "karlchen_gefangen", "gegen_kreuz_damen"}
    if extras == "none":
        assert not found & allowed
    else:
        assert counted <= found


def test_d14_6_karlchen_gefangen_counts_each_eu_caught() -> None:
    from engine.hand import Trick
    from engine.rules.doppelkopf.scoring import trick_extras

    last = Trick(0, (card("EU"), card("EO"), card("EU"), card("S9")), 1)
    team = [0, 1, 0, 1]
    got = trick_extras([last], team, ("karlchen_gefangen", "karlchen"), CARD_POINTS)
    assert got == [Item("karlchen_gefangen", 1), Item("karlchen_gefangen", 1)]


# -- D13 the worked examples -------------------------------------------------------------------

#: D13's scores (seats 0-3), S, and the items each party was credited.
D13 = {
    "doppelkopf_d13_1_re_wins_130": ((1, -1, 1, -1), 1, {"re": {"won": 1}}),
    "doppelkopf_d13_2a_kontra_keine_90_made": ((6, -6, 6, -6), -6, {"kontra": {
        "won": 1, "under_90": 1, "kontra_said": 2, "kontra_keine_90": 1,
        "gegen_kreuz_damen": 1}}),
    "doppelkopf_d13_2b_kontra_keine_90_missed": ((-4, 4, -4, 4), 4, {"re": {
        "won": 1, "kontra_said": 2, "kontra_keine_90": 1}}),
    "doppelkopf_d13_2c_late_reply_re": ((-6, 6, -6, 6), 6, {"re": {
        "won": 1, "re_said": 2, "kontra_said": 2, "kontra_keine_90": 1}}),
    "doppelkopf_d13_3_damensolo_lost": ((3, 3, -9, 3), -3, {"kontra": {
        "won": 1, "re_said": 2}}),
    "doppelkopf_d13_4_hochzeit": ((-3, 3, -3, 3), 3, {"re": {
        "won": 1, "under_90": 1, "re_said": 2}, "kontra": {"fuchs": 1}}),
    "doppelkopf_d13_5_hochzeit_turned_solo": ((-3, 9, -3, -3), 3, {"re": {
        "won": 1, "re_said": 2}}),
    "doppelkopf_d13_6_extras": ((2, -2, -2, 2), 2, {"re": {
        "won": 1, "fuchs": 1, "karlchen": 1}, "kontra": {"doppelkopf": 1}}),
    "doppelkopf_d13_7_losers_score": ((1, -1, 1, -1), 1, {"re": {
        "fuchs": 2, "karlchen": 1}, "kontra": {"won": 1, "gegen_kreuz_damen": 1}}),
    "doppelkopf_d13_8a_120_120": ((-2, 2, -2, 2), -2, {"kontra": {
        "won": 1, "gegen_kreuz_damen": 1}}),
    "doppelkopf_d13_8b_only_kontra": ((3, -3, 3, -3), 3, {"re": {
        "won": 1, "kontra_said": 2}}),
    "doppelkopf_d13_8c_re_and_kontra": ((-6, 6, -6, 6), -6, {"kontra": {
        "won": 1, "re_said": 2, "kontra_said": 2, "gegen_kreuz_damen": 1}}),
    "doppelkopf_d13_9_nobody_wins": ((1, -1, 1, -1), 1, {"re": {"against_keine_90": 1}}),
    "doppelkopf_d13_10_herzsolo_keine_90": ((-6, -6, -6, 18), 6, {"re": {
        "won": 1, "under_90": 1, "under_60": 1, "re_said": 2, "re_keine_90": 1}}),
}


@pytest.mark.parametrize("name", sorted(D13))
def test_d13_the_worked_examples(name: str) -> None:
    golden = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    hand = replay(golden["record"])
    r = hand.result
    assert r is not None and hand.dealer == 3
    scores, net, items = D13[name]
    assert tuple(r.extra["scores"]) == scores and r.extra["net"] == net
    got: dict[str, dict[str, int]] = {}
    for i in r.extra["items"]:
        got.setdefault(i["party"], {})[i["item"]] = i["points"]
    assert got == items
    assert golden["expected"]["status"]["score"] == list(scores)
    # The worked example's own facts.
    if name.startswith("doppelkopf_d13_4"):
        assert (r.extra["klaerung"], r.extra["partner"]) == (2, 3)
    if name.startswith("doppelkopf_d13_5"):
        assert (r.extra["klaerung"], r.extra["game"]) == (3, "hochzeit_solo")
        assert r.next_dealer == 0 and r.status.deals == 1  # counted, no Pflichtsolo
    if name.startswith("doppelkopf_d13_2c"):
        reply = [a for a in public_view(hand).public["ansagen"] if a["reply"]]
        assert reply == [{"seat": 1, "party": "re", "ansage": "re", "reply": True}]


def test_d13_2c_a_re_holding_8_would_be_refused() -> None:
    golden = json.loads((GOLDEN / "doppelkopf_d13_2b_kontra_keine_90_missed.json").read_text())
    record = golden["record"]
    hand = Hand(make_rules("doppelkopf"), 3, [card(c) for c in record["pack"]])
    from engine.actions import action_from_json

    for obj in record["actions"]:
        if len(hand.hands[1]) == 8:
            break
        hand.apply(obj["seat"], action_from_json(obj))
    assert len(hand.hands[1]) == 8
    assert refused(hand, 1, A("ansage", "re")).reason == "ansage_late"


# -- D14 points made explicit ----------------------------------------------------------------


@pytest.mark.parametrize("status", [
    Status(score=(0, 0, 0, 0), deals=24),  # over
    Status(score=(1, -1, 1, 0), deals=2),  # not zero-sum
    Status(score=(2, -1, 0, -1), deals=2),  # mixed parity
    Status(score=(100, -100, 0, 0), deals=1),  # more than a deal moves
])
def test_d14_10_a_status_no_match_reaches_is_refused(status: Status) -> None:
    with pytest.raises(RecordError):
        make_rules("doppelkopf").check_status(status)


def test_d14_10_more_pflichtsoli_owed_than_deals_left_is_refused() -> None:
    rules = make_rules("doppelkopf", {"pflichtsolo": True, "match_deals": 8})
    rules.check_status(Status(score=(0, 0, 0, 0), deals=6, solos=(1, 1, 0, 0)))
    with pytest.raises(RecordError, match=r"D14\.10"):
        rules.check_status(Status(score=(0, 0, 0, 0), deals=7, solos=(1, 1, 0, 0)))
    record = {"game": "doppelkopf", "options": {"pflichtsolo": True, "match_deals": 8},
              "dealer": 0, "status": {"score": [0, 0, 0, 0], "deals": 7, "solos": [1, 1, 0, 0]},
              "pack": codes(rules.pack), "actions": []}
    with pytest.raises(ReplayError) as e:
        replay(record)
    assert e.value.action is None


# -- random play: the properties and what the table shows --------------------------------------


def shown_by_the_rulings(hand: Hand) -> list[int | None]:
    """D5.6 worked out independently from the public record (the engine's ``parties``
    must agree): the kinds of game, the announcements, the EO played, a plain card on a
    trump lead in a game announced as normal."""
    view = public_view(hand)
    if hand.play_over:
        return list(hand.team)
    game = view.public.get("spiel")
    team = hand.team
    if game is None:
        return list(team) if view.public.get("vorgefuehrt") is not None else [None] * 4
    if game == "hochzeit":
        out: list[int | None] = [None] * 4
        out[view.public["declarer"]] = 0
        return list(team) if "klaerung" in view.public else out
    if game == "armut":
        return list(team) if view.public.get("partner") is not None else [
            0 if s == view.public["declarer"] else None for s in range(4)]
    if game not in ("normalspiel",):
        return list(team)
    out = [None] * 4
    eo_by = []
    led_trump = False
    n = 0
    for seat, action in view.actions:
        if action is None:
            continue
        if action.kind == "ansage":
            out[seat] = team[seat]
        elif action.kind == "card":
            trump = hand.rules.top_trumps + tuple(
                c for c in range(32) if c // 8 == 3)
            is_trump = action.value in trump
            if n % 4 == 0:
                led_trump = is_trump
            elif led_trump and not is_trump and out[seat] is None:
                out[seat] = 1
            if action.value == card("EO"):
                out[seat] = 0
                eo_by.append(seat)
            n += 1
    if len(set(eo_by)) == 2:
        out = [x if s in eo_by else 1 for s, x in enumerate(out)]
    return out


def random_deals(deals: int, seed: int) -> Counter[str]:
    """Random deals (mostly gesund, sometimes a Vorbehalt, announcements now and then);
    checks at every step what the table and every other seat are shown, and at the end the
    scores."""
    rules = make_rules("doppelkopf", {"armut": True})
    match = Match(rules, seed=seed)
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for _ in range(deals):
        hand = match.deal()
        steps = 0
        while not hand.finished:
            seat = hand.actors()[0]
            legal_now = list(hand.legal_actions(seat))
            free = [(s, a) for s in range(4) for a in hand.free_actions(s)]
            if free and rng.random() < 0.04:
                s, a = rng.choice(free)
                hand.apply(s, a)
            elif hand.phase == "vorbehalt" and rng.random() < 0.6 and (special := [
                    a for a in legal_now if a.value in ("hochzeit", "armut")]):
                hand.apply(seat, special[0])
            elif hand.phase == "vorbehalt" and rng.random() < 0.9:
                hand.apply(seat, legal_now[0])
            else:
                cards = [a for a in legal_now if a.kind == "card"]
                hand.apply(seat, rng.choice(cards if cards and rng.random() < 0.95
                                            else legal_now))
            steps += 1
            assert steps < 300
            check_what_is_shown(hand)
        r = hand.result
        assert r is not None
        scores = r.extra["scores"]
        assert sum(scores) == 0 and len({x % 2 for x in scores}) == 1  # D9.8
        if r.event != "armut_thrown_in":
            assert sum(r.points) == 240 and len(hand.tricks) == 12
        seen["deals"] += 1
        game = r.extra["game"]
        seen["solo" if game.endswith("solo") or game == "fleischloser" else game] += 1
        match.record_result(hand)
    return seen


#: Every fact the table is told (none names another seat's Vorbehalt or cards).
PUBLIC_FACTS = frozenset({
    "vorbehalt", "spiel", "declarer", "partner", "klaerung", "pflichtsolo", "vorgefuehrt",
    "armut_declined", "armut_trumps_back", "ansagen", "levels", "needs", "schweinchen",
    "sonderpunkte", "extras_seen", "match", "pflicht_owed"})


def check_what_is_shown(hand: Hand) -> None:
    view = public_view(hand)
    assert list(view.team) == shown_by_the_rulings(hand)
    if None in view.team:
        assert view.team_points == ()
    said = {s: k for s, k in hand.pending["said"] if k is not None}
    if hand.pending["kind"] == "stille" and None in view.team:
        assert view.public.get("spiel") == "normalspiel" and "declarer" not in view.public
    assert set(view.public) <= PUBLIC_FACTS
    for seen in view.public.get("extras_seen", ()):
        # What the tricks show, before the parties: a Fuchs another seat won.
        assert "sonderpunkte" not in view.public and None in view.team
        if seen["extra"] == "fuchs":
            t = hand.tricks[seen["trick"] - 1]
            assert t.winner == seen["to"] != seen["by"]
            assert t.cards[(seen["by"] - t.leader) % 4] == card("SA")
    for seat in range(4):
        mine = seat_view(hand, seat)
        for other in range(4):
            if other != seat:
                assert mine.team[other] == view.team[other]
        assert set(mine.private) <= {"team", "vorbehalt", "armut", "stille_hochzeit"}
        if "vorbehalt" in mine.private:
            assert mine.private["vorbehalt"] == said[seat]
        assert all(a is None or a.kind not in ("vorbehalt", "armut_lay", "armut_return")
                   for _, a in mine.actions)


# -- records ------------------------------------------------------------------------------


def test_a_record_replays_to_the_same_deal() -> None:
    match = Match(make_rules("doppelkopf", {"armut": True}), seed=4)
    rng = random.Random(4)
    for _ in range(30):
        hand = match.deal()
        while not hand.finished:
            seat = hand.actors()[0]
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
        again = replay(to_record(hand))
        assert again.result is not None and hand.result is not None
        assert again.result.extra == hand.result.extra
        assert [seat_view(again, s) == seat_view(hand, s) for s in range(4)] == [True] * 4
        match.record_result(hand)


# -- the computers ---------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["random", "easy", "normal"])
def test_every_level_plays_legal_deals_to_the_end(level: str) -> None:
    deals = {"random": 40, "easy": 40, "normal": 2}[level]
    rules = make_rules("doppelkopf", {"armut": True, "pflichtsolo": True, "match_deals": 8})
    match = Match(rules, seed=12)
    players = [make_player(level, seed=s, timed=False) for s in range(4)]
    for _ in range(deals):
        hand = match.deal()
        while not hand.finished:
            seat = hand.actors()[0]
            action = players[seat].choose(seat_view(hand, seat))
            assert action in hand.legal_actions(seat)
            hand.apply(seat, action)
        match.record_result(hand)


@pytest.mark.slow
def test_hard_plays_legal_deals_to_the_end() -> None:
    rules = make_rules("doppelkopf")
    match = Match(rules, seed=13)
    players = [make_player("hard", seed=s, timed=False) for s in range(4)]
    for _ in range(2):
        hand = match.deal()
        while not hand.finished:
            seat = hand.actors()[0]
            action = players[seat].choose(seat_view(hand, seat))
            assert action in hand.legal_actions(seat)
            hand.apply(seat, action)
        match.record_result(hand)


def test_the_rebuilt_deals_agree_with_what_the_table_has_shown() -> None:
    """``determinize``: every rebuilt deal replays the table's actions, shows the same
    parties, and leaves the seat its own cards."""
    from engine.determinize import hand_from_view
    from engine.inference import infer, sample

    match = Match(make_rules("doppelkopf"), seed=14)
    easy = make_player("easy", seed=0)
    rng = random.Random(14)
    checked = 0
    for _ in range(6):
        hand = match.deal()
        while not hand.finished:
            seat = hand.actors()[0]
            view = seat_view(hand, seat)
            if hand.phase == "play" and len(view.legal) > 1:
                k = infer(view)
                for _ in range(3):
                    guess = hand_from_view(view, sample(k, rng))
                    assert sorted(guess.hands[seat]) == sorted(hand.hands[seat])
                    assert public_view(guess).team == view.team
                    assert [len(h) for h in guess.hands] == [len(h) for h in hand.hands]
                    assert guess.tricks == hand.tricks
                    checked += 1
            hand.apply(seat, easy.choose(view))
        match.record_result(hand)
    assert checked > 50


def test_the_rules_of_thumb() -> None:
    from engine.rules.doppelkopf.computer import best_solo, strength

    strong = cards_of("H10 H10 EO EO GO GO HO SO EU SA SA EA")
    weak = cards_of("S9 S9 SK E9 E9 EK G9 G9 GK H9 H9 HK")
    assert strength("normal", strong) > 9 > 3 > strength("normal", weak)
    assert best_solo(("karo", "damen"), strong)[1] > 0
    assert best_solo(("karo", "damen"), weak)[1] < 0


def test_a_deal_rebuilt_without_its_replay_is_the_replayed_one() -> None:
    """``computer._reshuffled`` deals a guess into a rebuilt deal of the same view instead
    of replaying the view's actions: for every view and guess it must be the deal the
    replay gives (the same cards, parties, points and legal plays), and both must play on
    alike."""
    from engine.ai.search import random_playout
    from engine.rules.doppelkopf import computer

    rules = make_rules("doppelkopf")
    match = Match(rules, seed=15)
    easy = make_player("easy", seed=0)
    rng = random.Random(15)
    compared = 0
    for _ in range(8):
        hand = match.deal()
        while not hand.finished:
            seat = hand.actors()[0]
            view = seat_view(hand, seat)
            if hand.phase == "play" and computer._quick(rules, view):  # type: ignore[arg-type]
                k, plays = computer.knowledge(rules, view)  # type: ignore[arg-type]
                template = None
                for _ in range(6):
                    guess = computer.sample(k, rng)
                    replayed = computer._rebuild(rules, view, plays, guess,  # type: ignore[arg-type]
                                                 random.Random(1))
                    if replayed is None:
                        continue
                    if template is None:
                        template = replayed
                        continue
                    quick = computer._reshuffled(rules, view, plays, guess,  # type: ignore[arg-type]
                                                 template, random.Random(1))
                    assert quick is not None
                    assert [sorted(h) for h in quick.hands] == [sorted(h) for h in
                                                                 replayed.hands]
                    assert (quick.team, quick.team_taken, quick.tricks, quick.to_move) == (
                        replayed.team, replayed.team_taken, replayed.tricks, replayed.to_move)
                    assert quick.pack == replayed.pack and quick.order == replayed.order
                    assert quick.legal_actions() == replayed.legal_actions()
                    for key in ("kind", "declarer", "alone", "levels", "k", "partner"):
                        assert quick.pending[key] == replayed.pending[key], key
                    random_playout(quick, random.Random(compared))
                    random_playout(replayed, random.Random(compared))
                    assert quick.result is not None and replayed.result is not None
                    assert quick.result.extra["scores"] == replayed.result.extra["scores"]
                    compared += 1
            hand.apply(seat, easy.choose(view))
        match.record_result(hand)
    assert compared > 100
