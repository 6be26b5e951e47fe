"""Server managers' commands: reset a partnership's status, end a stuck table, start a
rating season, the server's web pages (new links, on or off)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.choices import GAME_CHOICES
from bot.crossplay import access
from bot.errors import answer as reply_error
from bot.lobby import Actor
from bot.seats import user_member
from bot.store import now
from bot.texts import game_title, t
from bot.translator import ls
from bot.web.server import WebServer
from engine import make_rules

if TYPE_CHECKING:
    from bot.client import FilicauBot


ON_OFF = [app_commands.Choice(name=ls("choice.on"), value="on"),
          app_commands.Choice(name=ls("choice.off"), value="off")]
THEMES = [app_commands.Choice(name=ls("choice.light"), value="light"),
          app_commands.Choice(name=ls("choice.dark"), value="dark"),
          app_commands.Choice(name=ls("choice.fourcolour"), value="fourcolour")]
FACES = [app_commands.Choice(name=ls("choice.as_played"), value="game"),
         app_commands.Choice(name=ls("choice.german"), value="german"),
         app_commands.Choice(name=ls("choice.french"), value="french")]


class Admin(commands.Cog, name="Admin"):
    admin = app_commands.Group(
        name=ls("cmdname.admin"), description=ls("cmd.admin"), guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    season = app_commands.Group(name=ls("cmdname.admin_season"),
                                description=ls("cmd.admin_season"), parent=admin)

    web = app_commands.Group(name=ls("cmdname.admin_web"), description=ls("cmd.admin_web"),
                             parent=admin)

    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        # default_permissions only hides the commands; this makes sure.
        perms = getattr(interaction.user, "guild_permissions", None)
        if not (perms and perms.manage_guild):
            raise app_commands.CheckFailure("manage_guild")
        return True

    @admin.command(name=ls("cmdname.admin_reset"), description=ls("cmd.admin_reset"))
    @app_commands.describe(user=ls("cmd.user"), game=ls("cmd.game"))
    @app_commands.rename(user=ls("optname.user"), game=ls("optname.game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def reset(self, interaction: discord.Interaction[Any], user: discord.User,
                    game: app_commands.Choice[str]) -> None:
        assert interaction.guild_id is not None
        count = await self.bot.store.reset_status(interaction.guild_id, game.value,
                                                  user_member(user.id))
        await interaction.response.send_message(
            t("ok.reset", count=count, user=user.mention), ephemeral=True)

    @admin.command(name=ls("cmdname.admin_end"), description=ls("cmd.admin_end"))
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        table = self.bot.tables.in_channel(interaction.channel_id)
        if table is None:
            await reply_error(interaction, t("err.no_table"))
            return
        perms = getattr(interaction.user, "guild_permissions", None)
        await self.bot.service.end(
            table, "ok.ended", by=Actor(interaction.user.id, bool(perms and perms.manage_guild)),
            reply=lambda _: interaction.response.send_message(t("ok.ended"), ephemeral=True))

    @admin.command(name=ls("cmdname.admin_pictures"), description=ls("cmd.admin_pictures"))
    @app_commands.describe(mode=ls("cmd.pictures_mode"))
    @app_commands.rename(mode=ls("optname.mode"))
    @app_commands.choices(mode=ON_OFF)
    async def pictures(self, interaction: discord.Interaction[Any],
                       mode: app_commands.Choice[str]) -> None:
        """Card pictures at this server's tables, or text only (from the next message)."""
        assert interaction.guild_id is not None
        on = mode.value == "on"
        config = self.bot.config(interaction.guild_id)
        await self.bot.update_config(config.model_copy(update={"pictures": on}))
        await interaction.response.send_message(
            t("ok.pictures_on" if on else "ok.pictures_off"), ephemeral=True)

    @admin.command(name=ls("cmdname.admin_theme"), description=ls("cmd.admin_theme"))
    @app_commands.describe(theme=ls("cmd.theme"))
    @app_commands.rename(theme=ls("optname.theme"))
    @app_commands.choices(theme=THEMES)
    async def theme(self, interaction: discord.Interaction[Any],
                    theme: app_commands.Choice[str]) -> None:
        assert interaction.guild_id is not None
        value: Literal["light", "dark", "fourcolour"] = (
            "fourcolour" if theme.value == "fourcolour"
            else "light" if theme.value == "light" else "dark")
        config = self.bot.config(interaction.guild_id)
        await self.bot.update_config(config.model_copy(update={"theme": value}))
        await interaction.response.send_message(
            t("ok.theme", theme=t(f"choice.{value}")), ephemeral=True)

    @admin.command(name=ls("cmdname.admin_faces"), description=ls("cmd.admin_faces"))
    @app_commands.describe(faces=ls("cmd.faces"))
    @app_commands.rename(faces=ls("optname.faces"))
    @app_commands.choices(faces=FACES)
    async def faces(self, interaction: discord.Interaction[Any],
                    faces: app_commands.Choice[str]) -> None:
        """German- or French-suited card pictures, or each game's own (the default)."""
        assert interaction.guild_id is not None
        value: Literal["game", "german", "french"] = (
            "german" if faces.value == "german" else "french" if faces.value == "french"
            else "game")
        config = self.bot.config(interaction.guild_id)
        await self.bot.update_config(config.model_copy(update={"faces": value}))
        choice = "as_played" if value == "game" else value
        await interaction.response.send_message(
            t("ok.faces", faces=t(f"choice.{choice}")), ephemeral=True)

    @admin.command(name=ls("cmdname.admin_crossplay"), description=ls("cmd.admin_crossplay"))
    @app_commands.describe(mode=ls("cmd.crossplay_mode"), game=ls("cmd.crossplay_game"),
                           channel=ls("cmd.crossplay_channel"),
                           own_ratings=ls("cmd.crossplay_ratings"),
                           watch=ls("cmd.crossplay_watch"))
    @app_commands.rename(mode=ls("optname.mode"), game=ls("optname.game"),
                         channel=ls("optname.channel"), own_ratings=ls("optname.own_ratings"),
                         watch=ls("optname.watch"))
    @app_commands.choices(mode=ON_OFF, game=GAME_CHOICES, own_ratings=ON_OFF, watch=ON_OFF)
    async def crossplay(self, interaction: discord.Interaction[Any],
                        mode: app_commands.Choice[str] | None = None,
                        game: app_commands.Choice[str] | None = None,
                        channel: discord.TextChannel | None = None,
                        own_ratings: app_commands.Choice[str] | None = None,
                        watch: app_commands.Choice[str] | None = None) -> None:
        """Play across servers on (for every game from every channel, or only those named,
        one more each time) or off (``bot.crossplay.access``); off, this server's players
        at tables with other servers finish the hand and the computer takes their seats.
        ``own_ratings``: whether the hands this server's members play across servers count in
        its own ratings too (off by default: on the ladder only). ``watch``: whether this
        server's web pages show its tables across servers (on by default, as each table
        allows). Without a mode, the opt-in stays as it is (a game or a channel named adds
        to it, as with ``on``)."""
        guild_id = interaction.guild_id
        assert guild_id is not None
        store = self.bot.store
        if own_ratings is not None:
            await store.put_own_ratings(guild_id, own_ratings.value == "on")
        config = self.bot.config(guild_id)
        if watch is not None:
            config = config.model_copy(update={"watch_across": watch.value == "on"})
            await self.bot.update_config(config)
        settings = await store.crossplay_settings(guild_id)
        if mode is not None or game is not None or channel is not None:
            settings = access.changed(settings, on=mode is None or mode.value == "on",
                                      game=None if game is None else game.value,
                                      channel_id=None if channel is None else channel.id)
            await store.put_crossplay_settings(settings)
        # Said when asked for, or while on (off is the default, said nowhere else).
        counted = await store.own_ratings(guild_id)
        own = "\n" + t("ok.crossplay_own_ratings" if counted else "ok.crossplay_ladder_only") \
            if counted or own_ratings is not None else ""
        if watch is not None or not config.watch_across:
            own += "\n" + t("ok.crossplay_watched" if config.watch_across
                            else "ok.crossplay_unwatched")
        if not settings.enabled:
            await interaction.response.send_message(t("ok.crossplay_off") + own,
                                                    ephemeral=True)
            if mode is not None:
                await self.bot.crossplay.withdraw(guild_id)
            return
        games = ", ".join(game_title(g, make_rules(g).title) for g in settings.games) \
            or t("crossplay.every_game")
        channels = ", ".join(f"<#{c}>" for c in settings.channels) \
            or t("crossplay.every_channel")
        await interaction.response.send_message(
            t("ok.crossplay_on", games=games, channels=channels) + own, ephemeral=True)

    @season.command(name=ls("cmdname.admin_season_start"),
                    description=ls("cmd.admin_season_start"))
    async def season_start(self, interaction: discord.Interaction[Any]) -> None:
        """Archive this server's ratings: hands from now on count in a new season."""
        assert interaction.guild_id is not None
        started = await self.bot.store.start_season(interaction.guild_id, now())
        await interaction.response.send_message(
            t("ok.season_started", season=started.number, old=started.number - 1),
            ephemeral=True)

    # -- the server's web pages (bot.web) -------------------------------------------------

    def _web(self) -> WebServer | None:
        """The bot's web server, when it serves pages (``WEB_URL`` set)."""
        server = self.bot.web
        return server if isinstance(server, WebServer) else None

    @web.command(name=ls("cmdname.admin_web_rotate"), description=ls("cmd.admin_web_rotate"))
    async def web_rotate(self, interaction: discord.Interaction[Any]) -> None:
        """A new key: every link of the server given before is refused from now on."""
        await self._web_change(interaction, "rotate")

    @web.command(name=ls("cmdname.admin_web_on"), description=ls("cmd.admin_web_on"))
    async def web_on(self, interaction: discord.Interaction[Any]) -> None:
        await self._web_change(interaction, "on")

    @web.command(name=ls("cmdname.admin_web_off"), description=ls("cmd.admin_web_off"))
    async def web_off(self, interaction: discord.Interaction[Any]) -> None:
        await self._web_change(interaction, "off")

    async def _web_change(self, interaction: discord.Interaction[Any], change: str) -> None:
        assert interaction.guild_id is not None
        server = self._web()
        if server is None:
            await reply_error(interaction, t("err.web_unset"))
            return
        guild_id = interaction.guild_id
        if change == "rotate":
            await server.rotate(guild_id)
        else:
            await server.switch(guild_id, change == "on")
        if change == "off":
            await interaction.response.send_message(t("ok.web_off"), ephemeral=True)
            return
        url = await server.board_link(guild_id)
        await interaction.response.send_message(
            t("ok.web_rotated" if change == "rotate" else "ok.web_on", url=url or "—"),
            ephemeral=True)


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(Admin(bot))
