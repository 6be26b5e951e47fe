"""Tournaments: ``/tournament new``, ``standings``, ``cancel``, and the buttons of a
tournament's announcement (Sign up, Withdraw, Start now).

The cog parses and answers; ``bot.tournaments`` keeps the tournament (in the store) and
plays its rounds.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.choices import GAME_CHOICES
from bot.errors import answer as reply_error
from bot.protocol import Click, Op
from bot.session import SETTING_RANGES, SessionError
from bot.store import TournamentRow
from bot.texts import EN, refusal, speaking, t
from bot.thinking import COMPUTER_LEVELS
from bot.tournaments import drawing
from bot.translator import ls
from bot.validate import came_from
from engine.rules import GAMES

if TYPE_CHECKING:
    from bot.client import FilicauBot
    from bot.tournaments.manager import Tournaments as Manager

log = logging.getLogger(__name__)

FORMATS = [app_commands.Choice(name=ls("tour.format_swiss"), value="swiss"),
           app_commands.Choice(name=ls("tour.format_duplicate"), value="duplicate")]
LEVELS = [app_commands.Choice(name=ls(f"level.{level}"), value=level)
          for level in COMPUTER_LEVELS]
TURN_RANGE = SETTING_RANGES["turn_seconds"]
ACTIONS = ("signup", "withdraw", "start")


def is_manager(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


class TournamentsCog(commands.Cog, name="Tournaments"):
    tournament = app_commands.Group(name=ls("cmdname.tournament"),
                                    description=ls("cmd.tournament"), guild_only=True)

    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot

    @property
    def manager(self) -> Manager:
        return self.bot.community.tournaments

    # -- /tournament new -----------------------------------------------------------------

    @tournament.command(name=ls("cmdname.tournament_new"), description=ls("cmd.tournament_new"))
    @app_commands.describe(game=ls("cmd.game"), format=ls("cmd.tour_format"),
                           rounds=ls("cmd.tour_rounds"), hands=ls("cmd.tour_hands"),
                           starts_in=ls("cmd.tour_starts_in"),
                           computers=ls("cmd.tour_computers"), level=ls("cmd.tour_level"),
                           turn_seconds=ls("cmd.turn_seconds"))
    @app_commands.rename(game=ls("optname.game"), format=ls("optname.format"),
                         rounds=ls("optname.rounds"), hands=ls("optname.hands"),
                         starts_in=ls("optname.starts_in"), computers=ls("optname.computers"),
                         level=ls("optname.level"), turn_seconds=ls("optname.turn_seconds"))
    @app_commands.choices(game=GAME_CHOICES, format=FORMATS, level=LEVELS)
    async def tournament_new(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str],
        format: app_commands.Choice[str], rounds: app_commands.Range[int, 1, 10] = 3,
        hands: app_commands.Range[int, 1, 12] = 2,
        starts_in: app_commands.Range[int, 1, 10080] = 30,
        computers: app_commands.Range[int, 0, 64] = 0,
        level: app_commands.Choice[str] | None = None,
        turn_seconds: app_commands.Range[int, TURN_RANGE[0], TURN_RANGE[1]] = 60,
    ) -> None:
        """A tournament in this channel, taking sign-ups until it starts (managers only:
        it is the server's event)."""
        if not is_manager(interaction):
            await reply_error(interaction, t("err.need_manage_server"))
            return
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        assert guild_id is not None and channel_id is not None
        if game.value not in GAMES or format.value not in ("swiss", "duplicate"):
            await reply_error(interaction, t("err.bad_command_input"))
            return
        chosen = level.value if level is not None else "easy"
        if chosen not in COMPUTER_LEVELS:
            await reply_error(interaction, t("err.bad_command_input"))
            return
        row = await self.manager.create(
            guild_id=guild_id, channel_id=channel_id, organizer_id=interaction.user.id,
            game=game.value, format="duplicate" if format.value == "duplicate" else "swiss",
            rounds=int(rounds), hands=int(hands), starts_in=int(starts_in),
            computers=int(computers), level=chosen, turn_seconds=int(turn_seconds))
        entrants = await self.bot.store.entrants(row.id)
        with speaking(self.bot.public_language(guild_id)):
            embed = drawing.announcement(row, entrants)
            view = drawing.announcement_view(row)
        assert view is not None
        # Under the tournament's lock until its announcement is kept: a click on it waits
        # for that (the announcement's buttons are checked against it).
        async with self.manager.lock(row.id):
            sent = await interaction.response.send_message(embed=embed, view=view)
            message_id = sent.message_id
            if message_id is None:
                message_id = (await interaction.original_response()).id
            await self.bot.store.update_tournament(row.id, message_id=message_id)
        await self.manager.announce(row)

    # -- /tournament standings -----------------------------------------------------------

    @tournament.command(name=ls("cmdname.tournament_standings"),
                        description=ls("cmd.tournament_standings"))
    @app_commands.describe(number=ls("cmd.tour_number"))
    @app_commands.rename(number=ls("optname.number"))
    async def standings(self, interaction: discord.Interaction[Any],
                        number: app_commands.Range[int, 1, 1_000_000_000] | None = None) -> None:
        """The standings as they are (the tournament in this channel, or the server's
        latest), only for the asker."""
        row = await self._find(interaction, number)
        if row is None:
            await reply_error(interaction, t("err.tour_gone"))
            return
        standings = await self.manager.standings(row)
        done = row.round if row.state == "finished" else max(0, row.round - 1)
        embed = drawing.standings_embed(row, standings, done, final=row.state == "finished")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _find(self, interaction: discord.Interaction[Any],
                    number: int | None) -> TournamentRow | None:
        store = self.bot.store
        if number is not None:
            row = await store.get_tournament(int(number))
            return row if row is not None and row.guild_id == interaction.guild_id else None
        assert interaction.guild_id is not None
        # The one in play (or taking sign-ups) here, else anywhere on the server; after
        # the final, the latest finished one (its final standings), here or anywhere.
        for rows in (await store.live_tournaments(interaction.guild_id),
                     await store.finished_tournaments(interaction.guild_id)):
            here = [r for r in rows if r.channel_id == interaction.channel_id]
            found = here or rows
            if found:
                return found[-1]
        return None

    # -- /tournament cancel --------------------------------------------------------------

    @tournament.command(name=ls("cmdname.tournament_cancel"),
                        description=ls("cmd.tournament_cancel"))
    @app_commands.describe(number=ls("cmd.tour_number"))
    @app_commands.rename(number=ls("optname.number"))
    async def cancel(self, interaction: discord.Interaction[Any],
                     number: app_commands.Range[int, 1, 1_000_000_000] | None = None) -> None:
        """Call off a tournament before it starts (its organizer or a manager)."""
        row = await self._find(interaction, number)
        try:
            if row is None:
                raise SessionError("err.tour_gone")
            await self.manager.cancel(row.id, by=interaction.user.id,
                                      manager=is_manager(interaction))
        except SessionError as e:
            await reply_error(interaction, refusal(e.key, e.params))
            return
        await interaction.response.send_message(t("tour.cancelled_ok"), ephemeral=True)

    # -- the announcement's buttons ------------------------------------------------------

    async def cog_load(self) -> None:
        self.bot.clicks.route([Op.TOURNAMENT], self._on_click)

    async def cog_unload(self) -> None:
        self.bot.clicks.unroute([Op.TOURNAMENT])

    async def _on_click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A button of the announcement, checked against the announcement it must be on:
        the tournament's own message, in its server."""
        message = interaction.message
        if message is None or not came_from(interaction, click, None):
            raise SessionError("err.bad_button")
        async with self.manager.lock(click.table_id):  # announced in full (see above)
            row = await self.bot.store.get_tournament(click.table_id)
        if row is None:
            raise SessionError("err.tour_gone")
        if interaction.guild_id != row.guild_id or message.id != row.message_id:
            raise SessionError("err.elsewhere")
        action = click.get("action", str)
        user = interaction.user
        if action == "signup":
            await self.manager.sign_up(row.id, user.id, user.display_name)
        elif action == "withdraw":
            await self.manager.withdraw(row.id, user.id)
        else:
            if user.id != row.organizer_id and not is_manager(interaction):
                raise SessionError("err.tour_not_organizer")
            if row.state != "signup":
                raise SessionError("err.tour_not_signup")
            # Answered first (the draw and the tables' threads may take longer than
            # Discord's 3 s); the announcement is redrawn once the tournament has started.
            await interaction.response.defer()
            try:
                await self.manager.start(row.id, by=user.id, manager=is_manager(interaction))
            except SessionError as e:
                await interaction.followup.send(
                    refusal(e.key, e.params) if e.key in EN else t("err.not_allowed"),
                    ephemeral=True)
            return
        row, entrants = await self.manager.shown(row.id)
        with speaking(self.bot.public_language(row.guild_id)):
            embed = drawing.announcement(row, entrants)
            view = drawing.announcement_view(row)
        await interaction.response.edit_message(embed=embed, view=view)


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(TournamentsCog(bot))
