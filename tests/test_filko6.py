"""6-player Filkó (RULINGS.md, "Hungarian multi-player variants": 6 players; "Top trumps"):
two teams of three in alternate seats, 30 cards dealt 3 then 2, trump from the cut, status and
the Servant as in four players.

The dealing order and a small model of the play are written here from RULINGS.md, on card
codes, independently of the engine's tables; the hand-worked deal is laid out by tests/deal.py.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from conftest import snapshot
from deal import act as play
from deal import deal
from hypothesis import given, settings
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
from engine.cards import PACK_30, card, code, codes

K = "filko6"
RANKS = ["A", "10", "K", "O", "U", "9", "8", "7"]
CODES30 = [s + r for s in "EGHS" for r in RANKS if s + r not in ("G7", "S7")]
TOPS = {
    "standard": ["EO", "GO", "HO", "SO"],
    "hearts_seven": ["H7", "E7", "EO", "GO", "HO", "SO"],
    "leaves_low": ["EO", "HO", "SO", "GO"],
}


# -- dealing, from RULINGS: 3 each then 2 each, starting after the dealer ---------------------


def deal_order(dealer: int) -> list[int]:
    first = [(dealer + 1 + i // 3) % 6 for i in range(18)]
    second = [(dealer + 1 + i // 2) % 6 for i in range(12)]
    return first + second


#: Dealer 5; the dealer's last card H9 lies at the bottom: trump hearts. Seat 0 leads four
#: Overs; team 0 (seats 0, 2, 4) takes H10 HA S10 in tricks 1-3, E10 SA G10 in trick 4 (6);
#: seat 5 trumps the acorn lead of trick 5 and takes EA GA (2).
DEAL = [
    "EO GO HO SO E7",
    "EA E10 G9 G8 S9",
    "HA H10 GA SA S10",
    "EK EU E9 E8 GU",
    "G10 GK SK SU S8",
    "H8 H7 HU HK H9",
]
SCRIPT_6_2 = ("EO G8 H10 E8 S8 H7 | GO G9 HA E9 SU H8 | HO S9 S10 EU SK HU"
              " | SO E10 SA EK G10 H9 | E7 EA GA GU GK HK")


def servant(s: int) -> Action:
    return Action("servant", s)


# -- seats, pack and deal ----------------------------------------------------------------------


def test_two_teams_of_three_in_alternate_seats() -> None:
    rules = make_rules(K)
    assert rules.players == 6
    assert rules.seat_teams == (0, 1, 0, 1, 0, 1)
    assert sorted(codes(rules.pack)) == sorted(CODES30)
    assert "G7" not in codes(rules.pack) and "S7" not in codes(rules.pack)
    assert rules.total_points == 8


@pytest.mark.parametrize("dealer", range(6))
def test_dealt_three_then_two(dealer: int) -> None:
    hand = Hand(make_rules(K), dealer, PACK_30)
    for k in range(6):
        seat = (dealer + 1 + k) % 6
        assert hand.dealt[seat] == PACK_30[3 * k:3 * k + 3] + PACK_30[18 + 2 * k:20 + 2 * k]
    assert [len(h) for h in hand.hands] == [5] * 6
    assert hand.to_move == (dealer + 1) % 6


@pytest.mark.parametrize("dealer", range(6))
def test_shown_cards_land_with_either_team(dealer: int) -> None:
    """The cut shows the bottom card, then the next one up while it is an Over. The last two
    cards of the pack are the dealer's, the two above the seat before the dealer's (an
    opponent), the next the dealer's partner's two seats back."""
    rest = [c for c in CODES30 if c not in ("EO", "GO", "HO", "SO", "G8")]
    pack = [card(c) for c in [*rest, "G8", "HO", "SO", "GO", "EO"]]
    hand = Hand(make_rules(K), dealer, pack)
    assert codes(hand.shown) == ["EO", "GO", "SO", "HO", "G8"]
    assert "EGHS"[hand.trump] == "G"
    before, partner = (dealer - 1) % 6, (dealer - 2) % 6
    holders = dict(public_view(hand).shown_held)
    assert [holders[card(c)] for c in ("EO", "GO", "SO", "HO", "G8")] == [
        dealer, dealer, before, before, partner]
    assert hand.team[dealer] != hand.team[before] and hand.team[dealer] == hand.team[partner]


def test_one_shown_card_goes_to_the_dealer() -> None:
    hand = deal(K, DEAL, 5)
    assert codes(hand.shown) == ["H9"] and "EGHS"[hand.trump] == "H"
    assert public_view(hand).shown_held == ((card("H9"), 5),)


# -- top trumps ----------------------------------------------------------------------------------


@pytest.mark.parametrize("option", sorted(TOPS))
def test_top_trumps_for_six_players(option: str) -> None:
    hand = Hand(make_rules(K, {"top_trumps": option}), 0, PACK_30)
    assert hand.order is not None
    assert codes(hand.order.permanent) == TOPS[option]


def test_hearts_seven_puts_h7_and_e7_above_the_overs() -> None:
    hand = deal(K, DEAL, 5, top_trumps="hearts_seven")
    # H7 (seat 5) beats EO; E7 is a trump, so seat 0 leading it draws trumps.
    play(hand, "EO G8 H10 E8 S8 H7")
    assert hand.tricks[0].winner == 5
    assert hand.order is not None and hand.order.beats(card("E7"), card("EO"))
    assert not hand.order.beats(card("E7"), card("H7"))


def test_a_shown_seven_of_acorns_makes_acorns_trump_under_hearts_seven() -> None:
    pack = [c for c in PACK_30 if c != card("E7")] + [card("E7")]
    hand = Hand(make_rules(K, {"top_trumps": "hearts_seven"}), 2, pack)
    assert codes(hand.shown) == ["E7"] and "EGHS"[hand.trump] == "E"


# -- results and the Servant ---------------------------------------------------------------------


def test_six_points_make_masters_and_any_of_the_three_chooses_the_servant() -> None:
    hand = deal(K, DEAL, 5, early_end=False)
    play(hand, SCRIPT_6_2)
    assert hand.team_points() == [6, 2]
    assert hand.phase == "servant" and hand.actors() == [0, 2, 4]
    for seat in (0, 2, 4):
        assert hand.legal_actions(seat) == (servant(1), servant(3), servant(5))
    for seat in (1, 3, 5):
        assert hand.legal_actions(seat) == ()
    hand.apply(4, servant(3))
    r = hand.result
    assert r is not None and hand.finished
    assert (r.status, r.event, r.team, r.next_dealer) == (Status(0, 3), "masters", 0, 3)


@pytest.mark.parametrize(("seat", "action", "reason"), [
    (1, servant(3), "not_your_turn"),
    (5, servant(1), "not_your_turn"),
    (4, servant(2), "servant_not_opponent"),
    (0, servant(6), "servant_not_opponent"),
    (2, Action("card", card("GA")), "wrong_phase"),
])
def test_servant_choice_refusals(seat: int, action: Action, reason: str) -> None:
    hand = deal(K, DEAL, 5, early_end=False)
    play(hand, SCRIPT_6_2)
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as e:
        hand.apply(seat, action)
    assert e.value.reason == reason
    assert snapshot(hand) == before


def test_early_end_with_masters_once_the_servant_team_cannot_reach_six() -> None:
    # Team 0 masters, seat 5 the Servant dealing: after trick 3 team 0 has 3 points and
    # team 1 can take at most the 5 left: nothing can change.
    hand = deal(K, DEAL, 5, status=Status(0, 5))
    first_three = "|".join(SCRIPT_6_2.split("|")[:3])
    play(hand, first_three)
    r = hand.result
    assert r is not None and r.early and hand.finished
    assert (list(r.points), r.status, r.event, r.next_dealer) == (
        [3, 0], Status(0, 5), "no_change", 5)
    assert public_view(hand).unplayed is not None


#: With the Servant (team 0) dealing, plays in which team 0 takes all 8.
SERVANT_DEALS_8_0 = {
    0: "E10 S10 EK SK HK HO | SO EA SA EU G10 H7 | EO G8 HA E9 S8 H9 | GO G9 GA E8 GK HU"
       " | E7 S9 H10 GU SU H8",
    2: "EU S8 HK E7 EA S10 | SA GU SU H9 EO S9 | GO G9 HA E8 SK H7 | SO G8 GA EK GK HU"
       " | HO E10 H10 E9 G10 H8",
    4: "H8 SO S9 H10 EU S8 | E7 E10 S10 EK SU HK | GA GU G10 H7 GO G8 | EO G9 SA E8 SK HU"
       " | HO EA HA E9 GK H9",
}


@pytest.mark.parametrize(("old", "new"), [(0, 1), (2, 3), (4, 5)])
def test_the_servant_team_taking_six_frees_it_and_the_next_seat_serves(old: int,
                                                                       new: int) -> None:
    # Team 1 masters with Servant ``old`` (team 0), who deals; team 0 takes 6 or more.
    hand = deal(K, DEAL, dealer=old, status=Status(1, old), early_end=False)
    play(hand, SERVANT_DEALS_8_0[old])
    r = hand.result
    assert r is not None and hand.finished  # no new choice
    assert list(r.points) == [8, 0]
    assert (r.status, r.event, r.team, r.next_dealer) == (Status(0, new), "liberated", 0, new)


def test_under_six_changes_nothing() -> None:
    # The same deal, the Servant (seat 2) dealing: 5-3 for team 0 (the servants).
    hand = deal(K, DEAL, dealer=2, status=Status(1, 2), early_end=False)
    play(hand, "GU GK HU EO G8 GA | GO S9 S10 E9 SU H7 | HO G9 SA EK SK HK | SO EA HA EU S8 H8"
               " | E7 E10 H10 E8 G10 H9")
    r = hand.result
    assert r is not None
    assert (list(r.points), r.status, r.event, r.next_dealer) == (
        [5, 3], Status(1, 2), "no_change", 2)


@pytest.mark.parametrize("status", [
    Status(masters=0), Status(servant=1), Status(0, 2), Status(1, 3), Status(0, 6),
    Status(0, 4), Status(1, 5),
])
def test_inconsistent_status_is_refused(status: Status) -> None:
    with pytest.raises(RecordError):
        Hand(make_rules(K), 0, PACK_30, status)


def test_before_any_masters_the_deal_passes_on_and_the_servant_deals_after() -> None:
    rules = make_rules(K)
    assert rules.next_dealer(EVEN, 5) == 0
    assert rules.next_dealer(Status(0, 3), 5) == 3
    assert rules.first_dealer(Status(1, 4), random.Random(0)) == 4


# -- secrets -------------------------------------------------------------------------------------


def test_views_hide_the_other_hands() -> None:
    hand = deal(K, DEAL, 5)
    play(hand, "EO G8 H10")
    pv = public_view(hand)
    names = {f.name for f in dataclasses.fields(pv)}
    assert not names & {"hand", "hands", "dealt", "pack"}
    assert pv.shown_held == ((card("H9"), 5),)
    assert pv.public == {}
    for seat in range(6):
        view = seat_view(hand, seat)
        assert sorted(view.hand) == sorted(hand.hands[seat])
        assert view.private == {}


# -- random play (property) ----------------------------------------------------------------------


@dataclasses.dataclass
class Model:
    tops: list[str]
    trump: str = ""

    def follows(self, c: str) -> str:
        return "T" if c in self.tops or c[0] == self.trump else c[0]

    def legal(self, held: list[str], trick: list[str]) -> set[str]:
        if not trick:
            return set(held)
        led = self.follows(trick[0])
        return ({c for c in held if self.follows(c) == led}
                or {c for c in held if self.follows(c) == "T"} or set(held))

    def winner(self, trick: list[str]) -> int:
        led = self.follows(trick[0])

        def power(c: str) -> int:
            if c in self.tops:
                return 300 - self.tops.index(c)
            if c[0] == self.trump:
                return 200 - RANKS.index(c[1:])
            return 100 - RANKS.index(c[1:]) if c[0] == led else 0

        powers = [power(c) for c in trick]
        return powers.index(max(powers))


def model_status(status: Status, p: list[int]) -> Any:
    for t in (0, 1):
        if p[t] >= 6:
            if status.masters is None:
                return ("choose", t)
            if status.masters == t:
                return status
            assert status.servant is not None
            return Status(t, (status.servant + 1) % 6)
    return status


STATUSES = [EVEN, Status(0, 1), Status(0, 5), Status(1, 0), Status(1, 4)]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 5), status=st.sampled_from(STATUSES),
       option=st.sampled_from(sorted(TOPS)), early_end=st.booleans())
def test_random_legal_play_follows_the_rules(seed: int, dealer: int, status: Status,
                                             option: str, early_end: bool) -> None:
    rng = random.Random(seed)
    pack = list(CODES30)
    rng.shuffle(pack)
    if rng.random() < 0.5:  # runs of Overs at the bottom, shown cards spread over seats
        for spot, over in zip((29, 28, 27, 26), rng.sample(TOPS["standard"], rng.randint(1, 4)),
                              strict=False):
            j = pack.index(over)
            pack[spot], pack[j] = pack[j], pack[spot]
    if status.servant is not None:
        dealer = status.servant  # the Servant deals while masters stand
    hand = Hand(make_rules(K, {"top_trumps": option, "early_end": early_end}), dealer,
                [card(c) for c in pack], status)
    order = deal_order(dealer)
    held = [[pack[i] for i, s in enumerate(order) if s == seat] for seat in range(6)]
    assert [codes(h) for h in hand.dealt] == held
    shown = []
    for c in reversed(pack):
        shown.append(c)
        if c[1:] != "O":
            break
    assert codes(hand.shown) == shown
    model = Model(TOPS[option], shown[-1][0])
    leader = (dealer + 1) % 6
    points = [0, 0]
    tricks = 0
    while hand.phase == "play":
        trick: list[str] = []
        for k in range(6):
            seat = (leader + k) % 6
            assert hand.to_move == seat
            legal = model.legal(held[seat], trick)
            assert {code(a.value) for a in hand.legal_actions()} == legal
            c = rng.choice(sorted(legal))
            hand.apply(seat, Action("card", card(c)))
            held[seat].remove(c)
            trick.append(c)
        winner = (leader + model.winner(trick)) % 6
        assert hand.tricks[-1].winner == winner
        points[winner % 2] += sum(1 for c in trick if c[1:] in ("A", "10"))
        leader = winner
        tricks += 1
        left = 8 - sum(points)
        settled = len({model_status(status, [points[0] + x, points[1] + left - x])
                       for x in range(left + 1)}) == 1
        assert (hand.phase == "play") == (tricks < 5 and not (early_end and settled))
    assert hand.team_points() == points
    if not early_end:
        assert tricks == 5 and sum(points) == 8
    expected = model_status(status, points)
    if isinstance(expected, tuple):
        masters = expected[1]
        assert hand.phase == "servant" and hand.actors() == [masters, masters + 2, masters + 4]
        s = rng.choice([1 - masters, 3 - masters, 5 - masters])
        hand.apply(rng.choice(hand.actors()), servant(s))
        expected = Status(masters, s)
    r = hand.result
    assert r is not None and hand.finished
    assert r.status == expected
    assert r.next_dealer == ((dealer + 1) % 6 if expected.servant is None else expected.servant)
    again = replay(to_record(hand))
    assert report(again) == report(hand) and again.result == hand.result


# -- computer players ----------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_computer_players_play_whole_hands(level: str) -> None:
    rules = make_rules(K)
    players = [make_player(level, seed=s, timed=False) for s in range(6)]
    if level == "hard":
        for p in players:
            p.samples = 12  # type: ignore[attr-defined]
    match = Match(rules, seed=11)
    events = []
    for _ in range(3 if level == "hard" else 6):
        hand = match.deal()
        while not hand.finished:
            seat = hand.actors()[0]
            view = seat_view(hand, seat)
            action = players[seat].choose(view)
            assert action in view.legal
            hand.apply(seat, action)
        events.append(match.record_result(hand).event)
    assert all(e in ("masters", "stay_masters", "liberated", "no_change") for e in events)


@pytest.mark.parametrize("seed", range(8))
def test_guesses_of_the_hidden_hands_rebuild_the_view(seed: int) -> None:
    from engine.determinize import hand_from_view
    from engine.inference import infer, sample

    rng = random.Random(seed)
    hand = Match(make_rules(K), seed=seed).deal()
    for _ in range(rng.randrange(0, 25)):
        if hand.play_over:
            break
        hand.apply(hand.actors()[0], rng.choice(hand.legal_actions()))
    if hand.finished:
        return
    seat = hand.actors()[0]
    view = seat_view(hand, seat)
    for i in range(4):
        guess = hand_from_view(view, sample(infer(view), random.Random(i)))
        assert seat_view(guess, seat) == view
