"""The bot's log as an operator's tools read it: ``LOG_FORMAT=json`` gives one JSON object a
line, every line about a table carries its table's, server's and hand's ids, and a client's
malformed request to the web server is one WARNING line, not an ERROR with a traceback."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from aiohttp import web
from fake_discord import GUILD_ID, Harness

from bot import logs
from bot.texts import t


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The root logger's lines as JSON, into a buffer (the harness's own handlers stay)."""
    stream = io.StringIO()
    handler = logs.make_handler("json", stream)
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    """Every line, each of which must be one JSON object."""
    return [json.loads(line) for line in stream.getvalue().splitlines()]


async def test_json_lines_about_a_table_carry_its_ids(h: Harness, json_log: io.StringIO
                                                      ) -> None:
    users = [h.user(n) for n in ("ana", "bob", "cid", "dan")]
    await h.command(users[0], "table new", game="filicau")
    for user, label in zip(users, ("btn.join_a", "btn.join_b") * 2, strict=True):
        await h.press(user, t(label))
    await h.press(users[0], t("btn.start"))
    logging.getLogger("tests").info("not about a table")
    session = h.session()
    found = lines(json_log)
    opened = next(x for x in found if "opened" in x["message"])
    dealt = next(x for x in found if x["message"].endswith("hand 1 dealt"))
    for line in (opened, dealt):
        assert line["table_id"] == session.id and line["guild_id"] == GUILD_ID, line
        assert line["level"] == "INFO" and line["logger"].startswith("bot.")
        assert line["time"].endswith("+00:00")
    # Before its hand is dealt, a table has no hand id; the dealt line has the new one.
    assert "hand_id" not in opened
    assert dealt["hand_id"] == session.hand_id is not None
    # A line of another task knows no table: the ids stay with the table's own work.
    [other] = [x for x in found if x["message"] == "not about a table"]
    assert not {"table_id", "guild_id", "hand_id"} & other.keys()


async def test_a_tables_own_tasks_keep_its_ids() -> None:
    """The driver's timers run in tasks the table starts (``TableRunner._spawn``): their lines
    are about the table without anybody saying so again."""
    table = type("T", (), {"id": 5, "guild_id": 9, "hand_id": 11})()
    stream = io.StringIO()
    handler = logs.make_handler("json", stream)
    logger = logging.getLogger("tests.timer")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        async def timer() -> None:
            logger.info("turn timed out")

        await asyncio.get_running_loop().create_task(timer(),
                                                     context=logs.context_about(table))
        logger.info("elsewhere")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    timed, elsewhere = lines(stream)
    assert (timed["table_id"], timed["guild_id"], timed["hand_id"]) == (5, 9, 11)
    assert "table_id" not in elsewhere


def test_a_traceback_is_one_json_string() -> None:
    stream = io.StringIO()
    handler = logs.make_handler("json", stream)
    try:
        raise ValueError("broken")
    except ValueError:
        record = logging.LogRecord("bot.x", logging.ERROR, __file__, 1, "failed", None,
                                   exc_info=sys.exc_info())
    handler.handle(record)
    [line] = lines(stream)
    assert line["level"] == "ERROR" and "ValueError: broken" in line["traceback"]


async def test_a_malformed_request_is_one_warning_without_traceback(
        capsys: pytest.CaptureFixture[str]) -> None:
    """aiohttp logs a request it cannot parse at ERROR with its parser's traceback; the
    bot's log set-up makes it one WARNING line naming what was refused."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    server_log = logging.getLogger("aiohttp.server")
    filters = list(server_log.filters)
    async def ok(_: web.Request) -> web.Response:
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/", ok)
    runner = web.AppRunner(app)
    try:
        logs.configure("INFO", "json")
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        host, port = runner.addresses[0][:2]
        for raw in (b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
                    b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"):
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(raw)
            await writer.drain()
            answer = await reader.read()
            writer.close()
            assert answer.startswith(b"HTTP/1.0 400") or answer.startswith(b"HTTP/1.1 400")
    finally:
        await runner.cleanup()
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(level)
        server_log.filters[:] = filters
    found = [json.loads(x) for x in capsys.readouterr().err.splitlines()]
    refused = [x for x in found if x["logger"] == "aiohttp.server"]
    assert len(refused) == 2, found
    for line in refused:
        assert line["level"] == "WARNING" and "traceback" not in line, line
        assert "refused (400" in line["message"], line
    assert "Invalid header token" in refused[0]["message"]
    assert not [x for x in found if x["level"] in ("ERROR", "CRITICAL")]
