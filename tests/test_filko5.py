"""5-player Filkó (RULINGS.md, "Hungarian multi-player variants": 5 players; "Top trumps"):
30 cards dealt three at a time, the Old Man (``EO``) names trump and calls his secret partner's
card, masters and the Servant, swimming away, standing teams.

The dealing order is written here from RULINGS.md, independently of the engine, to check the
engine's deal; the other hands are laid out by tests/deal.py. The deals below were worked out by
hand, trick by trick (winner and points in the comments).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from conftest import snapshot
from deal import act, deal, pack_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    EVEN,
    Action,
    Hand,
    IllegalAction,
    Match,
    RecordError,
    Status,
    make_rules,
    public_view,
    replay,
    report,
    seat_view,
    to_record,
)
from engine.ai import make_player
from engine.cards import HEARTS, LEAVES, PACK_30, card, cards, code, codes
from engine.determinize import hand_from_view
from engine.inference import sample
from engine.rules.old_man import knowledge

K = "filko5"
RANKS = ["A", "10", "K", "O", "U", "9", "8", "7"]
CODES30 = [s + r for s in "EGHS" for r in RANKS if s + r not in ("G7", "S7")]


# -- dealing, from RULINGS: three at a time, twice round, starting after the dealer ------------


def deal_order(dealer: int) -> list[int]:
    return [(dealer + 1 + (i % 15) // 3) % 5 for i in range(30)]


# Deal A. The Old Man is seat 1; he names hearts and calls HA, which seat 3 holds: {1, 3}
# against {0, 2, 4}.
DEAL_A = [
    "S10 S9 S8 E9 E8 G9",  # seat 0
    "EO GO HK HU EA GA",  # seat 1, the Old Man
    "SO H9 H8 E10 EK EU",  # seat 2
    "HA H10 H7 G10 GK GU",  # seat 3, holds the called HA
    "HO SA SK SU G8 E7",  # seat 4
]
A1 = "EO H8 H7 HO S8"  # seat 1 wins (EO), 0
A2 = "GO H9 H10 E7 G9"  # seat 1 wins (GO), H10: OM 1
A3 = "EA EU HA SK E9"  # seat 3 trumps with the called HA: OM 3
A4 = "G10 G8 S9 GA SO"  # seat 2 trumps with SO: others 2 (G10 GA)
A5 = "E10 GK SU E8 HU"  # seat 1 trumps (HU): OM 4
A6 = "HK EK GU SA S10"  # seat 1 (HK): OM 6 (SA S10)
A_6_2 = [A1, A2, A3, A4, A5, A6]
# The same with seat 0 throwing S10 on seat 2's trick 4: OM 5 (H10 EA HA E10 SA), others 3.
A_5_3 = [A1, A2, A3, "G10 G8 S10 GA SO", A5, "HK EK GU SA S9"]

# Deal B. The Old Man (seat 1) holds the six highest hearts trumps: he takes every trick.
DEAL_B = [
    "G9 G8 SK SU S9 S8",  # seat 0
    "EO GO HO SO HA H10",  # seat 1, the Old Man
    "HK HU H9 EA E10 GA",  # seat 2
    "G10 SA S10 H8 H7 E9",  # seat 3
    "EK EU E8 E7 GK GU",  # seat 4
]
B_8_0 = ["EO H9 H7 E7 S8", "GO HU H8 E8 S9", "HO HK E9 EU SU", "SO EA SA EK SK",
         "HA E10 S10 GU G9", "H10 GA G10 GK G8"]

A_TEAMS = (1, 0, 1, 0, 1)


def start_a(dealer: int = 0, **options: object) -> Hand:
    hand = deal(K, DEAL_A, dealer, **options)
    act(hand, "trump:H")
    act(hand, "call:HA")
    return hand


# -- the deal and the Old Man ----------------------------------------------------------------


def test_thirty_cards_three_at_a_time() -> None:
    rules = make_rules(K)
    assert rules.pack == PACK_30 and len(rules.pack) == 30
    assert {"G7", "S7"}.isdisjoint(codes(rules.pack))
    assert rules.players == 5 and not rules.fixed_teams and not rules.score_by_seat
    for dealer in range(5):
        hand = deal(K, DEAL_A, dealer, order=deal_order(dealer))
        assert [codes(h) for h in hand.dealt] == [h.split() for h in DEAL_A]


def test_the_old_man_names_trump_then_calls_and_leads() -> None:
    hand = deal(K, DEAL_A, dealer=0)
    assert hand.phase == "trump" and hand.to_move == 1 and hand.trump is None
    assert hand.shown == []
    assert hand.legal_actions() == tuple(Action("trump", s) for s in range(4))
    act(hand, "trump:H")
    assert hand.phase == "call" and hand.trump == HEARTS and hand.to_move == 1
    # Hearts that are no Over and that seat 1 does not hold (he has HK, HU).
    assert [code(a.value) for a in hand.legal_actions()] == ["HA", "H10", "H9", "H8", "H7"]
    act(hand, "call:HA")
    assert hand.phase == "play" and hand.to_move == hand.leader == 1
    assert hand.team == [1, 0, 1, 0, 1]


@pytest.mark.parametrize(("phase_moves", "seat", "action", "reason"), [
    (0, 2, Action("trump", HEARTS), "not_your_turn"),
    (0, 1, Action("card", card("EO")), "wrong_phase"),
    (0, 1, Action("call", card("HA")), "wrong_phase"),
    (1, 1, Action("call", card("HK")), "call_held"),
    (1, 1, Action("call", card("HO")), "call_not_trump_suit"),
    (1, 1, Action("call", card("SA")), "call_not_trump_suit"),
    (1, 1, Action("trump", LEAVES), "wrong_phase"),
    (1, 3, Action("call", card("HA")), "not_your_turn"),
    (2, 1, Action("call", card("H10")), "wrong_phase"),
])
def test_refusals_in_the_old_mans_phases(phase_moves: int, seat: int, action: Action,
                                         reason: str) -> None:
    hand = deal(K, DEAL_A)
    if phase_moves >= 1:
        act(hand, "trump:H")
    if phase_moves >= 2:
        act(hand, "call:HA")
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as e:
        hand.apply(seat, action)
    assert e.value.reason == reason
    assert snapshot(hand) == before


def test_the_old_man_can_always_name_every_suit() -> None:
    """30 cards, six each: he holds EO and five more, and every suit has at least six cards
    that are no Over, so he can never hold all a suit's callable cards (documented)."""
    for suit in "EGHS":
        assert sum(1 for c in CODES30 if c[0] == suit and c[1:] != "O") >= 6


