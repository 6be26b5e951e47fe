"""``python -m engine verify``: a sealed record whose pack is the fair shuffle its table
committed to is accepted; a record changed anywhere the proof covers is refused, with the
reason (issue 43: "a tampered record refused by verify")."""

from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import random_finish

from engine import Hand, make_rules, replay, to_record
from engine.__main__ import main
from engine.shuffle import Seal, sealed_record
from engine.verify import REASONS, verify

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "tests" / "data" / "sealed_hand.json"
CUT = "1312874506321051648"


def sealed(game: str = "filicau", options: dict[str, Any] | None = None, seed: int = 1,
           cut: str = CUT) -> dict[str, Any]:
    """The public record of a finished hand of ``game``, dealt from a seal."""
    rules = make_rules(game, options)
    seal = Seal.new(rules).with_cut(cut)
    hand = Hand(rules, seed % rules.players, seal.deal())
    random_finish(hand, random.Random(seed))
    return sealed_record(hand, seal)


def reasons(record: dict[str, Any]) -> list[str]:
    return [f["reason"] for f in verify(record)["failures"]]


def flipped(hex_: str, at: int = 10) -> str:
    return hex_[:at] + ("0" if hex_[at] != "0" else "1") + hex_[at + 1:]


@pytest.mark.parametrize("game", ["filicau", "filko6", "filcau20", "schafkopf3", "schafkopf",
                                  "kelebia", "officers"])
def test_a_fair_sealed_record_is_accepted(game: str) -> None:
    record = sealed(game)
    result = verify(record)
    assert result["verified"], result
    assert result["commitment"] == record["shuffle"]["commitment"]
    assert result["short"].replace(" ", "") == record["shuffle"]["commitment"][:32]


def test_a_record_without_a_cut_is_accepted_too() -> None:
    record = sealed(cut="")
    assert "cut" not in record["shuffle"]
    assert verify(record)["verified"] and verify(record)["cut"] is None
    assert verify(sealed())["cut"] == CUT


def swap(record: dict[str, Any], i: int, j: int) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out["pack"][i], out["pack"][j] = out["pack"][j], out["pack"][i]
    return out


def test_a_changed_pack_is_refused() -> None:
    record = sealed("filicau")
    # Two cards of the same seat (Filicău deals one at a time: indexes 0 and 4 go to one
    # seat) and two cards of two seats: whether or not the play still fits, the pack does not.
    for changed in (swap(record, 0, 4), swap(record, 0, 1)):
        found = reasons(changed)
        assert "pack_mismatch" in found and "commitment_mismatch" not in found
        assert set(found) <= {"pack_mismatch", "replay_failed"}
    position = next(f for f in verify(swap(record, 5, 9))["failures"]
                    if f["reason"] == "pack_mismatch")["position"]
    assert position == 5


def test_a_changed_seed_secret_commitment_or_cut_is_refused() -> None:
    record = sealed("schafkopf")
    changes = {
        "seed": ({"commitment_mismatch", "pack_mismatch"}, flipped),
        "secret": ({"commitment_mismatch"}, flipped),
        "commitment": ({"commitment_mismatch"}, flipped),
        "cut": ({"pack_mismatch"}, lambda c: c + "1"),
    }
    for key, (expected, change) in changes.items():
        changed = copy.deepcopy(record)
        changed["shuffle"][key] = change(changed["shuffle"][key])
        assert set(reasons(changed)) == expected, key
        assert verify(changed)["verified"] is False


def test_another_game_or_pack_is_refused() -> None:
    """The commitment covers the game and its cards: the same shuffle claimed for the short
    pack (24 cards) or another game does not pass."""
    record = sealed("schafkopf")
    changed = {**record, "options": {**record["options"], "short_pack": True}}
    assert "commitment_mismatch" in reasons(changed)
    other = sealed("filko")
    assert "commitment_mismatch" in reasons({**other, "game": "filko_hats"})


