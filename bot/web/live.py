"""Live tables: the steps of each watched table, and the sockets they are sent to.

``Feed.changed(table_id)`` is the one call the bot makes (its courier, after every stored
change of a table: a move, a deal, a seat, the table closed). It goes out on the bus
(``bot.web.bus``), so that every process serving a page of that table hears it; each such
process reads the table and its current hand **from the store** (never from the process that
drives the table) and replays the new actions with the engine, building one step per
action from the public view (``bot.web.views``). The steps of a table are built once per
process, whatever the number of its spectators, and each socket is sent the steps after the
last one it has: a page that reconnects (to this process or another) says which step it has
(``resume``) and misses nothing.

A table watched ``delayed`` is sent steps only up to the last trick taken (or the choices
before play, or the end of the hand): the trick in progress appears once it is complete.

A socket of the table's channel's Activity (``Subscriber.activity``: its user proven by
``bot.web.activity``) sees what the channel sees — every step at once, whatever the table's
``watch`` — and, while its user holds a seat in the hand, that seat's own part with each
step (``bot.web.seatview``), built per seat and sent to that user's sockets only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.seats import user_member
from bot.store import HandRow, Store, TableRow
from bot.texts import showing, speaking
from bot.voice import say
from bot.voice.table import Table
from bot.voice.wire import spans
from bot.watch import WATCH_DELAYED, WATCH_OFF, WATCH_PUBLIC, WatchMode
from bot.web import protocol
from bot.web.bus import Bus
from bot.web.guilds import GuildConfigs
from bot.web.keys import Keys, Kind
from bot.web.protocol import Mine, SeatStatus, TableState, Viewer
from bot.web.seatview import seat_state
from bot.web.views import Step, lobby_state, step
from engine import Hand, action_from_json
from engine.hand import PLAYING
from engine.record import start

log = logging.getLogger(__name__)

#: Messages waiting for one socket before it is given up (the page reconnects and resumes).
QUEUE_LIMIT = 256


@dataclass(eq=False)
class Subscriber:
    """One socket watching one table."""

    table_id: int
    guild_id: int
    token: str
    viewer: Viewer
    #: The last step sent: (hand id, actions) — hand 0 is the lobby.
    hand: int | None = None
    at: int = -1
    ready: bool = False
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    closed: bool = False
    #: A socket of the table's channel's Activity (see the module docstring).
    activity: bool = False
    #: The language of this socket's own answers (refusals, hints): its user's.
    lang: str | None = None
    #: What the live side said of the user's seat when last sent (``Feed.status``).
    status: dict[str, Any] | None = None

    def send(self, text: str | None) -> None:
        """Queue a message (None: close after what is queued). A page too slow to take its
        messages is closed; it reconnects and resumes where it was."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(None)
        if text is None:
            self.closed = True


