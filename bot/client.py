"""The Bot subclass: opens the store, claims its shards, loads the cogs, registers the
persistent buttons."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import thinking
from bot.render import GameButton, GameSelect
from bot.settings import Settings
from bot.store import GuildSettings, Store, make_store
from bot.texts import language_of, set_language, t
from bot.translator import CatalogTranslator

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.tables", "cogs.standings", "cogs.admin")


def point_at(api_base: str | None, gateway: str | None) -> None:
    """Send discord.py's REST and gateway traffic to a local Discord stand-in (tests only)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


class Tree(app_commands.CommandTree["FilicauBot"]):
    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Every slash command: answer in the user's language, and remember the server's."""
        await self.client.enter(interaction)
        return True


class FilicauBot(commands.Bot):
    """The bot; with ``SHARD_COUNT`` set, a ``ShardedFilicauBot`` (discord.py's
    ``AutoShardedBot``) running the shards ``SHARD_IDS``."""

    #: Seconds between two tries to claim shards another process still holds.
    claim_retry = 1.0

    def __new__(cls, settings: Settings, store: Store | None = None) -> FilicauBot:
        if cls is FilicauBot and settings.shard_count is not None:
            cls = ShardedFilicauBot
        return super().__new__(cls)

    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        # No privileged intents: the bot works from interactions alone. Without SHARD_COUNT
        # one shard (Discord requires more from 2,500 servers).
        shards: dict[str, Any] = {}
        if settings.shard_count is not None:
            shards["shard_count"] = settings.shard_count
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, tree_cls=Tree, **shards)
        self.settings = settings
        url = settings.database_url
        self.store: Store = store or make_store(None if url is None else url.get_secret_value(),
                                                settings.database_path)
        self._watcher: asyncio.Task[None] | None = None
        self.tree.error(self.on_app_command_error)
        #: Each server's settings (language of public messages, pictures), read at start.
        self.guild_config: dict[int, GuildSettings] = {}

    async def setup_hook(self) -> None:
        await self.store.open()
        await self.claim_shards()
        self.guild_config = {g.guild_id: g for g in await self.store.guild_settings()}
        await self.tree.set_translator(CatalogTranslator())
        processes = self.settings.ai_processes
        thinking.start(thinking.default_processes() if processes is None else processes)
        # Buttons carry their state in their custom_id: registering the dynamic item makes
        # every button ever sent work again after a restart.
        self.add_dynamic_items(GameButton, GameSelect)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    @property
    def rate_share(self) -> float:
        """This process's share of the bot's request budget: Discord's global limit (50
        requests a second) is per token, shared by every process; each keeps to the share of
        the shards it runs, with no coordination between them."""
        count = self.settings.shard_count or 1
        return len(self.settings.shard_ids or range(count)) / count

    async def claim_shards(self) -> None:
        """Own the guilds of this process's shards before any table is restored or any event
        arrives: wait while another process (a previous one still stopping, or one of another
        shard count) holds any of them, and stop at once if the ownership is ever lost."""
        count = self.settings.shard_count or 1
        ids = self.settings.shard_ids or tuple(range(count))
        waited = 0
        while not await self.store.claim_shards(ids, count):
            if waited % 30 == 0:
                log.warning("shards %s of %d are still held by another process; waiting",
                            list(ids), count)
            waited += 1
            await asyncio.sleep(self.claim_retry)
        log.info("this process owns shards %s of %d", list(ids), count)
        self._watcher = asyncio.create_task(self._watch_ownership())

    async def _watch_ownership(self) -> None:
        await self.store.ownership_lost()
        log.critical("this process lost its shards (the database connection died): stopping, "
                     "so that no table is driven by two processes")
        await self.close()

    # -- languages and server settings ---------------------------------------------------------

    def config(self, guild_id: int | None) -> GuildSettings:
        return self.guild_config.get(guild_id or 0) or GuildSettings(guild_id=guild_id or 0)

    def public_language(self, guild_id: int | None) -> str:
        """The language of a server's public messages: its Discord locale as last seen."""
        return language_of(self.config(guild_id).locale)

    async def enter(self, interaction: discord.Interaction[Any]) -> None:
        """An interaction starts: its handler speaks the user's language (their ephemeral
        answers), and the server's locale is remembered for public messages sent later
        (the table refresh, results, timers)."""
        set_language(language_of(interaction.locale))
        guild_id = interaction.guild_id
        locale = interaction.guild_locale
        if guild_id is None or locale is None:
            return
        current = self.config(guild_id)
        if current.locale != locale.value:
            await self.update_config(current.model_copy(update={"locale": locale.value}))

    async def update_config(self, settings: GuildSettings) -> None:
        await self.store.put_guild_settings(settings)
        self.guild_config[settings.guild_id] = settings

    async def close(self) -> None:
        if self._watcher is not None and self._watcher is not asyncio.current_task():
            self._watcher.cancel()
        await super().close()
        thinking.stop()
        await self.store.close()

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """One place for every command error: the user gets a short answer (in their
        language), the log the details."""
        set_language(language_of(interaction.locale))
        if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
            text = t("err.not_manager")
        elif isinstance(error, app_commands.NoPrivateMessage):
            text = t("err.guild_only")
        else:
            log.error("command %s failed", interaction.command and interaction.command.name,
                      exc_info=error)
            text = t("err.internal")
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        log.exception("unhandled error in %s", event_method)


class ShardedFilicauBot(FilicauBot, commands.AutoShardedBot):
    """The bot as discord.py's ``AutoShardedBot``: the shards ``SHARD_IDS`` of
    ``SHARD_COUNT`` in this process, each with its own gateway session."""
