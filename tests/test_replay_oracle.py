"""Differential test: ``python -m engine replay --jsonl`` against the reference model.

The model in ``tests/oracle/model.py`` is written from RULINGS.md and the replay contract only.
Records are generated with a fixed seed: random deals and statuses, random legal play (driven by
the model, Servant choice included) cut off at a random point, and illegal records derived by
mutation. All of them go through one engine subprocess; every output key is compared.
"""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

try:
    from tests.oracle import model
except ImportError:  # run with plain `pytest`, where tests/ itself is on sys.path
    from oracle import model  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
SEED = 20240611
N_LEGAL = 2500
N_ILLEGAL = 2000
SHOW_MISMATCHES = 3


# ---------------------------------------------------------------- generation


def random_base(rng: random.Random, game: str | None = None) -> dict[str, Any]:
    game = game or rng.choice(model.GAMES)
    pack = list(model.ALL_CARDS)
    rng.shuffle(pack)
    if rng.random() < 0.15:
        # Put several Overs where trump is shown, to exercise long "shown" runs.
        overs = list(model.OVERS)
        rng.shuffle(overs)
        k = rng.randint(2, 4)
        rest = [c for c in pack if c not in overs[:k]]
        if game == "filko":
            pack = rest[: 32 - k] + overs[:k]
        else:
            pack = list(rest)
            for j, o in enumerate(overs[:k]):
                pack.insert(3 + 4 * j, o)
    if game == "filicau":
        masters = rng.choice([None, None, 0, 1])
        status = {"masters": masters, "servant": None}
        if masters is None:
            dealer = rng.randrange(4)
        else:  # a slave deals
            dealer = rng.choice([s for s in range(4) if s % 2 != masters])
    else:
        masters = rng.choice([None, None, 0, 1])
        if masters is None:
            status = {"masters": None, "servant": None}
            dealer = rng.randrange(4)
        else:
            servant = rng.choice([s for s in range(4) if s % 2 != masters])
            status = {"masters": masters, "servant": servant}
            dealer = servant  # the Servant deals every hand
    record: dict[str, Any] = {"game": game}
    choice = rng.random()
    if choice < 0.4:
        record["options"] = {"early_end": True}
    elif choice < 0.8:
        record["options"] = {"early_end": False}
    elif choice < 0.9:
        record["options"] = {}
    # else: no "options" key at all (early_end defaults to true)
    record.update({"dealer": dealer, "status": status, "pack": pack, "actions": []})
    return record


def random_action(rng: random.Random, hand: model.Hand) -> dict[str, Any]:
    legal = hand.legal()
    move = dict(rng.choice(legal))
    if "servant" in move:
        # Either master may choose.
        move = {"seat": rng.choice([hand.choosing, hand.choosing + 2]), **move}
    else:
        move = {"seat": hand.to_move(), **move}
    return move


def play_random(rng: random.Random, record: dict[str, Any], limit: int) -> model.Hand:
    """Append up to ``limit`` random legal actions to ``record`` (in place)."""
    hand = model.new_hand(record)
    while len(record["actions"]) < limit and not hand.finished:
        action = random_action(rng, hand)
        assert hand.apply(action) is None
        record["actions"].append(action)
    return hand


def random_legal_record(rng: random.Random) -> dict[str, Any]:
    record = random_base(rng)
    r = rng.random()
    if r < 0.1:
        # Stop as soon as card play is over: catches the pending Filkó Servant choice.
        hand = model.new_hand(record)
        while hand.playing:
            action = random_action(rng, hand)
            assert hand.apply(action) is None
            record["actions"].append(action)
        return record
    limit = 40 if r < 0.55 else rng.randint(0, 33)
    play_random(rng, record, limit)
    return record


