"""One open table's live side: what happens next, and when.

A ``TableRunner`` owns the table's time: the driver task that plays computers, runs the turn
timer (the turn's signal, its warning, then the computer), the open window's timer and the
next deal, and the lobby's timer. What the table shows goes out through its courier
(``bot.courier``) to every surface; who may do what is the session's (``bot.session``); a
person's request is the table service's (``bot.service``), which tells the courier and then
wakes the driver (``kick``).
``stop()`` ends all of it: a closed table leaves nothing behind in the bot, however long the
process runs (``TableRunner.alive`` counts the runners alive, for the soak test).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, ClassVar, Protocol

from bot.courier import Change, Courier, Signal
from bot.session import SessionError, TableSession

log = logging.getLogger(__name__)

LOBBY_SECONDS = 15 * 60


class Timing(Protocol):
    """The bot's settings a runner's clock reads (``bot.settings.Settings`` has them)."""

    @property
    def computer_delay(self) -> float: ...
    @property
    def next_hand_delay(self) -> float: ...
    @property
    def ping_delay(self) -> float: ...


class TableRunner:
    """The live side of one table (see the module docstring)."""

    #: Runners alive in this process (opened and not yet stopped).
    alive: ClassVar[int] = 0

    def __init__(self, session: TableSession, timing: Timing,
                 on_closed: Callable[[TableRunner], None]) -> None:
        self.session = session
        self.timing = timing
        self.courier = Courier(session.id)
        self._on_closed = on_closed
        self.closed = False
        #: Set whenever the table changes: the driver wakes up and looks again.
        self.wake = asyncio.Event()
        self.driver: asyncio.Task[None] | None = None
        self.lobby_timer: asyncio.Task[None] | None = None
        #: The driver is acting now (between its timer firing and the table redrawn).
        self.acting = False
        #: When the wait for people began (wall clock): a turn, or an open window (the fris
        #: window). The timers and the countdowns people see both run from it.
        self.clock: tuple[tuple[Any, ...], float] | None = None
        #: The waits whose signal and warning were given (by an earlier process too: the table
        #: keeps its signal).
        self.signalled: tuple[Any, ...] | None = None
        self.warned: tuple[Any, ...] | None = None
        kept = session.row.runtime.get("signal")
        if isinstance(kept, dict):
            self.signalled = ("turn", kept.get("hand"), kept.get("actions"))
            if kept.get("stage") == Signal.WARNING.value:
                self.warned = self.signalled
        #: When the finished hand ended (its number, wall clock): the next deal counts from it.
        self.finished_at: tuple[int, float] | None = None
        TableRunner.alive += 1

    @property
    def id(self) -> int:
        return self.session.id

    def tasks(self) -> list[asyncio.Task[None]]:
        return [task for task in (self.driver, self.lobby_timer)
                if task is not None and not task.done()]

    # -- lifetime ------------------------------------------------------------------------------

    def _spawn(self, work: Awaitable[None]) -> asyncio.Task[None]:
        return asyncio.get_running_loop().create_task(work)  # type: ignore[arg-type]

    async def close(self, key: str) -> None:
        """Close the table (in the store first), say why on every surface (``key``, a
        sentence of the catalogs), and end everything of the runner."""
        if self.closed:
            return
        if self.session.state != "closed":
            await self.session.close()
        self._on_closed(self)
        await self.courier.closed(key)
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
        self.driver = self.lobby_timer = None
        self.courier.stop()
        return cancelled

    # -- the lobby -----------------------------------------------------------------------------

    def start_lobby_timer(self) -> None:
        created = datetime.fromisoformat(self.session.row.created_at)
        left = LOBBY_SECONDS - (datetime.now(UTC) - created).total_seconds()
        self.lobby_timer = self._spawn(self.expire_lobby(left))

    async def expire_lobby(self, delay: float) -> None:
        await asyncio.sleep(max(delay, 0))
        if self.session.state == "lobby" and not self.closed:
            await self.close("lobby.expired")

    def lobby_closed(self) -> None:
        """The lobby became a table in play: its timer stops."""
        if self.lobby_timer is not None and self.lobby_timer is not asyncio.current_task():
            self.lobby_timer.cancel()
        self.lobby_timer = None

    # -- after every change --------------------------------------------------------------------

    async def after(self, change: Change) -> None:
        """Show a change on every surface, then wake the driver."""
        await self.courier.changed(change)
        self.kick()

    # -- the driver ----------------------------------------------------------------------------

    def kick(self) -> None:
        """The table changed: wake the driver (computer moves, the turn timer, the next
        hand), starting it if needed. A driver is never cancelled while it acts, so a move
        is always stored and applied together."""
        if self.closed or self.session.state != "playing":
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
        s, timing = self.session, self.timing
        while s.state == "playing" and not self.closed:
            self.wake.clear()
            hand = s.hand
            if hand is None:
                return
            why = s.abandoned()
            if why is not None:
                await self.close(why)
                return
            try:
                if hand.finished:
                    moment = self.next_deal_at()
                    if moment is None:
                        # A seat is free: look again later (the seat may be taken meanwhile).
                        await self.pause(timing.next_hand_delay)
                    elif not await self.until(moment):
                        self.acting = True
                        await s.next_hand()
                        await self.courier.dealt()
                        await self.courier.changed()
                elif s.waiting_for_human() and not s.computer_may_act():
                    if s.window_open():
                        await self.window_timer()
                    else:
                        await self.turn_timer()
                elif not await self.pause(timing.computer_delay):
                    self.acting = True
                    moved = len(hand.actions)
                    moves = await s.computer_turn()
                    if moves is not None:
                        await self.courier.changed(Change(moves))
                    elif len(hand.actions) != moved:
                        # A click came first while the computer thought; show it.
                        await self.courier.changed()
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

    def next_deal_at(self) -> float | None:
        """When the bot deals the next hand by itself (wall clock): the setting's delay
        after the hand ended, whatever wakes the driver meanwhile; None while a seat is free
        or a hand is in play."""
        s = self.session
        hand = s.hand
        if hand is None or not hand.finished or not s.full:
            return None
        if s.plan is not None and s.hand_number >= s.plan.hands:
            return None  # a tournament table's round is played out: it deals no more
        if self.finished_at is None or self.finished_at[0] != s.hand_number:
            self.finished_at = (s.hand_number, time.time())
        return self.finished_at[1] + self.timing.next_hand_delay

    async def until(self, moment: float) -> bool:
        """Wait until ``moment`` (wall clock); True if the table changed meanwhile."""
        return await self.pause(moment - time.time())

    async def turn_timer(self) -> None:
        """A person is to act: signal it a few seconds in, warn at two thirds of the turn,
        then let the computer play (unless the table changes first). The turn's time runs
        from its start, whatever wakes the driver meanwhile."""
        s = self.session
        assert s.hand is not None
        start, key = self.wait_began(), self._wait_key()
        if start is None:
            return
        moved, total = len(s.hand.actions), s.turn_seconds
        if s.pings and self.signalled != key:
            if await self.until(start + min(self.timing.ping_delay, total * 2 / 3)):
                return
            await self.courier.signal(Signal.TURN, max(0, round(start + total - time.time())))
            self.signalled = key
        if self.warned != key:
            if await self.until(start + total * 2 / 3):
                return
            await self.courier.signal(Signal.WARNING,
                                      max(0, round(start + total - time.time())))
            self.warned = self.signalled = key
        if not await self.until(start + total):
            self.acting = True
            try:
                await self.turn_timeout(moved)
            finally:
                self.acting = False

    async def window_timer(self) -> None:
        """An open window (the fris window, the doubling window): the people it waits for
        get the turn's one live signal, as on any turn (the hidden partner asked for Kontra
        as the opponents are), signalled afresh each time somebody acts in it; it closes by
        itself once the table's window time has passed since it opened, whoever has not
        acted by then."""
        s = self.session
        assert s.hand is not None
        start, deadline = self.wait_began(), self.deadline()
        if start is None or deadline is None:
            return
        # The signal's key is the turn's (as a signal kept over a restart names it).
        key = ("turn", s.hand_number, len(s.hand.actions))
        if s.pings and self.signalled != key:
            if await self.until(start + min(self.timing.ping_delay,
                                            s.window_seconds * 2 / 3)):
                return
            await self.courier.signal(Signal.TURN, max(0, round(deadline - time.time())))
            self.signalled = key
        if await self.until(deadline):
            return
        self.acting = True
        try:
            moves = await s.close_window(len(s.hand.actions))
            if moves is not None:
                await self.after(Change(moves))
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
        moves = await s.computer_turn(timed_out=True)
        for seat in sorted(s.autoplay - before):
            await self.courier.notice("turn.autoplay", seat)
        if moves is not None:
            await self.after(Change(moves))