def test_an_unknown_scheme_is_refused() -> None:
    record = sealed()
    record["shuffle"]["scheme"] = "fy-shake256/2"
    assert reasons(record) == ["unknown_scheme"]
    del record["shuffle"]["scheme"]
    assert reasons(record) == ["unknown_scheme"]


def test_a_hand_in_play_and_an_old_record_cannot_be_verified_but_replay() -> None:
    rules = make_rules("filicau")
    seal = Seal.new(rules)
    hand = Hand(rules, 0, seal.deal())
    in_play = sealed_record(hand, seal)
    assert reasons(in_play) == ["not_revealed"]
    old = to_record(hand)
    assert reasons(old) == ["no_shuffle"]
    assert replay(old).to_move == replay(in_play).to_move == 1


def test_malformed_shuffle_fields_are_refused() -> None:
    record = sealed()
    for key, value in (("seed", "xyz"), ("secret", "ab" * 31), ("commitment", 5),
                       ("cut", 12), ("cut", "9" * 201)):
        changed = copy.deepcopy(record)
        changed["shuffle"][key] = value
        assert reasons(changed) == ["bad_shuffle"], key
    assert reasons({**record, "shuffle": "sealed"}) == ["bad_shuffle"]
    # Upper-case hexadecimal and card codes read as well.
    upper = copy.deepcopy(record)
    upper["shuffle"]["seed"] = upper["shuffle"]["seed"].upper()
    upper["pack"] = [c.lower() for c in upper["pack"]]
    assert verify(upper)["verified"]


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = sealed()
    record["actions"][3] = record["actions"][2]
    assert reasons(record) == ["replay_failed"]
    failure = verify(record)["failures"][0]
    assert failure["action"] == 3
    bad = {**sealed(), "game": "no_such_game"}
    assert reasons(bad) == ["replay_failed"]


def run(*args: str, stdin: str = "") -> tuple[int, list[dict[str, Any]]]:
    out = io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(["verify", *args], out=out)
    finally:
        sys.stdin = old
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_command_accepts_a_fair_record_and_refuses_a_tampered_one(tmp_path: Path) -> None:
    good = sealed("filko")
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(good), encoding="utf-8")
    assert run(str(path)) == (0, [verify(good)])
    bad = swap(good, 0, 31)
    code, [answer] = run("-", stdin=json.dumps(bad))
    assert code == 1 and not answer["verified"]
    assert "pack_mismatch" in [f["reason"] for f in answer["failures"]]


def test_the_command_reads_a_file_holding_a_record_under_record(tmp_path: Path) -> None:
    path = tmp_path / "wrapped.json"
    path.write_text(json.dumps({"why": "an example", "record": sealed()}), encoding="utf-8")
    assert run(str(path))[0] == 0


def test_jsonl_answers_every_line() -> None:
    good, bad = sealed(seed=3), sealed(seed=4)
    bad["shuffle"]["secret"] = flipped(bad["shuffle"]["secret"])
    lines = [json.dumps(good), "not json", "", json.dumps([1]), json.dumps(bad)]
    code, answers = run("--jsonl", "-", stdin="\n".join(lines) + "\n")
    assert code == 1
    assert [a["verified"] for a in answers] == [True, False, False, False]
    assert [[f["reason"] for f in a["failures"]] for a in answers[1:]] == [
        ["not_json"], ["bad_record"], ["commitment_mismatch"]]
    code, answers = run("--jsonl", "-", stdin=json.dumps(good) + "\n")
    assert code == 0 and answers[0]["verified"]


def test_every_reason_is_one_a_test_produces() -> None:
    """Each documented reason is reached above (this list is what record-format.md
    documents)."""
    text = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    for reason in REASONS:
        assert f"`{reason}`" in text, reason
    here = Path(__file__).read_text(encoding="utf-8")
    for reason in REASONS:
        assert f'"{reason}"' in here, reason


def test_the_documented_example_verifies() -> None:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert verify(record)["verified"]
    assert replay(record).finished


@pytest.mark.slow
def test_verify_as_a_user_runs_it() -> None:
    done = subprocess.run([sys.executable, "-m", "engine", "verify", str(EXAMPLE)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["verified"] is True