def _card_mutations(rng: random.Random, hand: model.Hand) -> dict[str, list[dict[str, Any]]]:
    """Illegal card actions available in the current (playing) state, by kind."""
    seat = hand.to_move()
    assert seat is not None
    held = hand.hands[seat]
    legal = model.legal_cards(held, hand.current, hand.trump)
    out: dict[str, list[dict[str, Any]]] = {}
    others = [s for s in range(4) if s != seat]
    wrong = rng.choice(others)
    if hand.hands[wrong]:
        out["wrong_seat"] = [{"seat": wrong, "card": rng.choice(hand.hands[wrong])}]
    out["wrong_seat_own_card"] = [{"seat": wrong, "card": rng.choice(legal)}]
    not_held = [c for c in model.ALL_CARDS if c not in held]
    out["not_held"] = [{"seat": seat, "card": rng.choice(not_held)}]
    out["servant_in_play"] = [{"seat": seat, "servant": (seat + 1) % 4}]
    out["bad_action_shape"] = [
        rng.choice(
            [
                {"seat": 4, "card": rng.choice(legal)},
                {"card": rng.choice(legal)},
                {"seat": seat, "card": "X9"},
                {"seat": seat},
                {"seat": seat, "card": rng.choice(legal), "servant": 1},
            ]
        )
    ]
    if hand.current:
        led = model.effective_suit(hand.current[0], hand.trump)
        follow = [c for c in held if model.effective_suit(c, hand.trump) == led]
        rest = [c for c in held if c not in follow]
        if follow and rest:
            out["no_follow"] = [{"seat": seat, "card": rng.choice(rest)}]
        trumps = [c for c in held if model.is_trump(c, hand.trump)]
        non_trumps = [c for c in held if not model.is_trump(c, hand.trump)]
        if not follow and trumps and non_trumps:
            out["no_trump"] = [{"seat": seat, "card": rng.choice(non_trumps)}]
    return out


def random_illegal_record(rng: random.Random) -> tuple[str, dict[str, Any]]:
    kind_roll = rng.random()
    if kind_roll < 0.08:
        # Bad record as a whole.
        record = random_base(rng)
        play_random(rng, record, rng.randint(0, 6))
        bad = rng.choice(
            [
                "dup_card",
                "dealer_4",
                "unknown_game",
                "short_pack",
                "bad_card",
                "masters_2",
                "servant_partner_status",
                "dealer_neg",
                "dealer_not_servant",
                "master_deals",
            ]
        )
        if bad == "dup_card":
            i, j = rng.sample(range(32), 2)
            record["pack"][i] = record["pack"][j]
        elif bad == "dealer_4":
            record["dealer"] = 4
        elif bad == "dealer_neg":
            record["dealer"] = -1
        elif bad == "unknown_game":
            # (schafkopf is a game now: tarock is still unknown)
            record["game"] = rng.choice(["tarock", "filcau", "", "FILKO"])
        elif bad == "short_pack":
            record["pack"] = record["pack"][:31]
        elif bad == "bad_card":
            record["pack"][rng.randrange(32)] = rng.choice(["X7", "H6", "HQ", "H1", 7])
        elif bad == "masters_2":
            record["status"] = {"masters": 2, "servant": None}
        elif bad == "servant_partner_status":
            record["game"] = "filko"
            record["status"] = {"masters": 0, "servant": 2}
        elif bad == "dealer_not_servant":
            # docs/record-format.md: a standing Servant deals every hand.
            record["game"] = "filko"
            record["status"] = {"masters": 0, "servant": 1}
            record["dealer"] = rng.choice([0, 2, 3])
            record["actions"] = []
        elif bad == "master_deals":
            # RULINGS: with slaves, a slave deals (issue 32: a master dealing was replayed).
            masters = rng.choice([0, 1])
            record["game"] = "filicau"
            record["status"] = {"masters": masters, "servant": None}
            record["dealer"] = rng.choice([masters, masters + 2])
        return bad, record

    for _attempt in range(100):
        record = random_base(rng)
        if kind_roll < 0.15 or kind_roll > 0.95:
            # After the hand is over, or a Servant choice gone wrong: play to the end.
            hand = play_random(rng, record, 10**6)
            if kind_roll < 0.15:
                record["actions"].append(
                    rng.choice(
                        [
                            {"seat": rng.randrange(4), "card": rng.choice(model.ALL_CARDS)},
                            {"seat": rng.randrange(4), "servant": rng.randrange(4)},
                        ]
                    )
                )
                return "after_end", record
            continue
        if kind_roll < 0.25:
            # Servant choice: a partner as Servant, a non-master choosing, or a card instead.
            if record["game"] != "filko" or record["status"]["masters"] is not None:
                continue
            record["options"] = {"early_end": rng.choice([True, False])}
            hand = model.new_hand(record)
            while hand.playing:
                action = random_action(rng, hand)
                hand.apply(action)
                record["actions"].append(action)
            if hand.choosing is None:
                continue
            t = hand.choosing
            kind = rng.choice(
                ["servant_partner", "servant_by_opponent", "card_in_choice", "servant_no_seat"]
            )
            if kind == "servant_partner":
                bad_action = {"seat": rng.choice([t, t + 2]), "servant": rng.choice([t, t + 2])}
            elif kind == "servant_by_opponent":
                opp = 1 - t
                bad_action = {"seat": rng.choice([opp, opp + 2]), "servant": opp}
            elif kind == "servant_no_seat":
                bad_action = {"seat": rng.choice([t, t + 2]), "servant": rng.choice([4, -1, None])}
            else:
                seat = rng.choice([t, t + 2])
                if not hand.hands[seat]:
                    bad_action = {"seat": seat, "card": rng.choice(model.ALL_CARDS)}
                else:
                    bad_action = {"seat": seat, "card": rng.choice(hand.hands[seat])}
            record["actions"].append(bad_action)
            return kind, record
        # Illegal card play in the middle of the hand.
        hand = play_random(rng, record, rng.randint(0, 31))
        if not hand.playing:
            continue
        options = _card_mutations(rng, hand)
        wanted = rng.choice(
            ["no_follow", "no_trump", "no_follow", "no_trump", "wrong_seat", "not_held", "any"]
        )
        if wanted == "any" or wanted not in options:
            if wanted in ("no_follow", "no_trump"):
                continue  # keep looking for a state where this violation is possible
            wanted = rng.choice(sorted(options))
        record["actions"].append(options[wanted][0])
        if rng.random() < 0.3:
            # Junk after the first illegal action must not matter.
            record["actions"].append({"seat": 0, "card": "EO"})
        return wanted, record
    record = random_base(rng)
    play_random(rng, record, 10**6)
    record["actions"].append({"seat": 0, "card": "EA"})
    return "after_end", record


