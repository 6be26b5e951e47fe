"""What the bot holds now, for an operator or the soak benchmark: ``kill -USR1 PID`` logs one
JSON line (``diagnostics {...}``) with the open tables, the tasks and the per-table entries
anywhere in the bot, and the process's resident memory. A table closed leaves none of it."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.runner import TableRunner

if TYPE_CHECKING:
    from bot.client import FilicauBot

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


def snapshot(bot: FilicauBot) -> dict[str, Any]:
    tables = bot.tables
    runners = list(tables.runners.values())
    store = bot._connection._view_store
    tasks = asyncio.all_tasks()
    return {
        "open_tables": len(runners),
        "runners_alive": TableRunner.alive,
        "channels_tracked": len(tables.by_channel),
        "hand_views": sum(len(r.hand_views) for r in runners),
        "runner_tasks": sum(1 for task in tasks if getattr(
            task.get_coro(), "__qualname__", "").startswith("TableRunner.")),
        "tasks": len(tasks),
        "views_kept_by_discord_py": len(store._views) + len(store._synced_message_views),
        "resident_kib": resident_kib(),
    }


def install(bot: FilicauBot) -> None:
    """Log a snapshot on SIGUSR1 (where the platform has it)."""
    if not hasattr(signal, "SIGUSR1"):
        return

    def report() -> None:
        log.warning("diagnostics %s", json.dumps(snapshot(bot), sort_keys=True))

    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, report)
