"""Where computer players think: in worker processes, off the event loop.

A Hard decision takes up to a second of pure Python. In a thread it would hold the
interpreter lock and delay every click the bot answers meanwhile; in a worker process it
costs the event loop only the pickling of a ``SeatView`` (a few kilobytes). ``AI_PROCESSES=0``
(the tests' in-process harness) thinks in a thread instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

from engine import Action, SeatView
from engine.ai import SEARCH, analysis, make_player
from engine.ai.analysis import Hint
from engine.players import Player, SimplePlayer

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from bot.store import Store

log = logging.getLogger(__name__)
T = TypeVar("T")

#: The levels the lobby offers (engine.ai); ``simple`` still plays old tables' computer seats.
COMPUTER_LEVELS = ("easy", "normal", "hard")

_pool: Executor | None = None
#: Done once the pool's first worker is up (``_start_workers``); decisions wait for it.
_up: concurrent.futures.Future[None] | None = None
#: Where decisions are timed and the pool's work counted (``bot.metrics``), once told.
_measured: Metrics | None = None
#: How much lower the workers' CPU priority is than the bot's (``nice``).
WORKER_NICENESS = 10


def default_processes() -> int:
    """One worker per core beyond the one the event loop needs (at least one)."""
    return max(1, (os.cpu_count() or 2) - 1)


def start(processes: int) -> None:
    """Think in ``processes`` worker processes from now on (0: in a thread). The workers
    are started at once, in a thread of their own (``_start_workers``)."""
    global _pool, _up
    stop()
    if processes > 0:
        # Workers come from a fork server, not forked from the bot: a forked worker inherits
        # the bot's sockets and files (the gateway, the database connection that holds its
        # shards, SQLite's owner lock) and keeps them open after the bot is killed, so that
        # a restarted bot finds its own shards still held.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["bot.thinking"])
        pool = ProcessPoolExecutor(max_workers=processes, mp_context=context,
                                   initializer=_worker_start, initargs=(os.getpid(),))
        up: concurrent.futures.Future[None] = concurrent.futures.Future()
        _pool, _up = pool, up
        threading.Thread(target=_start_workers, args=(pool, up), name="start-workers",
                         daemon=True).start()


def _start_workers(pool: Executor, up: concurrent.futures.Future[None]) -> None:
    """Start the pool's first worker, then say so (``up``). A fresh pool starts its workers
    in the caller of its first ``submit``, which waits meanwhile for the fork server to start
    and import ``bot.thinking`` (seconds, on a loaded machine). On the event loop that was
    the first computer's move after every start: no click was answered meanwhile (a
    restarted table's message stayed as the killed process left it, a click on a shard taken
    over got no answer in time). Here it holds up only this thread; decisions wait for
    ``up`` without holding up the loop."""
    try:
        pool.submit(os.getpid).result()
    except Exception:  # stopped meanwhile, or broken: the decisions find out for themselves
        log.debug("the computer players' first worker did not start", exc_info=True)
    finally:
        up.set_result(None)


async def _started() -> Executor | None:
    """The worker pool once its first worker is up (None: think in a thread)."""
    while (up := _up) is not None and not up.done():
        await asyncio.wrap_future(up)
    return _pool


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


def measure(metrics: Metrics | None) -> None:
    """Time decisions and count the pool's work into ``metrics`` from now on."""
    global _measured
    _measured = metrics


def stop() -> None:
    global _pool, _up
    _up = None
    if _pool is not None:
        pool, _pool = _pool, None
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        # A worker only ever holds a decision nobody waits for any more: end it now, rather
        # than let the interpreter's exit wait for workers that run at a lower priority and,
        # on a busy machine, take many seconds to be scheduled and leave.
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()


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
    if _measured is None:
        return await _decide(level, seat, view)
    with _measured.deciding(level):
        return await _decide(level, seat, view)


async def _decide(level: str, seat: int, view: SeatView) -> Action:
    pool = await _started()
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


# -- hints and hand reviews (issue 17) --------------------------------------------------------
# Same pool as the computers' decisions: a hint is one Normal search (tens of milliseconds), a
# review one Hard search per decision of one seat (a few seconds per hand, in tasks of up to a
# second or two). Both return plain picklable values; a review as the JSON the store keeps
# (``put_review``).


def hint_now(level: str, seat: int, view: SeatView) -> Hint:
    """What ``level`` would play for ``view`` and why (run in a worker process or thread).
    The seed is the seat, as for a computer in that seat: the hint's choice is the move a
    computer of that level would make there."""
    return analysis.hint(view, samples=_samples(level), seed=seat, level=_search_level(level))


def review_now(record: dict[str, Any], seat: int, index: int) -> analysis.Decision:
    """Hard's review of one decision of ``seat`` in a finished hand (the action at
    ``index``): up to a second or two, one task in the pool."""
    return analysis.review_decision(record, seat, index, seed=seat)


def _search_level(level: str) -> str:
    return level if level in SEARCH else "normal"


def _samples(level: str) -> int:
    samples: int = SEARCH[_search_level(level)]["samples"]  # type: ignore[assignment]
    return samples


async def _off_loop(fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn`` in the worker pool (or a thread without one), like ``decide``."""
    if _measured is None:
        return await _in_pool(fn, *args)
    with _measured.queued():
        return await _in_pool(fn, *args)


async def _in_pool(fn: Callable[..., T], *args: Any) -> T:
    pool = await _started()
    if pool is not None:
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            log.warning("the computer players' worker pool broke; restarting it")
            start(int(getattr(pool, "_max_workers", 1)))
    return await asyncio.to_thread(fn, *args)


async def hint(level: str, seat: int, view: SeatView) -> Hint:
    """The "What would you play?" answer for ``view`` (only its seat may see it). Raises
    ``ValueError`` when the seat has nothing to decide."""
    return await _off_loop(hint_now, level, seat, view)


async def review(record: dict[str, Any], seat: int) -> dict[str, Any]:
    """Hard's review of ``seat``'s decisions in a finished hand, as the store keeps it
    (``analysis.review_to_json``; read it with ``analysis.review_from_json``). One pool task
    per decision, one after the other, so that computer players' moves queued meanwhile wait
    for one decision's search at most, not for the whole review."""
    points = await asyncio.to_thread(analysis.decisions, record, seat)
    made = [await _off_loop(review_now, record, seat, index) for index in points]
    return analysis.review_to_json(made)


#: Reviews being made, by hand and seat: a second request (a double click, two viewers of
#: the same seat's review) waits for the first instead of searching again.
_reviewing: dict[tuple[int, int], asyncio.Task[list[analysis.Decision]]] = {}


async def stored_review(
    store: Store, hand_id: int, record: dict[str, Any], seat: int
) -> list[analysis.Decision]:
    """The review of ``seat`` in a finished hand: from the store when it was made before
    (by this version of the analysis), else computed once in the pool and kept."""
    key = (hand_id, seat)
    task = _reviewing.get(key)
    if task is None:
        task = asyncio.create_task(_stored_review(store, hand_id, record, seat))
        _reviewing[key] = task
        task.add_done_callback(lambda _: _reviewing.pop(key, None))
    return await asyncio.shield(task)


async def _stored_review(
    store: Store, hand_id: int, record: dict[str, Any], seat: int
) -> list[analysis.Decision]:
    kept = await store.get_review(hand_id, seat)
    if kept is not None:
        decisions = analysis.review_from_json(kept)
        if decisions is not None:
            return decisions
    made = await review(record, seat)
    await store.put_review(hand_id, seat, made)
    decisions = analysis.review_from_json(made)
    assert decisions is not None
    return decisions
