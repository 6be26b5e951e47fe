"""Computer players (engine/ai): they see only their seat's view, infer correctly, guess only
consistent hidden hands, follow Easy's rules of thumb, always act legally, and are stronger
than random play."""

from __future__ import annotations

import io
import json
import random

import pytest
from deal import act as play
from deal import deal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import PLAYING, Hand, Match, Status, cards, make_rules, seat_view
from engine.ai import EasyPlayer, make_player
from engine.cards import TRUMP, card
from engine.determinize import hand_from_view
from engine.inference import infer, sample, voids
from engine.rules.filko import SERVANT
from engine.tools.arena import arena, format_arena, play_deal
from engine.view import SeatView

GAMES = ("filicau", "filko")


def random_hand(game: str, seed: int, moves: int) -> Hand:
    """A hand dealt from ``seed`` with ``moves`` random actions played (fewer if it ends)."""
    hand = Match(make_rules(game), seed=seed).deal()
    rng = random.Random(seed)
    for _ in range(moves):
        if hand.play_over:
            break
        seat = hand.actors()[0]
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    return hand


def check_consistent(view: SeatView, hidden: dict[int, list[int]]) -> None:
    """A guess never contradicts what the seat knows."""
    k = infer(view)
    void = voids(view)
    order = view.order
    assert order is not None
    every = set(view.hand)
    for s, held in hidden.items():
        assert s != view.seat
        assert len(held) == view.hand_sizes[s]
        for c in held:
            assert not void[s] >> order.suit[c] & 1, f"seat {s} is void in {order.suit[c]}"
        every.update(held)
    for c, holder in view.shown_held:
        held_by = view.hand if holder == view.seat else hidden[holder]
        assert c in held_by
    played = {c for t in view.tricks for c in t.cards} | set(view.trick)
    assert every.isdisjoint(played)
    assert every | played == set(view.rules.pack)
    assert sum(k.need) == len(k.unknown)


# -- the view only ----------------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10_000), moves=st.integers(0, 27),
       level=st.sampled_from(["easy", "normal", "hard"]))
def test_permuting_hidden_cards_never_changes_a_decision(
    game: str, seed: int, moves: int, level: str
) -> None:
    """Two real hands that differ only in how the hidden cards lie among the other seats
    (consistently with what the seat knows) give the same view, hence the same decision."""
    hand = random_hand(game, seed, moves)
    if hand.finished:
        return
    seat = hand.actors()[0]
    view = seat_view(hand, seat)
    other = hand_from_view(view, sample(infer(view), random.Random(seed + 1)))
    other_view = seat_view(other, seat)
    assert other_view == view
    a = make_player(level, seed=5, timed=False)
    b = make_player(level, seed=5, timed=False)
    if level == "hard":  # keep the test quick: the sample count is the knob
        a.samples = b.samples = 12  # type: ignore[attr-defined]
    assert a.choose(view) == b.choose(other_view)


def test_players_are_given_a_view_without_the_hidden_cards() -> None:
    hand = random_hand("filicau", 3, 5)
    view = seat_view(hand, hand.to_move or 0)
    names = set(vars(view))
    assert not {"hands", "pack", "dealt"} & names
    # The action history is the public one: the cards played, which everybody saw.
    assert [a for _, a in view.actions] == [a for _, a in hand.actions]


# -- inference ----------------------------------------------------------------------------------


# Dealer 3: seat 3's first card (H7) is shown, hearts are trump; seat 0 leads.
DEAL = [
    "EA E10 EK E9 GA G10 SA S10",
    "E8 E7 GK G9 G8 SK S9 EO",
    "EU GU G7 SU S8 S7 GO SO",
    "H7 HA H10 HK HO HU H9 H8",
]


def test_a_seat_that_does_not_follow_is_void_and_without_trumps() -> None:
    hand = deal("filicau", DEAL, 3)
    assert hand.trump == cards.HEARTS and hand.shown == [card("H7")]
    # Acorns led: seats 1 and 2 follow; seat 3 has none and must trump.
    play(hand, "EA", "E8", "EU", "H8")
    # Seat 3 leads a trump: seat 0 has none (a plain card); seats 1 and 2 follow with Overs.
    play(hand, "H9", "SA", "EO", "GO")
    void = voids(seat_view(hand, 1))
    assert void[3] == 1 << cards.ACORNS
    assert void[0] == 1 << TRUMP
    assert void[1] == void[2] == 0


