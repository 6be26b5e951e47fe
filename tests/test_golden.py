"""Golden records: ``python -m engine replay`` on hand-checked records.

Each ``golden/*.json`` holds ``why`` (what it demonstrates), the ``record``, the replay output
it must give (``expected``) and the exit code (1 for a record that cannot be replayed). The
outputs were produced once by the engine and then checked card by card against RULINGS.md
(trump, every trick's winner, the points, the status and the next dealer) before being frozen.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_there_are_golden_records() -> None:
    assert len(GOLDEN) >= 6


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replay(path: Path, tmp_path: Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    assert golden["why"].strip()
    record = tmp_path / "record.json"
    record.write_text(json.dumps(golden["record"]), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(record)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert run.returncode == golden["exit_code"], run.stderr
    assert json.loads(run.stdout) == golden["expected"]
    assert ("error" in golden["expected"]) == (golden["exit_code"] == 1)
