"""Server managers' commands: reset a partnership's status, end a stuck table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.session import user_member
from bot.texts import t
from cogs.tables import GAME_CHOICES, Tables, reply_error

if TYPE_CHECKING:
    from bot.client import FilicauBot


class Admin(commands.Cog, name="Admin"):
    admin = app_commands.Group(
        name="admin", description=t("cmd.admin"), guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        # default_permissions only hides the commands; this makes sure.
        perms = getattr(interaction.user, "guild_permissions", None)
        if not (perms and perms.manage_guild):
            raise app_commands.CheckFailure("manage_guild")
        return True

    @admin.command(name="reset", description=t("cmd.admin_reset"))
    @app_commands.choices(game=GAME_CHOICES)
    async def reset(self, interaction: discord.Interaction[Any], user: discord.User,
                    game: app_commands.Choice[str]) -> None:
        assert interaction.guild_id is not None
        count = await self.bot.store.reset_status(interaction.guild_id, game.value,
                                                  user_member(user.id))
        await interaction.response.send_message(
            t("ok.reset", count=count, user=user.mention), ephemeral=True)

    @admin.command(name="end", description=t("cmd.admin_end"))
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        tables = self.bot.get_cog("Tables")
        assert isinstance(tables, Tables)
        session = tables.session_in(interaction.channel_id)
        if session is None:
            await reply_error(interaction, t("err.no_table"))
            return
        await tables.end_table(session)
        await interaction.response.send_message(t("ok.ended"), ephemeral=True)


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(Admin(bot))
