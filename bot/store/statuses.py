"""Partnership statuses: masters, Servant and dealing duty between two partnerships of a
server and game, keyed by their members in canonical order (not by table or channel)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.store.model import Member, PartnershipStatus, StoreError, canonical, now, pair_key
from bot.store.sql import Row, Sql


def status_row(row: Row) -> PartnershipStatus:
    return PartnershipStatus(
        guild_id=row["guild_id"], game=row["game"], team_a=json.loads(row["team_a"]),
        team_b=json.loads(row["team_b"]), masters=row["masters"], servant=row["servant"],
        next_dealer=row["next_dealer"], since=row["since"], updated_at=row["updated_at"],
        extra=json.loads(row["extra"]),
    )


class StatusSql:
    db: Sql

    async def get_status(
        self, guild_id: int, game: str, team0: Sequence[Member], team1: Sequence[Member]
    ) -> PartnershipStatus | None:
        a, b, _ = canonical(team0, team1)
        row = await self.db.fetchrow(
            "SELECT * FROM partnerships WHERE guild_id = ? AND game = ? AND pair_key = ?",
            guild_id, game, pair_key(a, b))
        return None if row is None else status_row(row)

    async def put_status(self, status: PartnershipStatus) -> None:
        a, b, swapped = canonical(status.team_a, status.team_b)
        if swapped:
            raise StoreError("a partnership status must list its teams in canonical order")
        await self.db.execute(
            "INSERT INTO partnerships (guild_id, game, pair_key, team_a, team_b, masters, "
            "servant, next_dealer, since, updated_at, extra) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, game, pair_key) DO UPDATE SET masters = excluded.masters, "
            "servant = excluded.servant, next_dealer = excluded.next_dealer, "
            "since = excluded.since, updated_at = excluded.updated_at, extra = excluded.extra",
            status.guild_id, status.game, pair_key(a, b), json.dumps(a), json.dumps(b),
            status.masters, status.servant, status.next_dealer, status.since,
            status.updated_at or now(), json.dumps(status.extra),
        )

    async def statuses(self, guild_id: int) -> list[PartnershipStatus]:
        """A server's statuses, the latest updated first."""
        rows = [status_row(r) for r in await self.db.fetch(
            "SELECT * FROM partnerships WHERE guild_id = ?", guild_id)]
        # Sorted here, not by the database: timestamps compare character by character, as
        # SQLite compares text, whatever the PostgreSQL server's locale.
        return sorted(rows, key=lambda s: s.updated_at or "", reverse=True)

    async def reset_status(self, guild_id: int, game: str, member: Member) -> int:
        """Make every partnership of ``member`` in this game even again; returns how many
        changed (a rare admin command, not worth a query of its own)."""
        changed = 0
        for st in await self.statuses(guild_id):
            if st.game == game and member in (*st.team_a, *st.team_b) and (
                st.masters is not None or st.next_dealer is not None or st.extra
            ):
                await self.put_status(st.model_copy(update={
                    "masters": None, "servant": None, "next_dealer": None, "since": None,
                    "updated_at": now(), "extra": {},
                }))
                changed += 1
        return changed
