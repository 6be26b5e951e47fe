"""Tables and play: ``/table new``, the lobby, the table message, hands, timers, computers.

Each click is answered at once (Discord allows 3 s): the lobby and hand views by editing the
message the button is on, errors with a short ephemeral message. The public table message is
edited separately and sparingly: changes are folded into at most one edit per
``edit_interval`` seconds per table, computer moves included.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot import options, pictures, render
from bot.session import (
    COMPUTER_LEVELS,
    DEFAULT_WINDOW_SECONDS,
    Outcome,
    SessionError,
    TableSession,
    is_computer,
)
from bot.store import StoreError
from bot.texts import EN, language_of, speaking, t
from bot.translator import ls
from engine import (
    Action,
    PublicView,
    RecordError,
    SeatView,
    action_from_json,
    make_rules,
    public_view,
    seat_view,
)
from engine.cards import CardError, card
from engine.rules import GAMES

if TYPE_CHECKING:
    from bot.client import FilicauBot

log = logging.getLogger(__name__)

LOBBY_SECONDS = 15 * 60
#: Table-message edits a second, all tables together (Discord: 50 requests a second a bot).
TABLE_EDITS_PER_SECOND = 30
#: A failed table edit is tried again after this pause (and the usual edit interval).
EDIT_RETRY_SECONDS = 2.0
#: An interaction token lives 15 minutes; stop using a hand view's a little before.
TOKEN_SECONDS = 14 * 60

GAME_CHOICES = [app_commands.Choice(
    name=ls(f"game.{key}") if f"game.{key}" in EN else app_commands.locale_str(cls.title),
    value=key) for key, cls in GAMES.items()]
TOP_TRUMP_CHOICES = [app_commands.Choice(name=ls(f"value.{v}"), value=v)
                     for v in ("standard", "hearts_seven", "leaves_low")]


def is_manager(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


async def reply_error(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


@contextlib.contextmanager
def parsing() -> Iterator[None]:
    """Reading a custom_id or a menu value: a forged or damaged one is refused as such (and
    nothing changes); errors anywhere else are the bot's own and are logged."""
    try:
        yield
    except (ValueError, IndexError, KeyError, CardError):
        raise SessionError("err.bad_button") from None


