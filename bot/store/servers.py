"""Each server's own settings: the language of its public messages and its card pictures."""

from __future__ import annotations

from bot.store.model import GuildSettings, now
from bot.store.sql import Sql


class ServerSql:
    db: Sql

    async def guild_settings(self) -> list[GuildSettings]:
        rows = await self.db.fetch("SELECT * FROM guild_settings ORDER BY guild_id")
        return [GuildSettings(guild_id=r["guild_id"], locale=r["locale"],
                              pictures=bool(r["pictures"]), theme=r["theme"]) for r in rows]

    async def put_guild_settings(self, settings: GuildSettings) -> None:
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, locale, pictures, theme, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "locale = excluded.locale, pictures = excluded.pictures, theme = excluded.theme, "
            "updated_at = excluded.updated_at",
            settings.guild_id, settings.locale, settings.pictures, settings.theme, now())
