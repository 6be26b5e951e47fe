"""Tables and play: ``/table new``, and every click on a lobby, a table or a hand view.

The cog keeps a map of the open tables' runners (``bot.runner.TableRunner``) and turns
interactions into calls: it parses a click (``bot.protocol``), checks that it belongs to the
guild and channel of its table, asks the session (which decides who may do what, under the
table's lock) and answers at once — the lobby and hand views by editing the message the
button is on, a refusal with a short ephemeral message in the user's language. The runner
keeps the table moving and its public message current.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors, options, render, thinking
from bot.protocol import Click, Op, parse
from bot.runner import TableRunner
from bot.seats import user_member
from bot.session import (
    COMPUTER_LEVELS,
    DEFAULT_TURN_SECONDS,
    DEFAULT_WINDOW_SECONDS,
    SETTING_RANGES,
    Actor,
    SessionError,
    TableSession,
    check_settings,
)
from bot.store import StoreError
from bot.texts import EN, refusal, t
from bot.translator import ls
from engine import Action, RecordError, action_from_json, make_rules, seat_view
from engine.cards import CardError, card
from engine.errors import OptionsError
from engine.rules import GAMES

if TYPE_CHECKING:
    from bot.client import FilicauBot

log = logging.getLogger(__name__)

#: Table-message edits a second, all tables together (Discord: 50 requests a second a bot).
TABLE_EDITS_PER_SECOND = 30

GAME_CHOICES = [app_commands.Choice(
    name=ls(f"game.{key}") if f"game.{key}" in EN else app_commands.locale_str(cls.title),
    value=key) for key, cls in GAMES.items()]
TOP_TRUMP_CHOICES = [app_commands.Choice(name=ls(f"value.{v}"), value=v)
                     for v in ("standard", "hearts_seven", "leaves_low")]
TURN_RANGE, WINDOW_RANGE = SETTING_RANGES["turn_seconds"], SETTING_RANGES["window_seconds"]


def actor(interaction: discord.Interaction[Any]) -> Actor:
    """The clicking user, and whether they manage the server the click came from."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return Actor(interaction.user.id, bool(perms and perms.manage_guild))