# -- secrecy ---------------------------------------------------------------------------------


def test_the_partner_is_secret_until_the_called_card_is_played() -> None:
    hand = start_a()
    act(hand, A1, A2, "EA EU")
    for view in [public_view(hand)] + [seat_view(hand, s) for s in (0, 1, 2, 4)]:
        assert view.team == (None, 0, None, None, None)
        assert view.team_points == ()
        assert view.public == {"old_man": 1, "partner_card": "HA", "partner": None}
        assert view.actions[:2] == ((1, Action("trump", HEARTS)), (1, Action("call", card("HA"))))
    # Each seat knows its own team privately; the partner knows he is one.
    assert seat_view(hand, 3).private == {"team": 0}
    assert seat_view(hand, 2).private == {"team": 1}
    # Seat 3 plays HA: from that card on, the teams are public (the trick is not over yet).
    act(hand, "HA")
    view = public_view(hand)
    assert view.team == A_TEAMS
    assert view.team_points == (1, 0)
    assert view.public["partner"] == 3


def test_before_the_call_only_the_old_man_is_known() -> None:
    hand = deal(K, DEAL_A)
    view = public_view(hand)
    assert view.team == (None, 0, None, None, None) and view.team_points == ()
    assert view.public == {"old_man": 1, "partner_card": None, "partner": None}


def test_early_end_waits_while_the_partner_could_be_anyone() -> None:
    """The outcome is judged for every seat that could be the partner: the hand going on
    must not tell anyone who he is."""
    hand = start_a()
    act(hand, A1)
    rules = hand.rules
    # Pretend seat 1 took 2 and seat 3 took 4: with seat 3 as partner, 6 is settled; were
    # seat 2 the partner, the others' 4 could still become 6: the hand must go on.
    hand.taken = [0, 2, 0, 4, 0]
    hand.team_taken = [6, 0]
    assert not rules.outcome_fixed(hand)
    hand.taken = [0, 6, 0, 0, 0]
    hand.team_taken = [6, 0]
    assert rules.outcome_fixed(hand)  # 6 for the Old Man whoever his partner is


def secret(hand: Hand) -> bool:
    rules = hand.rules
    return not rules.revealed(hand)  # type: ignore[attr-defined]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), game=st.sampled_from(["filko5", "kelebia"]))
def test_no_view_tells_who_the_partner_is(seed: int, game: str) -> None:
    """Rebuild the hand with the hidden cards dealt otherwise (the called card with another
    seat): the public view and every other seat's view stay the same at every step, and the
    same plays lead to the same end decision."""
    rng = random.Random(seed)
    hand = Match(make_rules(game), seed=seed).deal()
    partners = set()
    while not hand.finished:
        if secret(hand):
            partner = hand.pending.get("partner")
            old = hand.pending["old_man"]
            for viewer in range(5):
                if viewer in (partner, old):
                    continue
                view = seat_view(hand, viewer)
                other = hand_from_view(view, sample(knowledge(view), rng))
                partners.add(other.pending.get("partner"))
                assert public_view(other) == public_view(hand)
                other_view = seat_view(other, viewer)
                assert dataclasses.replace(other_view, legal=()) == dataclasses.replace(
                    view, legal=())
                assert sorted(other_view.legal) == sorted(view.legal)
        seat = rng.choice(hand.actors())
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    assert hand.result is not None


