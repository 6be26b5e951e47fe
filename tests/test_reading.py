"""Reading the play (``engine.ai.reading``): the shipped models load from the package, read
deterministically, and weigh a guess by how well it explains what the others played; the
search draws its guesses by them; the training repeats (``engine.tools.train``).

The deal below (Filicău, dealer 3, whose first card H7 makes hearts trump; seat 0 leads;
teams 0+2 against 1+3):

    seat 0: SA EA E10 EK E9 GA G10 G9      seat 1: S10 S7 E8 E7 GK G8 G7 EO
    seat 2: SK S9 S8 H8 GU EU GO SO        seat 3: H7 HA H10 HK HO HU H9 SU

Seat 0 leads the Ace of bells and seat 1, its opponent, throws the Ten on it though it holds
the Seven: a point given away. Seen from seat 0 afterwards, a deal in which seat 1 still
holds the Seven makes that play a poor one; a deal in which the Ten was seat 1's only bell
makes it forced. Reading the play prefers the second.
"""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from deal import act, deal

from engine import Hand, Match, make_rules, seat_view
from engine.ai import SEARCH, Reading, make_player, reading
from engine.ai.search import SearchPlayer, search_hands
from engine.cards import card
from engine.determinize import hand_from_view
from engine.rules import GAMES
from engine.tools import train
from engine.view import SeatView

HANDS = [
    "SA EA E10 EK E9 GA G10 G9",
    "S10 S7 E8 E7 GK G8 G7 EO",
    "SK S9 S8 H8 GU EU GO SO",
    "H7 HA H10 HK HO HU H9 SU",
]


def after_trick_one() -> Hand:
    hand = deal("filicau", HANDS, 3)
    act(hand, "SA S10 S8 SU")
    return hand


def hidden(hand: Hand, seat: int) -> dict[int, list[int]]:
    return {s: list(hand.hands[s]) for s in range(hand.n) if s != seat}


def swapped(view: SeatView, hand: Hand) -> Hand:
    """The deal seat 0 cannot tell from ``hand`` in which seat 3 holds the Seven of bells and
    seat 1 the Nine of hearts instead (seat 3 followed bells, so it may hold more)."""
    cards = hidden(hand, 0)
    cards[1] = [c for c in cards[1] if c != card("S7")] + [card("H9")]
    cards[3] = [c for c in cards[3] if c != card("H9")] + [card("S7")]
    return hand_from_view(view, cards)


# -- the models ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_games_model_is_package_data_with_its_provenance(game: str) -> None:
    models = resources.files("engine.ai") / "models"
    provenance = json.loads((models / f"{game}.json").read_text(encoding="utf-8"))
    assert provenance["game"] == game
    assert provenance["command"].startswith(f"python -m engine.tools.train --game {game} ")
    assert {"level", "hands", "seed", "records_sha256"} <= set(provenance["self_play"])
    assert provenance["engine_commit"] and provenance["held_out"]["hands"] > 0
    model = reading.load(game)
    assert model is not None and model.game == game
    assert model.cards.w.shape[0] == len(reading.CARD_FEATURES)
    if model.choices is not None:
        assert model.choices.w.shape[0] == reading.choice_width(model.vocabulary,
                                                                model.universe)


def test_a_game_without_a_model_is_searched_unread() -> None:
    assert reading.load("no such game") is None


def test_a_point_thrown_to_the_opponent_means_no_low_card_of_the_suit() -> None:
    hand = after_trick_one()
    view = seat_view(hand, 0)
    model = reading.load("filicau")
    assert model is not None
    real, other = hand_from_view(view, hidden(hand, 0)), swapped(view, hand)
    assert seat_view(other, 0) == view  # both deals fit what seat 0 saw
    ll = reading.log_likelihoods(model, 0, [real, other], Reading().mix)
    # The Ten given away by choice is at least twice as unlikely as the Ten played perforce.
    assert ll[1] - ll[0] > np.log(2)


