"""The search's playouts: the greedy one that ``hard_baseline`` keeps, the leads that keep the
points, and common random numbers across a sample's actions."""

from __future__ import annotations

import random

import pytest

from engine import Hand, Match, make_rules, seat_view
from engine.ai import SearchPlayer
from engine.ai.search import greedy_follow, greedy_playout, leading_playout, plausibility
from engine.cards import ACE, TRUMP


def _greedy_as_it_was(hand: Hand, rng: random.Random) -> None:
    """``greedy_playout`` as ``hard_baseline`` was measured with, before its follow rule
    became ``greedy_follow``: the yardstick must not move."""
    rand = rng.random
    points = hand.rules.points
    n = hand.n
    team = hand.team
    while not hand.play_over:
        seat = hand.to_move
        if seat is None:
            actors = hand.actors()
            if not actors:
                return
            seat = actors[0]
        legal = hand.legal_actions(seat)
        trick = hand.trick
        if len(legal) == 1:
            action = legal[0]
        elif not trick or rand() < 0.2 or legal[0].kind != "card":
            action = legal[int(rand() * len(legal))]
        else:
            order = hand.order
            assert order is not None
            rank = order.led_rank[order.suit[trick[0]]]
            best_i = trick.index(max(trick, key=rank.__getitem__))
            best = rank[trick[best_i]]
            if team[(hand.leader + best_i) % n] == team[seat]:
                action = max(legal, key=lambda a: (points[a[1]], -rank[a[1]]))
            else:
                beat = [a for a in legal if rank[a[1]] > best]
                if beat and (sum(points[c] for c in trick) or
                             any(points[a[1]] for a in beat)):
                    action = min(beat, key=lambda a: rank[a[1]] - 50 * points[a[1]])
                else:
                    action = min(legal, key=lambda a: (points[a[1]], rank[a[1]]))
        hand.apply(seat, action)


def _in_play(game: str, seed: int) -> Hand:
    """A hand of ``game`` played at random to its first card play."""
    hand = Match(make_rules(game), seed=seed).deal()
    rng = random.Random(seed)
    while not hand.play_over and not (hand.to_move is not None and hand.order is not None
                                      and hand.legal_actions()[0].kind == "card"):
        seat = hand.actors()[0]
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    return hand


@pytest.mark.parametrize("game", ["filicau", "filko5", "schafkopf3", "wendish"])
def test_the_greedy_playout_plays_as_it_did(game: str) -> None:
    """``hard_baseline`` is the arena's yardstick: its playouts play the same cards, with the
    same random numbers, as before the follow rule was shared."""
    for seed in range(12):
        now, then = _in_play(game, seed), _in_play(game, seed)
        greedy_playout(now, random.Random(seed))
        _greedy_as_it_was(then, random.Random(seed))
        assert now.actions == then.actions


class Steady(random.Random):
    """``random()`` always 0.5: above the playouts' one-in-five cut, so no move is left to
    chance, and a random pick takes the middle of its list."""

    def random(self) -> float:
        return 0.5


def test_leads_keep_the_points() -> None:
    """A leader leads a plain Ace when it holds one, else a plain card without points when
    it holds one: it does not lead its Tens into the other side's Aces."""
    leads = aces = 0
    for seed in range(20):
        hand = Match(make_rules("filicau"), seed=seed).deal()
        leading_playout(hand, Steady())
        order = hand.order
        assert order is not None
        points = hand.rules.points
        for k, trick in enumerate(hand.tricks):
            leader = trick.leader
            held = [c for t in hand.tricks[k:] for i, c in enumerate(t.cards)
                    if (t.leader + i) % hand.n == leader] + hand.hands[leader]
            lead = trick.cards[0]
            plain_aces = [c for c in held if order.suit[c] != TRUMP and c % 8 == ACE]
            plain_blanks = [c for c in held if order.suit[c] != TRUMP and not points[c]]
            leads += 1
            if plain_aces:
                aces += 1
                assert lead in plain_aces
            elif plain_blanks:
                assert lead in plain_blanks
    assert leads and aces


def test_a_samples_actions_are_played_out_with_the_same_random_numbers() -> None:
    """With ``paired``, the playouts of every action of one sample draw the same random
    numbers (their difference is the action's); without, each draws its own."""
    hand = Match(make_rules("filicau"), seed=5).deal()
    seat = hand.to_move
    assert seat is not None
    view = seat_view(hand, seat)
    width = len(view.legal)
    assert width > 1
    for paired in (True, False):
        first: list[float] = []

        def playout(h: Hand, rng: random.Random, first: list[float] = first) -> None:
            first.append(rng.random())
            greedy_playout(h, rng)

        SearchPlayer("p", samples=4, seed=1, exact_cards=0, playout=playout,
                     paired=paired).choose(view)
        groups = [first[i:i + width] for i in range(0, len(first), width)]
        assert len(groups) == 4
        if paired:
            assert all(len(set(g)) == 1 for g in groups)
            assert len({g[0] for g in groups}) == 4
        else:
            assert all(len(set(g)) == width for g in groups)


def test_a_playout_with_a_tail_stops_where_the_exact_search_takes_over() -> None:
    """``leading_playout(..., stop)`` hands the last tricks to the exact search: it stops at
    the first trick's start with at most ``stop`` cards left, or plays to the end."""
    for seed in range(10):
        hand = Match(make_rules("filicau"), seed=seed).deal()
        leading_playout(hand, random.Random(seed), 8)
        left = sum(map(len, hand.hands))
        if not hand.play_over:
            assert left <= 8 and not hand.trick
            # It stopped at the first such point: one trick earlier, more were left.
            assert left + hand.n > 8
            assert hand.to_move is not None and hand.legal_actions()


def test_a_card_the_greedy_policy_would_not_play_makes_a_guess_less_likely() -> None:
    """One seat follows once with a card of other points than the policy's: the deal counts
    ``miss`` for everyone else, and 1 for the seat itself (its own plays tell it nothing)."""
    checked = 0
    points = make_rules("filicau").points
    for seed in range(20):
        hand = Match(make_rules("filicau"), seed=seed).deal()
        odd = None
        while not hand.play_over and len(hand.tricks) < 4:
            s = hand.to_move
            assert s is not None
            legal = hand.legal_actions(s)
            if not hand.trick or len(legal) == 1:
                hand.apply(s, legal[0])
                continue
            g = greedy_follow(hand, s, legal)
            other = [a for a in legal if points[a.value] != points[g.value]]
            if odd is None and other:
                odd = s
                hand.apply(s, other[0])
            else:
                hand.apply(s, g)
        if odd is None:
            continue
        checked += 1
        assert plausibility(hand, (odd + 1) % 4, 0.5) == 0.5
        assert plausibility(hand, odd, 0.5) == 1.0
    assert checked