@functools.cache
def generate() -> tuple[tuple[str, dict[str, Any]], ...]:
    """All test records (cached: callers must not mutate them)."""
    rng = random.Random(SEED)
    records: list[tuple[str, dict[str, Any]]] = []
    for _ in range(N_LEGAL):
        records.append(("legal", random_legal_record(rng)))
    for _ in range(N_ILLEGAL):
        records.append(random_illegal_record(rng))
    return tuple(records)


# ---------------------------------------------------------------- comparison


def run_engine(records: list[dict[str, Any]]) -> tuple[int, list[dict[str, Any]], str]:
    text = "".join(json.dumps(r) + "\n" for r in records)
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "--jsonl", "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    return proc.returncode, [json.loads(line) for line in lines], proc.stderr


def normalize(out: Any) -> Any:
    """Errors compare by action index only; "legal" (and each seat's in "may_act") compares
    as a set."""
    if not isinstance(out, dict):
        return out
    if "error" in out:
        err = out["error"]
        action = err.get("action", "<missing>") if isinstance(err, dict) else "<not a dict>"
        extra = sorted(set(out) - {"error"})
        return {"error": {"action": action}, **({"extra_keys": extra} if extra else {})}
    out = dict(out)
    if isinstance(out.get("legal"), list):
        out["legal"] = sorted(out["legal"], key=lambda a: json.dumps(a, sort_keys=True))
    if isinstance(out.get("may_act"), list):
        out["may_act"] = [dict(entry, legal=sorted(entry["legal"], key=lambda a: json.dumps(
            a, sort_keys=True))) if isinstance(entry, dict) and isinstance(entry.get("legal"),
                                               list) else entry for entry in out["may_act"]]
    return out


def describe(kind: str, record: dict[str, Any], expected: Any, got: Any) -> str:
    lines = [f"--- kind={kind}", f"record: {json.dumps(record)}"]
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in sorted(set(expected) | set(got)):
            e, g = expected.get(key, "<absent>"), got.get(key, "<absent>")
            if e != g:
                lines.append(f"  {key}: model={json.dumps(e)}")
                lines.append(f"  {key}: engine={json.dumps(g)}")
    else:
        lines.append(f"  model={json.dumps(expected)}")
        lines.append(f"  engine={json.dumps(got)}")
    lines.append(f"  engine output (start): {json.dumps(got)[:400]}")
    return "\n".join(lines)


