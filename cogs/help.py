"""``/help``: what the bot does, how to start a table, what the buttons do, the commands, and
the link that invites the bot to another server."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import send_how
from bot.choices import GAME_CHOICES
from bot.client import invite_url
from bot.colours import GAME_COLOUR
from bot.texts import t
from bot.translator import ls

if TYPE_CHECKING:
    from bot.client import FilicauBot


def help_embed(application_id: int | None) -> discord.Embed:
    """The help, in the current language."""
    embed = discord.Embed(title=t("help.title"), description=t("help.intro"),
                          colour=GAME_COLOUR)
    for part in ("start", "buttons", "commands"):
        embed.add_field(name=t(f"help.{part}_title"), value=t(f"help.{part}"), inline=False)
    embed.add_field(name=t("how.help_title"), value=t("how.help"), inline=False)
    if application_id is not None:
        embed.add_field(name=t("help.invite_title"),
                        value=t("help.invite", url=invite_url(application_id)), inline=False)
    return embed


class Help(commands.Cog, name="Help"):
    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot

    @app_commands.command(name=ls("cmdname.help"), description=ls("cmd.help"))
    @app_commands.describe(game=ls("cmd.game"))
    @app_commands.rename(game=ls("optname.game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def help_cmd(self, interaction: discord.Interaction[Any],
                       game: app_commands.Choice[str] | None = None) -> None:
        """Only to the asker, in their language; works in a DM too. With a game: how to play
        it (with the picture of its card ranking where the server has pictures on)."""
        if game is None:
            await interaction.response.send_message(
                embed=help_embed(self.bot.application_id), ephemeral=True)
            return
        await send_how(self.bot.config(interaction.guild_id), interaction, game.value)


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(Help(bot))
