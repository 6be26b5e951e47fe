"""Filicău (RULINGS.md, "Common ground" and "Filicău"): deal, trump, play, result, dealer."""

from __future__ import annotations

import pytest
from conftest import (
    A_8_0,
    ALL_CODES,
    B_6_2,
    B_7_1,
    D_2_4,
    D_2_4_LAST,
    D_3_3,
    D_3_3_LAST,
    D_4_4,
    D_DM_5_3,
    D_DM_6_2,
    DEAL_A,
    DEAL_B,
    DEAL_D,
    snapshot,
)
from deal import act as play
from deal import act_while_open, action, deal, held, legal_cards, pack_for

from engine import EVEN, Action, Hand, IllegalAction, RecordError, Status, make_rules, public_view
from engine.cards import PACK_32, card, code, codes

H = "filicau"

#: A deal for the duties of play (dealer 0, trump hearts from the dealer's H9):
#: seat 1 leads; seat 2 holds acorns and GO; seat 3 holds EO but no plain acorns.
DEAL_E = [
    "H9 EA E10 EK EU E9 HK HA",  # seat 0, the dealer
    "E7 G7 G8 S7 S8 HU H8 H7",  # seat 1
    "E8 GO GA G10 GK G9 GU SA",  # seat 2
    "SO EO HO S10 SK SU S9 H10",  # seat 3
]


# -- deal and trump --------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_cards_are_dealt_one_at_a_time_from_the_seat_after_the_dealer(dealer: int) -> None:
    hand = Hand(make_rules(H), dealer, PACK_32)
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        assert hand.dealt[seat] == PACK_32[k::4]
        assert sorted(hand.hands[seat]) == sorted(PACK_32[k::4])


@pytest.mark.parametrize("dealer", range(4))
def test_trump_is_the_first_card_dealt_to_the_dealer(dealer: int) -> None:
    hands = list(DEAL_E)
    hands = hands[-dealer:] + hands[:-dealer] if dealer else hands  # DEAL_E[0] -> the dealer
    hand = deal(H, hands, dealer=dealer)
    assert pack_for(H, hands, dealer)[3] == "H9"
    assert codes(hand.shown) == ["H9"]
    assert code(hand.pack[3]) == "H9"
    assert hand.trump == 2  # hearts


@pytest.mark.parametrize("suit", "EGHS")
def test_each_suit_can_be_trump(suit: str) -> None:
    first = suit + "7"
    rest = [c for c in ALL_CODES if c != first]
    hands = [[first, *rest[:7]], rest[7:15], rest[15:23], rest[23:31]]
    hand = deal(H, hands, dealer=0)
    assert codes(hand.shown) == [first]
    assert "EGHS"[hand.trump] == suit


def test_while_the_shown_card_is_an_over_the_next_dealer_card_is_shown() -> None:
    rest = [c for c in ALL_CODES if c not in ("GO", "SO", "H9")]
    hands = [["GO", "SO", "H9", *rest[:5]], rest[5:13], rest[13:21], rest[21:29]]
    hand = deal(H, hands, dealer=0)
    assert codes(hand.shown) == ["GO", "SO", "H9"]
    assert [code(hand.pack[i]) for i in (3, 7, 11)] == ["GO", "SO", "H9"]
    assert "EGHS"[hand.trump] == "H"
    # The shown cards are the dealer's, and everyone knows it.
    assert set(codes(hand.shown)) <= set(held(hand, 0))
    assert public_view(hand).shown_held == tuple((card(c), 0) for c in ("GO", "SO", "H9"))


@pytest.mark.parametrize("dealer", range(4))
def test_four_overs_first_then_the_fifth_card_fixes_trump(dealer: int) -> None:
    firsts = ["SO", "EO", "HO", "GO", "S7"]
    rest = [c for c in ALL_CODES if c not in firsts]
    hands = [rest[0:8], rest[8:16], rest[16:24]]
    hands.insert(dealer, [*firsts, *rest[24:27]])
    hand = deal(H, hands, dealer=dealer)
    assert codes(hand.shown) == firsts
    assert "EGHS"[hand.trump] == "S"
    assert set(firsts) <= set(held(hand, dealer))


# -- play ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_the_seat_after_the_dealer_leads_any_card(dealer: int) -> None:
    hand = Hand(make_rules(H), dealer, PACK_32)
    assert hand.to_move == hand.leader == (dealer + 1) % 4
    assert legal_cards(hand) == held(hand, (dealer + 1) % 4)
    for seat in range(4):
        if seat != hand.to_move:
            assert hand.legal_actions(seat) == ()


def test_play_goes_round_in_seat_order() -> None:
    hand = deal(H, DEAL_E)
    seen = []
    for c in ("E7", "E8", "SO", "EA"):
        seen.append(hand.to_move)
        play(hand, c)
    assert seen == [1, 2, 3, 0]


