"""What the pages need of a server's settings: the language of its public messages, its
card theme, and whether it shows tables across servers, read from the store and kept for a
minute (a change made with ``/admin`` is read again at once: ``forget``)."""

from __future__ import annotations

import time

from bot.store import GuildSettings, Store, TableRow
from bot.texts import language_of
from bot.watch import WatchMode, watch_at
from bot.web.cards import faces_of

#: Seconds the servers' settings are kept before they are read again.
KEEP_SECONDS = 60.0


class GuildConfigs:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: dict[int, GuildSettings] = {}
        self._read_at = -KEEP_SECONDS

    def forget(self) -> None:
        """Read the settings again at the next ``get`` (a server changed them)."""
        self._read_at = -KEEP_SECONDS

    async def get(self, guild_id: int) -> GuildSettings:
        if time.monotonic() - self._read_at > KEEP_SECONDS:
            self._known = {g.guild_id: g for g in await self.store.guild_settings()}
            self._read_at = time.monotonic()
        return self._known.get(guild_id) or GuildSettings(guild_id=guild_id)

    async def language(self, guild_id: int) -> str:
        return language_of((await self.get(guild_id)).locale)

    async def faces(self, guild_id: int, game: str) -> str:
        """The faces ``game``'s cards show on the server's pages, and are named by."""
        return faces_of(game, (await self.get(guild_id)).faces)

    async def watch(self, guild_id: int, table: TableRow) -> WatchMode:
        """The table's watch mode on the server's pages (``bot.watch.watch_at``)."""
        return watch_at(table.settings, home=table.guild_id, server=guild_id,
                        watched_across=(await self.get(guild_id)).watch_across)
