"""Hands and their actions (the log every open table is rebuilt from), and hand reviews."""

from __future__ import annotations

import json
from typing import Any

from bot.store.model import HandRow, StoreError, now
from bot.store.sql import Conflict, Row, Sql, marks

#: A table in its lobby is in play from its first stored hand on (a closed one stays closed).
IN_PLAY = "UPDATE tables SET state = 'playing' WHERE id = ? AND state = 'lobby'"
NEW_HAND = ("INSERT INTO hands (table_id, number, header, started_at) VALUES (?, ?, ?, ?) "
            "RETURNING id")
#: Both at once, where a write may stand in a ``WITH`` (PostgreSQL): one round trip.
IN_PLAY_WITH_NEW_HAND = f"WITH playing AS ({IN_PLAY}) {NEW_HAND}"
NEW_ACTION = ("INSERT INTO actions (hand_id, idx, action, user_id, by_computer, at) "
              "VALUES (?, ?, ?, ?, ?, ?)")
FINISH = "UPDATE hands SET result = ?, finished_at = ? WHERE id = ?"


class HandSql:
    db: Sql

    async def start_hand(self, table_id: int, number: int, header: dict[str, Any]) -> int:
        args = (table_id, number, json.dumps(header), now())
        try:
            if self.db.writes_in_with:
                return int(await self.db.fetchval(IN_PLAY_WITH_NEW_HAND, table_id, *args))
            # Two statements, each its own transaction: a crash between them leaves a table
            # in play with no hand yet, which a restart restores as such.
            await self.db.execute(IN_PLAY, table_id)
            return int(await self.db.fetchval(NEW_HAND, *args))
        except Conflict:
            raise StoreError(f"hand {number} of table {table_id} is already stored") from None

    async def append_action(
        self, hand_id: int, index: int, action: dict[str, Any], *, user_id: int | None,
        by_computer: bool,
    ) -> None:
        try:
            await self.db.execute(NEW_ACTION, hand_id, index, json.dumps(action), user_id,
                                  by_computer, now())
        except Conflict:
            raise StoreError(f"action {index} of hand {hand_id} is already stored") from None

    async def finish_hand(self, hand_id: int, result: dict[str, Any]) -> None:
        await self.db.execute(FINISH, json.dumps(result), now(), hand_id)

    async def current_hand(self, table_id: int) -> HandRow | None:
        return next(iter(await self.hands(table_id, limit=1)), None)

    async def hands(self, table_id: int, limit: int = 10) -> list[HandRow]:
        """The table's latest hands, the latest first."""
        return await self._with_actions(await self.db.fetch(
            "SELECT * FROM hands WHERE table_id = ? ORDER BY number DESC LIMIT ?",
            table_id, limit))

    async def hand(self, hand_id: int) -> HandRow | None:
        rows = await self.db.fetch("SELECT * FROM hands WHERE id = ?", hand_id)
        return next(iter(await self._with_actions(rows)), None)

    async def _with_actions(self, rows: list[Row]) -> list[HandRow]:
        """The hands of these rows with their actions (read in one query)."""
        actions: dict[int, list[dict[str, Any]]] = {r["id"]: [] for r in rows}
        if actions:
            for a in await self.db.fetch(
                f"SELECT hand_id, action FROM actions WHERE hand_id IN ({marks(len(actions))}) "
                "ORDER BY hand_id, idx", *actions,
            ):
                actions[a["hand_id"]].append(json.loads(a["action"]))
        return [
            HandRow(
                id=r["id"], table_id=r["table_id"], number=r["number"],
                header=json.loads(r["header"]), actions=actions[r["id"]],
                result=None if r["result"] is None else json.loads(r["result"]),
                started_at=r["started_at"], finished_at=r["finished_at"],
            )
            for r in rows
        ]

    # -- hand reviews (issue 17): one JSON document per finished hand and seat -------------

    async def put_review(self, hand_id: int, seat: int, review: dict[str, Any]) -> None:
        """Keep the review of ``seat`` in a finished hand (replacing an older one)."""
        await self.db.execute(
            "INSERT INTO reviews (hand_id, seat, review, made_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (hand_id, seat) DO UPDATE SET review = excluded.review, "
            "made_at = excluded.made_at",
            hand_id, seat, json.dumps(review), now())

    async def get_review(self, hand_id: int, seat: int) -> dict[str, Any] | None:
        text = await self.db.fetchval(
            "SELECT review FROM reviews WHERE hand_id = ? AND seat = ?", hand_id, seat)
        if text is None:
            return None
        review: dict[str, Any] = json.loads(text)
        return review
