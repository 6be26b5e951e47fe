"""Filcau, 20 cards (RULINGS.md, "Filcau (Romanian, 20 cards)"): cut or knock, the fris
window and trick, binding, the binder of three's lead, the servant/even/boss ladder and the
match to 11."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from deal import act, deal, held, rest_of_pack
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
    action_from_json,
    action_to_json,
    make_rules,
    public_view,
    replay,
    report,
    seat_view,
    to_record,
)
from engine.ai import make_player
from engine.cards import PACK_20, card, code
from engine.rules.filcau20 import BIND, DEAL, FRIS, FRIS_TRICK, Bind, Fris, bindings, strongest

K = "filcau20"

CUT = Action("deal", "cut")
KNOCK = Action("deal", "knock")
DEAL_ON = Action("deal_on", True)
PASS = Action("pass", True)
CLOSED = Action("closed", True)
FACE_UP = Action("face_up", True)


def new_hand(hands: Sequence[str], dealer: int = 0, mode: str = "knock",
             status: Status = EVEN, **options: object) -> Hand:
    """The hand in which seat ``s`` is dealt ``hands[s]`` (five codes, in dealt order), cut or
    knocked by the seat before the dealer. A knock deals five at once from the seat after the
    dealer (the cut deals the game's packets, three each then two)."""
    knock = [(dealer + 1 + k) % 4 for k in range(4) for _ in range(5)]
    hand = deal(K, hands, dealer, status, order=knock if mode == "knock" else None, **options)
    act(hand, f"deal:{mode}")
    return hand


def cards_of(s: str) -> list[int]:
    return [card(c) for c in s.split()]


def bind(trump: str, count: int, lowest: str) -> Action:
    return action_from_json({"bind": {"trump": trump, "count": count, "lowest": lowest}})


def others_pass(hand: Hand, *seats: int) -> None:
    for seat in seats:
        legal = hand.legal_actions(seat)
        hand.apply(seat, CLOSED if CLOSED in legal else PASS)


# A knocked deal, dealer 0: seat 1 may bind three in hearts, seat 2 is closed, seat 3 has no
# Over, seat 0 may bind three in leaves.
KNOCKED = [
    "GO GA G10 EA SU",    # seat 0 (dealer): leaves 3 (GO GA G10), lowest G10
    "EO HA HU E10 GU",    # seat 1: hearts 3 (EO HA HU), lowest HU
    "HO SO SA S10 SK",    # seat 2: bells 5 -> closed (HO SO SA S10 SK)
    "EO",                 # placeholder, replaced below
]
KNOCKED[3] = rest_of_pack(K, *KNOCKED[:3])  # seat 3 gets the rest


# -- the cut or knock, and what is dealt ------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_the_seat_before_the_dealer_cuts_or_knocks_with_no_card_dealt(dealer: int) -> None:
    hand = Hand(make_rules(K), dealer, PACK_20)
    assert hand.phase == DEAL
    assert hand.to_move == (dealer - 1) % 4
    assert hand.legal_actions() == (CUT, KNOCK)
    assert all(h == [] for h in hand.hands)
    assert public_view(hand).hand_sizes == (0, 0, 0, 0)
    with pytest.raises(IllegalAction) as e:
        hand.apply(dealer, CUT)
    assert e.value.reason == "not_your_turn"


@pytest.mark.parametrize("dealer", range(4))
def test_knock_deals_five_each_at_once(dealer: int) -> None:
    hand = Hand(make_rules(K), dealer, PACK_20)
    hand.apply((dealer - 1) % 4, KNOCK)
    for k in range(4):
        assert hand.dealt[(dealer + 1 + k) % 4] == PACK_20[5 * k:5 * k + 5]
    assert hand.phase == BIND
    assert hand.to_move == (dealer + 1) % 4


@pytest.mark.parametrize("dealer", range(4))
def test_cut_deals_three_each_then_two_after_the_window(dealer: int) -> None:
    hand = Hand(make_rules(K), dealer, PACK_20)
    hand.apply((dealer - 1) % 4, CUT)
    assert hand.phase == FRIS
    for k in range(4):
        assert hand.hands[(dealer + 1 + k) % 4] == list(PACK_20[3 * k:3 * k + 3])
    # The cards not dealt are nowhere to be seen.
    view = public_view(hand)
    assert view.hand_sizes == (3, 3, 3, 3)
    for s in range(4):
        assert len(seat_view(hand, s).hand) == 3
    hand.apply(dealer, DEAL_ON)
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        assert hand.dealt[seat] == PACK_20[3 * k:3 * k + 3] + PACK_20[12 + 2 * k:14 + 2 * k]
    assert hand.phase == BIND


def test_fris_window_is_open_to_every_seat_without_telling_who_holds_an_over() -> None:
    hands = ["EA E10 EK GU G10", "EO HA HU GA GK", "GO SA S10 HK SK", "HO SO EU H10 SU"]
    hand = new_hand(hands, dealer=0, mode="cut")
    assert hand.actors() == [1, 2, 3, 0]
    assert hand.legal_actions(0) == (DEAL_ON,)       # the dealer: no Over in EA E10 EK
    assert PASS in hand.legal_actions(1)
    assert Action("fris", Fris(card("EO"), 2)) in hand.legal_actions(1)
    assert len(hand.legal_actions(1)) == 6            # EO naming any of 4 suits, pass, look
    # A seat that passes leaves the window; the public view shows who acts, not who holds.
    hand.apply(2, PASS)
    assert hand.actors() == [1, 3, 0]
    assert public_view(hand).public["fris_passed"] == [2]


def test_looking_at_the_last_two_cards_closes_the_fris_window_for_all() -> None:
    # Seed 003, rule 2: no fris once a player has looked at his other two cards.
    hands = ["EA E10 EK GU G10", "EO HA HU GA GK", "GO SA S10 HK SK", "HO SO EU H10 SU"]
    hand = new_hand(hands, dealer=0, mode="cut")
    look = Action("look", True)
    assert look in hand.legal_actions(2) and look in hand.legal_actions(1)
    assert look not in hand.legal_actions(0)          # the dealer deals on instead
    hand.apply(2, PASS)
    assert hand.legal_actions(2) == (look,)           # it passed, yet it may still look
    hand.apply(3, look)
    # Seat 1 could have made fris with EO; the window is closed for him too.
    assert hand.phase == BIND and hand.actors() == [1]
    assert all(a.kind in ("bind", "pass", "closed") for a in hand.legal_actions(1))
    assert [len(h) for h in hand.hands] == [5, 5, 5, 5]
    assert public_view(hand).public["fris"] is None
    # The record replays, and look is refused outside the window.
    assert replay(to_record(hand)).phase == BIND
    with pytest.raises(IllegalAction):
        hand.apply(1, look)


def test_a_seat_that_declined_to_fris_may_still_look_and_close_the_window() -> None:
    # RULINGS: any seat but the dealer may look while the window is open, also after
    # declining to fris. The seat that passed no longer makes fris, and nobody waits for it.
    hands = ["EA E10 EK GU G10", "EO HA HU GA GK", "GO SA S10 HK SK", "HO SO EU H10 SU"]
    record = to_record(new_hand(hands, dealer=0, mode="cut"))
    record["actions"] += [{"seat": 1, "pass": True}, {"seat": 1, "look": True}]
    hand = replay(record)
    assert hand.phase == BIND and [len(h) for h in hand.hands] == [5, 5, 5, 5]
    assert public_view(hand).public["fris"] is None
    # Before looking: it may only look (not fris with its EO, not pass again), and the
    # window waits only for the others.
    hand = replay({**record, "actions": record["actions"][:-1]})
    assert hand.legal_actions(1) == (Action("look", True),)
    assert hand.actors() == [2, 3, 0]
    for refused in (Action("fris", Fris(card("EO"), 2)), PASS):
        with pytest.raises(IllegalAction) as e:
            hand.apply(1, refused)
        assert e.value.reason == "not_your_turn" and "only look" in str(e.value)
    # The dealer still cannot look: he deals on.
    with pytest.raises(IllegalAction):
        hand.apply(0, Action("look", True))


@pytest.mark.parametrize("flag", ["pass", "look", "deal_on", "closed", "face_up"])
def test_a_false_flag_is_refused_with_the_flag_wording(flag: str) -> None:
    """``{"pass": false}`` is no action: refused as every game refuses a false flag
    (docs/record-format.md), not as an action of the wrong phase."""
    hands = ["EA E10 EK GU G10", "EO HA HU GA GK", "GO SA S10 HK SK", "HO SO EU H10 SU"]
    for mode in ("cut", "knock"):
        hand = new_hand(hands, dealer=0, mode=mode)
        for seat in range(4):
            with pytest.raises(IllegalAction) as e:
                hand.apply(seat, Action(flag, False))
            if seat in hand.actors():
                assert e.value.reason == "flag_false", (mode, seat, str(e.value))
                assert str(e.value) == f"{flag} is written true: {flag} false is no action"
    # The seat that passed the window too.
    hand = new_hand(hands, dealer=0, mode="cut")
    hand.apply(2, PASS)
    with pytest.raises(IllegalAction) as e:
        hand.apply(2, Action("look", False))
    assert e.value.reason == "flag_false"


def test_over_suit_option_names_the_over_suit() -> None:
    hands = ["EA E10 EK GU G10", "EO HA HU GA GK", "GO SA S10 HK SK", "HO SO EU H10 SU"]
    hand = new_hand(hands, dealer=0, mode="cut", fris_trump="over_suit")
    fris = [a for a in hand.legal_actions(3) if a.kind == "fris"]
    assert fris == [Action("fris", Fris(card("HO"), 2)), Action("fris", Fris(card("SO"), 3))]
    with pytest.raises(IllegalAction) as e:
        hand.apply(3, Action("fris", Fris(card("HO"), 0)))
    assert e.value.reason == "fris_without_over"


# -- the fris trick ----------------------------------------------------------------------------

# Dealer 0, cut. First three cards: seat 1 EO HA HU; seat 2 GA GK SA (no... see below).
FRIS_HANDS = [
    "E10 EA GO SU S10",    # seat 0: first three E10 EA GO (no U/K), last two SU S10
    "EO HA HU GU EK",      # seat 1: makes fris with EO
    "GK SA HK H10 G10",    # seat 2: first three GK SA HK
    "SO HO EU GA SK",      # seat 3: first three SO HO EU
]


def test_fris_trick_duties_and_face_up() -> None:
    hand = new_hand(FRIS_HANDS, dealer=0, mode="cut")
    hand.apply(1, Action("fris", Fris(card("EO"), 2)))   # hearts trump
    assert hand.phase == FRIS_TRICK
    assert hand.trump == 2
    assert hand.to_move == 1
    assert [code(a.value) for a in hand.legal_actions()] == ["EO"]   # the fris Over leads
    with pytest.raises(IllegalAction) as e:
        hand.apply(1, Action("card", card("HA")))
    assert e.value.reason == "must_lead_fris_over"
    act(hand, "EO")
    # Seat 2 must play an Under or King (any suit), never its Ace.
    assert sorted(code(a.value) for a in hand.legal_actions()) == ["GK", "HK"]
    with pytest.raises(IllegalAction) as e:
        hand.apply(2, Action("card", card("SA")))
    assert e.value.reason == "fris_small_card"
    act(hand, "GK")
    # Seat 3: EU; its Overs may not go on the fris.
    assert [code(a.value) for a in hand.legal_actions()] == ["EU"]
    with pytest.raises(IllegalAction) as e:
        hand.apply(3, Action("card", card("SO")))
    assert e.value.reason == "no_over_on_fris"
    act(hand, "EU")
    # Seat 0 holds E10 EA GO: no Under or King, so asks for the last two face up.
    assert hand.legal_actions() == (FACE_UP,)
    with pytest.raises(IllegalAction) as e:
        hand.apply(0, Action("card", card("EA")))
    assert e.value.reason == "must_turn_face_up"
    assert public_view(hand).hand_sizes == (3, 2, 2, 2)
    hand.apply(0, FACE_UP)
    assert held(hand, 0) == ["E10", "EA", "GO", "S10", "SU"]
    assert public_view(hand).public["face_up"] == [{"seat": 0, "cards": ["SU", "S10"]}]
    assert public_view(hand).hand_sizes == (5, 2, 2, 2)
    # SU, turned up, is an Under: he must play it (seed rules 3, 4, 6), never his Ace.
    assert [code(a.value) for a in hand.legal_actions()] == ["SU"]
    with pytest.raises(IllegalAction) as e:
        hand.apply(0, Action("card", card("EA")))
    assert e.value.reason == "fris_small_card"
    act(hand, "SU")
    # The fris Over wins; the rest is dealt; the fris maker leads the next trick.
    assert hand.tricks[0].winner == 1
    assert hand.team_points() == [0, 0]
    assert hand.phase == "play"
    assert hand.to_move == 1
    assert held(hand, 1) == ["EK", "GU", "HA", "HU"]
    assert held(hand, 2) == ["G10", "H10", "HK", "SA"]
    assert held(hand, 0) == ["E10", "EA", "GO", "S10"]


def test_fris_face_up_only_without_small_cards() -> None:
    hand = new_hand(FRIS_HANDS, dealer=0, mode="cut")
    hand.apply(1, Action("fris", Fris(card("EO"), 2)))
    act(hand, "EO")
    with pytest.raises(IllegalAction) as e:
        hand.apply(2, FACE_UP)
    assert e.value.reason == "face_up_has_small"


def test_deal_on_closes_the_window_and_fris_is_no_longer_possible() -> None:
    hand = new_hand(FRIS_HANDS, dealer=0, mode="cut")
    hand.apply(0, DEAL_ON)
    assert hand.phase == BIND
    with pytest.raises(IllegalAction):
        hand.apply(1, Action("fris", Fris(card("EO"), 2)))


def test_the_first_fris_wins() -> None:
    hand = new_hand(FRIS_HANDS, dealer=0, mode="cut")
    hand.apply(3, Action("fris", Fris(card("SO"), 1)))
    with pytest.raises(IllegalAction):
        hand.apply(1, Action("fris", Fris(card("EO"), 2)))
    assert public_view(hand).public["fris"] == {"seat": 3, "over": "SO", "trump": "G"}


# -- binding -----------------------------------------------------------------------------------


def test_bindings_a_hand_allows() -> None:
    # Three hearts trumps with an Over: "three, the Under".
    assert bindings(cards_of("EO HA HU E10 GK")) == [Bind(2, 3, card("HU"))]
    # Two suits bindable: the strongest is three with the higher lowest trump (EK over HU).
    assert strongest(cards_of("EO HA HU E10 EK")) == [Bind(0, 3, card("EK"))]
    # No Over: no binding.
    assert bindings(cards_of("HA H10 HK HU EA")) == []
    # Four trumps with an Ace beside: not allowed; three in another suit still is.
    assert bindings(cards_of("EO GO HA HU SA")) == [Bind(3, 3, card("SA"))]
    # Four with a plain King beside is fine; it is the strongest.
    assert strongest(cards_of("EO GO HA HU SK")) == [Bind(2, 4, card("HU"))]
    # Three Overs alone are three trumps for any suit without a card of it.
    assert Bind(1, 3, card("HO")) in bindings(cards_of("EO GO HO EA EK"))
    # Equal strength in two suits: either may be said.
    assert strongest(cards_of("EO GO HO GU HU")) == [Bind(1, 4, card("GU")),
                                                    Bind(2, 4, card("HU"))]


def test_binding_legal_actions_show_only_the_strongest() -> None:
    hand = new_hand(KNOCKED, dealer=0)
    assert hand.to_move == 1
    assert hand.legal_actions() == (bind("H", 3, "HU"), PASS)
    with pytest.raises(IllegalAction) as e:
        hand.apply(1, bind("E", 3, "EK"))
    assert e.value.reason == "bind_not_strongest"
    hand.apply(1, bind("H", 3, "HU"))
    # Seat 2 holds five bells trumps: închis.
    assert hand.legal_actions() == (CLOSED,)
    with pytest.raises(IllegalAction) as e:
        hand.apply(2, PASS)
    hand.apply(2, CLOSED)
    hand.apply(3, PASS)
    assert hand.legal_actions() == (bind("G", 3, "G10"), PASS)
    hand.apply(0, bind("G", 3, "G10"))
    # Equal counts: the higher lowest trump (G10 over HU) names trump.
    assert hand.phase == "play"
    assert hand.trump == 1
    assert hand.to_move == 1        # the seat after the dealer leads
    info = public_view(hand).public
    assert info["binding"] == {"seat": 0, "trump": "G", "count": 3, "lowest": "G10"}
    assert [e.get("closed") for e in info["bindings"]] == [None, True, None, None]


def test_equal_bindings_go_to_the_earlier_in_turn() -> None:
    hands = ["GO GU G10 EA SU", "EO HU H10 GA SK", "HO SO SA S10 EK", ""]
    hands[3] = rest_of_pack(K, *hands[:3])
    hand = new_hand(hands, dealer=0)
    hand.apply(1, bind("H", 3, "HU"))
    others_pass(hand, 2, 3)
    hand.apply(0, bind("G", 3, "GU"))
    assert hand.trump == 2
    assert public_view(hand).public["binding"]["seat"] == 1


def test_more_trumps_win_the_binding() -> None:
    hands = ["GO GU G10 GK SU", "EO HU H10 GA SK", "HO SO SA S10 EK", ""]
    hands[3] = rest_of_pack(K, *hands[:3])
    hand = new_hand(hands, dealer=0)
    hand.apply(1, bind("H", 3, "HU"))
    others_pass(hand, 2, 3)
    hand.apply(0, bind("G", 4, "GU"))
    assert hand.trump == 1


def test_nobody_binds_redeal_same_dealer() -> None:
    status = Status(masters=1, servant=2, score=(3, 5))
    hand = new_hand(KNOCKED, dealer=2, status=status)
    while not hand.finished:
        seat = hand.to_move
        assert seat is not None
        legal = hand.legal_actions()
        hand.apply(seat, CLOSED if CLOSED in legal else PASS)
    r = hand.result
    assert r is not None
    assert (r.event, r.status, r.next_dealer, r.points) == ("redeal", status, 2, (0, 0))


# -- play --------------------------------------------------------------------------------------

# Dealer 0, knocked. Seat 1 binds three (EO HK HU: hearts, lowest HU), nobody else binds; seat
# 1 leads and wins trick 1 with EO, then must lead a plain card.
BINDER = [
    "EA E10 EK GK SU",
    "EO HK HU GA SK",
    "G10 GU S10 SA HA",
    "GO HO SO H10 ",
]
BINDER[3] = rest_of_pack(K, *BINDER[:3])


def _bound_three() -> Hand:
    hand = new_hand(BINDER, dealer=0)
    assert hand.legal_actions() == (bind("H", 3, "HU"), PASS)
    hand.apply(1, bind("H", 3, "HU"))
    for seat in (2, 3, 0):
        legal = hand.legal_actions()
        hand.apply(seat, PASS if PASS in legal else legal[0])
    return hand


def test_binder_of_three_who_won_the_first_trick_leads_plain() -> None:
    hand = _bound_three()
    assert hand.trump == 2 and hand.to_move == 1
    act(hand, "EO HA")          # seat 2 must trump... HA is its only trump
    hand.apply(3, Action("card", card("SO")))
    hand.apply(0, Action("card", card("SU")))
    # EO (acorn Over, the baul) beats everything.
    assert hand.tricks[0].winner == 1
    assert sorted(code(a.value) for a in hand.legal_actions()) == ["GA", "SK"]
    with pytest.raises(IllegalAction) as e:
        hand.apply(1, Action("card", card("HK")))
    assert e.value.reason == "must_lead_plain"


def test_trump_order_overs_then_a_10_k_u() -> None:
    from engine.trumps import trump_order

    order = trump_order(make_rules(K).top_trumps, 2)
    assert order.trumps_high_to_low(PACK_20) == [
        "EO", "GO", "HO", "SO", "HA", "H10", "HK", "HU"]


# -- ladder, score, match, dealer ------------------------------------------------------------


def settle(status: Status, points: tuple[int, int], dealer: int = 0) -> Hand:
    hand = Hand(make_rules(K), dealer, PACK_20, status)
    hand.team_taken = list(points)
    hand.hands = [[], [], [], []]
    hand.rules.settle(hand)
    return hand


@pytest.mark.parametrize(
    ("status", "points", "dealer", "event", "after", "next_dealer"),
    [
        # even, 6-2: team 0 boss, scores 1; dealer 0 is boss, next seat (a servant) deals.
        (Status(score=(0, 0)), (6, 2), 0, "masters", Status(0, 1, score=(1, 0)), 1),
        # even, 5-3: no change; the next seat deals.
        (EVEN, (5, 3), 3, "no_change", Status(score=(0, 0)), 0),
        # boss 0 takes 7 again: stays boss, scores; servant 1 dealt, servant 3 deals next.
        (Status(0, 1, score=(4, 2)), (7, 1), 1, "stay_masters", Status(0, 3, score=(5, 2)), 3),
        # boss 0, servants take 6: both even, no point; the next seat deals.
        (Status(0, 1, score=(4, 2)), (2, 6), 1, "liberated", Status(score=(4, 2)), 2),
        # boss 0, 4-4: boss stays boss and scores anyway.
        (Status(0, 3, score=(4, 2)), (4, 4), 3, "no_change", Status(0, 1, score=(5, 2)), 1),
        # even, servant-to-be deals: team 1 boss, dealer 0 is a servant, partner 2 deals next.
        (EVEN, (1, 7), 0, "masters", Status(1, 2, score=(0, 1)), 2),
    ],
)
def test_ladder_score_and_dealer(status: Status, points: tuple[int, int], dealer: int,
                                 event: str, after: Status, next_dealer: int) -> None:
    r = settle(status, points, dealer).result
    assert r is not None
    assert (r.event, r.status, r.next_dealer) == (event, after, next_dealer)
    assert "match_winner" not in r.extra


def test_eleven_wins_the_match_and_a_new_one_starts() -> None:
    r = settle(Status(1, 2, score=(6, 10)), (3, 5), dealer=2).result
    assert r is not None
    assert r.extra["match_winner"] == [1]
    assert r.extra["score"] == (6, 11)
    assert r.status == Status(score=(0, 0))
    assert r.next_dealer == 3


def test_status_checks() -> None:
    rules = make_rules(K)
    for bad in (Status(servant=1), Status(masters=0, servant=2), Status(score=(11, 0)),
                Status(teams=(0, 1, 0, 1))):
        with pytest.raises(RecordError):
            rules.check_status(bad)
    # A team turns boss at the end of a hand and scores its point at once: a boss without a
    # game point cannot occur.
    for bad in (Status(0, 1), Status(0, 1, score=(0, 5)), Status(1, 0, score=(7, 0))):
        with pytest.raises(RecordError, match="boss team"):
            rules.check_status(bad)
    rules.check_status(Status(0, 1, score=(1, 0)))
    rules.check_status(Status(1, 2, score=(10, 1)))
    assert rules.first_dealer(Status(0, 3), random.Random(1)) == 3


# -- records, views, secrecy -------------------------------------------------------------------


def test_action_notation_round_trips() -> None:
    for obj in ({"deal": "cut"}, {"deal": "knock"}, {"fris": "GO"},
                {"fris": {"over": "GO", "trump": "H"}}, {"deal_on": True},
                {"bind": {"trump": "H", "count": 3, "lowest": "HU"}}, {"closed": True},
                {"face_up": True}, {"pass": True}):
        assert action_to_json(action_from_json(obj)) == obj


def test_views_hide_cards_not_dealt_and_other_hands() -> None:
    rng = random.Random(5)
    for seed in range(60):
        hand = Match(make_rules(K), seed=seed).deal()
        while not hand.finished:
            view = public_view(hand)
            assert view.hand_sizes == tuple(len(h) for h in hand.hands)
            visible = {c for t in view.tricks for c in t.cards} | set(view.trick)
            visible |= set(view.shown)
            visible |= {b.lowest for _, b in hand.pending.get("binds", ()) if isinstance(b, Bind)}
            text = repr(view.public)
            for s in range(4):
                sv = seat_view(hand, s)
                assert set(sv.hand) == set(hand.hands[s])
                for other in range(4):
                    for c in hand.hands[other]:
                        if other != s and c not in visible:
                            assert c not in sv.hand
                            assert f"'{code(c)}'" not in repr(sv.public)
            for h in hand.hands:
                for c in h:
                    if c not in visible:
                        assert f"'{code(c)}'" not in text
            seat = rng.choice(hand.actors())
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), dealer=st.integers(0, 3))
def test_random_play_finishes_sums_and_replays(seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    hand = Match(make_rules(K, {"early_end": rng.random() < 0.5}), seed=seed,
                 dealer=dealer).deal()
    for _ in range(80):
        if hand.finished:
            break
        seat = rng.choice(hand.actors())
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    assert hand.finished
    r = hand.result
    assert r is not None
    if r.event != "redeal":
        assert sum(r.points) == 8 or r.early
    again = replay(to_record(hand))
    assert again.result == r
    assert report(again) == report(hand)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_computer_players_play_whole_hands(level: str) -> None:
    players = [make_player(level, seed=s, timed=False) for s in range(4)]
    if level != "easy":
        for p in players:
            p.samples = 6  # type: ignore[attr-defined]
    m = Match(make_rules(K), seed=11)
    phases: set[str] = set()
    for _ in range(12 if level == "easy" else 5):
        hand = m.deal()
        while not hand.finished:
            seat = hand.to_move if hand.to_move is not None else hand.actors()[0]
            view = seat_view(hand, seat)
            phases.add(view.phase)
            a = players[seat].choose(view)
            assert a in view.legal
            hand.apply(seat, a)
        m.record_result(hand)
    assert {DEAL, "play"} <= phases


def test_computers_make_fris_with_a_good_over_and_play_the_fris_trick() -> None:
    hand = new_hand(FRIS_HANDS, dealer=0, mode="cut")
    easy = make_player("easy")
    # Seat 1 holds EO HA HU: fris, naming hearts.
    a = easy.choose(seat_view(hand, 1))
    assert a == Action("fris", Fris(card("EO"), 2))
    # Seat 2 holds GK SA HK, no Over: passes; the dealer (E10 EA GO) would name acorns.
    assert easy.choose(seat_view(hand, 2)) == PASS
    assert easy.choose(seat_view(hand, 0)) == Action("fris", Fris(card("GO"), 0))
    hand.apply(1, a)
    for level in ("easy", "normal"):
        h = hand.copy()
        p = make_player(level, timed=False)
        while h.phase == FRIS_TRICK:
            seat = h.to_move
            assert seat is not None
            h.apply(seat, p.choose(seat_view(h, seat)))
        assert h.tricks[0].winner == 1


def test_computers_bind_their_strongest_when_it_wins() -> None:
    hand = new_hand(KNOCKED, dealer=0)
    easy = make_player("easy")
    assert easy.choose(seat_view(hand, 1)) == bind("H", 3, "HU")
    hand.apply(1, bind("H", 3, "HU"))
    assert easy.choose(seat_view(hand, 2)) == CLOSED
    hand.apply(2, CLOSED)
    hand.apply(3, PASS)
    # Seat 0's G10 binding beats seat 1's HU.
    assert make_player("normal").choose(seat_view(hand, 0)) == bind("G", 3, "G10")


def test_search_rebuilds_the_hand_a_seat_sees() -> None:
    """``determinize`` gives a hand whose view is the seat's view, whatever the guess (cards
    not dealt yet, face-up cards, the fris Over where it was shown)."""
    from engine.determinize import hand_from_view
    from engine.inference import infer, sample

    checked = 0
    for seed in range(150):
        rng = random.Random(seed)
        hand = Match(make_rules(K), seed=seed).deal()
        for _ in range(rng.randrange(30)):
            if hand.finished:
                break
            seat = rng.choice(hand.actors())
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
        if hand.finished or hand.phase in (DEAL, FRIS, BIND):
            continue
        seat = hand.actors()[0]
        view = seat_view(hand, seat)
        other = hand_from_view(view, sample(infer(view), random.Random(seed)))
        assert seat_view(other, seat) == view
        checked += 1
    assert checked > 50