def test_other_dealings_do_put_the_partner_elsewhere() -> None:
    hand = start_a()
    view = seat_view(hand, 0)
    rng = random.Random(1)
    partners = {hand_from_view(view, sample(knowledge(view), rng)).pending["partner"]
                for _ in range(40)}
    assert partners == {2, 3, 4}  # never the Old Man (he lacks HA), never the viewer


# -- results ---------------------------------------------------------------------------------


def test_six_points_make_masters_and_the_losing_dealer_serves() -> None:
    hand = start_a(dealer=0, early_end=False)
    act(hand, *A_6_2)
    assert hand.team_points() == [6, 2]
    r = hand.result
    assert r is not None and r.event == "masters" and r.team == 0
    assert r.status == Status(masters=0, servant=0, teams=A_TEAMS, trump=HEARTS, leader=1)
    assert r.next_dealer == 0


def test_a_winning_dealer_passes_service_to_the_first_loser_after_him() -> None:
    hand = start_a(dealer=3)  # seat 3 is the partner
    act(hand, *A_6_2)
    r = hand.result
    assert r is not None and r.status.servant == 4 and r.next_dealer == 4
    hand = start_a(dealer=1)  # the Old Man deals: seat 2 is the first loser after him
    act(hand, *A_6_2)
    assert hand.result is not None and hand.result.next_dealer == 2


def test_five_three_changes_nothing_and_the_next_seat_deals() -> None:
    hand = start_a(dealer=2, early_end=False)
    act(hand, *A_5_3)
    r = hand.result
    assert r is not None and r.points == (5, 3)
    assert r.event == "no_change" and r.status == EVEN and r.next_dealer == 3
    # With early_end, 3-3 after trick 4 with 2 points out already settles it (HA was played
    # in trick 3, so the teams are known).
    hand = start_a(dealer=2)
    act(hand, *A_5_3[:4])
    r = hand.result
    assert r is not None and r.early and r.points == (3, 3) and r.event == "no_change"


def test_eight_nil_with_no_masters_makes_masters() -> None:
    hand = deal(K, DEAL_B, dealer=0, early_end=False)
    act(hand, "trump:H")
    act(hand, "call:HK")
    act(hand, *B_8_0)
    r = hand.result
    assert r is not None and r.points == (8, 0) and r.event == "masters"
    assert r.status == Status(masters=0, servant=0, teams=(1, 0, 0, 1, 1), trump=HEARTS,
                              leader=1)


def test_standing_masters_keep_teams_trump_and_leader_and_the_servant_deals() -> None:
    status = Status(masters=0, servant=0, teams=A_TEAMS, trump=HEARTS, leader=1)
    hand = deal(K, DEAL_A, dealer=0, status=status, early_end=False)
    assert hand.phase == "play" and hand.trump == HEARTS and hand.to_move == 1
    assert hand.team == list(A_TEAMS)
    assert public_view(hand).team == A_TEAMS  # standing teams are public
    assert public_view(hand).team_points == (0, 0)
    act(hand, *A_6_2)
    r = hand.result
    assert r is not None and r.event == "stay_masters" and r.status == status
    assert r.next_dealer == 0 and r.points == (6, 2)
    # With early_end: the servants' 2 after trick 4 can become neither 0 nor 6.
    hand = deal(K, DEAL_A, dealer=0, status=status)
    act(hand, *A_6_2[:4])
    assert hand.result is not None and hand.result.early
    assert hand.result.event == "stay_masters"


def test_the_servants_team_is_liberated_by_six() -> None:
    status = Status(masters=1, servant=3, teams=A_TEAMS, trump=HEARTS, leader=1)
    hand = deal(K, DEAL_A, dealer=3, status=status)
    act(hand, *A_6_2)
    r = hand.result
    assert r is not None and r.event == "liberated" and r.team == 0
    assert r.status == EVEN and r.next_dealer == 4


def test_swimming_away_with_nought() -> None:
    teams = (1, 0, 0, 1, 1)
    status = Status(masters=0, servant=0, teams=teams, trump=HEARTS, leader=1)
    hand = deal(K, DEAL_B, dealer=0, status=status)
    act(hand, *B_8_0[:5])
    assert hand.phase == "play"  # 5-0 so far: 0 or 1-3 for the servants is still open
    act(hand, B_8_0[5])
    r = hand.result
    assert r is not None and r.points == (8, 0)
    assert r.event == "swam_away" and r.team == 1 and r.status == EVEN and r.next_dealer == 1


