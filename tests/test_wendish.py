"""Wendish Schafkopf (RULINGS.md, "Wendish Schafkopf"; seed 004): the deal, the declaring round
(Lust Solo, call, first trick, quiet solo), secret Old Ones, the called card's duty, scoring."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from deal import act
from deal import deal as shared_deal
from deal import legal_cards as legal

from engine import (
    Action,
    Hand,
    IllegalAction,
    Match,
    RecordError,
    Status,
    make_rules,
    public_view,
    replay,
    seat_view,
    to_record,
)
from engine.ai import make_player
from engine.cards import PACK_24, PACK_32, card, code, codes
from engine.determinize import hand_from_view
from engine.rules.wendish import DECLARE, Wendish

K = "wendish"

#: Dealer 3, seat 0 leads. EO with seat 0, GO with seat 1: a normal game, {0, 1} against {2, 3}.
SPLIT = [
    "EO HO EU SA EA GA HA E7",
    "GO SO GU S10 E10 G10 H10 G7",
    "HU SU SK S9 EK GK HK H7",
    "S8 S7 E9 E8 G9 G8 H9 H8",
]
#: Seat 0 holds both Old Ones.
BOTH = [
    "EO GO HO EU EA GA HA E7",
    "SA SO GU S10 E10 G10 H10 G7",
    "HU SU SK S9 EK GK HK H7",
    "S8 S7 E9 E8 G9 G8 H9 H8",
]


def deal(hands: list[str], dealer: int = 3, status: Status | None = None, **options: Any) -> Hand:
    """The hand in which each seat is dealt these cards (in dealt order)."""
    return shared_deal(K, hands, dealer, status, **options)


def fill(first: str) -> list[str]:
    """Seat 0 holds ``first``; the other cards go to seats 1-3 in pack order."""
    rest = [code(c) for c in PACK_32 if code(c) not in first.split()]
    return [first] + [" ".join(rest[8 * k:8 * k + 8]) for k in range(3)]


def trick_winners(hand: Hand) -> list[int]:
    return [t.winner for t in hand.tricks]


# -- deal and trumps --------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_32_cards_two_packets_of_four_from_the_dealers_left(dealer: int) -> None:
    hand = Hand(make_rules(K), dealer, PACK_32)
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        assert hand.dealt[seat] == PACK_32[4 * k:4 * k + 4] + PACK_32[16 + 4 * k:20 + 4 * k]
    assert hand.phase == DECLARE and hand.to_move == (dealer + 1) % 4


def test_24_cards_two_packets_of_three() -> None:
    rules = make_rules(K, {"pack": 24})
    hand = Hand(rules, 0, PACK_24)
    assert all(len(h) == 6 for h in hand.hands)
    assert hand.dealt[1] == PACK_24[0:3] + PACK_24[12:15]
    assert not any(c % 8 >= 6 for c in rules.pack)  # no 8s and 7s
    assert sum(rules.points[c] for c in rules.pack) == 120


def test_trumps_are_overs_unders_then_bells() -> None:
    hand = deal(SPLIT)
    assert hand.order is not None
    assert " ".join(hand.order.trumps_high_to_low(PACK_32)) == (
        "EO GO HO SO EU GU HU SU SA S10 SK S9 S8 S7")


def test_follow_suit_only_no_duty_to_trump() -> None:
    hand = deal(SPLIT)
    act(hand, "pass pass pass pass", "EA")
    assert legal(hand) == ["E10"]           # seat 1 follows acorns
    act(hand, "E10", "EK")
    # Seat 3 holds acorns; then a lead seat 3 is void in: it may throw anything.
    assert legal(hand) == ["E8", "E9"]
    act(hand, "E9")
    assert trick_winners(hand) == [0]
    act(hand, "GA")  # seat 0 leads again
    act(hand, "G10", "GK", "G9")
    act(hand, "HA")
    assert legal(hand) == ["H10"]


def test_void_player_may_discard_a_plain_card_holding_trumps() -> None:
    hand = deal(SPLIT)
    act(hand, "pass pass pass pass", "EA E10 EK E9", "E7")
    # Seat 1 has no acorns left: any card, the trumps GO SO GU S10 or a plain G7 alike.
    assert legal(hand) == sorted(["GO", "SO", "GU", "S10", "G10", "H10", "G7"])
    act(hand, "G7", "H7", "E8")
    assert trick_winners(hand) == [0, 3]


# -- the declaring round ----------------------------------------------------------------------


def test_declaring_round_goes_round_once_from_the_dealers_left() -> None:
    hand = deal(SPLIT, dealer=1)
    seen = []
    while hand.phase == DECLARE:
        seen.append(hand.to_move)
        kinds = {a.kind for a in hand.legal_actions()}
        assert kinds == {"pass", "solo"}  # nobody holds both Old Ones
        act(hand, "pass")
    assert seen == [2, 3, 0, 1]
    assert hand.phase == "play" and hand.to_move == 2
    assert hand.team == [0, 0, 1, 1]
    with pytest.raises(IllegalAction) as e:
        hand.apply(2, Action("pass", True))
    assert e.value.reason == "wrong_phase"


def test_holder_of_both_may_call_any_card_he_lacks_or_first_trick() -> None:
    hand = deal(BOTH)
    acts = hand.legal_actions(0)
    calls = {code(a.value) for a in acts if a.kind == "call"}
    assert Action("first_trick", True) in acts and Action("pass", True) in acts
    assert calls == set(ALL := {code(c) for c in PACK_32}) - set(BOTH[0].split())
    assert len(ALL) == 32
    act(hand, "pass")
    # Other seats may only pass or solo; a call is refused with its reason.
    assert {a.kind for a in hand.legal_actions()} == {"pass", "solo"}
    with pytest.raises(IllegalAction) as e:
        hand.apply(1, Action("call", card("EO")))
    assert e.value.reason == "cannot_call"
    with pytest.raises(IllegalAction) as e:
        hand.apply(2, Action("pass", True))
    assert e.value.reason == "not_your_turn"


def test_lust_solo_ends_the_round_and_sets_its_trump_suit() -> None:
    hand = deal(SPLIT)
    act(hand, "pass", "solo:H")
    assert hand.phase == "play" and hand.to_move == 0 and len(hand.actions) == 2
    assert hand.team == [1, 0, 1, 1]
    assert hand.order is not None
    assert hand.order.trumps_high_to_low(PACK_32)[:9] == [
        "EO", "GO", "HO", "SO", "EU", "GU", "HU", "SU", "HA"]
    assert not hand.order.is_trump(card("SA"))
    v = public_view(hand)
    assert v.team == (1, 0, 1, 1)
    assert v.public["contract"] == "lust_solo" and v.public["solo_suit"] == "H"
    assert v.public["declarer"] == 1


def test_a_lust_solo_overrides_an_earlier_call() -> None:
    hand = deal(BOTH)
    act(hand, "call:SA", "pass", "solo:G")
    assert hand.pending["contract"] == "lust_solo" and hand.pending["declarer"] == 2
    assert hand.team == [1, 1, 0, 1]
    assert hand.pending["called"] is None


# -- secret partners --------------------------------------------------------------------------


def test_normal_game_partners_stay_secret_until_the_old_ones_show() -> None:
    hand = deal(SPLIT)
    act(hand, "pass pass pass pass")
    assert hand.team == [0, 0, 1, 1]
    v = public_view(hand)
    assert v.team == (None,) * 4 and v.team_points == ()
    assert v.public["contract"] is None and v.public["partner"] is None
    for s in range(4):
        sv = seat_view(hand, s)
        assert sv.team == (None,) * 4
        assert sv.private["team"] == (0 if s < 2 else 1)
    act(hand, "EO SO SK S7")       # seat 0 shows an Old One
    v = public_view(hand)
    assert v.team == (0, None, None, None) and v.team_points == ()
    act(hand, "EA E10 EK E9", "E7", "GO")  # seat 1, void in acorns, shows GO
    v = public_view(hand)
    assert v.team == (0, 0, 1, 1)
    assert v.team_points == tuple(hand.team_taken)
    assert v.public["contract"] == "normal" and v.public["partner"] == 1


def _swap_prefix(hands: list[str], seed: int, tricks: int) -> tuple[Hand, Hand]:
    """The quiet solo of BOTH and the normal game it looks like from outside (GO moved from
    seat 0 to seat 3, HU from seat 2 ... ) played identically, never touching EO/GO/HU/S8."""
    a = deal(hands)
    b_hands = [h.split() for h in hands]
    b_hands[0][b_hands[0].index("GO")] = "S8"
    b_hands[3][b_hands[3].index("S8")] = "GO"
    b = deal([" ".join(h) for h in b_hands])
    for h in (a, b):
        act(h, "pass pass pass pass")
    rng = random.Random(seed)
    while len(a.tricks) < tricks:
        seat = a.to_move
        assert seat is not None
        options = [x for x in a.legal_actions() if code(x.value) not in ("EO", "GO", "S8")]
        if not options:
            break
        choice = rng.choice(options)
        a.apply(seat, choice)
        b.apply(seat, choice)
    return a, b


@pytest.mark.parametrize("seed", range(12))
def test_a_quiet_solo_looks_like_a_normal_game(seed: int) -> None:
    quiet, normal = _swap_prefix(BOTH, seed, 1 + seed % 5)
    assert quiet.pending["contract"] == "quiet_solo"
    assert normal.pending["contract"] == "normal"
    assert public_view(quiet) == public_view(normal)
    for s in (1, 2):  # seats whose cards are the same in both deals
        assert seat_view(quiet, s) == seat_view(normal, s)


def test_quiet_solo_revealed_when_one_seat_shows_both_old_ones() -> None:
    hand = deal(BOTH)
    act(hand, "pass pass pass pass")
    assert hand.team == [0, 1, 1, 1]
    act(hand, "EO SA HU S8")
    assert public_view(hand).team == (0, None, None, None)
    act(hand, "GO SO SU S7")
    v = public_view(hand)
    assert v.team == (0, 1, 1, 1) and v.public["contract"] == "quiet_solo"


def test_called_card_must_be_played_as_soon_as_legal() -> None:
    hand = deal(BOTH)
    act(hand, "call:G10 pass pass pass")
    assert hand.team == [0, 0, 1, 1]  # G10 is seat 1's
    v = public_view(hand)
    assert v.team == (0, None, None, None)
    assert v.public["called"] == "G10" and v.public["partner"] is None
    act(hand, "EA")
    # Seat 1 must follow acorns (E10): the called card is not legal yet.
    assert legal(hand) == ["E10"]
    act(hand, "E10 EK E9")
    act(hand, "GA")
    assert legal(hand) == ["G10"]  # following leaves: the called card it must be
    with pytest.raises(IllegalAction) as e:
        hand.apply(1, Action("card", card("G7")))
    assert e.value.reason == "must_play_called"
    act(hand, "G10")
    v = public_view(hand)
    assert v.team == (0, 0, 1, 1) and v.public["partner"] == 1


def test_called_card_is_led_or_discarded_at_the_first_chance() -> None:
    hand = deal(BOTH)
    act(hand, "call:H10 pass pass pass", "EA E10 EK E9")
    act(hand, "GA")
    assert legal(hand) == ["G10", "G7"]  # following leaves; H10 not legal
    act(hand, "G7 GK G9", "E7")
    assert legal(hand) == ["H10"]  # void in acorns: may play anything, so the called card


def test_first_trick_partner_is_the_first_other_winner() -> None:
    hand = deal(BOTH)
    act(hand, "first_trick pass pass pass")
    assert public_view(hand).public["contract"] == "first_trick"
    act(hand, "EA E10 EK E9")   # seat 0 wins his own trick: no partner yet
    assert hand.pending["partner"] is None
    assert public_view(hand).team == (0, None, None, None)
    act(hand, "E7 S10 S9 E8")   # seat 1 trumps with S10 and wins: seat 1 is the partner
    assert trick_winners(hand)[-1] == 1
    assert hand.team == [0, 0, 1, 1]
    assert hand.team_taken[0] == 11 + 10 + 4 + 10 + 0 + 0 + 0
    v = public_view(hand)
    assert v.team == (0, 0, 1, 1) and v.public["partner"] == 1


def test_first_trick_nobody_else_wins_a_trick_is_a_solo() -> None:
    hands = [
        "EO GO HO SO EU GU HU SU",
        "SA S10 SK S9 EA E10 EK E9",
        "S8 S7 GA G10 GK G9 G8 G7",
        "HA H10 HK H9 H8 H7 E8 E7",
    ]
    hand = deal(hands, early_end=False)
    act(hand, "first_trick pass pass pass")
    while not hand.finished:
        act(hand, code(hand.legal_actions()[0].value))
    assert set(trick_winners(hand)) == {0}
    r = hand.result
    assert r is not None
    assert r.event == "schwarz" and r.extra["value"] == 3 and r.extra["partner"] is None
    assert r.extra["scores"] == [9, -3, -3, -3]


# -- scoring ----------------------------------------------------------------------------------


def oracle_scores(hand: Hand) -> list[int]:
    """Scores worked out from the tricks and the final teams, independently of the rules."""
    team = hand.team
    pts = [0, 0]
    took = [False, False]
    for t in hand.tricks:
        pts[team[t.winner]] += sum(hand.rules.points[c] for c in t.cards)
        took[team[t.winner]] = True
    win = 0 if pts[0] >= 61 else 1
    value = 1 + (pts[1 - win] < 30) + (not took[1 - win])
    sign = 1 if win == 0 else -1
    side = [s for s in range(4) if team[s] == 0]
    if len(side) == 1:
        return [sign * value * (3 if s in side else -1) for s in range(4)]
    return [sign * value * (1 if s in side else -1) for s in range(4)]


@pytest.mark.parametrize("seed", range(60))
def test_random_hands_finish_score_and_replay(seed: int) -> None:
    rules = make_rules(K, {"early_end": False, "pack": 24 if seed % 3 == 0 else 32})
    hand = Match(rules, seed=seed).deal()
    rng = random.Random(seed)
    while not hand.finished:
        seat = rng.choice(hand.actors())
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    r = hand.result
    assert r is not None
    assert sum(r.points) == 120 and sum(r.extra["scores"]) == 0
    assert r.extra["scores"] == oracle_scores(hand)
    assert replay(to_record(hand)).result == r


def test_61_wins_60_loses_and_schneider_is_under_30() -> None:
    rules = make_rules(K)
    assert rules.outcome(Status(), (61, 59)) == (0, 1)
    assert rules.outcome(Status(), (60, 60)) == (1, 1)
    assert rules.outcome(Status(), (91, 29)) == (0, 2)
    assert rules.outcome(Status(), (90, 30)) == (0, 1)
    assert rules.outcome(Status(), (30, 90)) == (1, 1)
    assert rules.outcome(Status(), (29, 91)) == (1, 2)


def test_solo_is_paid_by_each_of_the_three_and_score_runs_on() -> None:
    hands = [
        "EO GO HO SO EU GU HU SU",
        "SA S10 SK S9 EA E10 EK E9",
        "S8 S7 GA G10 GK G9 G8 G7",
        "HA H10 HK H9 H8 H7 E8 E7",
    ]
    hand = deal(hands, status=Status(score=(1, 2, 3, -6)), early_end=False)
    act(hand, "solo:S")
    assert hand.phase == "play"
    while not hand.finished:
        act(hand, code(hand.legal_actions()[0].value))
    r = hand.result
    assert r is not None and r.team == 0
    assert r.extra["scores"] == [3 * r.extra["value"], -r.extra["value"], -r.extra["value"],
                                 -r.extra["value"]]
    assert r.status.score == tuple(a + b for a, b in zip((1, 2, 3, -6), r.extra["scores"],
                                                         strict=True))
    assert r.next_dealer == 0 and r.status.deals is None


def test_schwarz_needs_no_trick_not_no_points() -> None:
    rules = make_rules(K, {"early_end": False})
    for seed in range(300):
        hand = Match(rules, seed=seed).deal()
        rng = random.Random(seed)
        while not hand.finished:
            seat = hand.actors()[0]
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
        r = hand.result
        assert r is not None
        lose = 1 - r.team  # type: ignore[operator]
        tricks = [t for t in hand.tricks if hand.team[t.winner] == lose]
        assert r.extra["schwarz"] == (not tricks)
        assert r.extra["schneider"] == (r.points[lose] < 30)


def test_a_match_of_deals_ends_with_winners_and_starts_again() -> None:
    rules = make_rules(K, {"deals": 4, "early_end": False})
    match = Match(rules, seed=5, dealer=0)
    totals = [0, 0, 0, 0]
    for k in range(4):
        hand = match.deal()
        assert hand.dealer == k
        rng = random.Random(k)
        while not hand.finished:
            seat = hand.actors()[0]
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
        r = match.record_result(hand)
        totals = [a + b for a, b in zip(totals, r.extra["scores"], strict=True)]
        if k < 3:
            assert r.status == Status(score=tuple(totals), deals=k + 1)
            assert "match_winner" not in r.extra
    assert r.extra["match_score"] == totals
    assert r.extra["match_winner"] == [s for s in range(4) if totals[s] == max(totals)]
    assert r.status == Status()


def test_options_and_status_are_checked() -> None:
    with pytest.raises(RecordError):
        make_rules(K, {"deals": 6})
    with pytest.raises(RecordError):
        make_rules(K, {"pack": 30})
    assert make_rules(K, {"deals": 8}).options.deals == 8  # type: ignore[attr-defined]
    with pytest.raises(RecordError):
        make_rules(K).check_status(Status(masters=0))
    with pytest.raises(RecordError):
        make_rules(K).check_status(Status(score=(1, 2)))
    with pytest.raises(RecordError):
        make_rules(K, {"deals": 4}).check_status(Status(score=(0, 0, 0, 0), deals=4))


@pytest.mark.parametrize("seed", range(40))
def test_early_end_only_once_the_teams_are_public(seed: int) -> None:
    hand = Match(make_rules(K), seed=seed).deal()
    rng = random.Random(seed)
    while not hand.finished:
        seat = hand.actors()[0]
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    rules = hand.rules
    assert isinstance(rules, Wendish)
    if hand.result is not None and hand.result.early:
        assert rules.revealed(hand)
        assert hand.result.extra["scores"] == oracle_scores(hand)


def test_early_end_waits_for_the_losers_first_trick() -> None:
    hands = [
        "EO GO HO SO EU GU HU SU",
        "SA S10 SK S9 EA E10 EK E9",
        "S8 S7 GA G10 GK G9 G8 G7",
        "HA H10 HK H9 H8 H7 E8 E7",
    ]
    hand = deal(hands)
    act(hand, "pass pass pass pass")  # quiet solo, seat 0 takes every trick
    while not hand.finished:
        act(hand, code(hand.legal_actions()[0].value))
    assert len(hand.tricks) == 8 and hand.result is not None
    assert hand.result.event == "schwarz"


# -- computer players -------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_computer_players_play_whole_hands(level: str) -> None:
    for pack in (32, 24):
        match = Match(make_rules(K, {"pack": pack}), seed=11)
        player = make_player(level, seed=2, timed=False)
        if level != "easy":
            player.samples = 6  # type: ignore[attr-defined]
        for _ in range(2):
            hand = match.deal()
            while not hand.finished:
                seat = hand.actors()[0]
                action = player.choose(seat_view(hand, seat))
                assert action in hand.legal_actions(seat)
                hand.apply(seat, action)
            match.record_result(hand)


def test_suggest_declares_by_counting_trumps() -> None:
    rules = make_rules(K)
    strong = deal(["EO GO HO SO EU GU SA S10", "HU SU SK S9 EA E10 EK E9",
                   "S8 S7 GA G10 GK G9 G8 G7", "HA H10 HK H9 H8 H7 E8 E7"])
    assert rules.suggest(seat_view(strong, 0)) == Action("pass", True)  # quiet solo
    weak = deal(fill("EO GO E7 E8 G8 G9 H8 H9"))
    assert rules.suggest(seat_view(weak, 0)) == Action("call", card("HO"))
    acorns = deal(BOTH)  # four top trumps and EA E7: a Lust Solo in acorns
    assert rules.suggest(seat_view(acorns, 0)) == Action("solo", 0)
    hearts = deal(["HA H10 HK SA EA GA E7 G7", "EO HO EU GU HU H9 H8 H7",
                   "GO SO SU S10 SK S9 EK GK", "S8 S7 E10 E9 E8 G10 G9 G8"], dealer=0)
    assert rules.suggest(seat_view(hearts, 1)) == Action("solo", 2)


@pytest.mark.parametrize("seed", range(8))
def test_determinize_respects_the_call_and_the_voids(seed: int) -> None:
    hand = deal(BOTH)
    act(hand, "call:G10 pass pass pass")
    rng = random.Random(seed)
    for _ in range(3 + seed):
        if hand.finished:
            break
        seat = hand.to_move
        assert seat is not None
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    if hand.finished:
        return
    for seat in (1, 2, 3):
        view = seat_view(hand, seat)
        for k in range(5):
            guess = hand_from_view(view, {k: []})
            assert seat_view(guess, seat) == view
            if "EO" not in codes(c for t in hand.tricks for c in t.cards):
                assert card("EO") in guess.hands[0]
            assert card("G10") not in guess.hands[0]


def test_determinize_refuses_the_declaring_round() -> None:
    hand = deal(BOTH)
    with pytest.raises(RecordError):
        hand_from_view(seat_view(hand, 0), {})


# -- Muss-Solo and counters (seed 004: "by agreement") ----------------------------------------

LUST_SOLO_RECORD = Path(__file__).parent / "golden" / "wendish_lust_solo_acorns.json"


def _lust_solo(options: dict[str, Any], status: dict[str, Any]) -> Hand:
    """Seat 0's Lust Solo in acorns, won schwarz (+9, -3, -3, -3), under these terms."""
    record = json.loads(LUST_SOLO_RECORD.read_text(encoding="utf-8"))["record"]
    return replay({**record, "options": options,
                   "status": {"masters": None, "servant": None, **status}})


