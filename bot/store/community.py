"""Finding a game and tournaments (issue 37): players' own preferences, servers' settings for
finding a game, and tournaments with their entrants and the tables of each round."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.store.model import (
    CommunitySettings,
    Entrant,
    PlayerSettings,
    TournamentFormat,
    TournamentRow,
    TournamentState,
    TournamentTable,
    now,
)
from bot.store.sql import Row, Sql

#: Tournaments still to be played: signing up, or in play.
LIVE = "state IN ('signup', 'running')"


def tournament_row(row: Row) -> TournamentRow:
    return TournamentRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        message_id=row["message_id"], event_id=row["event_id"],
        organizer_id=row["organizer_id"], game=row["game"], format=row["format"],
        rounds=row["rounds"], hands=row["hands"], settings=json.loads(row["settings"]),
        state=row["state"], round=row["round"], shown=row["shown"],
        starts_at=row["starts_at"],
        created_at=row["created_at"])


def table_of_round(row: Row) -> TournamentTable:
    return TournamentTable(
        tournament_id=row["tournament_id"], round=row["round"], number=row["number"],
        seats=json.loads(row["seats"]), thread_id=row["thread_id"], table_id=row["table_id"],
        result=None if row["result"] is None else json.loads(row["result"]))


def precise_now() -> str:
    """Now to the microsecond: the order entrants signed up in (a tie-break)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


class CommunitySql:
    db: Sql

    # -- a player's own preferences ------------------------------------------------------

    async def player_settings(self, user_id: int) -> PlayerSettings:
        row = await self.db.fetchrow("SELECT * FROM player_settings WHERE user_id = ?",
                                     user_id)
        if row is None:
            return PlayerSettings(user_id=user_id)
        return PlayerSettings(user_id=row["user_id"], reminders=row["reminders"],
                              invites=row["invites"], locale=row["locale"])

    async def put_player_settings(self, settings: PlayerSettings) -> None:
        await self.db.execute(
            "INSERT INTO player_settings (user_id, reminders, invites, locale, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "reminders = excluded.reminders, invites = excluded.invites, "
            "locale = excluded.locale, updated_at = excluded.updated_at",
            settings.user_id, settings.reminders, settings.invites, settings.locale, now())

    # -- a server's settings for finding a game ------------------------------------------

    async def community_settings(self, guild_id: int) -> CommunitySettings:
        row = await self.db.fetchrow("SELECT * FROM community_settings WHERE guild_id = ?",
                                     guild_id)
        if row is None:
            return CommunitySettings(guild_id=guild_id)
        return CommunitySettings(guild_id=row["guild_id"], call_role_id=row["call_role_id"],
                                 hold_minutes=row["hold_minutes"],
                                 last_call_at=row["last_call_at"])

    async def put_community_settings(self, settings: CommunitySettings) -> None:
        await self.db.execute(
            "INSERT INTO community_settings (guild_id, call_role_id, hold_minutes, "
            "last_call_at, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO "
            "UPDATE SET call_role_id = excluded.call_role_id, "
            "hold_minutes = excluded.hold_minutes, updated_at = excluded.updated_at",
            settings.guild_id, settings.call_role_id, settings.hold_minutes,
            settings.last_call_at, now())

    async def take_call(self, guild_id: int, at: str, unless_since: str) -> bool:
        """Note a call of the server's role at ``at``, unless one was made at
        ``unless_since`` or later: True if this one may go out. One statement, so that two
        tables asking at once make one call."""
        taken = await self.db.fetchval(
            "UPDATE community_settings SET last_call_at = ? WHERE guild_id = ? "
            "AND call_role_id IS NOT NULL AND (last_call_at IS NULL OR last_call_at < ?) "
            "RETURNING guild_id", at, guild_id, unless_since)
        return taken is not None