def test_model_anchors() -> None:
    """A few hand-checked facts, so the model is not only checked against the engine."""
    # Hearts trump: Overs on top (EO > GO > HO > SO), then H A 10 K U 9 8 7; Overs are trumps.
    order = ["EO", "GO", "HO", "SO", "HA", "H10", "HK", "HU", "H9", "H8", "H7"]
    keys = [model.strength(c, "H", "E") for c in order]
    assert keys == sorted(keys, reverse=True) and min(keys) > model.strength("EA", "H", "E")
    assert model.effective_suit("EO", "H") == "H"
    # Acorns led, hearts trump: a player with EO (a trump) and E7 must follow with E7 only.
    assert model.legal_cards(["EO", "E7", "GA"], ["EA"], "H") == ["E7"]
    # Void in acorns: must trump (the Over counts as a trump).
    assert model.legal_cards(["EO", "GA"], ["EA"], "H") == ["EO"]
    assert model.legal_cards(["GA", "S7"], ["EA"], "H") == ["GA", "S7"]
    # A trump led: Overs follow it.
    assert model.legal_cards(["SO", "HA", "GA"], ["H7"], "H") == ["SO", "HA"]
    assert model.trick_winner(1, ["EA", "E7", "H7", "EK"], "H") == 3
    assert model.trick_winner(1, ["EA", "GA", "SO", "EO"], "H") == 0
    # Filicău deal: one at a time from the seat after the dealer; trump from pack index 3,
    # skipping Overs (index 7, 11, ...).
    pack = list(model.ALL_CARDS)  # EA E10 EK EO EU E9 E8 E7 GA ...
    hands, trump, shown = model.deal("filicau", pack, 2)
    assert hands[3][0] == "EA" and hands[2][:2] == ["EO", "E7"]
    assert shown == ["EO", "E7"] and trump == "E"
    # Filkó deal: 4 at a time twice round; trump from the bottom of the pack.
    hands, trump, shown = model.deal("filko", model.ALL_CARDS, 0)
    assert hands[1][:4] == list(model.ALL_CARDS[:4]) and hands[0][-1] == model.ALL_CARDS[31]
    assert shown == ["S7"] and trump == "S"
    # Status outcomes.
    even = {"masters": None, "servant": None}
    assert model.outcome("filicau", even, (8, 0)) == ("status", None)
    assert model.outcome("filicau", {"masters": 1, "servant": None}, (0, 8)) == ("status", None)
    assert model.outcome("filicau", even, (2, 6)) == ("status", 1)
    assert model.outcome("filicau", {"masters": 1, "servant": None}, (5, 3)) == ("status", 1)
    assert model.outcome("filko", even, (8, 0)) == ("choose", 0)
    assert model.outcome("filko", {"masters": 0, "servant": 3}, (2, 6)) == ("status", 1, 0)
    assert model.outcome("filko", {"masters": 0, "servant": 3}, (5, 3)) == ("status", 0, 3)
    # Early end: Filicău even at 6-1 with one point left is decided; 6-0 is not (8-0 vs 7-1).
    assert model.outcome_fixed("filicau", even, [6, 1])
    assert not model.outcome_fixed("filicau", even, [6, 0])
    assert model.outcome_fixed("filko", {"masters": 0, "servant": 1}, [3, 0])
    assert not model.outcome_fixed("filko", {"masters": 0, "servant": 1}, [2, 0])


@pytest.mark.slow
def test_generator_covers_the_kinds() -> None:
    kinds = {kind for kind, _ in generate()}
    for kind in (
        "legal",
        "wrong_seat",
        "not_held",
        "no_follow",
        "no_trump",
        "servant_partner",
        "after_end",
        "dup_card",
        "dealer_4",
        "dealer_not_servant",
        "master_deals",
        "unknown_game",
        "servant_by_opponent",
        "card_in_choice",
    ):
        assert kind in kinds, kind
    # Some valid records stop while the Filkó masters still have to choose a Servant.
    assert any(
        kind == "legal" and any("servant" in a for a in model.replay(r)["legal"])
        for kind, r in generate()
    )


