"""Hints and reviews in the bot: computed off the event loop (``bot.thinking``), reviews kept
in the store once per hand and seat (``put_review``/``get_review``)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from deal import act as play
from deal import deal

from bot import thinking
from bot.store import MIGRATIONS, SqliteStore
from engine import Match, make_rules, seat_view, to_record
from engine.ai.analysis import Decision, review_from_json
from engine.cards import code

# The hand-worked deal of tests/test_analysis.py: at trick 7 seat 0 holds GA (wins the trick
# and makes its team masters) and G7 (no change).
HANDS = [
    "H9 S10 E10 H10 SU EK GA G7",
    "SA E9 H8 EO GO HO G10 EU",
    "S7 EA HA SK HU SO G9 GU",
    "S8 E8 H7 S9 HK E7 GK G8",
]
TO_T7 = ("SA S7 S8 S10 | E9 EA E8 E10 | HA H7 H10 H8 | SK S9 SU EO | GO HU HK H9 | HO SO E7 EK"
         " | G10 G9 GK")


# ``make`` and ``store``: a store of each backend, SQLite and a real PostgreSQL (conftest.py).


async def test_a_hint_is_computed_in_a_worker_process() -> None:
    hand = Match(make_rules("filicau"), seed=4).deal()
    seat = hand.to_move
    assert seat is not None
    view = seat_view(hand, seat)
    thinking.start(1)
    try:
        got = await thinking.hint("normal", seat, view)
    finally:
        thinking.stop()
    # The same answer as in this process, and the move a Normal computer in that seat makes.
    assert got == thinking.hint_now("normal", seat, view)
    assert got.recommended == thinking.decide_now("normal", seat, view)


async def test_a_hint_without_a_pool_names_the_sure_trick() -> None:
    hand = deal("filicau", HANDS)
    play(hand, TO_T7)
    thinking.stop()
    got = await thinking.hint("normal", 0, seat_view(hand, 0))
    assert code(got.recommended.value) == "GA"


async def test_a_review_is_made_once_and_then_read_from_the_store(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    hand = deal("filicau", HANDS)
    play(hand, TO_T7, "G7")
    assert hand.finished
    record = to_record(hand)
    table = await store.create_table(guild_id=1, channel_id=2, game="filicau", options={},
                                     opener_id=3, seats=["3", "cpu:easy", "4", "cpu:easy"])
    hand_id = await store.start_hand(table.id, 1, record)
    made: list[tuple[int, int]] = []
    original = thinking.review_now

    def counting(rec: dict[str, Any], seat: int, index: int) -> Decision:
        made.append((seat, index))
        return original(rec, seat, index)

    monkeypatch.setattr(thinking, "review_now", counting)
    thinking.stop()
    # Two requests at once (a double click) make one review.
    first, twin = await asyncio.gather(thinking.stored_review(store, hand_id, record, 0),
                                       thinking.stored_review(store, hand_id, record, 0))
    again = await thinking.stored_review(store, hand_id, record, 0)
    # One search per decision of seat 0 (its 7 cards), once.
    assert made == [(0, i) for i in (3, 7, 10, 14, 19, 23, 27)]
    assert first == twin == again
    assert [code(d.best.value) for d in first if d.mistake] == ["GA"]
    kept = await store.get_review(hand_id, 0)
    assert kept is not None and review_from_json(kept) == first
    # Another seat's review is its own.
    assert await store.get_review(hand_id, 1) is None
    await thinking.stored_review(store, hand_id, record, 1)
    assert {seat for seat, _ in made} == {0, 1}


async def test_a_review_of_another_version_is_made_again(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    hand = deal("filicau", HANDS)
    play(hand, TO_T7, "GA")
    record = to_record(hand)
    table = await store.create_table(guild_id=1, channel_id=2, game="filicau", options={},
                                     opener_id=3, seats=["3", "cpu:easy", "4", "cpu:easy"])
    hand_id = await store.start_hand(table.id, 1, record)
    await store.put_review(hand_id, 0, {"version": 0, "decisions": []})
    thinking.stop()
    got = await thinking.stored_review(store, hand_id, record, 0)
    assert got  # recomputed, not the empty old one
    kept = await store.get_review(hand_id, 0)
    assert kept is not None and review_from_json(kept) == got


async def test_reviews_table_comes_with_its_migration(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    s = SqliteStore(path)
    await s.open()
    await s.close()
    con = sqlite3.connect(path)
    try:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
        version = con.execute("PRAGMA user_version").fetchone()[0]
    finally:
        con.close()
    assert "reviews" in names
    assert version == len(MIGRATIONS)
