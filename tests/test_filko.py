"""Filkó (RULINGS.md, "Filkó" and "Top trumps"): the cut, the deal, masters and the Servant."""

from __future__ import annotations

import pytest
from conftest import (
    A_8_0,
    ALL_CODES,
    B_6_2,
    D_3_3,
    D_4_4,
    D_DM_5_3,
    D_DM_6_2,
    DEAL_A,
    DEAL_B,
    DEAL_D,
    snapshot,
)
from deal import act as play
from deal import act_while_open, action, deal, held, legal_cards

from engine import (
    EVEN,
    Action,
    Hand,
    IllegalAction,
    RecordError,
    Status,
    make_rules,
    public_view,
    replay,
    to_record,
)
from engine.cards import PACK_32, card, code, codes

K = "filko"


def _servant(s: int) -> Action:
    return Action("servant", s)


# -- deal and trump --------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_dealt_four_at_a_time_twice_round(dealer: int) -> None:
    hand = Hand(make_rules(K), dealer, PACK_32)
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        assert hand.dealt[seat] == PACK_32[4 * k:4 * k + 4] + PACK_32[16 + 4 * k:20 + 4 * k]
    assert hand.to_move == (dealer + 1) % 4


@pytest.mark.parametrize("dealer", range(4))
def test_trump_is_the_bottom_card_of_the_pack_and_goes_to_the_dealer(dealer: int) -> None:
    hand = Hand(make_rules(K), dealer, PACK_32)
    assert codes(hand.shown) == ["S7"]  # PACK_32 ends with S7
    assert "EGHS"[hand.trump] == "S"
    assert "S7" in held(hand, dealer)


def test_while_the_bottom_card_is_an_over_the_next_one_up_is_shown() -> None:
    rest = [c for c in ALL_CODES if c not in ("EO", "GO", "H9")]
    pack = [*rest, "H9", "GO", "EO"]
    hand = Hand(make_rules(K), 2, [card(c) for c in pack])
    assert codes(hand.shown) == ["EO", "GO", "H9"]
    assert "EGHS"[hand.trump] == "H"
    assert {"EO", "GO", "H9"} <= set(held(hand, 2))
    assert public_view(hand).shown_held == tuple((card(c), 2) for c in ("EO", "GO", "H9"))


@pytest.mark.parametrize("dealer", range(4))
def test_a_fifth_shown_card_goes_to_the_seat_before_the_dealer(dealer: int) -> None:
    rest = [c for c in ALL_CODES if c not in ("EO", "GO", "HO", "SO", "G8")]
    pack = [*rest, "G8", "HO", "SO", "GO", "EO"]
    hand = Hand(make_rules(K), dealer, [card(c) for c in pack])
    assert codes(hand.shown) == ["EO", "GO", "SO", "HO", "G8"]
    assert "EGHS"[hand.trump] == "G"
    assert {"EO", "GO", "HO", "SO"} <= set(held(hand, dealer))
    assert "G8" in held(hand, (dealer - 1) % 4)
    assert public_view(hand).shown_held[-1] == (card("G8"), (dealer - 1) % 4)


def test_role_deals_show_hearts_in_filko_too() -> None:
    hand = deal(K, DEAL_D, dealer=1)
    assert codes(hand.shown) == ["H9"]
    assert code(hand.pack[31]) == "H9"
    assert "H9" in held(hand, 1)


# -- play is as in Filicău -------------------------------------------------------------------


def test_follow_suit_and_trump_duties() -> None:
    hand = deal(K, DEAL_D)
    play(hand, "EO")
    assert legal_cards(hand) == held(hand, 2)  # no trumps: acorns are not forced
    play(hand, "G9 SK")
    assert legal_cards(hand) == ["H7", "H8", "H9", "HK", "HU"]
    with pytest.raises(IllegalAction) as e:
        hand.apply(0, action("EA"))
    assert e.value.reason == "must_follow"


# -- results and the Servant -----------------------------------------------------------------


