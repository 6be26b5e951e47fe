"""Soak benchmark: open, play and close tables in waves, and watch the bot's memory.

    python -m benchmarks.soak --tables 3000

The real bot process against the local Discord stand-in. Each wave opens ``--wave`` tables at
once (one per channel: a person and three Easy computers), holds them all open in play (the
person to act, their hand view open) to measure what open tables cost, then plays each hand
to its end and ends the table with ``/admin end``; the next wave reuses the channels. After
the first wave and after the last, the bot reports what it holds (``bot.diagnostics``, asked
with SIGUSR1). Printed as JSON: the bot's resident memory after the first and the last wave
and its growth, memory per open table (bytes in objects, measured while a wave is open), the
memory figures of every wave, and the runners, tasks and per-table entries left after
everything closed (all should be 0).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from standin import BotProcess, Player, SchemaCheck, StandIn
from standin.game import Table

from bot.texts import t

#: What the bot holds per open table (``bot.diagnostics``): all 0 once every table closed.
PER_TABLE = ("open_tables", "runners_alive", "channels_tracked", "hand_views", "runner_tasks",
             "views_kept_by_discord_py")

#: Memory figures of ``bot.diagnostics`` printed for every wave: where growth is, if any.
MEMORY = ("resident_kib", "python_arenas", "python_arenas_freed", "python_empty_pools",
          "python_bytes_in_use", "malloc_bytes_in_use", "malloc_bytes_free")

_DIAGNOSTICS = re.compile(r"diagnostics (\{.*\})")


async def diagnostics(bot: BotProcess, standin: StandIn) -> dict[str, Any]:
    """Ask the bot what it holds (SIGUSR1) and read its answer from its log."""
    assert bot.proc is not None
    seen = len(_DIAGNOSTICS.findall(bot.log()))
    bot.proc.send_signal(signal.SIGUSR1)

    def answered() -> dict[str, Any] | None:
        found = _DIAGNOSTICS.findall(bot.log())
        return json.loads(found[-1]) if len(found) > seen else None

    result: dict[str, Any] = await standin.wait_for(answered, 180, "the bot's diagnostics")
    return result


async def one_table(standin: StandIn, channel: int, boss: Player, number: int,
                    ready: asyncio.Queue[int], go: asyncio.Event) -> None:
    """A table of one person and three Easy computers: opened, started, held open (the person
    to act, their hand view open) until ``go``, then played to the end and ended."""
    person = Player(standin, f"s{number}", channel_id=channel)
    table = Table(standin, [person], seed=number, timeout=120)
    await table.open(person, [(person, 0)])
    for _ in range(3):
        inter = await table.add_computer(person, "easy")
        assert person.refused(inter) is None, person.refused(inter)
    await table.start(person)
    await standin.wait_for(lambda: table.to_act() or table.result(1), 60, "the person's turn",
                           channel_id=channel)
    ready.put_nowait(number)
    await go.wait()
    assert await table.play_hand(1) is not None
    manager = Player(standin, boss.name, channel_id=channel, manager=True, user_id=boss.id)
    inter = await manager.command("admin end")
    assert manager.refused(inter) == t("ok.ended"), manager.refused(inter)
    standin.forget(channel)


def held(report: dict[str, Any]) -> int:
    """Bytes in objects: Python's and malloc's (0 where the platform does not say)."""
    return int(report.get("python_bytes_in_use", 0) + report.get("malloc_bytes_in_use", 0))


async def all_ready(ready: asyncio.Queue[int], size: int,
                    tasks: list[asyncio.Task[None]]) -> None:
    """Wait until every table of the wave is open and waiting; a table that fails before
    (it cannot finish before the wave goes on) ends the run with its error instead of
    leaving the run waiting for it for ever."""

    async def counted() -> None:
        for _ in range(size):
            await ready.get()

    waiter = asyncio.create_task(counted())
    while not waiter.done():
        done, _ = await asyncio.wait([waiter, *tasks], return_when=asyncio.FIRST_COMPLETED)
        for task in done - {waiter}:
            waiter.cancel()
            task.result()  # raises the table's error
            raise RuntimeError("a table ended before its wave went on")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    standin = StandIn(channels=args.wave, schema=SchemaCheck.off())
    await standin.start()
    tmp = Path(tempfile.mkdtemp(prefix="filicau-soak-"))
    bot = BotProcess(standin, tmp / "bot.sqlite3", tmp / "bot.log", edit_interval=0.2,
                     log_level="WARNING")
    if args.trace:
        bot.env["PYTHONTRACEMALLOC"] = "1"
    await bot.start(timeout=120)  # a loaded machine, or tracing, starts slowly
    boss = Player(standin, "boss", manager=True)
    waves = -(-args.tables // args.wave)
    first: dict[str, Any] | None = None
    open_bytes: list[int] = []
    each_wave: dict[str, list[int]] = {k: [] for k in MEMORY}
    started = time.monotonic()
    number = 0
    tasks: list[asyncio.Task[None]] = []
    try:
        for _ in range(waves):
            size = min(args.wave, args.tables - number)
            # Open the wave's tables first, to measure what open tables cost.
            before = await diagnostics(bot, standin)
            ready: asyncio.Queue[int] = asyncio.Queue()
            go = asyncio.Event()
            tasks = [asyncio.create_task(one_table(standin, standin.channel_ids[i], boss,
                                                   number + i, ready, go))
                     for i in range(size)]
            number += size
            await all_ready(ready, size, tasks)
            during = await diagnostics(bot, standin)
            if during["open_tables"]:
                # Bytes in objects, not resident memory: a wave's tables mostly fill pages
                # the last wave left free, so resident memory hardly moves while they open.
                open_bytes.append((held(during) - held(before)) // during["open_tables"])
            go.set()
            await asyncio.gather(*tasks)
            after = await diagnostics(bot, standin)
            # Only the load benchmark reads the requests made; a soak keeps none of them.
            standin.calls.clear()
            for k in MEMORY:
                each_wave[k].append(after.get(k, 0))
            if first is None:
                first = after
        last = await diagnostics(bot, standin)
    finally:
        # A run that fails leaves no table of its own playing into whatever runs next.
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await bot.stop()
        await standin.stop()
    assert first is not None
    growth = (last["resident_kib"] - first["resident_kib"]) / first["resident_kib"]
    return {
        "tables": number,
        "waves": waves,
        "seconds": round(time.monotonic() - started, 1),
        "resident_kib_after_first_wave": first["resident_kib"],
        "resident_kib_after_last_wave": last["resident_kib"],
        "growth_first_to_last": round(growth, 4),
        "after_each_wave": each_wave,
        "python_blocks_after_first_wave": first["python_blocks"],
        "python_blocks_after_last_wave": last["python_blocks"],
        "bytes_per_open_table": sorted(open_bytes)[len(open_bytes) // 2] if open_bytes else None,
        "left_after_close": {k: v for k, v in last.items()
                             if k in (*PER_TABLE, "tasks")},
        "python_types_grown": last.get("python_types_grown", {}),
        **({"python_growth": last.get("python_growth", [])} if args.trace else {}),
        "bot_log_errors": len(bot.errors()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=3000)
    parser.add_argument("--wave", type=int, default=50,
                        help="tables open at once (100 at a time already overran Discord's "
                             "3 s now and then on two cores)")
    parser.add_argument("--trace", action="store_true",
                        help="run the bot with PYTHONTRACEMALLOC=1 and print the source lines "
                             "whose memory grew most since the first wave began (slower)")
    report = asyncio.run(run(parser.parse_args()))
    print(json.dumps(report, indent=1))
    left = report["left_after_close"]
    clean = all(left[k] == 0 for k in PER_TABLE)
    return 0 if clean and report["growth_first_to_last"] < 0.05 else 1


if __name__ == "__main__":
    sys.exit(main())
