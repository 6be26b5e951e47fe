"""A table's Discord messages: the table message, results, the players' hand views, and the
turn's one live signal.

The surface hears the table's news from its courier (``bot.courier``) and shows it; a click's
own answer (the lobby or hand view redrawn on the message clicked, a question only its asker
sees) is drawn here too, for the cog to give (``answer_*``): the interaction's token is kept
as the table's or the player's. Public messages speak the server's language whoever's click
caused them (``@public``, the one place that sets it); a hand view speaks its holder's.
Delivery — tokens first, channel routes after, every failure handled — is ``bot.delivery``'s;
what a message shows is ``bot.present``'s and ``bot.render``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

import discord

from bot import names, present, render
from bot.courier import Change, Signal, Via
from bot.delivery import FAILURES, Delivery, Edit, Message, Sender, Token, describe
from bot.hand_views import HandViews
from bot.seats import is_computer
from bot.servers import Servers
from bot.session import TableSession
from bot.store import GuildSettings
from bot.texts import showing, speaking, t
from bot.turn_signal import TurnSignal
from bot.watch import WATCH_OFF, watch_at
from engine import HandResult, public_view

log = logging.getLogger(__name__)

#: A failed table edit is tried again after this pause (and the usual edit interval).
EDIT_RETRY_SECONDS = 2.0
#: Seconds a click's answer with the table message waits for an edit of it on its way.
EDIT_LANDS_SECONDS = 1.0


class Clock(Protocol):
    """The table's times, kept by its runner."""

    def deadline(self) -> float | None: ...
    def next_deal_at(self) -> float | None: ...


class Pages(Protocol):
    """The links of the bot's web pages (``bot.web.server.WebServer``), when it serves them."""

    async def table_link(self, guild_id: int, table_id: int) -> str | None: ...
    async def hand_link(self, guild_id: int, hand_id: int) -> str | None: ...


P = ParamSpec("P")
R = TypeVar("R")


def public(method: Callable[Concatenate[DiscordSurface, P], Coroutine[Any, Any, R]]
           ) -> Callable[Concatenate[DiscordSurface, P], Coroutine[Any, Any, R]]:
    """A method that draws public messages: in the server's language, whoever clicked, the
    cards named as the table's pictures show them."""
    @functools.wraps(method)
    async def speaking_publicly(self: DiscordSurface, /, *args: P.args,
                                **kwargs: P.kwargs) -> R:
        with speaking(self.servers.public_language(self.session.guild_id)), \
                showing(present.faces_shown(self.session, self.config)):
            return await method(self, *args, **kwargs)
    return speaking_publicly


@dataclass
class ResultPost:
    """The latest result post while it offers Next hand."""

    number: int
    result: HandResult
    message: Message
    #: The hand's replay page, when the bot serves pages.
    replay_url: str | None = None


