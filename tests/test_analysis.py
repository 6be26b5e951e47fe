"""Hints ("What would you play?") and hand reviews (``engine.ai.analysis``).

The hand-built deal below is worked out by hand (trump hearts, dealer 0; teams 0+2 against
1+3; points are Aces and Tens, 1 each):

    seat 0: H9 S10 E10 H10 SU EK GA G7      seat 1: SA E9 H8 EO GO HO G10 EU
    seat 2: S7 EA HA SK HU SO G9 GU         seat 3: S8 E8 H7 S9 HK E7 GK G8

    T1 SA S7 S8 S10 (seat 1 wins, 1+3: 2)   T2 E9 EA E8 E10 (seat 2 wins, 0+2: 2)
    T3 HA H7 H10 H8 (seat 2, 0+2: 4)        T4 SK S9 SU EO (seat 1 trumps, no points)
    T5 GO HU HK H9 (seat 1; seat 0's H9 is its only trump: forced)
    T6 HO SO E7 EK (seat 1, no points)      T7 G10 G9 GK, then seat 0 holds GA and G7.

At T7 seat 0 plays last: GA wins the trick with G10 in it, 0+2 reach 6 against 2 and become
masters (and the hand stops: nothing left can change that). G7 lets G10 win: 4-3 with only GA
out, which makes 5-3 or 4-4, no change either way (the hand stops there too). Seat 0 sees all
of this (the trick, the points taken, its own cards), so every guess of the hidden cards
agrees: GA is "masters for us" for sure, G7 "no change" for sure.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from deal import act as play
from deal import deal

from engine import Action, Hand, Match, make_rules, replay, seat_view, to_record
from engine.ai import make_player
from engine.ai.analysis import (
    MISTAKE_COST,
    Decision,
    Outcome,
    decisions,
    hint,
    play_out,
    review,
    review_decision,
    review_from_json,
    review_to_json,
)
from engine.cards import card, code
from engine.determinize import hand_from_view
from engine.inference import infer, sample
from engine.view import SeatView

HANDS = [
    "H9 S10 E10 H10 SU EK GA G7",
    "SA E9 H8 EO GO HO G10 EU",
    "S7 EA HA SK HU SO G9 GU",
    "S8 E8 H7 S9 HK E7 GK G8",
]
TO_T7 = ("SA S7 S8 S10 | E9 EA E8 E10 | HA H7 H10 H8 | SK S9 SU EO | GO HU HK H9 | HO SO E7 EK"
         " | G10 G9 GK")
#: Seat 0's action indexes in that script: T4's SU (its only bell) and T5's H9 (its only
#: trump) are forced; T7's card is the decision that matters.
SU_T4, H9_T5, T7 = 14, 19, 27

CARD_CODE = re.compile(r"\b[EGHS](?:A|10|K|O|U|9|8|7)\b")


def at_t7(hands: list[str] = HANDS) -> Hand:
    hand = deal("filicau", hands)
    play(hand, TO_T7)
    return hand


def finished(last: str, hands: list[str] = HANDS) -> Hand:
    hand = at_t7(hands)
    play(hand, last)
    assert hand.finished
    return hand


def codes_of(actions: object) -> set[str]:
    return set(CARD_CODE.findall(json.dumps(actions)))


# -- hints ------------------------------------------------------------------------------------


def test_hint_takes_the_sure_trick_and_names_its_outcomes() -> None:
    hand = at_t7()
    h = hint(seat_view(hand, 0), samples=12, seed=0)
    assert code(h.recommended.value) == "GA"
    by_card = {code(a.action.value): a for a in h.actions}
    assert set(by_card) == {"GA", "G7"}
    ga = {c.outcome: c.chance for c in by_card["GA"].outcomes}
    g7 = {c.outcome: c.chance for c in by_card["G7"].outcomes}
    assert ga == {Outcome("masters", True): 1.0}
    assert g7 == {Outcome("no_change", None): 1.0}
    assert by_card["GA"].value > by_card["G7"].value


def test_hint_is_the_same_for_deals_that_differ_only_in_hidden_cards() -> None:
    # EU (seat 1) and G8 (seat 3) swapped: both deals replay the same 27 cards legally (seat 1
    # leads G10 and trumps the bells either way; seat 3 follows acorns with E8 and leaves with
    # GK either way), and seat 0 cannot tell them apart.
    swapped = list(HANDS)
    swapped[1] = swapped[1].replace("EU", "G8")
    swapped[3] = swapped[3].replace("G8", "EU")
    one, other = at_t7(HANDS), at_t7(swapped)
    assert one.hands[1] != other.hands[1]
    v1, v2 = seat_view(one, 0), seat_view(other, 0)
    assert v1 == v2
    assert hint(v1, samples=8, seed=5) == hint(v2, samples=8, seed=5)


def positions(game: str, deals: int, seed: int) -> list[Hand]:
    """Positions with a choice, from hands played by random legal moves."""
    rules = make_rules(game)
    rng = random.Random(seed)
    out = []
    for i in range(deals):
        hand = Match(rules, seed=seed * 100 + i).deal()
        stop = rng.randrange(len(rules.pack))
        while not hand.finished and len(hand.actions) < stop:
            seat = hand.actors()[0]
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
        if not hand.finished and len(hand.legal_actions(hand.actors()[0])) > 1:
            out.append(hand)
    return out


@pytest.mark.parametrize("game", ["filicau", "filko", "schafkopf3"])
def test_hint_depends_only_on_what_the_seat_may_know(game: str) -> None:
    """Another deal consistent with the seat's view (other seats' hidden cards dealt anew)
    gives the identical hint; and a hint names no card but the seat's own."""
    checked = 0
    for hand in positions(game, 12, seed=3):
        seat = hand.actors()[0]
        view = seat_view(hand, seat)
        guess = sample(infer(view), random.Random(99))
        other = hand_from_view(view, guess)
        if [sorted(h) for h in other.hands] == [sorted(h) for h in hand.hands]:
            continue  # the guess happened to be the real deal: nothing to compare
        if seat_view(other, seat) != view:
            # Not a deal the seat could mistake for this one (a Schafkopf declarer knows the
            # widow it took; the common rebuild does not keep it): no premise to test.
            continue
        h = hint(view, samples=6, seed=1)
        assert hint(seat_view(other, seat), samples=6, seed=1) == h
        own = {code(c) for c in view.hand}
        assert codes_of(h.to_json()) <= own
        checked += 1
    assert checked >= 3