@pytest.mark.parametrize(("roles", "script", "points"), [
    (DEAL_D, D_4_4, [4, 4]),
    (DEAL_D, D_DM_5_3, [5, 3]),
])
@pytest.mark.parametrize("dealer", range(4))
def test_under_six_changes_nothing_and_the_next_seat_deals(roles, script, points,
                                                           dealer: int) -> None:
    hand = deal(K, roles, dealer=dealer, early_end=False)
    play(hand, script)
    r = hand.result
    assert r is not None and hand.finished
    by_team = points if dealer % 2 == 0 else points[::-1]  # points are [DM, LN]
    assert list(r.points) == by_team
    assert (r.status, r.event, r.next_dealer) == (EVEN, "no_change", (dealer + 1) % 4)


def _to_servant_choice(early_end: bool = False) -> Hand:
    hand = deal(K, DEAL_D, dealer=0, early_end=early_end)
    act_while_open(hand, D_DM_6_2)
    return hand


def test_first_masters_choose_a_servant() -> None:
    hand = _to_servant_choice()
    assert hand.team_points() == [6, 2]
    assert hand.phase == "servant" and not hand.finished and hand.result is None
    assert hand.actors() == [0, 2]
    assert public_view(hand).actors == (0, 2)
    for seat in (0, 2):
        assert hand.legal_actions(seat) == (_servant(1), _servant(3))
    for seat in (1, 3):
        assert hand.legal_actions(seat) == ()
    hand.apply(2, _servant(3))
    r = hand.result
    assert r is not None and hand.finished
    assert (r.status, r.event, r.team, r.next_dealer) == (Status(0, 3), "masters", 0, 3)


def test_either_master_may_choose() -> None:
    hand = _to_servant_choice()
    hand.apply(0, _servant(1))
    assert hand.result is not None and hand.result.status == Status(0, 1)
    assert hand.result.next_dealer == 1


@pytest.mark.parametrize(("seat", "action", "reason"), [
    (1, _servant(3), "not_your_turn"),
    (3, _servant(1), "not_your_turn"),
    (0, _servant(2), "servant_not_opponent"),
    (2, _servant(0), "servant_not_opponent"),
    (0, _servant(4), "servant_not_opponent"),
    (0, Action("card", card("EK")), "wrong_phase"),
])
def test_servant_choice_refusals(seat: int, action: Action, reason: str) -> None:
    hand = _to_servant_choice()
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as e:
        hand.apply(seat, action)
    assert e.value.reason == reason
    assert snapshot(hand) == before
    hand.apply(0, _servant(3))  # the choice is still open
    assert hand.finished


def test_eight_nil_makes_masters_in_filko() -> None:
    hand = deal(K, DEAL_A, dealer=0, early_end=False)
    play(hand, A_8_0)
    assert hand.team_points() == [0, 8]
    assert hand.phase == "servant" and hand.actors() == [1, 3]
    hand.apply(3, _servant(2))
    assert hand.result is not None
    assert (hand.result.status, hand.result.event, hand.result.next_dealer) == (
        Status(1, 2), "masters", 2)


def test_early_end_reaches_the_choice_once_six_are_in() -> None:
    hand = deal(K, DEAL_A, dealer=0)
    n = act_while_open(hand, A_8_0)
    # 5 points after trick 4, 7 after trick 5: nothing left can stop the masters.
    assert n == 20
    assert hand.phase == "servant" and hand.team_points() == [0, 7]
    hand.apply(1, _servant(0))
    assert hand.result is not None and hand.result.early
    assert hand.result.status == Status(1, 0)


def test_early_end_at_3_3() -> None:
    hand = deal(K, DEAL_D, dealer=0)
    play(hand, D_3_3)
    assert hand.finished
    r = hand.result
    assert r is not None
    assert (list(r.points), r.status, r.early, r.next_dealer) == ([3, 3], EVEN, True, 1)