@pytest.mark.slow
def test_replay_matches_model() -> None:
    cases = generate()
    records = [r for _, r in cases]
    expected = [normalize(model.replay(r)) for r in records]
    code, outputs, stderr = run_engine(records)
    assert len(outputs) == len(records), (
        f"engine printed {len(outputs)} lines for {len(records)} records; stderr:\n{stderr[-2000:]}"
    )
    any_error = any("error" in e for e in expected)
    assert any_error
    mismatches = []
    for (kind, record), exp, got in zip(cases, expected, outputs, strict=True):
        if exp != normalize(got):
            mismatches.append(describe(kind, record, exp, normalize(got)))
    n_err = sum("error" in e for e in expected)
    summary = (
        f"{len(mismatches)} of {len(records)} records differ "
        f"({len(records) - n_err} valid, {n_err} erroneous)"
    )
    assert not mismatches, summary + "\n" + "\n".join(mismatches[:SHOW_MISMATCHES])
    assert code == 1, f"exit code {code} with erroneous records in the batch"


@pytest.mark.slow
def test_exit_code_zero_without_errors() -> None:
    cases = generate()
    valid = [r for kind, r in cases if kind == "legal"][:200]
    assert all("error" not in model.replay(r) for r in valid)
    code, outputs, stderr = run_engine(valid)
    assert code == 0, stderr[-2000:]
    assert len(outputs) == len(valid)


# ---------------------------------------------------------------- statuses of the other games

#: Records per differential test below.
N_STATUS = 1500
N_WINDOW = 1500


def _match_options(rng: random.Random, game: str) -> dict[str, Any]:
    if game == "officers":
        return {"deals": rng.choice([0, 0, 2, 4, 10])}
    if game == "wendish":
        deals = rng.choice([0, 0, 4, 8])
        muss = rng.choice([0, 1, 2]) if deals else 0
        if muss * 4 > deals:
            muss = 1
        return {"deals": deals, "muss_solo": muss, "counters": rng.choice([0, 0, 12])}
    if game == "filcau20":
        return {}
    return rng.choice([{}, {"deals": 3}, {"deals": 9}])


