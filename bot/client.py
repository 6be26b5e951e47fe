"""The Bot subclass: opens the store, loads the cogs, registers the persistent buttons."""

from __future__ import annotations

import logging
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import thinking
from bot.render import GameButton, GameSelect
from bot.settings import Settings
from bot.store import SqliteStore, Store
from bot.texts import t

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.tables", "cogs.standings", "cogs.admin")


def point_at(api_base: str | None, gateway: str | None) -> None:
    """Send discord.py's REST and gateway traffic to a local Discord stand-in (tests only)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


class FilicauBot(commands.Bot):
    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        # No privileged intents: the bot works from interactions alone.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None)
        self.settings = settings
        self.store: Store = store or SqliteStore(settings.database_path)
        self.tree.error(self.on_app_command_error)

    async def setup_hook(self) -> None:
        await self.store.open()
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

    async def close(self) -> None:
        await super().close()
        thinking.stop()
        await self.store.close()

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """One place for every command error: the user gets a short answer, the log the
        details."""
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
