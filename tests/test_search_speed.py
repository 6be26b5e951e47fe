"""The search's speed-ups change no value, and what they buy: the transposition table, the
node allowance that lets Normal and Hard solve cheap endgames exactly a trick earlier, the
fixed ``hard_baseline`` and the open-hand player the arena measures against."""

from __future__ import annotations

import random

import pytest

from engine import Hand, Match, make_rules, seat_view
from engine.ai import OpenHandPlayer, SearchPlayer, make_player
from engine.ai.search import Allowance, OutOfNodes, Scorer, exact, greedy_playout
from engine.rules import GAMES
from engine.tools.arena import play_deal
from engine.view import SeatView


def hand_with_cards_left(game: str, seed: int, left: int) -> Hand:
    """A hand dealt from ``seed``, played at random until ``left`` cards are unplayed."""
    hand = Match(make_rules(game), seed=seed).deal()
    rng = random.Random(seed)
    while len(hand.rules.pack) - len(hand.played()) > left and not hand.play_over:
        seat = hand.actors()[0]
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    return hand


@pytest.mark.parametrize("game", ["filicau", "schafkopf3", "filko5"])
def test_the_table_gives_the_same_exact_values(game: str) -> None:
    stored = 0
    for seed in range(6):
        hand = hand_with_cards_left(game, seed, 12)
        if hand.play_over or hand.to_move is None:
            continue
        seat = hand.to_move
        team = hand.team[seat]
        score = Scorer(hand.rules, hand.status, team)
        table: dict[tuple[object, ...], tuple[float, float]] = {}
        for a in hand.legal_actions():
            plain, shared = hand.copy(), hand.copy()
            plain.apply(seat, a)
            shared.apply(seat, a)
            assert exact(shared, team, score, -9.0, 9.0, table) == exact(
                plain, team, score, -9.0, 9.0)
        stored += len(table)
    # The table was used: positions at the start of a trick were stored.
    assert stored


def test_the_table_changes_no_decision() -> None:
    for seed in range(4):
        hand = hand_with_cards_left("filicau", seed, 12)
        view = seat_view(hand, hand.to_move)  # type: ignore[arg-type]
        with_table = SearchPlayer("t", samples=20, seed=1, exact_cards=12)
        without = SearchPlayer("t", samples=20, seed=1, exact_cards=12, transpositions=False)
        assert with_table.choose(view) == without.choose(view)


def test_an_exact_search_stops_when_its_allowance_is_spent() -> None:
    hand = hand_with_cards_left("filicau", 3, 16)
    seat = hand.to_move
    assert seat is not None
    score = Scorer(hand.rules, hand.status, hand.team[seat])
    with pytest.raises(OutOfNodes):
        exact(hand.copy(), hand.team[seat], score, -9.0, 9.0, None, Allowance(5))
    # Enough allowance: the same value as without one.
    assert exact(hand.copy(), hand.team[seat], score, -9.0, 9.0, None, Allowance(10**9)) == \
        exact(hand.copy(), hand.team[seat], score, -9.0, 9.0)


def test_a_cheap_endgame_is_solved_exactly_before_exact_cards() -> None:
    """With an unlimited allowance, ``deep_cards`` is the same as a larger ``exact_cards``;
    with none, the same as none at all."""
    for seed in range(3):
        hand = hand_with_cards_left("filicau", seed, 14)
        view = seat_view(hand, hand.to_move)  # type: ignore[arg-type]
        deep = SearchPlayer("d", samples=8, seed=2, exact_cards=8, deep_cards=16,
                            deep_nodes=10**9, playout=greedy_playout)
        wide = SearchPlayer("w", samples=8, seed=2, exact_cards=16, playout=greedy_playout)
        assert deep.choose(view) == wide.choose(view)
        never = SearchPlayer("n", samples=8, seed=2, exact_cards=8, deep_cards=16,
                             deep_nodes=0, playout=greedy_playout)
        plain = SearchPlayer("p", samples=8, seed=2, exact_cards=8, playout=greedy_playout)
        assert never.choose(view) == plain.choose(view)


def test_hard_baseline_is_hard_as_it_was() -> None:
    """The arena's yardstick keeps today's settings: 200 samples, 0.8 s cap, exact search
    over the last 12 cards, greedy playouts, nothing solved earlier."""
    baseline = make_player("hard_baseline")
    assert isinstance(baseline, SearchPlayer)
    assert (baseline.samples, baseline.budget, baseline.exact_cards, baseline.deep_cards) == \
        (200, 0.8, 12, 0)
    assert baseline.playout is greedy_playout
    hard = make_player("hard")
    assert isinstance(hard, SearchPlayer)
    # The new Hard spends no more samples or time cap, only deeper exact endgames.
    assert (hard.samples, hard.budget) == (200, 0.8) and hard.deep_cards > hard.exact_cards


