"""Ratings: ``/leaderboard`` (paged with buttons; a picture of the top ten when the server has
pictures on) and ``/profile`` (a rating chart, status history, best partner)."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import dealt_figures
from bot.choices import GAME_CHOICES
from bot.colours import GAME_COLOUR
from bot.errors import answer as reply_error
from bot.lobby import SessionError
from bot.names import mention
from bot.protocol import Click, Op
from bot.ratings import board, season_of
from bot.ratings.chart import Labels, TopLabels, TopRow, rating_chart, top_chart
from bot.ratings.words import rating_sentence, rating_text, sure_short
from bot.render import button
from bot.seats import user_member
from bot.store import EVERYWHERE, now
from bot.texts import game_title, speaking, t
from bot.translator import ls
from bot.validate import came_from
from bot.voice.markdown import cap, isolated
from engine import make_rules
from engine.rules import GAMES

if TYPE_CHECKING:
    from bot.client import FilicauBot

log = logging.getLogger(__name__)

WHERE = [app_commands.Choice(name=ls("choice.here"), value="here"),
         app_commands.Choice(name=ls("choice.everywhere"), value="everywhere")]
CHART_FILE = "rating.png"
TOP_FILE = "top.png"


def _trend(x: float) -> str:
    if x >= 0.05:
        return f"▲{x:.1f}"
    if x <= -0.05:
        return f"▼{-x:.1f}"
    return "＝"


#: The ◀ ▶ of the ladder of play across servers carry its season past this number (a
#: server's seasons stay far below it: ``/leaderboard season:`` takes up to 10,000), so
#: that its pages turn as a server's do, after a restart too.
LADDER_SEASONS = 1_000_000_000


def board_buttons(game: str, season: int, number: int, pages: int) -> discord.ui.View | None:
    """◀ ▶ for a leaderboard of several pages; the ids carry game, season and page, so they
    work after a restart. The view is stopped before it is sent, as every view of the bot
    (``bot.render``): the clicks reach this cog's listener, not the view."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for label, target in (("◀", number - 1), ("▶", number + 1)):
        view.add_item(button(Op.LEADERBOARD, 0, game, season, target, label=label,
                             disabled=not 1 <= target <= pages))
    view.stop()
    return view