def test_a_plain_card_on_a_plain_lead_means_no_trumps_either() -> None:
    hands = [
        "EA E10 EK E9 E8 E7 EU GA",
        "GK G10 G9 G8 G7 GU SA S10",
        "SK S9 S8 S7 SU GO SO EO",
        "H7 HA H10 HK HO HU H9 H8",
    ]
    hand = deal("filicau", hands, 3)
    play(hand, "E9", "GK", "GO")
    void = voids(seat_view(hand, 3))
    assert void[1] == (1 << cards.ACORNS) | (1 << TRUMP)
    assert void[2] == 1 << cards.ACORNS  # it trumped: void in acorns only


def test_shown_cards_stay_with_their_holder_in_every_guess() -> None:
    hand = deal("filicau", DEAL, 3)
    view = seat_view(hand, 0)
    assert view.shown_held == ((card("H7"), 3),)
    k = infer(view)
    assert k.known[3] == (card("H7"),) and card("H7") not in k.unknown
    for i in range(20):
        hidden = sample(k, random.Random(i))
        assert card("H7") in hidden[3]
        check_consistent(view, hidden)


@pytest.mark.parametrize("game", GAMES)
def test_determinizations_are_always_consistent_with_the_view(game: str) -> None:
    rng = random.Random(game)
    for seed in range(25):
        hand = random_hand(game, seed, rng.randrange(0, 30))
        if hand.finished:
            continue
        seat = hand.actors()[0]
        view = seat_view(hand, seat)
        k = infer(view)
        # The real deal satisfies the knowledge.
        for s in range(4):
            if s != seat:
                assert all(k.allowed(s, c) for c in hand.hands[s])
        for i in range(5):
            hidden = sample(k, random.Random(i))
            check_consistent(view, hidden)
            guess = hand_from_view(view, hidden)
            assert seat_view(guess, seat) == view
            assert guess.phase == hand.phase and guess.team_points() == hand.team_points()


def test_a_guess_that_contradicts_the_view_is_refused() -> None:
    hand = random_hand("filicau", 1, 3)
    view = seat_view(hand, hand.to_move or 0)
    with pytest.raises(ValueError):
        hand_from_view(view, {s: [] for s in range(4) if s != view.seat})


# -- Easy's rules of thumb ------------------------------------------------------------------------


def easy(hand: Hand) -> str:
    seat = hand.actors()[0]
    return cards.code(EasyPlayer().choose(seat_view(hand, seat)).value)


def test_easy_leads_a_plain_ace() -> None:
    hand = deal("filicau", DEAL, 3)
    assert easy(hand) == "EA"


def test_easy_takes_points_with_an_ace_when_following() -> None:
    hands = [
        "E9 EK S9 GA G10 SA S10 E7",
        "EA E10 GK G9 G8 SK S8 EO",
        "EU GU G7 SU E8 S7 GO SO",
        "H7 HA H10 HK HO HU H9 H8",
    ]
    hand = deal("filicau", hands, 3)
    play(hand, "EK")
    assert easy(hand) == "EA"  # wins the trick with its Ace


def test_easy_plays_low_when_the_trick_is_lost_and_keeps_trumps_for_points() -> None:
    hand = deal("filicau", DEAL, 3)
    play(hand, "E9")  # seat 0 leads a pointless Nine
    assert easy(hand) == "E7"  # seat 1 cannot beat it: its lowest card
    play(hand, "E7", "EU")
    # Seat 3 has no acorns and must trump; the trick holds no points: its weakest trump.
    assert easy(hand) == "H7"


def test_easy_helps_its_partners_trick() -> None:
    hands = [
        "SA E9 EA E10 EK GA G10 E7",
        "S9 SK E8 GK G9 G8 EO EU",
        "S10 S8 S7 SU GU G7 GO SO",
        "H7 HA H10 HK HO HU H9 H8",
    ]
    hand = deal("filicau", hands, 3)
    play(hand, "SA", "S9")  # the partner's Ace holds the trick
    assert easy(hand) == "S10"