def test_the_open_hand_player_must_be_shown_the_hand() -> None:
    hand = Match(make_rules("filicau"), seed=4).deal()
    player = OpenHandPlayer("o", samples=2)
    with pytest.raises(ValueError):
        player.choose(seat_view(hand, hand.to_move))  # type: ignore[arg-type]


def test_the_open_hand_player_plays_the_true_endgame() -> None:
    """Seeing all cards over the last tricks, it picks an action of the best exact value."""
    checked = 0
    for seed in range(8):
        hand = hand_with_cards_left("filicau", seed, 8)
        seat = hand.to_move
        if seat is None or len(hand.legal_actions()) < 2:
            continue
        checked += 1
        player = OpenHandPlayer("o", samples=3, exact_cards=12)
        player.see(hand)
        choice = player.choose(seat_view(hand, seat))
        score = Scorer(hand.rules, hand.status, hand.team[seat])
        values = {}
        for a in hand.legal_actions():
            child = hand.copy()
            child.apply(seat, a)
            values[a] = exact(child, hand.team[seat], score, -9.0, 9.0)
        assert values[choice] == max(values.values())
    assert checked


@pytest.mark.slow
def test_an_arena_deal_with_the_open_hand_player_finishes() -> None:
    r = play_deal("filicau", "hard_open", "easy", seed=0, index=1)
    assert len(r.value_a) == 2


@pytest.mark.parametrize(("game", "index"), [("schafkopf3", 0), ("schafkopf3", 1), ("filicau", 0)])
def test_swapping_the_levels_negates_a_deal(game: str, index: int) -> None:
    """Each seat's cards are played once by A and once by B, so swapping A and B plays the
    same two hands in the other order: the deal's difference changes sign (any game, three
    players too)."""
    r = play_deal(game, "easy", "random", seed=0, index=index)
    swapped = play_deal(game, "random", "easy", seed=0, index=index)
    assert len(r.seat_diffs) == make_rules(game).players
    assert swapped.diff == pytest.approx(-r.diff)
    assert swapped.points_diff == pytest.approx(-r.points_diff)


# -- the time cap -----------------------------------------------------------------------------


def capped_views(game: str, options: dict[str, object] | None = None) -> list[SeatView]:
    """Decisions with a choice from hands of ``game`` played by Easy: the first few (the
    choices before play where the game has them) and some in the middle of the play."""
    rules = make_rules(game, options)
    views: list[SeatView] = []
    for seed in range(3):
        rng = random.Random(f"cap|{game}|{seed}")
        pack = list(rules.pack)
        rng.shuffle(pack)
        hand = Hand(rules, rng.randrange(rules.players), pack)
        easy = [make_player("easy", seed=s) for s in range(rules.players)]
        count = 0
        while not hand.finished:
            seat = hand.actors()[0]
            view = seat_view(hand, seat)
            if len(view.legal) > 1:
                if count < 3 or count % 7 == 0:
                    views.append(view)
                count += 1
            hand.apply(seat, easy[seat].choose(view))
    return views


#: Every registered game, and Bavarian Schafkopf with the house options players ask for.
CAPPED = [(game, None) for game in sorted(GAMES)] + [
    ("schafkopf", {"all_pass": "ramsch", "hochzeit": True, "klopfen": True})]


@pytest.mark.parametrize(("game", "options"), CAPPED,
                         ids=[g if o is None else f"{g}-house" for g, o in CAPPED])
def test_a_decision_past_its_cap_searches_at_most_one_more_sample(
        game: str, options: dict[str, object] | None) -> None:
    """A cap already spent when the decision starts (a tiny one): Normal and Hard search one
    sample at most (the pool of guesses Hard reads stops at the cap too), and still choose a
    legal action. Counted in samples, not seconds. The same decisions without the cap search
    more than one sample, so it is the cap that stops them."""
    searched = 0
    uncapped_more = False
    for view in capped_views(game, options):
        for level in ("normal", "hard"):
            player = make_player(level, seed=1)
            assert isinstance(player, SearchPlayer)
            player.budget = 1e-9
            assert player.choose(view) in view.legal
            assert player.last_samples <= 1, (level, view.phase, player.last_samples)
            searched += player.last_samples
            if not uncapped_more and player.last_samples:
                free = make_player(level, seed=1, timed=False)
                free.choose(view)
                uncapped_more = free.last_samples > 1  # type: ignore[attr-defined]
    assert searched and uncapped_more