def test_servant_deals_while_nothing_changes() -> None:
    status = Status(masters=0, servant=3)
    for script in (D_4_4, D_DM_5_3):
        hand = deal(K, DEAL_D, dealer=3, status=status, early_end=False)
        play(hand, script)
        r = hand.result
        assert r is not None
        assert (r.status, r.event, r.next_dealer) == (status, "no_change", 3)


def test_masters_taking_six_stay_masters() -> None:
    # Dealer 3 (the Servant): LN are seats 0 and 2, the masters, and take 6.
    hand = deal(K, DEAL_B, dealer=3, status=Status(0, 3), early_end=False)
    play(hand, B_6_2)
    assert hand.team_points() == [6, 2]
    assert hand.result is not None
    assert (hand.result.status, hand.result.next_dealer) == (Status(0, 3), 3)


@pytest.mark.parametrize(("servant", "new_servant"), [(3, 0), (1, 2)])
def test_servant_team_taking_six_liberates_and_the_next_seat_serves(servant: int,
                                                                    new_servant: int) -> None:
    before = Status(masters=0, servant=servant)
    # With the Servant dealing, DM (the dealer's team) is the servant team.
    hand = deal(K, DEAL_D, dealer=servant, status=before, early_end=False)
    play(hand, D_DM_6_2)
    r = hand.result
    assert r is not None and hand.finished  # no new choice: the next seat is the Servant
    assert list(r.points) == [2, 6]
    assert (r.status, r.event, r.team, r.next_dealer) == (
        Status(1, new_servant), "liberated", 1, new_servant)


def test_never_even_again() -> None:
    # Masters (seats 0 and 2) take all 8: they stay masters.
    hand = deal(K, DEAL_A, dealer=3, status=Status(0, 3), early_end=False)
    play(hand, A_8_0)
    assert hand.team_points() == [8, 0]
    assert hand.result is not None and hand.result.status == Status(0, 3)
    # The servant team (the Servant, seat 1, deals) takes all 8: it becomes masters, not even.
    # DEAL_A with the teams' cards swapped; bells are trump (SA shown).
    swapped = {"L": DEAL_A["M"], "M": DEAL_A["L"], "N": DEAL_A["D"], "D": DEAL_A["N"]}
    hand = deal(K, swapped, dealer=1, status=Status(0, 1), early_end=False)
    play(hand, "G10 EO E9 SA | HK H8 S9 G8 | SU GA GO EU | HA H7 S7 G7 | E7 E8 SO EK"
               " | H10 H9 SK GK | S10 GU HO E10 | HU EA S8 G9")
    assert hand.team_points() == [0, 8]
    assert hand.result is not None and hand.result.status == Status(1, 2)
    assert hand.result.next_dealer == 2


def test_early_end_with_masters_once_the_servant_team_cannot_reach_six() -> None:
    hand = deal(K, DEAL_A, dealer=3, status=Status(0, 3))
    n = act_while_open(hand, A_8_0)
    # After trick 2 the masters have 4 points: the servant team can take at most 4.
    assert n == 8
    r = hand.result
    assert r is not None
    assert (list(r.points), r.status, r.early, r.next_dealer) == ([4, 0], Status(0, 3), True, 3)


@pytest.mark.parametrize("status", [
    Status(masters=0), Status(servant=1), Status(0, 2), Status(1, 3), Status(0, 5),
])
def test_inconsistent_filko_status_is_refused(status: Status) -> None:
    with pytest.raises(RecordError):
        Hand(make_rules(K), 0, PACK_32, status)


# -- top trumps ------------------------------------------------------------------------------


def test_standard_top_trumps() -> None:
    hand = Hand(make_rules(K), 0, PACK_32)
    assert hand.order is not None
    assert hand.order.trumps_high_to_low(PACK_32)[:5] == ["EO", "GO", "HO", "SO", "SA"]