def normal_positions() -> list[tuple[SeatView, int]]:
    out = []
    for game in ("filicau", "schafkopf3"):
        for hand in positions(game, 6, seed=7):
            seat = hand.actors()[0]
            out.append((seat_view(hand, seat), seat))
    return out


def test_hint_recommends_what_normal_plays_and_its_chances_add_up() -> None:
    """The recommendation is Normal's own move there (same samples, same seed), it is legal,
    and each action's outcome chances sum to 1."""
    cases = normal_positions()
    assert len(cases) >= 6
    for view, seat in cases:
        h = hint(view, seed=seat)
        assert h.recommended in view.legal
        assert h.recommended == make_player("normal", seed=seat, timed=False).choose(view)
        assert [a.action for a in h.actions] == list(view.legal)
        for a in h.actions:
            if h.estimated:
                assert sum(c.chance for c in a.outcomes) == pytest.approx(1.0)
                assert all(0 < c.chance <= 1 for c in a.outcomes)
            else:
                assert a.outcomes == ()


def test_a_bid_that_cannot_be_searched_gets_the_rule_of_thumb_and_no_chances() -> None:
    """Schafkopf's widow offer is decided by the rule of thumb, as Normal decides it."""
    hand = Match(make_rules("schafkopf3"), seed=2).deal()
    seat = hand.actors()[0]
    view = seat_view(hand, seat)
    assert {a.kind for a in view.legal} == {"take", "pass"}
    h = hint(view, seed=seat)
    assert not h.estimated
    assert h.recommended == make_player("normal", seed=seat, timed=False).choose(view)
    assert all(a.outcomes == () for a in h.actions)