class DiscordSurface:
    """The Discord side of one table (see the module docstring): its messages go through
    ``sender``, in its server's language and with its pictures (``servers``), with links to
    its ``pages`` when the bot serves them; ``activity``: the bot is a Discord Activity too
    (the table offers *Open the table*)."""

    def __init__(self, session: TableSession, clock: Clock, edit_interval: Callable[[], float],
                 *, sender: Sender, servers: Servers, pages: Pages | None = None,
                 activity: bool = False) -> None:
        self.session = session
        self.sender = sender
        self.servers = servers
        self.pages = pages
        self.activity = activity
        self.clock = clock
        self._edit_interval = edit_interval
        self.delivery = Delivery(sender, session.id, session.channel_id)
        self.delivery.thread_id = session.thread_id
        self.stopped = False
        self.refresher: asyncio.Task[None] | None = None
        self.dirty = False
        self.last_edit = -1e9
        self.shown: present.Shown | None = None
        #: How many times a click was answered with the table message (``_answered``): an
        #: edit on its way meanwhile may land after that answer and show what was before.
        self.answers = 0
        #: Clear while the refresh loop's edit of the table message is on its way.
        self._edit_landed = asyncio.Event()
        self._edit_landed.set()
        #: The digest of the picture the table message carries ("unknown" after a restart).
        self.picture: str | None = "unknown"
        #: The last hand whose result was posted.
        self.posted = 0
        self.result_post: ResultPost | None = None
        #: The players' open hand views (``bot.hand_views``).
        self.views = HandViews(session, self.delivery, clock.deadline, lambda: self.config)
        #: The turn's one live signal (``bot.turn_signal``).
        self.turn_signal = TurnSignal(session, self.delivery, self.views.is_open)
        #: The closing words the table message shows already (a click answered with them).
        self.final: str | None = None
        self._watch_url: str | None = None
        #: Held while the table is posted anew: a click that arrives before the bot knows
        #: the new message's id waits for it instead of being refused as a stranger's.
        self._posting = asyncio.Lock()

    @property
    def hand_views(self) -> dict[int, Token]:
        """The players' open hand views' tokens, by user id."""
        return self.views.tokens

    @property
    def config(self) -> GuildSettings:
        return self.servers.config(self.session.guild_id)

    def stop(self) -> None:
        self.stopped = True
        if self.refresher is not None and self.refresher is not asyncio.current_task():
            self.refresher.cancel()
        self.refresher = None
        self.views.stop()
        self.delivery.forget()
        self.shown = None

    def tasks(self) -> list[asyncio.Task[None]]:
        return [] if self.refresher is None or self.refresher.done() else [self.refresher]

    # -- the courier's news --------------------------------------------------------------------

    async def changed(self, change: Change) -> None:
        """Show a change: the table message, the result, the views it touched."""
        s = self.session
        await self.unsignal()
        # A computer move followed by another computer's turn is folded into the edit that
        # shows the next one: a run of computer moves costs one table edit, not one each.
        played = change.played
        by_computer = bool(played) and all(p.by_computer for p in played)
        hand = s.hand
        if not (by_computer and hand is not None and not hand.finished
                and not s.waiting_for_human()):
            self.request_refresh()
        if change.finished:
            await self.post_result()
        # The computer may have played for a person (timed out): their view changes too.
        redraw = [p.seat for p in played if p.by_computer and not is_computer(s.seats[p.seat])]
        # The person whose request it was sees it in their own view, unless the click that
        # made it was answered with that view: a move from the Activity, a seat handed to the
        # computer (answered on the question, not on the view).
        answered = change.via is Via.DISCORD and not change.left
        if change.seat is not None and not answered and change.seat not in redraw:
            redraw.append(change.seat)
        if change.finished:
            # The hand is over: every person's open view says so (the one who clicked last
            # saw it in the answer to the click).
            clicked = {p.seat for p in played if not p.by_computer} if answered else set()
            redraw += [seat for seat, m in enumerate(s.seats)
                       if m is not None and not is_computer(m)
                       and seat not in clicked and seat not in redraw]
        await self.views.refresh(redraw)

    @public
    async def dealt(self, change: Change) -> None:
        """A new hand: the last result stops offering Next hand (its button would only be
        refused now) and no longer counts down; the table message shows the new hand, unless
        the click that dealt it was answered with it."""
        await self.unsignal()
        await self._retire_result()
        if change.via is not Via.DISCORD:
            self.request_refresh()

    async def _retire_result(self) -> None:
        """The last result stops offering Next hand and counting down (a new hand was dealt,
        or the table closed)."""
        posted, self.result_post = self.result_post, None
        if posted is None:
            return
        s = self.session
        embed = render.result_embed(s, posted.result, posted.number, dealt=True)
        view = render.result_view(s, posted.number, replay_url=posted.replay_url,
                                  result=posted.result)
        await self.delivery.edit_sent(
            posted.message, what=f"take Next hand off the result of hand {posted.number}",
            embed=embed, view=view)

    @public
    async def answer_dealt(self, interaction: discord.Interaction[Any]) -> None:
        """Answer Next hand pressed under the result by saying, on the result, that the
        next hand is dealt (the table message is redrawn where it is)."""
        posted, self.result_post = self.result_post, None
        if posted is None:
            await interaction.response.defer()
        else:
            await interaction.response.edit_message(
                embed=render.result_embed(self.session, posted.result, posted.number,
                                          dealt=True),
                view=render.result_view(self.session, posted.number,
                                        replay_url=posted.replay_url, result=posted.result))
        self.request_refresh()

    @public
    async def signal(self, signal: Signal, seconds: int) -> None:
        """The turn's one live signal (``bot.turn_signal``)."""
        await self.turn_signal.post(signal, seconds)

    @public
    async def notice(self, key: str, seat: int) -> None:
        await self.delivery.post(content=t(key, user=names.seat_mention(self.session, seat)),
                                 what="post a notice")

    @public
    async def closed(self, key: str) -> None:
        """The table message says the table is over; its thread is archived."""
        await self.unsignal(force=True)
        await self._retire_result()
        s = self.session
        if s.message_id is not None and self.final != key:
            await self.delivery.edit_table(s.message_id, content=t(key), embed=None,
                                           view=None, attachments=[])
        await self.close_thread()

    @public
    async def answer_closed(self, interaction: discord.Interaction[Any], key: str) -> None:
        """Answer the click that closes the table with the closing words, on its message."""
        await interaction.response.edit_message(content=t(key), embed=None, view=None,
                                                attachments=[])
        self.final = key

    async def unsignal(self, *, force: bool = False) -> None:
        """Remove the signal of a turn that has moved on (``force``: any)."""
        await self.turn_signal.remove(force=force)

    # -- the table message ---------------------------------------------------------------------

    def request_refresh(self) -> None:
        """The table changed: its message is edited soon (at most once per edit interval)."""
        if self.stopped or self.session.state == "closed":
            return
        self.dirty = True
        if self.refresher is None or self.refresher.done():
            self.refresher = asyncio.get_running_loop().create_task(self._refresh_loop())

    @public
    async def _refresh_loop(self) -> None:
        s = self.session
        while self.dirty and not self.stopped and s.state != "closed":
            wait = self.last_edit + self._edit_interval() - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.dirty = False
            answers = self.answers
            hand = s.hand
            if self.stopped:
                return  # the table was ended meanwhile
            self._edit_landed.clear()
            try:
                if hand is None:
                    if s.state != "lobby":
                        return
                    edited = await self._edit_lobby()
                else:
                    message = await present.table_message(
                        s, public_view(hand), self.clock.deadline(), self.config,
                        await self.watch_url(), self.activity)
                    edited = await self._edit_table(message)
            finally:
                self._edit_landed.set()
            if self.answers != answers and not self.stopped:
                # A click was answered with the message while this edit was on its way (the
                # Start under a lobby being redrawn): the edit may have landed last, showing
                # what was before. Drawn again as it is now.
                self.shown = None
                self.dirty = True
            self.last_edit = time.monotonic()
            if not edited:
                self.dirty = True
                await asyncio.sleep(EDIT_RETRY_SECONDS)

    def _attachments(self, picture: tuple[str, discord.File] | None) -> dict[str, Any]:
        """Upload the picture only when it changed; remove one no longer wanted."""
        digest = picture[0] if picture else None
        if picture is not None and digest != self.picture:
            return {"attachments": [picture[1]]}
        if picture is None and self.picture is not None:
            return {"attachments": []}
        return {}

    async def _edit_table(self, message: present.TableMessage) -> bool:
        """Edit the table message, unless it shows exactly this already. False: the edit
        failed and should be tried again."""
        s = self.session
        if s.message_id is None:
            return True
        shown = message.shown
        if self.shown == shown:
            return True
        fields = dict(content=message.content, embed=message.embed, view=message.view,
                      **self._attachments(message.picture))
        done = await self.delivery.edit_table(s.message_id, **fields)
        if done is Edit.FAILED:
            return False
        if done is Edit.GONE:
            # The table message was deleted: post a new one and keep playing there.
            if message.picture is not None:
                message.picture[1].reset()
            sent = await self.delivery.send(
                s.channel_id, content=message.content or None, embed=message.embed,
                view=message.view, file=message.picture[1] if message.picture else None,
                what="post the table again")
            if sent is None:
                return False
            s.message_id = sent.id
            await s.store.update_table(s.id, message_id=sent.id)
        self.shown = shown
        self.picture = shown.picture
        return True

    def _lobby(self) -> tuple[discord.Embed, discord.ui.View, present.Shown]:
        s = self.session
        embed, view = render.lobby_embed(s), render.lobby_view(s)
        return embed, view, present.Shown.of(None, embed.to_dict(), view.to_components(), None)

    async def _edit_lobby(self) -> bool:
        """Redraw the lobby on its message, unless it shows exactly this already (a click
        on it was answered with it); a change from elsewhere (``/play`` seated somebody)
        shows so. False: the edit failed and should be tried again."""
        s = self.session
        embed, view, shown = self._lobby()
        if s.message_id is None or self.shown == shown:
            return True
        done = await self.delivery.edit_table(s.message_id, embed=embed, view=view)
        if done is Edit.FAILED:
            return False
        self.shown = shown
        return True

    async def _after_edit(self) -> None:
        """Before a click is answered with the table message: let an edit of it that is on
        its way land first (briefly: the answer has Discord's 3 s), so that the answer is
        what the message shows last. One that takes longer is drawn again after it
        (``answers``)."""
        if not self._edit_landed.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._edit_landed.wait(), EDIT_LANDS_SECONDS)

    def _answered(self, interaction: discord.Interaction[Any],
                  message: present.TableMessage | None) -> None:
        self.delivery.keep(interaction)
        self.last_edit = time.monotonic()
        self.answers += 1
        if message is not None:
            self.picture = message.picture[0] if message.picture else None
            self.shown = message.shown

    @public
    async def redraw(self) -> None:
        """Show the table as it is now on its message without an interaction to answer: a
        click changed it, and its answer (the redrawn message) came too late for Discord."""
        s = self.session
        if self.stopped or s.state == "closed" or s.message_id is None:
            return
        if s.hand is not None:
            self.request_refresh()  # edited unless it shows this already
            return
        embed, view, shown = self._lobby()
        if await self.delivery.edit_table(s.message_id, embed=embed, view=view) is Edit.DONE:
            self.shown = shown

    @public
    async def answer_with_lobby(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a lobby click by redrawing the lobby on its message."""
        embed, view, shown = self._lobby()
        await self._after_edit()
        await interaction.response.edit_message(embed=embed, view=view)
        self.delivery.keep(interaction)
        self.answers += 1
        self.shown = shown

    @public
    async def answer_with_table(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a click on the table message by redrawing it (a new hand, the start, a
        change of seats between hands)."""
        s = self.session
        if s.hand is None:
            await self.answer_with_lobby(interaction)
            return
        message = await present.table_message(s, public_view(s.hand), self.clock.deadline(),
                                              self.config, await self.watch_url(),
                                              self.activity)
        extra = self._attachments(message.picture)
        if self.picture == "unknown" and message.picture is None:
            extra = {}  # the lobby never carries a picture
        await self._after_edit()
        await interaction.response.edit_message(content=message.content, embed=message.embed,
                                                view=message.view, **extra)
        self._answered(interaction, message)

    @public
    async def post_again(self, interaction: discord.Interaction[Any]) -> None:
        """Post the table again as the answer to ``interaction`` (``/table show``, Next hand
        under a result): play goes on there, and the old message says where it went."""
        s = self.session
        old_id, old_token = s.message_id, self.delivery.token
        async with self._posting:
            message_id = await self._post_again(interaction)
        if old_id is None:
            return
        link = f"https://discord.com/channels/{s.guild_id}/{s.channel_id}/{message_id}"
        await self.delivery.edit(old_id, token=old_token, what="point the old table on",
                                 content=t("table.moved", link=link), embed=None, view=None,
                                 attachments=[])

    async def settled(self) -> None:
        """Return once no new table message is being posted (its id is then known)."""
        async with self._posting:
            pass

    async def _post_again(self, interaction: discord.Interaction[Any]) -> int:
        s = self.session
        message = None
        if s.hand is None:
            sent = await interaction.response.send_message(embed=render.lobby_embed(s),
                                                           view=render.lobby_view(s))
        else:
            message = await present.table_message(s, public_view(s.hand),
                                                  self.clock.deadline(), self.config,
                                                  await self.watch_url(), self.activity)
            sent = await interaction.response.send_message(
                message.content or None, embed=message.embed, view=message.view,
                file=message.picture[1] if message.picture else discord.utils.MISSING)
        message_id = sent.message_id
        if message_id is None:
            message_id = (await interaction.original_response()).id
        s.message_id = message_id
        self._answered(interaction, message)
        if message is None:
            self.shown, self.picture = self._lobby()[2], None
        await s.store.update_table(s.id, message_id=message_id)
        return message_id

    async def open_in(self, interaction: discord.Interaction[Any]) -> None:
        """A new table's first message, as the answer to the command that opened it (and
        its own thread, when it was opened with one)."""
        await self.post_again(interaction)
        if self.session.row.settings.get("thread"):
            await self.open_thread()

    @public
    async def post_in_channel(self) -> bool:
        """Post the table as a new message of its channel, with no interaction to answer (a
        tournament's table in its thread); False if it could not be posted."""
        s = self.session
        assert s.hand is not None
        message = await present.table_message(s, public_view(s.hand), self.clock.deadline(),
                                              self.config, await self.watch_url(),
                                              self.activity)
        sent = await self.delivery.send(
            s.channel_id, content=message.content or None, embed=message.embed,
            view=message.view, file=message.picture[1] if message.picture else None,
            what="post the table")
        if sent is None:
            return False
        s.message_id = sent.id
        self.last_edit = time.monotonic()
        self.shown, self.picture = message.shown, message.shown.picture
        await s.store.update_table(s.id, message_id=sent.id)
        return True

    async def watch_url(self) -> str | None:
        """The table's live page while the bot serves pages and the table may be watched
        there (``bot.watch.watch_at``; the link is asked for once a table: it is signed with
        the server's key)."""
        pages, s = self.pages, self.session
        if pages is None or watch_at(s.row.settings, home=s.row.guild_id, server=s.guild_id,
                                     watched_across=self.config.watch_across) == WATCH_OFF:
            return None
        if self._watch_url is None:
            self._watch_url = await pages.table_link(self.session.guild_id, self.session.id)
        return self._watch_url

    # -- results -------------------------------------------------------------------------------

    @public
    async def post_result(self) -> None:
        s = self.session
        hand = s.hand
        if self.posted >= s.hand_number or hand is None or hand.result is None:
            return
        self.posted = s.hand_number
        pages = self.pages
        url = None if pages is None or s.hand_id is None else await pages.hand_link(
            s.guild_id, s.hand_id)
        embed = render.result_embed(s, hand.result, s.hand_number,
                                    next_at=self.clock.next_deal_at())
        view = render.result_view(s, s.hand_number, next_hand=True, replay_url=url,
                                  result=hand.result)
        message = await self.delivery.post(embed=embed, view=view, what="post a result")
        if message is not None:
            self.result_post = ResultPost(s.hand_number, hand.result, message, url)

    # -- the table's thread --------------------------------------------------------------------

    @public
    async def open_thread(self) -> None:
        """Start the table's own public thread on its message: results, signals and notices
        go there, so the channel keeps only the table. Without the permission (or on any
        failure) the table plays in the channel as usual (logged)."""
        s = self.session
        if s.message_id is None:
            return
        name = t("table.thread_name", game=render.title(s), number=s.id)
        try:
            thread = await self.sender.http.start_thread_with_message(
                s.channel_id, s.message_id, name=name[:100], auto_archive_duration=1440)
        except FAILURES as e:
            log.warning("table %s: could not open its thread (%s); playing in the channel",
                        s.id, describe(e))
            return
        await s.keep(thread_id=int(thread["id"]))
        self.delivery.thread_id = int(thread["id"])

    async def close_thread(self) -> None:
        """The table closed: its thread is archived (and locked: play there is over)."""
        thread_id = self.session.thread_id
        if thread_id is None:
            return
        try:
            await self.sender.http.edit_channel(thread_id, archived=True, locked=True)
        except FAILURES as e:
            log.info("table %s: its thread was not archived (%s)", self.session.id,
                     describe(e))
