"""A player's safety at tables across servers, and the operator's bar: ``/crossplay block``
(never seated with that player again), ``/crossplay report`` (a hand, by its number, with a
reason from a list: no free text travels between servers), and for the bot's operator
(``OPERATOR_IDS``, or the application's owner) ``bar``, ``unbar`` and ``reports``.

The cog parses and answers; the store keeps (``bot.store.crossplay``), the matchmaker
respects (``bot.crossplay.hub``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.crossplay import access, invitees
from bot.crossplay.hub import plays_across
from bot.errors import answer as reply_error
from bot.lobby import SessionError
from bot.seats import is_computer, user_member
from bot.store import Member
from bot.texts import game_title, language_of, refusal, speaking, t
from bot.translator import ls
from bot.voice.markdown import isolated, label
from bot.voice.table import person
from engine import make_rules

if TYPE_CHECKING:
    from bot.client import FilicauBot

REASONS = [app_commands.Choice(name=ls(f"choice.reason_{r}"), value=r)
           for r in ("cheating", "name", "stalling", "other")]
#: Reports ``/crossplay reports`` shows, the latest first.
SHOWN_REPORTS = 20


@dataclass(frozen=True)
class Seated:
    """Who sits at a table across servers, the names it knows them by, its home server
    (whose shard's process drives it) and its game."""

    table_id: int
    seats: list[Member | None]
    names: dict[Member, str]
    home_guild_id: int
    game: str
    title: str


class Crossplay(commands.Cog, name="Crossplay"):
    crossplay = app_commands.Group(name=ls("cmdname.crossplay"), description=ls("cmd.crossplay"),
                                   guild_only=True)

    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot

    async def _table(self, interaction: discord.Interaction[Any]) -> Seated | None:
        """The seats of this channel's table across servers: as this process drives it, or,
        with shard processes, as the store keeps it for the process that does."""
        table = self.bot.crossplay.in_channel(interaction.channel_id)
        if table is not None:
            s = table.session
            return Seated(s.id, list(s.seats), s.names, s.guild_id, s.game, s.rules.title)
        store = self.bot.store
        venue = await store.venue_in(interaction.channel_id or 0)
        row = None if venue is None else await store.get_table(venue.table_id)
        if row is None or venue is None or venue.guild_id != interaction.guild_id:
            return None
        return Seated(row.id, list(row.seats), dict(row.runtime.get("names", {})),
                      row.guild_id, row.game, make_rules(row.game, row.options).title)

    # -- a player's own --------------------------------------------------------------------

    @crossplay.command(name=ls("cmdname.crossplay_block"), description=ls("cmd.crossplay_block"))
    @app_commands.describe(seat=ls("cmd.crossplay_seat"))
    @app_commands.rename(seat=ls("optname.seat"))
    async def block(self, interaction: discord.Interaction[Any],
                    seat: app_commands.Range[int, 1, 6]) -> None:
        """Never be seated with the player in ``seat`` of this channel's table across
        servers again (the table in play goes on)."""
        table = await self._table(interaction)
        if table is None:
            await reply_error(interaction, t("err.no_crossplay_table"))
            return
        member = table.seats[seat - 1] if seat <= len(table.seats) else None
        if member is None or is_computer(member) or int(member) == interaction.user.id:
            await reply_error(interaction, t("err.no_such_player", seat=seat))
            return
        await self.bot.store.block(interaction.user.id, int(member))
        await interaction.response.send_message(
            t("ok.blocked", user=label(person(member, seat - 1, table.names))),
            ephemeral=True)

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
        table = await self._table(interaction)
        if table is None:
            await reply_error(interaction, t("err.no_crossplay_table"))
            return
        if user_member(interaction.user.id) not in table.seats:
            await reply_error(interaction, t("err.not_seated"))
            return
        found = [row for row in await self.bot.store.hands(table.table_id, limit=hand + 1)
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

    @crossplay.command(name=ls("cmdname.crossplay_invite"),
                       description=ls("cmd.crossplay_invite"))
    @app_commands.describe(user=ls("cmd.crossplay_invite_user"))
    @app_commands.rename(user=ls("optname.user"))
    async def invite(self, interaction: discord.Interaction[Any], user: discord.User) -> None:
        """Hold a seat of this channel's table across servers for ``user``, of any server
        (a free seat, a computer's, or one its player left mid-hand: theirs to take between
        hands, with ``/tables`` in a server of theirs that plays across servers), for the
        server's hold time; they are told by direct message if they allowed it
        (``/settings invites:dm``), else the inviter is told to tell them. No mention goes
        anywhere: a mention in a channel the invitee cannot see helps nobody."""
        table = await self._table(interaction)
        if table is None:
            await reply_error(interaction, t("err.no_crossplay_table"))
            return
        store = self.bot.store
        name = isolated(user.global_name or user.name)
        member = user_member(user.id)
        people = [int(m) for m in table.seats if m is not None and not is_computer(m)]
        why = ("err.not_seated" if user_member(interaction.user.id) not in table.seats
               else "err.crossplay_invite_self" if user.id == interaction.user.id
               else "err.crossplay_invite_bot" if user.bot
               else "err.crossplay_invite_seated" if member in table.seats
               else "err.crossplay_invite_refused" if await store.barred(user.id) or any(
                   user.id in pair for pair in await store.blocked_among([user.id, *people]))
               else None)
        if why is not None:
            await reply_error(interaction, t(why, user=name))
            return
        relay = self.bot.relay
        carried = relay.elsewhere(table.home_guild_id)
        if carried:
            await interaction.response.defer(ephemeral=True, thinking=True)
        minutes = (await store.community_settings(interaction.guild_id or 0)).hold_minutes
        until = time.time() + 60 * minutes
        try:
            await relay.ask(table.home_guild_id, invitees.HOLD,
                            {"table_id": table.table_id, "user_id": user.id, "until": until})
        except SessionError as e:
            text = refusal(e.key, e.params)
            if carried:
                await interaction.edit_original_response(content=text)
            else:
                await reply_error(interaction, text)
            return
        when = f"<t:{int(until)}:t>"
        prefs = await store.player_settings(user.id)
        told = False
        if prefs.invites == "dm":
            me = interaction.user
            by = await store.table_name(me.id) or me.global_name or me.name
            with speaking(language_of(prefs.locale)):
                text = t("crossplay.invite_dm", user=isolated(by),
                         game=game_title(table.game, table.title), until=when)
            told = await self.bot.community.dms.send(
                user.id, content=text, what=f"crossplay invite {user.id}",
                allowed_mentions=discord.AllowedMentions.none())
        text = t("ok.crossplay_invited_dm" if told else "ok.crossplay_invited", user=name,
                 until=when)
        if carried:
            await interaction.edit_original_response(
                content=text, allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    async def _hold_asked(self, work: dict[str, Any]) -> dict[str, Any]:
        """An invitation's hold at a table across servers this process drives (asked here
        by whichever process got the command)."""
        table = self.bot.tables.get(int(work["table_id"]))
        if table is None or not plays_across(table):
            raise SessionError("err.gone")
        member = user_member(int(work["user_id"]))
        if not invitees.holdable(table.session, member, time.time()):
            raise SessionError("err.crossplay_invite_no_seat")
        await self.bot.service.hold(table, [member], float(work["until"]))
        return {}

    async def cog_load(self) -> None:
        self.bot.relay.on(invitees.HOLD, self._hold_asked)

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
