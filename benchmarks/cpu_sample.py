"""Where a process's CPU time goes: a sampling profiler on CPU time, not on the clock.

    python -m benchmarks.cpu_sample OUT -m bot          # run the bot, sampled
    python -m benchmarks.cpu_sample --report OUT        # the breakdown by part
    python -m benchmarks.load --tables 60 --sample OUT  # the bot of a load run, sampled

On a shared machine a wall-clock profiler (cProfile, py-spy) counts the time a process waits
for a core as time spent where it was preempted: a loopback ``send`` that wakes the reader is
where the scheduler most often switches, and showed as 15–25 % of the bot under py-spy and
0.47 ms a call under cProfile. This one asks the kernel for a signal every millisecond of the
process's CPU time (``ITIMER_PROF``: user and system, all threads) and counts the Python
stack of the main thread (the event loop) at that moment: CPU spent in a C call or a system
call is counted at the Python line that made it. CPU of other threads (the store's, the
computer players' pool) lands on the event loop's idle wait, and is reported as such.

``SIGUSR2`` forgets what was counted so far (the load benchmark sends it once the tables start
playing). The stacks are written at exit in the collapsed format of flame graphs (``a;b;c N``,
the root first, N the CPU microseconds), which ``--report`` (or any flame graph tool) reads.
"""

from __future__ import annotations

import argparse
import atexit
import collections
import re
import runpy
import signal
import sys
import time
from pathlib import Path
from types import CodeType, FrameType

#: CPU seconds between samples asked of the kernel. It fires them only at its scheduler's
#: tick (4 ms at the usual 250 Hz), and signals that come while one waits are merged, so each
#: sample is weighed by the process's CPU time since the one before (in microseconds).
INTERVAL = 0.001

#: The parts of the bot's work, each by the frames that make it; a sample goes to the part of
#: its innermost frame that matches one (so JSON encoding called by discord.py is JSON, and a
#: catalog look-up made while rendering is the translator).
PARTS: list[tuple[str, tuple[str, ...]]] = [
    # Each signal also wakes the event loop through asyncio's wake-up pipe.
    ("the sampler's own wake-ups", (r"^BaseSelectorEventLoop\._read_from_self ",
                                    r"^BaseSelectorEventLoop\._process_self_data ",
                                    r"^_sample \(")),
    ("idle wait (CPU of other threads: the store's, the pool's)",
     (r"^EpollSelector\.select ", r"^BaseEventLoop\._run_once ")),
    ("socket send and receive (system calls)",
     (r"^_SelectorSocketTransport\.write ", r"_read_ready__", r"^BaseSelectorEventLoop\._sock")),
    ("JSON", (r"\(json/", r"orjson", r"\(discord/utils\.py:\d+\) _to_json")),
    ("computer players: handing a decision to the pool", (r"\(multiprocessing/",
                                                          r"\(concurrent/futures/")),
    ("logging", (r"\(logging/",)),
    ("pydantic", (r"pydantic",)),
    ("translator and catalogs", (r"\(bot/texts\.py", r"\(bot/translator\.py", r"\(gettext",
                                 r"\(string\.py", r"\(babel/")),
    ("discord.ui views", (r"\(discord/ui/",)),
    ("store (SQL layer, aiosqlite, asyncpg)", (r"\(bot/store/", r"\(aiosqlite/", r"asyncpg")),
    ("aiohttp, yarl, multidict (HTTP client)", (r"\(aiohttp/", r"\(yarl/", r"\(multidict/",
                                                r"\(http/")),
    ("discord.py request path (http, webhook, Route)", (r"\(discord/http\.py",
                                                        r"\(discord/webhook/")),
    ("discord.py gateway, interactions, models", (r"\(discord/",)),
    ("engine", (r"\(engine/",)),
    ("rendering (render, present, facts, names)", (r"\(bot/render\.py", r"\(bot/present\.py",
                                                   r"\(bot/facts\.py", r"\(bot/names\.py",
                                                   r"\(bot/cardart\.py", r"\(bot/pictures\.py")),
    ("bot and cogs (session, surface, runner, delivery, protocol, validate)",
     (r"\(bot/", r"\(cogs/")),
    ("asyncio (tasks, futures, timers, locks)", (r"\(asyncio/", r"\(selectors\.py",
                                                 r"\(contextvars")),
]

_COUNTS: collections.Counter[tuple[tuple[CodeType, int], ...]] = collections.Counter()
_LAST = [0.0]


def _sample(signum: int, frame: FrameType | None) -> None:
    now = time.process_time()
    weight = round((now - _LAST[0]) * 1e6)
    _LAST[0] = now
    stack = []
    while frame is not None:
        stack.append((frame.f_code, frame.f_lineno))
        frame = frame.f_back
    _COUNTS[tuple(stack)] += weight


def _forget(signum: int, frame: FrameType | None) -> None:
    _COUNTS.clear()
    _LAST[0] = time.process_time()


def _name(code: CodeType, line: int) -> str:
    path = code.co_filename
    for marker in ("/site-packages/", "/lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1].split("/", 1)[1] if marker == "/lib/python3" \
                else path.split(marker, 1)[1]
            break
    else:
        root = str(Path(__file__).resolve().parents[1]) + "/"
        path = path.removeprefix(root)
    return f"{code.co_qualname} ({path}:{line})"


def _write(out: Path) -> None:
    signal.setitimer(signal.ITIMER_PROF, 0, 0)
    signal.signal(signal.SIGPROF, signal.SIG_IGN)
    with out.open("w", encoding="utf-8") as f:
        for stack, n in _COUNTS.items():
            f.write(";".join(_name(c, line) for c, line in reversed(stack)) + f" {n}\n")


def part(frames: list[str]) -> str:
    compiled = _compiled()
    for frame in reversed(frames):
        for name, patterns in compiled:
            if any(p.search(frame) for p in patterns):
                return name
    return "other"


_CACHE: list[tuple[str, list[re.Pattern[str]]]] = []


def _compiled() -> list[tuple[str, list[re.Pattern[str]]]]:
    if not _CACHE:
        _CACHE.extend((name, [re.compile(p) for p in patterns]) for name, patterns in PARTS)
    return _CACHE


def report(path: Path, top: int = 25) -> str:
    """The share of CPU of each part, of the event loop's work (samples taken while it ran a
    callback), and the functions with most CPU of their own."""
    parts: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        stack, n = line.rsplit(" ", 1)
        frames = stack.split(";")
        total += int(n)
        if not any(f.startswith("BaseEventLoop._run_once ") for f in frames):
            parts["outside the event loop (start, stop)"] += int(n)
            continue
        parts[part(frames)] += int(n)
        own[re.sub(r":\d+\)$", ")", frames[-1])] += int(n)
    lines = [f"{total / 1e6:.1f} CPU seconds sampled"]
    lines += [f"{100 * n / total:5.1f} %  {name}" for name, n in parts.most_common()]
    lines.append("own CPU (the innermost Python frame):")
    lines += [f"{100 * n / total:5.1f} %  {name}" for name, n in own.most_common(top)]
    return "\n".join(lines)


def main() -> int:
    if len(sys.argv) >= 3 and sys.argv[1] == "--report":
        print(report(Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 25))
        return 0
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cpu_sample",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("-m", dest="module", required=True)
    args, rest = parser.parse_known_args()
    atexit.register(_write, args.out)
    signal.signal(signal.SIGUSR2, _forget)
    signal.signal(signal.SIGPROF, _sample)
    signal.setitimer(signal.ITIMER_PROF, INTERVAL, INTERVAL)
    sys.argv = [args.module, *rest]
    runpy.run_module(args.module, run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
