"""Tables and play: ``/table new``, ``/table show``, and every click on a lobby, a table, a
result or a hand view.

The cog holds no table state: the bot's registry (``bot.tables``) has the open tables. It
parses a click (``bot.protocol``), checks that it belongs to the guild and channel of its
table and the message it is on, and makes one call of the table service (``bot.service``:
it decides who may do what under the table's lock, stores, lets the cog answer, tells every
surface and wakes the table) with its answer (``reply``): the lobby, table or hand view
redrawn on the message the button is on, through the table's Discord surface, which keeps
the interaction's token. A refusal is a short ephemeral message in the user's language
(``bot.clicks``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import answers, options, present
from bot.choices import GAME_CHOICES, TOP_TRUMP_CHOICES, WATCH_CHOICES
from bot.community import invitations
from bot.courier import Via
from bot.crossplay import invitees
from bot.errors import answer as reply_error
from bot.lobby import (
    COMPUTER_LEVELS,
    DEFAULT_TURN_SECONDS,
    DEFAULT_WINDOW_SECONDS,
    SETTING_RANGES,
    Actor,
    SessionError,
)
from bot.open_tables import OpenTable
from bot.protocol import Click, Op
from bot.service import Outcome, Reply
from bot.texts import refusal, show_faces, t
from bot.translator import ls
from bot.validate import came_from
from bot.voice.markdown import isolated
from bot.watch import DEFAULT_WATCH
from engine import Action

if TYPE_CHECKING:
    from bot.client import FilicauBot

log = logging.getLogger(__name__)

#: Operations of the messages a table posts (results, reviews), which may sit in its thread.
POSTED_OPS = frozenset({Op.NEXT, Op.REVIEW})
TURN_RANGE, WINDOW_RANGE = SETTING_RANGES["turn_seconds"], SETTING_RANGES["window_seconds"]


def actor(interaction: discord.Interaction[Any]) -> Actor:
    """The clicking user, and whether they manage the server the click came from."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return Actor(interaction.user.id, bool(perms and perms.manage_guild), str(interaction.id))


Handler = Callable[[discord.Interaction[Any], OpenTable, Click], Awaitable[None]]