def test_must_follow_suit_and_an_over_does_not_follow_its_printed_suit() -> None:
    hand = deal(H, DEAL_E)
    play(hand, "E7")
    # Seat 2 holds E8 and GO: only the plain acorn follows.
    assert legal_cards(hand) == ["E8"]
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as e:
        hand.apply(2, action("GO"))
    assert e.value.reason == "must_follow"
    assert "GO" in str(e.value) and "acorns" in str(e.value)
    assert snapshot(hand) == before


def test_void_in_the_led_suit_must_trump_and_an_over_is_a_trump() -> None:
    hand = deal(H, DEAL_E)
    play(hand, "E7 E8")
    # Seat 3 holds EO but no plain acorn: void, so it must trump (Overs or hearts).
    assert legal_cards(hand) == sorted(["SO", "EO", "HO", "H10"])
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as e:
        hand.apply(3, action("S10"))
    assert e.value.reason == "must_trump"
    assert snapshot(hand) == before


def test_holding_the_led_suit_forbids_trumping() -> None:
    hand = deal(H, DEAL_E)
    play(hand, "E7 E8 SO")
    assert legal_cards(hand) == sorted(["EA", "E10", "EK", "EU", "E9"])
    with pytest.raises(IllegalAction) as e:
        hand.apply(0, action("HA"))
    assert e.value.reason == "must_follow"


def test_trick_won_by_a_trump_over_higher_plain_cards() -> None:
    hand = deal(H, DEAL_E)
    play(hand, "E7 E8 SO EA")
    assert hand.tricks[0].winner == 3
    assert hand.team_points() == [0, 1]  # EA for seat 3's team
    assert hand.to_move == hand.leader == 3  # the winner leads


def test_over_lead_forces_trumps_and_overs_beat_the_trump_ace() -> None:
    hand = deal(H, DEAL_E)
    play(hand, "E7 E8 SO EA", "H10")
    assert legal_cards(hand) == ["H9", "HA", "HK"]  # seat 0: trumps only
    play(hand, "HA")
    assert legal_cards(hand) == ["H7", "H8", "HU"]
    play(hand, "H7")
    # Seat 2's only trump is GO: it must play it.
    assert legal_cards(hand) == ["GO"]
    play(hand, "GO")
    assert hand.tricks[1].winner == 2
    assert hand.team_points() == [2, 1]


def test_an_over_lead_is_a_trump_lead_not_an_acorns_lead() -> None:
    hand = deal(H, DEAL_D)
    play(hand, "EO")
    # Seat 2 holds plain acorns (E9 E8 EU) but no trump: any card, acorns not forced.
    assert legal_cards(hand) == held(hand, 2)
    play(hand, "G9")
    assert legal_cards(hand) == held(hand, 3)
    play(hand, "SK")
    # The dealer holds acorns and hearts: hearts (trumps) only.
    assert legal_cards(hand) == ["H7", "H8", "H9", "HK", "HU"]
    with pytest.raises(IllegalAction) as e:
        hand.apply(0, action("EA"))
    assert e.value.reason == "must_follow"
    assert e.value.params["suit"] == "trumps"


def test_void_in_led_suit_and_trumps_may_play_anything() -> None:
    hand = deal(H, DEAL_D)
    play(hand, "G8 G9")
    # Seat 3 (SK SU S9 S8 E7 SA S10 S7): no leaves, no trumps.
    assert legal_cards(hand) == held(hand, 3)
    play(hand, "SA")
    assert legal_cards(hand) == ["H7", "H8", "H9", "HK", "HU"]  # the dealer must trump
    play(hand, "H7")
    assert hand.tricks[0].winner == 0
    assert hand.team_points() == [1, 0]


def test_trump_wins_over_the_led_suit() -> None:
    hand = deal(H, DEAL_E)
    play(hand, "E7 E8 SO EA | H10 HA H7 GO")
    # Seat 2 leads GA; seat 3 must trump (EO, HO), the dealer must trump, seat 1 follows.
    play(hand, "GA HO H9 G7")
    assert hand.tricks[2].winner == 3
    assert hand.team_points() == [2, 2]


def test_highest_of_the_led_suit_wins_over_off_suit_aces() -> None:
    hand = deal(H, DEAL_D)
    play(hand, "EO G9 SK H9 | GO GU SU H8 | HO GK S9 H7 | SO E9 S8 HU | HA E8 E7 HK")
    play(hand, "H10 EU SA E10")
    play(hand, "G7 G10 S10 EA")  # S10 and EA neither follow nor trump
    assert hand.tricks[6].winner == 2
    assert hand.team_points() == [3, 4]