def test_muss_solo_counts_lust_solos_and_charges_the_ones_owed_at_match_end() -> None:
    mid = _lust_solo({"deals": 8, "muss_solo": 1},
                     {"score": [0, 0, 0, 0], "deals": 2, "solos": [0, 0, 0, 0]})
    assert mid.result is not None
    assert mid.result.status == Status(score=(9, -3, -3, -3), deals=3, solos=(1, 0, 0, 0))
    assert "muss_solo_penalty" not in mid.result.extra
    end = _lust_solo({"deals": 4, "muss_solo": 1},
                     {"score": [0, 0, 0, 0], "deals": 3, "solos": [0, 0, 0, 1]})
    assert end.result is not None
    # Seats 1 and 2 owe one each: -3 paid, +1 from the other debtor.
    assert end.result.extra["muss_solo_penalty"] == [2, -2, -2, 2]
    assert end.result.extra["match_score"] == [11, -5, -5, -1]
    assert end.result.status == Status()


def test_muss_solo_needs_a_match_and_its_own_status() -> None:
    with pytest.raises(RecordError):
        make_rules(K, {"muss_solo": 1})
    with pytest.raises(RecordError):
        make_rules(K, {"muss_solo": 3, "deals": 8})  # 12 solos in 8 deals
    with pytest.raises(RecordError):
        Hand(make_rules(K), 0, PACK_32, Status(score=(0, 0, 0, 0), solos=(1, 0, 0, 0)))