class Tables(commands.Cog, name="Tables"):
    table = app_commands.Group(name=ls("cmdname.table"), description=ls("cmd.table"),
                               guild_only=True)

    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        self.service = bot.service
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
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        # Only a game that has an early end (its lobby offers it) is given the choice.
        table_options: dict[str, Any] = (
            {"early_end": early_end} if options.offers(game.value, "early_end") else {})
        if top_trumps is not None:
            table_options["top_trumps"] = top_trumps.value
        # Only this server's members who see the channel: refused before anything opens.
        away = invitees.strangers([u for u in (invite, invite_2, invite_3) if u is not None
                                   and not u.bot and u.id != interaction.user.id],
                                  interaction)
        if away:
            await reply_error(interaction, t("invite.strangers", users=", ".join(
                discord.utils.escape_markdown(isolated(u.display_name)) for u in away)))
            return
        try:
            if guild_id is None or channel_id is None:
                raise SessionError("err.guild_only")
            table = await self.service.open(
                guild_id=guild_id, channel_id=channel_id, game=game.value,
                options=table_options, opener_id=interaction.user.id, settings={
                    "turn_seconds": turn_seconds, "window_seconds": window_seconds,
                    "pings": pings, "hints": hints, "rated": rated, "thread": thread,
                    "watch": watch.value if watch is not None else DEFAULT_WATCH,
                    "confirm": confirm},
                post=lambda table: table.discord.open_in(interaction))
        except SessionError as e:
            await reply_error(interaction, refusal(e.key, e.params))
            return
        # Seats held for the invited, who are told (bot.community.invitations).
        await self.bot.community.invitations.invite(
            table, interaction, invitations.guests([invite, invite_2, invite_3],
                                                   interaction.user.id,
                                                   table.session.rules.players))

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
        found = self.tables.get(click.table_id)
        if found is None:
            # A venue of a table across servers that another shard process drives: the
            # click is checked against the venue, deferred and carried there
            # (bot.crossplay.relay), which answers it by its webhook.
            if await self.bot.relay.hand_over(interaction, click):
                return
            raise SessionError(await self._not_open(interaction, click.table_id))
        self.bot.relay.forget(interaction.id)
        # The table as the click's server shows it: a table across servers is shown in
        # each of its players' servers, with that server's own messages (bot.crossplay).
        table = self.bot.crossplay.shown_at(found, interaction.guild_id)
        if table is None:
            raise SessionError("err.elsewhere")
        session = table.discord.session
        # Its answers name the cards as the table shows them, refusals included (a Doppelkopf
        # table's Queen of clubs is no Ober of acorns in a hint, a review or "follow suit").
        show_faces(present.faces_shown(session, table.discord.config))
        # A click belongs to its table's server and channel (a result or a review in the
        # table's own thread: there); anywhere else it is refused (a button copied into
        # another server, a DM).
        in_thread = (session.thread_id is not None
                     and interaction.channel_id == session.thread_id)
        if not (interaction.channel_id == session.channel_id
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

    @staticmethod
    def _redrawn(interaction: discord.Interaction[Any], table: OpenTable) -> Reply:
        """Answer a change of seats on the message it was made on: the lobby, or the table
        between hands."""
        return lambda _: table.discord.answer_with_table(interaction)

    async def _on_join(self, interaction: discord.Interaction[Any], table: OpenTable,
                       click: Click) -> None:
        await self.service.join(table, actor(interaction), click.get("team", int),
                                interaction.user.display_name, via=Via.DISCORD,
                                reply=self._redrawn(interaction, table))

    async def _on_sit(self, interaction: discord.Interaction[Any], table: OpenTable,
                      click: Click) -> None:
        await self.service.join(table, actor(interaction), None, interaction.user.display_name,
                                via=Via.DISCORD, reply=self._redrawn(interaction, table))

    async def _on_leave(self, interaction: discord.Interaction[Any], table: OpenTable,
                        click: Click) -> None:
        """Leave: at once in the lobby and between hands; during a hand, after a yes to
        "Leave the table?" (``leave:HAND:yes|no``, on the question only its asker sees)."""
        if click.has("answer") and click.get("answer", str) == "no":
            await interaction.response.edit_message(content=t("hand.stay"), view=None)
            return

        async def reply(outcome: Outcome) -> None:
            if outcome.ask is not None:
                await answers.ask_to_leave(interaction, table.session, outcome.ask)
            elif outcome.say is not None:
                await answers.say(interaction, outcome.say)
            else:
                await table.discord.answer_with_table(interaction)

        sure = click.has("answer")
        await self.service.leave(table, actor(interaction), sure=sure,
                                 hand=click.get("hand", int) if sure else None,
                                 via=Via.DISCORD, reply=reply)

    async def _on_cpu(self, interaction: discord.Interaction[Any], table: OpenTable,
                      click: Click) -> None:
        # The menu's choice is the level; an old button carries it, or adds a Normal one.
        level = click.get("level", str) if click.has("level") else "normal"
        if level not in COMPUTER_LEVELS:
            raise SessionError("err.bad_level", level=level[:40])
        await self.service.add_computer(table, actor(interaction), level, via=Via.DISCORD,
                                        reply=self._redrawn(interaction, table))

    async def _on_uncpu(self, interaction: discord.Interaction[Any], table: OpenTable,
                        click: Click) -> None:
        await self.service.remove_computer(table, actor(interaction), via=Via.DISCORD,
                                           reply=self._redrawn(interaction, table))

    async def _on_option(self, interaction: discord.Interaction[Any], table: OpenTable,
                         click: Click) -> None:
        name, value = click.get("option", tuple)
        await self.service.set_option(table, actor(interaction), name, value, via=Via.DISCORD,
                                      reply=self._redrawn(interaction, table))

    async def _on_cancel(self, interaction: discord.Interaction[Any], table: OpenTable,
                         click: Click) -> None:
        await self.service.cancel(table, actor(interaction), reply=lambda outcome: (
            table.discord.answer_closed(interaction, "lobby.cancelled")))

    async def _on_start(self, interaction: discord.Interaction[Any], table: OpenTable,
                        click: Click) -> None:
        await self.service.start(table, actor(interaction), via=Via.DISCORD,
                                 reply=self._redrawn(interaction, table))

    # the table

    async def _on_hand(self, interaction: discord.Interaction[Any], table: OpenTable,
                       click: Click) -> None:
        """My hand: the player's hand view, and their seat theirs again if the computer
        was playing it."""
        async def reply(outcome: Outcome) -> None:
            assert outcome.seat is not None
            await table.discord.views.show(interaction, outcome.seat)

        await self.service.resume(table, actor(interaction), via=Via.DISCORD, reply=reply)

    async def _on_activity(self, interaction: discord.Interaction[Any], table: OpenTable,
                           click: Click) -> None:
        """*Open the table*: Discord opens the bot's Activity in this channel, which finds
        this table by the channel (``bot.web.activity``)."""
        if not table.discord.activity:
            raise SessionError("activity.off")  # an old message's button
        await interaction.response.launch_activity()

    async def _on_last(self, interaction: discord.Interaction[Any], table: OpenTable,
                       click: Click) -> None:
        await answers.last_trick(interaction, table.session)

    async def _on_rules(self, interaction: discord.Interaction[Any], table: OpenTable,
                        click: Click) -> None:
        await answers.table_rules(interaction, table.session)

    async def _on_next(self, interaction: discord.Interaction[Any], table: OpenTable,
                       click: Click) -> None:
        session = table.discord.session  # where the click's server shows the table

        async def reply(_: Outcome) -> None:
            on = interaction.message
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

        await self.service.next_hand(table, actor(interaction), click.get("hand", int),
                                     via=Via.DISCORD, reply=reply)

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

    async def _act(self, interaction: discord.Interaction[Any], table: OpenTable,
                   action: Action, number: int, trick: int | None) -> None:
        """A move from the player's hand view, answered with that view as it is now."""
        async def reply(outcome: Outcome) -> None:
            assert outcome.seat is not None
            await table.discord.views.answer(interaction, outcome.seat)

        await self.service.act(table, actor(interaction), action, hand=number, trick=trick,
                               via=Via.DISCORD, reply=reply)

    # hints and reviews

    async def _on_hint(self, interaction: discord.Interaction[Any], table: OpenTable,
                       click: Click) -> None:
        """"What would you play?": Normal's choice for the asker's position and each legal
        action's chances, from the asker's own view, computed off the event loop; only the
        asker sees it."""
        advice = await self.service.hint(
            table, actor(interaction), hand=click.get("hand", int), trick=click.get("trick", int),
            meanwhile=lambda: interaction.response.defer(ephemeral=True, thinking=True))
        await answers.hint(interaction, table.session, advice)

    async def _on_review(self, interaction: discord.Interaction[Any], table: OpenTable,
                         click: Click) -> None:
        """A finished hand, trick by trick with every hand open, and Hard's view of each
        decision the asker made: from a result (a new message only the asker sees) or its
        own ◀ ▶ buttons (that message, redrawn)."""
        number = click.get("hand", int)
        step = click.get("step", int) if click.has("step") else 0

        async def meanwhile() -> None:
            if click.has("step"):
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)

        review = await self.service.review(table, actor(interaction), number,
                                           meanwhile=meanwhile)
        await answers.review(interaction, table.session, review, number, step,
                             self.bot.config(table.session.guild_id))


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(Tables(bot))
