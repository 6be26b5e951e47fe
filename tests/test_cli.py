"""``python -m engine replay|bench|play`` as a user runs them."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import D_3_3, DEAL_D
from deal import act as play
from deal import deal

from engine import to_record
from engine.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
REPORT_KEYS = {"trump", "shown", "hands", "tricks", "points", "finished", "to_move", "legal",
               "may_act", "status", "next_dealer"}


def engine(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def _record(cards: str = D_3_3, **extra: Any) -> dict[str, Any]:
    """A DEAL_D record (dealer 0, trump hearts) with these cards played."""
    hand = deal("filicau", DEAL_D)
    play(hand, cards)
    return {**to_record(hand), **extra}


@pytest.mark.slow
def test_replay_a_file(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(_record()), encoding="utf-8")
    run = engine("replay", str(path))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert set(out) == REPORT_KEYS
    assert (out["trump"], out["points"], out["finished"]) == ("H", [3, 3], True)
    assert len(out["tricks"]) == 7


@pytest.mark.slow
def test_replay_from_stdin_matches_the_file(tmp_path: Path) -> None:
    rec = _record("EO G9 SK")
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    from_stdin = engine("replay", "-", stdin=json.dumps(rec))
    assert from_stdin.returncode == 0
    assert json.loads(from_stdin.stdout) == json.loads(engine("replay", str(path)).stdout)
    out = json.loads(from_stdin.stdout)
    assert out["to_move"] == 0
    assert out["tricks"] == [{"leader": 1, "cards": ["EO", "G9", "SK"], "winner": None}]
    assert [a["card"] for a in out["legal"]] == ["HK", "HU", "H9", "H8", "H7"]


@pytest.mark.slow
def test_extra_record_keys_are_allowed() -> None:
    run = engine("replay", "-", stdin=json.dumps(_record("EO", table="t1", users=[1, 2])))
    assert run.returncode == 0, run.stdout


@pytest.mark.slow
def test_replay_error_names_the_bad_action() -> None:
    rec = _record("EO G9 SK")
    rec["actions"].append({"seat": 0, "card": "EA"})  # the dealer holds trumps: must follow
    run = engine("replay", "-", stdin=json.dumps(rec))
    assert run.returncode == 1
    err = json.loads(run.stdout)["error"]
    assert err["action"] == 3
    assert "EA" in err["message"] and "trumps" in err["message"]


@pytest.mark.slow
def test_replay_jsonl_mixes_good_and_bad_lines() -> None:
    lines = [
        json.dumps(_record("EO")),
        "this is not json",
        "",
        json.dumps([1, 2, 3]),
        json.dumps({"game": "whist", "dealer": 0, "pack": []}),
        json.dumps(_record("EO G9 SK", actions=[{"seat": 2, "card": "G9"}])),
        json.dumps(_record(D_3_3)),
    ]
    run = engine("replay", "-", "--jsonl", stdin="\n".join(lines) + "\n")
    assert run.returncode == 1
    outs = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(outs) == 6  # the blank line gets no answer
    assert outs[0]["to_move"] == 2
    assert outs[1]["error"]["action"] is None and "not JSON" in outs[1]["error"]["message"]
    assert outs[2]["error"]["action"] is None
    assert "unknown game 'whist'" in outs[3]["error"]["message"]
    assert outs[4]["error"]["action"] == 0  # seat 2 played before seat 1
    assert outs[5]["points"] == [3, 3]


@pytest.mark.slow
def test_replay_jsonl_all_good_exits_0() -> None:
    lines = [json.dumps(_record("EO")), json.dumps(_record(D_3_3))]
    run = engine("replay", "-", "--jsonl", stdin="\n".join(lines))
    assert run.returncode == 0
    assert len(run.stdout.splitlines()) == 2


@pytest.mark.slow
def test_replay_bad_json_exits_1() -> None:
    run = engine("replay", "-", stdin="{")
    assert run.returncode == 1
    assert "error" in json.loads(run.stdout)


@pytest.mark.slow
def test_replay_missing_file_exits_2(tmp_path: Path) -> None:
    run = engine("replay", str(tmp_path / "nope.json"))
    assert run.returncode == 2
    assert "error" in run.stderr


@pytest.mark.slow
def test_bench_reports_json() -> None:
    run = engine("bench", "--hands", "200", "--seed", "5")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert (out["game"], out["hands"], out["seed"]) == ("filicau", 200, 5)
    assert out["hands_per_second"] > 0
    # Early end is on by default: between 1 and 8 tricks a hand.
    assert 200 * 4 <= out["actions"] <= 200 * 32


@pytest.mark.slow
def test_bench_filko() -> None:
    run = engine("bench", "--game", "filko", "--hands", "200")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["hands_per_second"] > 0


@pytest.mark.slow
def test_help_is_plain_words() -> None:
    run = engine("--help")
    assert run.returncode == 0
    assert "``" not in run.stdout and "replay" in run.stdout


@pytest.mark.slow
@pytest.mark.parametrize("command", ["play", "bench", "arena", "ai-timing"])
def test_an_unknown_game_is_refused_with_the_known_ones(command: str) -> None:
    run = engine(command, "--game", "nonsense")
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "invalid choice: 'nonsense'" in run.stderr
    assert "filicau" in run.stderr and "officers" in run.stderr


@pytest.mark.slow
def test_game_help_lists_the_games_and_their_players() -> None:
    run = engine("play", "--help")
    assert "officers (Officers' Schafkopf, 2 players)" in " ".join(run.stdout.split())


@pytest.mark.parametrize(("game", "bad", "players"), [("filicau", 5, 4), ("officers", 3, 2),
                                                      ("filko6", 7, 6), ("filicau", 0, 4)])
@pytest.mark.slow
def test_the_seat_range_is_the_game_s(game: str, bad: int, players: int) -> None:
    # Seats are numbered from 1, as on Discord.
    run = engine("play", "--game", game, "--seat", str(bad))
    assert run.returncode == 2
    assert f"--seat must be 1 to {players}" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.slow
def test_the_last_seat_of_a_six_player_game_is_playable() -> None:
    run = engine("play", "--game", "filko6", "--seat", "6", "--seed", "1", stdin="")
    assert run.returncode == 0, run.stderr
    assert "you are seat 6;" in run.stdout


GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.json"))


@pytest.mark.slow
@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_replay_a_golden_file_as_the_readme_says(path: Path) -> None:
    """The golden files hold the record under "record" beside "why" and "expected": the
    README's ``python -m engine replay tests/golden/<file>.json`` replays the record in it."""
    golden = json.loads(path.read_text(encoding="utf-8"))
    run = engine("replay", str(path.relative_to(ROOT)))
    assert run.returncode == golden["exit_code"], run.stdout + run.stderr
    assert json.loads(run.stdout) == golden["expected"]