def test_hard_weighs_the_widow_offer_by_search_and_the_hint_shows_its_chances() -> None:
    """Hard searches the widow offer (``SearchPlayer(choices=True)``): a hint at Hard's level
    recommends what Hard takes or passes there, with each action's outcome chances."""
    for seed in range(3):
        hand = Match(make_rules("schafkopf3"), seed=seed).deal()
        seat = hand.actors()[0]
        view = seat_view(hand, seat)
        h = hint(view, seed=seat, samples=20, level="hard")
        hard = make_player("hard", seed=seat, timed=False)
        hard.samples = 20  # type: ignore[attr-defined]
        assert h.estimated
        assert h.recommended == hard.choose(view)
        for a in h.actions:
            assert sum(c.chance for c in a.outcomes) == pytest.approx(1.0)


def test_a_review_weighs_the_widow_decision_too() -> None:
    """Reviewing a Schafkopf hand, Hard rates the seat's take-or-pass like its cards: with
    values and outcome chances, not as a choice it cannot judge."""
    hand = Match(make_rules("schafkopf3"), seed=4).deal()
    seat = hand.to_move
    hand.apply(seat, Action("take", True))
    while not hand.finished:
        actor = hand.actors()[0]
        hand.apply(actor, hand.legal_actions(actor)[0])
    decision = review_decision(to_record(hand), seat, 0, samples=8)
    assert decision.played == Action("take", True)
    assert decision.played_value is not None and decision.best_value is not None
    assert decision.samples == 8
    assert sum(c.chance for c in decision.played_outcomes) == pytest.approx(1.0)


def test_no_hint_for_a_seat_not_to_act() -> None:
    hand = at_t7()
    with pytest.raises(ValueError, match="nothing to decide"):
        hint(seat_view(hand, 1), samples=4, seed=0)


# -- reviews ----------------------------------------------------------------------------------


def test_review_marks_throwing_away_the_sure_trick_as_a_costly_mistake() -> None:
    hand = finished("G7")
    assert hand.result is not None and hand.result.event == "no_change"
    decisions = {d.index: d for d in review(to_record(hand), 0, samples=40, seed=0)}
    d = decisions[T7]
    assert code(d.played.value) == "G7" and code(d.best.value) == "GA"
    assert d.mistake and d.cost >= MISTAKE_COST
    # Masters (+1) against no change (0): the whole outcome is lost.
    assert d.cost > 0.9
    assert {c.outcome for c in d.best_outcomes} == {Outcome("masters", True)}
    assert {c.outcome for c in d.played_outcomes} == {Outcome("no_change", None)}


def test_review_does_not_blame_the_right_card_or_a_forced_one() -> None:
    hand = finished("GA")
    assert hand.result is not None and hand.result.event == "masters"
    decisions = {d.index: d for d in review(to_record(hand), 0, samples=40, seed=0)}
    assert decisions[T7].cost == 0 and not decisions[T7].mistake
    assert decisions[T7].best == decisions[T7].played
    for i in (SU_T4, H9_T5):
        d = decisions[i]
        assert d.forced and not d.mistake and d.cost == 0
        assert d.best == d.played


def test_review_covers_exactly_the_seats_own_decisions() -> None:
    record = to_record(finished("G7"))
    for seat in range(4):
        decisions = review(record, seat, samples=4, seed=0)
        assert [d.index for d in decisions] == [
            i for i, a in enumerate(record["actions"]) if a["seat"] == seat
        ]
        for d in decisions:
            assert d.played == hand_action(record, d.index)


def hand_action(record: dict[str, object], index: int) -> object:
    from engine import action_from_json

    actions = record["actions"]
    assert isinstance(actions, list)
    return action_from_json(actions[index])


def test_review_sees_only_what_the_seat_saw() -> None:
    """Two records that differ only in cards seat 0 never saw review the same for seat 0."""
    swapped = list(HANDS)
    swapped[1] = swapped[1].replace("EU", "G8")
    swapped[3] = swapped[3].replace("G8", "EU")
    one, other = to_record(finished("G7")), to_record(finished("G7", swapped))
    assert one["pack"] != other["pack"] and one["actions"] == other["actions"]
    assert review(one, 0, samples=20, seed=4) == review(other, 0, samples=20, seed=4)


