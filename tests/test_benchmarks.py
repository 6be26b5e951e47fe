"""The benchmarks still drive today's bot: each runs at a tiny size, through the real bot
process and the stand-in, and its figures add up.

They take minutes at their documented sizes and are run by hand; a change to the lobby once broke
the soak without any test noticing (its computers were added by buttons that had become a
menu). The figures themselves are measurements, not asserted here.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import soak
from benchmarks import store as store_bench
from bot.store import SqliteStore

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