@pytest.mark.slow
def test_a_record_with_a_key_named_record_is_still_a_record() -> None:
    # A bare record is taken as it is, whatever extra keys it carries.
    run = engine("replay", "-", stdin=json.dumps(_record("EO", record="kept by the bot")))
    assert run.returncode == 0, run.stdout
    assert json.loads(run.stdout)["to_move"] == 2


# -- Bavarian Schafkopf's doubling window through the replay command (issue 44) ---------------

#: Seat 0 forehand (dealer 3) plays a Sauspiel with the Gras Ace called: seat 1 holds GA.
SK_HANDS = ["EO GO HU H9 EA E7 G7 S7", "HO SO GA G10 G9 GK E10 H8",
            "EU GU SU HA H10 EK E9 SA", "HK H7 S10 G8 E8 SK S9 S8"]
SK_SAUSPIEL = [{"seat": 0, "dad": True}, {"seat": 1, "weiter": True},
               {"seat": 2, "weiter": True}, {"seat": 3, "weiter": True},
               {"seat": 0, "game": "sauspiel_G"}]


def _replay_in_process(tmp_path: Path, actions: list[dict[str, Any]], hands: list[str] = SK_HANDS,
                       **options: Any) -> tuple[int, dict[str, Any]]:
    """``python -m engine replay FILE`` run in this process (``main``), on a Schafkopf deal."""
    hand = deal("schafkopf", hands, 3, **options)
    record = {**to_record(hand), "actions": actions}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = io.StringIO()
    code = main(["replay", str(path)], out=out)
    return code, json.loads(out.getvalue())


