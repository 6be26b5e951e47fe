"""``python -m bot`` as an operator starts it: wrong settings and an unreachable Discord end in
one clear line, and a good start says who the bot is, how to invite it and what it synced."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from standin.process import BotProcess
from standin.server import APP_ID, StandIn

ROOT = Path(__file__).resolve().parents[1]


def closed_port() -> int:
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_bot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("DISCORD_") and k not in ("DATABASE_PATH", "DEV_GUILD_ID")}
    # Nothing listens there: a bot that tried to connect would say it cannot reach Discord.
    base = f"http://127.0.0.1:{closed_port()}/api/v10"
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=tmp_path, capture_output=True, text=True,
        env={**clean, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "aaaa.bbbb.cccc",
             "DISCORD_API_BASE": base, "DATABASE_PATH": str(tmp_path / "db.sqlite3"), **env},
        timeout=60, check=False,
    )


#: A line of the bot's log: its time, its level, the logger, the message.
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (?P<level>[A-Z]+) +(?P<name>\S+): "
                      r"(?P<message>.*)")


def messages(done: subprocess.CompletedProcess[str]) -> list[str]:
    """What the bot said is wrong, line by line (the log's INFO lines aside). Every line of
    its output is a log line, with its time, like the lines around it."""
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    for line in lines:
        assert LOG_LINE.fullmatch(line), f"not a log line: {line!r}"
    return [m["message"] for x in lines if (m := LOG_LINE.fullmatch(x)) and m["level"] != "INFO"]


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one line that says what is wrong (the log's INFO lines aside)."""
    lines = messages(done)
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.slow
def test_a_folder_as_database_path_is_refused_before_connecting(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    done = run_bot(tmp_path, "--retries", "0", DATABASE_PATH=str(tmp_path / "data"))
    assert done.returncode == 2
    line = one_line(done)
    assert "DATABASE_PATH" in line and "is a folder" in line
    assert "cannot reach Discord" not in done.stderr


@pytest.mark.slow
def test_a_database_folder_that_cannot_be_created_is_refused_before_connecting(
        tmp_path: Path) -> None:
    # /proc takes no new folder, not even from root (for whom every permission check passes).
    done = run_bot(tmp_path, "--retries", "0", DATABASE_PATH="/proc/nope/x.sqlite3")
    assert done.returncode == 2
    line = one_line(done)
    assert line.startswith("DATABASE_PATH /proc/nope/x.sqlite3: cannot create the folder "
                           "/proc/nope"), line
    assert "cannot reach Discord" not in done.stderr


@pytest.mark.slow
def test_the_bots_own_error_lines_carry_the_time_like_its_log(tmp_path: Path) -> None:
    """An operator reads the log by time: the lines that say why the bot stopped carry it too,
    in the log's own format, whether they come before the log starts or between its lines."""
    early = run_bot(tmp_path, DEV_GUILD_ID="-5")
    late = run_bot(tmp_path, "--retries", "0")
    for done in (early, late):
        last = LOG_LINE.fullmatch(done.stderr.strip().splitlines()[-1])
        assert last and last["level"] == "ERROR", done.stderr


@pytest.mark.slow
def test_a_database_path_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x")
    done = run_bot(tmp_path, "--retries", "0",
                   DATABASE_PATH=str(tmp_path / "notes.txt" / "db.sqlite3"))
    assert done.returncode == 2
    assert "is a file, not a folder" in one_line(done)


@pytest.mark.slow
def test_a_negative_dev_guild_id_is_refused(tmp_path: Path) -> None:
    done = run_bot(tmp_path, DEV_GUILD_ID="-5")
    assert done.returncode == 2
    line = one_line(done)
    assert line.startswith("DEV_GUILD_ID") and "Copy Server ID" in line


@pytest.mark.slow
def test_an_empty_setting_takes_its_default(tmp_path: Path) -> None:
    done = run_bot(tmp_path, "--retries", "0", DEV_GUILD_ID="", LOG_LEVEL="", AI_PROCESSES="")
    assert done.returncode == 1  # it got as far as trying to reach Discord
    assert "cannot reach Discord" in one_line(done)


@pytest.mark.slow
def test_unreachable_discord_is_one_line_per_attempt_then_gives_up(tmp_path: Path) -> None:
    done = run_bot(tmp_path, "--retries", "1")
    assert done.returncode == 1
    lines = messages(done)
    assert len(lines) == 2, done.stderr
    assert re.fullmatch(r"cannot reach Discord at http://127\.0\.0\.1:\d+/api/v10: .*"
                        r"Trying again in 5 s \(attempt 2 of 2\)\.", lines[0]), lines[0]
    assert lines[1].endswith("Gave up after 2 attempts.")


@pytest.mark.slow
def test_bad_options_are_refused_by_argparse(tmp_path: Path) -> None:
    done = run_bot(tmp_path, "--retries", "-1")
    assert done.returncode == 2 and "--retries must be 0 or more" in done.stderr


# view, send, embed, attach, app commands; create public threads, send messages in threads;
# create events (a tournament's scheduled event)
PERMISSIONS = 1024 + 2048 + 16384 + 32768 + 2**31 + 2**35 + 2**38 + 2**44


@pytest.mark.slow
async def test_a_good_start_says_who_where_how_to_invite_and_what_it_synced(
        tmp_path: Path) -> None:
    standin = StandIn(channels=1)
    await standin.start()
    db = tmp_path / "bot.sqlite3"
    try:
        marker = tmp_path / "bot.sqlite3.commands-synced"
        # 1: first start, 2: nothing changed, 3: --sync, 4: the tree changed since the last
        # sync (stood for by another hash in the marker file).
        for n, args in enumerate([(), (), ("--sync",), ()], 1):
            bot = BotProcess(standin, db, tmp_path / f"bot{n}.log", args=args)
            if n == 2:
                standin.commands.clear()
            if n == 4:
                standin.commands.clear()
                marker.write_text("0" * 64 + "\n", encoding="utf-8")
            await bot.start()
            await standin.wait_for(lambda bot=bot: "slash commands" in bot.log(), 30,
                                   "the start-up summary")
            await bot.stop()
            log = bot.log()
            assert re.search(r"ready as \S+ \(\d+\) in 1 server$", log, re.M), log
            invite = re.search(r"invite: (\S+)", log)
            assert invite and invite[1] == (
                f"https://discord.com/oauth2/authorize?client_id={APP_ID}"
                f"&scope=bot+applications.commands&permissions={PERMISSIONS}")
            if n == 2:
                # Nothing changed since the first start: nothing sent (the stand-in forgot
                # the commands before this start, and still knows none).
                assert standin.commands == {}
                assert re.search(r"slash commands unchanged since the last sync \(\d+ for all "
                                 r"servers\): not synced again", log), log
            else:
                m = re.search(r"synced (\d+) slash commands to all servers", log)
                assert m and int(m[1]) == len(standin.commands) > 0, log
            assert bot.errors() == []
        assert marker.read_text(encoding="utf-8").strip() != "0" * 64
    finally:
        await standin.stop()


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
async def test_sigint_and_sigterm_stop_the_bot_cleanly_even_if_it_started_ignoring_sigint(
        tmp_path: Path, sig: signal.Signals) -> None:
    """systemd, Procfile runners and container hosts stop a process with SIGTERM; a terminal
    with SIGINT. A shell's background job (and some supervisors) start it with SIGINT
    ignored, which Python keeps. Either way the bot logs out and closes its database: exit 0,
    "stopped", nothing else in the log."""
    python = tmp_path / "python-ignoring-int"
    python.write_text(f"#!/bin/sh\ntrap '' INT\nexec {sys.executable} \"$@\"\n")
    python.chmod(0o755)
    check = "import signal; print(signal.getsignal(signal.SIGINT) == signal.SIG_IGN)"
    inherited = subprocess.run([python, "-c", check], capture_output=True, text=True,
                               check=True).stdout
    assert inherited.strip() == "True"  # the bot starts with SIGINT ignored
    standin = StandIn(channels=1)
    await standin.start()
    bot = BotProcess(standin, tmp_path / "bot.sqlite3", tmp_path / "bot.log", python=str(python))
    try:
        await bot.start()
        assert await bot.stop(sig=sig) == 0, bot.log()[-2000:]
        log = bot.log()
        assert f"{sig.name}: stopping" in log and log.rstrip().endswith("stopped"), log[-2000:]
        assert bot.errors(shutdown=True) == [] and bot.errors() == []
        # It said goodbye to the gateway rather than just dropping the connection.
        assert not standin.shards
    finally:
        await bot.stop()
        await standin.stop()
