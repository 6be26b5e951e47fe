"""Property tests: random deals, dealers, statuses and options, random legal play.

Every check is made against a small model of the rules written here from RULINGS.md, working
on card codes, not against the engine's own tables.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from conftest import ALL_CODES, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Action,
    Hand,
    IllegalAction,
    PublicView,
    SeatView,
    Status,
    make_rules,
    public_view,
    replay,
    report,
    seat_view,
    to_record,
)
from engine.cards import card, code

RANKS = ["A", "10", "K", "O", "U", "9", "8", "7"]


def deal_order(game: str, dealer: int) -> list[int]:
    """The seat each pack index is dealt to (RULINGS.md), written out independently of the
    engine: Filicău one card at a time, Filkó four at a time twice round; both start with the
    seat after the dealer."""
    if game == "filicau":
        return [(dealer + 1 + i) % 4 for i in range(32)]
    if game == "filko":
        return [(dealer + 1 + (i % 16) // 4) % 4 for i in range(32)]
    raise ValueError(game)


TOPS = {
    "standard": ["EO", "GO", "HO", "SO"],
    "hearts_seven": ["H7", "EO", "GO", "HO", "SO"],
    "leaves_low": ["EO", "HO", "SO", "GO"],
}

STATUSES = {
    "filicau": [Status(), Status(0), Status(1)],
    "filko": [Status(), Status(0, 1), Status(0, 3), Status(1, 0), Status(1, 2)],
}


# -- the model -------------------------------------------------------------------------------


@dataclasses.dataclass
class Model:
    game: str
    tops: list[str]
    trump: str = ""

    def is_trump(self, c: str) -> bool:
        return c in self.tops or c[0] == self.trump

    def follows(self, c: str) -> str:
        """What ``c`` counts as for following suit: "T" for any trump, else its suit."""
        return "T" if self.is_trump(c) else c[0]

    def legal(self, held: list[str], trick: list[str]) -> set[str]:
        if not trick:
            return set(held)
        led = self.follows(trick[0])
        same = {c for c in held if self.follows(c) == led}
        if same:
            return same
        trumps = {c for c in held if self.is_trump(c)}
        return trumps or set(held)

    def strength(self, c: str, led: str) -> int:
        if c in self.tops:
            return 300 - self.tops.index(c)
        if c[0] == self.trump:
            return 200 - RANKS.index(c[1:])
        if c[0] == led:
            return 100 - RANKS.index(c[1:])
        return 0

    def winner(self, trick: list[str]) -> int:
        led = self.follows(trick[0])
        powers = [self.strength(c, led) for c in trick]
        return powers.index(max(powers))


def points_of(cards: list[str]) -> int:
    return sum(1 for c in cards if c[1:] in ("A", "10"))


def outcome(game: str, status: Status, p: list[int]) -> Any:
    """The status a final score [team 0, team 1] leads to ("choose" while a Servant is owed)."""
    if game == "filicau":
        if 8 in p:
            return Status()
        for t in (0, 1):
            if p[t] >= 6:
                return Status(t)
        return status
    for t in (0, 1):
        if p[t] >= 6:
            if status.masters is None:
                return ("choose", t)
            if status.masters == t:
                return status
            assert status.servant is not None
            return Status(t, (status.servant + 1) % 4)
    return status


def settled(game: str, status: Status, p: list[int]) -> bool:
    left = 8 - sum(p)
    return len({outcome(game, status, [p[0] + x, p[1] + left - x]) for x in range(left + 1)}) == 1


def next_dealer(game: str, status: Status, dealer: int) -> int:
    if game == "filko":
        return (dealer + 1) % 4 if status.servant is None else status.servant
    if status.masters is None:
        return (dealer + 1) % 4
    return next(d for d in (dealer, (dealer + 1) % 4) if d % 2 != status.masters)


def shown_cards(game: str, pack: list[str]) -> list[str]:
    """RULINGS: show while the card is an Over (a top-trump Seven stops the showing)."""
    indexes = range(3, 32, 4) if game == "filicau" else range(31, -1, -1)
    shown = []
    for i in indexes:
        shown.append(pack[i])
        if pack[i][1:] != "O":
            return shown
    raise AssertionError("no trump")


# -- views -----------------------------------------------------------------------------------


def _view_cards(view: PublicView) -> set[int]:
    """Every card a view shows, wherever it is."""
    seen = set(view.trick) | set(view.shown) | {c for c, _ in view.shown_held}
    seen |= {c for t in view.tricks for c in t.cards}
    if view.unplayed is not None:
        seen |= {c for h in view.unplayed for c in h}
    if isinstance(view, SeatView):
        seen |= set(view.hand) | {a.value for a in view.legal if a.kind == "card"}
    return seen


def check_views(hand: Hand) -> None:
    public_fields = {f.name for f in dataclasses.fields(PublicView)}
    assert not public_fields & {"hand", "hands", "dealt", "pack", "legal"}
    played = set(hand.played())
    shown = set(hand.shown)
    pv = public_view(hand)
    assert pv.unplayed is None or hand.play_over
    public = _view_cards(pv)
    assert public <= played | shown | ({c for h in hand.hands for c in h} if hand.play_over
                                       else set())
    for c, seat in pv.shown_held:
        assert c in hand.hands[seat]
    assert pv.hand_sizes == tuple(len(h) for h in hand.hands)
    for seat in range(4):
        view = seat_view(hand, seat)
        assert sorted(view.hand) == sorted(hand.hands[seat])
        others = {c for s, h in enumerate(hand.hands) if s != seat for c in h}
        hidden = others - shown - (others if hand.play_over else set())
        assert not _view_cards(view) & hidden
        assert set(view.legal) == set(hand.legal_actions(seat))


# -- the property ----------------------------------------------------------------------------


@st.composite
def setups(draw: st.DrawFn) -> dict[str, Any]:
    game = draw(st.sampled_from(["filicau", "filko"]))
    options: dict[str, Any] = {"early_end": draw(st.booleans())}
    if game == "filko":
        options["top_trumps"] = draw(st.sampled_from(sorted(TOPS)))
    pack = list(ALL_CODES)
    random.Random(draw(st.integers(0, 2**32))).shuffle(pack)
    # Make runs of Overs where trump is shown likely enough to be tried often.
    if draw(st.booleans()):
        spots = [3, 7, 11, 15] if game == "filicau" else [31, 30, 29, 28]
        overs = draw(st.permutations(["EO", "GO", "HO", "SO"]))[:draw(st.integers(1, 4))]
        for spot, over in zip(spots, overs, strict=False):
            j = pack.index(over)
            pack[spot], pack[j] = pack[j], pack[spot]
    status = draw(st.sampled_from(STATUSES[game]))
    # A standing Servant deals (docs/record-format.md), and in Filicău a slave while there
    # are slaves: other dealers only when even.
    if status.servant is not None:
        dealer = status.servant
    elif status.masters is not None:
        dealer = draw(st.sampled_from([1 - status.masters, 3 - status.masters]))
    else:
        dealer = draw(st.integers(0, 3))
    return {
        "game": game,
        "options": options,
        "pack": pack,
        "dealer": dealer,
        "status": status,
        "play_seed": draw(st.integers(0, 2**32)),
    }


@pytest.mark.slow
@settings(max_examples=250, deadline=None)
@given(setups())
def test_random_legal_play_follows_the_rules(setup: dict[str, Any]) -> None:
    game, options, pack = setup["game"], setup["options"], setup["pack"]
    dealer, status = setup["dealer"], setup["status"]
    rng = random.Random(setup["play_seed"])
    model = Model(game, TOPS[options.get("top_trumps", "standard")])
    hand = Hand(make_rules(game, options), dealer, [card(c) for c in pack], status)

    # The deal and the trump.
    order = deal_order(game, dealer)
    for seat in range(4):
        assert [code(c) for c in hand.dealt[seat]] == [pack[i] for i, s in enumerate(order)
                                                       if s == seat]
    shown = shown_cards(game, pack)
    model.trump = shown[-1][0]
    assert [code(c) for c in hand.shown] == shown
    assert "EGHS"[hand.trump] == model.trump
    held = [[code(c) for c in hand.dealt[s]] for s in range(4)]
    leader = to_move = (dealer + 1) % 4
    trick: list[str] = []
    points = [0, 0]
    tricks_played = 0

    for _ in range(40):
        if hand.phase != "play":
            break
        assert hand.to_move == to_move
        legal = model.legal(held[to_move], trick)
        assert {code(a.value) for a in hand.legal_actions()} == legal
        if rng.random() < 0.1:  # an illegal card is refused and changes nothing
            wrong = sorted(set(ALL_CODES) - legal)
            if wrong:
                before = snapshot(hand)
                try:
                    hand.apply(to_move, Action("card", card(rng.choice(wrong))))
                except IllegalAction:
                    pass
                else:
                    raise AssertionError("an illegal card was accepted")
                assert snapshot(hand) == before
        if rng.random() < 0.05:
            check_views(hand)
        c = rng.choice(sorted(legal))
        hand.apply(to_move, Action("card", card(c)))
        held[to_move].remove(c)
        trick.append(c)
        if len(trick) < 4:
            to_move = (to_move + 1) % 4
            continue
        winner = (leader + model.winner(trick)) % 4
        assert hand.tricks[-1].winner == winner
        points[winner % 2] += points_of(trick)
        tricks_played += 1
        leader = to_move = winner
        trick = []
        fixed = options["early_end"] and settled(game, status, points)
        if tricks_played == 8 or fixed:
            assert hand.phase != "play", "the hand should have stopped"
        else:
            assert hand.phase == "play", f"stopped early at {points}"
    else:
        raise AssertionError("the hand did not end")

    assert hand.team_points() == points
    expected = outcome(game, status, points)
    if not options["early_end"]:
        assert sum(points) == 8
        assert tricks_played == 8 and len(hand.played()) == 32
        assert not any(hand.hands)
    if isinstance(expected, tuple):  # Filkó: the new masters choose their Servant
        masters = expected[1]
        assert hand.phase == "servant" and sorted(hand.actors()) == [masters, masters + 2]
        check_views(hand)
        chooser = rng.choice(hand.actors())
        assert {a.value for a in hand.legal_actions(chooser)} == {1 - masters, 3 - masters}
        servant = rng.choice([1 - masters, 3 - masters])
        hand.apply(chooser, Action("servant", servant))
        expected = Status(masters, servant)
    assert hand.finished
    result = hand.result
    assert result is not None
    assert result.status == expected
    assert list(result.points) == points
    assert result.next_dealer == next_dealer(game, expected, dealer)
    assert result.early == (tricks_played < 8)
    if game == "filko" and status.masters is not None:
        assert result.status.masters is not None  # never even again
    check_views(hand)

    again = replay(to_record(hand))
    assert report(again) == report(hand)
    assert again.result == hand.result


@settings(max_examples=100, deadline=None)
@given(setups(), st.integers(0, 40))
def test_a_record_cut_anywhere_replays_to_the_same_state(setup: dict[str, Any],
                                                         stop: int) -> None:
    hand = Hand(make_rules(setup["game"], setup["options"]), setup["dealer"],
                [card(c) for c in setup["pack"]], setup["status"])
    rng = random.Random(setup["play_seed"])
    for _ in range(stop):
        if hand.finished:
            break
        seat = rng.choice(hand.actors())
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    check_views(hand)
    again = replay(to_record(hand))
    assert snapshot(again) == snapshot(hand)


@settings(max_examples=100, deadline=None)
@given(setups(), st.integers(0, 32))
def test_a_copy_is_independent(setup: dict[str, Any], stop: int) -> None:
    hand = Hand(make_rules(setup["game"], setup["options"]), setup["dealer"],
                [card(c) for c in setup["pack"]], setup["status"])
    rng = random.Random(setup["play_seed"])
    for _ in range(stop):
        if hand.finished:
            break
        seat = rng.choice(hand.actors())
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    before = snapshot(hand)
    other = hand.copy()
    assert snapshot(other) == before
    while not other.finished:
        seat = rng.choice(other.actors())
        other.apply(seat, rng.choice(other.legal_actions(seat)))
    assert snapshot(hand) == before
