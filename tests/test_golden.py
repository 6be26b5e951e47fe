"""Golden records: ``python -m engine replay`` on hand-checked records.

Each ``golden/*.json`` holds ``why`` (what it demonstrates), the ``record``, the replay output
it must give (``expected``) and the exit code (1 for a record that cannot be replayed). The
outputs were produced once by the engine and then checked card by card against RULINGS.md
(trump, every trick's winner, the points, the status and the next dealer) before being frozen.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import ReplayError, make_rules, replay, report
from engine.cards import codes

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_there_are_golden_records() -> None:
    assert len(GOLDEN) >= 6


@pytest.mark.slow
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


# -- what a record may say (docs/record-format.md) -------------------------------------------

CARD_CODE = re.compile(r"^[EGHS](A|10|K|O|U|9|8|7)$")


def _lower(x: Any) -> Any:
    """Every card code and suit letter of a record in lower case."""
    if isinstance(x, str) and (CARD_CODE.match(x) or x in ("E", "G", "H", "S")):
        return x.lower()
    if isinstance(x, list):
        return [_lower(y) for y in x]
    if isinstance(x, dict):
        return {k: v if k == "game" else _lower(v) for k, v in x.items()}
    return x


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_card_codes_and_suit_letters_read_in_either_case(path: Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    if golden["exit_code"]:
        return
    lowered = _lower(golden["record"])
    assert lowered != golden["record"]
    assert report(replay(lowered)) == golden["expected"]


def _pack(game: str) -> list[str]:
    return codes(make_rules(game).pack)


@pytest.mark.parametrize(("game", "dealer", "status", "options"), [
    # A standing Servant deals every hand.
    ("filko", 0, {"masters": 0, "servant": 1}, {}),
    ("filko6", 2, {"masters": 1, "servant": 0}, {}),
    ("filko_hats", 3, {"masters": 0, "servant": 1}, {}),
    ("filko5", 0, {"masters": 0, "servant": 1, "teams": [0, 1, 0, 1, 1], "trump": 2,
                   "leader": 2}, {}),
    ("kelebia", 4, {"masters": 0, "servant": 1, "teams": [0, 1, 0, 1, 1], "trump": 2,
                    "leader": 0}, {}),
    ("rich_poor", 2, {"masters": 0, "servant": 1, "teams": [0, 1, 0, 1, 1], "trump": 2,
                      "leader": 0}, {"rich_poor_teams": "until_freed"}),
    # Filcau: a boss team needs a servant, and the servant deals.
    ("filcau20", 1, {"masters": 0, "servant": None, "score": [1, 0]}, {}),
    ("filcau20", 0, {"masters": 0, "servant": 1, "score": [1, 0]}, {}),
    ("filcau20", 3, {"masters": 0, "servant": 1, "score": [1, 0]}, {}),
    # Wendish with no set match length keeps no deal count.
    ("wendish", 0, {"masters": None, "servant": None, "score": [0, 0, 0, 0], "deals": 0},
     {"deals": 0}),
])
def test_a_dealer_or_status_the_format_forbids_is_refused(
        game: str, dealer: int, status: dict[str, Any], options: dict[str, Any]) -> None:
    record = {"game": game, "options": options, "dealer": dealer, "status": status,
              "pack": _pack(game), "actions": []}
    with pytest.raises(ReplayError) as e:
        replay(record)
    assert e.value.action is None
    # The same status with the dealer it names is a good record.
    if status.get("servant") is not None:
        replay({**record, "dealer": status["servant"]})


E = {"masters": None, "servant": None}


@pytest.mark.parametrize(("game", "options", "dealer", "impossible", "possible"), [
    # Filicău: while there are slaves a slave deals (issue 32).
    ("filicau", {}, 0, {"masters": 0, "servant": None}, {"masters": 1, "servant": None}),
    ("filicau", {}, 3, {"masters": 1, "servant": None}, {"masters": 0, "servant": None}),
    # Filcau: a team turns boss at the end of a hand and scores its game point at once.
    ("filcau20", {}, 1, {"masters": 0, "servant": 1, "score": [0, 4]},
     {"masters": 0, "servant": 1, "score": [1, 4]}),
    ("filcau20", {}, 1, {"masters": 0, "servant": 1},
     {"masters": 0, "servant": 1, "score": [1, 0]}),
    # Officers' with no set match length keeps no deal count (issue 32); with one, every
    # hand writes the score and the deals.
    ("officers", {}, 0, {**E, "score": [1, -1], "deals": 1}, {**E, "score": [1, -1]}),
    ("officers", {"deals": 4}, 0, {**E, "score": [1, -1]}, {**E, "score": [1, -1], "deals": 1}),
    # Officers': what one seat wins the other pays, 3 at most a deal.
    ("officers", {}, 0, {**E, "score": [3, -1]}, {**E, "score": [3, -3]}),
    ("officers", {"deals": 4}, 0, {**E, "score": [4, -4], "deals": 1},
     {**E, "score": [4, -4], "deals": 2}),
    # Wendish: at most one Lust Solo a deal (issue 32).
    ("wendish", {"deals": 8, "muss_solo": 1}, 0,
     {**E, "score": [5, 1, -3, -3], "deals": 1, "solos": [1, 1, 0, 0]},
     {**E, "score": [5, 1, -3, -3], "deals": 2, "solos": [1, 1, 0, 0]}),
    ("wendish", {"deals": 8, "muss_solo": 1}, 0, {**E, "score": [1, 1, -1, -1], "deals": 1},
     {**E, "score": [1, 1, -1, -1], "deals": 1, "solos": [0, 0, 0, 0]}),
    # Wendish: a seat out of counters has ended the match (issue 32); counters change hands.
    ("wendish", {"counters": 12}, 0, {**E, "score": [0, 16, 16, 16]},
     {**E, "score": [1, 15, 16, 16]}),
    ("wendish", {"counters": 12}, 0, {**E, "score": [1, 15, 16, 17]},
     {**E, "score": [1, 15, 16, 16]}),
    # Schafkopf for three: the declarer scores 6 at most a deal; score and deals together.
    ("schafkopf3", {}, 0, {**E, "score": [8, 0, 0], "deals": 1},
     {**E, "score": [8, 0, 0], "deals": 2}),
    ("schafkopf3", {}, 0, {**E, "score": [2, 0, 0]}, {**E, "score": [2, 0, 0], "deals": 1}),
    # Dreiwendsch: what one seat wins the others pay.
    ("dreiwendsch", {}, 0, {**E, "score": [2, -1, 0], "deals": 1},
     {**E, "score": [2, -1, -1], "deals": 1}),
])
def test_a_status_no_play_reaches_is_refused(
        game: str, options: dict[str, Any], dealer: int, impossible: dict[str, Any],
        possible: dict[str, Any]) -> None:
    """States that cannot occur are refused as the record's fault (``"action": null``),
    and the nearest state that can occur is a good record."""
    record = {"game": game, "options": options, "dealer": dealer, "status": impossible,
              "pack": _pack(game), "actions": []}
    with pytest.raises(ReplayError) as e:
        replay(record)
    assert e.value.action is None
    replay({**record, "status": possible})


def test_first_trick_false_is_no_action() -> None:
    golden = json.loads((ROOT / "tests/golden/wendish_called_schwarz.json").read_text())
    record = golden["record"]
    declarer = record["actions"][0]["seat"]  # holds both Old Ones, called first
    with pytest.raises(ReplayError) as e:
        replay({**record, "actions": [{"seat": declarer, "first_trick": False}]})
    assert e.value.reason == "flag_false"
    assert "call" not in str(e.value)