def test_a_computer_that_owes_a_solo_in_the_last_deals_announces_one() -> None:
    hand = deal(fill("EA E10 EK E9 G9 G8 H9 H8"), dealer=3,
                status=Status(score=(0, 0, 0, 0), deals=7, solos=(0, 1, 1, 1)),
                deals=8, muss_solo=1)
    suggested = hand.rules.suggest(seat_view(hand, 0))
    assert suggested is not None and suggested.kind == "solo"
    early = deal(fill("EA E10 EK E9 G9 G8 H9 H8"), dealer=3,
                 status=Status(score=(0, 4, -2, -2), deals=2, solos=(0, 1, 0, 0)),
                 deals=8, muss_solo=1)
    weak = early.rules.suggest(seat_view(early, 0))
    assert weak is not None and weak.kind == "pass"


def test_counters_start_at_the_kitty_and_the_match_ends_when_one_runs_out() -> None:
    first = _lust_solo({"counters": 12}, {})
    assert first.result is not None and first.result.status == Status(score=(21, 9, 9, 9))
    out = _lust_solo({"counters": 12}, {"score": [10, 3, 17, 18]})
    assert out.result is not None
    assert out.result.extra["match_score"] == [19, 0, 14, 15]
    assert out.result.extra["match_winner"] == [0]
    assert out.result.status == Status()
