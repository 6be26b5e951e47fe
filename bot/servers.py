"""Each server's settings as the bot knows them: the language of its public messages (its
Discord locale as last seen), card pictures on or off, the pictures' theme.

Read from the store once at start (``load``) and kept in memory: every public message asks
for its server's language (``public_language``), a table refresh for its pictures
(``config``), so neither may cost a query. A change is written to the store first.

>>> servers = Servers(store=None)  # type: ignore[arg-type]
>>> servers.public_language(None), servers.config(7).pictures
('en', False)
"""

from __future__ import annotations

from bot.store import GuildSettings, Store
from bot.texts import language_of


class Servers:
    """The servers' settings (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.known: dict[int, GuildSettings] = {}

    async def load(self) -> None:
        self.known = {g.guild_id: g for g in await self.store.guild_settings()}

    def config(self, guild_id: int | None) -> GuildSettings:
        return self.known.get(guild_id or 0) or GuildSettings(guild_id=guild_id or 0)

    def public_language(self, guild_id: int | None) -> str:
        """The language of a server's public messages: its Discord locale as last seen."""
        return language_of(self.config(guild_id).locale)

    async def update(self, settings: GuildSettings) -> None:
        await self.store.put_guild_settings(settings)
        self.known[settings.guild_id] = settings

    async def saw_locale(self, guild_id: int, locale: str) -> None:
        """An interaction came with the server's locale: remembered if it changed."""
        current = self.config(guild_id)
        if current.locale != locale:
            await self.update(current.model_copy(update={"locale": locale}))
