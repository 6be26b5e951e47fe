"""Rich and Poor (RULINGS.md, "Hungarian multi-player variants": Rich and Poor): the holders
of EO and GO (the Rich) against the three others (the Poor); one player with both alone
against four; Rich win with 6+, Poor with 3+; a loser deals next. Options
``rich_poor_teams`` (``per_deal``, ``until_freed``) and ``called_partner``.

The deals are tests/test_filko5.py's DEAL_A (seat 1 holds EO and GO: alone) and DEAL_C, the
same with GO and SO exchanged between seats 1 and 2 (the Rich are seats 1 and 2); the tricks
were worked out by hand.
"""

from __future__ import annotations

import random

import pytest
from deal import act, deal, pack_for
from hypothesis import given, settings
from hypothesis import strategies as st
from test_filko5 import A_6_2, DEAL_A

from engine import (
    EVEN,
    Action,
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
from engine.cards import HEARTS, card, cards, code

K = "rich_poor"

DEAL_C = [
    "S10 S9 S8 E9 E8 G9",  # seat 0
    "EO SO HK HU EA GA",  # seat 1: EO, names trump
    "GO H9 H8 E10 EK EU",  # seat 2: GO, the secret Rich partner
    "HA H10 H7 G10 GK GU",  # seat 3
    "HO SA SK SU G8 E7",  # seat 4
]
# Hearts trump. Seat 1 wins tricks 1, 2, 5, 6 (H10, E10, SA S10: 4); seat 3 trick 3 (EA HA);
# seat 2 trumps trick 4 with GO (G10 GA): the Rich {1, 2} 6, the Poor {0, 3, 4} 2.
C_6_2 = ["EO H8 H7 HO S8", "SO H9 H10 E7 G9", "EA EU HA SK E9", "G10 G8 S9 GA GO",
         "E10 GK SU E8 HU", "HK EK GU SA S10"]
C_TEAMS = (1, 0, 0, 1, 1)
UNTIL = {"rich_poor_teams": "until_freed"}


def test_the_rich_are_eo_and_go_and_eo_names_trump_and_leads() -> None:
    hand = deal(K, DEAL_C)
    assert hand.phase == "trump" and hand.to_move == 1
    assert hand.legal_actions() == tuple(Action("trump", s) for s in range(4))
    act(hand, "trump:H")
    assert hand.phase == "play" and hand.to_move == hand.leader == 1
    assert hand.team == list(C_TEAMS)


def test_gos_holder_is_secret_until_go_is_played() -> None:
    hand = deal(K, DEAL_C)
    act(hand, "trump:H")
    act(hand, *C_6_2[:3], "G10 G8 S9 GA")
    for view in [public_view(hand)] + [seat_view(hand, s) for s in (0, 3, 4)]:
        assert view.team == (None, 0, None, None, None)
        assert view.team_points == ()
        assert view.public == {"old_man": 1, "partner_card": "GO", "partner": None}
    act(hand, "GO")
    view = public_view(hand)
    assert view.team == C_TEAMS and view.public["partner"] == 2


def test_rich_win_with_six_and_a_losing_dealer_deals_again() -> None:
    hand = deal(K, DEAL_C, dealer=0)
    act(hand, "trump:H")
    act(hand, *C_6_2)
    r = hand.result
    assert r is not None and r.points == (6, 2) and r.event == "rich_win" and r.team == 0
    assert r.status == EVEN and r.next_dealer == 0 and r.extra == {"winner": 0}
    hand = deal(K, DEAL_C, dealer=2)  # a Rich dealer: the first Poor after him deals
    act(hand, "trump:H")
    act(hand, *C_6_2)
    assert hand.result is not None and hand.result.next_dealer == 3


def test_one_player_with_both_plays_alone_and_the_poor_win_with_three() -> None:
    hand = deal(K, DEAL_A, dealer=0, early_end=False)
    act(hand, "trump:H")
    assert hand.team == [1, 0, 1, 1, 1]
    assert public_view(hand).team == (None, 0, None, None, None)  # alone is no announcement
    act(hand, A_6_2[0])
    act(hand, "GO")  # the Old Man plays GO himself: now everyone knows he is alone
    assert public_view(hand).team == (1, 0, 1, 1, 1)
    assert public_view(hand).public["partner"] == 1
    act(hand, A_6_2[1][3:], *A_6_2[2:])
    r = hand.result
    # Seat 1 alone: H10, E10, SA, S10 (4); the Poor EA HA G10 GA (4).
    assert r is not None and r.points == (4, 4) and r.event == "poor_win" and r.team == 1
    assert r.next_dealer == 1  # the dealer (seat 0) won: the first loser after him


def test_early_end_when_the_poor_have_three() -> None:
    hand = deal(K, DEAL_A, dealer=0)
    act(hand, "trump:H")
    act(hand, *A_6_2[:4])
    r = hand.result
    assert r is not None and r.early and r.event == "poor_win" and r.points == (1, 4)


def test_per_deal_keeps_no_status() -> None:
    with pytest.raises(RecordError):
        make_rules(K).check_status(
            Status(masters=0, servant=0, teams=C_TEAMS, trump=HEARTS, leader=1))


def test_until_freed_keeps_teams_and_dealer_until_the_dealing_team_takes_six() -> None:
    hand = deal(K, DEAL_C, dealer=0, **UNTIL)
    act(hand, "trump:H")
    act(hand, *C_6_2)
    r = hand.result
    standing = Status(masters=0, servant=0, teams=C_TEAMS, trump=HEARTS, leader=1)
    assert r is not None and r.event == "rich_win" and r.status == standing
    assert r.next_dealer == 0
    # Same teams, trump and leader; the Poor deal and take 2 (3+ would win a normal deal, but
    # only 6+ frees the dealing team).
    hand = deal(K, DEAL_C, dealer=0, status=standing, early_end=False, **UNTIL)
    assert hand.phase == "play" and hand.to_move == 1 and hand.team == list(C_TEAMS)
    act(hand, *C_6_2)
    r = hand.result
    assert r is not None and r.event == "not_freed" and r.status == standing
    assert r.next_dealer == 0
    # The Rich (seat 2) deal and take 6: freed; the first loser after the dealer deals next.
    rich_deal = Status(masters=1, servant=2, teams=C_TEAMS, trump=HEARTS, leader=1)
    hand = deal(K, DEAL_C, dealer=2, status=rich_deal, **UNTIL)
    act(hand, *C_6_2)
    r = hand.result
    assert r is not None and r.event == "freed" and r.team == 0 and r.status == EVEN
    assert r.next_dealer == 3


def test_until_freed_with_a_lone_rich() -> None:
    alone = Status(masters=1, servant=1, teams=(1, 0, 1, 1, 1), trump=HEARTS, leader=1)
    make_rules(K, UNTIL).check_status(alone)
    with pytest.raises(RecordError):
        make_rules(K, {**UNTIL, "called_partner": True}).check_status(alone)


def test_called_partner() -> None:
    hand = deal(K, DEAL_A, dealer=0, called_partner=True)
    act(hand, "trump:H")
    assert hand.phase == "call"
    assert [code(a.value) for a in hand.legal_actions()] == ["HA", "H10", "H9", "H8", "H7"]
    act(hand, "call:HA")
    assert hand.team == [1, 0, 1, 0, 1]
    view = public_view(hand)
    assert view.team == (None, 0, None, None, None)
    assert view.public == {"old_man": 1, "partner_card": "HA", "partner": None}
    act(hand, *A_6_2)
    r = hand.result
    assert r is not None and r.points == (6, 2) and r.event == "rich_win"
    assert r.next_dealer == 0


@pytest.mark.parametrize("option", ["standard", "hearts_seven", "leaves_low"])
def test_top_trumps_option(option: str) -> None:
    rules = make_rules(K, {"top_trumps": option})
    assert rules.top_trumps == make_rules("filko5", {"top_trumps": option}).top_trumps


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000), teams=st.sampled_from(["per_deal", "until_freed"]),
       called=st.booleans(), early_end=st.booleans())
