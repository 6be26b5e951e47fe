"""Monthly leagues: ``/league start`` (a manager starts the server's league of a game),
``/league standings`` (the month's table, divisions with who goes up and down) and
``/league join`` (how a player joins, and where they stand), and the month-end task.

The cog parses and answers; ``bot.leagues`` keeps the league and closes its months. The
month-end task (``bot.leagues.month_end.MonthEnd``) runs on ``self.clock``, which a test
sets; so does every answer that depends on the date.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.choices import GAME_CHOICES
from bot.colours import GAME_COLOUR
from bot.errors import answer as reply_error
from bot.leagues import LeagueSettings, LeagueTable
from bot.leagues.keeping import in_play, start
from bot.leagues.month_end import Clock, MonthEnd, utc_now
from bot.leagues.shown import divisions
from bot.leagues.sql import Leagues
from bot.names import mention
from bot.texts import game_title, t
from bot.translator import ls
from engine import make_rules
from engine.rules import GAMES

if TYPE_CHECKING:
    from bot.client import FilicauBot

log = logging.getLogger(__name__)

#: Lines of a division's field (Discord's field holds 1,024 characters).
FIELD_LIMIT = 1024


def title_of(game: str) -> str:
    return game_title(game, make_rules(game).title)


def is_manager(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def table_embed(game: str, table: LeagueTable, *, ends: datetime | None) -> discord.Embed:
    """A month's table: one field per division, each line the player, their points of
    their hands, the share and where they go (``bot.leagues.shown``)."""
    settings = table.settings
    described = [t("league.rules", min_hands=settings.min_hands, movers=settings.movers)]
    if ends is not None:
        described.append(t("league.ends", when=discord.utils.format_dt(ends, "R")))
    embed = discord.Embed(title=t("league.title", game=title_of(game), month=str(table.month)),
                          description="\n".join(described), colour=GAME_COLOUR)
    shown = divisions(table, mention)
    if not shown:
        embed.add_field(name="\u200b", value=t("league.empty"), inline=False)
    for number, lines in shown[:25]:
        text = "\n".join(
            t("league.line", place=x.place, player=x.name, points=x.points, hands=x.hands,
              share=x.share, arrow=x.arrow)
            + ("" if x.counted else " " + t("league.short")) for x in lines)
        embed.add_field(name=t("league.division", number=number), value=text[:FIELD_LIMIT],
                        inline=False)
    return embed


class LeagueCog(commands.Cog, name="Leagues"):
    league = app_commands.Group(name=ls("cmdname.league"), description=ls("cmd.league"),
                                guild_only=True)

    def __init__(self, bot: FilicauBot, clock: Clock = utc_now) -> None:
        self.bot = bot
        self.clock = clock
        self.leagues = Leagues(bot.store.db)  # type: ignore[attr-defined]
        self.month_end = MonthEnd(self.leagues, lambda: self.clock())
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self.month_end.run(), name="leagues-month-end")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    # -- /league start -------------------------------------------------------------------

    @league.command(name=ls("cmdname.league_start"), description=ls("cmd.league_start"))
    @app_commands.describe(game=ls("cmd.game"), division_size=ls("cmd.league_division_size"),
                           min_hands=ls("cmd.league_min_hands"),
                           up_and_down=ls("cmd.league_movers"))
    @app_commands.rename(game=ls("optname.game"), division_size=ls("optname.division_size"),
                         min_hands=ls("optname.min_hands"),
                         up_and_down=ls("optname.movers"))
    @app_commands.choices(game=GAME_CHOICES)
    async def league_start(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str],
        division_size: app_commands.Range[int, 2, 1000] = 10,
        min_hands: app_commands.Range[int, 1, 100_000] = 10,
        up_and_down: app_commands.Range[int, 1, 500] = 2,
    ) -> None:
        """The server's league of a game, from the month in play (managers only)."""
        if not is_manager(interaction):
            await reply_error(interaction, t("err.need_manage_server"))
            return
        guild_id = interaction.guild_id
        assert guild_id is not None
        if game.value not in GAMES or 2 * int(up_and_down) > int(division_size):
            await reply_error(interaction, t("err.bad_command_input"))
            return
        settings = LeagueSettings(division_size=int(division_size), min_hands=int(min_hands),
                                  movers=int(up_and_down))
        made = await start(self.leagues, guild_id, game.value, settings, self.clock())
        if made is None:
            await reply_error(interaction, t("league.exists", game=title_of(game.value)))
            return
        await interaction.response.send_message(t(
            "league.started", game=title_of(game.value), month=str(made.first_month),
            size=settings.division_size, min_hands=settings.min_hands,
            movers=settings.movers))

    # -- /league standings ---------------------------------------------------------------

    @league.command(name=ls("cmdname.league_standings"), description=ls("cmd.league_standings"))
    @app_commands.describe(game=ls("cmd.game"))
    @app_commands.rename(game=ls("optname.game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def standings(self, interaction: discord.Interaction[Any],
                        game: app_commands.Choice[str]) -> None:
        """The month's table as it stands (months ended meanwhile closed first)."""
        guild_id = interaction.guild_id
        assert guild_id is not None
        found = await in_play(self.leagues, guild_id, game.value, self.clock())
        if found is None:
            await reply_error(interaction, t("league.none", game=title_of(game.value)))
            return
        league, closing = found
        embed = table_embed(game.value, closing.table,
                            ends=league.ladder.month.end)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # -- /league join --------------------------------------------------------------------

    @league.command(name=ls("cmdname.league_join"), description=ls("cmd.league_join"))
    @app_commands.describe(game=ls("cmd.game"))
    @app_commands.rename(game=ls("optname.game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def join(self, interaction: discord.Interaction[Any],
                   game: app_commands.Choice[str]) -> None:
        """A player joins with their first counted hand: where they stand, or how to join."""
        guild_id = interaction.guild_id
        assert guild_id is not None
        title = title_of(game.value)
        found = await in_play(self.leagues, guild_id, game.value, self.clock())
        if found is None:
            await reply_error(interaction, t("league.none", game=title))
            return
        league, closing = found
        settings = league.settings
        mine = closing.table.standing(str(interaction.user.id))
        if mine is None:
            text = t("league.join_how", game=title, min_hands=settings.min_hands)
        else:
            division, line = mine
            text = t("league.join_in", game=title, division=division, place=line.place,
                     hands=line.hands, min_hands=settings.min_hands)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(LeagueCog(bot))