def _played_scores(rng: random.Random, game: str, start: int, deals: int) -> list[int]:
    """A score after ``deals`` deals of random stakes (each within the game's swing, and
    adding up to 0 where what one wins the others pay)."""
    players, swing, zero_sum, _ = model.MATCH_GAMES[game]
    score = [start] * players
    for _ in range(deals):
        winner = rng.randrange(players)
        if zero_sum:
            stake = rng.randint(1, swing // (players - 1))
            for s in range(players):
                score[s] += stake * (players - 1) if s == winner else -stake
        else:
            score[winner] += rng.choice([-swing, -2, 2, 4, swing])
    return score


def random_status_record(rng: random.Random) -> dict[str, Any]:
    """A record with no actions whose status a match of its game may or may not reach."""
    game = rng.choice(["filcau20", "officers", "wendish", "schafkopf3", "dreiwendsch"])
    options = _match_options(rng, game)
    status: dict[str, Any] = {"masters": None, "servant": None}
    dealer = rng.randrange(model.MATCH_GAMES.get(game, (4,))[0])
    if game == "filcau20":
        masters = rng.choice([None, 0, 1, 1])
        if masters is not None:
            status["masters"] = masters
            status["servant"] = rng.choice([1 - masters, 3 - masters, masters])
            dealer = status["servant"] if rng.random() < 0.8 else rng.randrange(4)
        elif rng.random() < 0.1:
            status["servant"] = rng.randrange(4)
        if rng.random() < 0.85:
            status["score"] = [rng.choice([0, 0, 1, 5, 10, 11]) for _ in range(2)]
        pack = list(model.FILCAU_PACK)
    else:
        players, _, _, default_length = model.MATCH_GAMES[game]
        length = options.get("deals", default_length)
        start = options.get("counters", 0)
        played = rng.randint(0, max(length - 1, 6))
        if rng.random() < 0.85:
            score = _played_scores(rng, game, start, played)
            if rng.random() < 0.2:
                score[rng.randrange(players)] += rng.choice([-1, 1])
            if rng.random() < 0.05:
                score = score[:-1]
            status["score"] = score
        if (length and rng.random() < 0.85) or rng.random() < 0.1:
            status["deals"] = played if rng.random() < 0.8 else rng.choice(
                [-1, 0, played - 1, length, length - 1])
        if options.get("muss_solo") and rng.random() < 0.9:
            solos = [0] * players
            for _ in range(rng.randint(0, played + 1)):
                solos[rng.randrange(players)] += 1
            status["solos"] = solos
        elif rng.random() < 0.03:
            status["solos"] = [0] * players
        pack = list(model.ALL_CARDS)
    rng.shuffle(pack)
    return {"game": game, "options": options, "dealer": dealer, "status": status,
            "pack": pack, "actions": []}


def test_statuses_a_match_cannot_reach_are_refused() -> None:
    """Issue 32: states that cannot occur (a Filcau boss with no game point, Officers'
    deals with no set match length, more Wendish solos than deals, a Wendish seat out of
    counters...) were replayed. Every status is refused as the record's fault exactly when
    the model says no match reaches it."""
    rng = random.Random(SEED + 1)
    records = [random_status_record(rng) for _ in range(N_STATUS)]
    expected = [model.status_problem(r["game"], r["options"], r["dealer"], r["status"])
                for r in records]
    _, outputs, stderr = run_engine(records)
    assert len(outputs) == len(records), stderr[-2000:]
    mismatches = []
    for record, problem, got in zip(records, expected, outputs, strict=True):
        refused = "error" in got and got["error"].get("action") is None
        if refused != (problem is not None) or ("error" in got and not refused):
            mismatches.append(f"record {json.dumps(record)}\n  model: {problem}\n  engine: "
                              f"{json.dumps(got)[:300]}")
    # Both answers occur often in every game (the generator reaches both sides).
    for game in ("filcau20", "officers", "wendish", "schafkopf3", "dreiwendsch"):
        answers = [p is None for r, p in zip(records, expected, strict=True)
                   if r["game"] == game]
        assert 30 < sum(answers) < len(answers) - 30, game
    assert not mismatches, (f"{len(mismatches)} of {len(records)} statuses differ\n"
                            + "\n".join(mismatches[:SHOW_MISMATCHES]))


# ---------------------------------------------------------------- the fris window

def random_window_record(rng: random.Random) -> dict[str, Any]:
    """A 20-card Filcau record cut by the seat before the dealer, then a few window actions
    at random (legal or not), ending at the first the model refuses or at the close."""
    dealer = rng.randrange(4)
    pack = list(model.FILCAU_PACK)
    rng.shuffle(pack)
    record: dict[str, Any] = {
        "game": "filcau20", "options": {"fris_trump": rng.choice(["free", "over_suit"])},
        "dealer": dealer, "status": {"masters": None, "servant": None}, "pack": pack,
        "actions": [{"seat": (dealer - 1) % 4, "deal": "cut"}],
    }
    for _ in range(rng.randint(0, 7)):
        seat = rng.randrange(4)
        kind = rng.choices(["pass", "look", "deal_on", "fris", "false"], [4, 2, 1, 2, 1])[0]
        if kind == "fris":
            mine = [c for c in pack[3 * ((seat - dealer - 1) % 4):][:3] if c in model.OVERS]
            over = rng.choice(mine) if mine and rng.random() < 0.8 else rng.choice(model.OVERS)
            value: Any = over if rng.random() < 0.5 else {
                "over": over, "trump": rng.choice(model.SUITS)}
            action = {"seat": seat, "fris": value}
        elif kind == "false":
            action = {"seat": seat, rng.choice(["pass", "look", "deal_on"]): False}
        else:
            action = {"seat": seat, kind: True}
        record["actions"].append(action)
        if model.fris_window_error(record) is not None or kind in ("look", "deal_on", "fris"):
            break
    return record


def test_fris_window_matches_model() -> None:
    """Issue 32: a seat that declined to fris was refused a look ("seat 1 may not act now");
    RULINGS: any seat but the dealer may look while the window is open, also after declining.
    The engine refuses exactly the window actions the model refuses, at the same index."""
    rng = random.Random(SEED + 2)
    records = [random_window_record(rng) for _ in range(N_WINDOW)]
    expected = [model.fris_window_error(r) for r in records]
    _, outputs, stderr = run_engine(records)
    assert len(outputs) == len(records), stderr[-2000:]
    mismatches = [
        f"record {json.dumps(r)}\n  model: {e}\n  engine: {json.dumps(g)[:300]}"
        for r, e, g in zip(records, expected, outputs, strict=True)
        if (g["error"]["action"] if "error" in g else None) != e
    ]
    looked_after_passing = [
        r for r, e in zip(records, expected, strict=True) if e is None and any(
            a.get("look") is True and {"seat": a["seat"], "pass": True} in r["actions"]
            for a in r["actions"])
    ]
    assert len(looked_after_passing) > 20
    assert sum(e is not None for e in expected) > 200
    assert not mismatches, (f"{len(mismatches)} of {len(records)} windows differ\n"
                            + "\n".join(mismatches[:SHOW_MISMATCHES]))


# ---------------------------------------------------------------- every line answered

def test_every_line_is_answered_even_one_nested_too_deeply() -> None:
    """Issue 32: a JSON line nested 1,000 deep made ``replay --jsonl`` die with a
    RecursionError, and no later line was answered. Each line gets its own answer."""
    good = generate()[0][1]
    lines = [
        "[" * 1000 + "]" * 1000,
        '{"game": "filicau", "dealer": 0, "pack": [], "actions": ' + "[" * 5000 + "]" * 5000
        + "}",
        json.dumps({**good, "actions": "DEEP"}).replace(
            '"DEEP"', '[{"seat": 1, "card": ' + '{"a": ' * 3000 + "1" + "}" * 3000 + "}]"),
        json.dumps(good),
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "--jsonl", "-"],
        input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(lines), proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    for answer in answers[:3]:
        assert set(answer) == {"error"} and answer["error"]["action"] is None
        assert "nested too deeply" in answer["error"]["message"]
    assert normalize(answers[3]) == normalize(model.replay(good))
    assert proc.returncode == 1

# ---------------------------------------------------------------- Bavarian Schafkopf

try:
    from tests.oracle import schafkopf as sk_model
except ImportError:  # run with plain `pytest`, where tests/ itself is on sys.path
    from oracle import schafkopf as sk_model  # type: ignore[no-redef]

SK_OPTIONS: tuple[dict[str, Any], ...] = (
    {}, {}, {"short_pack": True}, {"klopfen": True}, {"all_pass": "ramsch"},
    {"all_pass": "stock"}, {"stoss_window": "second_card"}, {"stoss_max": 0},
    {"stoss_max": 4, "tariff": "5/20"}, {"short_pack": True, "klopfen": True},
)
N_SK = 1500


def _sk_actors(hand: sk_model.Hand) -> list[int]:
    if hand.phase in ("kontra", "re"):
        return hand.window_actors()
    return [] if hand.turn is None else [hand.turn]


def _sk_move(rng: random.Random, hand: sk_model.Hand) -> dict[str, Any]:
    free = [(s, a) for s in range(4) for a in hand.free_for(s)]
    if free and rng.random() < 0.1:  # a claim, or a Kontra before forehand's card
        seat, action = rng.choice(free)
        return {"seat": seat, **action}
    seat = rng.choice(_sk_actors(hand))
    legal = hand.legal_for(seat)
    if hand.phase == "announce":
        move = legal[1] if rng.random() < 0.35 else legal[0]  # "I dad" now and then
    elif hand.phase in ("kontra", "re"):
        move = legal[0] if rng.random() < 0.2 else legal[-1]  # doubles now and then
    elif hand.phase in ("game", "clarify") and rng.random() < 0.7:
        move = legal[0]  # mostly the lowest game, a Sauspiel where one may, as at a table
    else:
        move = rng.choice(legal)
    return {"seat": seat, **move}


def _sk_base(rng: random.Random) -> dict[str, Any]:
    options = dict(rng.choice(SK_OPTIONS))
    pack = list(sk_model.SHORT_CARDS if options.get("short_pack") else sk_model.ALL_CARDS)
    rng.shuffle(pack)
    status: dict[str, Any] = {"masters": None, "servant": None}
    if options.get("all_pass") == "stock" and rng.random() < 0.6:
        pot = 40 * rng.randint(0, 3)
        status.update(score=[-pot // 4] * 4, pot=pot)
    elif rng.random() < 0.4:
        a, b, c = (10 * rng.randint(-20, 20) for _ in range(3))
        status["score"] = [a, b, c, -(a + b + c)]
    return {"game": "schafkopf", "options": options, "dealer": rng.randrange(4),
            "status": status, "pack": pack, "actions": []}


def _sk_illegal(rng: random.Random, hand: sk_model.Hand) -> dict[str, Any] | None:
    """An action the model refuses now (None when the one drawn happens to be legal)."""
    seat = rng.randrange(4)
    held = hand.hands[seat]
    pick = rng.choice(["card", "held", "stoss", "game", "class", "weiter", "dad"])
    if pick == "card":
        move: dict[str, Any] = {"card": rng.choice(hand.pack_cards)}
    elif pick == "held" and held:
        move = {"card": rng.choice(held)}
    elif pick == "stoss":
        move = {"stoss": rng.randint(1, 3)}
    elif pick == "game":
        move = {"game": rng.choice(["sauspiel_E", "sauspiel_G", "sauspiel_S", "sie", "wenz"])}
    elif pick == "class":
        move = {"class": rng.choice(sk_model.CLASSES)}
    else:
        move = {pick: True}
    if move in hand.legal_for(seat):
        return None
    return {"seat": seat, **move}


@functools.cache
def sk_generate() -> tuple[tuple[str, dict[str, Any]], ...]:
    rng = random.Random(SEED + 34)
    out: list[tuple[str, dict[str, Any]]] = []
    for i in range(N_SK):
        record = _sk_base(rng)
        hand = sk_model.new_hand(record)
        limit = 10**6 if rng.random() < 0.7 else rng.randint(0, 40)
        while not hand.finished and len(record["actions"]) < limit:
            move = _sk_move(rng, hand)
            assert hand.apply(move["seat"], {k: v for k, v in move.items() if k != "seat"}) \
                is None
            record["actions"].append(move)
        kind = "legal"
        if i % 3 == 2:
            bad = None
            for _ in range(20):
                bad = _sk_illegal(rng, hand)
                if bad is not None:
                    break
            if bad is not None:
                record["actions"].append(bad)
                kind = "illegal_" + next(k for k in bad if k != "seat")
        out.append((kind, record))
    return tuple(out)


def test_schafkopf_model_anchors() -> None:
    """Hand-checked facts of the Schafkopf model (RULINGS.md B2, B3.2, B6.3)."""
    pack = sk_model.ALL_CARDS
    assert sk_model.trumps("sauspiel_G", pack)[:9] == [
        "EO", "GO", "HO", "SO", "EU", "GU", "HU", "SU", "HA"]
    assert sk_model.trumps("wenz", pack) == ["EU", "GU", "HU", "SU"]
    assert sk_model.winner(0, ["GA", "GO", "G10", "G9"], "wenz", pack) == 0
    assert sk_model.winner(0, ["GA", "GO", "G10", "G9"], "sauspiel_E", pack) == 1
    record = {"game": "schafkopf", "dealer": 3, "pack": list(pack), "actions": []}
    hand = sk_model.new_hand(record)
    assert hand.dealt[0] == ["EA", "E10", "EK", "EO", "HA", "H10", "HK", "HO"]
    assert sk_model.replay(dict(record, actions=[
        {"seat": s, "weiter": True} for s in range(4)]))["status"]["score"] == [0, 0, 0, 0]


def test_schafkopf_replay_matches_model() -> None:
    cases = sk_generate()
    kinds = {kind for kind, _ in cases}
    assert {"legal", "illegal_card", "illegal_stoss", "illegal_game"} <= kinds
    finished = [r for kind, r in cases if kind == "legal" and sk_model.replay(r).get("finished")]
    assert len(finished) > N_SK // 5
    records = [r for _, r in cases]
    expected = [normalize(sk_model.replay(r)) for r in records]
    code, outputs, stderr = run_engine(records)
    assert len(outputs) == len(records), stderr[-2000:]
    assert code == 1  # the refused records make the batch's exit code 1
    mismatches = [describe(kind, record, exp, normalize(got))
                  for (kind, record), exp, got in zip(cases, expected, outputs, strict=True)
                  if exp != normalize(got)]
    assert not mismatches, f"{len(mismatches)} of {len(records)} differ\n" + "\n".join(
        mismatches[:SHOW_MISMATCHES])