class TournamentSql:
    db: Sql

    async def create_tournament(
        self, *, guild_id: int, channel_id: int, organizer_id: int, game: str,
        format: TournamentFormat, rounds: int, hands: int, settings: dict[str, Any],
        starts_at: str,
    ) -> TournamentRow:
        created = now()
        tid = await self.db.fetchval(
            "INSERT INTO tournaments (guild_id, channel_id, organizer_id, game, format, "
            "rounds, hands, settings, state, round, starts_at, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'signup', 0, ?, ?) RETURNING id",
            guild_id, channel_id, organizer_id, game, format, rounds, hands,
            json.dumps(settings), starts_at, created)
        return TournamentRow(id=tid, guild_id=guild_id, channel_id=channel_id,
                             organizer_id=organizer_id, game=game, format=format,
                             rounds=rounds, hands=hands, settings=settings,
                             starts_at=starts_at, created_at=created)

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self.db.fetchrow("SELECT * FROM tournaments WHERE id = ?", tournament_id)
        return None if row is None else tournament_row(row)

    async def update_tournament(
        self, tournament_id: int, *, state: TournamentState | None = None,
        message_id: int | None = None, event_id: int | None = None,
        starts_at: str | None = None, shown: int | None = None,
    ) -> None:
        sets: list[str] = []
        args: list[Any] = []
        for column, value in (("state", state), ("message_id", message_id),
                              ("event_id", event_id), ("starts_at", starts_at),
                              ("shown", shown)):
            if value is not None:
                sets.append(f"{column} = ?")
                args.append(value)
        if state in ("finished", "cancelled"):
            sets.append("finished_at = ?")
            args.append(now())
        if sets:
            await self.db.execute(f"UPDATE tournaments SET {', '.join(sets)} WHERE id = ?",
                                  *args, tournament_id)

    async def tournaments_where(self, condition: str, *args: Any) -> list[TournamentRow]:
        """The tournaments still to be played that meet ``condition``, by id."""
        rows = await self.db.fetch(
            f"SELECT * FROM tournaments WHERE {LIVE} AND {condition} ORDER BY id", *args)
        return [tournament_row(r) for r in rows]

    async def live_tournaments(self, guild_id: int) -> list[TournamentRow]:
        return await self.tournaments_where("guild_id = ?", guild_id)

    async def finished_tournaments(self, guild_id: int, limit: int = 20
                                   ) -> list[TournamentRow]:
        rows = await self.db.fetch(
            "SELECT * FROM tournaments WHERE guild_id = ? AND state = 'finished' "
            "ORDER BY id DESC LIMIT ?", guild_id, limit)
        return [tournament_row(r) for r in reversed(rows)]

    # -- entrants -------------------------------------------------------------------------

    async def add_entrant(self, tournament_id: int, entrant: str, name: str) -> bool:
        """Sign ``entrant`` up while the tournament takes sign-ups; False if they were
        signed up already or sign-up is over."""
        added = await self.db.fetchval(
            "INSERT INTO tournament_entrants (tournament_id, entrant, name, joined_at) "
            "SELECT CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT) "
            "WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = ? "
            "AND state = 'signup') ON CONFLICT (tournament_id, entrant) DO NOTHING "
            "RETURNING entrant", tournament_id, entrant, name[:100], precise_now(),
            tournament_id)
        return added is not None

    async def remove_entrant(self, tournament_id: int, entrant: str) -> bool:
        """Take ``entrant``'s sign-up back while sign-up lasts; False if there was none."""
        removed = await self.db.fetchval(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND entrant = ? "
            "AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND state = 'signup') "
            "RETURNING entrant", tournament_id, entrant, tournament_id)
        return removed is not None

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """In the order they signed up."""
        rows = await self.db.fetch(
            "SELECT entrant, name, joined_at FROM tournament_entrants WHERE tournament_id = ? "
            "ORDER BY joined_at, entrant", tournament_id)
        return [Entrant(entrant=r["entrant"], name=r["name"], joined_at=r["joined_at"])
                for r in rows]

    # -- rounds ---------------------------------------------------------------------------

    async def start_round(self, tournament_id: int, number: int,
                          tables: Sequence[Sequence[str]]) -> bool:
        """Round ``number`` with these tables (each its seats' entrants), and the tournament
        in play at that round, together; False (nothing written) unless the tournament was
        at the round before: a round is made once, whoever asks twice."""
        async with self.db.transaction() as sql:
            moved = await sql.fetchval(
                "UPDATE tournaments SET round = ?, state = 'running' WHERE id = ? "
                "AND round = ? AND state IN ('signup', 'running') RETURNING id",
                number, tournament_id, number - 1)
            if moved is None:
                return False
            await sql.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, number, seats) "
                "VALUES (?, ?, ?, ?)",
                [(tournament_id, number, i, json.dumps(list(seats)))
                 for i, seats in enumerate(tables, start=1)])
        return True

    async def tournament_tables(self, tournament_id: int,
                                round: int | None = None) -> list[TournamentTable]:
        """The tables of one round (or of every round), by round and number."""
        if round is None:
            rows = await self.db.fetch(
                "SELECT * FROM tournament_tables WHERE tournament_id = ? "
                "ORDER BY round, number", tournament_id)
        else:
            rows = await self.db.fetch(
                "SELECT * FROM tournament_tables WHERE tournament_id = ? AND round = ? "
                "ORDER BY number", tournament_id, round)
        return [table_of_round(r) for r in rows]

    async def update_tournament_table(
        self, tournament_id: int, round: int, number: int, *, thread_id: int | None = None,
        table_id: int | None = None, result: dict[str, Any] | None = None,
    ) -> None:
        sets: list[str] = []
        args: list[Any] = []
        if thread_id is not None:
            sets.append("thread_id = ?")
            args.append(thread_id)
        if table_id is not None:
            sets.append("table_id = ?")
            args.append(table_id)
        if result is not None:
            sets.append("result = ?")
            args.append(json.dumps(result))
        if sets:
            await self.db.execute(
                f"UPDATE tournament_tables SET {', '.join(sets)} WHERE tournament_id = ? "
                "AND round = ? AND number = ?", *args, tournament_id, round, number)

    async def table_in_tournament(self, table_id: int) -> TournamentTable | None:
        row = await self.db.fetchrow("SELECT * FROM tournament_tables WHERE table_id = ?",
                                     table_id)
        return None if row is None else table_of_round(row)