def test_random_legal_play(seed: int, teams: str, called: bool, early_end: bool) -> None:
    rng = random.Random(seed)
    rules = make_rules(K, {"rich_poor_teams": teams, "called_partner": called,
                           "early_end": early_end})
    m = Match(rules, seed=seed)
    for _ in range(4):
        hand = m.deal()
        while not hand.finished:
            seat = rng.choice(hand.actors())
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
        r = hand.result
        assert r is not None and sum(r.points) <= 8
        if not early_end:
            assert sum(r.points) == 8
        # The Rich win with 6+, else the Poor (3+): the loser team deals next.
        winner = r.extra["winner"]
        assert winner == (0 if r.points[0] >= 6 else 1)
        assert report(replay(to_record(hand))) == report(hand)
        m.record_result(hand)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("options", [{}, {"called_partner": True}, UNTIL])
def test_computer_players_play_whole_hands(level: str, options: dict[str, object]) -> None:
    from engine.ai.search import SearchPlayer, greedy_playout

    player = (SearchPlayer("hard", samples=10, seed=1, exact_cards=8, playout=greedy_playout)
              if level == "hard" else make_player(level, seed=1, timed=False))
    m = Match(make_rules(K, options), seed=7)
    for _ in range(2 if level != "easy" else 10):
        hand = m.deal()
        while not hand.finished:
            seat = hand.actors()[0]
            action = player.choose(seat_view(hand, seat))
            assert action in hand.legal_actions(seat)
            hand.apply(seat, action)
        m.record_result(hand)


def test_suggest_names_the_strongest_suit() -> None:
    hand = deal(K, DEAL_C)
    # Seat 1: EO SO HK HU EA GA: hearts gives EO SO HK HU.
    assert hand.rules.suggest(seat_view(hand, 1)) == Action("trump", HEARTS)
    assert card("EO") in hand.hands[1]
    assert cards(pack_for("filko5", DEAL_C, 0)) == list(hand.pack)
