"""Each server's own settings: the language of its public messages, its card pictures, and
the key its web pages' links are signed with."""

from __future__ import annotations

from bot.store.model import GuildSettings, WebKey, now
from bot.store.sql import Sql


class ServerSql:
    db: Sql

    async def guild_settings(self) -> list[GuildSettings]:
        rows = await self.db.fetch("SELECT * FROM guild_settings ORDER BY guild_id")
        return [GuildSettings(guild_id=r["guild_id"], locale=r["locale"],
                              pictures=bool(r["pictures"]), theme=r["theme"], faces=r["faces"],
                              watch_across=bool(r["watch_across"]))
                for r in rows]

    async def put_guild_settings(self, settings: GuildSettings) -> None:
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, locale, pictures, theme, faces, watch_across, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "locale = excluded.locale, pictures = excluded.pictures, theme = excluded.theme, "
            "faces = excluded.faces, watch_across = excluded.watch_across, "
            "updated_at = excluded.updated_at",
            settings.guild_id, settings.locale, settings.pictures, settings.theme,
            settings.faces, settings.watch_across, now())

    async def web_key(self, guild_id: int) -> WebKey | None:
        row = await self.db.fetchrow("SELECT * FROM web_keys WHERE guild_id = ?", guild_id)
        return None if row is None else WebKey(guild_id=row["guild_id"], secret=row["secret"],
                                               enabled=bool(row["enabled"]))

    async def add_web_key(self, key: WebKey) -> WebKey:
        await self.db.execute(
            "INSERT INTO web_keys (guild_id, secret, enabled, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id) DO NOTHING", key.guild_id, key.secret, key.enabled, now())
        kept = await self.web_key(key.guild_id)
        assert kept is not None
        return kept

    async def put_web_key(self, key: WebKey) -> None:
        await self.db.execute(
            "INSERT INTO web_keys (guild_id, secret, enabled, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET secret = excluded.secret, "
            "enabled = excluded.enabled, updated_at = excluded.updated_at",
            key.guild_id, key.secret, key.enabled, now())