class Ratings(commands.Cog, name="Ratings"):
    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot

    async def current_season(self, guild_id: int) -> int:
        return season_of(await self.bot.store.seasons(guild_id), now())

    # -- /leaderboard ----------------------------------------------------------------------

    @app_commands.command(name=ls("cmdname.leaderboard"), description=ls("cmd.leaderboard"))
    @app_commands.guild_only()
    @app_commands.describe(game=ls("cmd.game"), season=ls("cmd.season"),
                           where=ls("cmd.leaderboard_where"))
    @app_commands.rename(game=ls("optname.game"), season=ls("optname.season"),
                         where=ls("optname.where"))
    @app_commands.choices(game=GAME_CHOICES, where=WHERE)
    async def leaderboard_cmd(self, interaction: discord.Interaction[Any],
                              game: app_commands.Choice[str],
                              season: app_commands.Range[int, 1, 10_000] | None = None,
                              where: app_commands.Choice[str] | None = None,
                              ) -> None:
        """A public answer: in the server's language."""
        assert interaction.guild_id is not None
        everywhere = where is not None and where.value == "everywhere"
        current = (season_of(await self.bot.store.seasons(EVERYWHERE), now()) if everywhere
                   else await self.current_season(interaction.guild_id))
        if season is not None and season > current:
            await reply_error(interaction, t("err.no_season", season=season, last=current))
            return
        chosen = season or current

        async def board() -> tuple[discord.Embed, discord.ui.View | None]:
            if everywhere:
                return await self.ladder(game.value, chosen, 1)
            return await self.leaderboard(interaction.guild_id or 0, game.value, chosen, 1)

        if self.bot.config(interaction.guild_id).pictures and interaction.guild is not None:
            # Names and a picture take more than a moment: the answer comes as an edit.
            await interaction.response.defer(thinking=True)
            with speaking(self.bot.public_language(interaction.guild_id)):
                embed, view = await board()
                png = await self.top_picture(interaction.guild, game.value, chosen,
                                             ladder=everywhere)
            files = []
            if png is not None:
                embed.set_image(url=f"attachment://{TOP_FILE}")
                files.append(discord.File(io.BytesIO(png), TOP_FILE))
            await interaction.edit_original_response(
                embed=embed, attachments=files, view=view,
                allowed_mentions=discord.AllowedMentions.none())
            return
        with speaking(self.bot.public_language(interaction.guild_id)):
            embed, view = await board()
        if view is None:
            await interaction.response.send_message(
                embed=embed, allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.response.send_message(
                embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none())

    async def ladder(self, game: str, season: int,
                     number: int) -> tuple[discord.Embed, discord.ui.View | None]:
        """The ladder of play across servers (``EVERYWHERE``), page ``number``: each player
        by the name they show at those tables (no mention: most are of other servers), its
        pages turned by ◀ ▶ as a server's leaderboard's."""
        store = self.bot.store
        all_lines = await self.lines(EVERYWHERE, game, season)
        pages = board.page_count(all_lines)
        number = min(max(number, 1), pages)
        lines = board.page(all_lines, number)
        names = await store.crossplay_names(
            [int(line.rating.player) for line in lines if line.rating.player.isdigit()])
        text = "\n".join(
            t("leaderboard.line", rank=line.rank, player=discord.utils.escape_markdown(
                isolated(names.get(int(p), "?"))) if (p := line.rating.player).isdigit()
              else mention(p),
              rating=rating_text(line.conservative),
              hands=t("n.hands", count=line.rating.hands), sure=sure_short(line.rating.sigma),
              trend=_trend(line.trend))
            for line in lines)
        title = t("leaderboard.ladder_title", game=game_title(game, make_rules(game).title),
                  season=season)
        embed = discord.Embed(title=title, colour=GAME_COLOUR,
                              description=text or t("leaderboard.none"))
        if all_lines:
            embed.set_footer(text=t("leaderboard.footer", page=number, pages=pages))
        return embed, board_buttons(game, LADDER_SEASONS + season, number, pages)

    async def lines(self, guild_id: int, game: str, season: int) -> list[board.Line]:
        store = self.bot.store
        return board.leaderboard(await store.ratings(guild_id, game, season),
                                 await store.rating_history(guild_id, game, season))

    async def top_picture(self, guild: discord.Guild, game: str, season: int, *,
                          ladder: bool = False) -> bytes | None:
        """The top ten as a picture (None when nobody is rated), in the language spoken
        now, each named as Discord shows them; of the ladder across servers (``ladder``),
        each person by the name they show at those tables."""
        top = board.page(await self.lines(EVERYWHERE if ladder else guild.id, game, season),
                         1)
        if not top:
            return None
        shown = await self.bot.store.crossplay_names(
            [int(line.rating.player) for line in top if line.rating.player.isdigit()]
        ) if ladder else {}

        async def name(player: str) -> str:
            if ladder and player.isdigit():
                return shown.get(int(player), "?")
            return await self.display_name(guild, player)

        rows = [TopRow(line.rank, cap(await name(line.rating.player)), line.rating.mu,
                       line.rating.sigma) for line in top]
        labels = TopLabels(
            title=t("leaderboard.ladder_title" if ladder else "chart.top_title",
                    game=game_title(game, make_rules(game).title), season=season),
            ranked=t("chart.ranked"), mu=t("chart.top_mu"))
        # Drawn off the event loop, and cached: the same board in the same words is drawn once.
        return await asyncio.to_thread(top_chart, rows, labels)

    async def display_name(self, guild: discord.Guild, player: str) -> str:
        return await self.bot.member_names.display_name(guild, player)

    async def leaderboard(self, guild_id: int, game: str, season: int,
                          number: int) -> tuple[discord.Embed, discord.ui.View | None]:
        lines = await self.lines(guild_id, game, season)
        pages = board.page_count(lines)
        number = min(max(number, 1), pages)
        title = t("leaderboard.title", game=game_title(game, make_rules(game).title),
                  season=season)
        text = "\n".join(
            t("leaderboard.line", rank=line.rank, player=mention(line.rating.player),
                rating=rating_text(line.conservative),
              hands=t("n.hands", count=line.rating.hands), sure=sure_short(line.rating.sigma),
              trend=_trend(line.trend))
            for line in board.page(lines, number))
        embed = discord.Embed(title=title, colour=GAME_COLOUR,
                              description=text or t("leaderboard.none"))
        if lines:
            embed.set_footer(text=t("leaderboard.footer", page=number, pages=pages))
        return embed, board_buttons(game, season, number, pages)

    async def cog_load(self) -> None:
        self.bot.clicks.route([Op.LEADERBOARD], self.turn_page)

    async def cog_unload(self) -> None:
        self.bot.clicks.unroute([Op.LEADERBOARD])

    async def turn_page(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A leaderboard's ◀ ▶ (``bot.clicks`` routes them here): the page redrawn in place."""
        game, season, number = (click.get("game", str), click.get("season", int),
                                click.get("page", int))
        table = self.bot.tables.in_channel(interaction.channel_id)
        if interaction.guild_id is None or not came_from(
                interaction, click, None if table is None else table.session.message_id):
            raise SessionError("err.bad_button")
        with speaking(self.bot.public_language(interaction.guild_id)):
            if season > LADDER_SEASONS:
                embed, view = await self.ladder(game, season - LADDER_SEASONS, number)
            else:
                embed, view = await self.leaderboard(interaction.guild_id, game, season,
                                                     number)
        message = interaction.message
        if message is not None and any(a.filename == TOP_FILE for a in message.attachments):
            # The top ten stays on every page (the file is kept by the edit).
            embed.set_image(url=f"attachment://{TOP_FILE}")
        await interaction.response.edit_message(embed=embed, view=view)

    # -- /profile --------------------------------------------------------------------------

    @app_commands.command(name=ls("cmdname.profile"), description=ls("cmd.profile"))
    @app_commands.guild_only()
    @app_commands.describe(user=ls("cmd.profile_user"), game=ls("cmd.game"))
    @app_commands.rename(user=ls("optname.user"), game=ls("optname.game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def profile_cmd(self, interaction: discord.Interaction[Any],
                          user: discord.User | discord.Member | None = None,
                          game: app_commands.Choice[str] | None = None) -> None:
        """Only for the one who asked, in their language (the chart too)."""
        assert interaction.guild_id is not None
        guild_id = interaction.guild_id
        who = user or interaction.user
        player = user_member(who.id)
        store = self.bot.store
        season = await self.current_season(guild_id)
        key = game.value if game else await self.most_played(guild_id, season, player)
        title = game_title(key, make_rules(key).title)
        ratings = await store.ratings(guild_id, key, season)
        lines = board.leaderboard(ratings, [])
        mine = next((line for line in lines if line.rating.player == player), None)
        embed = discord.Embed(title=t("profile.title", name=isolated(who.display_name), game=title),
                              colour=GAME_COLOUR)
        if mine is None:
            embed.description = t("profile.unrated", game=title, season=season)
        else:
            r = mine.rating
            # Said as players say it: a rating, a place, and how sure it is after so many
            # hands (not "mu ± sigma, ranked by mu - 3 sigma").
            embed.description = rating_sentence(
                rating=mine.conservative, rank=mine.rank, players=len(lines), season=season,
                sigma=r.sigma, hands=r.hands)
        seasons = await store.seasons(guild_id)
        record = board.record_of(
            player, [r for r in await store.results(guild_id, key)
                     if season_of(seasons, r.finished_at) == season])
        if record.hands:
            status = " · ".join([
                t("n.hands", count=record.hands),
                t("n.became_masters", count=record.became_masters),
                t("n.hands_as_masters", count=record.hands_as_masters),
                t("n.ran_away", count=record.ran_away),
                *([t("n.hat_hands", count=record.hats)] if key == "filko_hats" else []),
            ])
            embed.add_field(name=t("profile.status"), value=status, inline=False)
            best = record.best_partner()
            embed.add_field(
                name=t("profile.partner"),
                value=t("profile.partner_line", partner=mention(best.player),
                        won=best.won, hands=t("n.hands", count=best.hands))
                if best else t("profile.no_partner", count=board.PARTNER_HANDS),
                inline=False)
        dealt = dealt_figures.lines(await dealt_figures.dealt_to(
            store.db, guild_id, key, player))  # type: ignore[attr-defined]
        if dealt:
            embed.add_field(name=t("profile.dealt"), value="\n".join(dealt), inline=False)
        history = await store.rating_history(guild_id, key, season, player)
        if not history:
            await interaction.response.send_message(
                embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
            return
        # Drawn off the event loop (a chart takes a tenth of a second).
        png = await asyncio.to_thread(rating_chart, history, Labels(
            title=t("chart.title", game=title, season=season), hands=t("chart.hands"),
            mu=t("chart.mu"), ranked=t("chart.ranked")))
        embed.set_image(url=f"attachment://{CHART_FILE}")
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(png), CHART_FILE), ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none())

    async def most_played(self, guild_id: int, season: int, player: str) -> str:
        """The game this player has the most rated hands in this season (Filicău if
        none)."""
        best, hands = "filicau", 0
        for key in GAMES:
            for r in await self.bot.store.ratings(guild_id, key, season):
                if r.player == player and r.hands > hands:
                    best, hands = key, r.hands
        return best


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(Ratings(bot))