def test_hearts_seven_is_above_the_acorns_over() -> None:
    hand = deal(K, DEAL_A, dealer=0, top_trumps="hearts_seven")
    assert hand.order is not None
    assert hand.order.trumps_high_to_low(PACK_32)[:6] == ["H7", "EO", "GO", "HO", "SO", "HA"]
    play(hand, "EO GA SA H7")
    assert hand.tricks[0].winner == 0
    standard = deal(K, DEAL_A, dealer=0)
    play(standard, "EO GA SA H7")
    assert standard.tricks[0].winner == 1


def test_hearts_seven_is_a_trump_whatever_the_trump_suit() -> None:
    # PACK_32, dealer 0: trump bells; seat 1 holds EA E10 EK EO HA H10 HK HO, seat 2 holds
    # EU E9 E8 E7 HU H9 H8 H7.
    hand = Hand(make_rules(K, {"top_trumps": "hearts_seven"}), 0, PACK_32)
    assert "EGHS"[hand.trump] == "S"
    play(hand, "EO")
    assert legal_cards(hand) == ["H7"]  # the one trump must answer a trump lead
    hand = Hand(make_rules(K, {"top_trumps": "hearts_seven"}), 0, PACK_32)
    play(hand, "HA")
    assert legal_cards(hand) == ["H8", "H9", "HU"]  # H7 is no heart
    hand = Hand(make_rules(K), 0, PACK_32)
    play(hand, "EO")
    assert legal_cards(hand) == held(hand, 2)  # standard: seat 2 holds no trump


def test_leaves_low_puts_the_leaves_over_below_the_bells_over() -> None:
    # Dealer 0 (trump hearts, the dealer's last card HA); seat 2 holds GO, seat 3 SO EO HO.
    hands = ["H9 EA E10 EK EU E9 HK HA", "E7 G7 G8 S7 S8 HU H8 H7",
             "E8 GO GA G10 GK G9 GU SA", "SO EO HO S10 SK SU S9 H10"]
    script = "E7 E8 HO EA | SO H9 H7 GO"
    low = deal(K, hands, top_trumps="leaves_low")
    assert low.order is not None
    assert low.order.trumps_high_to_low(PACK_32)[:5] == ["EO", "HO", "SO", "GO", "HA"]
    play(low, script)
    assert [t.winner for t in low.tricks] == [3, 3]
    standard = deal(K, hands)
    play(standard, script)
    assert [t.winner for t in standard.tricks] == [3, 2]


def test_top_trumps_option_reaches_the_record() -> None:
    hand = deal(K, DEAL_D, top_trumps="leaves_low")
    rec = to_record(hand)
    assert rec["options"]["top_trumps"] == "leaves_low"
    again = replay(rec)
    assert again.rules.options.top_trumps == "leaves_low"  # type: ignore[attr-defined]
    assert again.order is not None and again.order.permanent == hand.order.permanent


def test_hearts_seven_shown_by_the_cut_makes_hearts_trump() -> None:
    """RULINGS: the cut shows further cards only while they are Overs; under hearts_seven a
    shown H7 is the top trump, but no Over, so hearts are trump and nothing more is shown."""
    from engine import Hand, make_rules
    from engine.cards import HEARTS, PACK_32, card

    pack = [c for c in PACK_32 if c != card("H7")] + [card("H7")]
    hand = Hand(make_rules("filko", {"top_trumps": "hearts_seven"}), dealer=0, pack=pack)
    assert [card("H7")] == hand.shown
    assert hand.trump == HEARTS
    assert hand.order is not None and hand.order.beats(card("H7"), card("EO"))


def test_bad_options_name_the_option_value_and_reason() -> None:
    from engine import EngineError, OptionsError, RecordError

    with pytest.raises(OptionsError) as e:
        make_rules("filko", {"top_trumps": "spades_high", "colour": "red"})
    err = e.value
    assert isinstance(err, RecordError) and isinstance(err, EngineError)
    assert err.game == "filko"
    assert {(p.option, p.value, p.reason) for p in err.problems} == {
        ("top_trumps", "spades_high", "literal_error"), ("colour", "red", "extra_forbidden")}
    assert str(err).startswith("bad options for filko: ")