class HandSteps:
    """The steps of one hand as this process has built them (index: number of actions)."""

    def __init__(self, row: HandRow, table: TableRow, lang: str, faces: str = "german"
                 ) -> None:
        self.id = row.id
        self.number = row.number
        self.lang = lang
        #: The faces the cards are named by (``bot.texts.showing``): those the pages draw.
        self.faces = faces
        #: Who sat where in the hand, and their names (the voice's ``Table``).
        self.table = Table.from_rows(table, row)
        with speaking(lang), showing(faces):
            self.hand: Hand = start(row.record())
            self.steps: list[Step] = [step(self.table, self.hand)]
        #: Actions a delayed spectator sees (``bot.web.views.trick_ends``).
        self.boundary = 0
        self._tricks, self._phase = 0, self.hand.phase
        self._record = row.record()
        self._applied: list[dict[str, Any]] = []
        #: Each watched seat's own part after each action (built once a player of the seat
        #: is watching: ``mine``).
        self._mine: dict[int, list[Mine]] = {}

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` holds in this hand (as dealt), if any."""
        if user_id is None:
            return None
        seats = self.table.seats
        member = user_member(user_id)
        return seats.index(member) if member in seats else None

    def mine(self, seat: int, at: int) -> Mine:
        """Seat ``seat``'s own part after ``at`` actions (the hand replayed once for a seat
        first watched in the middle of it)."""
        if seat not in self._mine:
            with speaking(self.lang), showing(self.faces):
                hand = start(self._record)
                built = [seat_state(self.table, hand, seat)]
                for obj in self._applied:
                    hand.apply(obj["seat"], action_from_json(obj))
                    built.append(seat_state(self.table, hand, seat))
            self._mine[seat] = built
        return self._mine[seat][at]

    def extend(self, actions: list[dict[str, Any]]) -> None:
        """Build the steps of the actions not built yet."""
        with speaking(self.lang), showing(self.faces):
            for obj in actions[len(self.steps) - 1:]:
                self.hand.apply(obj["seat"], action_from_json(obj))
                self._applied.append(obj)
                self.steps.append(step(self.table, self.hand))
                for seat, built in self._mine.items():
                    built.append(seat_state(self.table, self.hand, seat))
                hand = self.hand
                if len(hand.tricks) != self._tricks or hand.finished or (
                        hand.phase == PLAYING and self._phase != PLAYING):
                    self.boundary = len(self.steps) - 1
                self._tricks, self._phase = len(hand.tricks), hand.phase

    @property
    def at(self) -> int:
        return len(self.steps) - 1

    def visible(self, watch: str) -> int:
        return self.boundary if watch == WATCH_DELAYED else self.at


async def snapshot(store: Store, table: TableRow, lang: str, watch: WatchMode,
                   deadline: float | None = None, faces: str = "german") -> protocol.Step:
    """The step a page opens with (a ``step`` message, with no move): the table as its
    spectators may see it now (``watch``: as the page's server shows it), its cards named as
    ``faces`` show them."""
    row = await store.current_hand(table.id)
    if row is None:
        with speaking(lang):
            lobby = lobby_state(Table.from_rows(table))
        return protocol.Step(hand=0, number=0, at=0, deadline=None, move=None, state=lobby)
    hs = HandSteps(row, table, lang, faces)
    hs.extend(row.actions)
    at = hs.visible(watch)
    delayed = watch == WATCH_DELAYED
    return protocol.Step(
        hand=hs.id, number=hs.number, at=at, state=hs.steps[at].state, move=None,
        delayed=delayed, now=time.time(), deadline=None if delayed or at != hs.at else deadline)


class TableFeed:
    """One watched table in this process: its steps, its sockets, and a task that brings
    the steps up to date whenever the table changes (changes that come while it works are
    folded into one more round)."""

    def __init__(self, feed: Feed, table_id: int, guild_id: int) -> None:
        self.feed = feed
        self.table_id = table_id
        self.guild_id = guild_id
        self.subscribers: set[Subscriber] = set()
        self.current: HandSteps | None = None
        self.lobby: TableState | None = None
        self.watch = WATCH_DELAYED
        self.deadline: float | None = None
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        #: Set once the first round has loaded the table (sockets wait for it).
        self.loaded = asyncio.Event()
        #: A round is under way.
        self.busy = False
        #: Step messages made in this round of sending, by (hand, at, snapshot, deadline,
        #: watch, seat).
        self._made: dict[tuple[int, int, bool, float | None, str, int | None], str] = {}

    def kick(self) -> None:
        self.wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run(), name=f"web table {self.table_id}")

    async def _run(self) -> None:
        while self.subscribers:
            self.wake.clear()
            self.busy = True
            try:
                await self.refresh()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("web: table %s could not be brought up to date", self.table_id)
            finally:
                self.busy = False
                self.loaded.set()
            if not self.wake.is_set():
                await self.wake.wait()

    async def refresh(self) -> None:
        store = self.feed.store
        table = await store.get_table(self.table_id)
        if table is None:
            self._all_gone("closed")
            return
        self.watch = await self.feed.guilds.watch(self.guild_id, table)
        await self._check_tokens()
        if self.watch == WATCH_OFF:
            # The pages close; the channel's Activity sees what the channel sees.
            self._all_gone("off", pages_only=True)
            if not self.subscribers:
                return
        lang = await self.feed.guilds.language(self.guild_id)
        faces = await self.feed.guilds.faces(self.guild_id, table.game)
        row = await store.current_hand(self.table_id)
        if row is None:
            self.current = None
            with speaking(lang):
                self.lobby = lobby_state(Table.from_rows(table))
        else:
            self.lobby = None
            if self.current is not None and self.current.id != row.id:
                await self._finish_old(self.current)
            if self.current is None or self.current.id != row.id or (
                    self.current.lang, self.current.faces) != (lang, faces):
                self.current = HandSteps(row, table, lang, faces)
            self.current.extend(row.actions)
        self.push()
        if table.state == "closed":
            self._all_gone("closed")

    async def _finish_old(self, old: HandSteps) -> None:
        """The hand the sockets were watching has been followed by another: send them its
        last steps first (it is over: all of it is public)."""
        row = await self.feed.store.hand(old.id)
        if row is None:
            return
        old.extend(row.actions)
        # Over, surely (a hand is dealt only after the last one ended) — but only what the
        # watch mode allows is sent if it were not.
        for sub in self.subscribers:
            upto = old.at if old.hand.finished else self._upto(sub, old)
            if sub.ready and sub.hand == old.id and sub.at < upto:
                self._send_steps(sub, old, upto)

    async def _check_tokens(self) -> None:
        keys = self.feed.keys
        for sub in list(self.subscribers):
            if sub.activity:
                good = self.feed.tickets is not None and await self.feed.tickets(sub)
            else:
                good = await keys.verify(Kind.TABLE, sub.token, self.table_id) is not None
            if not good:
                sub.send(protocol.dump(protocol.Gone(reason="revoked")))
                sub.send(None)
                self.subscribers.discard(sub)

    def _all_gone(self, reason: protocol.GoneReason, *, pages_only: bool = False) -> None:
        for sub in list(self.subscribers):
            if pages_only and sub.activity:
                continue
            sub.send(protocol.dump(protocol.Gone(reason=reason)))
            sub.send(None)
            self.subscribers.discard(sub)

    def _upto(self, sub: Subscriber, hs: HandSteps) -> int:
        """The last step of ``hs`` that ``sub`` may see now."""
        return hs.at if sub.activity else hs.visible(self.watch)

    def notice(self, key: str, seat: int) -> None:
        """A public notice of the table, to its Activity's sockets (the pages show none)."""
        hs = self.current
        if hs is None or not 0 <= seat < len(hs.table.seats):
            return
        with speaking(hs.lang), showing(hs.faces):
            text = spans(say(key, user=hs.table.player(seat)))
        message = protocol.dump(protocol.Notice.model_validate(
            {"key": key, "seat": seat, "text": text}))
        for sub in self.subscribers:
            if sub.activity and sub.ready:
                sub.send(message)

    # -- sending -------------------------------------------------------------------------

    def message(self, hs: HandSteps, at: int, *, snapshot: bool, sub: Subscriber) -> str:
        """A step as sent to ``sub`` (made once for all the table's sockets that see it
        alike: the pages, the Activity's spectators, each seat's player)."""
        watch = WATCH_PUBLIC if sub.activity else self.watch
        seat = hs.seat_of(sub.viewer.user_id) if sub.activity else None
        key = (hs.id, at, snapshot, self.deadline, watch, seat)
        text = self._made.get(key)
        if text is None:
            text = self._made[key] = self._message(hs, at, snapshot=snapshot, watch=watch,
                                                   seat=seat)
        if seat is not None and at == hs.at:
            sub.status = self._status(seat)
        return text

    def _status(self, seat: int) -> dict[str, Any]:
        return {} if self.feed.status is None else self.feed.status(self.table_id, seat)

    def _seat_status(self, seat: int) -> SeatStatus:
        said = self._status(seat)
        return SeatStatus(autoplay=said.get("autoplay"), left=said.get("left"))

    def _message(self, hs: HandSteps, at: int, *, snapshot: bool, watch: str,
                 seat: int | None) -> str:
        s = hs.steps[at]
        delayed = watch == WATCH_DELAYED
        deadline = None if delayed or at != hs.at else self.deadline
        move = None if snapshot else s.move
        if seat is None:
            return protocol.dump(protocol.Step(
                hand=hs.id, number=hs.number, at=at, state=s.state, move=move,
                delayed=delayed, now=time.time(), deadline=deadline))
        mine = hs.mine(seat, at).model_copy(update={
            "status": self._seat_status(seat) if at == hs.at else SeatStatus()})
        return protocol.dump(protocol.Step(
            hand=hs.id, number=hs.number, at=at, state=s.state, move=move, now=time.time(),
            deadline=deadline, mine=mine))

    def lobby_message(self) -> str:
        assert self.lobby is not None
        return protocol.dump(protocol.Step(hand=0, number=0, at=0, state=self.lobby,
                                           move=None, deadline=None))

    def _send_steps(self, sub: Subscriber, hs: HandSteps, upto: int) -> None:
        if sub.hand != hs.id and sub.at >= 0:
            # A new hand to a socket that showed the one before (or the lobby): the deal,
            # then each move as it came, so that a move made right after the deal gets its
            # line instead of being folded into the new hand's first picture (issue 44).
            sub.send(self.message(hs, 0, snapshot=True, sub=sub))
            for at in range(1, upto + 1):
                sub.send(self.message(hs, at, snapshot=False, sub=sub))
        elif sub.hand != hs.id or sub.at < 0:
            sub.send(self.message(hs, upto, snapshot=True, sub=sub))
        else:
            for at in range(sub.at + 1, upto + 1):
                sub.send(self.message(hs, at, snapshot=False, sub=sub))
        sub.hand, sub.at = hs.id, upto

    def push(self, only: Subscriber | None = None) -> None:
        """Send every ready socket what it lacks."""
        targets = [only] if only is not None else list(self.subscribers)
        hs = self.current
        self._made.clear()  # made for this round only: their ``now`` is the server's now
        for sub in targets:
            if not sub.ready:
                continue
            if hs is None:
                if self.lobby is not None:
                    sub.send(self.lobby_message())
                    sub.hand, sub.at = 0, 0
                continue
            upto = self._upto(sub, hs)
            if sub.hand == hs.id and sub.at >= upto:
                seat = hs.seat_of(sub.viewer.user_id) if sub.activity else None
                if seat is not None and sub.status != self._status(seat):
                    # The seat's state changed without a move (the player is back from
                    # the computer, has left): the step again, redrawn.
                    sub.send(self.message(hs, hs.at, snapshot=True, sub=sub))
                elif only is None and sub.at == hs.at and (
                        sub.activity or self.watch != WATCH_DELAYED):
                    sub.send(protocol.dump(protocol.Clock(deadline=self.deadline,
                                                          now=time.time())))
                continue
            self._send_steps(sub, hs, upto)

    async def resume(self, sub: Subscriber, hand: int | None, at: int) -> None:
        """A socket says which step it has; send it the rest."""
        await self.loaded.wait()
        hs = self.current
        if hand is not None and hs is not None and hand != hs.id and hand != 0:
            await self._catch_up(sub, hand, at)
        elif hand is not None and hs is not None and hand == hs.id:
            sub.hand, sub.at = hand, min(at, self._upto(sub, hs))
        else:
            sub.hand, sub.at = None, -1
        sub.ready = True
        self.push(sub)

    async def _catch_up(self, sub: Subscriber, hand_id: int, at: int) -> None:
        """The rest of an earlier hand of this table (finished: all public) before the
        current one."""
        row = await self.feed.store.hand(hand_id)
        if row is None or row.table_id != self.table_id or row.result is None:
            return
        table = await self.feed.store.get_table(self.table_id)
        if table is None:
            return
        old = HandSteps(row, table, await self.feed.guilds.language(self.guild_id),
                        await self.feed.guilds.faces(self.guild_id, table.game))
        old.extend(row.actions)
        sub.hand, sub.at = old.id, min(at, old.at)
        self._send_steps(sub, old, old.at)
        sub.hand, sub.at = None, -1

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()


class Feed:
    """Every watched table of this process, and the bus that tells it when they change."""

    def __init__(self, store: Store, bus: Bus, keys: Keys, guilds: GuildConfigs) -> None:
        self.store = store
        self.bus = bus
        self.keys = keys
        self.guilds = guilds
        #: Each watched table, by table and by the server whose pages show it (a table
        #: across servers is shown in each server's language and pictures).
        self.tables: dict[tuple[int, int], TableFeed] = {}
        #: Called for each message heard (tests and the benchmark watch the bus with it).
        self.observers: list[Callable[[str], None]] = []
        #: Whether an Activity socket's ticket still holds (``bot.web.activity``).
        self.tickets: Callable[[Subscriber], Awaitable[bool]] | None = None
        #: What the table's live side says of a seat (``{"autoplay": …, "left": …}``), in
        #: the process that drives it (``bot.web.activity.Play.status``).
        self.status: Callable[[int, int], dict[str, Any]] | None = None
        #: When the wait for a table's people ends, known to the process that drives it: a
        #: table first watched here counts down at once (``Play.deadline``).
        self.deadline: Callable[[int], float | None] | None = None

    async def start(self) -> None:
        await self.bus.start(self._heard)

    async def stop(self) -> None:
        await self.bus.stop()
        for tf in list(self.tables.values()):
            # Not "gone": the table lives on; its pages connect to another process.
            for sub in tf.subscribers:
                sub.send(None)
            tf.subscribers.clear()
            tf.stop()
        self.tables.clear()

    # -- what the bot calls ----------------------------------------------------------------

    async def changed(self, table_id: int, deadline: float | None = None) -> None:
        """Table ``table_id`` changed in the store (call it after every stored change: a
        move, a deal, seats, closing). ``deadline``: when the wait for its people ends by
        itself (wall clock), if a wait runs — the pages count it down."""
        message = f"t:{table_id}" if deadline is None else f"t:{table_id}:{deadline:.3f}"
        await self.bus.publish(message)

    async def notice(self, table_id: int, key: str, seat: int) -> None:
        """A public notice of the table (``turn.left``, ``turn.autoplay``), for its
        Activity."""
        await self.bus.publish(f"n:{table_id}:{seat}:{key}")

    async def key_changed(self, guild_id: int) -> None:
        """A server's key was rotated or its pages switched: every process forgets the key
        it knew, and closes the sockets whose link is no longer good."""
        await self.bus.publish(f"k:{guild_id}")

    async def settings_changed(self, guild_id: int) -> None:
        """A server's settings changed (``/admin``): every process reads them again at once
        (not a minute later) and brings that server's pages up to date — closes them, if
        it keeps its tables across servers off them now."""
        await self.bus.publish(f"s:{guild_id}")

    # -- what the bus brings -------------------------------------------------------------

    def _heard(self, message: str) -> None:
        for observer in self.observers:
            observer(message)
        kind, _, rest = message.partition(":")
        try:
            if kind == "t":
                ident, _, when = rest.partition(":")
                for tf in self.feeds_of(int(ident)):
                    tf.deadline = float(when) if when else None
                    tf.kick()
            elif kind == "n":
                ident, seat, key = rest.split(":", 2)
                for tf in self.feeds_of(int(ident)):
                    tf.notice(key, int(seat))
            elif kind in ("k", "s"):
                guild_id = int(rest)
                if kind == "k":
                    self.keys.forget(guild_id)
                else:
                    self.guilds.forget()
                for tf in self.tables.values():
                    if tf.guild_id == guild_id:
                        tf.kick()
        except ValueError:
            log.warning("web: a bus message not understood: %r", message[:80])

    # -- sockets -------------------------------------------------------------------------

    def feeds_of(self, table_id: int) -> list[TableFeed]:
        """The feeds of one table: one per server whose pages show it."""
        return [tf for (tid, _), tf in self.tables.items() if tid == table_id]

    def join(self, sub: Subscriber) -> TableFeed:
        key = (sub.table_id, sub.guild_id)
        tf = self.tables.get(key)
        if tf is None:
            tf = self.tables[key] = TableFeed(self, sub.table_id, sub.guild_id)
            if self.deadline is not None:
                tf.deadline = self.deadline(sub.table_id)
        tf.subscribers.add(sub)
        tf.kick()
        return tf

    def leave(self, sub: Subscriber) -> None:
        key = (sub.table_id, sub.guild_id)
        tf = self.tables.get(key)
        if tf is None:
            return
        tf.subscribers.discard(sub)
        if not tf.subscribers:
            tf.stop()
            del self.tables[key]

    @property
    def sockets(self) -> int:
        return sum(len(tf.subscribers) for tf in self.tables.values())
