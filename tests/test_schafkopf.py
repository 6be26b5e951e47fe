"""Bavarian Schafkopf (RULINGS.md, "Bavarian Schafkopf", B1-B15; game id ``schafkopf``): the
deal, the announcement and clarification, the calls, every duty of the called Ace, the hidden
partner, Kontra and Re, Tout, Bettel and claims, the scoring, each option, the running
balance, and the computer players."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from deal import deal as shared_deal
from deal import legal_cards as legal
from deal import pack_for

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
from engine.cards import PACK_24, card, code, codes
from engine.determinize import hand_from_view
from engine.inference import infer, sample
from engine.rules.bavarian.games import (
    BETTEL,
    GEIER,
    SAUSPIEL,
    WENZ,
    Contract,
    laufende,
    order_of,
    trumps_of,
)
from engine.rules.bavarian.options import TARIFFS
from engine.rules.bavarian.scoring import game_value, ramsch_scores

K = "schafkopf"
GOLDEN = Path(__file__).parent / "golden"

#: Dealer 3, seat 0 is forehand. Seat 1 holds GA and three more Gras cards (he may run away
#: with four); seat 0 holds EA and the Gras Seven, so he may call Gras or Schellen, not Eichel.
BASE = ["EO GO HU H9 EA E7 G7 S7", "HO SO GA G10 G9 GK E10 H8",
        "EU GU SU HA H10 EK E9 SA", "HK H7 S10 G8 E8 SK S9 S8"]
#: The same, but seat 1 holds only three Gras cards (GK is seat 3's): he cannot run away.
THREE = ["EO GO HU H9 EA E7 G7 S7", "HO SO GA G10 G9 S10 E10 H8",
         "EU GU SU HA H10 EK E9 SA", "HK H7 GK G8 E8 SK S9 S8"]

W = Action("weiter", True)
DAD = Action("dad", True)


def deal(hands: list[str] | None = None, dealer: int = 3, status: Status | None = None,
         **options: Any) -> Hand:
    return shared_deal(K, hands or BASE, dealer, status, **options)


def game(name: str) -> Action:
    return Action("game", name)


def stoss(level: int) -> Action:
    return Action("stoss", level)


def play(hand: Hand, *cards_: str) -> None:
    """Each card by the seat to move."""
    for c in " ".join(cards_).replace("|", " ").split():
        seat = hand.to_move
        assert seat is not None
        hand.apply(seat, Action("card", card(c)))


def declared(name: str, hands: list[str] | None = None, declarer: int = 0,
             **options: Any) -> Hand:
    """``declarer`` alone says "I dad" and declares ``name``; the window passes quietly."""
    hand = deal(hands, **options)
    for seat in range(4):
        hand.apply(seat, DAD if seat == declarer else W)
    hand.apply(declarer, game(name))
    while hand.phase in ("kontra", "re"):
        hand.apply(hand.actors()[0], W)
    return hand


def cs(text: str) -> list[int]:
    """Cards from their codes."""
    return [card(c) for c in text.split()]


def refused(hand: Hand, seat: int, action: Action) -> str:
    return refusal(hand, seat, action).reason


def refusal(hand: Hand, seat: int, action: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        hand.apply(seat, action)
    return e.value


# -- B1, B3: cards and the deal ---------------------------------------------------------------


def test_the_deal_is_two_rounds_of_four_from_forehand() -> None:
    # B3.2, written out: pack index i goes to seat (f + (i mod 16) div 4) mod 4.
    dealer = 2
    forehand = (dealer + 1) % 4
    order = [(forehand + (i % 16) // 4) % 4 for i in range(32)]
    pack = pack_for(K, BASE, dealer, order=order)
    hand = Hand(make_rules(K), dealer, [card(c) for c in pack])
    assert [codes(h) for h in hand.dealt] == [h.split() for h in BASE]
    assert hand.to_move == forehand and hand.phase == "announce"


def test_short_pack_has_24_cards_dealt_three_and_three() -> None:
    rules = make_rules(K, {"short_pack": True})
    assert sorted(rules.pack) == sorted(PACK_24) and rules.packets == (3, 3)
    assert sum(rules.points[c] for c in rules.pack) == 120  # B1.2: the 8s and 7s are worth 0
    order = [(1 + (i % 12) // 3) % 4 for i in range(24)]
    assert list(rules.holders(0)) == order


# -- B4: announcement, clarification, declaration ---------------------------------------------


def test_each_says_weiter_or_i_dad_once_from_forehand() -> None:
    hand = deal()
    for seat in range(4):
        assert hand.to_move == seat and hand.phase == "announce"
        assert hand.legal_actions() == (W, DAD)
        hand.apply(seat, W)
    # B5.1: all passed: thrown in, nobody pays, the next seat deals.
    result = hand.result
    assert result is not None and result.event == "thrown_in"
    assert result.extra["scores"] == [0, 0, 0, 0] and result.next_dealer == 0
    assert result.status == Status(score=(0, 0, 0, 0))


def test_a_lone_i_dad_may_declare_any_game_he_may_play() -> None:
    hand = deal()
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    assert hand.phase == "game" and hand.to_move == 0
    # B6.1: Gras and Schellen may be called; not Eichel (he holds EA), never Herz.
    assert [a.value for a in hand.legal_actions()] == [
        "sauspiel_G", "sauspiel_S", "wenz", "solo_E", "solo_G", "solo_H", "solo_S",
        "wenz_tout", "solo_tout_E", "solo_tout_G", "solo_tout_H", "solo_tout_S"]


def test_only_callable_aces_are_offered_and_a_held_ace_is_refused() -> None:
    hand = deal()
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    assert refused(hand, 0, game("sauspiel_E")) == "call_held"
    # Seat 2 holds no plain Gras card: with his cards Gras could not be called.
    rules = make_rules(K)
    games = {c.name for c in rules.contracts([card(c) for c in BASE[2].split()])}
    assert "sauspiel_G" not in games and "sauspiel_S" not in games  # he holds SA
    assert "sauspiel_E" in games


def test_a_call_of_a_suit_held_only_as_trumps_is_refused() -> None:
    # Seat 0 holds the Gras Ober and Unter but no other Gras card: they are trumps (B2.5).
    hands = ["EO GO GU H9 EA E7 S8 S7", "HO SO GA G10 G9 GK E10 H8",
             "EU HU SU HA H10 EK E9 SA", "HK H7 S10 G8 G7 SK S9 E8"]
    hand = deal(hands)
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    assert "sauspiel_G" not in {a.value for a in hand.legal_actions()}
    assert refused(hand, 0, game("sauspiel_G")) == "call_no_suit"


def test_clarification_the_higher_class_wins_and_the_earlier_seat_may_hold() -> None:
    hand = deal()
    for seat, a in enumerate((DAD, W, DAD, W)):
        hand.apply(seat, a)
    assert hand.phase == "clarify" and hand.to_move == 0
    # B4.7: seat 0 may name a Sauspiel (he has a callable Ace), Wenz, Solo and their Touts.
    assert [(a.kind, a.value) for a in hand.legal_actions()] == [
        ("class", "rufspiel"), ("class", "wenz"), ("class", "solo"), ("class", "wenz_tout"),
        ("class", "solo_tout"), ("weiter", True)]
    hand.apply(0, Action("class", "rufspiel"))
    assert hand.to_move == 2
    # Seat 2 must go strictly higher than the Sauspiel standing.
    assert refused(hand, 2, Action("class", "rufspiel")) == "bid_too_low"
    hand.apply(2, Action("class", "wenz"))
    # Seat 0 keeps his seat's priority with a class at least as high ("I aa").
    assert hand.to_move == 0
    assert "wenz" in {a.value for a in hand.legal_actions()}
    hand.apply(0, Action("class", "wenz"))
    assert hand.to_move == 2
    assert refused(hand, 2, Action("class", "wenz")) == "bid_too_low"
    hand.apply(2, Action("class", "solo"))
    hand.apply(0, W)  # seat 0 yields
    assert hand.phase == "game" and hand.to_move == 2
    # B4.6: the winner declares exactly the class he named, choosing the suit now.
    assert [a.value for a in hand.legal_actions()] == ["solo_E", "solo_G", "solo_H", "solo_S"]
    assert refused(hand, 2, game("wenz")) == "game_not_named"


def test_clarification_everyone_withdrawing_is_all_pass() -> None:
    hand = deal()
    for seat, a in enumerate((W, DAD, W, DAD)):
        hand.apply(seat, a)
    hand.apply(1, W)
    hand.apply(3, W)
    assert hand.result is not None and hand.result.event == "thrown_in"


def test_sie_needs_every_ober_and_unter_and_is_won_at_once() -> None:
    hands = ["EO GO HO SO EU GU HU SU", "HA H10 HK H9 EA E10 EK E9",
             "H8 H7 GA G10 GK G9 E8 E7", "SA S10 SK S9 S8 S7 G8 G7"]
    hand = deal(hands)
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    assert "sie" in {a.value for a in hand.legal_actions()}
    hand.apply(0, game("sie"))
    # B9.6, B11.3: V = 4 x (50 + 10 x 8) = 520; no window (B10.4).
    result = hand.result
    assert result is not None and result.extra["scores"] == [1560, -520, -520, -520]
    other = deal()
    for seat in range(4):
        other.apply(seat, DAD if seat == 0 else W)
    assert refused(other, 0, game("sie")) == "sie_cards"


# -- B6.3: every duty of the called Ace -------------------------------------------------------


def test_searched_the_ace_must_be_played_when_its_suit_is_led() -> None:
    hand = declared("sauspiel_G")
    play(hand, "G7")
    # (a) even though seat 1 holds G10 G9 GK too.
    assert legal(hand) == ["GA"]
    assert refused(hand, 1, Action("card", card("G10"))) == "called_ace_searched"
    play(hand, "GA")
    assert public_view(hand).team == (0, 0, 1, 1)  # B6.2: now everyone knows


def test_the_called_ace_may_not_be_discarded() -> None:
    hand = declared("sauspiel_G")
    play(hand, "S7")
    # (b) seat 1 has no Schellen: anything but the Ace.
    assert legal(hand) == ["E10", "G10", "G9", "GK", "H8", "HO", "SO"]
    assert refused(hand, 1, Action("card", card("GA"))) == "called_ace_kept"


def test_the_called_ace_may_be_discarded_as_the_last_card() -> None:
    record = _record("last_card")
    hand = replay(record)
    play(hand, "G10 S9")
    # (b) seat 1 holds only GA; a trump is led and its suit was never led.
    assert hand.to_move == 1 and legal(hand) == ["GA"]
    play(hand, "GA")
    assert hand.finished


def test_the_called_suit_may_be_led_only_with_the_ace() -> None:
    hand = declared("sauspiel_G", THREE)
    play(hand, "E7 E10 E9 E8")  # seat 1 wins with E10 and leads
    assert hand.to_move == 1
    # (c) with three Gras cards he may not lead G10 or G9, only the Ace.
    assert "G10" not in legal(hand) and "G9" not in legal(hand) and "GA" in legal(hand)
    assert refused(hand, 1, Action("card", card("G9"))) == "called_suit_lead"


def test_running_away_with_four_then_the_ace_is_an_ordinary_card() -> None:
    hand = declared("sauspiel_G")
    play(hand, "E7 E10 E9 E8")
    # (c) four Gras cards at that moment: he may run away with any of them.
    assert {"G10", "G9", "GK", "GA"} <= set(legal(hand))
    play(hand, "G9 GU G8 G7")
    # (d) the suit has been led: no more duties. Seat 2 (GU won) leads trumps; later, on a
    # Schellen lead, seat 1 may throw the Ace.
    assert not hand.pending["duty"]
    play(hand, "SA S10 S7")
    assert "GA" in legal(hand)
    play(hand, "GA")
    assert public_view(hand).team == (0, 0, 1, 1)


def test_running_away_needs_three_in_the_short_pack() -> None:
    # 24 cards, dealer 3: seat 1 holds GA G10 GK, three of Gras, and wins the first trick.
    hands = ["EO GO HU H9 E9 G9", "HO SO GA G10 GK EA", "EU GU SU HA H10 EK",
             "HK S10 SA SK S9 E10"]
    hand = declared("sauspiel_G", hands, short_pack=True)
    play(hand, "E9 EA EK E10")
    assert hand.to_move == 1
    # B12.1: with three of the suit he may run away in the short pack.
    assert {"G10", "GK", "GA"} <= set(legal(hand))
    long = declared("sauspiel_G", THREE)
    play(long, "E7 E10 E9 E8")
    assert long.to_move == 1 and "G10" not in legal(long)  # three are not enough with 32


def test_the_caller_has_no_duty_beyond_following() -> None:
    # B6.4: the caller may lead his only Gras card to search the Ace, or keep it.
    hand = declared("sauspiel_G")
    assert legal(hand) == sorted(BASE[0].split())


# -- B6.2: the hidden partner ----------------------------------------------------------------


def test_nobody_learns_the_partner_before_the_ace_is_played() -> None:
    # The same deal with GA and G8 swapped between seats 1 and 3: seat 3 is the partner
    # there. Every public view, and the opponents' own views, must be the same in both.
    swapped = [BASE[0], BASE[1].replace("GA", "G8"), BASE[2], BASE[3].replace("G8", "GA")]
    a, b = deal(BASE), deal(swapped)
    script = [(0, DAD), (1, W), (2, W), (3, W), (0, game("sauspiel_G")),
              (1, W), (2, W), (3, W), (0, "S7"), (1, "G9"), (2, "SA"), (3, "S10"),
              (2, "EK"), (3, "E8"), (0, "EA"), (1, "E10")]
    for seat, step in script:
        for hand in (a, b):
            hand.apply(seat, Action("card", card(step)) if isinstance(step, str) else step)
        va, vb = public_view(a), public_view(b)
        assert va == vb
        assert "partner" not in va.public and va.team_points == ()
        assert seat_view(a, 2) == seat_view(b, 2)
        if step == game("sauspiel_G"):
            # Every non-declarer is asked for Kontra; the partner may only decline.
            assert a.actors() == b.actors() == [1, 2, 3]
            assert a.legal_actions(1) == b.legal_actions(3) == (W,)
    assert public_view(a).team == (0, None, None, None)
    # Each seat knows its own party (and only its own).
    assert seat_view(a, 1).private["team"] == 0 and seat_view(b, 1).private["team"] == 1
    assert seat_view(a, 3).private["team"] == 1 and seat_view(b, 3).private["team"] == 0


def test_the_partner_shows_himself_by_re() -> None:
    hand = deal()
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    hand.apply(0, game("sauspiel_G"))
    assert hand.phase == "kontra" and hand.actors() == [1, 2, 3]
    # B10.1: the hidden partner may not Kontra; the opponents may.
    assert hand.legal_actions(1) == (W,)
    assert hand.legal_actions(2) == (stoss(1), W)
    assert refused(hand, 1, stoss(1)) == "stoss_party"
    hand.apply(2, stoss(1))
    assert public_view(hand).team == (0, None, 1, None)  # only the opponents Kontra
    # Re: the declarer and anyone who may be the partner; the other opponent only declines.
    assert hand.phase == "re" and hand.actors() == [0, 1, 3]
    assert hand.legal_actions(3) == (W,)
    hand.apply(1, stoss(2))
    view = public_view(hand)
    assert view.team == (0, 0, 1, 1) and view.public["partner"] == 1
    assert hand.phase == "play" and view.public["doubles"] == [
        {"seat": 2, "stoss": "kontra"}, {"seat": 1, "stoss": "re"}]


# -- B10: Kontra and Re ----------------------------------------------------------------------


def test_doubling_window_closes_with_the_first_card() -> None:
    hand = declared("solo_H")
    play(hand, "EO")
    assert refused(hand, 1, stoss(1)) == "stoss_late"


def test_second_card_window_asks_after_forehands_card() -> None:
    hand = deal(stoss_window="second_card")
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    hand.apply(0, game("solo_H"))
    assert hand.phase == "lead" and hand.actors() == [0]
    play(hand, "EA")
    assert hand.phase == "kontra" and hand.actors() == [1, 2, 3]
    hand.apply(3, stoss(1))
    assert hand.phase == "re" and hand.actors() == [0]
    hand.apply(0, W)
    assert hand.phase == "play" and hand.to_move == 1 and hand.trick == [card("EA")]
    play(hand, "E10")
    assert refused(hand, 2, stoss(1)) == "stoss_late"


def test_second_card_window_runs_from_the_declaration() -> None:
    """B10.3, B10.5: with ``second_card`` the window opens at the declaration, so Kontra and
    Re may be given before forehand's first card, out of turn (issue 44: refused as
    ``stoss_early``, "doubling starts once a game is declared")."""
    hand = deal(stoss_window="second_card")
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    hand.apply(0, game("solo_H"))
    assert hand.phase == "lead"
    assert [hand.free_actions(s) for s in range(4)] == [(), (stoss(1),), (stoss(1),),
                                                        (stoss(1),)]
    assert refused(hand, 0, stoss(1)) == "stoss_party"
    hand.apply(2, stoss(1))
    assert refused(hand, 1, stoss(1)) == "stoss_level"
    assert [hand.free_actions(s) for s in range(4)] == [(stoss(2),), (), (), ()]
    hand.apply(0, stoss(2))
    assert public_view(hand).public["doubles"] == [
        {"seat": 2, "stoss": "kontra"}, {"seat": 0, "stoss": "re"}]
    e = refusal(hand, 3, stoss(3))
    assert e.reason == "stoss_late" and e.params["closed"] == "max"
    assert "allows two doublings, and both were given" in str(e)
    # Both doublings are given: nobody is asked after the card, play goes on.
    play(hand, "EA")
    assert hand.phase == "play" and hand.to_move == 1


def test_a_kontra_before_the_card_leaves_re_to_ask_after_it() -> None:
    hand = deal(stoss_window="second_card")
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    hand.apply(0, game("sauspiel_G"))  # seat 1 holds GA: the hidden partner
    assert [hand.free_actions(s) for s in range(4)] == [(), (), (stoss(1),), (stoss(1),)]
    assert refused(hand, 1, stoss(1)) == "stoss_party"
    hand.apply(3, stoss(1))
    play(hand, "EO")
    # Re is asked of the declarer and of anyone who may be his partner.
    assert hand.phase == "re" and hand.actors() == [0, 1, 2]
    assert hand.legal_actions(1) == (stoss(2), W) and hand.legal_actions(2) == (W,)


def test_no_claim_while_a_doubling_may_come() -> None:
    """B8.6: in trick 1 the player on lead may claim only once the window has closed; with
    ``second_card`` that is trick 2 (issue 44: forehand was offered, and allowed, a claim at
    the start of trick 1)."""
    claim = Action("claim", True)
    hand = deal(stoss_window="second_card")
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    hand.apply(0, game("solo_H"))
    assert hand.phase == "lead" and hand.free_actions(0) == ()
    e = refusal(hand, 0, claim)
    assert e.reason == "claim_not_now" and "start of trick 2" in str(e)
    play(hand, "EA")
    while hand.phase == "kontra":
        hand.apply(hand.actors()[0], W)
    play(hand, "E10 EK E8")
    assert hand.to_move == 0 and hand.free_actions(0) == (claim,)
    # The default window: forehand may claim at trick 1 once every seat asked has answered.
    first = declared("solo_H")
    assert first.phase == "play" and first.free_actions(0) == (claim,)
    window = deal()
    for seat in range(4):
        window.apply(seat, DAD if seat == 0 else W)
    window.apply(0, game("solo_H"))
    assert window.phase == "kontra" and window.free_actions(0) == ()


def test_stoss_max_allows_sup_and_zero_allows_none() -> None:
    hand = deal(stoss_max=4)
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    hand.apply(0, game("wenz"))
    hand.apply(1, stoss(1))
    hand.apply(0, stoss(2))
    assert hand.phase == "kontra" and hand.legal_actions(2) == (stoss(3), W)
    hand.apply(2, stoss(3))
    hand.apply(0, stoss(4))
    assert hand.phase == "play"
    none = deal(stoss_max=0)
    for seat in range(4):
        none.apply(seat, DAD if seat == 0 else W)
    none.apply(0, game("wenz"))
    assert none.phase == "play"
    assert refused(none, 1, stoss(1)) == "stoss_late"


def test_the_window_closes_by_itself_and_no_doubling_in_a_ramsch() -> None:
    hand = deal()
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    hand.apply(0, game("solo_S"))
    while hand.phase == "kontra":
        closing = hand.rules.window_timeout(hand)
        assert closing is not None and closing[1] == W
        hand.apply(*closing)
    assert hand.phase == "play" and hand.rules.window_timeout(hand) is None
    ramsch = deal(all_pass="ramsch")
    for seat in range(4):
        ramsch.apply(seat, W)
    assert ramsch.phase == "play"
    assert refused(ramsch, 1, stoss(1)) == "stoss_none"


# -- B8: Tout, Bettel, claims ------------------------------------------------------------------


def test_a_tout_ends_at_the_first_trick_the_opponents_win() -> None:
    hand = declared("solo_tout_H")
    play(hand, "EO HO EU HK | GO SO GU H7 | HU H8 SU S8")
    assert not hand.finished
    play(hand, "H9 G10 HA S9")  # seat 2's HA beats the H9: the Tout is lost here
    result = hand.result
    assert result is not None and result.early and hand.tricks[-1].winner == 2
    assert len(hand.tricks) == 4
    # B8.1: the cards left count for seat 2; B11.3: V = 2 x 50, the declarer pays 300.
    assert sum(hand.taken) == 120 and result.points == (24, 96)
    assert result.extra["scores"] == [-300, 100, 100, 100]
    # The cards nobody played are shown once the deal stops.
    unplayed = public_view(hand).unplayed
    assert unplayed is not None and codes(unplayed[0]) == ["EA", "E7", "G7", "S7"]


def test_a_bettel_ends_at_the_first_trick_the_declarer_wins() -> None:
    hand = declared(BETTEL, bettel=True)
    assert hand.order is not None and not hand.order.is_trump(card("EO"))
    # B12.9: no trumps, every suit A K O U 10 9 8 7.
    assert hand.order.beats(card("EK"), card("E10"))
    play(hand, "E7 E10 EK E8")  # seat 2 wins with EK (above the Ten)
    assert hand.tricks[-1].winner == 2
    play(hand, "E9 S8 EA H8")  # seat 0 must follow with EA and wins: lost (B8.2)
    result = hand.result
    assert result is not None and result.early and len(hand.tricks) == 2
    assert result.extra["scores"] == [-90, 30, 30, 30]  # B11.3: the Bettel rate, 30


def test_a_wrong_claim_opens_the_hand_and_play_goes_on() -> None:
    hand = declared("sauspiel_G")
    claim = Action("claim", True)
    assert claim in hand.free_actions(0) and not hand.free_actions(1)
    hand.apply(0, claim)  # HO, SO, EU... are higher than his HU: not safe (B8.3)
    assert not hand.finished and hand.to_move == 0
    assert public_view(hand).public["open_hand"] == [
        {"seat": 0, "cards": ["EO", "GO", "HU", "H9", "EA", "E7", "G7", "S7"]}]
    assert refused(hand, 0, claim) == "claim_again"
    play(hand, "EO")
    assert public_view(hand).public["open_hand"][0]["cards"][0] == "GO"


def test_a_valid_claim_ends_the_deal_with_every_trick() -> None:
    golden = json.loads((GOLDEN / "schafkopf_solo_tout_claim.json").read_text())
    hand = replay(golden["record"])
    result = hand.result
    assert result is not None and result.early and result.extra["won"]
    assert result.points == (120, 0) and result.extra["scores"] == [540, -180, -180, -180]


def test_no_claims_in_a_bettel() -> None:
    hand = declared(BETTEL, bettel=True)
    assert not hand.free_actions(0)
    assert refused(hand, 0, Action("claim", True)) == "claim_game"


# -- B9, B11: the result ------------------------------------------------------------------------


TARIFF = TARIFFS["10/50"]
SAU = Contract(SAUSPIEL, 0)


@pytest.mark.parametrize(("points", "tricks", "expected"), [
    (61, (4, 4), (True, False, False, 10)),     # B9.1
    (60, (4, 4), (False, False, False, 10)),    # 60 : 60 goes to the opponents
    (91, (6, 2), (True, True, False, 20)),      # B9.2 Schneider at 91
    (90, (6, 2), (True, False, False, 10)),     # 90 : 30 is no Schneider win
    (30, (2, 6), (False, True, False, 20)),     # and 30 loses Schneider
    (31, (2, 6), (False, False, False, 10)),
    (120, (8, 0), (True, True, True, 30)),      # B9.3 Schwarz includes Schneider
    (0, (0, 8), (False, True, True, 30)),
    (106, (7, 1), (True, True, False, 20)),     # a 14-point trick still counts
])
def test_the_result_lines(points: int, tricks: tuple[int, int],
                          expected: tuple[bool, bool, bool, int]) -> None:
    assert game_value(SAU, TARIFF, points, tricks, 0) == expected


def test_schwarz_counts_tricks_not_points() -> None:
    # The opponents took one trick worth nothing: 120 : 0 in points, but no Schwarz.
    assert game_value(SAU, TARIFF, 120, (7, 1), 0) == (True, True, False, 20)


@pytest.mark.parametrize(("name", "golden", "scores"), [
    ("Rufspiel 92 : 28, 3 Laufende", "schafkopf_sauspiel_schneider_3_laufende",
     [50, 50, -50, -50]),
    ("the same after Kontra", "schafkopf_sauspiel_kontra", [100, 100, -100, -100]),
    ("Wenz lost 55 : 65 with EU GU", "schafkopf_wenz_lost_55_65", [-210, 70, 70, 70]),
    ("Farbsolo-Tout won with 4 Laufende", "schafkopf_solo_tout_claim", [540, -180, -180, -180]),
])
def test_the_worked_examples_of_b11_6(name: str, golden: str, scores: list[int]) -> None:
    hand = replay(json.loads((GOLDEN / f"{golden}.json").read_text())["record"])
    result = hand.result
    assert result is not None
    assert result.extra["scores"] == scores, name
    assert sum(scores) == 0


def test_laufende_mit_and_ohne_from_three_and_in_wenz_from_two() -> None:
    pack = make_rules(K).pack
    mine = cs("EO GO HO SO EU")
    assert laufende(SAU, pack, mine) == 5                                 # mit 5
    assert laufende(SAU, pack, cs("HO SO")) == 0   # ohne 2: none
    assert laufende(SAU, pack, cs("SO EU")) == 3   # ohne 3
    assert laufende(Contract(WENZ), pack, cs("EU GU")) == 2
    assert laufende(Contract(WENZ), pack, [card("EU")]) == 0
    everything = [c for c in pack if order_of(SAU).is_trump(c)]
    assert laufende(SAU, pack, everything) == 14                          # B9.4 maximum
    assert laufende(Contract(BETTEL), pack, everything) == 0


def test_tariff_presets_and_a_tables_own_numbers() -> None:
    assert game_value(SAU, TARIFFS["10/20/50"], 70, (5, 3), 0)[3] == 20
    assert game_value(Contract(WENZ), TARIFFS["5/20"], 70, (5, 3), 2)[3] == 30
    own = make_rules(K, {"tariff": {"sauspiel": 20, "solo": 60, "extra": 5, "bettel": 40,
                                    "ramsch": 10, "stock": 5}})
    assert own.rates.solo == 60  # type: ignore[attr-defined]


def test_options_are_strict() -> None:
    for bad in ({"early": False}, {"tariff": "1/2"}, {"stoss_max": 7},
                {"all_pass": "again"}, {"short_pack": "yes"},
                {"tariff": {"solo": 50, "sauspiel": 0}}, {"tariff": {"pot": 5}}):
        with pytest.raises(OptionsError):
            make_rules(K, bad)
    assert make_rules(K).options.model_dump()["stoss_max"] == 2
    # The table command's early_end is accepted but changes nothing (B8.5: no other end).
    assert make_rules(K, {"early_end": False}).early_end
    # B11.1: a table may give its own numbers for any of the six, the rest as 10/50.
    assert make_rules(K, {"tariff": {"solo": 60}}).rates.sauspiel == 10  # type: ignore[attr-defined]


def test_knocking_sees_four_cards_and_doubles_the_deal() -> None:
    hand = deal(klopfen=True)
    assert hand.phase == "knock" and seat_view(hand, 0).hand_sizes == (4, 4, 4, 4)
    assert codes(seat_view(hand, 0).hand) == ["EO", "GO", "HU", "H9"]
    for seat, a in enumerate((Action("klopfen", True), W, Action("klopfen", True), W)):
        hand.apply(seat, a)
    assert hand.phase == "announce" and len(seat_view(hand, 0).hand) == 8
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    hand.apply(0, game("solo_H"))
    for seat in (1, 2, 3):
        hand.apply(seat, W)
    while not hand.finished:
        hand.apply(hand.to_move, hand.legal_actions()[0])  # type: ignore[arg-type]
    result = hand.result
    assert result is not None and result.extra["knocks"] == 2
    assert result.extra["value"] % 4 == 0 and abs(result.extra["scores"][0]) == \
        3 * result.extra["value"]


# -- B12: the house options ---------------------------------------------------------------------


def test_geier_farbwenz_and_farbgeier_rank_their_trumps() -> None:
    geier = order_of(Contract(GEIER))
    assert codes(trumps_of(Contract(GEIER))) == ["EO", "GO", "HO", "SO"]
    assert geier.beats(card("GU"), card("GK")) is False and geier.beats(card("GU"), card("G9"))
    assert codes(trumps_of(Contract("farbwenz", 2)))[:6] == ["EU", "GU", "HU", "SU", "HA", "H10"]
    assert codes(trumps_of(Contract("farbgeier", 3)))[4:] == ["SA", "S10", "SK", "SU", "S9",
                                                              "S8", "S7"]
    hand = deal()
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    assert "geier" not in {a.value for a in hand.legal_actions()}  # off by default
    assert refused(hand, 0, game("geier")) == "game_off"


def test_hochzeit_one_trump_is_married_and_a_plain_card_given_back() -> None:
    hands = ["EO EA E10 EK GA G10 GK SA", "HO SO HU H9 E7 G7 S7 S10",
             "GO EU GU SU HA H10 E9 E8", "HK H8 H7 G9 G8 SK S9 S8"]
    hand = deal(hands, hochzeit=True)
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    assert "hochzeit" in {a.value for a in hand.legal_actions()}
    hand.apply(0, game("hochzeit"))
    assert hand.phase == "wedding" and hand.to_move == 1
    hand.apply(1, Action("heiraten", True))
    assert hand.phase == "exchange" and "EO" in codes(hand.hands[1])
    assert refused(hand, 1, Action("give", card("HO"))) == "give_trump"
    hand.apply(1, Action("give", card("S7")))
    # Only the two know the card given back.
    assert public_view(hand).actions[-1] == (1, None)
    assert seat_view(hand, 0).private["exchange"] == {"trump": "EO", "card": "S7"}
    assert "exchange" not in seat_view(hand, 2).private
    assert public_view(hand).team == (0, 0, 1, 1) and hand.phase == "kontra"
    # B9.4: Laufende on the hands after the exchange: EO HO SO with seat 1, GO with seat 2.
    assert laufende(Contract("hochzeit"), hand.rules.pack, hand.pending["party_cards"]) == 0


def test_hochzeit_nobody_accepting_is_all_pass() -> None:
    hands = ["EO EA E10 EK GA G10 GK SA", "HO SO HU H9 E7 G7 S7 S10",
             "GO EU GU SU HA H10 E9 E8", "HK H8 H7 G9 G8 SK S9 S8"]
    hand = deal(hands, hochzeit=True, all_pass="stock")
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    hand.apply(0, game("hochzeit"))
    for seat in (1, 2, 3):
        hand.apply(seat, W)
    result = hand.result
    assert result is not None and result.event == "stock"
    assert result.status == Status(score=(-10, -10, -10, -10), pot=40)


def test_the_stock_goes_to_the_next_sauspiel() -> None:
    won = json.loads((GOLDEN / "schafkopf_sauspiel_schneider_3_laufende.json").read_text())
    record = dict(won["record"], options={"all_pass": "stock"},
                  status={"score": [-10, -10, -10, -10], "pot": 40})
    result = replay(record).result
    assert result is not None
    # B12.8: each of the winning pair takes half the pot on top of the game (50).
    assert result.extra["scores"] == [70, 70, -50, -50]
    assert result.status == Status(score=(60, 60, -60, -60), pot=0)
    lost = json.loads((GOLDEN / "schafkopf_wenz_lost_55_65.json").read_text())
    record = dict(lost["record"], options={"all_pass": "stock"},
                  status={"score": [-10, -10, -10, -10], "pot": 40})
    result = replay(record).result
    assert result is not None and result.status.pot == 40  # a Wenz leaves it alone


def test_the_table_shows_the_pot_the_result_leaves() -> None:
    """Issue 44: the table said "Stock: 0 in the pot" under a result saying 40 (all passed),
    and still 40 after a Sauspiel had won the pot: ``public_info["pot"]`` was the pot the deal
    started with. Once the deal is settled every view shows the pot the result leaves."""
    hand = deal(all_pass="stock")
    assert public_view(hand).public["pot"] == 0
    for seat in range(4):
        hand.apply(seat, W)
    result = hand.result
    assert result is not None and result.status.pot == 40
    assert public_view(hand).public["pot"] == 40
    assert all(seat_view(hand, s).public["pot"] == 40 for s in range(4))
    won = json.loads((GOLDEN / "schafkopf_sauspiel_schneider_3_laufende.json").read_text())
    record = dict(won["record"], options={"all_pass": "stock"},
                  status={"score": [-10, -10, -10, -10], "pot": 40})
    start = replay({**record, "actions": record["actions"][:5]})
    assert public_view(start).public["pot"] == 40  # during the deal: the pot at stake
    hand = replay(record)
    assert hand.result is not None and hand.result.status.pot == 0
    assert public_view(hand).public["pot"] == 0 == seat_view(hand, 2).public["pot"]


def test_the_stock_doubles_when_the_sauspiel_is_lost() -> None:
    # Seat 0 calls Gras with four low trumps; the opponents hold every Ober and Unter.
    weak = ["HK H9 H8 H7 G7 E7 S8 S7", "GA G10 GK G9 G8 E9 E8 S9",
            "EO GO HO SO EA E10 SA S10", "EU GU HU SU HA H10 EK SK"]
    hand = declared("sauspiel_G", weak, status=Status(score=(-10, -10, -10, -10), pot=40),
                    all_pass="stock")
    while not hand.finished:
        hand.apply(hand.to_move, hand.legal_actions()[0])  # type: ignore[arg-type]
    result = hand.result
    assert result is not None and not result.extra["won"]
    # B12.8: each of the pair pays half the pot into it, which doubles.
    assert result.status.pot == 80
    value = result.extra["value"]
    assert result.extra["scores"] == [-value - 20, -value - 20, value, value]


def test_ramsch_the_most_points_pay() -> None:
    assert ramsch_scores([50, 30, 40, 0], [3, 2, 3, 0], 20, False) == (
        [-60, 20, 20, 20], "ramsch")
    assert ramsch_scores([50, 30, 40, 0], [3, 2, 3, 0], 20, True) == (
        [-80, 20, 20, 40], "ramsch")                                       # Jungfrau
    assert ramsch_scores([120, 0, 0, 0], [8, 0, 0, 0], 20, True) == (
        [60, -20, -20, -20], "durchmarsch")
    assert ramsch_scores([30, 30, 30, 30], [2, 2, 2, 2], 20, False) == ([0] * 4, "ramsch_even")
    hand = deal(all_pass="ramsch", klopfen=True)
    for seat in range(4):
        hand.apply(seat, Action("klopfen", True) if seat == 2 else W)
    for seat in range(4):
        hand.apply(seat, W)
    assert hand.phase == "play" and not hand.free_actions(0)  # no claims in a Ramsch
    assert public_view(hand).team == (None, None, None, None)
    while not hand.finished:
        hand.apply(hand.to_move, hand.legal_actions()[0])  # type: ignore[arg-type]
    result = hand.result
    assert result is not None and result.extra["value"] == 40  # 20, knocked once
    assert sum(result.extra["scores"]) == 0 and len(result.points) == 4


# -- the running balance -----------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {}, {"short_pack": True, "all_pass": "stock", "klopfen": True, "hochzeit": True},
    {"geier": True, "farbwenz": True, "farbgeier": True, "bettel": True, "all_pass": "ramsch",
     "ramsch_jungfrau": True, "stoss_max": 4, "stoss_window": "second_card"},
])
def test_the_tally_adds_up_to_zero_over_many_random_hands(options: dict[str, Any]) -> None:
    """Seeded random play through the public API, the balance carried from hand to hand: the
    balances and the pot always add up to zero (10,000 hands over the three tables)."""
    rules = make_rules(K, options)
    match = Match(rules, seed=11)
    rng = random.Random(12)
    hands = {0: 4000}.get(len(options), 3000)
    for _ in range(hands):
        hand = match.deal()
        while not hand.finished:
            seat = rng.choice(hand.actors())
            choices = hand.legal_actions(seat) + hand.free_actions(seat)
            hand.apply(seat, choices[int(rng.random() * len(choices))])
        result = match.record_result(hand)
        assert sum(result.extra["scores"]) == (result.status_before.pot or 0) - (
            result.status.pot or 0)
        extra = result.extra
        if extra["game"] not in (None, "ramsch"):
            # The items add up as a player checks them: (base + Laufende + Schneider or
            # Schwarz) x 2 for a Tout (x 4 Sie), x 2 per knock and doubling = the value.
            items = {i["key"]: i for i in extra["counted"]}
            total = sum(i["value"] for k, i in items.items() if k in (
                "game", "laufende", "schneider", "schwarz"))
            factor = 2 ** (items.get("knocks", {}).get("count", 0)
                           + items.get("doubles", {}).get("count", 0))
            assert total * items["game"]["times"] * factor == extra["value"], extra
        assert sum(match.status.score or ()) + (match.status.pot or 0) == 0


def test_a_status_that_does_not_add_up_is_refused() -> None:
    with pytest.raises(RecordError):
        deal(status=Status(score=(10, 0, 0, 0)))
    with pytest.raises(RecordError):
        deal(status=Status(score=(-10, -10, -10, -10), pot=40))  # no Stock at this table
    with pytest.raises(RecordError):
        deal(status=Status(score=(-10, -10, -10, -11), pot=41), all_pass="stock")


def test_records_replay_and_name_what_was_counted() -> None:
    golden = json.loads((GOLDEN / "schafkopf_sauspiel_schneider_3_laufende.json").read_text())
    hand = replay(golden["record"])
    assert to_record(hand)["actions"] == golden["record"]["actions"]
    result = hand.result
    assert result is not None
    assert result.extra["counted"] == [
        {"key": "game", "game": "sauspiel_S", "value": 10, "times": 1},
        {"key": "laufende", "count": 3, "value": 30}, {"key": "schneider", "value": 10},
        {"key": "each", "value": 50}]
    assert result.extra["teams"] == [0, 0, 1, 1] and result.extra["partner"] == 1


# -- computer players ------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_computers_play_every_part_legally(level: str) -> None:
    options = {"hochzeit": True, "bettel": True, "klopfen": True, "all_pass": "ramsch"}
    rules = make_rules(K, options)
    match = Match(rules, seed=3)
    players = [make_player(level, seed=s, timed=False) for s in range(4)]
    if level == "hard":
        for p in players:
            p.samples = 6  # type: ignore[attr-defined]
    for _ in range(3 if level == "hard" else 8):
        hand = match.deal()
        while not hand.finished:
            seat = hand.actors()[0]
            action = players[seat].choose(seat_view(hand, seat))
            assert action in hand.legal_actions(seat)
            hand.apply(seat, action)
        match.record_result(hand)


def test_easy_calls_the_ace_of_its_shortest_suit_and_plays_solid_games() -> None:
    rules = make_rules(K)
    hand = deal(["EO GO HO EU HA E7 G10 G9", "SO GA EA E10 EK H8 H7 S8",
                 "GU SU HU H10 HK SA S10 E9", "H9 G7 GK G8 E8 SK S9 S7"])
    view = seat_view(hand, 0)
    assert rules.suggest(view) == DAD
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    # Eichel: one card (E7); Gras: two. A good player calls the short suit.
    assert rules.suggest(seat_view(hand, 0)) == game("sauspiel_E")


def test_a_determinization_keeps_what_the_table_knows() -> None:
    """Every rebuilt hand replays the view's actions (the called Ace's duties included) and
    gives the seat the same view; the declarer never holds the Ace he called."""
    rules = make_rules(K)
    match = Match(rules, seed=21)
    players = [make_player("easy", seed=s) for s in range(4)]
    rng = random.Random(5)
    checked = 0
    for _ in range(12):
        hand = match.deal()
        while not hand.finished:
            seat = hand.actors()[0]
            view = seat_view(hand, seat)
            if hand.phase == "play":
                other = hand_from_view(view, sample(infer(view), rng))
                assert seat_view(other, seat) == view
                contract = hand.pending["contract"]
                if contract.called is not None and other.pending["declarer"] is not None:
                    assert contract.called not in other.hands[other.pending["declarer"]]
                checked += 1
            hand.apply(seat, players[seat].choose(view))
        match.record_result(hand)
    assert checked > 100


def test_hard_weighs_the_announcement_by_search() -> None:
    rules = make_rules(K)
    assert {"announce", "clarify", "game", "kontra", "re"} <= rules.searched_choices
    hand = deal(["EO GO HO SO EU GU HA H10", "HU SU HK H9 EA E10 EK E9",
                 "H8 H7 GA G10 GK G9 E8 E7", "SA S10 SK S9 S8 S7 G8 G7"])
    hard = make_player("hard", seed=1, timed=False)
    hard.samples = 8  # type: ignore[attr-defined]
    assert hard.choose(seat_view(hand, 0)) == DAD
    for seat in range(4):
        hand.apply(seat, DAD if seat == 0 else W)
    choice = hard.choose(seat_view(hand, 0))
    assert choice.value.startswith("solo")


# -- records -----------------------------------------------------------------------------------


def _record(name: str) -> dict[str, Any]:
    """Frozen records for positions hard to reach by a short script."""
    if name == "last_card":
        # Seat 1 keeps GA to the last trick while Gras is never led (B6.3b's exception).
        pack = ["S10", "G9", "H8", "S7", "H7", "GO", "G8", "GA", "E10", "EU", "EA", "GU",
                "E9", "SO", "E8", "HK", "H9", "S9", "GK", "HO", "HU", "SU", "E7", "G7",
                "H10", "SA", "EK", "HA", "SK", "EO", "G10", "S8"]
        cards_ = cs("H8 SU H10 SO SK S7 E7 SA EK E9 HO G7 S10 G8 E10 S8 H9 GO GU EO E8 G9 HU "
                    "EA H7 HA HK GK EU")
        actions: list[dict[str, Any]] = [
            {"seat": 0, "dad": True}, {"seat": 1, "weiter": True}, {"seat": 2, "weiter": True},
            {"seat": 3, "weiter": True}, {"seat": 0, "game": "sauspiel_G"},
            {"seat": 1, "weiter": True}, {"seat": 2, "weiter": True}, {"seat": 3, "weiter": True}]
        hand = Hand(make_rules(K), 3, [card(c) for c in pack])
        for a in actions:
            hand.apply(a["seat"], Action(*next(iter((k, v) for k, v in a.items() if k != "seat"))))
        for c in cards_:
            actions.append({"seat": hand.to_move, "card": code(c)})
            hand.apply(hand.to_move, Action("card", c))  # type: ignore[arg-type]
        return {"game": K, "options": {}, "dealer": 3, "status": None, "pack": pack,
                "actions": actions}
    raise KeyError(name)


def test_illegal_records_are_refused_with_the_rules_name() -> None:
    reasons = {}
    for path in sorted(GOLDEN.glob("schafkopf_*_refused.json")):
        golden = json.loads(path.read_text())
        with pytest.raises(ReplayError) as e:
            replay(golden["record"])
        reasons[path.stem] = e.value.reason
    assert reasons == {
        "schafkopf_call_held_ace_refused": "call_held",
        "schafkopf_called_ace_discarded_refused": "called_ace_kept",
        "schafkopf_card_not_held_refused": "not_your_card",
        "schafkopf_double_too_late_refused": "stoss_late",
    }




@pytest.mark.parametrize("moves", [0, 9, 20])
def test_hidden_cards_never_change_a_decision(moves: int) -> None:
    """Two real deals that differ only in how the cards a seat cannot see lie give that seat
    the same view, and every level the same decision: the computers read nothing else (the
    announcement and the doublings, which Hard searches, included)."""
    rules = make_rules(K)
    easy = [make_player("easy", seed=s) for s in range(4)]
    differ = []
    for seed in range(3):
        hand = Match(rules, seed=100 + seed).deal()
        for _ in range(moves):
            if hand.finished:
                break
            seat = hand.actors()[0]
            hand.apply(seat, easy[seat].choose(seat_view(hand, seat)))
        if hand.finished:
            continue
        seat = hand.actors()[0]
        view = seat_view(hand, seat)
        other = hand_from_view(view, sample(infer(view), random.Random(seed)))
        differ.append(other.hands != hand.hands)
        assert seat_view(other, seat) == view
        for level in ("easy", "normal", "hard"):
            a, b = (make_player(level, seed=5, timed=False) for _ in range(2))
            if level == "hard":
                a.samples = b.samples = 8  # type: ignore[attr-defined]
            assert a.choose(view) == b.choose(seat_view(other, seat))
    assert any(differ)  # the other deal really hides other cards
