"""One open table on Discord: its session and everything that lives exactly as long as it.

A ``TableRunner`` owns the table's tasks (the driver that plays computers, runs the turn
timer, the fris window and the next hand; the refresh loop that edits the public table
message; the lobby timer), what the table message shows now, and the players' open hand
views. ``close()`` ends all of it: a closed table leaves nothing behind in the bot, however
long the process runs (``TableRunner.alive`` counts the runners alive, for the soak test).

Policy — who may do what — is the session's (``bot.session``); the cog parses clicks and
answers them; the runner keeps the table moving and its public message current.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar, cast

import aiohttp
import discord

from bot import pictures, render
from bot.seats import is_computer
from bot.session import Outcome, SessionError, TableSession
from bot.texts import language_of, speaking, t
from engine import PublicView, SeatView, public_view, replay, seat_view

if TYPE_CHECKING:
    from bot.client import FilicauBot
    from engine import HandResult

log = logging.getLogger(__name__)

LOBBY_SECONDS = 15 * 60
#: A failed table edit is tried again after this pause (and the usual edit interval).
EDIT_RETRY_SECONDS = 2.0
#: An interaction token lives 15 minutes; stop using a hand view's a little before.
TOKEN_SECONDS = 14 * 60


@dataclass
class Token:
    """An interaction whose token edits a message of the table (a player's hand view, or
    the table message itself) and sends follow-ups, for 15 minutes. Requests through it do
    not count against the bot's global rate limit; requests through the channel routes do.
    """

    interaction: discord.Interaction[Any]
    since: float

    @property
    def expired(self) -> bool:
        return time.monotonic() - self.since > TOKEN_SECONDS


def token_dead(e: discord.HTTPException) -> bool:
    """Discord refused a token route because of the token (expired: 401/50027; unknown
    webhook: 10015), not because of the message."""
    return e.status == 401 or e.code in (10015, 50027)


@dataclass(frozen=True)
class Shown:
    """What the table message shows now, so that an identical edit is not sent."""

    content: str | None
    embed: Any
    components: Any
    picture: str | None


class TableRunner:
    """The live side of one table (see the module docstring)."""

    #: Runners alive in this process (opened and not yet closed).
    alive: ClassVar[int] = 0

    def __init__(self, session: TableSession, bot: FilicauBot,
                 edit_interval: Callable[[], float]) -> None:
        self.session = session
        self.bot = bot
        self._edit_interval = edit_interval
        self.closed = False
        #: Set whenever the table changes: the driver wakes up and looks again.
        self.wake = asyncio.Event()
        self.driver: asyncio.Task[None] | None = None
        self.refresher: asyncio.Task[None] | None = None
        self.lobby_timer: asyncio.Task[None] | None = None
        #: The driver is acting now (between its timer firing and the table redrawn).
        self.acting = False
        self.dirty = False
        self.last_edit = -1e9
        self.shown: Shown | None = None
        #: The digest of the picture the table message carries ("unknown" after a restart).
        self.picture: str | None = "unknown"
        #: When the wait for people began (wall clock): a turn, or an open window (the fris
        #: window). The timers and the countdowns people see both run from it.
        self.clock: tuple[tuple[Any, ...], float] | None = None
        #: The wait whose two-thirds warning was given.
        self.warned: tuple[Any, ...] | None = None
        #: The last hand whose result was posted.
        self.posted = 0
        #: The latest result post while it offers Next hand: (hand number, result, message).
        self.result_post: tuple[int, HandResult, discord.Message | discord.WebhookMessage] \
            | None = None
        #: When the finished hand ended (its number, wall clock): the next deal counts from it.
        self.finished_at: tuple[int, float] | None = None
        self.hand_views: dict[int, Token] = {}
        #: The latest interaction answered by editing the table message (the lobby's
        #: command, a lobby click, Start, Next hand): while its token lives, the table
        #: message is edited and results are posted through it.
        self.table_token: Token | None = None
        #: The ping of the turn in play: (the turn, the message), removed once it moved.
        self.ping: tuple[tuple[int, int], discord.Message | discord.WebhookMessage] | None = None
        TableRunner.alive += 1

    @property
    def id(self) -> int:
        return self.session.id

    def tasks(self) -> list[asyncio.Task[None]]:
        return [task for task in (self.driver, self.refresher, self.lobby_timer)
                if task is not None and not task.done()]

    # -- lifetime ------------------------------------------------------------------------------

    def _spawn(self, work: Awaitable[None]) -> asyncio.Task[None]:
        return asyncio.get_running_loop().create_task(work)  # type: ignore[arg-type]

    async def close(self) -> None:
        """Close the table in the store and end everything of the runner."""
        await self.session.close()
        self.stop()

    def stop(self) -> list[asyncio.Task[None]]:
        """End the runner's tasks and drop what it holds (the table stays as stored: the bot
        is stopping, or the table was closed). Returns the tasks cancelled, for a caller
        that must wait until they have finished (the bot closing)."""
        if self.closed:
            return []
        self.closed = True
        TableRunner.alive -= 1
        current = asyncio.current_task()
        cancelled = [task for task in self.tasks() if task is not current]
        for task in cancelled:
            task.cancel()
        self.driver = self.refresher = self.lobby_timer = None
        self.hand_views.clear()
        self.table_token = None
        self.shown = None
        return cancelled

    def public(self) -> contextlib.AbstractContextManager[None]:
        """Public messages of a table speak its server's language."""
        return speaking(self.bot.public_language(self.session.guild_id))

    # -- the lobby -----------------------------------------------------------------------------

    def start_lobby_timer(self) -> None:
        created = datetime.fromisoformat(self.session.row.created_at)
        left = LOBBY_SECONDS - (datetime.now(UTC) - created).total_seconds()
        self.lobby_timer = self._spawn(self.expire_lobby(left))

    async def expire_lobby(self, delay: float) -> None:
        await asyncio.sleep(max(delay, 0))
        if self.session.state != "lobby" or self.closed:
            return
        await self.close()
        self.bot.tables.forget(self)
        with self.public():
            await self.edit_table_message(content=t("lobby.expired"), embed=None, view=None)
        await self.close_thread()

    async def open_thread(self) -> None:
        """Start the table's own public thread on its message: results, pings and warnings
        go there, so the channel keeps only the table. Without the permission (or on any
        failure) the table plays in the channel as usual (logged)."""
        s = self.session
        if s.message_id is None:
            return
        with self.public():
            name = t("table.thread_name", game=render.title(s), number=s.id)
        try:
            thread = await self.bot.http.start_thread_with_message(
                s.channel_id, s.message_id, name=name[:100], auto_archive_duration=1440)
        except (discord.HTTPException, aiohttp.ClientError) as e:
            log.warning("table %s: could not open its thread (%r); playing in the channel",
                        s.id, e)
            return
        await s.keep_setting("thread_id", int(thread["id"]))

    async def close_thread(self) -> None:
        """The table closed: its thread is archived (and locked: play there is over)."""
        thread_id = self.session.thread_id
        if thread_id is None:
            return
        try:
            await self.bot.http.edit_channel(thread_id, archived=True, locked=True)
        except (discord.HTTPException, aiohttp.ClientError) as e:
            log.info("table %s: its thread was not archived (%r)", self.id, e)

    def lobby_closed(self) -> None:
        """The lobby became a table in play: its timer stops."""
        if self.lobby_timer is not None and self.lobby_timer is not asyncio.current_task():
            self.lobby_timer.cancel()
        self.lobby_timer = None

    # -- messages ------------------------------------------------------------------------------

    async def hand_message(self, view: SeatView
                           ) -> tuple[str, discord.ui.View, list[discord.File]]:
        """A player's hand view (in the current language): text, buttons, and the picture
        of the hand when the server has pictures on."""
        s = self.session
        content = render.hand_content(s, view, self.deadline())
        components = render.hand_view(s, view)
        config = self.bot.config(s.guild_id)
        files = []
        if config.pictures:
            data = await pictures.hand_picture(view, config.theme)
            if data is not None:
                files.append(pictures.as_file(data, pictures.HAND_FILE, t("pic.hand")))
        return content, components, files

    async def table_picture(self, view: PublicView) -> tuple[str, discord.File] | None:
        """The table's picture (digest, file) when the server has pictures on."""
        config = self.bot.config(self.session.guild_id)
        if not config.pictures:
            return None
        names = [render.plain_name(self.session, seat) for seat in range(view.players)]
        data = await pictures.table_picture(view, names, config.theme)
        if data is None:
            return None
        return pictures.digest(data), pictures.as_file(data, pictures.TABLE_FILE,
                                                        t("pic.table"))

    async def review_picture(self, record: dict[str, Any], step: int) -> list[discord.File]:
        """The picture of a review's trick (``step``, as ``render.review_page`` shows it),
        when the server has pictures on."""
        config = self.bot.config(self.session.guild_id)
        if not config.pictures:
            return []
        hand = replay(record)
        if not hand.tricks:
            return []
        trick = hand.tricks[min(max(step, 0), len(hand.tricks) - 1)]
        names = [render.plain_name(self.session, seat) for seat in range(hand.n)]
        data = await pictures.trick_picture(trick, hand.n, public_view(hand).trump, names,
                                            config.theme)
        if data is None:
            return []
        return [pictures.as_file(data, pictures.TRICK_FILE, t("pic.trick"))]

    def _attachments(self, picture: tuple[str, discord.File] | None) -> dict[str, Any]:
        """Upload the picture only when it changed; remove one no longer wanted."""
        digest = picture[0] if picture else None
        if picture is not None and digest != self.picture:
            return {"attachments": [picture[1]]}
        if picture is None and self.picture is not None:
            return {"attachments": []}
        return {}

    async def show_table_in_reply(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a click on the table message by redrawing it (a new hand, or the start)."""
        hand = self.session.hand
        assert hand is not None
        view = public_view(hand)
        with self.public():
            content = render.table_content(self.session, view)
            embed = render.table_embed(self.session, view, self.deadline())
            components = render.table_view(self.session, view)
            picture = await self.table_picture(view)
        extra = self._attachments(picture)
        if self.picture == "unknown" and picture is None:
            extra = {}  # the lobby never carries a picture
        await interaction.response.edit_message(content=content, embed=embed, view=components,
                                                **extra)
        self.keep_table_token(interaction)
        self.picture = picture[0] if picture else None
        self.last_edit = time.monotonic()
        self.shown = Shown(content, embed.to_dict(), components.to_components(), self.picture)

    async def show_again(self, interaction: discord.Interaction[Any]) -> None:
        """Post the table again at the bottom of a busy channel, as the answer to
        ``interaction`` (``/table show``): play goes on there, and the old message says where
        it went."""
        s = self.session
        old_id, old_token = s.message_id, self._live_table_token()
        hand = s.hand
        with self.public():
            if hand is None:
                content, embed = "", render.lobby_embed(s)
                components, picture = render.lobby_view(s), None
            else:
                view = public_view(hand)
                content = render.table_content(s, view)
                embed = render.table_embed(s, view, self.deadline())
                components = render.table_view(s, view)
                picture = await self.table_picture(view)
        sent = await interaction.response.send_message(
            content or None, embed=embed, view=components,
            file=picture[1] if picture else discord.utils.MISSING)
        message_id = sent.message_id
        if message_id is None:
            message_id = (await interaction.original_response()).id
        s.message_id = message_id
        self.keep_table_token(interaction)
        self.picture = picture[0] if picture else None
        self.last_edit = time.monotonic()
        self.shown = Shown(content, embed.to_dict(), components.to_components(), self.picture)
        await s.store.update_table(s.id, message_id=message_id)
        if old_id is None:
            return
        link = f"https://discord.com/channels/{s.guild_id}/{s.channel_id}/{message_id}"
        with self.public():
            text = t("table.moved", link=link)
        try:
            if old_token is not None:
                await old_token.interaction.edit_original_response(
                    content=text, embed=None, view=None, attachments=[])
            else:
                await self.bot.get_partial_messageable(s.channel_id).get_partial_message(
                    old_id).edit(content=text, embed=None, view=None, attachments=[])
        except (discord.HTTPException, aiohttp.ClientError) as e:
            log.info("table %s: the old table message was not pointed on (%r)", s.id, e)

    def request_refresh(self) -> None:
        """The table changed: its message is edited soon (at most once per edit interval)."""
        if self.closed or self.session.state == "closed" or self.bot.tables.closing:
            return
        self.dirty = True
        if self.refresher is None or self.refresher.done():
            self.refresher = self._spawn(self._refresh_loop())

    async def _refresh_loop(self) -> None:
        while self.dirty and not self.closed and self.session.state != "closed":
            wait = self.last_edit + self._edit_interval() - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.dirty = False
            hand = self.session.hand
            if hand is None or self.closed:
                return  # no hand yet, or the table was ended meanwhile
            view = public_view(hand)
            with self.public():
                edited = await self.edit_table_message(
                    content=render.table_content(self.session, view),
                    embed=render.table_embed(self.session, view, self.deadline()),
                    view=render.table_view(self.session, view),
                    picture=await self.table_picture(view))
            self.last_edit = time.monotonic()
            if not edited:
                self.dirty = True
                await asyncio.sleep(EDIT_RETRY_SECONDS)

    async def edit_table_message(
        self, *, content: str | None, embed: discord.Embed | None,
        view: discord.ui.View | None, picture: tuple[str, discord.File] | None = None,
    ) -> bool:
        """Edit the table message, unless it shows exactly this already. The picture (its
        digest and file) is uploaded only when it changed; None removes an uploaded one.
        False: the edit failed and should be tried again."""
        s = self.session
        if s.message_id is None:
            return True
        digest = picture[0] if picture else None
        shown = Shown(content, embed and embed.to_dict(), view and view.to_components(), digest)
        if self.shown == shown:
            return True  # the message already shows exactly this
        token = self._live_table_token()
        if token is not None:
            try:
                await token.interaction.edit_original_response(
                    content=content, embed=embed, view=view, **self._attachments(picture))
                self.shown = shown
                self.picture = digest
                return True
            except discord.HTTPException as e:
                if not (token_dead(e) or isinstance(e, discord.NotFound)):
                    log.warning("table %s: could not edit the table message (%s); will retry",
                                s.id, e.status)
                    return False
                # The token died early, or the message is gone: the channel route says which.
                self.table_token = None
            except aiohttp.ClientError as e:
                log.warning("table %s: could not edit the table message (%r)", s.id, e)
                return False
        channel = self.bot.get_partial_messageable(s.channel_id)
        try:
            await channel.get_partial_message(s.message_id).edit(
                content=content, embed=embed, view=view, **self._attachments(picture))
            self.shown = shown
            self.picture = digest
        except discord.NotFound:
            # The table message was deleted: post a new one and keep playing there.
            if picture is not None:
                picture[1].reset()
            sent = await channel.send(
                content=content or None, embed=embed or discord.utils.MISSING,
                view=view or discord.utils.MISSING,
                file=picture[1] if picture is not None else discord.utils.MISSING)
            s.message_id = sent.id
            self.picture = digest
            await s.store.update_table(s.id, message_id=sent.id)
        except discord.HTTPException:
            # Rate limited past discord.py's retries, or Discord failed: the table must not
            # keep showing an old turn, so the refresh loop tries again after a pause.
            log.warning("table %s: could not edit the table message; will retry", s.id)
            return False
        return True

    async def post(
        self, *, content: str | None = None, embed: discord.Embed | None = None,
        mentions: discord.AllowedMentions | None = None, view: discord.ui.View | None = None,
    ) -> discord.Message | discord.WebhookMessage | None:
        """A public message in the table's channel: a follow-up of the table's live token
        when there is one (no global rate limit), else through the channel. None: it could
        not be sent (logged)."""
        mentions = mentions or discord.utils.MISSING
        thread_id = self.session.thread_id
        token = self._live_table_token() if thread_id is None else None
        if token is not None:
            try:
                return await token.interaction.followup.send(
                    content=content or discord.utils.MISSING,
                    embed=embed or discord.utils.MISSING, allowed_mentions=mentions,
                    view=view or discord.utils.MISSING, wait=True)
            except discord.HTTPException as e:
                if not token_dead(e):
                    log.warning("table %s: could not post a message (%s)", self.id, e.status)
                    return None
                self.table_token = None
            except aiohttp.ClientError as e:
                log.warning("table %s: could not post a message (%r)", self.id, e)
                return None
        try:
            return await self.bot.get_partial_messageable(
                thread_id or self.session.channel_id).send(
                content=content, embed=embed or discord.utils.MISSING,
                allowed_mentions=mentions, view=view or discord.utils.MISSING)
        except discord.HTTPException:
            log.warning("table %s: could not send a message", self.session.id)
            return None

    async def say(self, text: str) -> None:
        await self.post(content=text)

    async def post_result(self) -> None:
        s = self.session
        hand = s.hand
        if self.posted >= s.hand_number or hand is None or hand.result is None:
            return
        self.posted = s.hand_number
        with self.public():
            embed = render.result_embed(s, hand.result, s.hand_number,
                                        next_at=self.next_deal_at())
            view = render.result_view(s, s.hand_number, next_hand=True)
        message = await self.post(embed=embed, view=view)
        if message is not None:
            self.result_post = (s.hand_number, hand.result, message)

    def next_deal_at(self) -> float | None:
        """When the bot deals the next hand by itself (wall clock): the setting's delay
        after the hand ended, whatever wakes the driver meanwhile; None while a seat is free
        or a hand is in play."""
        s = self.session
        hand = s.hand
        if hand is None or not hand.finished or not s.full:
            return None
        if self.finished_at is None or self.finished_at[0] != s.hand_number:
            self.finished_at = (s.hand_number, time.time())
        return self.finished_at[1] + self.bot.settings.next_hand_delay

    async def dealt(self) -> None:
        """A new hand was dealt: the last result stops offering Next hand (its button would
        only be refused now) and no longer counts down."""
        posted, self.result_post = self.result_post, None
        if posted is None:
            return
        number, result, message = posted
        s = self.session
        with self.public():
            embed = render.result_embed(s, result, number, dealt=True)
            view = render.result_view(s, number)
        try:
            await message.edit(embed=embed, view=view)
        except (discord.HTTPException, aiohttp.ClientError) as e:
            # The follow-up's token expired: through the channel, or leave it (logged).
            try:
                await self.bot.get_partial_messageable(s.channel_id).get_partial_message(
                    message.id).edit(embed=embed, view=view)
            except (discord.HTTPException, aiohttp.ClientError):
                log.info("table %s: the result of hand %s kept its Next hand (%r)", s.id,
                         number, e)

    # -- hand views ----------------------------------------------------------------------------

    def keep_hand_view(self, interaction: discord.Interaction[Any]) -> None:
        """The latest interaction behind a player's hand view, to refresh it on their turn."""
        self.hand_views[interaction.user.id] = Token(interaction, time.monotonic())

    def keep_table_token(self, interaction: discord.Interaction[Any]) -> None:
        """``interaction`` was answered with the table message (created or edited)."""
        self.table_token = Token(interaction, time.monotonic())

    def _live_table_token(self) -> Token | None:
        token = self.table_token
        if token is not None and token.expired:
            self.table_token = token = None
        return token

    async def refresh_hand_views(self, also: list[int] | None = None, *,
                                 only: list[int] | None = None) -> None:
        """Enable the cards of whoever must act now, in their open hand view (and redraw the
        views of the seats in ``also``; ``only``: just these seats)."""
        s = self.session
        hand = s.hand
        if hand is None:
            return
        seats = s.waiting_for_human()
        for seat in seats + [x for x in also or [] if x not in seats]:
            if self.closed or self.bot.tables.closing:
                return  # stopping: the HTTP session is about to close
            if only is not None and seat not in only:
                continue
            member = s.seats[seat]
            if member is None or is_computer(member):
                continue
            user_id = int(member)
            entry = self.hand_views.get(user_id)
            if entry is None:
                continue
            if entry.expired:
                del self.hand_views[user_id]
                continue
            # The hand in play now: the next one may have been dealt while earlier views
            # were being edited, and a view shows one hand under its own number.
            view = seat_view(s.hand or hand, seat)
            # The view is that player's: in their language.
            with speaking(language_of(entry.interaction.locale)):
                content, components, files = await self.hand_message(view)
            try:
                await entry.interaction.edit_original_response(
                    content=content, view=components, attachments=files)
            except discord.HTTPException as e:
                if isinstance(e, discord.NotFound | discord.Forbidden) or e.status == 401:
                    # An expired token or a deleted view: the player presses "My hand".
                    self.hand_views.pop(user_id, None)
                else:
                    # Rate limited or a Discord failure: keep the view for the next change.
                    log.warning("table %s: could not refresh a hand view (%s)", s.id,
                                e.status)
            except aiohttp.ClientError as e:
                # The connection dropped (the bot is stopping, or the network): the view is
                # redrawn on the next change or by My hand.
                log.warning("table %s: could not refresh a hand view (%r)", s.id, e)

    # -- after every change --------------------------------------------------------------------

    async def after(self, outcome: Outcome | None) -> None:
        """Show a change: the table message, the result, the views it touched; then wake the
        driver."""
        s = self.session
        # A computer move followed by another computer's turn is folded into the edit that
        # shows the next one: a run of computer moves costs one table edit, not one each.
        by_computer = outcome is not None and all(p.by_computer for p in outcome.played)
        hand = s.hand
        if not (by_computer and hand is not None and not hand.finished
                and not s.waiting_for_human()):
            self.request_refresh()
        finished = outcome is not None and outcome.result is not None
        if finished:
            await self.post_result()
        # The computer may have played for a person (timed out): their view changes too.
        played_for = [p.seat for p in (outcome.played if outcome else [])
                      if p.by_computer and not is_computer(s.seats[p.seat])]
        if outcome is not None and finished:
            # The hand is over: every person's open view says so (the one who clicked last
            # saw it in the answer to the click).
            clicked = {p.seat for p in outcome.played if not p.by_computer}
            played_for += [seat for seat, m in enumerate(s.seats)
                           if m is not None and not is_computer(m)
                           and seat not in clicked and seat not in played_for]
        await self.refresh_hand_views(played_for)
        self.kick()

    # -- the driver ----------------------------------------------------------------------------

    def kick(self) -> None:
        """The table changed: wake the driver (computer moves, the turn timer, the next
        hand), starting it if needed. A driver is never cancelled while it acts, so a move
        is always stored and applied together."""
        if self.closed or self.bot.tables.closing or self.session.state != "playing":
            return
        self.wake.set()
        if self.driver is None or self.driver.done():
            self.driver = self._spawn(self._drive())

    async def pause(self, seconds: float) -> bool:
        """Wait up to ``seconds``; True if the table changed meanwhile."""
        try:
            await asyncio.wait_for(self.wake.wait(), timeout=max(seconds, 0.0))
        except TimeoutError:
            return False
        return True

    async def _drive(self) -> None:
        """Look at the table, wait for what comes next, do it; start over whenever the table
        changes."""
        s, settings = self.session, self.bot.settings
        while s.state == "playing" and not self.closed:
            self.wake.clear()
            hand = s.hand
            if hand is None:
                return
            try:
                await self.unping()
                if hand.finished:
                    moment = self.next_deal_at()
                    if moment is None:
                        # A seat is free: look again later (the seat may be taken meanwhile).
                        await self.pause(settings.next_hand_delay)
                    elif not await self.until(moment):
                        self.acting = True
                        await s.next_hand()
                        self.request_refresh()
                        await self.dealt()
                elif s.waiting_for_human() and not s.computer_may_act():
                    if s.window_open():
                        await self.window_timer()
                    else:
                        await self.turn_timer()
                elif not await self.pause(settings.computer_delay):
                    self.acting = True
                    moved = len(hand.actions)
                    outcome = await s.computer_turn()
                    if outcome is not None:
                        await self.after(outcome)
                    elif len(hand.actions) != moved:
                        # A click came first while the computer thought; show it.
                        await self.after(None)
            except SessionError:
                continue  # somebody else moved first (e.g. Next hand was clicked)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: driver failed", s.id)
                await self.pause(5.0)
            finally:
                self.acting = False

    def _wait_key(self) -> tuple[Any, ...] | None:
        """What people are waited for now: a turn (the hand and its actions so far), an open
        window (the hand and its phase, whoever acts in it), or nothing."""
        s = self.session
        hand = s.hand
        if hand is None or not s.waiting_for_human() or s.computer_may_act():
            return None
        if s.window_open():
            return ("window", s.hand_number, hand.phase)
        return ("turn", s.hand_number, len(hand.actions))

    def wait_began(self) -> float | None:
        """When the wait for people began (wall clock), or None when nobody is waited for."""
        key = self._wait_key()
        if key is None:
            return None
        if self.clock is None or self.clock[0] != key:
            self.clock = (key, time.time())
        return self.clock[1]

    def deadline(self) -> float | None:
        """When the wait ends by itself (the computer plays, the window closes)."""
        start = self.wait_began()
        if start is None:
            return None
        s = self.session
        return start + (s.window_seconds if s.window_open() else s.turn_seconds)

    async def until(self, moment: float) -> bool:
        """Wait until ``moment`` (wall clock); True if the table changed meanwhile."""
        return await self.pause(moment - time.time())

    async def turn_timer(self) -> None:
        """A person is to act: ping them a few seconds in, warn at two thirds of the turn,
        then let the computer play (unless the table changes first). The turn's time runs
        from its start, whatever wakes the driver meanwhile."""
        s = self.session
        assert s.hand is not None
        start, key = self.wait_began(), self._wait_key()
        if start is None:
            return
        moved, total = len(s.hand.actions), s.turn_seconds
        if s.pings and (self.ping is None or self.ping[0] != self.turn()):
            if await self.until(start + min(self.bot.settings.ping_delay, total * 2 / 3)):
                return
            await self.ping_turn()
        if self.warned != key:
            if await self.until(start + total * 2 / 3):
                return
            await self.warn(max(0, round(start + total - time.time())))
            self.warned = key
        if not await self.until(start + total):
            self.acting = True
            try:
                await self.turn_timeout(moved)
            finally:
                self.acting = False

    async def window_timer(self) -> None:
        """An open window (the fris window): it closes by itself once the table's window
        time has passed since it opened, whoever has not acted by then."""
        s = self.session
        assert s.hand is not None
        deadline = self.deadline()
        if deadline is None or await self.until(deadline):
            return
        self.acting = True
        try:
            outcome = await s.close_window(len(s.hand.actions))
            if outcome is not None:
                await self.after(outcome)
        finally:
            self.acting = False

    async def turn_timeout(self, moved: int) -> None:
        """The turn timer ran out: the computer plays for the seat (if nothing moved since
        ``moved`` actions)."""
        s = self.session
        hand = s.hand
        if hand is None or len(hand.actions) != moved:
            return
        before = set(s.autoplay)
        outcome = await s.computer_turn(timed_out=True)
        for seat in s.autoplay - before:
            with self.public():
                text = t("turn.autoplay", user=render.seat_mention(s, seat))
            await self.say(text)
        if outcome is not None:
            await self.after(outcome)

    # -- pings -----------------------------------------------------------------------------------

    def turn(self) -> tuple[int, int]:
        """The turn in play: the hand and how many actions it has seen."""
        hand = self.session.hand
        return self.session.hand_number, 0 if hand is None else len(hand.actions)

    async def ping_turn(self) -> None:
        """Tell the people to act now that it is their turn: one message that pings only
        them, once a turn. Whoever has no hand view the bot can refresh (none opened, its
        token dead, the bot restarted) is told to press My hand."""
        s = self.session
        if not s.pings or (self.ping is not None and self.ping[0] == self.turn()):
            return
        await self.unping()
        people = [int(m) for seat in s.waiting_for_human()
                  if (m := s.seats[seat]) is not None and not is_computer(m)]
        if not people:
            return
        lines = []
        with self.public():
            for user_id in people:
                view = self.hand_views.get(user_id)
                key = "turn.ping" if view is not None and not view.expired else "turn.ping_view"
                lines.append(t(key, user=f"<@{user_id}>", button=t("btn.my_hand")))
        mentions = only_users(people)
        turn = self.turn()
        sent = await self.post(content="\n".join(lines), mentions=mentions)
        if sent is not None:
            self.ping = (turn, sent)

    async def unping(self) -> None:
        """Remove the ping of a turn that has moved on."""
        if self.ping is None or self.ping[0] == self.turn():
            return
        message = self.ping[1]
        self.ping = None
        try:
            await message.delete()
        except discord.NotFound:
            pass  # somebody removed it already
        except (discord.HTTPException, aiohttp.ClientError) as e:
            log.warning("table %s: could not remove a ping (%r)", self.id, e)

    async def warn(self, seconds: int) -> None:
        for seat in self.session.waiting_for_human():
            with self.public():
                text = t("turn.warning", user=render.seat_mention(self.session, seat),
                         seconds=seconds)
            await self.say(text)


@dataclass(frozen=True)
class _SnowflakeText:
    """A user id spelt as Discord's API schema spells snowflakes, a string of digits:
    discord.py sends ``AllowedMentions`` users as the ``.id`` it finds, and an int there
    is outside the schema (``SnowflakeType``)."""

    id: str


def only_users(user_ids: list[int]) -> discord.AllowedMentions:
    """Mentions that ping these users and nobody else (no role, no @everyone)."""
    users = cast(list[discord.abc.Snowflake], [_SnowflakeText(str(u)) for u in user_ids])
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=users)