@pytest.mark.parametrize("status", [
    Status(masters=0, servant=1, teams=A_TEAMS, trump=HEARTS, leader=1),  # servant a master
    Status(masters=0, servant=0, teams=(1, 0, 1, 1, 1), trump=HEARTS, leader=1),  # 1 vs 4
    Status(masters=0, servant=0, teams=A_TEAMS, trump=HEARTS, leader=0),  # leader not team 0
    Status(masters=0, servant=0, teams=A_TEAMS, trump=None, leader=1),  # incomplete
    Status(masters=0, servant=0, teams=A_TEAMS, trump=7, leader=1),
    Status(masters=0, servant=0),
])
def test_inconsistent_status_is_refused(status: Status) -> None:
    with pytest.raises(RecordError):
        make_rules(K).check_status(status)


def test_match_carries_status_and_service() -> None:
    m = Match(make_rules(K), dealer=0)
    hand = m.deal(cards(pack_for(K, DEAL_A, 0)))
    act(hand, "trump:H")
    act(hand, "call:HA")
    act(hand, *A_6_2)
    m.record_result(hand)
    assert m.dealer == 0 and m.status.teams == A_TEAMS
    nxt = m.deal()
    assert nxt.phase == "play" and nxt.to_move == 1 and nxt.trump == HEARTS


# -- top trumps ------------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "top"), [
    ("standard", ["EO", "GO", "HO", "SO"]),
    ("hearts_seven", ["H7", "EO", "GO", "HO", "SO"]),
    ("leaves_low", ["EO", "HO", "SO", "GO"]),
])
def test_top_trumps_option(option: str, top: list[str]) -> None:
    assert codes(make_rules(K, {"top_trumps": option}).top_trumps) == top


def test_hearts_seven_is_no_card_to_call() -> None:
    hand = deal(K, DEAL_A, top_trumps="hearts_seven")
    act(hand, "trump:H")
    assert [code(a.value) for a in hand.legal_actions()] == ["HA", "H10", "H9", "H8"]


# -- records, random play, computer players --------------------------------------------------


def test_record_round_trip() -> None:
    hand = start_a()
    act(hand, A1, A2)
    rec = to_record(hand)
    assert rec["actions"][:2] == [{"seat": 1, "trump": "H"}, {"seat": 1, "call": "HA"}]
    assert report(replay(rec)) == report(hand)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), early_end=st.booleans())
def test_random_legal_play(seed: int, early_end: bool) -> None:
    rng = random.Random(seed)
    m = Match(make_rules(K, {"early_end": early_end}), seed=seed)
    for _ in range(4):
        hand = m.deal()
        while not hand.finished:
            seat = rng.choice(hand.actors())
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
        r = hand.result
        assert r is not None
        assert sum(r.points) == sum(hand.taken) <= 8
        if not early_end:
            assert sum(r.points) == 8 and not r.early
        assert report(replay(to_record(hand))) == report(hand)
        m.record_result(hand)


def test_suggest_names_the_longest_suit_and_calls_its_ace() -> None:
    hand = deal(K, DEAL_A)
    rules = hand.rules
    # Seat 1: EO GO HK HU EA GA. Trumps he would hold: hearts EO GO HK HU (4); leaves
    # EO GO GA (3); acorns EO GO EA (3); bells EO GO (2) -> hearts.
    assert rules.suggest(seat_view(hand, 1)) == Action("trump", HEARTS)
    act(hand, "trump:H")
    assert rules.suggest(seat_view(hand, 1)) == Action("call", card("HA"))
    hand = deal(K, DEAL_B)
    act(hand, "trump:H")  # seat 1 holds HA and H10: the highest he lacks
    assert hand.rules.suggest(seat_view(hand, 1)) == Action("call", card("HK"))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_computer_players_play_whole_hands(level: str) -> None:
    from engine.ai.search import SearchPlayer, greedy_playout

    player = (SearchPlayer("hard", samples=12, seed=1, exact_cards=8, playout=greedy_playout)
              if level == "hard" else make_player(level, seed=1, timed=False))
    m = Match(make_rules(K), seed=11)
    for _ in range(3 if level != "easy" else 20):
        hand = m.deal()
        while not hand.finished:
            seat = hand.actors()[0]
            view = seat_view(hand, seat)
            action = player.choose(view)
            assert action in hand.legal_actions(seat)
            if action.kind == "call":
                assert action.value not in hand.hands[seat]
            hand.apply(seat, action)
        m.record_result(hand)
