"""A player's safety at tables across servers, and the operator's bar: ``/crossplay block``
(never seated with that player again), ``/crossplay report`` (a hand, by its number, with a
reason from a list: no free text travels between servers), and for the bot's operator
(``OPERATOR_IDS``, or the application's owner) ``bar``, ``unbar`` and ``reports``.

The cog parses and answers; the store keeps (``bot.store.crossplay``), the matchmaker
respects (``bot.crossplay.hub``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.crossplay import access
from bot.errors import answer as reply_error
from bot.names import plain_name
from bot.open_tables import OpenTable
from bot.seats import is_computer
from bot.texts import t
from bot.translator import ls
from bot.voice.markdown import isolated

if TYPE_CHECKING:
    from bot.client import FilicauBot

REASONS = [app_commands.Choice(name=ls(f"choice.reason_{r}"), value=r)
           for r in ("cheating", "name", "stalling", "other")]
#: Reports ``/crossplay reports`` shows, the latest first.
SHOWN_REPORTS = 20


class Crossplay(commands.Cog, name="Crossplay"):
    crossplay = app_commands.Group(name=ls("cmdname.crossplay"), description=ls("cmd.crossplay"),
                                   guild_only=True)

    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot

    def _table(self, interaction: discord.Interaction[Any]) -> OpenTable | None:
        return self.bot.crossplay.in_channel(interaction.channel_id)

    # -- a player's own --------------------------------------------------------------------

    @crossplay.command(name=ls("cmdname.crossplay_block"), description=ls("cmd.crossplay_block"))
    @app_commands.describe(seat=ls("cmd.crossplay_seat"))
    @app_commands.rename(seat=ls("optname.seat"))
    async def block(self, interaction: discord.Interaction[Any],
                    seat: app_commands.Range[int, 1, 6]) -> None:
        """Never be seated with the player in ``seat`` of this channel's table across
        servers again (the table in play goes on)."""
        table = self._table(interaction)
        if table is None:
            await reply_error(interaction, t("err.no_crossplay_table"))
            return
        s = table.session
        member = s.seats[seat - 1] if seat <= len(s.seats) else None
        if member is None or is_computer(member) or int(member) == interaction.user.id:
            await reply_error(interaction, t("err.no_such_player", seat=seat))
            return
        await self.bot.store.block(interaction.user.id, int(member))
        await interaction.response.send_message(
            t("ok.blocked", user=plain_name(s, seat - 1)), ephemeral=True)

    @crossplay.command(name=ls("cmdname.crossplay_report"),
                       description=ls("cmd.crossplay_report"))
    @app_commands.describe(hand=ls("cmd.crossplay_hand"), reason=ls("cmd.crossplay_reason"))
    @app_commands.rename(hand=ls("optname.hand"), reason=ls("optname.reason"))
    @app_commands.choices(reason=REASONS)
    async def report(self, interaction: discord.Interaction[Any],
                     hand: app_commands.Range[int, 1, 100_000],
                     reason: app_commands.Choice[str]) -> None:
        """Report hand ``hand`` (its number at this channel's table across servers) to the
        operator, by a player of the table."""
        table = self._table(interaction)
        if table is None:
            await reply_error(interaction, t("err.no_crossplay_table"))
            return
        s = table.session
        if s.seat_of(interaction.user.id) is None:
            await reply_error(interaction, t("err.not_seated"))
            return
        found = [row for row in await self.bot.store.hands(s.id, limit=hand + 1)
                 if row.number == hand]
        if not found:
            await reply_error(interaction, t("err.no_such_hand", hand=hand))
            return
        why: Literal["cheating", "name", "stalling", "other"] = (
            "cheating" if reason.value == "cheating" else "name" if reason.value == "name"
            else "stalling" if reason.value == "stalling" else "other")
        kept = await self.bot.store.report(interaction.user.id, found[0].id,
                                           interaction.guild_id or 0, why)
        await interaction.response.send_message(
            t("ok.reported" if kept else "ok.already_reported", hand=hand), ephemeral=True)

    @crossplay.command(name=ls("cmdname.crossplay_name"), description=ls("cmd.crossplay_name"))
    @app_commands.describe(name=ls("cmd.crossplay_name_name"))
    @app_commands.rename(name=ls("optname.name"))
    async def name(self, interaction: discord.Interaction[Any],
                   name: app_commands.Range[str, 1, 100] | None = None) -> None:
        """The name other servers see at tables across servers instead of the one shown on
        Discord (without ``name``: the Discord name again), from the next table on — and at
        once in the queue, if the player waits in it."""
        user = interaction.user
        store = self.bot.store
        discord_name = user.global_name or user.name
        if name is None:
            chosen = None
        else:
            chosen = access.table_name(name)
            if chosen is None:
                await reply_error(interaction, t("err.bad_table_name"))
                return
        shown = chosen or discord_name
        await store.put_table_name(user.id, chosen, shown)
        for waiting in await store.waiting():
            if waiting.user_id == user.id:
                await store.enqueue(waiting.model_copy(update={"name": shown}))
        await interaction.response.send_message(
            t("ok.table_name", name=isolated(shown)) if chosen is not None
            else t("ok.table_name_cleared", name=isolated(shown)), ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none())

    # -- the operator's ----------------------------------------------------------------------

    async def _operator(self, interaction: discord.Interaction[Any]) -> bool:
        operators = self.bot.settings.operator_ids
        owner = None if operators else (await self.bot.application_info()).owner.id
        if access.is_operator(interaction.user.id, operators, owner):
            return True
        await reply_error(interaction, t("err.not_operator"))
        return False

    @crossplay.command(name=ls("cmdname.crossplay_bar"), description=ls("cmd.crossplay_bar"))
    @app_commands.describe(user=ls("cmd.user"))
    @app_commands.rename(user=ls("optname.user"))
    async def bar(self, interaction: discord.Interaction[Any], user: discord.User) -> None:
        """No more play across servers for ``user``, anywhere (out of the queue at once)."""
        if not await self._operator(interaction):
            return
        await self.bot.crossplay.leave(user.id)
        await self.bot.store.bar(user.id, by=interaction.user.id)
        await interaction.response.send_message(t("ok.barred", user=user.mention),
                                                ephemeral=True)

    @crossplay.command(name=ls("cmdname.crossplay_unbar"), description=ls("cmd.crossplay_unbar"))
    @app_commands.describe(user=ls("cmd.user"))
    @app_commands.rename(user=ls("optname.user"))
    async def unbar(self, interaction: discord.Interaction[Any], user: discord.User) -> None:
        if not await self._operator(interaction):
            return
        await self.bot.store.unbar(user.id)
        await interaction.response.send_message(t("ok.unbarred", user=user.mention),
                                                ephemeral=True)

    @crossplay.command(name=ls("cmdname.crossplay_reports"),
                       description=ls("cmd.crossplay_reports"))
    async def reports(self, interaction: discord.Interaction[Any]) -> None:
        """The latest reports: which hand, why, by whom, when."""
        if not await self._operator(interaction):
            return
        lines = [t("crossplay.report_line", id=r.id, hand=r.hand_id,
                   reason=t(f"choice.reason_{r.reason}"), user=f"<@{r.reporter_id}>",
                   at=r.created_at[:16].replace("T", " "))
                 for r in await self.bot.store.reports(SHOWN_REPORTS)]
        await interaction.response.send_message(
            "\n".join(lines) or t("crossplay.no_reports"), ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(Crossplay(bot))