# -- results ---------------------------------------------------------------------------------

M0, M1 = Status(masters=0), Status(masters=1)

# (deal, script, status before, points [DM, LN], status after, event, team) worked out by
# hand; with dealer 0 the DM team is team 0 and LN is team 1. DM are never masters here: a
# slave deals while there are slaves.
RESULTS = [
    (DEAL_A, A_8_0, EVEN, [0, 8], EVEN, "ran_away", 0),
    (DEAL_A, A_8_0, M1, [0, 8], EVEN, "ran_away", 0),
    (DEAL_B, B_6_2, EVEN, [2, 6], M1, "masters", 1),
    (DEAL_B, B_6_2, M1, [2, 6], M1, "stay_masters", 1),
    (DEAL_B, B_7_1, EVEN, [1, 7], M1, "masters", 1),
    (DEAL_D, D_4_4, EVEN, [4, 4], EVEN, "no_change", None),
    (DEAL_D, D_4_4, M1, [4, 4], M1, "no_change", None),
    (DEAL_D, D_DM_5_3, EVEN, [5, 3], EVEN, "no_change", None),
    (DEAL_D, D_DM_5_3, M1, [5, 3], M1, "no_change", None),
    (DEAL_D, D_DM_6_2, EVEN, [6, 2], M0, "masters", 0),
    (DEAL_D, D_DM_6_2, M1, [6, 2], M0, "masters", 0),
]


@pytest.mark.parametrize(("roles", "script", "before", "points", "after", "event", "team"),
                         RESULTS)
def test_result_with_every_trick_played(roles, script, before, points, after, event, team) -> None:
    hand = deal(H, roles, status=before, early_end=False)
    play(hand, script)
    assert hand.finished and not any(hand.hands)
    r = hand.result
    assert r is not None
    assert list(r.points) == points == hand.team_points()
    assert (r.status_before, r.status, r.event, r.team, r.early) == (before, after, event, team,
                                                                       False)


@pytest.mark.parametrize(("roles", "script", "before", "points", "after", "event", "team"),
                         RESULTS)
def test_early_end_never_changes_the_outcome(roles, script, before, points, after, event,
                                             team) -> None:
    full = deal(H, roles, status=before, early_end=False)
    play(full, script)
    hand = deal(H, roles, status=before)
    n = act_while_open(hand, script)
    assert hand.finished
    assert hand.result is not None and full.result is not None
    assert hand.result.status == full.result.status
    assert hand.result.next_dealer == full.result.next_dealer
    assert hand.result.early == (n < 32)


def test_run_away_with_early_end_stops_once_all_points_are_taken() -> None:
    hand = deal(H, DEAL_A)
    n = act_while_open(hand, A_8_0)
    # All 8 points are in after trick 6; 7-1 was still possible after trick 5.
    assert n == 24
    r = hand.result
    assert r is not None
    assert (r.event, r.team, r.status, r.early, list(r.points)) == ("ran_away", 0, EVEN, True,
                                                                    [0, 8])
    assert [len(h) for h in hand.hands] == [2, 2, 2, 2]


def test_early_end_at_3_3_leaves_cards_unplayed() -> None:
    hand = deal(H, DEAL_D)
    play(hand, D_3_3)
    assert hand.finished
    r = hand.result
    assert r is not None
    assert (list(r.points), r.status, r.event, r.early) == ([3, 3], EVEN, "no_change", True)
    assert r.next_dealer == 1
    assert [held(hand, s) for s in range(4)] == [["EK"], ["G7"], ["G10"], ["SA"]]
    view = public_view(hand)
    assert view.unplayed == ((card("EK"),), (card("G7"),), (card("G10"),), (card("SA"),))
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as e:
        hand.apply(2, action("G10"))
    assert e.value.reason == "hand_over"
    assert snapshot(hand) == before


def test_without_early_end_3_3_plays_on() -> None:
    hand = deal(H, DEAL_D, early_end=False)
    play(hand, D_3_3)
    assert not hand.finished and hand.to_move == 2
    play(hand, D_3_3_LAST)
    r = hand.result
    assert r is not None
    assert (list(r.points), r.status, r.early) == ([5, 3], EVEN, False)


def test_early_end_waits_while_the_outcome_depends_on_play() -> None:
    hand = deal(H, DEAL_D)
    play(hand, D_2_4)
    # 2-4 with two points out: 4-4 keeps everyone even, 2-6 would make masters.
    assert hand.team_points() == [2, 4]
    assert not hand.finished and hand.to_move == 2
    play(hand, D_2_4_LAST)
    assert hand.result is not None and list(hand.result.points) == [4, 4]
    assert not hand.result.early


