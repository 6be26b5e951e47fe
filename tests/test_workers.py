"""The computer players' worker processes do not outlive their bot: a SIGKILLed bot (a crash,
the OOM killer) leaves no worker behind holding its sockets or files. They start without
holding up the bot's event loop."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest

from bot import thinking
from engine import Match, make_rules, seat_view

ROOT = Path(__file__).resolve().parents[1]

BOT = """
import os, threading
from bot import thinking
thinking.start(1)
pool = thinking._pool
assert pool is not None
print(pool.submit(os.getpid).result(), flush=True)
threading.Event().wait()
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.slow
async def test_a_killed_bots_worker_ends() -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", BOT, cwd=ROOT, stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    worker = int(await asyncio.wait_for(proc.stdout.readline(), 60))
    assert worker != proc.pid and alive(worker)
    proc.send_signal(signal.SIGKILL)
    # Nothing notifies this test when an unrelated process ends: ask until a deadline.
    deadline = time.monotonic() + 15
    outlived = False
    while alive(worker) and not outlived:
        outlived = time.monotonic() > deadline
        await asyncio.sleep(0.1)
    if outlived:
        os.kill(worker, signal.SIGKILL)  # it holds the bot's stdout: wait() would hang
    await proc.wait()
    assert not outlived, f"worker {worker} outlived its killed bot"


class FirstSubmitWaits(Executor):
    """A worker pool as ``ProcessPoolExecutor`` with a fork server is at the start: its first
    ``submit`` starts the workers in the caller's thread, and returns only once the fork
    server has started (here: once ``up`` is set). Later submits return at once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.up = threading.Event()
        self.started = False
        #: The threads whose submit started the workers.
        self.starters: list[threading.Thread] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if not self.started:
            self.started = True
            self.starters.append(threading.current_thread())
            if threading.current_thread() is not threading.main_thread():
                self.up.wait(60)  # the event loop's own thread would wait for ever
        done: Future[Any] = Future()
        done.set_result(fn(*args, **kwargs))
        return done

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.up.set()


async def test_the_workers_start_without_holding_up_the_event_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers start in a thread of their own: while the fork server starts (seconds on a
    loaded machine) the bot answers clicks, and the first computer's move waits for it."""
    monkeypatch.setattr(thinking, "ProcessPoolExecutor", FirstSubmitWaits)
    hand = Match(make_rules("filicau", {}), seed=3).deal()
    seat = hand.to_move
    assert seat is not None
    view = seat_view(hand, seat)
    thinking.start(1)
    try:
        pool = thinking._pool
        assert isinstance(pool, FirstSubmitWaits)
        move = asyncio.create_task(thinking.decide("easy", seat, view))
        for _ in range(20):
            await asyncio.sleep(0)  # the loop goes on: a click would be answered now
        assert not move.done()  # the computer waits for the workers...
        pool.up.set()
        action = await asyncio.wait_for(move, 60)  # ...and plays once they are up
    finally:
        thinking.stop()
    assert threading.main_thread() not in pool.starters
    assert action == thinking.decide_now("easy", seat, view)
