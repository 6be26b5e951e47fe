"""Ratings, their history and the seasons: derived from the results by ``bot.ratings``,
which moves them after every rated hand and rebuilds them from the results."""

from __future__ import annotations

from collections.abc import Collection

from bot.store.model import RatingChange, RatingRow, Season
from bot.store.sql import Row, Sql, marks

PUT_RATING = (
    "INSERT INTO ratings (guild_id, game, season, player, mu, sigma, hands, updated_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, season, player) DO UPDATE "
    "SET mu = excluded.mu, sigma = excluded.sigma, hands = excluded.hands, "
    "updated_at = excluded.updated_at")
ADD_CHANGE = (
    "INSERT INTO rating_history (hand_id, guild_id, game, season, player, mu_before, "
    "sigma_before, mu, sigma, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
#: What a migration marks stale is derived again by the layer above the store at start
#: (``bot.ratings.rebuild_if_stale``): the store never calls up into the ratings.
STALE = "ratings"


def rating_row(r: Row) -> RatingRow:
    return RatingRow(guild_id=r["guild_id"], game=r["game"], season=r["season"],
                     player=r["player"], mu=r["mu"], sigma=r["sigma"], hands=r["hands"],
                     updated_at=r["updated_at"])


def rating_change(r: Row) -> RatingChange:
    return RatingChange(hand_id=r["hand_id"], guild_id=r["guild_id"], game=r["game"],
                        season=r["season"], player=r["player"], mu_before=r["mu_before"],
                        sigma_before=r["sigma_before"], mu=r["mu"], sigma=r["sigma"],
                        finished_at=r["finished_at"])


async def write(sql: Sql, ratings: list[RatingRow], changes: list[RatingChange]) -> None:
    await sql.executemany(PUT_RATING, [
        (r.guild_id, r.game, r.season, r.player, r.mu, r.sigma, r.hands, r.updated_at)
        for r in ratings])
    await sql.executemany(ADD_CHANGE, [
        (c.hand_id, c.guild_id, c.game, c.season, c.player, c.mu_before, c.sigma_before,
         c.mu, c.sigma, c.finished_at) for c in changes])


class RatingSql:
    db: Sql

    async def ratings(self, guild_id: int, game: str, season: int,
                      players: Collection[str] | None = None) -> list[RatingRow]:
        sql = "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND season = ?"
        if players is not None:
            if not players:
                return []  # (PostgreSQL refuses an empty IN)
            sql += f" AND player IN ({marks(len(players))})"
        rows = await self.db.fetch(sql + " ORDER BY player", guild_id, game, season,
                                   *(players or ()))
        return [rating_row(r) for r in rows]

    async def rating_history(
        self, guild_id: int, game: str, season: int, player: str | None = None
    ) -> list[RatingChange]:
        sql = "SELECT * FROM rating_history WHERE guild_id = ? AND game = ? AND season = ?"
        args: tuple[object, ...] = (guild_id, game, season)
        if player is not None:
            sql += " AND player = ?"
            args = (*args, player)
        return [rating_change(r) for r in await self.db.fetch(sql + " ORDER BY seq", *args)]

    async def last_rating_change(self, guild_id: int, game: str) -> RatingChange | None:
        row = await self.db.fetchrow(
            "SELECT * FROM rating_history WHERE guild_id = ? AND game = ? "
            "ORDER BY seq DESC LIMIT 1", guild_id, game)
        return None if row is None else rating_change(row)

    async def rated_hand(self, hand_id: int) -> bool:
        return await self.db.fetchval(
            "SELECT 1 FROM rating_history WHERE hand_id = ? LIMIT 1", hand_id) is not None

    async def save_ratings(self, ratings: list[RatingRow], changes: list[RatingChange]) -> None:
        async with self.db.transaction() as sql:
            await write(sql, ratings, changes)

    async def replace_ratings(
        self, guild_id: int, ratings: list[RatingRow], changes: list[RatingChange]
    ) -> None:
        async with self.db.transaction() as sql:
            await sql.execute("DELETE FROM ratings WHERE guild_id = ?", guild_id)
            await sql.execute("DELETE FROM rating_history WHERE guild_id = ?", guild_id)
            await write(sql, ratings, changes)

    async def stale_ratings(self) -> bool:
        return await self.db.fetchval("SELECT 1 FROM stale WHERE what = ?", STALE) is not None

    async def ratings_rebuilt(self) -> None:
        await self.db.execute("DELETE FROM stale WHERE what = ?", STALE)

    async def seasons(self, guild_id: int) -> list[Season]:
        rows = await self.db.fetch(
            "SELECT * FROM seasons WHERE guild_id = ? ORDER BY number", guild_id)
        return [Season(guild_id=r["guild_id"], number=r["number"], started_at=r["started_at"])
                for r in rows]

    async def start_season(self, guild_id: int, started_at: str) -> Season:
        """The next season of this server (season 1 is every server's first, unstored)."""
        number = await self.db.fetchval(
            "INSERT INTO seasons (guild_id, number, started_at) "
            "SELECT CAST(? AS BIGINT), coalesce(max(number), 1) + 1, CAST(? AS TEXT) "
            "FROM seasons WHERE guild_id = ? RETURNING number", guild_id, started_at, guild_id)
        return Season(guild_id=guild_id, number=int(number), started_at=started_at)