def test_reading_repeats_exactly() -> None:
    hand = after_trick_one()
    view = seat_view(hand, 0)
    model = reading.load("filicau")
    assert model is not None
    guesses = [hand_from_view(view, hidden(hand, 0)), swapped(view, hand)]
    first = reading.log_likelihoods(model, 0, guesses)
    assert np.array_equal(first, reading.log_likelihoods(model, 0, [g.copy() for g in guesses]))


def share_with_the_seven(read: Reading | None, view: SeatView) -> float:
    player = SearchPlayer("hard", samples=200)
    hands = [h for h in search_hands(view, random.Random(7), 200, player.guesser(view), read)
             if h is not None]
    return sum(card("S7") in h.hands[1] for h in hands) / len(hands)


def test_the_search_draws_fewer_guesses_that_make_the_others_play_badly() -> None:
    """Unread, seat 1 holds the Seven of bells in about a third of the guesses (it holds 7
    of the 21 cards seat 0 cannot place); read, in clearly fewer."""
    view = seat_view(after_trick_one(), 0)
    plain = share_with_the_seven(None, view)
    read = share_with_the_seven(Reading(), view)
    assert 0.2 < plain < 0.45
    assert read < plain - 0.1


def test_hard_reads_and_its_decisions_repeat_from_the_seed_and_the_view() -> None:
    assert isinstance(SEARCH["hard"]["reading"], Reading)
    view = seat_view(after_trick_one(), 0)
    picks = set()
    for _ in range(2):
        player = make_player("hard", seed=4, timed=False)
        player.samples = 40  # type: ignore[attr-defined]
        picks.add(player.choose(view))
    assert len(picks) == 1 and picks <= set(view.legal)


@pytest.mark.parametrize("game", ["schafkopf", "schafkopf3", "filko5"])
def test_the_choices_before_play_are_read_in_games_that_have_them(game: str) -> None:
    """Bids, calls and doublings are read by the choice network where the game has one: a
    guess's likelihood moves with the cards a bidder is guessed to hold."""
    model = reading.load(game)
    assert model is not None and model.choices is not None
    rules = make_rules(game)
    players = [make_player("easy", seed=s) for s in range(rules.players)]
    for seed in range(40):
        hand = Match(rules, seed=seed).deal()
        while not hand.finished and not (hand.tricks and any(
                a.kind != "card" for s, a in hand.actions if s != hand.actors()[0])):
            seat = hand.actors()[0]
            hand.apply(seat, players[seat].choose(seat_view(hand, seat)))
        if hand.finished:
            continue
        seat = hand.actors()[0]
        view = seat_view(hand, seat)
        guess = SearchPlayer("hard", samples=1).guesser(view)
        rng = random.Random(seed)
        guesses = []
        for _ in range(30):
            try:
                guesses.append(guess(rng))
            except Exception:
                continue
        r = reading.reader_from_view(model, view, Reading().mix)
        ll = r.choice_log_likelihoods(guesses, len(view.actions))
        if len(set(np.round(ll, 6))) > 1:
            return
    pytest.fail(f"no {game} position whose bids told the guesses apart")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_normal_and_hard_read_every_games_play_to_the_end_of_a_hand(game: str) -> None:
    """With every game's model shipped, the reading levels play whole hands of it; a guess
    the game's own rebuild lets through though it contradicts a choice the table saw (in
    Filcau-20, a seat that asked for its cards face up guessed to hold an Unter) is weighed
    as all but impossible instead of stopping the computer."""
    rules = make_rules(game)
    for level in ("normal", "hard"):
        for seed in range(2):
            hand = Match(rules, seed=seed).deal()
            players = [make_player(level, seed=s, timed=False) for s in range(rules.players)]
            for p in players:
                p.samples = 12  # type: ignore[attr-defined]
            while not hand.finished:
                seat = hand.actors()[0]
                view = seat_view(hand, seat)
                action = players[seat].choose(view)
                assert action in view.legal
                hand.apply(seat, action)


# -- the training -------------------------------------------------------------------------------


