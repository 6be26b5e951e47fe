"""Finding a game: ``/play``, ``/tables`` and their *Join* buttons, a player's own
``/settings``, and a server's ``/community`` settings (the call role, the hold time).

The cog parses and answers; the table service seats (``bot.service``, under the table's
lock, every surface told), ``bot.community`` finds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.choices import GAME_CHOICES
from bot.community import drawing, quickplay
from bot.courier import Via
from bot.crossplay import access, hub, openings
from bot.crossplay.hub import plays_across
from bot.errors import answer as reply_error
from bot.lobby import Actor, SessionError
from bot.open_tables import OpenTable
from bot.protocol import Click, Op, Place
from bot.service import Outcome
from bot.store import CommunitySettings, PlayerSettings, Waiting, now
from bot.texts import game_title, refusal, t
from bot.translator import ls
from bot.validate import came_from, place_of
from engine import make_rules

if TYPE_CHECKING:
    from bot.client import FilicauBot

log = logging.getLogger(__name__)

REMINDERS = [app_commands.Choice(name=ls("choice.off"), value="off"),
             app_commands.Choice(name=ls("choice.dm"), value="dm")]
INVITES = [app_commands.Choice(name=ls("choice.mention"), value="mention"),
           app_commands.Choice(name=ls("choice.dm"), value="dm")]
WHERE = [app_commands.Choice(name=ls("choice.here"), value="here"),
         app_commands.Choice(name=ls("choice.everywhere"), value="everywhere")]
PACES = [app_commands.Choice(name=ls(f"choice.pace_{p}"), value=p)
         for p in ("quick", "usual", "slow")]
#: How long an invitation may hold a seat (minutes): the lobby itself closes after 15.
HOLD_RANGE = (1, 15)


class Play(commands.Cog, name="Play"):
    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot
        #: Each server's quick play, one at a time (``_play``).
        self._finding: dict[int, asyncio.Lock] = {}

    # -- /play ----------------------------------------------------------------------------

    @app_commands.command(name=ls("cmdname.play"), description=ls("cmd.play"))
    @app_commands.guild_only()
    @app_commands.describe(game=ls("cmd.play_game"), where=ls("cmd.play_where"),
                           pace=ls("cmd.play_pace"), rated=ls("cmd.play_rated"))
    @app_commands.rename(game=ls("optname.game"), where=ls("optname.where"),
                         pace=ls("optname.pace"), rated=ls("optname.rated"))
    @app_commands.choices(game=GAME_CHOICES, where=WHERE, pace=PACES)
    async def play(self, interaction: discord.Interaction[Any],
                   game: app_commands.Choice[str] | None = None,
                   where: app_commands.Choice[str] | None = None,
                   pace: app_commands.Choice[str] | None = None, rated: bool = True) -> None:
        """The fullest table of the game that takes the player now, anywhere in the server;
        else a new one here. *Everywhere*: the queue of every server that plays across
        servers (``bot.crossplay``)."""
        try:
            if where is not None and where.value == "everywhere":
                await self._everywhere(interaction, game.value if game else None,
                                       pace.value if pace else "usual", rated)
            else:
                await self._play(interaction, None if game is None else game.value)
        except SessionError as e:
            await reply_error(interaction, refusal(e.key, e.params))

    async def _everywhere(self, interaction: discord.Interaction[Any], game: str | None,
                          pace: str, rated: bool) -> None:
        """Queue the player with the players of every server that plays across servers,
        after this server's say (``bot.crossplay.access``); answered at once, told where
        their table is once it forms."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise SessionError("err.guild_only")
        store = self.bot.store
        chosen = game or quickplay.DEFAULT_GAME
        why = access.refusal(await store.crossplay_settings(guild_id), chosen,
                             interaction.channel_id,
                             barred=await store.barred(interaction.user.id))
        if why is not None:
            raise SessionError(why)
        user = interaction.user
        waiting = Waiting(
            user_id=user.id, guild_id=guild_id, channel_id=interaction.channel_id or 0,
            game=chosen, rated=rated, pace="quick" if pace == "quick" else
            "slow" if pace == "slow" else "usual",
            # The name the player chose for tables across servers, or the one they show
            # everywhere on Discord: never this server's nickname for them.
            name=await store.table_name(user.id) or user.global_name or user.name,
            locale=str(interaction.locale.value),
            application_id=interaction.application_id, token=interaction.token,
            queued_at=now())
        others = len([w for w in await store.waiting(chosen) if w.user_id != user.id])
        await interaction.response.send_message(
            t("crossplay.queued", game=game_title(chosen, make_rules(chosen).title),
              waiting=others + 1), ephemeral=True)
        await self.bot.crossplay.queue(waiting)

    async def _play(self, interaction: discord.Interaction[Any], game: str | None) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            raise SessionError("err.guild_only")
        # Quick play here: out of the queue of every server.
        await self.bot.crossplay.leave(interaction.user.id)
        member = quickplay.member_of(interaction.user.id)
        sitting = quickplay.seated_at(self.bot.tables, guild_id=guild_id, member=member)
        if sitting is not None:
            s = sitting.session
            await interaction.response.send_message(
                t("play.already_seated", game=render.title(s), channel=f"<#{s.channel_id}>",
                  link=quickplay.table_link(sitting)), ephemeral=True)
            return
        # One quick play at a time in a server: a second /play at the same moment finds
        # the table the first one opened instead of opening another.
        async with self._finding.setdefault(guild_id, asyncio.Lock()):
            for opening in quickplay.openings(self.bot.tables, guild_id=guild_id,
                                              member=member, game=game,
                                              visible=quickplay.visible_to(interaction)):
                if plays_across(opening.table):
                    continue  # its seats are the queue's
                try:
                    await self._take(interaction, opening.table)
                    return
                except SessionError:
                    continue  # taken meanwhile: the next one
            here = self.bot.tables.in_channel(interaction.channel_id)
            if here is not None:
                # No seat of the game asked for anywhere, and this channel has its table (of
                # another game, or full): say where it is, rather than only that it is there.
                raise SessionError("play.here", game=render.title(here.session),
                                   link=quickplay.table_link(here))
            await quickplay.open_here(
                self.bot.service, interaction, game or quickplay.DEFAULT_GAME,
                post=lambda table: table.discord.post_again(interaction))

    async def _take(self, interaction: discord.Interaction[Any],
                    table: OpenTable, *, edit: bool = False) -> None:
        """Seat the user at ``table`` and answer with where it is (``edit``: on the message
        the click came from, which only they see)."""
        async def reply(_: Outcome) -> None:
            s = table.session
            text = t("play.seated", game=render.title(s), channel=f"<#{s.channel_id}>",
                     link=quickplay.table_link(table))
            if edit:
                await interaction.response.edit_message(content=text, embed=None, view=None)
            else:
                await interaction.response.send_message(text, ephemeral=True)

        await self.bot.service.take_seat(table, Actor(interaction.user.id),
                                         interaction.user.display_name, via=Via.DISCORD,
                                         reply=reply)

    # -- /tables --------------------------------------------------------------------------

    @app_commands.command(name=ls("cmdname.tables"), description=ls("cmd.tables"))
    @app_commands.guild_only()
    @app_commands.describe(game=ls("cmd.tables_game"))
    @app_commands.rename(game=ls("optname.game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def tables(self, interaction: discord.Interaction[Any],
                     game: app_commands.Choice[str] | None = None) -> None:
        """The tables that take the asker now, the fullest first, with a Join each: only
        the asker sees the list (it is theirs, and soon out of date). Beside this server's,
        the tables across servers that take them from here (``bot.crossplay.openings``):
        those another shard process drives are asked of it, the answer deferred meanwhile."""
        guild_id = interaction.guild_id
        assert guild_id is not None
        value = None if game is None else game.value
        member = quickplay.member_of(interaction.user.id)
        found = [o for o in quickplay.openings(
            self.bot.tables, guild_id=guild_id, member=member, game=value,
            visible=quickplay.visible_to(interaction)) if not plays_across(o.table)]
        asked = await self._homes_elsewhere()
        if asked:
            await interaction.response.defer(ephemeral=True, thinking=True)
        across = await self._seen_from_here(interaction, [
            *await self._openings_here(interaction.user.id, guild_id,
                                       interaction.channel_id or 0, value),
            *await self._openings_elsewhere(interaction, asked, value)])
        listed = found[:quickplay.LISTED]
        shown = across[:quickplay.LISTED - len(listed)]
        embed = drawing.tables_embed(listed, value, more=[
            across_line(i, o) for i, o in enumerate(shown, start=len(listed) + 1)])
        ids = [o.table.id for o in listed] + [o.table_id for o in shown]
        answer: dict[str, Any] = {"embed": embed}
        if ids:
            answer["view"] = drawing.take_view(ids)
        if asked:
            await interaction.edit_original_response(**answer)
        else:
            await interaction.response.send_message(**answer, ephemeral=True)

    async def _homes_elsewhere(self) -> list[int]:
        """A server of each other shard process's that is the home of a table across
        servers (the process to ask for its openings), if the bot runs on several."""
        relay = self.bot.relay
        if not relay.started:
            return []  # one process: it drives every table
        homes: dict[int, int] = {}
        for guild_id in await self.bot.store.homes_across():
            if relay.elsewhere(guild_id):
                homes.setdefault(relay.home_shard(guild_id), guild_id)
        return list(homes.values())

    def _shown_in(self, guild_id: int) -> Callable[[OpenTable], int | None]:
        """The channel of ``guild_id`` that shows a table already (its home, or its venue
        there), if any."""
        def shown_in(table: OpenTable) -> int | None:
            shown = self.bot.crossplay.shown_at(table, guild_id)
            return None if shown is None else shown.discord.session.channel_id
        return shown_in

    async def _openings_here(self, user_id: int, guild_id: int, channel_id: int,
                             game: str | None) -> list[openings.Opening]:
        return await openings.here(self.bot.store, self.bot.tables, user_id=user_id,
                                   guild_id=guild_id, channel_id=channel_id, game=game,
                                   shown_in=self._shown_in(guild_id))

    async def _openings_asked(self, work: dict[str, Any]) -> dict[str, Any]:
        """Another process's ``/tables``: the openings of the tables across servers this
        process drives, for its asker."""
        game = work.get("game")
        found = await self._openings_here(
            int(work["user_id"]), int(work["guild_id"]), int(work["channel_id"]),
            None if game is None else str(game))
        return {"openings": [o.answer() for o in found]}

    async def _openings_elsewhere(self, interaction: discord.Interaction[Any],
                                  homes: list[int], game: str | None) -> list[openings.Opening]:
        """The openings of the tables across servers other processes drive, asked of each
        (``homes``: a server of each), at once; what does not come in time is left out. The
        asker's channel for each is checked here, where its server is known."""
        work = {"user_id": interaction.user.id, "guild_id": interaction.guild_id,
                "channel_id": interaction.channel_id or 0, "game": game}
        answers = await asyncio.gather(*(
            self.bot.relay.ask(home, openings.OPENINGS, work, seconds=openings.LIST_SECONDS)
            for home in homes), return_exceptions=True)
        found: list[openings.Opening] = []
        for answer in answers:
            if isinstance(answer, BaseException) and not isinstance(answer, SessionError):
                log.warning("/tables: another process's openings failed: %r", answer)
            if not isinstance(answer, dict):
                continue  # no answer in time, or a refusal: that process's tables left out
            for data in answer.get("openings") or ():
                with contextlib.suppress(KeyError, TypeError, ValueError):
                    found.append(openings.Opening.from_answer(data))
        return found

    async def _seen_from_here(self, interaction: discord.Interaction[Any],
                              found: list[openings.Opening]) -> list[openings.Opening]:
        """The openings whose channel the asker would play from they may see, and the bot
        post in (as only the process of their server knows), each once, the fullest first."""
        visible = quickplay.visible_to(interaction)
        seen: dict[int, openings.Opening] = {}
        for o in found:
            channel_id = await openings.played_from(
                self.bot.store, o.table_id, interaction.guild_id or 0,
                interaction.channel_id or 0)
            if visible(channel_id):
                seen.setdefault(o.table_id, o)
        return openings.fullest_first(seen.values())

    def _plays_from(self, interaction: discord.Interaction[Any], table: OpenTable) -> int:
        """The channel a player of the asker's server plays ``table`` from: where their
        server shows it already, else where they ask."""
        shown = self._shown_in(interaction.guild_id or 0)(table)
        return interaction.channel_id or 0 if shown is None else shown

    async def _across_refusal(self, interaction: discord.Interaction[Any],
                              table: OpenTable) -> str | None:
        """Why the asker may not sit at ``table`` across servers (a key of the catalogs),
        or None: what the store tells (``openings.refusal``), a channel they cannot see
        (as far as this process knows their server) or that shows another table already."""
        user_id = interaction.user.id
        channel_id = self._plays_from(interaction, table)
        why = await openings.refusal(self.bot.store, table, user_id=user_id,
                                     guild_id=interaction.guild_id or 0,
                                     channel_id=channel_id)
        if why is not None:
            return why
        if not quickplay.visible_to(interaction)(channel_id):
            return "err.elsewhere"
        if self.bot.crossplay.shown_at(table, interaction.guild_id) is None and \
                await openings.shows_another(self.bot.store, channel_id, table.id):
            return "err.crossplay_channel_busy"
        return None

    async def _carry_take(self, interaction: discord.Interaction[Any], click: Click) -> bool:
        """*Join* under ``/tables`` of a table across servers another shard process drives:
        what only this process knows is checked here (the channel the player would play
        from: that they see it, that it shows no other table), then the click is carried to
        that process, which seats them (True); False: no such table."""
        store = self.bot.store
        row = await store.get_table(click.table_id)
        message = interaction.message
        guild_id = interaction.guild_id
        if row is None or row.state == "closed" or not row.settings.get(hub.CROSSPLAY) \
                or guild_id is None or not self.bot.relay.elsewhere(row.guild_id):
            return False
        if message is None or not came_from(interaction, click, None) \
                or place_of(message, None) is not Place.PRIVATE:
            raise SessionError("err.bad_button")  # only a /tables list reaches another server
        channel_id = await openings.played_from(store, row.id, guild_id,
                                                interaction.channel_id or 0)
        if not quickplay.visible_to(interaction)(channel_id):
            raise SessionError("err.elsewhere")
        if channel_id == interaction.channel_id and \
                await openings.shows_another(store, channel_id, row.id):
            raise SessionError("err.crossplay_channel_busy")
        return await self.bot.relay.carry(interaction, row.guild_id)

    async def _take_across(self, interaction: discord.Interaction[Any], table: OpenTable,
                           place: Place) -> None:
        """*Join* of a table across servers: checked again (the list is only a pointer),
        seated, shown in the player's server (``hub.seat_from_server``); answered with
        where they play from."""
        guild_id = interaction.guild_id
        if guild_id is None or (guild_id != table.session.guild_id
                                and place is not Place.PRIVATE):
            raise SessionError("err.bad_button")  # only a /tables list reaches another server
        why = await self._across_refusal(interaction, table)
        if why is not None:
            raise SessionError(why)
        # A new venue posts its table message before the answer: deferred first, so that a
        # slow post never runs the click past Discord's 3 s.
        if place is Place.PRIVATE:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user
        name = await self.bot.store.table_name(user.id) or user.global_name or user.name
        shown = await hub.seat_from_server(
            self.bot.crossplay, table, user_id=user.id, name=name, guild_id=guild_id,
            channel_id=self._plays_from(interaction, table))
        v = shown.discord.session
        text = t("play.seated", game=render.title(table.session), channel=f"<#{v.channel_id}>",
                 link=quickplay.link(v.guild_id, v.channel_id, v.message_id))
        if place is Place.PRIVATE:
            await interaction.edit_original_response(content=text, embed=None, view=None)
        else:
            await interaction.followup.send(text, ephemeral=True)

    # -- a Join from elsewhere ------------------------------------------------------------

    async def cog_load(self) -> None:
        self.bot.clicks.route([Op.TAKE], self._on_take)
        self.bot.relay.on(openings.OPENINGS, self._openings_asked)

    async def cog_unload(self) -> None:
        self.bot.clicks.unroute([Op.TAKE])

    async def _on_take(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """*Join* under ``/tables`` (a message only its asker sees: answered by editing it)
        or under a call for one more (public: answered with a message only the clicker
        sees, never by editing the call)."""
        message = interaction.message
        table = self.bot.tables.get(click.table_id)
        if table is None:
            if await self._carry_take(interaction, click):
                return
            raise SessionError("err.gone")
        s = table.session
        if message is None or not came_from(interaction, click, s.message_id):
            raise SessionError("err.bad_button")
        place = place_of(message, s.message_id)
        if plays_across(table):
            await self._take_across(interaction, table, place)
            return
        if interaction.guild_id != s.guild_id:
            raise SessionError("err.elsewhere")
        if not quickplay.visible_to(interaction)(s.channel_id):
            raise SessionError("err.elsewhere")
        await self._take(interaction, table, edit=place is Place.PRIVATE)

    # -- /settings ------------------------------------------------------------------------

    @app_commands.command(name=ls("cmdname.settings"), description=ls("cmd.settings"))
    @app_commands.describe(reminders=ls("cmd.reminders"), invites=ls("cmd.invites"))
    @app_commands.rename(reminders=ls("optname.reminders"), invites=ls("optname.invites"))
    @app_commands.choices(reminders=REMINDERS, invites=INVITES)
    async def settings(self, interaction: discord.Interaction[Any],
                       reminders: app_commands.Choice[str] | None = None,
                       invites: app_commands.Choice[str] | None = None) -> None:
        """A player's own preferences, the same in every server; without options, what they
        are. The language of direct messages is the one they chose them in."""
        store = self.bot.store
        prefs = await store.player_settings(interaction.user.id)
        update: dict[str, Any] = {"locale": str(interaction.locale.value)}
        if reminders is not None:
            update["reminders"] = "dm" if reminders.value == "dm" else "off"
        if invites is not None:
            update["invites"] = "dm" if invites.value == "dm" else "mention"
        prefs = PlayerSettings.model_validate({**prefs.model_dump(), **update})
        if reminders is not None or invites is not None:
            await store.put_player_settings(prefs)
        await interaction.response.send_message(
            t("settings.now", reminders=t(f"choice.{prefs.reminders}"),
              invites=t(f"choice.{prefs.invites}")), ephemeral=True)

    # -- /community -----------------------------------------------------------------------

    @app_commands.command(name=ls("cmdname.community"), description=ls("cmd.community"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(call_role=ls("cmd.call_role"), call_off=ls("cmd.call_off"),
                           hold_minutes=ls("cmd.hold_minutes"))
    @app_commands.rename(call_role=ls("optname.call_role"), call_off=ls("optname.call_off"),
                         hold_minutes=ls("optname.hold_minutes"))
    async def community(
        self, interaction: discord.Interaction[Any], call_role: discord.Role | None = None,
        call_off: bool = False,
        hold_minutes: app_commands.Range[int, HOLD_RANGE[0], HOLD_RANGE[1]] | None = None,
    ) -> None:
        """A server's settings for finding a game (managers only); without options, what
        they are."""
        perms = getattr(interaction.user, "guild_permissions", None)
        if not (perms and perms.manage_guild):
            await reply_error(interaction, t("err.need_manage_server"))
            return
        guild_id = interaction.guild_id
        assert guild_id is not None
        store = self.bot.store
        current = await store.community_settings(guild_id)
        update: dict[str, Any] = {}
        if call_role is not None:
            if call_role.is_default():
                await reply_error(interaction, t("err.call_everyone"))
                return
            update["call_role_id"] = call_role.id
        if call_off:
            update["call_role_id"] = None
        if hold_minutes is not None:
            update["hold_minutes"] = int(hold_minutes)
        if update:
            current = CommunitySettings.model_validate({**current.model_dump(), **update})
            await store.put_community_settings(current)
        role = t("community.no_role") if current.call_role_id is None \
            else f"<@&{current.call_role_id}>"
        await interaction.response.send_message(
            t("community.now", role=role, minutes=current.hold_minutes), ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none())


def across_line(number: int, opening: openings.Opening) -> str:
    """A table across servers in ``/tables``: its game, seats and state, and nothing of the
    server it was formed in (no channel, no name)."""
    state = t("tables.lobby") if opening.lobby else t("tables.between")
    return t("tables.line_across", number=number, game=game_title(opening.game, opening.title),
             taken=opening.taken, seats=opening.seats, state=state,
             free=t("tables.free", count=opening.free))


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(Play(bot))
