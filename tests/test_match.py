"""A match carries status and the deal from hand to hand; options are checked."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    B_6_2,
    D_4_4,
    D_DM_6_2,
    DEAL_B,
    DEAL_D,
    random_finish,
)
from deal import act as play
from deal import deal, pack_for

from engine import (
    EVEN,
    GAMES,
    Match,
    RecordError,
    ReplayError,
    Status,
    make_rules,
    replay,
    to_record,
)
from engine.cards import cards, codes


def test_filicau_match_carries_status_and_dealer() -> None:
    rules = make_rules("filicau", {"early_end": False})
    match = Match(rules, seed=1, dealer=0)
    hand = match.deal(cards(pack_for("filicau", DEAL_B, 0)))
    assert (hand.dealer, hand.status) == (0, EVEN)
    play(hand, B_6_2)  # seats 1 and 3 take 6: masters; the dealer is a slave
    match.record_result(hand)
    assert (match.status, match.dealer, match.hands_played) == (Status(1), 0, 1)
    assert match.last_result is hand.result
    hand = match.deal(cards(pack_for("filicau", DEAL_D, 0)))
    assert (hand.dealer, hand.status) == (0, Status(1))
    play(hand, D_DM_6_2)  # seats 0 and 2 take 6: masters turn round
    match.record_result(hand)
    assert (match.status, match.dealer) == (Status(0), 1)
    hand = match.deal(cards(pack_for("filicau", DEAL_D, 1)))
    assert (hand.dealer, hand.status) == (1, Status(0))
    play(hand, D_4_4)
    match.record_result(hand)
    assert (match.status, match.dealer, match.hands_played) == (Status(0), 1, 3)


def test_filko_match_servant_deals_next() -> None:
    rules = make_rules("filko", {"early_end": False})
    match = Match(rules, seed=1, dealer=0)
    hand = match.deal(cards(pack_for("filko", DEAL_D, 0)))
    play(hand, D_DM_6_2)
    hand.apply(2, hand.legal_actions(2)[1])  # Servant: seat 3
    match.record_result(hand)
    assert (match.status, match.dealer) == (Status(0, 3), 3)
    hand = match.deal(cards(pack_for("filko", DEAL_D, 3)))
    assert (hand.dealer, hand.status) == (3, Status(0, 3))
    play(hand, D_DM_6_2)  # the servant team (dealer 3, seat 1) takes 6
    match.record_result(hand)
    assert (match.status, match.dealer) == (Status(1, 0), 0)


def test_unfinished_hand_cannot_be_recorded() -> None:
    match = Match(make_rules("filicau"), seed=3)
    hand = match.deal()
    with pytest.raises(ValueError, match="not finished"):
        match.record_result(hand)
    assert match.hands_played == 0


def _run(game: str, seed: int, hands: int) -> list[dict[str, object]]:
    match = Match(make_rules(game), seed=seed)
    rng = random.Random(seed)
    records = []
    for _ in range(hands):
        hand = match.deal()
        random_finish(hand, rng)
        match.record_result(hand)
        records.append(to_record(hand))
    return records


@pytest.mark.parametrize("game", sorted(GAMES))
def test_seeded_matches_are_the_same_every_time(game: str) -> None:
    first = _run(game, 42, 12)
    assert first == _run(game, 42, 12)
    assert first != _run(game, 43, 12)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_match_follows_its_results(game: str) -> None:
    records = _run(game, 7, 30)
    for rec, nxt in itertools.pairwise(records):
        hand = replay(rec)
        assert hand.result is not None
        assert nxt["dealer"] == hand.result.next_dealer
        assert nxt["status"] == hand.result.status.to_json()


def test_first_dealer_is_a_slave_in_filicau() -> None:
    for masters, slaves in ((0, {1, 3}), (1, {0, 2})):
        dealers = {Match(make_rules("filicau"), seed=s, status=Status(masters)).dealer
                   for s in range(40)}
        assert dealers == slaves
    assert {Match(make_rules("filicau"), seed=s).dealer for s in range(40)} == {0, 1, 2, 3}


def test_first_dealer_is_the_servant_in_filko() -> None:
    for status in (Status(0, 1), Status(0, 3), Status(1, 0), Status(1, 2)):
        dealers = {Match(make_rules("filko"), seed=s, status=status).dealer for s in range(20)}
        assert dealers == {status.servant}
    assert {Match(make_rules("filko"), seed=s).dealer for s in range(40)} == {0, 1, 2, 3}


def test_bad_status_for_a_match_is_refused() -> None:
    with pytest.raises(RecordError):
        Match(make_rules("filko"), status=Status(0))
    with pytest.raises(RecordError):
        Match(make_rules("filicau"), status=Status(0, 1))


# -- options ---------------------------------------------------------------------------------


def test_unknown_option() -> None:
    with pytest.raises(RecordError, match=r"bad options for filicau: colour: Extra inputs"):
        make_rules("filicau", {"colour": "red"})


def test_top_trumps_is_no_filicau_option() -> None:
    with pytest.raises(RecordError, match="filicau: top_trumps"):
        make_rules("filicau", {"top_trumps": "standard"})


def test_bad_top_trumps_value() -> None:
    with pytest.raises(RecordError) as e:
        make_rules("filko", {"top_trumps": "clubs_high"})
    msg = str(e.value)
    assert "top_trumps" in msg
    for value in ("standard", "hearts_seven", "leaves_low"):
        assert value in msg


def test_bad_early_end_value() -> None:
    with pytest.raises(RecordError, match="early_end"):
        make_rules("filko", {"early_end": "sometimes"})


def test_unknown_game() -> None:
    with pytest.raises(RecordError, match=r"unknown game 'whist'; known games: .*filicau, filko"):
        make_rules("whist")


def test_options_have_defaults() -> None:
    assert make_rules("filicau").options.early_end is True
    assert make_rules("filko").options.top_trumps == "standard"  # type: ignore[attr-defined]


def test_bad_options_in_a_record() -> None:
    rec = {"game": "filko", "options": {"top_trumps": "nope"}, "dealer": 0,
           "pack": pack_for("filko", DEAL_D, 0)}
    with pytest.raises(ReplayError) as e:
        replay(rec)
    assert e.value.action is None
    assert "top_trumps" in str(e.value)


# -- records ---------------------------------------------------------------------------------


def _base() -> dict[str, Any]:
    hand = deal("filicau", DEAL_D)
    play(hand, "EO G9")
    return to_record(hand)


@pytest.mark.parametrize(("change", "action", "reason", "words"), [
    (lambda r: r["pack"].pop(), None, "bad_pack", "missing"),
    (lambda r: r["pack"].__setitem__(0, r["pack"][1]), None, "bad_pack", "repeated"),
    (lambda r: r["pack"].__setitem__(0, "X9"), None, "bad_card", "'X9' is not a card"),
    (lambda r: r.__setitem__("dealer", 4), None, "bad_dealer", "dealer"),
    (lambda r: r.__setitem__("dealer", True), None, "not_a_record", "dealer"),
    (lambda r: r.__setitem__("status", {"masters": 2}), None, "bad_status", "masters"),
    (lambda r: r.__setitem__("status", {"masters": 0, "servant": 1}), None, "bad_status",
     "Servant"),
    (lambda r: r.pop("game"), None, "not_a_record", "game"),
    (lambda r: r.__setitem__("game", "whist"), None, "unknown_game", "whist"),
    (lambda r: r.__setitem__("options", {"early_end": 3}), None, "bad_options", "early_end"),
    (lambda r: r["actions"].append({"card": "SK"}), 2, "bad_action", "seat"),
    (lambda r: r["actions"].append({"seat": 3, "bid": "SK"}), 2, "bad_action", "exactly one"),
    (lambda r: r["actions"].append({"seat": 3, "card": "ZZ"}), 2, "bad_action", "'ZZ'"),
    (lambda r: r["actions"].append({"seat": 0, "card": "EA"}), 2, "not_your_turn", "seat 3"),
    (lambda r: r["actions"].append({"seat": 3, "card": "EA"}), 2, "not_your_card", "EA"),
    (lambda r: r["actions"].insert(0, {"seat": 1, "card": "HO"}), 1, "not_your_turn", "seat 1"),
])
def test_bad_records_name_what_is_wrong(change, action, reason, words) -> None:
    """Issue 44: an error had a message but no machine-readable reason; each refusal now
    carries its reason key and the params that fill it."""
    rec = _base()
    change(rec)
    with pytest.raises(ReplayError) as e:
        replay(rec)
    assert (e.value.action, e.value.reason) == (action, reason)
    assert words in str(e.value)
    assert e.value.to_json() == {"error": {"action": action, "reason": reason,
                                           "params": e.value.params, "message": str(e.value)}}


def test_a_refusal_s_params_are_in_its_json() -> None:
    rec = _base()
    rec["actions"].append({"seat": 3, "card": "EA"})
    with pytest.raises(ReplayError) as e:
        replay(rec)
    assert e.value.to_json()["error"]["params"] == {"seat": 3, "card": "EA"}
    rec = {**_base(), "options": {"top_trumps": "nope"}, "game": "filko"}
    with pytest.raises(ReplayError) as e:
        replay(rec)
    assert e.value.to_json()["error"]["params"] == {
        "option": "top_trumps", "value": "nope", "problem": "literal_error"}


def test_a_record_round_trips() -> None:
    rec = _base()
    assert to_record(replay(rec)) == rec
    assert rec["options"] == {"early_end": True}
    assert rec["actions"] == [{"seat": 1, "card": "EO"}, {"seat": 2, "card": "G9"}]


# -- what docs/record-format.md says a status check refuses (issue 44) -----------------------

ROOT = Path(__file__).resolve().parent.parent
#: A row of the format's status tables: the game (the first key in its cell), then the
#: example's options, dealer and status.
_STATUS_ROW = re.compile(r"^\| [^|`]*`(\w+)`[^|]*\|(?:[^|]*\|)? (?:options `(\{[^`]*\})` )?"
                         r"dealer (\d+) `(\{[^`]*\})` \|", re.M)


def _status_rows(title: str) -> list[tuple[str, dict[str, Any], int, dict[str, Any]]]:
    text = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    start = text.index(title)
    table = text[start:text.index("\n\n", start)]
    return [(game, json.loads(options or "{}"), int(dealer), json.loads(status))
            for game, options, dealer, status in _STATUS_ROW.findall(table)]


def _status_record(game: str, options: dict[str, Any], dealer: int,
                   status: dict[str, Any]) -> dict[str, Any]:
    return {"game": game, "options": options, "dealer": dealer, "status": status,
            "pack": codes(make_rules(game, options).pack), "actions": []}


def test_the_status_checks_are_the_ones_the_record_format_names() -> None:
    """Issue 44: docs/record-format.md promised to refuse "a status that no play can reach",
    but the engine checks necessary conditions only. The format now names each condition
    with an example that breaks it alone, and statuses that meet them all although no play
    reaches them: the first are refused as the record's fault, the others replayed."""
    refused = _status_rows("| game | the status is refused when |")
    assert len(refused) >= 30
    for game, options, dealer, status in refused:
        with pytest.raises(ReplayError) as e:
            replay(_status_record(game, options, dealer, status))
        assert e.value.action is None and e.value.reason in ("bad_status", "bad_dealer"), (
            game, status, str(e.value))
    accepted = _status_rows("| game | status | why no play reaches it |")
    assert len(accepted) >= 2
    for game, options, dealer, status in accepted:
        hand = replay(_status_record(game, options, dealer, status))
        assert hand.status.score == tuple(status["score"])