async def reply_error(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


T = TypeVar("T")


def parsed(read: Callable[[], T]) -> T:
    """Read a custom_id's arguments or a menu's value: a forged or damaged one is refused as
    such (and nothing changes); errors anywhere else are the bot's own and are logged."""
    try:
        return read()
    except (ValueError, IndexError, KeyError, TypeError, CardError, RecordError):
        raise SessionError("err.bad_button") from None


Handler = Callable[[discord.Interaction[Any], TableRunner, Click, list[str]], Awaitable[None]]


class Tables(commands.Cog, name="Tables"):
    table = app_commands.Group(name=ls("cmdname.table"), description=ls("cmd.table"),
                               guild_only=True)

    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot
        self.store = bot.store
        self.settings = bot.settings
        self.runners: dict[int, TableRunner] = {}
        self.by_channel: dict[int, int] = {}
        #: Set once the bot is stopping: no new refresh or driver starts (they would outlive
        #: the HTTP session).
        self.closing = False
        self._playing_count = 0
        self._resuming: asyncio.Task[None] | None = None
        self._playing_at = -1e9
        self._handlers: dict[Op, Handler] = {
            Op.JOIN: self._on_join, Op.SIT: self._on_sit, Op.LEAVE: self._on_leave,
            Op.CPU: self._on_cpu, Op.UNCPU: self._on_uncpu, Op.START: self._on_start,
            Op.CANCEL: self._on_cancel, Op.OPTION: self._on_option, Op.HAND: self._on_hand,
            Op.LAST: self._on_last, Op.RULES: self._on_rules, Op.NEXT: self._on_next,
            Op.CARD: self._on_card, Op.ACT: self._on_act, Op.TOGETHER: self._on_together,
            Op.SERVANT: self._on_servant, Op.HINT: self._on_hint, Op.REVIEW: self._on_review,
        }

    # -- the open tables -----------------------------------------------------------------------

    @property
    def sessions(self) -> dict[int, TableSession]:
        return {tid: r.session for tid, r in self.runners.items()}

    def runner(self, table_id: int) -> TableRunner | None:
        return self.runners.get(table_id)

    def session_in(self, channel_id: int | None) -> TableSession | None:
        runner = self.runners.get(self.by_channel.get(channel_id or 0, 0))
        return None if runner is None else runner.session

    def _track(self, session: TableSession) -> TableRunner:
        runner = TableRunner(session, self.bot, self.edit_interval)
        self.runners[session.id] = runner
        self.by_channel[session.channel_id] = session.id
        return runner

    def forget(self, runner: TableRunner) -> None:
        """The table is closed: drop its runner and everything it holds."""
        if self.runners.get(runner.id) is runner:
            del self.runners[runner.id]
        if self.by_channel.get(runner.session.channel_id) == runner.id:
            del self.by_channel[runner.session.channel_id]
        runner.stop()

    def request_refresh(self, session: TableSession) -> None:
        runner = self.runners.get(session.id)
        if runner is not None:
            runner.request_refresh()

    def edit_interval(self) -> float:
        """Seconds between two edits of one table message. Discord allows a bot 50 requests
        a second in all; table edits get at most TABLE_EDITS_PER_SECOND of them, shared by
        the tables in play, so the interval grows with the number of tables."""
        share = TABLE_EDITS_PER_SECOND * self.bot.rate_share  # shard processes share the token
        return max(self.settings.edit_interval, self._playing / share)

    @property
    def _playing(self) -> int:
        # Counted once a second at most: every refresh asks, and there may be hundreds of
        # tables.
        now = time.monotonic()
        if now - self._playing_at > 1.0:
            self._playing_count = sum(1 for r in self.runners.values()
                                      if r.session.state == "playing")
            self._playing_at = now
        return self._playing_count

    # -- start-up and shut-down --------------------------------------------------------------

    async def cog_load(self) -> None:
        restored = []
        for row in await self.store.owned_tables():
            try:
                session = await TableSession.restore(row, self.store)
            except Exception:
                log.exception("table %s could not be restored; closing it", row.id)
                await self.store.update_table(row.id, state="closed")
                continue
            restored.append(self._track(session))
        self._resuming = self.bot.loop.create_task(self._resume(restored))

    async def _resume(self, restored: list[TableRunner]) -> None:
        """Once connected, bring back the tables restored from the store (only those: tables
        opened since have their own timers and drivers already)."""
        await self.bot.wait_until_ready()
        for runner in restored:
            if runner.closed:
                continue
            if runner.session.state == "lobby":
                runner.start_lobby_timer()
            else:
                runner.request_refresh()
                runner.kick()

    async def cog_unload(self) -> None:
        self.closing = True
        cancelled = [task for runner in self.runners.values() for task in runner.stop()]
        for task in cancelled:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # -- /table new ------------------------------------------------------------------------

    @table.command(name=ls("cmdname.table_new"), description=ls("cmd.table_new"))
    @app_commands.describe(game=ls("cmd.game"), early_end=ls("cmd.early_end"),
                           top_trumps=ls("cmd.top_trumps"), turn_seconds=ls("cmd.turn_seconds"),
                           window_seconds=ls("cmd.window_seconds"), pings=ls("cmd.pings"),
                           hints=ls("cmd.hints"), rated=ls("cmd.rated"),
                           thread=ls("cmd.thread"))
    @app_commands.rename(game=ls("optname.game"), early_end=ls("optname.early_end"),
                         top_trumps=ls("optname.top_trumps"),
                         turn_seconds=ls("optname.turn_seconds"),
                         window_seconds=ls("optname.window_seconds"),
                         pings=ls("optname.pings"), hints=ls("optname.hints"),
                         rated=ls("optname.rated"), thread=ls("optname.thread"))
    @app_commands.choices(game=GAME_CHOICES, top_trumps=TOP_TRUMP_CHOICES)
    async def table_new(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str],
        early_end: bool = True, top_trumps: app_commands.Choice[str] | None = None,
        turn_seconds: app_commands.Range[int, TURN_RANGE[0], TURN_RANGE[1]]
        = DEFAULT_TURN_SECONDS,
        window_seconds: app_commands.Range[int, WINDOW_RANGE[0], WINDOW_RANGE[1]]
        = DEFAULT_WINDOW_SECONDS,
        pings: bool = True, hints: bool = True, rated: bool = True, thread: bool = False,
    ) -> None:
        try:
            await self._open(interaction, game.value, early_end, top_trumps, {
                "turn_seconds": turn_seconds, "window_seconds": window_seconds,
                "pings": pings, "hints": hints, "rated": rated, "thread": thread})
        except SessionError as e:
            await reply_error(interaction, refusal(e.key, e.params))

    async def _open(self, interaction: discord.Interaction[Any], game: str, early_end: bool,
                    top_trumps: app_commands.Choice[str] | None,
                    settings: dict[str, Any]) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise SessionError("err.guild_only")
        if self.session_in(interaction.channel_id) is not None:
            raise SessionError("err.channel_busy")
        if game not in GAMES:
            raise SessionError("err.bad_game")
        table_options: dict[str, Any] = {"early_end": early_end}
        if top_trumps is not None:
            table_options["top_trumps"] = top_trumps.value
        try:
            rules = make_rules(game, table_options)
        except OptionsError as e:
            raise SessionError("err.bad_options", problem=options.describe(e)) from None
        checked = check_settings(settings)
        try:
            row = await self.store.create_table(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id, game=game,
                options=table_options, opener_id=interaction.user.id,
                seats=[None] * rules.players, settings=checked)
        except StoreError:
            raise SessionError("err.channel_busy") from None
        session = TableSession(row, self.store)
        runner = self._track(session)
        try:
            with runner.public():
                embed, view = render.lobby_embed(session), render.lobby_view(session)
            sent = await interaction.response.send_message(embed=embed, view=view)
            # Discord answers the callback with the message it created; asking for it again
            # is only for a callback answered without it.
            message_id = sent.message_id
            if message_id is None:
                message_id = (await interaction.original_response()).id
        except BaseException:
            # A table exists only once its message does.
            await runner.close()
            self.forget(runner)
            raise
        session.message_id = message_id
        runner.keep_table_token(interaction)
        await self.store.update_table(session.id, message_id=message_id)
        if checked.get("thread"):
            await runner.open_thread()
        runner.start_lobby_timer()

    @table.command(name=ls("cmdname.table_show"), description=ls("cmd.table_show"))
    async def table_show(self, interaction: discord.Interaction[Any]) -> None:
        """Post this channel's table again at the bottom (a busy channel scrolled it away)."""
        session = self.session_in(interaction.channel_id)
        runner = None if session is None else self.runners.get(session.id)
        if runner is None or interaction.guild_id != runner.session.guild_id:
            await reply_error(interaction, t("err.no_table"))
            return
        await runner.show_again(interaction)

    # -- every click -----------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every click on a button or a menu comes here, and each gets exactly one answer."""
        if interaction.type is not discord.InteractionType.component:
            return
        await self.bot.enter(interaction)
        data: Any = interaction.data if isinstance(interaction.data, dict) else {}
        click = parse(str(data.get("custom_id", ""))) if errors.well_formed(interaction) \
            else None
        if click is not None and click.op is Op.LEADERBOARD:
            return  # a leaderboard's pages belong to no table: cogs/ratings.py answers them
        raw_values = data.get("values")
        values = [str(v) for v in raw_values] if isinstance(raw_values, list) else []
        await self.handle(interaction, click, values)

    async def handle(self, interaction: discord.Interaction[Any], click: Click | None,
                     values: list[str]) -> None:
        """Answer one click: refusals become one short ephemeral answer in the user's
        language; a failure of the bot's own is logged and answered with the generic text."""
        table_id = click.table_id if click else None
        try:
            if click is None:
                raise SessionError("err.bad_button")
            runner = self.runners.get(click.table_id)
            if runner is None:
                raise SessionError("err.gone")
            session = runner.session
            # A click belongs to its table's server and channel; anywhere else it is refused
            # (a button copied into another server, a DM).
            if (interaction.guild_id != session.guild_id
                    or interaction.channel_id != session.channel_id):
                raise SessionError("err.elsewhere")
            await self._handlers[click.op](interaction, runner, click, values)
        except SessionError as e:
            await reply_error(interaction, refusal(e.key, e.params) if e.key in EN
                              else t("err.not_allowed"))
        except Exception as e:
            if self.closing:
                # The bot is stopping under this click (its HTTP session closes): what was
                # stored stays stored, and the table comes back at the next start.
                log.info("table %s: click %s interrupted by the shutdown", table_id,
                         click and click.op)
                return
            if errors.too_late(e):
                log.warning("table %s: click %s answered too late (Discord's 3 s passed)",
                            table_id, click and click.op)
                return
            # E.g. the store failed: the session changed nothing, so the click can be retried.
            log.exception("table %s: %s %s failed", table_id,
                          "button" if click and click.kind == "fc" else "select",
                          click and click.op)
            await reply_error(interaction, t("err.internal"))

    # the lobby

    async def _seats_update(self, interaction: discord.Interaction[Any],
                            runner: TableRunner) -> None:
        """Answer a change of seats on the message it was made on: the lobby, or the table
        between hands."""
        if runner.session.state == "lobby":
            with runner.public():
                embed = render.lobby_embed(runner.session)
                view = render.lobby_view(runner.session)
            await interaction.response.edit_message(embed=embed, view=view)
            runner.keep_table_token(interaction)
        else:
            await runner.show_table_in_reply(interaction)

    async def _on_join(self, interaction: discord.Interaction[Any], runner: TableRunner,
                       click: Click, values: list[str]) -> None:
        team = parsed(lambda: int(click.args[0]))
        await runner.session.join(interaction.user.id, team, interaction.user.display_name)
        await self._seats_update(interaction, runner)

    async def _on_sit(self, interaction: discord.Interaction[Any], runner: TableRunner,
                      click: Click, values: list[str]) -> None:
        await runner.session.join(interaction.user.id, None, interaction.user.display_name)
        await self._seats_update(interaction, runner)

    async def _on_leave(self, interaction: discord.Interaction[Any], runner: TableRunner,
                        click: Click, values: list[str]) -> None:
        session = runner.session
        seat = session.seat_of(interaction.user.id)
        if await session.leave(interaction.user.id):
            # During a hand: the computer plays the seat from now on.
            assert seat is not None
            await interaction.response.send_message(t("hand.left"), ephemeral=True)
            await runner.refresh_hand_views([seat], only=[seat])
            with runner.public():
                text = t("turn.left", user=render.seat_mention(session, seat))
            await runner.say(text)
            runner.request_refresh()
            runner.kick()
            return
        await self._seats_update(interaction, runner)

    async def _on_cpu(self, interaction: discord.Interaction[Any], runner: TableRunner,
                      click: Click, values: list[str]) -> None:
        # The menu's choice is the level; an old button carries it, or adds a Normal one.
        if click.kind == "fs":
            level = parsed(lambda: values[0])
        else:
            level = click.args[0] if click.args else "normal"
        if level not in COMPUTER_LEVELS:
            raise SessionError("err.bad_level", level=level[:40])
        await runner.session.add_computer(level=level, by=actor(interaction))
        await self._seats_update(interaction, runner)

    async def _on_uncpu(self, interaction: discord.Interaction[Any], runner: TableRunner,
                        click: Click, values: list[str]) -> None:
        await runner.session.remove_computer(by=actor(interaction))
        await self._seats_update(interaction, runner)

    async def _on_option(self, interaction: discord.Interaction[Any], runner: TableRunner,
                         click: Click, values: list[str]) -> None:
        name, value = parsed(lambda: options.decode(values[0]))
        by = actor(interaction)
        await runner.session.set_option(by.user_id, name, value, is_admin=by.manager)
        await self._seats_update(interaction, runner)

    async def _on_cancel(self, interaction: discord.Interaction[Any], runner: TableRunner,
                         click: Click, values: list[str]) -> None:
        await runner.session.cancel(actor(interaction))
        self.forget(runner)
        await runner.close_thread()
        with runner.public():
            text = t("lobby.cancelled")
        await interaction.response.edit_message(content=text, embed=None, view=None)

    async def _on_start(self, interaction: discord.Interaction[Any], runner: TableRunner,
                        click: Click, values: list[str]) -> None:
        by = actor(interaction)
        await runner.session.start(by.user_id, is_admin=by.manager)
        runner.lobby_closed()
        await runner.show_table_in_reply(interaction)
        runner.kick()

    # the table

    async def _on_hand(self, interaction: discord.Interaction[Any], runner: TableRunner,
                       click: Click, values: list[str]) -> None:
        session = runner.session
        seat = session.require_seat(interaction.user.id)
        if session.hand is None:
            raise SessionError("err.no_hand")
        was_auto = seat in session.autoplay
        session.resume(interaction.user.id)
        hand = session.hand
        moved = len(hand.actions)
        content, components, files = await runner.hand_message(seat_view(hand, seat))
        await interaction.response.send_message(
            content, view=components, ephemeral=True,
            files=files if files else discord.utils.MISSING)
        runner.keep_hand_view(interaction)
        if session.hand is not hand or len(hand.actions) != moved:
            # The table moved while the view was on its way (a computer's move): its
            # refresh did not know this view yet, so draw it again now.
            await runner.refresh_hand_views([seat], only=[seat])
        if was_auto:
            runner.kick()

    async def _on_last(self, interaction: discord.Interaction[Any], runner: TableRunner,
                       click: Click, values: list[str]) -> None:
        hand = runner.session.hand
        if hand is None or not hand.tricks:
            text = t("table.no_last_trick")
        else:
            text = render.last_trick_text(runner.session, hand.tricks[-1])
        await interaction.response.send_message(text, ephemeral=True)

    async def _on_rules(self, interaction: discord.Interaction[Any], runner: TableRunner,
                        click: Click, values: list[str]) -> None:
        s = runner.session
        await interaction.response.send_message(embed=render.rules_embed(
            s.game, s.rules.title, s.rules.rulings, s.rules.options.model_dump()),
            ephemeral=True)

    async def _on_next(self, interaction: discord.Interaction[Any], runner: TableRunner,
                       click: Click, values: list[str]) -> None:
        number = parsed(lambda: int(click.args[0]))
        await runner.session.next_hand(actor(interaction), number)
        on = interaction.message
        if on is not None and on.id != runner.session.message_id:
            # Pressed under the result: the new hand's table is posted there, at the bottom
            # of the channel, and play goes on in it.
            await runner.show_again(interaction)
        else:
            await runner.show_table_in_reply(interaction)
        await runner.dealt()
        runner.kick()

    # playing

    async def _on_card(self, interaction: discord.Interaction[Any], runner: TableRunner,
                       click: Click, values: list[str]) -> None:
        number, trick, action = parsed(lambda: (
            int(click.args[0]), int(click.args[1]), Action("card", card(click.args[2]))))
        await self._act(interaction, runner, action, number, trick)

    async def _on_act(self, interaction: discord.Interaction[Any], runner: TableRunner,
                      click: Click, values: list[str]) -> None:
        """Any choice that is not a card: a button ``act:HAND:KIND:JSON``, or a menu
        ``act:HAND`` whose value is ``KIND:JSON``."""
        def read() -> tuple[int, Action]:
            if click.kind == "fs":
                kind, _, raw = values[0].partition(":")
            else:
                kind, raw = click.args[1], ":".join(click.args[2:])
            return int(click.args[0]), action_from_json({kind: json.loads(raw)})
        number, action = parsed(read)
        await self._act(interaction, runner, action, number, None)

    async def _on_together(self, interaction: discord.Interaction[Any], runner: TableRunner,
                           click: Click, values: list[str]) -> None:
        """Cards chosen together in a menu (burying)."""
        if not values:
            raise SessionError("err.bad_button")
        number, action = parsed(lambda: (
            int(click.args[0]), action_from_json({click.args[1]: values})))
        await self._act(interaction, runner, action, number, None)

    async def _on_servant(self, interaction: discord.Interaction[Any], runner: TableRunner,
                          click: Click, values: list[str]) -> None:
        number, seat = parsed(lambda: (int(click.args[0]), int(click.args[1])))
        await self._act(interaction, runner, Action("servant", seat), number, None)

    # hints and reviews

    async def _on_hint(self, interaction: discord.Interaction[Any], runner: TableRunner,
                       click: Click, values: list[str]) -> None:
        """"What would you play?": Normal's choice for the asker's position and each legal
        action's chances, from the asker's own view, computed off the event loop; only the
        asker sees it."""
        number, trick = parsed(lambda: (int(click.args[0]), int(click.args[1])))
        session = runner.session
        seat = session.hint_seat(interaction.user.id, number, trick)
        assert session.hand is not None
        view = seat_view(session.hand, seat)
        await interaction.response.defer(ephemeral=True, thinking=True)
        hint = await thinking.hint("normal", seat, view)
        await interaction.edit_original_response(content=render.hint_text(session, view, hint))

    async def _on_review(self, interaction: discord.Interaction[Any], runner: TableRunner,
                         click: Click, values: list[str]) -> None:
        """A finished hand, trick by trick with every hand open, and Hard's view of each
        decision the asker made: from a result (a new message only the asker sees) or its
        own ◀ ▶ buttons (that message, redrawn)."""
        number = parsed(lambda: int(click.args[0]))
        step = parsed(lambda: int(click.args[1])) if len(click.args) > 1 else 0
        session = runner.session
        row, seat = await session.finished_hand(interaction.user.id, number)
        if len(click.args) > 1:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        decisions = await thinking.stored_review(session.store, row.id, row.record(), seat)
        content, components = render.review_page(session, row.record(), number, seat,
                                                  decisions, step)
        files = await runner.review_picture(row.record(), step)
        await interaction.edit_original_response(content=content, view=components,
                                                 attachments=files)

    async def _act(self, interaction: discord.Interaction[Any], runner: TableRunner,
                   action: Action, number: int, trick: int | None) -> None:
        session = runner.session
        outcome = await session.act(interaction.user.id, action, hand_number=number,
                                    trick=trick)
        seat = session.require_seat(interaction.user.id)
        assert session.hand is not None
        content, components, files = await runner.hand_message(seat_view(session.hand, seat))
        await interaction.response.edit_message(content=content, view=components,
                                                attachments=files)
        runner.keep_hand_view(interaction)
        await runner.after(outcome)

    # -- admin and history helpers (used by the other cogs) ----------------------------------

    async def end_table(self, session: TableSession) -> None:
        runner = self.runners.get(session.id)
        if runner is None:
            await session.close()
            return
        await runner.close()
        self.forget(runner)
        with runner.public():
            await runner.edit_table_message(content=t("ok.ended"), embed=None, view=None)
        await runner.close_thread()

    async def history(self, interaction: discord.Interaction[Any], hand: int | None) -> None:
        session = self.session_in(interaction.channel_id)
        if session is None:
            await reply_error(interaction, t("err.no_table"))
            return
        if hand is not None:
            rows = await self.store.hands(session.id,
                                          limit=max(hand, session.hand_number) + 1)
            match = [r for r in rows if r.number == hand]
            if not match:
                await reply_error(interaction, t("err.no_record"))
                return
            if match[0].result is None:
                # The record holds the pack: everybody's cards.
                await reply_error(interaction, t("err.hand_in_progress"))
                return
            data = json.dumps(match[0].record(), ensure_ascii=False, indent=1).encode()
            # Who sat in the hand may step through it (a review of their own play).
            sat = user_member(interaction.user.id) in (match[0].header.get("members") or [])
            await interaction.response.send_message(
                file=discord.File(io.BytesIO(data), filename=f"table{session.id}-hand{hand}.json"),
                view=render.result_view(session, hand) if sat else discord.utils.MISSING,
                ephemeral=True)
            return
        rows = await self.store.hands(session.id, limit=10)
        if not rows:
            await interaction.response.send_message(t("history.none"), ephemeral=True)
            return
        lines = []
        for r in rows:
            if r.result is None:
                summary = t("history.unfinished")
            else:
                pts, event = r.result["points"], str(r.result["event"])
                summary = t("history.summary", a=pts[0], b=pts[1],
                            event=t(f"outcome.{event}") if f"outcome.{event}" in EN
                            else event.replace("_", " "))
            lines.append(t("history.line", number=r.number, summary=summary))
        await interaction.response.send_message(
            embed=discord.Embed(title=t("history.title"), description="\n".join(lines)),
            ephemeral=True)


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(Tables(bot))
