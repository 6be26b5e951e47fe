"""The real bot, ``python -m bot``, as a child process pointed at the stand-in."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from .activity import CLIENT_SECRET
from .server import StandIn

PROJECT = Path(__file__).resolve().parents[2]


class BotProcess:
    def __init__(self, standin: StandIn, db_path: Path, log_path: Path, *,
                 edit_interval: float = 0.05, computer_delay: float = 0.0,
                 next_hand_delay: float = 3600.0, ping_delay: float = 3600.0,
                 log_level: str = "INFO",
                 python: str = sys.executable, profile: Path | None = None,
                 sample: Path | None = None,
                 args: tuple[str, ...] = (),
                 database_url: str | None = None, shard_ids: Sequence[int] | None = None,
                 shard_count: int | None = None, web: bool = False) -> None:
        self.standin = standin
        self.db_path = db_path
        self.log_path = log_path
        #: The shards this process connects (all of the stand-in's without SHARD_IDS).
        self.shard_ids = list(shard_ids if shard_ids is not None
                              else range(shard_count or standin.shard_count))
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")},
            "DISCORD_TOKEN": standin.token,
            "DISCORD_API_BASE": standin.api_base,
            "DISCORD_GATEWAY_URL": standin.gateway_url,
            "DATABASE_PATH": str(db_path),
            "DEV_GUILD_ID": "",
            "COMPUTER_DELAY": str(computer_delay),
            "EDIT_INTERVAL": str(edit_interval),
            "NEXT_HAND_DELAY": str(next_hand_delay),
            "PING_DELAY": str(ping_delay),
            "LOG_LEVEL": log_level,
            "PYTHONUNBUFFERED": "1",
            "DATABASE_URL": database_url or "",
            "SHARD_COUNT": "" if shard_count is None else str(shard_count),
            "SHARD_IDS": "" if shard_ids is None else ",".join(map(str, shard_ids)),
        }
        #: With ``web``: the bot's web pages and its Activity, on a free loopback port that
        #: the stand-in's Activity proxy maps ``/`` to (``WEB_URL/activity``).
        self.web_port: int | None = None
        if web:
            self.web_port = free_port()
            self.env.update(WEB_URL=f"http://127.0.0.1:{self.web_port}", WEB_HOST="127.0.0.1",
                            WEB_PORT=str(self.web_port), CLIENT_SECRET=CLIENT_SECRET)
            standin.activity.target = f"http://127.0.0.1:{self.web_port}/activity"
        self.python = python
        #: Options of ``python -m bot`` (``--sync``).
        self.args = args
        #: ``python -m cProfile -o PROFILE -m bot``: where the bot's time goes under load.
        self.profile = profile
        #: ``python -m benchmarks.cpu_sample SAMPLE -m bot``: where its CPU time goes.
        self.sample = sample
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._stop_mark: int | None = None

    async def start(self, timeout: float = 30.0) -> None:
        """Start the process and wait until it has identified on the gateway, on each of its
        shards."""
        assert self.proc is None or self.proc.returncode is not None
        before = self.standin.identifies
        with open(self.log_path, "a", encoding="utf-8") as log:
            log.write(f"--- start {self.starts + 1}\n")
            log.flush()
            profiling = (["-m", "cProfile", "-o", str(self.profile)] if self.profile else
                         ["-m", "benchmarks.cpu_sample", str(self.sample)] if self.sample
                         else [])
            self.proc = await asyncio.create_subprocess_exec(
                self.python, *profiling, "-m", "bot", *self.args, cwd=PROJECT, env=self.env,
                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log)
        self.starts += 1
        proc = self.proc

        def up() -> bool:
            if proc.returncode is not None:
                raise RuntimeError(f"the bot exited with {proc.returncode}: {self.log()[-2000:]}")
            return (self.standin.identifies >= before + len(self.shard_ids)
                    and all(s in self.standin.shards for s in self.shard_ids))

        await self.standin.wait_for(up, timeout, "the bot to connect")

    async def kill(self) -> None:
        """SIGKILL: no clean-up at all, as a crash or a power cut."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()
        await self.standin.wait_for(
            lambda: not any(s in self.standin.shards for s in self.shard_ids), 10,
            "the gateway connection to drop")

    async def stop(self, timeout: float = 60.0,
                   sig: signal.Signals = signal.SIGINT) -> int | None:
        """SIGINT or SIGTERM (the bot closes cleanly), SIGKILL if it does not stop in time
        (generous: a loaded machine is slow)."""
        if self.proc is None:
            return None
        if self.proc.returncode is None:
            self._stop_mark = len(self.log())
            self.proc.send_signal(sig)
            try:
                async with asyncio.timeout(timeout):
                    await self.proc.wait()
            except TimeoutError:
                self.proc.send_signal(signal.SIGKILL)
                await self.proc.wait()
        return self.proc.returncode

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8") if self.log_path.exists() else ""

    def errors(self, *, shutdown: bool = False) -> list[str]:
        """Lines of the bot's log at ERROR or worse, and tracebacks: while it ran, or (with
        ``shutdown``) after the last stop() asked it to close."""
        text = self.log()
        mark = self._stop_mark if self._stop_mark is not None else len(text)
        text = text[mark:] if shutdown else text[:mark]
        return [line for line in text.splitlines()
                if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")]


@contextlib.asynccontextmanager
async def running(proc: BotProcess):  # type: ignore[no-untyped-def]
    await proc.start()
    try:
        yield proc
    finally:
        await proc.stop()


def free_port() -> int:
    """A loopback port nobody listens on now (the bot's web server takes it at start)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def serving(**kwargs: Any) -> AsyncIterator[StandIn]:
    """A stand-in (``StandIn``'s keywords) serving while the block runs, stopped after; it
    must have seen nothing a real Discord would refuse (``problems``)."""
    server = StandIn(**kwargs)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    assert not server.problems, server.problems


def shard_process(standin: StandIn, tmp_path: Path, url: str, shards: Sequence[int], *,
                  count: int = 2, name: str | None = None, **settings: Any) -> BotProcess:
    """The bot on the PostgreSQL at ``url``, running ``shards`` of ``count``, its log in
    ``tmp_path`` (``NAME.log``; ``shard0.log`` for shard 0 by default); ``settings``:
    ``BotProcess``'s keywords."""
    name = name or "shard" + "-".join(str(s) for s in shards)
    return BotProcess(standin, tmp_path / "unused.sqlite3", tmp_path / f"{name}.log",
                      database_url=url, shard_ids=list(shards), shard_count=count, **settings)
