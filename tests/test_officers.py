"""Officers' Schafkopf (seed 004, "Two-Player Wendish Schafkopf"; RULINGS.md): the layout of
face-down and face-up cards, turning up, secrecy of the face-down cards, scoring, computer
players."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from deal import act as play
from deal import deal

from engine import (
    Hand,
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
from engine.cards import PACK_32, card, code
from engine.determinize import hand_from_view
from engine.view import PublicView

K = "officers"


def layout_hand(downs: list[str], ups: list[str], dealer: int = 1, **options: object) -> Hand:
    """Seat ``s`` has face-down ``downs[s]`` (piles 0-7) under face-up ``ups[s]``."""
    return deal(K, [f"{downs[s]} {ups[s]}" for s in range(2)], dealer, **options)


#: Dealer 1: seat 0 leads. Seat 0 shows the top trumps, seat 1 plain cards.
DOWNS = ["EA E10 EK E9 E8 E7 G8 G7", "HA H10 HK H9 H8 H7 G10 G9"]
UPS = ["EO GO HO SO EU GU HU SU", "SA S10 SK S9 S8 S7 GA GK"]


@pytest.mark.parametrize("dealer", (0, 1))
def test_deal_eight_face_down_then_eight_face_up_the_non_dealer_leads(dealer: int) -> None:
    hand = Hand(make_rules(K), dealer, PACK_32)
    nd = 1 - dealer
    assert hand.dealt[nd] == PACK_32[0:4] + PACK_32[8:12] + PACK_32[16:20] + PACK_32[24:28]
    assert hand.hands[nd] == list(PACK_32[16:20] + PACK_32[24:28])  # face-up only
    assert hand.to_move == nd and hand.phase == "play"
    v = public_view(hand)
    assert v.hand_sizes == (8, 8)
    assert [up for up, covered in v.public["layout"][nd]] == [code(c) for c in hand.hands[nd]]
    assert all(covered for row in v.public["layout"] for _, covered in row)


def test_only_face_up_cards_are_playable_and_the_card_under_turns_up() -> None:
    hand = layout_hand(DOWNS, UPS)
    assert sorted(code(a.value) for a in hand.legal_actions()) == sorted(UPS[0].split())
    play(hand, "EO")
    v = public_view(hand)
    assert v.public["layout"][0][0] == ["EA", False]      # turned up at once for the table
    assert v.public["piles"][0][0] == ["EO", "EA"]
    assert card("EA") not in seat_view(hand, 0).hand        # playable once the trick is over
    play(hand, "SA")                                       # seat 1 must follow trumps
    assert card("EA") in hand.hands[0] and card("HA") in hand.hands[1]
    assert public_view(hand).public["layout"][1][0] == ["HA", False]
    play(hand, "EA")
    assert hand.to_move == 1
    # Seat 1 has no acorns face up: any face-up card.
    assert {code(a.value) for a in hand.legal_actions()} == {
        "HA", "S10", "SK", "S9", "S8", "S7", "GA", "GK"}
    play(hand, "HA")
    assert public_view(hand).public["layout"][0][0] == [None, False]  # pile 0 is empty


def test_face_down_cards_are_in_no_view() -> None:
    hand = layout_hand(DOWNS, UPS)
    rng = random.Random(4)
    for _ in range(12):
        played = set(hand.played())
        covered = [down for seat in hand.pending["piles"] for down, up in seat
                   if up not in played]
        views: list[PublicView] = [public_view(hand), seat_view(hand, 0), seat_view(hand, 1)]
        for v in views:
            assert not set(covered) & {c for h in (v.unplayed or ()) for c in h}
            assert not set(covered) & set(getattr(v, "hand", ()))
            text = repr(v.public) + repr(v.tricks) + repr(v.trick) + repr(v.actions)
            for c in covered:
                assert f"'{code(c)}'" not in text
        seat = hand.to_move
        assert seat is not None
        hand.apply(seat, rng.choice(hand.legal_actions()))


def test_trumps_and_follow_suit_only() -> None:
    hand = layout_hand(DOWNS, UPS)
    order = hand.order
    assert order is not None
    assert " ".join(order.trumps_high_to_low(PACK_32)) == (
        "EO GO HO SO EU GU HU SU SA S10 SK S9 S8 S7")
    play(hand, "EO")
    # Seat 1 follows trumps with a bell, any of them.
    assert {code(a.value) for a in hand.legal_actions()} == {"SA", "S10", "SK", "S9", "S8", "S7"}


def oracle(hand: Hand) -> list[int]:
    pts = [0, 0]
    took = [False, False]
    for t in hand.tricks:
        pts[t.winner] += sum(hand.rules.points[c] for c in t.cards)
        took[t.winner] = True
    for w in (0, 1):
        if pts[w] >= 61:
            v = 1 + (pts[1 - w] < 30) + (not took[1 - w])
            return [v, -v] if w == 0 else [-v, v]
    return [0, 0]


@pytest.mark.parametrize("seed", range(60))
def test_random_hands_finish_score_and_replay(seed: int) -> None:
    hand = Match(make_rules(K, {"early_end": False}), seed=seed).deal()
    rng = random.Random(seed)
    while not hand.finished:
        seat = hand.to_move
        assert seat is not None
        hand.apply(seat, rng.choice(hand.legal_actions()))
    r = hand.result
    assert r is not None
    assert len(hand.tricks) == 16 and sum(r.points) == 120
    assert r.extra["scores"] == oracle(hand)
    assert r.next_dealer == 1 - hand.dealer
    assert r.event == ("draw" if r.team is None else "schwarz" if r.extra["schwarz"]
                       else "schneider" if r.extra["schneider"] else "won")
    assert replay(to_record(hand)).result == r


def test_early_end_shows_the_cards_left_face_down() -> None:
    for seed in range(40):
        hand = Match(make_rules(K), seed=seed).deal()
        rng = random.Random(seed)
        while not hand.finished:
            seat = hand.to_move
            assert seat is not None
            hand.apply(seat, rng.choice(hand.legal_actions()))
        v = public_view(hand)
        assert v.unplayed is not None
        left = {c for h in v.unplayed for c in h}
        assert left | set(hand.played()) == set(PACK_32)
        assert hand.result is not None and hand.result.extra["scores"] == oracle(hand)


def test_outcome_draw_at_60_and_schneider_under_30() -> None:
    rules = make_rules(K)
    assert rules.outcome(Status(), (60, 60)) == (None, 0)
    assert rules.outcome(Status(), (61, 59)) == (0, 1)
    assert rules.outcome(Status(), (29, 91)) == (1, 2)
    assert rules.outcome(Status(), (30, 90)) == (1, 1)


def test_match_of_deals() -> None:
    rules = make_rules(K, {"deals": 2, "early_end": False})
    match = Match(rules, seed=1, dealer=0)
    for k in range(2):
        hand = match.deal()
        rng = random.Random(k)
        while not hand.finished:
            seat = hand.to_move
            assert seat is not None
            hand.apply(seat, rng.choice(hand.legal_actions()))
        r = match.record_result(hand)
    assert "match_winner" in r.extra and r.status == Status()
    with pytest.raises(RecordError):
        make_rules(K, {"deals": 3})


@pytest.mark.parametrize("seed", range(6))
def test_determinize_guesses_only_the_face_down_cards(seed: int) -> None:
    hand = Match(make_rules(K), seed=seed).deal()
    rng = random.Random(seed)
    for _ in range(seed * 3 + 1):
        seat = hand.to_move
        assert seat is not None
        hand.apply(seat, rng.choice(hand.legal_actions()))
    view = seat_view(hand, hand.to_move or 0)
    rules = view.rules
    for k in range(4):
        guess = rules.determinize(view, {9: [k]})
        assert guess is not None
        assert seat_view(guess, view.seat) == view
        assert hand_from_view(view, {}).pending["piles"] is not None
        # The face-up cards lie where they lie; only covered cards may differ.
        for s in range(2):
            for (d1, u1), (d2, u2) in zip(hand.pending["piles"][s], guess.pending["piles"][s],
                                          strict=True):
                assert u1 == u2
                if u1 in hand.played():
                    assert d1 == d2


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_computer_players_play_whole_hands(level: str) -> None:
    """Every level finishes hands at its own settings (the exact endgame counts the face-down
    cards too, so it does not start with half the pack still out)."""
    match = Match(make_rules(K), seed=7)
    player = make_player(level, seed=3, timed=False)
    if level != "easy":
        player.samples = 4  # type: ignore[attr-defined]
    for _ in range(2):
        hand = match.deal()
        while not hand.finished:
            seat = hand.to_move
            assert seat is not None
            action = player.choose(seat_view(hand, seat))
            assert action in hand.legal_actions()
            hand.apply(seat, action)
        match.record_result(hand)


def test_early_end_at_60_60_when_no_point_is_left_out() -> None:
    # Seat 0 shows the top trumps and wins; seat 1 takes the rest. Built so that after 15
    # tricks both have 60 and the last trick (G8, E7) holds no points: a settled draw.
    golden = Path(__file__).parent / "golden" / "officers_settled_draw_60_60.json"
    record = json.loads(golden.read_text(encoding="utf-8"))["record"]
    hand = replay({**record, "actions": record["actions"][:-2]})
    assert not hand.finished and hand.team_taken == [57, 60]
    replayed = replay(record)
    assert replayed.finished and replayed.result is not None and replayed.result.early
    assert list(replayed.result.points) == [60, 60]
    assert replayed.result.event == "draw"
    assert sorted(code(c) for h in replayed.hands for c in h) == ["E7", "G8"]
    # Without early_end the last trick is still played.
    late = replay({**record, "options": {"early_end": False}})
    assert not late.finished and late.to_move is not None
