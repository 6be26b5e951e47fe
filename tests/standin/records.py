"""Reading the bot's database from outside the process (read-only, while it runs), and the
hidden-card check that every message the stand-in gets goes through."""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from visibility import choices_so_far, hidden_from, holder

from bot.texts import card_label
from engine import Hand, replay
from engine.cards import CardError, card

from .discord_objects import Message


@dataclass
class StoredHand:
    id: int
    table_id: int
    number: int
    header: dict[str, Any]
    actions: list[dict[str, Any]]
    result: dict[str, Any] | None

    def record(self) -> dict[str, Any]:
        return {**self.header, "actions": self.actions}

    def replay(self) -> Hand:
        return replay(self.record())


class Database:
    def __init__(self, path: Path) -> None:
        self.path = path

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)
        db.row_factory = sqlite3.Row
        try:
            yield db
        finally:
            db.close()

    def rows(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        if not self.path.exists():
            return []
        with self._db() as db:
            return list(db.execute(sql, args))

    def table_in(self, channel_id: int) -> sqlite3.Row | None:
        """The latest table of a channel, or of the thread it opened there."""
        rows = self.rows("SELECT * FROM tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                         channel_id) or self.rows(
            "SELECT * FROM tables WHERE json_extract(settings, '$.thread_id') = ? "
            "ORDER BY id DESC LIMIT 1", channel_id)
        return rows[0] if rows else None

    def hands(self, table_id: int) -> list[StoredHand]:
        with self._db() as db:
            out = []
            for h in db.execute("SELECT * FROM hands WHERE table_id = ? ORDER BY number",
                                (table_id,)):
                actions = [json.loads(r["action"]) for r in db.execute(
                    "SELECT action FROM actions WHERE hand_id = ? ORDER BY idx", (h["id"],))]
                out.append(StoredHand(h["id"], h["table_id"], h["number"],
                                      json.loads(h["header"]), actions,
                                      None if h["result"] is None else json.loads(h["result"])))
            return out

    def hand(self, table_id: int, number: int | None = None) -> StoredHand | None:
        hands = self.hands(table_id)
        if number is not None:
            hands = [h for h in hands if h.number == number]
        return hands[-1] if hands else None

    def action_rows(self, table_id: int) -> list[sqlite3.Row]:
        return self.rows("SELECT a.* FROM actions a JOIN hands h ON a.hand_id = h.id "
                         "WHERE h.table_id = ? ORDER BY h.number, a.idx", table_id)

    def partnerships(self, game: str) -> list[dict[str, Any]]:
        return [{**dict(r), "team_a": json.loads(r["team_a"]), "team_b": json.loads(r["team_b"])}
                for r in self.rows("SELECT * FROM partnerships WHERE game = ?", game)]

    def results(self, table_id: int) -> list[sqlite3.Row]:
        return self.rows("SELECT r.* FROM results r JOIN hands h ON r.hand_id = h.id "
                         "WHERE h.table_id = ? ORDER BY h.number", table_id)


_HAND_NUMBER = re.compile(r"\b[Hh]and (\d+)\b")


def _label(c: int) -> re.Pattern[str]:
    return re.compile(re.escape(card_label(c)) + r"(?![0-9A-Za-z])")


_LABELS = {c: _label(c) for c in range(32)}


class HiddenCardCheck:
    """An observer of the stand-in: a message may name a card still hidden in a hand (by its
    label, or in a card button's custom_id) only if it is the holder's own ephemeral message.
    The hand is the one the message names ("hand 3"), else the table's latest; it is replayed
    from the database, which is never behind what the bot shows."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.leaks: list[str] = []
        self.checked = 0

    def __call__(self, msg: Message) -> None:
        table = self.db.table_in(msg.channel_id)
        if table is None:
            return
        text = msg.text
        codes: set[int] = set()
        numbers: set[int] = set()
        for b in msg.buttons:
            parts = str(b.get("custom_id", "")).split(":")
            if len(parts) >= 6 and parts[:2] == ["fc", "card"]:
                numbers.add(int(parts[3]))
                with contextlib.suppress(CardError):
                    codes.add(card(parts[5]))
        numbers |= {int(n) for n in _HAND_NUMBER.findall(text)}
        stored = self.db.hands(table["id"])
        if numbers:
            stored = [h for h in stored if h.number in numbers]
        elif stored:
            stored = stored[-1:]
        for h in stored:
            self._check(msg, text, codes, h)
        for name, data in msg.files:
            with contextlib.suppress(ValueError):
                record = json.loads(data)
                if isinstance(record, dict) and any(
                        record.get("table_id") == h.table_id and record.get("hand") == h.number
                        and h.result is None for h in stored):
                    self.leaks.append(f"the record of a hand in play was sent as {name}")

    def _check(self, msg: Message, text: str, codes: set[int], stored: StoredHand) -> None:
        if stored.result is not None:
            return  # a finished hand hides nothing
        hand = stored.replay()
        if hand.finished:
            return
        self.checked += 1
        members = stored.header["members"]
        seat = None
        if msg.audience is not None and str(msg.audience) in members:
            seat = members.index(str(msg.audience))
        earlier = set() if seat is None else choices_so_far(stored.record(), seat)
        for c in sorted(hidden_from(hand, seat, also=earlier)):
            if c in codes or _LABELS[c].search(text):
                who = "everybody" if msg.audience is None else f"user {msg.audience}"
                self.leaks.append(f"hand {stored.number}: {card_label(c)} of "
                                  f"{holder(hand, c)} shown to {who}: {text!r}")
