"""``python -m bot``: start the bot with the settings from the environment or ``.env``.

``--sync`` sends the slash commands to Discord even if they did not change since the last
sync; ``--retries N`` says how often to try again when Discord cannot be reached at start.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import aiohttp
import discord

from bot import logs
from bot.client import FilicauBot, point_at
from bot.settings import SettingsError, load_settings
from bot.store import StoreError, is_postgres_url, sqlite_path

#: Seconds to wait before each new attempt to reach Discord at start (the last one repeats).
RETRY_DELAYS = (5, 10, 20, 40, 60)

#: What a start that cannot reach Discord raises: no network, DNS, a refused or timed-out
#: connection (aiohttp wraps these in ClientError), or Discord's servers answering 5xx after
#: discord.py's own retries. Not any OSError: a file the bot cannot write is no network issue.
UNREACHABLE = (aiohttp.ClientError, ConnectionError, TimeoutError, discord.DiscordServerError)

#: The bot's own lines on why it stops or waits at start, in the log's format with its time.
#: At WARNING whatever ``LOG_LEVEL`` says: a quiet log still says why the bot did not start.
say = logging.getLogger("bot.start")
say.setLevel(logging.WARNING)


def database_problem(path: Path) -> str | None:
    """Why the bot could not create or write its SQLite database at ``path``, or None.

    Checked before connecting to Discord, so that a wrong ``DATABASE_PATH`` is one line at
    once rather than a traceback after login. The folder is created here, as the store would
    create it, and a file is written in it and removed: SQLite writes a journal beside the
    database, and permission bits say nothing to root (``/proc`` takes no folder at all)."""
    if path.is_dir():
        return (f"DATABASE_PATH {path} is a folder: give a file name in it, e.g. "
                f"{path / 'filicau.sqlite3'}")
    existing = next(p for p in (path.parent, *path.parent.parents) if p.exists() or p == p.parent)
    if not existing.is_dir():
        return f"DATABASE_PATH {path}: {existing} is a file, not a folder"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"DATABASE_PATH {path}: cannot create the folder {path.parent} ({e.strerror})"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return f"DATABASE_PATH {path} cannot be read and written by this user"
    try:
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError:
        return f"DATABASE_PATH {path}: this user cannot write in {path.parent}"
    return None


class Stopping:
    """SIGINT (a terminal's Ctrl+C, the systemd units' KillSignal) and SIGTERM (what systemd,
    Procfile runners and container hosts send by default) both close the bot cleanly: it
    logs out of the gateway and closes the database.

    The handlers are installed whatever the process inherited: a shell's background job, and
    some supervisors, start it with SIGINT ignored, and Python then leaves SIGINT ignored (the
    bot could only be killed). Without the loop's own handler, SIGTERM would end the process
    at once, without the clean close."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()
        self.bot: FilicauBot | None = None
        self._closing: set[asyncio.Task[None]] = set()

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.stop, sig)

    def stop(self, sig: signal.Signals) -> None:
        if self.asked.is_set():
            return
        logging.getLogger(__name__).info("%s: stopping", sig.name)
        self.asked.set()
        if self.bot is not None:
            task = asyncio.get_running_loop().create_task(self.bot.close())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def closed(self) -> None:
        """Until the close a signal began has finished (discord.py's own exit waits only for
        its part of it, not for the store)."""
        for task in list(self._closing):
            await task

    async def wait(self, seconds: float) -> bool:
        """Wait ``seconds`` unless a stop is asked first; True if it was."""
        try:
            await asyncio.wait_for(self.asked.wait(), seconds)
        except TimeoutError:
            return False
        return True


async def run(sync: bool = False, retries: int = len(RETRY_DELAYS)) -> int:
    # The log starts before the settings are read, so that a bad setting is a log line too;
    # LOG_LEVEL and LOG_FORMAT apply from the moment they are known.
    logs.configure("INFO")
    try:
        settings = load_settings()
    except SettingsError as e:
        say.error("%s", e)
        return 2
    logs.configure(settings.log_level, settings.log_format)
    url = settings.database_url.get_secret_value() if settings.database_url else None
    # A PostgreSQL server is checked when the store opens; an SQLite file before connecting.
    problem = None if url and is_postgres_url(url) else database_problem(
        sqlite_path(url) if url else settings.database_path)
    if problem is not None:
        say.error("%s", problem)
        return 2
    point_at(settings.discord_api_base, settings.discord_gateway_url)
    token = settings.discord_token.get_secret_value().strip()
    stopping = Stopping()
    stopping.install()
    for attempt in range(retries + 1):
        try:
            async with FilicauBot(settings, sync=sync) as bot:
                stopping.bot = bot
                if stopping.asked.is_set():
                    return 0
                # Once logged in, discord.py reconnects to the gateway by itself (with
                # backoff); only the first contact is tried again here.
                await bot.login(token)
                await bot.connect()
            await stopping.closed()
            return 0
        except discord.LoginFailure:
            say.error("Discord refused DISCORD_TOKEN: reset the token in the Developer Portal "
                      "(your application -> Bot -> Reset Token) and put the new one in .env.")
            return 2
        except discord.PrivilegedIntentsRequired:
            say.error("the bot asked for an intent the Developer Portal has not enabled.")
            return 2
        except (StoreError, SettingsError) as e:
            # The database cannot serve this bot (unreachable, a newer schema), or a port
            # cannot be listened on: what to fix is in the message; a traceback would only
            # hide it.
            say.error("%s", e)
            return 2
        except UNREACHABLE as e:
            if stopping.asked.is_set():  # stopped while it was connecting
                return 0
            where = discord.http.Route.BASE
            reason = " ".join(str(e).split()) or type(e).__name__
            if attempt == retries:
                say.error("cannot reach Discord at %s: %s. Gave up after %d attempt%s.",
                          where, reason, attempt + 1, "s" if attempt else "")
                return 1
            delay = RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]
            say.warning("cannot reach Discord at %s: %s. Trying again in %d s (attempt %d of "
                        "%d).", where, reason, delay, attempt + 2, retries + 1)
            if await stopping.wait(delay):
                return 0
    return 1  # not reached: the last attempt returns


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Filicău Discord bot (settings from the environment or .env).")
    parser.add_argument("--sync", action="store_true",
                        help="send the slash commands to Discord even if they did not change "
                             "since the last sync")
    parser.add_argument("--retries", type=int, default=len(RETRY_DELAYS), metavar="N",
                        help="when Discord cannot be reached at start, try N more times, "
                             "waiting 5, 10, 20, 40 then 60 s (default %(default)s; 0: none)")
    args = parser.parse_args(argv)
    if args.retries < 0:
        parser.error("--retries must be 0 or more")
    # The event loop shares the interpreter with the store's thread and the computer
    # players' pool threads: hand the lock over sooner than the default 5 ms, or a click
    # waits behind them (seen as p99 latency under load).
    sys.setswitchinterval(0.0005)
    try:
        code = asyncio.run(run(sync=args.sync, retries=args.retries))
    except KeyboardInterrupt:  # a SIGINT before the loop's own handler was installed
        code = 0
    if code == 0:
        logging.getLogger(__name__).info("stopped")
    return code


if __name__ == "__main__":
    sys.exit(main())
