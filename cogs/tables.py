"""Tables and play: ``/table new``, ``/table show``, and every click on a lobby, a table, a
result or a hand view.

The cog holds no table state: the bot's registry (``bot.tables``) has the open tables. It
parses a click (``bot.protocol``), checks that it belongs to the guild and channel of its
table, asks the session (which decides who may do what, under the table's lock) and answers
at once — the lobby and hand views by editing the message the button is on, a refusal with a
short ephemeral message in the user's language. The table's runner keeps it moving; its
surfaces show it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import options, present, render, thinking
from bot.choices import GAME_CHOICES, TOP_TRUMP_CHOICES, WATCH_CHOICES
from bot.community import invitations
from bot.errors import answer as reply_error
from bot.protocol import Click, Op
from bot.session import (
    COMPUTER_LEVELS,
    DEFAULT_TURN_SECONDS,
    DEFAULT_WINDOW_SECONDS,
    SETTING_RANGES,
    Actor,
    SessionError,
    check_settings,
)
from bot.tables import OpenTable
from bot.texts import refusal, t
from bot.translator import ls
from bot.validate import came_from
from bot.watch import DEFAULT_WATCH
from engine import Action, make_rules, seat_view
from engine.errors import OptionsError
from engine.rules import GAMES

if TYPE_CHECKING:
    from bot.client import FilicauBot

log = logging.getLogger(__name__)

#: Operations of the messages a table posts (results, reviews), which may sit in its thread.
POSTED_OPS = frozenset({Op.NEXT, Op.REVIEW})
TURN_RANGE, WINDOW_RANGE = SETTING_RANGES["turn_seconds"], SETTING_RANGES["window_seconds"]


def actor(interaction: discord.Interaction[Any]) -> Actor:
    """The clicking user, and whether they manage the server the click came from."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return Actor(interaction.user.id, bool(perms and perms.manage_guild))


Handler = Callable[[discord.Interaction[Any], OpenTable, Click], Awaitable[None]]


