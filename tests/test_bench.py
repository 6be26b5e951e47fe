"""``python -m engine bench``: every game, and the comparison with OpenSpiel."""

from __future__ import annotations

import io
import json
from typing import Any

from engine.__main__ import main
from engine.rules import GAMES
from engine.tools.bench import bench, compare_openspiel, floor


def test_bench_plays_complete_hands_of_every_game() -> None:
    out = io.StringIO()
    assert main(["bench", "--game", "all", "--hands", "3", "--seed", "2"], out=out) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["game"] for r in lines] == sorted(GAMES)
    for r in lines:
        # Every hand plays at least one card per seat.
        assert r["hands"] == 3 and r["actions"] >= 3 * 3


def test_bench_is_reproducible_from_its_seed() -> None:
    a, b = bench("filko", 20, seed=5), bench("filko", 20, seed=5)
    assert a["actions"] == b["actions"]


def test_compare_alternates_and_reports_the_median_ratio() -> None:
    calls: list[int] = []

    def fake(games: int, seed: int) -> dict[str, Any]:
        calls.append(seed)
        return {"hands_per_second": 2.0, "actions_per_second": 100.0}

    r = compare_openspiel("filicau", 5, seed=10, rounds=3, run_openspiel=fake)
    assert calls == [10, 11, 12]
    assert len(r["per_round"]["engine"]) == 3
    assert r["hands_per_second"]["openspiel"] == 2.0
    assert r["ratio"] == round(r["hands_per_second"]["engine"] / 2.0, 2) > 0
    # The floor runs in the same rounds, and its ratio is against the same OpenSpiel figure.
    assert len(r["per_round"]["floor"]) == 3
    assert r["floor_ratio"] == round(r["hands_per_second"]["floor"] / 2.0, 2) > 0


def test_floor_times_the_same_hands_as_the_engine_without_their_rules() -> None:
    # Kept as many hands as it times, the floor plays exactly the bench's hands of that seed:
    # the same number of actions, each from the legal actions the engine offered.
    for game in ("filicau", "schafkopf3", "rich_poor"):
        played = bench(game, 12, seed=3)
        replayed = floor(game, 12, seed=3, kept=12)
        assert replayed["game"] == f"floor:{game}"
        assert replayed["actions"] == played["actions"] > 12


def test_bench_prints_the_floor_after_the_engine_when_asked() -> None:
    out = io.StringIO()
    assert main(["bench", "--game", "filko", "--hands", "4", "--floor"], out=out) == 0
    engine_line, floor_line = (json.loads(line) for line in out.getvalue().splitlines())
    assert (engine_line["game"], floor_line["game"]) == ("filko", "floor:filko")
    assert floor_line["hands"] == 4 and floor_line["actions"] > 0
