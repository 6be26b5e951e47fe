"""A start the database refuses — a PostgreSQL server that cannot be reached, a database of a
newer schema than this bot knows — ends in one log line saying so and exit status 2, with no
traceback (the line is all an operator reads), in the text log and in JSON lines alike."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from standin import BotProcess, StandIn
from standin.process import PROJECT, free_port

from bot.store import MIGRATIONS

#: A line of the text log: its time, its level, the logger, the message.
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (?P<level>[A-Z]+) +(?P<name>\S+): "
                      r"(?P<message>.*)")


async def start(standin: StandIn, tmp_path: Path, **env: str) -> tuple[int, list[str]]:
    """``python -m bot`` against the stand-in (so that login succeeds and the store opens):
    its exit status and its log's lines."""
    bot = BotProcess(standin, tmp_path / "bot.sqlite3", tmp_path / "bot.log")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=PROJECT,
        env={**bot.env, **env}, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 90)
    assert proc.returncode is not None
    return proc.returncode, (out + err).decode().splitlines()


def problems(lines: list[str]) -> list[str]:
    """The text log's lines above INFO; every line must be a log line (no traceback)."""
    found = []
    for line in lines:
        m = LOG_LINE.fullmatch(line)
        assert m is not None, f"not a log line: {line!r}"
        if m["level"] != "INFO":
            found.append(f"{m['level']} {m['message']}")
    return found


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    server = StandIn(channels=1)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.mark.slow
async def test_an_unreachable_postgresql_is_one_line_and_exit_2(standin: StandIn,
                                                                 tmp_path: Path) -> None:
    url = f"postgresql://filicau:secret@127.0.0.1:{free_port()}/filicau"
    code, lines = await start(standin, tmp_path, DATABASE_URL=url)
    assert code == 2, lines
    [line] = problems(lines)
    assert line.startswith("ERROR cannot open the database 127.0.0.1/filicau: "), line
    assert "secret" not in "\n".join(lines)  # the password stays out of the log


@pytest.mark.slow
async def test_a_newer_schema_is_one_json_line_and_exit_2(standin: StandIn,
                                                          tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    newer = len(MIGRATIONS) + 1
    with sqlite3.connect(db) as con:
        con.execute(f"PRAGMA user_version = {newer}")
    code, lines = await start(standin, tmp_path, LOG_FORMAT="json")
    assert code == 2, lines
    parsed = [json.loads(line) for line in lines]  # every line one JSON object
    [line] = [x for x in parsed if x["level"] != "INFO"]
    assert line["level"] == "ERROR" and "traceback" not in line, line
    assert f"has schema version {newer}, newer than this bot knows" in line["message"]
    assert "upgrade the bot" in line["message"]