@pytest.mark.parametrize("before", [EVEN, M1])
def test_early_end_does_not_stop_at_0_7(before: Status) -> None:
    hand = deal(H, DEAL_A, status=before)
    play(hand, "EO GA SA H9 | GO G10 S10 H8 | HO GK SK H7 | SO GU SU EA | HA G9 S9 E10")
    assert hand.team_points() == [0, 7]
    assert not hand.finished  # 1-7 makes masters, 0-8 runs away


# -- dealer ----------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("status", [EVEN, M0, M1])
def test_next_dealer(dealer: int, status: Status) -> None:
    nxt = make_rules(H).next_dealer(status, dealer)  # type: ignore[attr-defined]
    if status.masters is None:
        assert nxt == (dealer + 1) % 4
    else:
        assert nxt in (dealer, (dealer + 1) % 4)
        assert nxt % 2 != status.masters  # a slave deals


@pytest.mark.parametrize(("roles", "script", "dealer", "before", "after", "next_dealer"), [
    (DEAL_D, D_4_4, 2, EVEN, EVEN, 3),
    (DEAL_D, D_4_4, 3, EVEN, EVEN, 0),
    (DEAL_A, A_8_0, 1, M0, EVEN, 2),  # ran away: even again, next seat
    (DEAL_B, B_6_2, 0, EVEN, M1, 0),  # seat 0 is a slave and deals again
    (DEAL_B, B_6_2, 1, EVEN, M0, 1),  # LN are seats 2 and 0 now
    (DEAL_D, D_DM_6_2, 0, EVEN, M0, 1),  # the dealer became a master: seat 1 deals
    (DEAL_D, D_DM_6_2, 3, M0, M1, 0),  # DM are seats 3 and 1: the dealer is a master now
    (DEAL_D, D_4_4, 1, M0, M0, 1),  # slave dealer, no change: deals again
    (DEAL_D, D_4_4, 3, M0, M0, 3),
])
def test_next_dealer_after_a_played_hand(roles, script, dealer, before, after,
                                         next_dealer) -> None:
    hand = deal(H, roles, dealer=dealer, status=before, early_end=False)
    play(hand, script)
    assert hand.result is not None
    assert hand.result.status == after
    assert hand.result.next_dealer == next_dealer


@pytest.mark.parametrize("masters", [0, 1])
def test_a_master_never_deals_while_there_are_slaves(masters: int) -> None:
    """RULINGS: with slaves, a slave deals (a random slave first, then the previous dealer
    or the next seat, whichever is a slave): a record with a master dealing is refused."""
    status = Status(masters=masters)
    for dealer in range(4):
        if dealer % 2 == masters:
            with pytest.raises(RecordError, match="a slave deals"):
                Hand(make_rules(H), dealer, PACK_32, status)
        else:
            Hand(make_rules(H), dealer, PACK_32, status)
    # Even, anybody deals.
    for dealer in range(4):
        Hand(make_rules(H), dealer, PACK_32, EVEN)


def test_status_with_a_servant_is_refused() -> None:
    with pytest.raises(RecordError, match="Servant"):
        Hand(make_rules(H), 0, PACK_32, Status(masters=0, servant=1))
    with pytest.raises(RecordError, match="masters"):
        Hand(make_rules(H), 0, PACK_32, Status(masters=2))


# -- illegal actions -------------------------------------------------------------------------


def _refused(hand: Hand, seat: int, action: Action) -> IllegalAction:
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as e:
        hand.apply(seat, action)
    assert snapshot(hand) == before
    return e.value


def test_not_your_turn() -> None:
    hand = deal(H, DEAL_E)
    e = _refused(hand, 2, action("E8"))
    assert e.reason == "not_your_turn"
    assert e.params == {"seat": 2, "to_move": 1}
    play(hand, "E7")
    assert _refused(hand, 1, action("G7")).reason == "not_your_turn"
    play(hand, "E8")  # still works afterwards


def test_not_your_card() -> None:
    hand = deal(H, DEAL_E)
    e = _refused(hand, 1, action("EA"))
    assert e.reason == "not_your_card"
    assert "EA" in str(e)
    play(hand, "E7")
    assert _refused(hand, 2, action("E7")).reason == "not_your_card"  # already played


def test_other_refusals() -> None:
    hand = deal(H, DEAL_E)
    assert _refused(hand, 1, Action("servant", 3)).reason == "wrong_phase"
    assert _refused(hand, 7, action("E7")).reason == "no_such_seat"


def test_hand_over_after_the_last_trick() -> None:
    hand = deal(H, DEAL_D, early_end=False)
    play(hand, D_4_4)
    assert hand.finished
    assert hand.legal_actions() == ()
    assert _refused(hand, hand.result.next_dealer, action("EA")).reason == "hand_over"
    assert _refused(hand, 0, Action("servant", 1)).reason == "hand_over"
