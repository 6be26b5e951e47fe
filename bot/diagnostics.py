"""What the bot holds now, for an operator or the soak benchmark: ``kill -USR1 PID`` logs one
JSON line (``diagnostics {...}``) with the open tables, the tasks and the per-table entries
anywhere in the bot, and the process's resident memory. A table closed leaves none of it.
Each report runs a full garbage collection first (a short pause of the event loop), so that
it counts what the bot holds, not garbage the collector had not reached yet.

Memory that grows with nothing left per table is found by running the bot with
``PYTHONTRACEMALLOC=1``: each report then also names the source lines whose Python allocations
grew most since the first report (Python's own memory as ``python_blocks`` either way; what
grows in resident memory but not there is the C side: SQLite's cache, the allocator)."""

from __future__ import annotations

import asyncio
import collections
import ctypes
import ctypes.util
import functools
import gc
import json
import logging
import os
import re
import signal
import sys
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.open_tables import OpenTables
from bot.runner import TableRunner

log = logging.getLogger(__name__)


def resident_kib() -> int | None:
    """The process's resident memory (Linux), in KiB."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def python_allocator() -> dict[str, int]:
    """Python's small-object allocator: its arenas (1 MiB each), how many it has given back
    since start, the bytes in use in them and their empty pools. With the bytes in use flat,
    arenas that grow mean fragmentation (the empty pools grow with them: an arena goes back
    only once every pool in it is empty); resident memory that grows outside them is the C
    side (malloc: SQLite, large objects)."""
    # CPython prints these statistics only to the C-level stderr.
    with tempfile.TemporaryFile() as out:
        saved = os.dup(2)
        try:
            os.dup2(out.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read().decode(errors="replace")
    found: dict[str, int] = {}
    for key, label in (("python_arenas", "# arenas allocated current"),
                       ("python_arenas_freed", "# arenas reclaimed"),
                       ("python_bytes_in_use", "# bytes in allocated blocks")):
        m = re.search(re.escape(label) + r"\s*=\s*([\d,]+)", text)
        if m:
            found[key] = int(m.group(1).replace(",", ""))
    # Pools (16 KiB) with no object left, kept because their arena still holds one.
    m = re.search(r"^([\d,]+) unused pools \*", text, re.M)
    if m:
        found["python_empty_pools"] = int(m.group(1).replace(",", ""))
    return found


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


@functools.cache
def _mallinfo2() -> Any:
    """glibc's ``mallinfo2``, looked up once (``find_library`` runs ``ldconfig``)."""
    try:
        mallinfo2 = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallinfo2
    except (OSError, AttributeError):
        return None
    mallinfo2.restype = _MallInfo2
    return mallinfo2


def c_allocator() -> dict[str, int]:
    """glibc's malloc, where Python's objects larger than 512 bytes, SQLite and the C
    libraries allocate: bytes in use, and bytes held free (fragmentation). Empty where
    there is no glibc 2.33+."""
    mallinfo2 = _mallinfo2()
    if mallinfo2 is None:
        return {}
    info = mallinfo2()
    return {"malloc_bytes_in_use": info.uordblks + info.hblkhd,
            "malloc_bytes_free": info.fordblks}


def snapshot(tables: OpenTables, views_kept: Callable[[], int]) -> dict[str, Any]:
    """What the bot holds now; ``views_kept``: the views discord.py keeps (none should be:
    the bot's views are stopped when made)."""
    open_tables = list(tables)
    tasks = asyncio.all_tasks()
    return {
        "open_tables": len(open_tables),
        "runners_alive": TableRunner.alive,
        "channels_tracked": len(tables.by_channel),
        "hand_views": sum(len(table.discord.hand_views) for table in open_tables),
        "runner_tasks": sum(1 for task in tasks if getattr(
            task.get_coro(), "__qualname__", "").startswith(("TableRunner.",
                                                             "DiscordSurface."))),
        "tasks": len(tasks),
        "views_kept_by_discord_py": views_kept(),
        "resident_kib": resident_kib(),
        "python_blocks": sys.getallocatedblocks(),
        **python_allocator(),
        **c_allocator(),
    }


def census() -> collections.Counter[str]:
    """How many objects of each type the garbage collector tracks (containers, instances:
    what a leak is usually made of)."""
    return collections.Counter(type(o).__qualname__ for o in gc.get_objects())


class Growth:
    """The source lines whose allocations grew most since the first report (when tracing),
    and the types whose objects grew most in number (always): the first report is the
    baseline, so a later one shows what a long run added."""

    def __init__(self) -> None:
        self.first: tracemalloc.Snapshot | None = None
        self.first_census: collections.Counter[str] | None = None

    def types(self, top: int = 10) -> dict[str, int]:
        now = census()
        if self.first_census is None:
            self.first_census = now
            return {}
        now.subtract(self.first_census)
        return {name: n for name, n in now.most_common(top) if n > 0}

    def report(self, top: int = 10) -> list[str]:
        if not tracemalloc.is_tracing():
            return []
        now = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__)])
        if self.first is None:
            self.first = now
            return []
        stats = now.compare_to(self.first, "lineno")
        return [f"{s.size_diff:+d} B {s.count_diff:+d} blocks {s.traceback}"
                for s in stats[:top] if s.size_diff > 0]


def install(tables: OpenTables, views_kept: Callable[[], int]) -> None:
    """Log a snapshot on SIGUSR1 (where the platform has it)."""
    if not hasattr(signal, "SIGUSR1"):
        return

    growth = Growth()

    def report() -> None:
        # Count live objects only: garbage that the collector has not reached yet would make
        # two reports differ by when it last ran (the soak measured -14 kB a table so).
        gc.collect()
        found = snapshot(tables, views_kept)
        found["python_types_grown"] = growth.types()
        if tracemalloc.is_tracing():
            found["python_growth"] = growth.report()
        log.warning("diagnostics %s", json.dumps(found, sort_keys=True))

    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, report)
