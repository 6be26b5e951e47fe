"""The computer players' worker processes do not outlive their bot: a SIGKILLed bot (a crash,
the OOM killer) leaves no worker behind holding its sockets or files."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

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
