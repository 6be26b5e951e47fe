"""The benchmarks still drive today's bot: each runs at a tiny size, through the real bot
process and the stand-in, and its figures add up.

They take minutes at their documented sizes and are run by hand; a change to the lobby once broke
the soak without any test noticing (its computers were added by buttons that had become a
menu). The figures themselves are measurements, not asserted here.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks import soak
from benchmarks import store as store_bench
from benchmarks.peek import PeekPlayer
from bot.store import SqliteStore
from engine import Match, make_rules, seat_view
from engine.ai import SEARCH, OpenHandPlayer, SearchPlayer, make_player

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
async def test_the_soak_plays_its_tables_and_finds_nothing_left_after_closing() -> None:
    report = await soak.run(argparse.Namespace(tables=4, wave=2, trace=False))
    assert (report["tables"], report["waves"]) == (4, 2)
    assert report["bot_log_errors"] == 0
    left = report["left_after_close"]
    assert {k: left[k] for k in soak.PER_TABLE} == dict.fromkeys(soak.PER_TABLE, 0)
    # Each wave's memory, split by allocator (CPython's own and glibc's, as on this machine),
    # so that growth can be placed.
    each = report["after_each_wave"]
    assert all(len(v) == 2 for v in each.values()), each
    # Sizes are never 0; counts of arenas given back and of empty pools may be.
    assert all(x > 0 for k, v in each.items() for x in v
               if k not in ("python_arenas_freed", "python_empty_pools")), each
    assert set(each) == set(soak.MEMORY), each
    assert isinstance(report["python_types_grown"], dict)
    # The bot collects before it reports, so open tables cost memory in every report pair
    # (without that, garbage left from the wave before could make the cost come out below 0).
    assert report["bytes_per_open_table"] > 0


async def test_the_store_benchmark_times_each_call_of_its_hands(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bench.sqlite3"
    store = SqliteStore(path)
    await store.open()
    insert, close = await store_bench.driver_insert(None, path)
    try:
        clock = await store_bench.measure(store, insert, 2)  # and one to warm up
    finally:
        await close()
        await store.close()
    _, actions = store_bench.a_hand()
    assert clock.calls["append_action"] == clock.calls[store_bench.PEER] == 2 * len(actions)
    assert [clock.calls[c] for c in ("start_hand", "finish_hand", "update_table")] == [2] * 3
    store_bench.report("sqlite", clock)
    assert "a hand's store calls: " in capsys.readouterr().out


@pytest.mark.slow
def test_the_load_run_plays_its_tables_without_errors() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.load", "--tables", "3", "--think", "0.05",
         "--computer-delay", "0.05", "--edit-interval", "0.2", "--validate"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "hands 3 " in run.stdout, run.stdout
    assert "errors 0 " in run.stdout, run.stdout


def hard_variants(*settings: str) -> subprocess.CompletedProcess[str]:
    """``benchmarks.hard_variants`` with these settings, one deal of Hard against Easy."""
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.hard_variants", *settings, "--",
         "--a", "hard", "--b", "easy", "--deals", "1", "--quiet", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_hard_variants_plays_the_arena_with_hards_settings_changed() -> None:
    run = hard_variants("samples=4", "deep_nodes=0")
    assert run.returncode == 0, run.stderr
    settings, result = run.stdout.splitlines()
    assert "'samples': 4" in settings and "'deep_nodes': 0" in settings
    assert json.loads(result)["deals"] == 1
    # A setting Hard does not have is refused, not ignored.
    bad = hard_variants("sample=4")
    assert bad.returncode != 0 and "sample" in bad.stderr


@pytest.mark.slow
def test_hard_variants_reads_the_play_with_the_reading_settings_given() -> None:
    run = hard_variants("samples=4", 'reading={"power": 2.5, "pool": 4}')
    assert run.returncode == 0, run.stderr
    settings, result = run.stdout.splitlines()
    assert "pool=4" in settings and "power=2.5" in settings and "mix=0.1" in settings
    assert json.loads(result)["deals"] == 1
    # A field Reading does not have is refused, not ignored.
    bad = hard_variants('reading={"powr": 2}')
    assert bad.returncode != 0 and "powr" in bad.stderr


@pytest.mark.slow
def test_reading_model_fits_a_levels_play_and_weighs_guesses_by_it() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.reading_model", "--level", "normal", "--hands", "9",
         "--test", "3", "--samples", "8", "--workers", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert (report["train_hands"], report["test_hands"]) == (6, 3)
    assert report["leads"]["choices"] > 0 and report["follows"]["choices"] > 0
    holder = report["true_holder"]
    assert holder["cards"] > 0
    assert 0 < holder["unweighted"] < 1 and 0 < holder["weighed_by_model"] < 1


@pytest.mark.slow
def test_reading_models_fit_learns_which_cards_a_player_prefers() -> None:
    import numpy as np

    from benchmarks.reading_model import fit, log_chance

    rng = np.random.default_rng(1)
    # Three legal cards a choice; the player always plays the one whose first feature is set.
    items = []
    for _ in range(300):
        rows = rng.random((3, 2))
        rows[:, 0] = 0.0
        pick = int(rng.integers(3))
        rows[pick, 0] = 1.0
        items.append((rows, pick))
    weights = fit(items, 2)
    rows, pick = items[0]
    assert log_chance(weights, rows, pick) > np.log(0.9)


@pytest.mark.slow
def test_play_entropy_finds_no_randomness_in_a_player_that_ignores_its_seed() -> None:
    from benchmarks.play_entropy import choices, summary

    # The rule-of-thumb player decides from the view alone: every re-seeded draw agrees,
    # so its play is as predictable as it gets, and the most a model could tell is all a
    # uniform pick leaves open.
    found = choices(("filicau", "simple", 9, 0, 3, ()))
    assert found and all(len(c["drawn"]) == 1 and c["drawn"] == [3] for c in found)
    report = summary(found, 3)
    assert report["agree"][0] == 1.0 and report["entropy"][0] == 0.0
    assert report["most_a_model_can_tell"][0] == report["uniform"][0] > 0
    assert report["room"][0] == report["model"][0] > 0


@pytest.mark.slow
def test_play_entropy_measures_a_search_levels_play_against_the_shipped_model() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.play_entropy", "--level", "normal", "--hands", "2",
         "--seeds", "4", "--workers", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    every = report["all"]
    assert every["choices"] == report["leads"]["choices"] + report["follows"]["choices"] > 0
    # Normal's 24 samples leave some choices to chance, and none is more random than a
    # uniform pick among the legal cards.
    assert 0 < every["entropy"][0] <= every["entropy_miller_madow"][0]
    assert every["entropy"][0] < every["uniform"][0]
    assert 0 <= every["agree"][0] < 1
    assert abs(every["room"][0] - (every["model"][0] - every["entropy"][0])) < 2e-3


def _peekers(share: float) -> tuple[PeekPlayer, SearchPlayer]:
    """A peeking player and the level it becomes at this share, with 16 samples each."""
    settings: dict[str, Any] = {**SEARCH["hard_unread"], "samples": 16, "budget": None}
    twin = (OpenHandPlayer if share == 1 else SearchPlayer)("twin", seed=5, **settings)
    return PeekPlayer("peek", share=share, seed=5, **settings), twin


@pytest.mark.slow
@pytest.mark.parametrize("share", [0.0, 1.0])
def test_a_player_peeking_at_no_card_is_hard_unread_and_at_every_card_hard_open(
        share: float) -> None:
    peek, twin = _peekers(share)
    hand = Match(make_rules("filicau"), seed=4).deal()
    decisions = 0
    while not hand.finished:
        seat = hand.actors()[0]
        view = seat_view(hand, seat)
        for p in (peek, twin):
            if isinstance(p, OpenHandPlayer):
                p.see(hand)
        action = peek.choose(view)
        assert action == twin.choose(view), (share, len(hand.actions))
        decisions += len(view.legal) > 1
        hand.apply(seat, action)
    assert decisions > 10


@pytest.mark.slow
def test_a_player_peeking_only_in_the_play_bids_as_hard_unread_and_plays_as_hard_open() -> None:
    settings: dict[str, Any] = {**SEARCH["hard_unread"], "samples": 16, "budget": None}
    peek = PeekPlayer("peek", share=1.0, when="play", seed=5, **settings)
    unread = SearchPlayer("unread", seed=5, **settings)
    open_ = OpenHandPlayer("open", seed=5, **settings)
    rules = make_rules("schafkopf")
    both = {"choices": 0, "play": 0}
    for seed in range(12):
        hand = Match(rules, seed=seed).deal()
        while not hand.finished:
            seat = hand.actors()[0]
            view = seat_view(hand, seat)
            peek.see(hand)
            open_.see(hand)
            action = peek.choose(view)
            if len(view.legal) > 1:
                choosing = view.phase in rules.searched_choices
                twin = unread if choosing else open_
                assert action == twin.choose(view), (seed, view.phase, len(hand.actions))
                if action != (open_ if choosing else unread).choose(view):
                    both["choices" if choosing else "play"] += 1
            hand.apply(seat, action)
        if all(both.values()):
            break
    # Seeing the cards changed some decision of each kind, so each twin was told apart.
    assert all(both.values()), both


def test_a_player_peeking_at_some_cards_refuses_a_game_that_rebuilds_its_hands_itself() -> None:
    hand = Match(make_rules("schafkopf"), seed=1).deal()
    player = PeekPlayer("peek", share=0.5, samples=1, seed=5)
    player.see(hand)
    with pytest.raises(ValueError, match="wholly or not at all"):
        player.guesser(seat_view(hand, hand.actors()[0]))
    with pytest.raises(ValueError, match="when is one of"):
        PeekPlayer("peek", share=1.0, when="bidding", samples=1)


@pytest.mark.slow
def test_a_player_peeking_at_half_the_cards_puts_them_with_their_holders_in_between() -> None:
    hand = Match(make_rules("filicau"), seed=4).deal()
    normal = make_player("normal", seed=1, timed=False)
    for _ in range(9):  # two tricks and a lead: some voids may be known, most is hidden
        seat = hand.actors()[0]
        hand.apply(seat, normal.choose(seat_view(hand, seat)))
    seat = hand.actors()[0]
    view = seat_view(hand, seat)
    hidden = {c: s for s, cards in enumerate(hand.hands) if s != seat for c in cards}

    def with_holder(share: float) -> float:
        player = PeekPlayer("peek", share=share, samples=1, seed=5)
        player.see(hand)
        guess = player.guesser(view)
        rng = random.Random(3)
        right = total = 0
        for _ in range(300):
            guessed = guess(rng)
            right += sum(guessed.hands[s].count(c) for c, s in hidden.items())
            total += len(hidden)
        return right / total

    unread, half, every = with_holder(0.0), with_holder(0.5), with_holder(1.0)
    assert every == 1.0
    assert 0.2 < unread < 0.5
    # Half the cards peeked at, the other half guessed as unread: about halfway to certain.
    assert abs(half - (0.5 + 0.5 * unread)) < 0.04, (unread, half)


@pytest.mark.slow
def test_the_peek_benchmark_plays_the_arena_and_refuses_a_share_that_is_no_chance() -> None:
    def peek(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "benchmarks.peek", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=600)

    run = peek("--share", "0.5", "--deals", "1", "--json")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert (result["a"], result["b"], result["deals"]) == ("peek=0.5", "hard_unread", 1)
    later = json.loads(peek("--share", "0.5", "--when", "play", "--deals", "1", "--first", "2",
                            "--json").stdout)
    assert (later["a"], later["first"], later["deals"]) == ("peek=0.5@play", 2, 1)
    bad = peek("--share", "1.5", "--deals", "1")
    assert bad.returncode == 2 and "--share" in bad.stderr


def test_a_perfect_reader_of_a_player_that_ignores_its_seed_likes_the_true_deal_best() -> None:
    from benchmarks.posterior import _log_likelihood
    from benchmarks.reading_model import play, replay
    from engine.determinize import hand_from_view
    from engine.inference import infer, sample
    from engine.players import SimplePlayer

    record = play(("simple", 0, 1, "filicau"))
    hand, seat = next((h, s) for h, s, _ in replay(record)
                      if len(h.tricks) == 3 and not h.trick)
    view = seat_view(hand, seat)
    # The rule-of-thumb player's every choice, replayed in the true deal, is what it chose.
    deciders = [SimplePlayer()]
    best = _log_likelihood(hand, seat, deciders)
    rng = random.Random(2)
    guessed = [_log_likelihood(hand_from_view(view, sample(infer(view), rng)), seat, deciders)
               for _ in range(12)]
    assert all(g <= best + 1e-9 for g in guessed)
    assert min(guessed) < best - 1  # some guess explains its play far worse


@pytest.mark.slow
def test_the_posterior_benchmark_reports_the_true_holders_share_weighed_and_not(
        tmp_path: Path) -> None:
    log = tmp_path / "cards.jsonl"
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.posterior", "--level", "simple", "--hands", "3",
         "--guesses", "6", "--seeds", "1", "--workers", "1", "--log", str(log)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["cards"] > 0
    assert all(0 < report[k] < 1 for k in ("unweighted", "weighed_half", "weighed"))
    shift = report["weighed_minus_unweighted"]
    assert shift["ci95"][0] <= shift["mean"] <= shift["ci95"][1]
    assert abs(shift["mean"] - (report["weighed"] - report["unweighted"])) < 1e-3
    # The log holds each hand's cards as it was done: a run cut short keeps them.
    hands = [json.loads(line) for line in log.read_text().splitlines()]
    assert [h["hand"] for h in hands] == [10, 11, 12]
    assert sum(len(h["cards"]) for h in hands) == report["cards"]


@pytest.mark.slow
def test_the_pairing_benchmark_sets_each_draw_against_its_minimum() -> None:
    """A small run through the command line: both draws, every round after the first set
    against a minimum no greater than what was drawn."""
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.pairing", "--fields", "3", "--most", "14",
         "--seed", "1", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    for name in ("before", "after"):
        figures = report[name]
        assert figures["rounds"] > 0
        assert figures["rounds_min_0"] + figures["rounds_min_above_0"] == figures["rounds"]
        assert figures["mean_excess"] >= 0 and 0 < figures["proven_minimum_share"] <= 1
        assert sum(s["rounds"] for s in report[f"{name}_by_shape"].values()) == \
            figures["rounds"]