def test_replay_lists_every_seat_a_doubling_window_asks(tmp_path: Path) -> None:
    """Issue 44: ``legal`` listed only the first seat in a doubling window. ``may_act`` lists
    every seat that may act, with its actions (the hidden partner may only say Weiter)."""
    code, out = _replay_in_process(tmp_path, SK_SAUSPIEL)
    assert code == 0 and out["to_move"] == 1
    assert out["may_act"] == [
        {"seat": 1, "legal": [{"weiter": True}]},
        {"seat": 2, "legal": [{"stoss": 1}, {"weiter": True}]},
        {"seat": 3, "legal": [{"stoss": 1}, {"weiter": True}]},
    ]
    assert out["legal"] == out["may_act"][0]["legal"]  # the seat to move's, as before
    # With second_card, forehand leads while the opponents may double out of turn.
    code, out = _replay_in_process(tmp_path, SK_SAUSPIEL, stoss_window="second_card")
    assert code == 0 and out["to_move"] == 0
    assert [(m["seat"], [a for a in m["legal"] if "card" not in a]) for m in out["may_act"]] \
        == [(0, []), (2, [{"stoss": 1}]), (3, [{"stoss": 1}])]


def test_replay_errors_carry_a_reason_and_say_what_happened(tmp_path: Path) -> None:
    """Issue 44: an error had a message but no machine-readable ``reason``; a card during the
    window was "not your turn: seat 1 is to act"; a Kontra after every seat had answered,
    with no card played, was "closed with the first card of trick 1"."""
    code, out = _replay_in_process(tmp_path, [*SK_SAUSPIEL, {"seat": 0, "card": "EO"}])
    assert code == 1
    err = out["error"]
    assert (err["action"], err["reason"]) == (5, "wrong_phase")
    assert err["params"]["asked"] == [1, 2, 3]
    assert "Kontra window is open: seats 1, 2 and 3 are asked" in err["message"]
    answered = [*SK_SAUSPIEL, *({"seat": s, "weiter": True} for s in (1, 2, 3))]
    code, out = _replay_in_process(tmp_path, [*answered, {"seat": 2, "stoss": 1}])
    err = out["error"]
    assert (err["reason"], err["params"]["closed"]) == ("stoss_late", "answered")
    assert "every seat asked had answered" in err["message"]
    assert "first card" not in err["message"]
    code, out = _replay_in_process(tmp_path, [*answered, {"seat": 0, "card": "EO"},
                                              {"seat": 2, "stoss": 1}])
    assert out["error"]["params"]["closed"] == "card"
    assert "closed with the first card of trick 1" in out["error"]["message"]


def test_a_doubling_during_a_hochzeit_says_the_game_is_declared(tmp_path: Path) -> None:
    """Issue 44: ``stoss_early`` said "doubling starts once a game is declared" when one
    was."""
    hands = ["EO EA E10 EK GA G10 GK SA", "HO SO HU H9 E7 G7 S7 S10",
             "GO EU GU SU HA H10 E9 E8", "HK H8 H7 G9 G8 SK S9 S8"]
    actions = [{"seat": 0, "dad": True}, *({"seat": s, "weiter": True} for s in (1, 2, 3)),
               {"seat": 0, "game": "hochzeit"}, {"seat": 2, "stoss": 1}]
    code, out = _replay_in_process(tmp_path, actions, hands, hochzeit=True)
    err = out["error"]
    assert (code, err["reason"], err["params"]["declared"]) == (1, "stoss_early", True)
    assert "Hochzeit is declared" in err["message"]
    code, out = _replay_in_process(tmp_path, [*actions[:1], {"seat": 2, "stoss": 1}], hands,
                                   hochzeit=True)
    assert out["error"]["params"]["declared"] is False
    assert "no game is declared yet" in out["error"]["message"]