class Tables(commands.Cog, name="Tables"):
    table = app_commands.Group(name=ls("cmdname.table"), description=ls("cmd.table"),
                               guild_only=True)

    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        self._handlers: dict[Op, Handler] = {
            Op.JOIN: self._on_join, Op.SIT: self._on_sit, Op.LEAVE: self._on_leave,
            Op.CPU: self._on_cpu, Op.UNCPU: self._on_uncpu, Op.START: self._on_start,
            Op.CANCEL: self._on_cancel, Op.OPTION: self._on_option, Op.HAND: self._on_hand,
            Op.LAST: self._on_last, Op.RULES: self._on_rules, Op.NEXT: self._on_next,
            Op.ACTIVITY: self._on_activity,
            Op.CARD: self._on_card, Op.ACT: self._on_act, Op.TOGETHER: self._on_together,
            Op.SERVANT: self._on_servant, Op.HINT: self._on_hint, Op.REVIEW: self._on_review,
        }

    # -- /table new ------------------------------------------------------------------------

    @table.command(name=ls("cmdname.table_new"), description=ls("cmd.table_new"))
    @app_commands.describe(game=ls("cmd.game"), early_end=ls("cmd.early_end"),
                           top_trumps=ls("cmd.top_trumps"), turn_seconds=ls("cmd.turn_seconds"),
                           window_seconds=ls("cmd.window_seconds"), pings=ls("cmd.pings"),
                           hints=ls("cmd.hints"), rated=ls("cmd.rated"),
                           thread=ls("cmd.thread"), watch=ls("cmd.watch"),
                           confirm=ls("cmd.confirm"),
                           invite=ls("cmd.invite"), invite_2=ls("cmd.invite"),
                           invite_3=ls("cmd.invite"))
    @app_commands.rename(game=ls("optname.game"), early_end=ls("optname.early_end"),
                         top_trumps=ls("optname.top_trumps"),
                         turn_seconds=ls("optname.turn_seconds"),
                         window_seconds=ls("optname.window_seconds"),
                         pings=ls("optname.pings"), hints=ls("optname.hints"),
                         rated=ls("optname.rated"), thread=ls("optname.thread"),
                         watch=ls("optname.watch"), confirm=ls("optname.confirm"),
                         invite=ls("optname.invite"), invite_2=ls("optname.invite_2"),
                         invite_3=ls("optname.invite_3"))
    @app_commands.choices(game=GAME_CHOICES, top_trumps=TOP_TRUMP_CHOICES,
                          watch=WATCH_CHOICES)
    async def table_new(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str],
        early_end: bool = True, top_trumps: app_commands.Choice[str] | None = None,
        turn_seconds: app_commands.Range[int, TURN_RANGE[0], TURN_RANGE[1]]
        = DEFAULT_TURN_SECONDS,
        window_seconds: app_commands.Range[int, WINDOW_RANGE[0], WINDOW_RANGE[1]]
        = DEFAULT_WINDOW_SECONDS,
        pings: bool = True, hints: bool = True, rated: bool = True, thread: bool = False,
        watch: app_commands.Choice[str] | None = None, confirm: bool = False,
        invite: discord.User | None = None, invite_2: discord.User | None = None,
        invite_3: discord.User | None = None,
    ) -> None:
        try:
            table = await self._open(interaction, game.value, early_end, top_trumps, {
                "turn_seconds": turn_seconds, "window_seconds": window_seconds,
                "pings": pings, "hints": hints, "rated": rated, "thread": thread,
                "watch": watch.value if watch is not None else DEFAULT_WATCH,
                "confirm": confirm})
        except SessionError as e:
            await reply_error(interaction, refusal(e.key, e.params))
            return
        # Seats held for the invited, who are told (bot.community.invitations).
        await invitations.invite(self.bot, self.bot.community.dms, table, interaction,
                                 invitations.invited([invite, invite_2, invite_3],
                                                     interaction.user.id,
                                                     table.session.rules.players))

    async def _open(self, interaction: discord.Interaction[Any], game: str, early_end: bool,
                    top_trumps: app_commands.Choice[str] | None,
                    settings: dict[str, Any]) -> OpenTable:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise SessionError("err.guild_only")
        if game not in GAMES:
            raise SessionError("err.bad_game")
        # Only a game that has an early end (its lobby offers it) is given the choice.
        table_options: dict[str, Any] = (
            {"early_end": early_end} if options.offers(game, "early_end") else {})
        if top_trumps is not None:
            table_options["top_trumps"] = top_trumps.value
        try:
            rules = make_rules(game, table_options)
        except OptionsError as e:
            raise SessionError("err.bad_options", problem=options.describe(e)) from None
        checked = check_settings(settings)
        table = await self.tables.create(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, game=game,
            options=table_options, opener_id=interaction.user.id, seats=rules.players,
            settings=checked)
        try:
            await table.discord.post_again(interaction)
        except BaseException:
            # A table exists only once its message does.
            await self.tables.discard(table)
            raise
        if checked.get("thread"):
            await table.discord.open_thread()
        table.runner.start_lobby_timer()
        return table

    @table.command(name=ls("cmdname.table_show"), description=ls("cmd.table_show"))
    async def table_show(self, interaction: discord.Interaction[Any]) -> None:
        """Post this channel's table again at the bottom (a busy channel scrolled it away)."""
        table = self.tables.in_channel(interaction.channel_id)
        if table is None or interaction.guild_id != table.session.guild_id:
            await reply_error(interaction, t("err.no_table"))
            return
        await table.discord.post_again(interaction)

    # -- every click -----------------------------------------------------------------------------

    async def cog_load(self) -> None:
        self.bot.clicks.route(self._handlers, self.handle, too_late=self._too_late)

    async def cog_unload(self) -> None:
        self.bot.clicks.unroute(self._handlers)

    async def handle(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A click on a table's component: checked against its table's server, channel and
        message, then answered by its operation's handler (refusals and failures are
        ``bot.clicks``')."""
        table = self.tables.get(click.table_id)
        if table is None:
            raise SessionError(await self._not_open(interaction, click.table_id))
        session = table.session
        # A click belongs to its table's server and channel (a result or a review in the
        # table's own thread: there); anywhere else it is refused (a button copied into
        # another server, a DM).
        in_thread = (session.thread_id is not None
                     and interaction.channel_id == session.thread_id)
        if interaction.guild_id != session.guild_id or not (
                interaction.channel_id == session.channel_id
                or (in_thread and click.op in POSTED_OPS)):
            raise SessionError("err.elsewhere")
        await table.discord.settled()
        if not came_from(interaction, click, session.message_id):
            raise SessionError("err.bad_button")
        await self._handlers[click.op](interaction, table, click)

    async def _too_late(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """What a click stored is shown where its answer would have shown it."""
        table = self.tables.get(click.table_id)
        if table is not None:
            await table.discord.redraw()

    async def _not_open(self, interaction: discord.Interaction[Any], table_id: int) -> str:
        """Why a click's table is not open in this process: closed, or a table of another
        server (with shards, driven by another process: a click copied from there lands
        here). One read of the store, only for clicks on tables not open here."""
        row = await self.bot.store.get_table(table_id)
        if row is not None and row.guild_id != interaction.guild_id:
            # From a DM (no server): it belongs somewhere else, as for an open table.
            return "err.other_server" if interaction.guild_id else "err.elsewhere"
        return "err.gone"

    # the lobby

    async def _seats_update(self, interaction: discord.Interaction[Any],
                            table: OpenTable) -> None:
        """Answer a change of seats on the message it was made on: the lobby, or the table
        between hands (whose driver looks again: the table may have nobody left)."""
        try:
            await table.discord.answer_with_table(interaction)
        finally:
            # What was stored goes on even when the answer could not be given (too late):
            # every surface hears of it, and the driver looks again.
            await table.runner.after(None)

    async def _on_join(self, interaction: discord.Interaction[Any], table: OpenTable,
                       click: Click) -> None:
        team = click.get("team", int)
        await table.session.join(interaction.user.id, team, interaction.user.display_name)
        await self._seats_update(interaction, table)

    async def _on_sit(self, interaction: discord.Interaction[Any], table: OpenTable,
                      click: Click) -> None:
        await table.session.join(interaction.user.id, None, interaction.user.display_name)
        await self._seats_update(interaction, table)

    async def _on_leave(self, interaction: discord.Interaction[Any], table: OpenTable,
                        click: Click) -> None:
        """Leave: at once in the lobby and between hands; during a hand, after a yes to
        "Leave the table?" (``leave:HAND:yes|no``, on the question only its asker sees)."""
        session = table.session
        if click.has("answer"):
            if click.get("answer", str) == "no":
                await interaction.response.edit_message(content=t("hand.stay"), view=None)
                return
            seat = session.require_seat(interaction.user.id)
            if click.get("hand", int) != session.hand_number:
                raise SessionError("err.stale_hand")
            if not await session.leave(interaction.user.id):
                try:
                    await interaction.response.edit_message(content=t("hand.left_between"),
                                                            view=None)
                finally:
                    table.runner.kick()
                    table.discord.request_refresh()
                return
            try:
                await interaction.response.edit_message(content=t("hand.left"), view=None)
            finally:
                await table.discord.refresh_hand_views([seat], only=[seat])
                await table.runner.courier.notice("turn.left", seat)
                await table.runner.after(None)
            return
        if session.state == "playing" and not session.between_hands:
            session.require_seat(interaction.user.id)
            await interaction.response.send_message(
                t("hand.leave_ask"), view=render.leave_question(session), ephemeral=True)
            return
        await session.leave(interaction.user.id)
        await self._seats_update(interaction, table)

    async def _on_cpu(self, interaction: discord.Interaction[Any], table: OpenTable,
                      click: Click) -> None:
        # The menu's choice is the level; an old button carries it, or adds a Normal one.
        level = click.get("level", str) if click.has("level") else "normal"
        if level not in COMPUTER_LEVELS:
            raise SessionError("err.bad_level", level=level[:40])
        await table.session.add_computer(level=level, by=actor(interaction))
        await self._seats_update(interaction, table)

    async def _on_uncpu(self, interaction: discord.Interaction[Any], table: OpenTable,
                        click: Click) -> None:
        await table.session.remove_computer(by=actor(interaction))
        await self._seats_update(interaction, table)

    async def _on_option(self, interaction: discord.Interaction[Any], table: OpenTable,
                         click: Click) -> None:
        name, value = click.get("option", tuple)
        by = actor(interaction)
        await table.session.set_option(by.user_id, name, value, is_admin=by.manager)
        await self._seats_update(interaction, table)

    async def _on_cancel(self, interaction: discord.Interaction[Any], table: OpenTable,
                         click: Click) -> None:
        await table.session.cancel(actor(interaction))
        try:
            await table.discord.answer_closed(interaction, "lobby.cancelled")
        finally:
            await self.tables.close(table, "lobby.cancelled")

    async def _on_start(self, interaction: discord.Interaction[Any], table: OpenTable,
                        click: Click) -> None:
        by = actor(interaction)
        await table.session.start(by.user_id, is_admin=by.manager)
        table.runner.lobby_closed()
        try:
            await table.discord.answer_with_table(interaction)
        finally:
            table.runner.kick()

    # the table

    async def _on_hand(self, interaction: discord.Interaction[Any], table: OpenTable,
                       click: Click) -> None:
        session = table.session
        seat = session.require_seat(interaction.user.id)
        if session.hand is None:
            raise SessionError("err.no_hand")
        was_auto = seat in session.autoplay
        session.resume(interaction.user.id)
        hand = session.hand
        moved = len(hand.actions)
        message = await table.discord.hand_message(seat)
        try:
            await interaction.response.send_message(
                message.content, view=message.view, ephemeral=True,
                files=message.files or discord.utils.MISSING)
        finally:
            if was_auto:
                table.runner.kick()  # the seat is the player's again
        table.discord.keep_hand_view(interaction)
        if session.hand is not hand or len(hand.actions) != moved:
            # The table moved while the view was on its way (a computer's move): its
            # refresh did not know this view yet, so draw it again now.
            await table.discord.refresh_hand_views([seat], only=[seat])

    async def _on_activity(self, interaction: discord.Interaction[Any], table: OpenTable,
                           click: Click) -> None:
        """*Open the table*: Discord opens the bot's Activity in this channel, which finds
        this table by the channel (``bot.web.activity``)."""
        web = self.bot.web
        if web is None or web.activity is None:
            raise SessionError("activity.off")  # an old message's button
        await interaction.response.launch_activity()

    async def _on_last(self, interaction: discord.Interaction[Any], table: OpenTable,
                       click: Click) -> None:
        hand = table.session.hand
        if hand is None or not hand.tricks:
            text = t("table.no_last_trick")
        else:
            text = render.last_trick_text(table.session, hand.tricks[-1])
        await interaction.response.send_message(text, ephemeral=True)

    async def _on_rules(self, interaction: discord.Interaction[Any], table: OpenTable,
                        click: Click) -> None:
        s = table.session
        await interaction.response.send_message(embed=render.rules_embed(
            s.game, s.rules.title, s.rules.rulings, s.rules.options.model_dump()),
            ephemeral=True)

    async def _on_next(self, interaction: discord.Interaction[Any], table: OpenTable,
                       click: Click) -> None:
        number = click.get("hand", int)
        session = table.session
        await session.next_hand(actor(interaction), number)
        on = interaction.message
        try:
            if on is not None and on.id == session.message_id:
                await table.discord.answer_with_table(interaction)  # an old table's button
            elif interaction.channel_id == session.thread_id:
                # Under the result in the table's thread: the result says the hand is
                # dealt, and the table is redrawn where it is, in the channel.
                await table.discord.answer_dealt(interaction)
            else:
                # Under the result: the new hand's table is posted there, at the bottom of
                # the channel, and play goes on in it.
                await table.discord.post_again(interaction)
        finally:
            await table.runner.dealt()

    # playing

    async def _on_card(self, interaction: discord.Interaction[Any], table: OpenTable,
                       click: Click) -> None:
        await self._act(interaction, table, Action("card", click.get("card", int)),
                        click.get("hand", int), click.get("trick", int))

    async def _on_act(self, interaction: discord.Interaction[Any], table: OpenTable,
                      click: Click) -> None:
        """Any choice that is not a card: a button ``act:HAND:KIND:JSON``, or a menu
        ``act:HAND`` whose value is ``KIND:JSON``."""
        await self._act(interaction, table, click.get("action", Action), click.get("hand", int),
                        None)

    async def _on_together(self, interaction: discord.Interaction[Any], table: OpenTable,
                           click: Click) -> None:
        """Cards chosen together in a menu (burying)."""
        await self._act(interaction, table, click.get("action", Action), click.get("hand", int),
                        None)

    async def _on_servant(self, interaction: discord.Interaction[Any], table: OpenTable,
                          click: Click) -> None:
        await self._act(interaction, table, Action("servant", click.get("seat", int)),
                        click.get("hand", int), None)

    # hints and reviews

    async def _on_hint(self, interaction: discord.Interaction[Any], table: OpenTable,
                       click: Click) -> None:
        """"What would you play?": Normal's choice for the asker's position and each legal
        action's chances, from the asker's own view, computed off the event loop; only the
        asker sees it."""
        session = table.session
        seat = session.hint_seat(interaction.user.id, click.get("hand", int),
                                 click.get("trick", int))
        assert session.hand is not None
        view = seat_view(session.hand, seat)
        await interaction.response.defer(ephemeral=True, thinking=True)
        hint = await thinking.hint("normal", seat, view)
        await interaction.edit_original_response(content=render.hint_text(session, view, hint))

    async def _on_review(self, interaction: discord.Interaction[Any], table: OpenTable,
                         click: Click) -> None:
        """A finished hand, trick by trick with every hand open, and Hard's view of each
        decision the asker made: from a result (a new message only the asker sees) or its
        own ◀ ▶ buttons (that message, redrawn)."""
        number = click.get("hand", int)
        step = click.get("step", int) if click.has("step") else 0
        session = table.session
        row, seat = await session.finished_hand(interaction.user.id, number)
        if click.has("step"):
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        decisions = await thinking.stored_review(session.store, row.id, row.record(), seat)
        content, components = render.review_page(session, row.record(), number, seat,
                                                  decisions, step)
        files = await present.review_picture(session, row.record(), step,
                                             self.bot.config(session.guild_id))
        await interaction.edit_original_response(content=content, view=components,
                                                 attachments=files)

    async def _act(self, interaction: discord.Interaction[Any], table: OpenTable,
                   action: Action, number: int, trick: int | None) -> None:
        session = table.session
        outcome = await session.act(interaction.user.id, action, hand_number=number,
                                    trick=trick)
        try:
            seat = session.require_seat(interaction.user.id)
            message = await table.discord.hand_message(seat)
            await interaction.response.edit_message(content=message.content,
                                                    view=message.view, attachments=message.files)
            table.discord.keep_hand_view(interaction)
        finally:
            # The move is stored: every surface shows it and the table goes on, even when
            # the answer could not be given (too late).
            await table.runner.after(outcome)


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(Tables(bot))
