"""Tables: one row per table ever opened, at most one open table per channel."""

from __future__ import annotations

import json
from typing import Any

from bot.store.model import Member, StoreError, TableRow, TableState, now
from bot.store.sql import Conflict, Row, Sql

OPEN = "state <> 'closed'"


def table_row(row: Row) -> TableRow:
    return TableRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        message_id=row["message_id"], game=row["game"], options=json.loads(row["options"]),
        opener_id=row["opener_id"], seats=json.loads(row["seats"]), state=row["state"],
        created_at=row["created_at"], settings=json.loads(row["settings"]),
        runtime=json.loads(row["runtime"] or "{}"),
    )


class TableSql:
    db: Sql

    async def create_table(
        self, *, guild_id: int, channel_id: int, game: str, options: dict[str, Any],
        opener_id: int, seats: list[Member | None], settings: dict[str, Any] | None = None,
    ) -> TableRow:
        created = now()
        settings = settings or {}
        try:
            table_id = await self.db.fetchval(
                "INSERT INTO tables (guild_id, channel_id, game, options, settings, opener_id, "
                "seats, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?) "
                "RETURNING id",
                guild_id, channel_id, game, json.dumps(options), json.dumps(settings),
                opener_id, json.dumps(seats), created,
            )
        except Conflict:
            raise StoreError("this channel already has an open table") from None
        return TableRow(
            id=table_id, guild_id=guild_id, channel_id=channel_id, message_id=None,
            game=game, options=options, opener_id=opener_id, seats=seats, state="lobby",
            created_at=created, settings=settings,
        )

    async def update_table(
        self, table_id: int, *, seats: list[Member | None] | None = None,
        state: TableState | None = None, message_id: int | None = None,
        options: dict[str, Any] | None = None, settings: dict[str, Any] | None = None,
        runtime: dict[str, Any] | None = None,
    ) -> None:
        sets: list[str] = []
        args: list[Any] = []
        if seats is not None:
            sets.append("seats = ?")
            args.append(json.dumps(seats))
        if state is not None:
            sets.append("state = ?")
            args.append(state)
            if state == "closed":
                sets.append("closed_at = ?")
                args.append(now())
        if message_id is not None:
            sets.append("message_id = ?")
            args.append(message_id)
        if options is not None:
            sets.append("options = ?")
            args.append(json.dumps(options))
        if settings is not None:
            sets.append("settings = ?")
            args.append(json.dumps(settings))
        if runtime is not None:
            sets.append("runtime = ?")
            args.append(json.dumps(runtime))
        if sets:
            await self.db.execute(f"UPDATE tables SET {', '.join(sets)} WHERE id = ?",
                                  *args, table_id)

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self.db.fetchrow("SELECT * FROM tables WHERE id = ?", table_id)
        return None if row is None else table_row(row)

    async def open_tables(self) -> list[TableRow]:
        return await self.tables_where("TRUE")

    async def open_table_in(self, channel_id: int) -> TableRow | None:
        found = await self.tables_where("channel_id = ?", channel_id)
        return found[-1] if found else None

    async def homes_across(self) -> list[int]:
        """The home servers of the open tables across servers."""
        # The settings are written by json.dumps alone (create_table, update_table).
        rows = await self.db.fetch(
            f"SELECT DISTINCT guild_id FROM tables WHERE {OPEN} AND CAST(settings AS TEXT) LIKE ? "
            "ORDER BY guild_id", '%"crossplay": true%')
        return [int(r["guild_id"]) for r in rows]

    async def tables_where(self, condition: str, *args: Any) -> list[TableRow]:
        """The open tables that meet ``condition``, by id."""
        rows = await self.db.fetch(
            f"SELECT * FROM tables WHERE {OPEN} AND {condition} ORDER BY id", *args)
        return [table_row(r) for r in rows]
