"""Filkó with Hats (RULINGS.md, "Hungarian multi-player variants": Filkó with Hats): 4-player
Filkó scored in card points (61+ wins, 60-60 a draw), hats on the losers until they win, and
the partner signal (one of four faces, seen by the whole table).

Card points of the hand-worked deals (conftest's ``DEAL_D``, trump hearts; A 11, 10 10, K 4,
O 3, U 2), worked out by hand:

- tricks 1-5 of ``D_OPENING`` all go to L: EO G9 SK H9 = 7, GO GU SU H8 = 7, HO GK S9 H7 = 7,
  SO E9 S8 HU = 5, HA E8 E7 HK = 15: LN 41;
- ``D_DM_6_2``: trick 6 H10 EU S7 EK = 16 to L (LN 57); M wins G8 GA S10 EA = 32 and
  G10 SA E10 G7 = 31: DM 63, LN 57;
- ``D_4_4``: trick 6 H10 EU SA E10 = 33 to L: LN 74 after six tricks (DM then take 32 + 14).
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import D_4_4, D_DM_6_2, DEAL_D, snapshot
from deal import act as play
from deal import act_while_open, deal
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    EVEN,
    Action,
    Hand,
    IllegalAction,
    Match,
    ReplayError,
    Status,
    make_rules,
    public_view,
    replay,
    report,
    seat_view,
    to_record,
)
from engine.ai import make_player
from engine.cards import CARD_POINTS, PACK_32
from engine.rules.base import Rules
from engine.rules.hats import FilkoHats

K = "filko_hats"
GOLDEN = Path(__file__).parent / "golden"


def hats_hand(dealer: int = 0, status: Status = EVEN, **options: Any) -> Hand:
    """``DEAL_D`` dealt as in 4-player Filkó (4 and 4, the shown card at the bottom)."""
    return deal(K, DEAL_D, dealer, status, **options)


def signal(suit: str) -> Action:
    return Action("signal", "EGHS".index(suit))


def draw_record() -> dict[str, Any]:
    """A whole hand that ends 60-60 (dealer 0, trump leaves), hand-checked in its golden."""
    golden = json.loads((GOLDEN / "filko_hats_draw.json").read_text(encoding="utf-8"))
    return dict(golden["record"])


# -- scoring -------------------------------------------------------------------------------------


def test_card_points_and_thresholds() -> None:
    rules = make_rules(K)
    assert rules.players == 4 and rules.pack == PACK_32
    assert rules.points == CARD_POINTS and sum(CARD_POINTS) == rules.total_points == 120
    assert isinstance(rules, FilkoHats) and rules.win_points == 61


@pytest.mark.parametrize(("status", "points", "new"), [
    (EVEN, (61, 59), Status(0, -1)),
    (EVEN, (59, 61), Status(1, -1)),
    (EVEN, (60, 60), EVEN),
    (Status(0, 1), (60, 60), Status(0, 1)),
    (Status(0, 1), (120, 0), Status(0, 1)),
    (Status(0, 1), (59, 61), Status(1, 2)),
    (Status(1, 2), (61, 59), Status(0, 3)),
])
def test_61_wins_and_60_60_is_a_draw(status: Status, points: tuple[int, int],
                                     new: Status) -> None:
    rules = make_rules(K)
    assert isinstance(rules, FilkoHats)
    assert rules.new_status(status, points) == new  # servant -1: the winners still choose


def test_first_win_puts_hats_on_the_losers_and_the_winners_choose_a_servant() -> None:
    hand = hats_hand(dealer=0, early_end=False)
    assert public_view(hand).public["hats"] is None
    play(hand, D_DM_6_2)
    assert hand.team_points() == [63, 57]
    assert hand.phase == "servant" and hand.actors() == [0, 2]
    hand.apply(2, Action("servant", 1))
    r = hand.result
    assert r is not None
    assert (r.status, r.event, r.team, r.next_dealer) == (Status(0, 1), "hats_on", 0, 1)
    assert r.extra == {"hats": 1}
    assert public_view(hand).public["hats"] == 1


def test_early_end_once_a_team_has_61() -> None:
    hand = hats_hand(dealer=0)
    n = act_while_open(hand, D_4_4)
    assert n == 24 and hand.team_points() == [0, 74]  # LN (seats 1, 3) after trick 6
    assert hand.phase == "servant" and hand.actors() == [1, 3]
    hand.apply(3, Action("servant", 0))
    r = hand.result
    assert r is not None and r.early
    assert (r.status, r.event, r.team, r.next_dealer) == (Status(1, 0), "hats_on", 1, 0)


def test_masters_winning_again_keep_the_hats_on_the_others() -> None:
    # Dealer 3, the Servant; LN are seats 0 and 2, the masters.
    hand = hats_hand(dealer=3, status=Status(0, 3))
    assert public_view(hand).public["hats"] == 1
    act_while_open(hand, D_4_4)
    r = hand.result
    assert r is not None and r.early and hand.finished
    assert (list(r.points), r.status, r.event, r.team, r.next_dealer) == (
        [74, 0], Status(0, 3), "hats_stay", 0, 3)
    assert r.extra == {"hats": 1}


def test_the_hat_team_winning_takes_the_hats_off() -> None:
    # Dealer 2, the Servant: DM (seats 2 and 0) wear hats and take 63.
    hand = hats_hand(dealer=2, status=Status(1, 2))
    assert public_view(hand).public["hats"] == 0
    act_while_open(hand, D_DM_6_2)
    r = hand.result
    assert r is not None and hand.finished and not r.early
    assert (list(r.points), r.status, r.event, r.team, r.next_dealer) == (
        [63, 57], Status(0, 3), "hats_off", 0, 3)
    assert r.extra == {"hats": 1}
    assert public_view(hand).public["hats"] == 1


@pytest.mark.parametrize(("status", "dealer"), [(EVEN, 1), (Status(1, 0), 0)])
def test_60_60_is_a_draw(status: Status, dealer: int) -> None:
    rec = draw_record()
    rec["status"] = status.to_json()
    hand = replay(rec)
    r = hand.result
    assert r is not None and not r.early
    assert (list(r.points), r.status, r.event, r.team, r.next_dealer) == (
        [60, 60], status, "draw", None, dealer)


def test_masters_on_60_play_on_a_win_is_not_a_draw() -> None:
    """The generic early end compares statuses only: for masters, a 60-60 draw and a win
    keep the same status. Hats compares the winner too, so play goes on at 60."""
    rules = make_rules(K)
    for status in (EVEN, Status(0, 1), Status(1, 0)):
        table = rules._fixed_table(status)
        assert not table[60][0] and not table[60][59] and not table[0][60]
        assert table[61][0] and table[0][61] and table[60][60] and table[61][59]


@pytest.mark.slow
def test_the_early_end_table_is_the_generic_one_and_quick() -> None:
    fresh = FilkoHats(make_rules(K).options)
    for status in (EVEN, Status(0, 1), Status(1, 2)):
        generic = Rules._fixed_table(fresh, status)
        fresh._fixed.clear()
        t = time.perf_counter()
        assert fresh._fixed_table(status) == generic
        assert time.perf_counter() - t < 0.1
        fresh._fixed.clear()


# -- signals -------------------------------------------------------------------------------------


def test_any_seat_may_signal_during_play_in_turn_or_not() -> None:
    hand = hats_hand(dealer=0)
    assert hand.to_move == 1
    for seat in range(4):
        assert hand.free_actions(seat) == tuple(signal(s) for s in "EGHS")
        assert seat_view(hand, seat).free == hand.free_actions(seat)
    legal = hand.legal_actions()
    hand.apply(3, signal("H"))  # out of turn
    hand.apply(1, signal("S"))  # the seat to play, before it plays
    assert hand.to_move == 1 and hand.legal_actions() == legal
    assert hand.actions == [(3, signal("H")), (1, signal("S"))]
    info = public_view(hand).public
    assert info["signals"] == [[3, "H"], [1, "S"]]
    assert info["last_signal"] == [None, "S", None, "H"]
    assert [a for _, a in public_view(hand).actions] == [signal("H"), signal("S")]


def test_one_signal_per_seat_per_trick() -> None:
    hand = hats_hand(dealer=0)
    hand.apply(2, signal("E"))
    assert hand.free_actions(2) == ()
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as e:
        hand.apply(2, signal("G"))
    assert e.value.reason == "already_signalled"
    assert snapshot(hand) == before
    play(hand, "EO G9")
    with pytest.raises(IllegalAction):
        hand.apply(2, signal("G"))
    play(hand, "SK H9")  # trick 1 is over: a new trick, a new signal
    assert public_view(hand).public["signals"] == []
    assert public_view(hand).public["last_signal"] == [None, None, "E", None]
    hand.apply(2, signal("G"))
    assert public_view(hand).public["signals"] == [[2, "G"]]
    assert public_view(hand).public["last_signal"] == [None, None, "G", None]


def test_no_signal_outside_play() -> None:
    hand = hats_hand(dealer=0, early_end=False)
    play(hand, D_DM_6_2)
    assert hand.phase == "servant"
    for seat in range(4):
        assert hand.free_actions(seat) == ()
    with pytest.raises(IllegalAction) as e:
        hand.apply(1, signal("H"))
    assert e.value.reason == "no_signal_now"
    hand.apply(0, Action("servant", 3))
    with pytest.raises(IllegalAction) as e:
        hand.apply(1, signal("H"))
    assert e.value.reason == "hand_over"


@pytest.mark.parametrize(("seat", "action", "reason"), [
    (4, signal("H"), "no_such_seat"),
    (0, Action("signal", 7), "bad_signal"),
])
def test_bad_signals_are_refused(seat: int, action: Action, reason: str) -> None:
    hand = hats_hand(dealer=0)
    with pytest.raises(IllegalAction) as e:
        hand.apply(seat, action)
    assert e.value.reason == reason


def test_signals_are_part_of_the_record() -> None:
    hand = hats_hand(dealer=0)
    hand.apply(2, signal("H"))
    play(hand, "EO")
    hand.apply(0, signal("S"))
    rec = to_record(hand)
    assert rec["actions"] == [{"seat": 2, "signal": "H"}, {"seat": 1, "card": "EO"},
                              {"seat": 0, "signal": "S"}]
    again = replay(json.loads(json.dumps(rec)))
    assert report(again) == report(hand)
    assert public_view(again).public == public_view(hand).public
    rec["actions"].append({"seat": 0, "signal": "X"})
    with pytest.raises(ReplayError) as e:
        replay(rec)
    assert e.value.reason == "bad_action" and e.value.action == 3
    rec["actions"][-1] = {"seat": 0, "signal": "E"}
    with pytest.raises(ReplayError) as e:
        replay(rec)
    assert e.value.reason == "already_signalled"


def test_other_games_refuse_signals() -> None:
    hand = Hand(make_rules("filko"), 0, PACK_32)
    with pytest.raises(IllegalAction):
        hand.apply(2, signal("H"))


# -- secrets -------------------------------------------------------------------------------------


def test_views_show_no_hidden_card() -> None:
    hand = hats_hand(dealer=0)
    hand.apply(3, signal("G"))
    play(hand, "EO G9")
    pv = public_view(hand)
    names = {f.name for f in dataclasses.fields(pv)}
    assert not names & {"hand", "hands", "dealt", "pack"}
    assert set(pv.public) == {"hats", "signals", "last_signal"}
    assert pv.public["signals"] == [[3, "G"]]
    for seat in range(4):
        view = seat_view(hand, seat)
        assert sorted(view.hand) == sorted(hand.hands[seat])
        assert view.private == {} and view.public == pv.public


# -- random play (property) ----------------------------------------------------------------------


def model_event(status: Status, p: list[int]) -> tuple[str, int | None]:
    if p[0] == p[1] == 60:
        return "draw", None
    winner = 0 if p[0] >= 61 else 1
    if status.masters is None:
        return "hats_on", winner
    return ("hats_stay" if status.masters == winner else "hats_off"), winner


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3),
       status=st.sampled_from([EVEN, Status(0, 1), Status(0, 3), Status(1, 0), Status(1, 2)]),
       early_end=st.booleans(), signals=st.floats(0, 0.5))
def test_random_play_with_signals_always_finishes(seed: int, dealer: int, status: Status,
                                                   early_end: bool, signals: float) -> None:
    rng = random.Random(seed)
    pack = list(PACK_32)
    rng.shuffle(pack)
    if status.servant is not None:
        dealer = status.servant  # the Servant deals while masters stand
    hand = Hand(make_rules(K, {"early_end": early_end}), dealer, pack, status)
    for _ in range(200):
        if hand.finished:
            break
        if rng.random() < signals:
            seat = rng.randrange(4)
            free = hand.free_actions(seat)
            if free:
                hand.apply(seat, rng.choice(free))
            continue
        seat = rng.choice(hand.actors())
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    r = hand.result
    assert r is not None and hand.finished
    p = list(r.points)
    if not early_end:
        assert sum(p) == 120 and not r.early
    else:
        assert max(p) >= 61 or p == [60, 60]
    assert (r.event, r.team) == model_event(status, p)
    assert r.status.masters == (status.masters if r.event == "draw" else r.team)
    assert r.extra == {"hats": None if r.status.masters is None else 1 - r.status.masters}
    again = replay(to_record(hand))
    assert report(again) == report(hand) and again.result == hand.result


# -- computer players ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_computer_players_play_whole_hands_with_signals_at_the_table(level: str) -> None:
    """Computers ignore signals, but hands full of them (rebuilt for the search from the
    public actions, signals included) must not trouble them."""
    rules = make_rules(K)
    players = [make_player(level, seed=s, timed=False) for s in range(4)]
    if level == "hard":
        for p in players:
            p.samples = 12  # type: ignore[attr-defined]
    match = Match(rules, seed=4)
    rng = random.Random(level)
    for _ in range(3 if level == "hard" else 5):
        hand = match.deal()
        while not hand.finished:
            seat = rng.randrange(4)
            free = hand.free_actions(seat)
            if free and rng.random() < 0.3:
                hand.apply(seat, rng.choice(free))
            seat = hand.actors()[0]
            view = seat_view(hand, seat)
            action = players[seat].choose(view)
            assert action in view.legal
            hand.apply(seat, action)
        assert match.record_result(hand).event in ("hats_on", "hats_stay", "hats_off", "draw")


def test_a_hand_with_signals_is_rebuilt_for_the_search() -> None:
    from engine.determinize import hand_from_view
    from engine.inference import infer, sample

    hand = hats_hand(dealer=0)
    hand.apply(3, signal("H"))
    play(hand, "EO G9")
    hand.apply(1, signal("G"))
    play(hand, "SK H9 GO")
    hand.apply(0, signal("E"))
    seat = hand.actors()[0]
    view = seat_view(hand, seat)
    for i in range(5):
        guess = hand_from_view(view, sample(infer(view), random.Random(i)))
        assert seat_view(guess, seat) == view
