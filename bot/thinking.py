"""Where computer players think: in worker processes, off the event loop.

A Hard decision takes up to a second of pure Python. In a thread it would hold the
interpreter lock and delay every click the bot answers meanwhile; in a worker process it
costs the event loop only the pickling of a ``SeatView`` (a few kilobytes). ``AI_PROCESSES=0``
(the tests' in-process harness) thinks in a thread instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from engine import Action, SeatView
from engine.ai import make_player
from engine.players import Player, SimplePlayer

log = logging.getLogger(__name__)

#: The levels the lobby offers (engine.ai); ``simple`` still plays old tables' computer seats.
COMPUTER_LEVELS = ("easy", "normal", "hard")

_pool: Executor | None = None
#: How much lower the workers' CPU priority is than the bot's (``nice``).
WORKER_NICENESS = 10


def default_processes() -> int:
    """One worker per core beyond the one the event loop needs (at least one)."""
    return max(1, (os.cpu_count() or 2) - 1)


def start(processes: int) -> None:
    """Think in ``processes`` worker processes from now on (0: in a thread)."""
    global _pool
    stop()
    if processes > 0:
        # Workers come from a fork server, not forked from the bot: a forked worker inherits
        # the bot's sockets and files (the gateway, the database connection that holds its
        # shards, SQLite's owner lock) and keeps them open after the bot is killed, so that
        # a restarted bot finds its own shards still held.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["bot.thinking"])
        _pool = ProcessPoolExecutor(max_workers=processes, mp_context=context,
                                    initializer=_worker_start, initargs=(os.getpid(),))


def _worker_start(bot_pid: int) -> None:
    _lower_priority()
    threading.Thread(target=_end_with, args=(bot_pid,), name="end-with-bot",
                     daemon=True).start()


def _end_with(bot_pid: int) -> None:
    """A worker ends when its bot is gone. A killed bot tells its workers nothing: they would
    wait for work for ever (and keep their fork server alive)."""
    while True:
        time.sleep(1.0)
        try:
            os.kill(bot_pid, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # the pid was reused by another user's process
            os._exit(0)


def _lower_priority() -> None:
    """Workers yield the CPU to the event loop: a click answered late is felt at once, a
    computer's move a few milliseconds late is not (it waits for COMPUTER_DELAY anyway)."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)


def stop() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


def player(level: str, seat: int) -> Player:
    """Search players decide from the seed and the view only, so the seat is seed enough."""
    if level in COMPUTER_LEVELS:
        return make_player(level, seed=seat)
    return SimplePlayer()


def decide_now(level: str, seat: int, view: SeatView) -> Action:
    """The decision itself (run in a worker process or thread)."""
    return player(level, seat).choose(view)


async def decide(level: str, seat: int, view: SeatView) -> Action:
    """A computer's decision, without holding up the event loop."""
    pool = _pool
    if pool is not None:
        try:
            return await asyncio.get_running_loop().run_in_executor(
                pool, decide_now, level, seat, view)
        except BrokenProcessPool:
            # A worker died (out of memory, killed): think here this time, and start afresh.
            log.warning("the computer players' worker pool broke; restarting it")
            workers = getattr(pool, "_max_workers", 1)
            start(int(workers))
    return await asyncio.to_thread(decide_now, level, seat, view)