# -- legal in every phase ------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("game", GAMES)
def test_players_choose_legal_actions_to_the_end(level: str, game: str) -> None:
    rules = make_rules(game)
    players = [make_player(level, seed=s, timed=False) for s in range(4)]
    if level == "hard":
        for p in players:
            p.samples = 16  # type: ignore[attr-defined]
    for seed in range(2):
        hand = Match(rules, seed=seed).deal()
        while not hand.finished:
            seat = hand.actors()[0]
            view = seat_view(hand, seat)
            action = players[seat].choose(view)
            assert action in view.legal
            hand.apply(seat, action)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_players_choose_a_servant(level: str) -> None:
    """Filkó: new masters choose their Servant (a non-card action)."""
    rules = make_rules("filko", {"early_end": True})
    for seed in range(200):
        hand = random_hand("filko", seed, 40)
        if hand.phase == SERVANT:
            break
    else:  # pragma: no cover
        pytest.fail("no deal reached the Servant choice")
    for seat in hand.actors():
        view = seat_view(hand, seat)
        action = make_player(level, seed=1, timed=False).choose(view)
        assert action.kind == SERVANT and action in view.legal
    assert rules.game == "filko"


def test_the_objective_ranks_status_outcomes() -> None:
    rules = make_rules("filicau")
    even, zero_masters, one_masters = Status(), Status(0), Status(1)
    assert rules.outcome_value(even, rules.outcome(even, (6, 2)), 0) == 1
    assert rules.outcome_value(even, rules.outcome(even, (6, 2)), 1) == -1
    # Slaves who run away (0-8) are better off than slaves who stay slaves.
    run = rules.outcome_value(zero_masters, rules.outcome(zero_masters, (8, 0)), 1)
    stay = rules.outcome_value(zero_masters, rules.outcome(zero_masters, (5, 3)), 1)
    assert run > stay
    assert rules.outcome_value(one_masters, rules.outcome(one_masters, (4, 4)), 1) == 1


def test_search_decisions_are_reproducible() -> None:
    hand = random_hand("filicau", 8, 9)
    view = seat_view(hand, hand.actors()[0])
    picks = {make_player("normal", seed=3, timed=False).choose(view) for _ in range(3)}
    assert len(picks) == 1


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError):
        make_player("grandmaster")


# -- strength ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_normal_beats_random_over_duplicate_deals() -> None:
    """Fixed seeds and sample counts: deterministic, not flaky. Normal against random over
    30 duplicate deals wins clearly on outcome and on points."""
    r = arena("filicau", "normal", "random", 30, seed=1, err=None)
    assert r["diff_per_deal"]["mean"] > 0.2
    assert r["points_per_hand"]["a"] > r["points_per_hand"]["b"]


def test_an_arena_run_goes_on_where_a_logged_run_stopped() -> None:
    """``first`` plays the deals a longer run of the same seed would have played next, and
    logs them under their own numbers, so two logs of one seed join into one run."""
    whole, part = io.StringIO(), io.StringIO()
    arena("filicau", "easy", "random", 4, seed=3, err=None, log=whole)
    r = arena("filicau", "easy", "random", 2, seed=3, err=None, log=part, first=2)
    assert part.getvalue().splitlines() == whole.getvalue().splitlines()[2:]
    assert [json.loads(line)["deal"] for line in part.getvalue().splitlines()] == [2, 3]
    assert r["deals"] == 2 and "from deal 2" in format_arena(r)


def test_a_duplicate_deal_swaps_the_teams() -> None:
    d = play_deal("filicau", "random", "random", 0, 1)
    assert len(d.value_a) == 2 and len(d.events) == 2
    assert all(a == -b or a == b == 0 for a, b in zip(d.value_a, d.value_b, strict=True))


def test_hand_from_view_in_play_phase() -> None:
    hand = random_hand("filko", 2, 6)
    view = seat_view(hand, hand.actors()[0])
    guess = hand_from_view(view, sample(infer(view), random.Random(0)))
    assert guess.phase == PLAYING


@pytest.mark.parametrize("game", ["filicau", "filko", "wendish"])
def test_hards_playouts_are_the_greedy_ones_where_points_are_wanted(game: str) -> None:
    """Only where a team wants no card points (``Rules.wants_points``: Schafkopf's least)
    do Hard's playouts differ from ``greedy_playout``: elsewhere they play the same cards
    with the same random numbers, so Hard's play there is as before."""
    from engine.ai.search import aimed_playout, greedy_playout

    rules = make_rules(game)
    for seed in range(6):
        hand = Match(rules, seed=seed).deal()
        while hand.phase != PLAYING and not hand.play_over:
            seat = hand.actors()[0]
            hand.apply(seat, hand.legal_actions(seat)[0])
        assert all(rules.wants_points(hand, t) for t in set(hand.team))
        a, b = hand.copy(), hand.copy()
        aimed_playout(a, random.Random(seed))
        greedy_playout(b, random.Random(seed))
        assert a.actions == b.actions and a.play_over
