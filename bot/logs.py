"""The bot's log: one line an event, as text (the default) or as JSON (``LOG_FORMAT=json``).

Every line logged while the bot works on a table — a click on it, its driver's timers, the
delivery of its messages — carries the table's, its server's and its hand's ids. A task that
serves one request says so (``serving``: the bot's entry for every interaction); the
registry of open tables, finding the table the request is about, says which
(``about_table``); a table's own tasks are started about it (``context_about``). The ids ride
along in the task's context (``contextvars``; a task started from there inherits them), and
only there: a background task that looks tables up (the web feed, the diagnostics) is about
none. In JSON they are the fields ``table_id``, ``guild_id`` and ``hand_id``; the text lines
stay as they are.

A client's malformed request to the web server (a bad header, a line too long) is the
client's fault, not the bot's: aiohttp logs it at ERROR with a traceback, and here it
becomes one WARNING line saying what was refused.

>>> import io
>>> stream = io.StringIO()
>>> handler = make_handler("json", stream)
>>> table = type("T", (), {"id": 7, "guild_id": 3, "hand_id": 12})()
>>> serving()
>>> about_table(table)
>>> handler.handle(logging.makeLogRecord({"name": "bot.x", "msg": "hi %s", "args": ("all",),
...                                        "levelname": "INFO", "levelno": 20}))
True
>>> line = json.loads(stream.getvalue())
>>> line["message"], line["table_id"], line["guild_id"], line["hand_id"]
('hi all', 7, 3, 12)
>>> _serving.set(False) and None
"""

from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
import os
import sys
from typing import IO, Any, Protocol

from aiohttp.http_exceptions import HttpProcessingError


class Table(Protocol):
    """What a log line says of a table: its ids (the hand's changes as it plays)."""

    @property
    def id(self) -> int: ...
    @property
    def guild_id(self) -> int: ...
    @property
    def hand_id(self) -> int | None: ...


#: The table the current task works on.
_table: contextvars.ContextVar[Table | None] = contextvars.ContextVar("table", default=None)
#: Whether the current task serves one request (whose table the next look-up finds).
_serving: contextvars.ContextVar[bool] = contextvars.ContextVar("serving", default=False)

#: The format of the bot's own lines (the stand-in tests read levels from it as `` ERROR ``).
TEXT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"

#: The handler ``configure`` installed on the root logger, replaced when called again.
_installed: logging.Handler | None = None


def serving() -> None:
    """The current task serves one request (an interaction, an Activity's move): the table it
    finds is the one its lines are about."""
    _serving.set(True)
    _table.set(None)


def about_table(table: Table | None) -> None:
    """If the current task serves a request: from now on, in it and the tasks it starts,
    lines are about ``table``."""
    if _serving.get():
        _table.set(table)


def context_about(table: Table) -> contextvars.Context:
    """A copy of the current context in which lines are about ``table``: for a task of the
    table's own (``loop.create_task(..., context=...)``)."""
    context = contextvars.copy_context()
    context.run(_table.set, table)
    context.run(_serving.set, False)  # its look-ups of other tables change nothing
    return context


class TableIds(logging.Filter):
    """Puts the ids of the table the task works on into each record (None elsewhere)."""

    def filter(self, record: logging.LogRecord) -> bool:
        table = _table.get()
        record.table_id = None if table is None else table.id
        record.guild_id = None if table is None else table.guild_id
        record.hand_id = None if table is None else table.hand_id
        return True


class JsonLines(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the table's ids
    when it is about one, and the traceback, if any, as one string."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("table_id", "guild_id", "hand_id"):
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["traceback"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


class ClientFaults(logging.Filter):
    """aiohttp's server logs a request it cannot parse (a client's bad header, a request line
    over its limit) at ERROR with the parser's traceback: the bot did nothing wrong. Here it
    becomes one WARNING line saying what was refused and to whom."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError) and 400 <= (error.code or 0) < 500:
            what = " ".join(str(error.message).split())[:120]
            said = record.getMessage()
            record.msg = "%s: refused (%s %s)"
            record.args = (said, error.code, what)
            if record.levelno > logging.WARNING:
                record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = None
            record.exc_text = None
        return True


def make_handler(fmt: str, stream: IO[str] | None = None) -> logging.Handler:
    """The handler of the bot's lines in format ``fmt`` (``text`` or ``json``)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines() if fmt == "json" else logging.Formatter(TEXT))
    handler.addFilter(TableIds())
    return handler


def configure(level: str, fmt: str | None = None) -> None:
    """Every logger's lines (discord.py's and aiohttp's too) at ``level`` and above, in
    ``fmt``; without it, ``LOG_FORMAT`` from the environment (the log starts before the
    settings are read, so that a bad setting is a log line too)."""
    global _installed
    if fmt is None:
        fmt = "json" if os.environ.get("LOG_FORMAT", "").strip().lower() == "json" else "text"
    root = logging.getLogger()
    if _installed is not None:
        root.removeHandler(_installed)
    _installed = make_handler(fmt)
    root.addHandler(_installed)
    root.setLevel(logging.getLevelNamesMapping()[level])
    server = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, ClientFaults) for f in server.filters):
        server.addFilter(ClientFaults())
