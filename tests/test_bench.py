"""``python -m engine bench``: every game, and the comparison with OpenSpiel."""

from __future__ import annotations

import io
import json
from typing import Any

from engine.__main__ import main
from engine.bench import bench, compare_openspiel
from engine.rules import GAMES


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