def test_review_is_deterministic_and_survives_the_store_round_trip() -> None:
    hand = Match(make_rules("schafkopf3"), seed=11).deal()
    players = [make_player("easy", seed=s) for s in range(hand.n)]
    while not hand.finished:
        seat = hand.actors()[0]
        hand.apply(seat, players[seat].choose(seat_view(hand, seat)))
    record = to_record(hand)
    first = review(record, 1, samples=10, seed=3)
    assert first == review(record, 1, samples=10, seed=3)
    stored = json.loads(json.dumps(review_to_json(first)))
    assert stored["mistake_cost"] == MISTAKE_COST
    assert review_from_json(stored) == first
    assert review_from_json({**stored, "version": -1}) is None
    assert all(isinstance(d, Decision) and d.cost >= 0 for d in first)


def test_a_review_spread_over_tasks_is_the_same_review() -> None:
    """``thinking.review`` asks for one decision at a time; that must change nothing."""
    record = to_record(finished("G7"))
    points = decisions(record, 0)
    assert points == [3, 7, 10, SU_T4, H9_T5, 23, T7]
    whole = review(record, 0, samples=8, seed=2)
    assert [review_decision(record, 0, i, samples=8, seed=2) for i in points] == whole
    with pytest.raises(ValueError, match="no decision"):
        review_decision(record, 0, 4, samples=8, seed=2)  # seat 1's card


def test_review_refuses_a_seat_that_is_not_at_the_table() -> None:
    with pytest.raises(ValueError, match="no seat 4"):
        review(to_record(finished("GA")), 4, samples=2, seed=0)


def test_the_deal_above_is_as_described() -> None:
    """The worked deal's premises, checked against the engine."""
    hand = at_t7()
    assert hand.trump == card("H9") >> 3
    assert hand.team_points() == [4, 2]  # team 0 = seats 0 and 2
    assert hand.to_move == 0
    assert sorted(code(a.value) for a in hand.legal_actions()) == ["G7", "GA"]


@pytest.mark.slow
def test_analysis_timing_command_reports_percentiles() -> None:
    import io

    from engine.__main__ import main

    out = io.StringIO()
    assert main(["analysis-timing", "--games", "filicau", "--hands", "1", "--quiet"], out) == 0
    result = json.loads(out.getvalue())
    assert result["game"] == "filicau" and result["cpus"] >= 1
    assert result["review"]["count"] == 4  # every seat's review of the one hand
    for part in ("hint", "review", "review_decision"):
        r = result[part]
        assert r["count"] > 0 and 0 <= r["p50_ms"] <= r["p95_ms"] <= r["max_ms"]


def test_a_review_caps_its_work_the_same_way_every_time() -> None:
    """The cap stands in for Hard's time cap without depending on the machine: with a cap of
    one position every searched decision rests on exactly one sample, on every run."""
    record = to_record(finished("G7"))
    capped = review(record, 0, samples=50, seed=1, work_cap=1)
    assert [d.samples for d in capped if not d.forced] == [1] * 5
    assert review(record, 0, samples=50, seed=1, work_cap=1) == capped
    # The sure trick is plain even from one guess of the hidden cards.
    assert T7 in [d.index for d in capped if d.mistake]


# -- the analysis board -------------------------------------------------------------------------


def test_another_card_is_played_out_by_the_computers_to_the_end() -> None:
    record = to_record(finished("GA"))
    # At T7 seat 0 plays G7 instead of GA: the hand goes on (no masters), the computers play
    # it out, and the actions before stay as they were.
    again = play_out(record, T7, Action("card", card("G7")), level="easy", seed=2)
    assert again["actions"][:T7] == record["actions"][:T7]
    assert again["actions"][T7] == {"seat": 0, "card": "G7"}
    hand = replay(again)
    assert hand.finished and hand.result is not None and hand.result.event != "masters"
    assert play_out(record, T7, Action("card", card("G7")), level="easy", seed=2) == again


def test_the_analysis_board_refuses_a_hand_still_in_play() -> None:
    record = to_record(at_t7())
    with pytest.raises(ValueError, match="finished"):
        play_out(record, T7 - 1, Action("card", card("G9")))


def test_the_analysis_board_refuses_a_card_that_was_not_legal_there() -> None:
    record = to_record(finished("GA"))
    with pytest.raises(ValueError, match="not legal"):
        play_out(record, T7, Action("card", card("EA")))  # seat 0 never held it
    with pytest.raises(ValueError, match="no action"):
        play_out(record, 99, Action("card", card("G7")))