def test_the_fit_learns_which_card_a_player_prefers() -> None:
    rng = np.random.default_rng(1)
    rows = []
    for _ in range(400):
        x = rng.random((3, len(reading.CARD_FEATURES))).astype(np.float32)
        x[:, 0] = 0.0
        pick = int(rng.integers(3))
        x[pick, 0] = 1.0  # the player always plays the card whose first feature is set
        rows.append(reading.Rows(x, np.array([0]), np.array([pick])))
    examples = train.Examples.join(rows)
    net = train.fit(examples.subset(np.arange(300)), examples.subset(np.arange(300, 400)),
                    hidden=8, seed=0, epochs=30)
    assert train.nats(net, examples.subset(np.arange(300, 400))) > 0.8 * np.log(3)


def test_self_play_repeats_from_its_seed() -> None:
    one = train.self_play("filicau", "easy", 3, 5)
    assert one == train.self_play("filicau", "easy", 3, 5)
    assert one != train.self_play("filicau", "easy", 3, 6)


@pytest.mark.slow
def test_training_writes_weights_the_players_can_load(tmp_path: Path) -> None:
    out = tmp_path
    assert train.main(["--game", "schafkopf", "--level", "easy", "--hands", "30", "--test", "6",
                       "--epochs", "3", "--out", str(out)]) == 0
    provenance = json.loads((out / "schafkopf.json").read_text(encoding="utf-8"))
    assert provenance["self_play"]["hands"] == 30 and provenance["held_out"]["hands"] == 6
    with np.load(out / "schafkopf.npz") as arrays:
        model = reading.model_from_arrays("schafkopf", dict(arrays))
    assert model.choices is not None and model.vocabulary


# -- the search's caps ------------------------------------------------------------------------


def test_a_decision_stops_within_one_sample_of_its_time_cap() -> None:
    """The pool of guesses is read before the first sample, but it too stops at the cap: with
    no time at all, Hard reads what it drew and searches one sample."""
    view = seat_view(after_trick_one(), 0)
    player = make_player("hard", seed=1)
    player.budget = 0.0  # type: ignore[attr-defined]
    assert player.choose(view) in view.legal
    assert player.last_samples == 1  # type: ignore[attr-defined]


def test_the_race_stops_playing_out_actions_that_clearly_lose() -> None:
    """Seat 0 leads again after trick one: the race leaves out what trails the best lead by
    far, and a decision it settles early uses fewer samples than it was given, the same
    number every time."""
    view = seat_view(after_trick_one(), 0)
    used = set()
    for _ in range(2):
        player = make_player("hard", seed=3, timed=False)
        player.choose(view)
        used.add(player.last_samples)  # type: ignore[attr-defined]
    assert len(used) == 1
    unraced = make_player("hard", seed=3, timed=False)
    unraced.race = None  # type: ignore[attr-defined]
    assert unraced.choose(view) in view.legal
    assert unraced.last_samples == 200  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["schafkopf", "doppelkopf", "schafkopf3"])
def test_the_choices_are_scored_as_their_feature_rows_would_be(game: str) -> None:
    """Reading a pool's bids and announcements sums each choice's cards once
    (``choice_scores``) instead of multiplying every legal action's row: the same chances
    of the choices the players made, to rounding."""
    model = reading.load(game)
    assert model is not None and model.choices is not None
    rules = make_rules(game)
    every: list[reading.Choice] = []
    for seed in range(4):
        rng = random.Random(f"choices|{seed}")
        pack = list(rules.pack)
        rng.shuffle(pack)
        hand = Hand(rules, rng.randrange(rules.players), pack)
        easy = [make_player("easy", seed=s) for s in range(rules.players)]
        while not hand.finished:
            seat = hand.actors()[0]
            hand.apply(seat, easy[seat].choose(seat_view(hand, seat)))
        every += [ch for _, ch in reading.choices_of(hand)]
    assert len(every) > 4
    rows = reading.choice_features(model.vocabulary, model.universe, every)
    scores, fast = reading.choice_scores(model.choices, model.vocabulary, model.universe, every)
    assert (fast.start == rows.start).all() and (fast.chosen == rows.chosen).all()
    assert np.allclose(scores, model.choices.scores(rows.x), atol=1e-4)
    assert np.allclose(reading.log_chances(scores, fast, 0.1),
                       reading.log_chances(model.choices.scores(rows.x), rows, 0.1), atol=1e-5)