class Tables(commands.Cog, name="Tables"):
    table = app_commands.Group(name=ls("cmdname.table"), description=ls("cmd.table"),
                               guild_only=True)

    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot
        self.store = bot.store
        self.settings = bot.settings
        self.sessions: dict[int, TableSession] = {}
        self.by_channel: dict[int, int] = {}
        #: The latest interaction behind each player's hand view, to refresh it on their turn.
        self.hand_views: dict[tuple[int, int], tuple[discord.Interaction[Any], float]] = {}
        self._dirty: set[int] = set()
        self._refreshing: dict[int, asyncio.Task[None]] = {}
        self._last_edit: dict[int, float] = {}
        self._drivers: dict[int, asyncio.Task[None]] = {}
        #: Set whenever a table changes: its driver wakes up and looks again.
        self._wake: dict[int, asyncio.Event] = {}
        #: What each table message shows now, so that an identical edit is not sent.
        self._shown: dict[int, Any] = {}
        #: The digest of the picture each table message carries now (None: no picture).
        self._picture: dict[int, str | None] = {}
        self._lobby_timers: dict[int, asyncio.Task[None]] = {}
        self._playing_count = 0
        self._playing_at = -1e9
        #: When each table's open window (the fris window) opened: (hand, phase), time.
        self._windows: dict[int, tuple[tuple[int, str], float]] = {}
        self._posted: set[tuple[int, int]] = set()
        self._closing = False
        #: Tables whose driver is acting now (between its timer firing and the table redrawn).
        self.acting: set[int] = set()

    # -- languages and pictures ------------------------------------------------------------

    def public(self, session: TableSession) -> contextlib.AbstractContextManager[None]:
        """Public messages of a table speak its server's language."""
        return speaking(self.bot.public_language(session.row.guild_id))

    async def _hand_message(self, session: TableSession, view: SeatView
                            ) -> tuple[str, discord.ui.View, list[discord.File]]:
        """A player's hand view (in the current language): text, buttons, and the picture
        of the hand when the server has pictures on."""
        content, components = render.hand_content(session, view), render.hand_view(session, view)
        config = self.bot.config(session.row.guild_id)
        files = []
        if config.pictures:
            data = await pictures.hand_picture(view, config.theme)
            if data is not None:
                files.append(pictures.as_file(data, pictures.HAND_FILE, t("pic.hand")))
        return content, components, files

    async def _table_picture(self, session: TableSession, view: PublicView
                             ) -> tuple[str, discord.File] | None:
        """The table's picture (digest, file) when the server has pictures on."""
        config = self.bot.config(session.row.guild_id)
        if not config.pictures:
            return None
        names = [render.plain_name(session, seat) for seat in range(view.players)]
        data = await pictures.table_picture(view, names, config.theme)
        if data is None:
            return None
        return pictures.digest(data), pictures.as_file(data, pictures.TABLE_FILE,
                                                        t("pic.table"))

    # -- start-up and shut-down --------------------------------------------------------------

    async def cog_load(self) -> None:
        for row in await self.store.owned_tables():
            try:
                session = await TableSession.restore(row, self.store)
            except Exception:
                log.exception("table %s could not be restored; closing it", row.id)
                await self.store.update_table(row.id, state="closed")
                continue
            self._track(session)
        self.bot.loop.create_task(self._resume(list(self.sessions.values())))

    async def _resume(self, restored: list[TableSession]) -> None:
        """Once connected, bring back the tables restored from the store (only those: tables
        opened since have their own timers and drivers already)."""
        await self.bot.wait_until_ready()
        for session in restored:
            if self.sessions.get(session.id) is not session:
                continue
            if session.state == "lobby":
                self._start_lobby_timer(session)
            else:
                self.request_refresh(session)
                self.kick(session)

    async def cog_unload(self) -> None:
        # From now on no new refresh or driver starts (they would outlive the HTTP session).
        self._closing = True
        tasks = [*self._drivers.values(), *self._lobby_timers.values(),
                 *self._refreshing.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _track(self, session: TableSession) -> None:
        self.sessions[session.id] = session
        self.by_channel[session.channel_id] = session.id

    def _forget(self, session: TableSession) -> None:
        self.sessions.pop(session.id, None)
        if self.by_channel.get(session.channel_id) == session.id:
            del self.by_channel[session.channel_id]
        self._dirty.discard(session.id)
        self._wake.pop(session.id, None)
        for tasks in (self._drivers, self._lobby_timers, self._refreshing):
            task = tasks.pop(session.id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    def session_in(self, channel_id: int | None) -> TableSession | None:
        tid = self.by_channel.get(channel_id or 0)
        return None if tid is None else self.sessions.get(tid)

    # -- /table new ------------------------------------------------------------------------

    @table.command(name=ls("cmdname.table_new"), description=ls("cmd.table_new"))
    @app_commands.describe(game=ls("cmd.game"), early_end=ls("cmd.early_end"),
                           top_trumps=ls("cmd.top_trumps"), turn_seconds=ls("cmd.turn_seconds"),
                           window_seconds=ls("cmd.window_seconds"))
    @app_commands.rename(game=ls("optname.game"), early_end=ls("optname.early_end"),
                         top_trumps=ls("optname.top_trumps"),
                         turn_seconds=ls("optname.turn_seconds"),
                         window_seconds=ls("optname.window_seconds"))
    @app_commands.choices(game=GAME_CHOICES, top_trumps=TOP_TRUMP_CHOICES)
    async def table_new(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str],
        early_end: bool = True, top_trumps: app_commands.Choice[str] | None = None,
        turn_seconds: app_commands.Range[int, 20, 900] = 90,
        window_seconds: app_commands.Range[int, 5, 120] = DEFAULT_WINDOW_SECONDS,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await reply_error(interaction, t("err.guild_only"))
            return
        if self.session_in(interaction.channel_id) is not None:
            await reply_error(interaction, t("err.channel_busy"))
            return
        options: dict[str, Any] = {"early_end": early_end}
        if top_trumps is not None:
            options["top_trumps"] = top_trumps.value
        try:
            rules = make_rules(game.value, options)
        except RecordError as e:
            await reply_error(interaction, t("err.bad_options", problem=str(e)))
            return
        try:
            row = await self.store.create_table(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                game=game.value, options=options, opener_id=interaction.user.id,
                seats=[None] * rules.players, settings={"turn_seconds": turn_seconds,
                                                       "window_seconds": window_seconds},
            )
        except StoreError:
            await reply_error(interaction, t("err.channel_busy"))
            return
        session = TableSession(row, self.store)
        self._track(session)
        with self.public(session):
            embed, view = render.lobby_embed(session), render.lobby_view(session)
        sent = await interaction.response.send_message(embed=embed, view=view)
        # Discord answers the callback with the message it created; asking for it again is
        # only for a callback answered without it.
        message_id = sent.message_id
        if message_id is None:
            message_id = (await interaction.original_response()).id
        session.message_id = message_id
        await self.store.update_table(session.id, message_id=message_id)
        self._start_lobby_timer(session)

    def _start_lobby_timer(self, session: TableSession) -> None:
        created = datetime.fromisoformat(session.row.created_at)
        left = LOBBY_SECONDS - (datetime.now(UTC) - created).total_seconds()
        self._lobby_timers[session.id] = asyncio.create_task(self._expire_lobby(session, left))

    async def _expire_lobby(self, session: TableSession, delay: float) -> None:
        await asyncio.sleep(max(delay, 0))
        if session.state != "lobby":
            return
        await session.close()
        self._forget(session)
        with self.public(session):
            await self._edit_table_message(session, content=t("lobby.expired"), embed=None,
                                           view=None)

    # -- every button ------------------------------------------------------------------------

    async def on_button(
        self, interaction: discord.Interaction[Any], op: str, table_id: int,
        args: tuple[str, ...],
    ) -> None:
        """All clicks come here; refusals become one short ephemeral answer. The handler
        speaks the user's language; public messages switch to the server's."""
        await self.bot.enter(interaction)
        session = self.sessions.get(table_id)
        try:
            if session is None:
                raise SessionError("err.gone")
            handler = getattr(self, f"_on_{op}", None)
            if handler is None:
                raise SessionError("err.bad_button")
            await handler(interaction, session, args)
        except SessionError as e:
            await reply_error(interaction, t(e.key, **e.params) if e.key in _KNOWN
                              else t("err.not_allowed"))
        except Exception:
            if self._closing:
                # The bot is stopping under this click (its HTTP session closes): what was
                # stored stays stored, and the table comes back at the next start.
                log.info("table %s: button %s interrupted by the shutdown", table_id, op)
                return
            # E.g. the store failed: the session changed nothing, so the click can be retried.
            log.exception("table %s: button %s failed", table_id, op)
            await reply_error(interaction, t("err.internal"))

    # lobby

    async def _lobby_update(self, interaction: discord.Interaction[Any],
                            session: TableSession) -> None:
        with self.public(session):
            embed, view = render.lobby_embed(session), render.lobby_view(session)
        await interaction.response.edit_message(embed=embed, view=view)

    async def _on_join(self, interaction: discord.Interaction[Any], session: TableSession,
                       args: tuple[str, ...]) -> None:
        with parsing():
            team = int(args[0])
        if team not in (0, 1):
            raise SessionError("err.bad_button")
        await session.join(interaction.user.id, team, interaction.user.display_name)
        await self._lobby_update(interaction, session)

    async def _on_sit(self, interaction: discord.Interaction[Any], session: TableSession,
                      args: tuple[str, ...]) -> None:
        await session.join(interaction.user.id, None, interaction.user.display_name)
        await self._lobby_update(interaction, session)

    async def _on_leave(self, interaction: discord.Interaction[Any], session: TableSession,
                        args: tuple[str, ...]) -> None:
        await session.leave(interaction.user.id)
        await self._lobby_update(interaction, session)

    async def _on_cpu(self, interaction: discord.Interaction[Any], session: TableSession,
                      args: tuple[str, ...]) -> None:
        # The button carries its level; an old button without one adds a Normal computer.
        level = args[0] if args else "normal"
        if level not in COMPUTER_LEVELS:
            raise SessionError("err.bad_level", level=level)
        await session.add_computer(level=level)
        await self._lobby_update(interaction, session)

    async def _on_uncpu(self, interaction: discord.Interaction[Any], session: TableSession,
                        args: tuple[str, ...]) -> None:
        if not session.may_manage(interaction.user.id, is_admin=is_manager(interaction)):
            raise SessionError("err.not_manager")
        await session.remove_computer()
        await self._lobby_update(interaction, session)

    async def _on_cancel(self, interaction: discord.Interaction[Any], session: TableSession,
                         args: tuple[str, ...]) -> None:
        if not session.may_manage(interaction.user.id, is_admin=is_manager(interaction)):
            raise SessionError("err.not_manager")
        if session.state != "lobby":
            raise SessionError("err.not_in_lobby")
        await session.close()
        self._forget(session)
        with self.public(session):
            text = t("lobby.cancelled")
        await interaction.response.edit_message(content=text, embed=None, view=None)

    async def _on_start(self, interaction: discord.Interaction[Any], session: TableSession,
                        args: tuple[str, ...]) -> None:
        await session.start(interaction.user.id, is_admin=is_manager(interaction))
        timer = self._lobby_timers.pop(session.id, None)
        if timer is not None:
            timer.cancel()
        await self._show_table_in_reply(interaction, session)
        self.kick(session)

    async def _show_table_in_reply(self, interaction: discord.Interaction[Any],
                                   session: TableSession) -> None:
        """Answer a click on the table message by redrawing it (a new hand, or the start)."""
        assert session.hand is not None
        view = public_view(session.hand)
        with self.public(session):
            content = render.table_content(session, view)
            embed = render.table_embed(session, view)
            components = render.table_view(session, view)
            picture = await self._table_picture(session, view)
        extra: dict[str, Any] = {}
        uploaded = self._picture.get(session.id)
        if picture is not None and picture[0] != uploaded:
            extra["attachments"] = [picture[1]]
        elif picture is None and uploaded is not None:
            extra["attachments"] = []
        await interaction.response.edit_message(content=content, embed=embed, view=components,
                                                **extra)
        self._picture[session.id] = picture[0] if picture else None
        self._last_edit[session.id] = time.monotonic()
        self._shown[session.id] = (content, embed.to_dict(), components.to_components(),
                                   self._picture[session.id])

    # the table

    async def _on_hand(self, interaction: discord.Interaction[Any], session: TableSession,
                       args: tuple[str, ...]) -> None:
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise SessionError("err.not_seated")
        if session.hand is None:
            raise SessionError("err.no_hand")
        was_auto = seat in session.autoplay
        session.resume(interaction.user.id)
        hand = session.hand
        moved = len(hand.actions)
        view = seat_view(hand, seat)
        content, components, files = await self._hand_message(session, view)
        await interaction.response.send_message(
            content, view=components, ephemeral=True,
            files=files if files else discord.utils.MISSING)
        self.hand_views[(session.id, interaction.user.id)] = (interaction, time.monotonic())
        if session.hand is not hand or len(hand.actions) != moved:
            # The table moved while the view was on its way (a computer's move): its
            # refresh did not know this view yet, so draw it again now.
            await self._refresh_hand_views(session, [seat], only=[seat])
        if was_auto:
            self.kick(session)

    async def _on_last(self, interaction: discord.Interaction[Any], session: TableSession,
                       args: tuple[str, ...]) -> None:
        hand = session.hand
        if hand is None or not hand.tricks:
            text = t("table.no_last_trick")
        else:
            text = render.last_trick_text(session, hand.tricks[-1])
        await interaction.response.send_message(text, ephemeral=True)

    async def _on_rules(self, interaction: discord.Interaction[Any], session: TableSession,
                        args: tuple[str, ...]) -> None:
        rules = session.rules
        await interaction.response.send_message(embed=render.rules_embed(
            session.game, rules.title, rules.rulings, rules.options.model_dump()),
            ephemeral=True)

    async def _on_next(self, interaction: discord.Interaction[Any], session: TableSession,
                       args: tuple[str, ...]) -> None:
        if session.seat_of(interaction.user.id) is None and not is_manager(interaction):
            raise SessionError("err.not_seated")
        with parsing():
            number = int(args[0])
        if number != session.hand_number:
            raise SessionError("err.stale_hand")
        await session.next_hand()
        await self._show_table_in_reply(interaction, session)
        self.kick(session)

    # playing

    async def _on_card(self, interaction: discord.Interaction[Any], session: TableSession,
                       args: tuple[str, ...]) -> None:
        with parsing():
            number, trick, action = int(args[0]), int(args[1]), Action("card", card(args[2]))
        await self._act(interaction, session, action, number, trick)

    async def _on_act(self, interaction: discord.Interaction[Any], session: TableSession,
                      args: tuple[str, ...]) -> None:
        """Any choice that is not a card: ``act:HAND:KIND:JSON``."""
        with parsing():
            number, kind, raw = int(args[0]), args[1], ":".join(args[2:])
            action = action_from_json({kind: json.loads(raw)})
        await self._act(interaction, session, action, number, None)

    # select menus

    async def on_select(
        self, interaction: discord.Interaction[Any], op: str, table_id: int,
        args: tuple[str, ...], values: list[str],
    ) -> None:
        """Every select menu: ``opt`` (a lobby option), ``act`` (a long list of choices),
        ``together`` (cards chosen together). Refusals as for buttons."""
        await self.bot.enter(interaction)
        session = self.sessions.get(table_id)
        try:
            if session is None:
                raise SessionError("err.gone")
            if not values:
                raise SessionError("err.bad_button")
            if op == "opt":
                with parsing():
                    name, value = options.decode(values[0])
                await session.set_option(interaction.user.id, name, value,
                                         is_admin=is_manager(interaction))
                await self._lobby_update(interaction, session)
            elif op == "act":
                await self._on_act(interaction, session, (args[0], *values[0].split(":")))
            elif op == "together":
                with parsing():
                    number, kind = int(args[0]), args[1]
                    action = action_from_json({kind: values})
                await self._act(interaction, session, action, number, None)
            else:
                raise SessionError("err.bad_button")
        except SessionError as e:
            await reply_error(interaction, t(e.key, **e.params) if e.key in _KNOWN
                              else t("err.not_allowed"))
        except Exception:
            log.exception("table %s: select %s failed", table_id, op)
            await reply_error(interaction, t("err.internal"))

    async def _on_servant(self, interaction: discord.Interaction[Any], session: TableSession,
                          args: tuple[str, ...]) -> None:
        with parsing():
            number, seat = int(args[0]), int(args[1])
        await self._act(interaction, session, Action("servant", seat), number, None)

    async def _act(self, interaction: discord.Interaction[Any], session: TableSession,
                   action: Action, number: int, trick: int | None) -> None:
        outcome = await session.act(interaction.user.id, action, hand_number=number,
                                    trick=trick)
        seat = session.seat_of(interaction.user.id)
        assert seat is not None and session.hand is not None
        view = seat_view(session.hand, seat)
        content, components, files = await self._hand_message(session, view)
        await interaction.response.edit_message(content=content, view=components,
                                                attachments=files)
        self.hand_views[(session.id, interaction.user.id)] = (interaction, time.monotonic())
        await self.after(session, outcome)

    # -- after every change --------------------------------------------------------------------

    async def after(self, session: TableSession, outcome: Outcome | None) -> None:
        # A computer move followed by another computer's turn is folded into the edit that
        # shows the next one: a run of computer moves costs one table edit, not one each.
        by_computer = outcome is not None and all(p.by_computer for p in outcome.played)
        hand = session.hand
        if not (by_computer and hand is not None and not hand.finished
                and not session.waiting_for_human()):
            self.request_refresh(session)
        if outcome is not None and outcome.result is not None:
            await self._post_result(session)
        # The computer may have played for a person (timed out): their view changes too.
        played_for = [p.seat for p in (outcome.played if outcome else [])
                      if p.by_computer and not is_computer(session.seats[p.seat])]
        if outcome is not None and outcome.result is not None:
            # The hand is over: every person's open view says so (the one who clicked last
            # saw it in the answer to the click).
            clicked = {p.seat for p in outcome.played if not p.by_computer}
            played_for += [s for s, m in enumerate(session.seats)
                           if m is not None and not is_computer(m)
                           and s not in clicked and s not in played_for]
        await self._refresh_hand_views(session, played_for)
        self.kick(session)

    async def _post_result(self, session: TableSession) -> None:
        key = (session.id, session.hand_number)
        hand = session.hand
        if key in self._posted or hand is None or hand.result is None:
            return
        self._posted.add(key)
        channel = self.bot.get_partial_messageable(session.channel_id)
        with self.public(session):
            embed = render.result_embed(session, hand.result, session.hand_number)
        try:
            await channel.send(embed=embed)
        except discord.HTTPException:
            log.warning("could not post the result of table %s", session.id)

    async def _refresh_hand_views(self, session: TableSession,
                                  also: list[int] | None = None, *,
                                  only: list[int] | None = None) -> None:
        """Enable the cards of whoever must act now, in their open hand view (and redraw the
        views of the seats in ``also``; ``only``: just these seats)."""
        hand = session.hand
        if hand is None:
            return
        seats = session.waiting_for_human()
        for seat in seats + [s for s in also or [] if s not in seats]:
            if self._closing:
                return  # stopping: the HTTP session is about to close
            if only is not None and seat not in only:
                continue
            member = session.seats[seat]
            assert member is not None
            key = (session.id, int(member))
            entry = self.hand_views.get(key)
            if entry is None:
                continue
            interaction, since = entry
            if time.monotonic() - since > TOKEN_SECONDS:
                del self.hand_views[key]
                continue
            view = seat_view(hand, seat)
            # The view is that player's: in their language.
            with speaking(language_of(interaction.locale)):
                content, components, files = await self._hand_message(session, view)
            try:
                await interaction.edit_original_response(content=content, view=components,
                                                         attachments=files)
            except discord.HTTPException as e:
                if isinstance(e, discord.NotFound | discord.Forbidden) or e.status == 401:
                    # An expired token or a deleted view: the player presses "My hand".
                    self.hand_views.pop(key, None)
                else:
                    # Rate limited or a Discord failure: keep the view for the next change.
                    log.warning("table %s: could not refresh a hand view (%s)", session.id,
                                e.status)
            except aiohttp.ClientError as e:
                # The connection dropped (the bot is stopping, or the network): the view is
                # redrawn on the next change or by My hand.
                log.warning("table %s: could not refresh a hand view (%r)", session.id, e)

    def kick(self, session: TableSession) -> None:
        """The table changed: wake its driver (computer moves, the turn timer, the next
        hand), starting one if it has none. A driver is never cancelled while it acts, so a
        move is always stored and applied together."""
        if self._closing or session.state != "playing":
            return
        wake = self._wake.setdefault(session.id, asyncio.Event())
        wake.set()
        task = self._drivers.get(session.id)
        if task is None or task.done():
            self._drivers[session.id] = asyncio.create_task(self._drive(session, wake))

    @staticmethod
    async def _pause(wake: asyncio.Event, seconds: float) -> bool:
        """Wait up to ``seconds``; True if the table changed meanwhile."""
        try:
            await asyncio.wait_for(wake.wait(), timeout=max(seconds, 0.0))
        except TimeoutError:
            return False
        return True

    async def _drive(self, session: TableSession, wake: asyncio.Event) -> None:
        """One loop per table: look at the table, wait for what comes next, do it; start
        over whenever the table changes."""
        while session.state == "playing" and self.sessions.get(session.id) is session:
            wake.clear()
            hand = session.hand
            if hand is None:
                return
            try:
                if hand.finished:
                    if not await self._pause(wake, self.settings.next_hand_delay):
                        self.acting.add(session.id)
                        await session.next_hand()
                        self.request_refresh(session)
                elif session.waiting_for_human() and not session.computer_may_act():
                    if session.window_open():
                        await self._window_timer(session, wake)
                    else:
                        await self._turn_timer(session, wake)
                elif not await self._pause(wake, self.settings.computer_delay):
                    self.acting.add(session.id)
                    moved = len(hand.actions)
                    outcome = await session.computer_turn()
                    if outcome is not None:
                        await self.after(session, outcome)
                    elif len(hand.actions) != moved:
                        # A click came first while the computer thought; show it.
                        await self.after(session, None)
            except SessionError:
                continue  # somebody else moved first (e.g. Next hand was clicked)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: driver failed", session.id)
                await self._pause(wake, 5.0)
            finally:
                self.acting.discard(session.id)

    async def _turn_timer(self, session: TableSession, wake: asyncio.Event) -> None:
        """A person is to act: warn at two thirds of the turn, then let the computer play
        (unless the table changes first)."""
        assert session.hand is not None
        stamp, total = len(session.hand.actions), session.turn_seconds
        if await self._pause(wake, total * 2 / 3):
            return
        await self._warn(session, round(total / 3))
        if not await self._pause(wake, total / 3):
            self.acting.add(session.id)
            try:
                await self.turn_timeout(session, stamp)
            finally:
                self.acting.discard(session.id)

    async def _window_timer(self, session: TableSession, wake: asyncio.Event) -> None:
        """An open window (the fris window): it closes by itself once the table's window
        time has passed since it opened, whoever has not acted by then."""
        assert session.hand is not None
        key = (session.hand_number, session.hand.phase)
        opened = self._windows.get(session.id)
        if opened is None or opened[0] != key:
            opened = self._windows[session.id] = (key, time.monotonic())
        left = opened[1] + session.window_seconds - time.monotonic()
        if await self._pause(wake, left):
            return
        self.acting.add(session.id)
        try:
            outcome = await session.close_window(len(session.hand.actions))
            if outcome is not None:
                await self.after(session, outcome)
        finally:
            self.acting.discard(session.id)

    async def turn_timeout(self, session: TableSession, stamp: int) -> None:
        """The turn timer ran out: the computer plays for the seat (if nothing moved)."""
        hand = session.hand
        if hand is None or len(hand.actions) != stamp:
            return
        before = set(session.autoplay)
        outcome = await session.computer_turn(timed_out=True)
        for seat in session.autoplay - before:
            with self.public(session):
                text = t("turn.autoplay", user=render.mention(session.seats[seat]))
            await self._say(session, text)
        if outcome is not None:
            await self.after(session, outcome)

    async def _warn(self, session: TableSession, seconds: int) -> None:
        for seat in session.waiting_for_human():
            with self.public(session):
                text = t("turn.warning", user=render.mention(session.seats[seat]),
                         seconds=seconds)
            await self._say(session, text)

    async def _say(self, session: TableSession, text: str) -> None:
        try:
            await self.bot.get_partial_messageable(session.channel_id).send(text)
        except discord.HTTPException:
            log.warning("table %s: could not send a message", session.id)

    # -- the table message, edited sparingly ---------------------------------------------------

    def request_refresh(self, session: TableSession) -> None:
        if self._closing or session.state == "closed":
            return
        self._dirty.add(session.id)
        task = self._refreshing.get(session.id)
        if task is None or task.done():
            self._refreshing[session.id] = asyncio.create_task(self._refresh_loop(session))

    def edit_interval(self) -> float:
        """Seconds between two edits of one table message. Discord allows a bot 50 requests
        a second in all; table edits get at most TABLE_EDITS_PER_SECOND of them, shared by
        the tables in play, so the interval grows with the number of tables."""
        return max(self.settings.edit_interval, self._playing / TABLE_EDITS_PER_SECOND)

    @property
    def _playing(self) -> int:
        # Counted once a second at most: every refresh asks, and there may be hundreds of
        # tables.
        now = time.monotonic()
        if now - self._playing_at > 1.0:
            self._playing_count = sum(1 for s in self.sessions.values()
                                      if s.state == "playing")
            self._playing_at = now
        return self._playing_count

    async def _refresh_loop(self, session: TableSession) -> None:
        while session.id in self._dirty and session.state != "closed":
            wait = self._last_edit.get(session.id, 0.0) + self.edit_interval()
            wait -= time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._dirty.discard(session.id)
            hand = session.hand
            if hand is None or self.sessions.get(session.id) is not session:
                return  # no hand yet, or the table was ended meanwhile
            view = public_view(hand)
            with self.public(session):
                edited = await self._edit_table_message(
                    session, content=render.table_content(session, view),
                    embed=render.table_embed(session, view),
                    view=render.table_view(session, view),
                    picture=await self._table_picture(session, view))
            self._last_edit[session.id] = time.monotonic()
            if not edited:
                self._dirty.add(session.id)
                await asyncio.sleep(EDIT_RETRY_SECONDS)

    async def _edit_table_message(
        self, session: TableSession, *, content: str | None, embed: discord.Embed | None,
        view: discord.ui.View | None, picture: tuple[str, discord.File] | None = None,
    ) -> bool:
        """Edit the table message, unless it shows exactly this already. The picture (its
        digest and file) is uploaded only when it changed; None removes an uploaded one.
        False: the edit failed and should be tried again."""
        if session.message_id is None:
            return True
        digest = picture[0] if picture else None
        shown = (content, embed and embed.to_dict(), view and view.to_components(), digest)
        if self._shown.get(session.id) == shown:
            return True  # the message already shows exactly this
        # Not known (since a restart): the message may carry a picture from before.
        uploaded = self._picture.get(session.id, "unknown")
        extra: dict[str, Any] = {}
        if picture is not None and digest != uploaded:
            extra["attachments"] = [picture[1]]
        elif picture is None and uploaded is not None:
            extra["attachments"] = []
        message = self.bot.get_partial_messageable(session.channel_id).get_partial_message(
            session.message_id)
        try:
            await message.edit(content=content, embed=embed, view=view, **extra)
            self._shown[session.id] = shown
            self._picture[session.id] = digest
        except discord.NotFound:
            # The table message was deleted: post a new one and keep playing there.
            if picture is not None:
                picture[1].reset()
            sent = await self.bot.get_partial_messageable(session.channel_id).send(
                content=content or None, embed=embed or discord.utils.MISSING,
                view=view or discord.utils.MISSING,
                file=picture[1] if picture is not None else discord.utils.MISSING)
            session.message_id = sent.id
            self._picture[session.id] = digest
            await self.store.update_table(session.id, message_id=sent.id)
        except discord.HTTPException:
            # Rate limited past discord.py's retries, or Discord failed: the table must not
            # keep showing an old turn, so the refresh loop tries again after a pause.
            log.warning("table %s: could not edit the table message; will retry", session.id)
            return False
        return True

    # -- admin and history helpers (used by the other cogs) ----------------------------------

    async def end_table(self, session: TableSession) -> None:
        await session.close()
        self._forget(session)
        with self.public(session):
            await self._edit_table_message(session, content=t("ok.ended"), embed=None,
                                           view=None)

    async def history(self, interaction: discord.Interaction[Any], hand: int | None) -> None:
        session = self.session_in(interaction.channel_id)
        if session is None:
            await reply_error(interaction, t("err.no_table"))
            return
        rows = await self.store.hands(session.id, limit=10)
        if hand is not None:
            match = [r for r in rows if r.number == hand]
            if not match:
                await reply_error(interaction, t("err.no_record"))
                return
            if match[0].result is None:
                # The record holds the pack: everybody's cards.
                await reply_error(interaction, t("err.hand_in_progress"))
                return
            data = json.dumps(match[0].record(), ensure_ascii=False, indent=1).encode()
            await interaction.response.send_message(
                file=discord.File(io.BytesIO(data), filename=f"table{session.id}-hand{hand}.json"),
                ephemeral=True)
            return
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


_KNOWN = set(EN)


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(Tables(bot))
