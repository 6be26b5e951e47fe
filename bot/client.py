"""The Bot subclass: opens the store, loads the cogs, registers the persistent buttons."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import errors, thinking
from bot.settings import Settings
from bot.store import GuildSettings, SqliteStore, Store
from bot.texts import language_of, set_language
from bot.translator import CatalogTranslator

if TYPE_CHECKING:
    from cogs.tables import Tables

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.tables", "cogs.standings", "cogs.admin", "cogs.ratings")


def point_at(api_base: str | None, gateway: str | None) -> None:
    """Send discord.py's REST and gateway traffic to a local Discord stand-in (tests only)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


class Tree(app_commands.CommandTree["FilicauBot"]):
    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Every slash command: answer in the user's language, and remember the server's. A
        server command from a DM is refused here (Discord should not send one)."""
        await self.client.enter(interaction)
        if interaction.guild_id is None and errors.guild_only(interaction.command):
            raise app_commands.NoPrivateMessage()
        return True


class FilicauBot(commands.Bot):
    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        # No privileged intents: the bot works from interactions alone.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, tree_cls=Tree)
        self.settings = settings
        self.store: Store = store or SqliteStore(settings.database_path)
        self.tree.error(self.on_app_command_error)
        #: Each server's settings (language of public messages, pictures), read at start.
        self.guild_config: dict[int, GuildSettings] = {}

    async def setup_hook(self) -> None:
        await self.store.open()
        self.guild_config = {g.guild_id: g for g in await self.store.guild_settings()}
        await self.tree.set_translator(CatalogTranslator())
        processes = self.settings.ai_processes
        thinking.start(thinking.default_processes() if processes is None else processes)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    @property
    def tables(self) -> Tables:
        """The tables cog (loaded in ``setup_hook``)."""
        from cogs.tables import Tables

        cog = self.get_cog(Tables.__cog_name__)
        if not isinstance(cog, Tables):
            raise RuntimeError("the tables cog is not loaded")
        return cog

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
        await super().close()
        thinking.stop()
        await self.store.close()

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await errors.on_app_command_error(interaction, error)

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        log.exception("unhandled error in %s", event_method)
