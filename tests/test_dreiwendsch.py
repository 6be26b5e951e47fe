"""Dreiwendsch (seed 004; RULINGS.md "Wendish Schafkopf", Dreiwendsch)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from deal import act as play
from deal import deal
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Action, Hand, IllegalAction, Status, make_rules, replay, to_record
from engine.ai import make_player
from engine.cards import PACK_20, card, codes
from engine.inference import infer, sample
from engine.match import Match
from engine.view import public_view, seat_view


def deal_order(dealer: int, sharp: bool = False) -> list[int]:
    """Seat of each pack index (-1: the skat): 3, 4, skat 2, 3 (sharp: 2, 2, skat 2, 2)."""
    sizes = (2, 2, 2) if sharp else (3, 4, 3)
    out: list[int] = []
    for r, size in enumerate(sizes):
        if r == 2:
            out += [-1, -1]
        for k in (1, 2, 3):
            out += [(dealer + k) % 3] * size
    return out


def make(hands: Sequence[str], skat: str, dealer: int = 0, **options: Any) -> Hand:
    return deal("dreiwendsch", hands, dealer, widow=skat, **options)


TAKE = Action("take", True)
PASS = Action("pass", True)


def bury(*cs: str) -> Action:
    return Action("bury", tuple(sorted(card(c) for c in cs)))


#: Seat 2 holds EO and the other top trumps.
STRONG = (
    "EA E10 EK E9 E8 E7 G7 G8 G9 H7",
    "GA G10 GK HA H10 HK H9 H8 SK S9",
    "EO GO HO SO EU GU HU SU SA S10",
)
SKAT = "S8 S7"


@pytest.mark.parametrize("sharp", [False, True])
def test_deal(sharp: bool) -> None:
    rules = make_rules("dreiwendsch", {"sharp": sharp})
    for dealer in range(3):
        assert list(rules.holders(dealer)) == deal_order(dealer, sharp)
    assert len(rules.pack) == (20 if sharp else 32)
    if sharp:
        assert set(rules.pack) == set(PACK_20)


def test_the_eo_holder_takes_or_declines() -> None:
    hand = make(STRONG, SKAT)
    assert hand.phase == "widow" and hand.to_move == 2
    with pytest.raises(IllegalAction) as e:
        hand.apply(1, TAKE)
    assert e.value.reason == "not_your_turn"
    hand.apply(2, PASS)
    assert hand.phase == "play" and hand.to_move == 1
    assert hand.rules.public_info(hand)["mode"] == "alone"


def test_eo_in_the_skat_means_all_alone() -> None:
    hands = ("EA E10 EK E9 E8 E7 G7 G8 G9 H7",
             "GA G10 GK HA H10 HK H9 H8 SK S9",
             "S7 GO HO SO EU GU HU SU SA S10")
    hand = make(hands, "S8 EO", dealer=1)
    assert hand.phase == "play" and hand.to_move == 2
    assert hand.rules.public_info(hand)["mode"] == "alone"


def test_follow_suit_only() -> None:
    hand = make(STRONG, SKAT)
    hand.apply(2, PASS)
    # Seat 1 leads GA: seat 2 has no leaves and need not trump.
    play(hand, "GA")
    assert len(hand.legal_actions()) == 10
    play(hand, "SA")
    assert len(hand.legal_actions()) == 3  # seat 0 follows with G7 G8 G9


def test_solo_schwarz() -> None:
    hand = make(STRONG, SKAT, early_end=False)
    hand.apply(2, TAKE)
    hand.apply(2, bury("S8", "S7"))
    assert hand.to_move == 1
    # Seat 1 leads; seat 2 trumps every plain lead and leads trumps after.
    play(hand, "GA EO G7 | GO EA SK | HO E10 S9 | SO E9 GK | EU E8 G10 | GU E7 HA | HU G8 H10"
         " | SU G9 HK | SA H7 H9 | S10 EK H8")
    res = hand.result
    assert res is not None
    assert res.points == (120, 0)
    assert res.extra["scores"] == [-3, -3, 6] and res.event == "solo_won"
    assert res.extra["level"] == "schwarz"
    assert res.status == Status(score=(-3, -3, 6), deals=1)


@pytest.mark.parametrize(("points", "all_tricks", "no_trick", "value"), [
    (120, True, False, 3), (91, False, False, 2), (90, False, False, 1), (61, False, False, 1),
    (60, False, False, -1), (30, False, False, -1), (29, False, False, -2), (0, False, True, -3),
    (10, False, True, -3), (0, False, False, -2),
])
def test_solo_scale(points: int, all_tricks: bool, no_trick: bool, value: int) -> None:
    rules = make_rules("dreiwendsch")
    assert rules.declarer_value(points, all_tricks, no_trick) == value  # type: ignore[attr-defined]


@pytest.mark.parametrize(("points", "scores"), [
    ((50, 30, 40), [2, -1, -1]),
    ((50, 50, 20), [1, 1, -2]),
    ((40, 40, 40), [0, 0, 0]),
    ((0, 0, 120), [-1, -1, 2]),
])
def test_all_alone_most_points_wins(points: tuple[int, int, int], scores: list[int]) -> None:
    rules = make_rules("dreiwendsch")
    assert rules.most_scores(points)[0] == scores  # type: ignore[attr-defined]


def test_sharp_cards() -> None:
    hands = ("EA E10 EK GA G10 GK", "HA H10 HK SK EU GU", "EO GO HO SO HU SU")
    hand = make(hands, "SA S10", sharp=True, early_end=False)
    assert hand.phase == "widow" and hand.to_move == 2
    hand.apply(2, TAKE)
    hand.apply(2, bury("SA", "S10"))
    play(hand, "HA EO EA | GO GA SK | HO G10 EU | SO GK GU | HU E10 H10 | SU EK HK")
    res = hand.result
    assert res is not None and res.points == (120, 0) and res.extra["scores"] == [-3, -3, 6]


def test_skat_hidden_and_burial_secret() -> None:
    hand = make(STRONG, SKAT)
    for v in [public_view(hand)] + [seat_view(hand, s) for s in range(3)]:
        text = json.dumps([v.public, [str(a) for _, a in v.actions],
                           getattr(v, "private", {})])
        assert '"S8"' not in text and '"S7"' not in text
        assert not {"S8", "S7"} & set(codes(getattr(v, "hand", ())))
    hand.apply(2, TAKE)
    hand.apply(2, bury("SA", "S10"))
    for v in [public_view(hand), seat_view(hand, 0), seat_view(hand, 1)]:
        text = json.dumps([v.public, [a and str(a) for _, a in v.actions],
                           getattr(v, "private", {})])
        assert not any(f'"{c}"' in text for c in ("SA", "S10", "S8", "S7"))
        assert (2, None) in v.actions
    assert seat_view(hand, 2).private == {"widow": ["S8", "S7"], "buried": ["SA", "S10"]}
    # After the hand the skat and the buried cards are shown.
    rng = random.Random(0)
    while not hand.finished:
        seat = hand.to_move
        assert seat is not None
        hand.apply(seat, rng.choice(hand.legal_actions()))
    assert public_view(hand).public["buried"] == ["SA", "S10"]


def test_determinize_for_the_soloist_keeps_its_buried_cards() -> None:
    hand = make(STRONG, SKAT)
    hand.apply(2, TAKE)
    hand.apply(2, bury("SA", "S10"))
    play(hand, "GA")
    view = seat_view(hand, 2)
    rng = random.Random(1)
    for _ in range(10):
        rebuilt = hand.rules.determinize(view, sample(infer(view), rng))
        assert rebuilt is not None and rebuilt.to_move == 2
        assert set(rebuilt.pending["buried"]) == {card("SA"), card("S10")}


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("sharp", [False, True])
def test_computer_players_finish_hands(level: str, sharp: bool) -> None:
    rules = make_rules("dreiwendsch", {"sharp": sharp})
    players = [make_player(level, seed=s, timed=False) for s in range(3)]
    for p in players:
        if hasattr(p, "samples"):
            p.samples = 6
    m = Match(rules, seed=5)
    for _ in range(3 if level != "easy" else 30):
        hand = m.deal()
        while not hand.finished:
            seat = hand.actors()[0]
            action = players[seat].choose(seat_view(hand, seat))
            assert action in hand.legal_actions(seat)
            hand.apply(seat, action)
        m.record_result(hand)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2), st.booleans(), st.booleans())
def test_random_play_finishes_and_replays(seed: int, dealer: int, early: bool,
                                          sharp: bool) -> None:
    rng = random.Random(seed)
    rules = make_rules("dreiwendsch", {"early_end": early, "sharp": sharp})
    pack = list(rules.pack)
    rng.shuffle(pack)
    hand = Hand(rules, dealer, pack)
    while not hand.finished:
        seat = rng.choice(hand.actors())
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    res = hand.result
    assert res is not None
    if not res.early:
        assert sum(res.points) == 120
    assert sum(res.extra["scores"]) == 0
    again = replay(json.loads(json.dumps(to_record(hand))))
    assert again.result == res


def test_skat_to_forehand_asks_the_seat_after_the_dealer_only() -> None:
    # STRONG: seat 2 holds EO; dealer 0, so forehand is seat 1.
    hand = make(STRONG, SKAT, dealer=0, skat_to="forehand")
    assert hand.phase == "widow" and hand.to_move == 1
    assert set(hand.legal_actions()) == {TAKE, PASS}
    hand.apply(1, PASS)
    # Forehand declined: the EO holder is not asked; all play for themselves.
    assert hand.phase == "play" and public_view(hand).public["mode"] == "alone"
    # Even with EO in the skat, forehand is asked.
    in_skat = make(["EA E10 EK E9 E8 E7 G7 G8 G9 H7", "GA G10 GK HA H10 HK H9 H8 SK S9",
                    "S8 S7 GO HO SO EU GU HU SU SA"], "EO S10", dealer=2, skat_to="forehand")
    assert in_skat.phase == "widow" and in_skat.to_move == 0
    # The seed's rule stays the default: the EO holder, wherever he sits.
    assert make(STRONG, SKAT, dealer=0).to_move == 2
