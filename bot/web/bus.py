"""News between the processes that serve pages: "table T changed", "server G's key changed".

With one process (SQLite) the news stays in the process (``LocalBus``). With shard
processes on PostgreSQL, any process may serve any table's page while another one drives
the table, so the news travels by PostgreSQL's ``LISTEN``/``NOTIFY`` (``PgBus``) on a
connection of the bus's own (the store's pool is for queries; a listening connection must
stay open). A message is a short text: ``t:TABLE`` or ``t:TABLE:DEADLINE`` (a table changed;
the wall-clock moment its wait ends, when one runs) and ``k:GUILD`` (a server's web key
changed).

The same bus, on a channel of its own (``bot.crossplay.relay``), carries the clicks a shard
process hands to the process that drives their table: ``c:SHARD:ID``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Protocol

import asyncpg

log = logging.getLogger(__name__)

#: The PostgreSQL channel of the bot's web news.
CHANNEL = "filicau_web"

Handler = Callable[[str], None]


class Bus(Protocol):
    async def start(self, handler: Handler) -> None:
        """From now on, every message published by any process reaches ``handler`` (in
        this process's event loop), this process's own at once."""
        ...

    async def publish(self, message: str) -> None: ...
    async def stop(self) -> None: ...


class LocalBus:
    """One process: a message reaches the handler directly."""

    def __init__(self) -> None:
        self.handler: Handler | None = None

    async def start(self, handler: Handler) -> None:
        self.handler = handler

    async def publish(self, message: str) -> None:
        if self.handler is not None:
            self.handler(message)

    async def stop(self) -> None:
        self.handler = None


#: Seconds between attempts to listen again after the connection died.
RECONNECT_SECONDS = 1.0


class PgBus:
    """``LISTEN``/``NOTIFY`` on one connection of its own. A message published here reaches
    this process's handler at once (not after the round trip), and the notification
    PostgreSQL sends back to this connection is recognised by its sender's pid and
    dropped. If the connection dies, the bus connects again; pages miss nothing meanwhile,
    because a page asks for the moves after the last it has (``bot.web.live``)."""

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        self.url = url
        self.channel = channel
        self.handler: Handler | None = None
        self.con: asyncpg.Connection | None = None
        self.pid: int | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._lost = asyncio.Event()
        self._closing = False
        #: One query at a time on the connection.
        self._sending = asyncio.Lock()

    async def start(self, handler: Handler) -> None:
        self.handler = handler
        await self._connect()
        self._keeper = asyncio.create_task(self._keep())

    async def _connect(self) -> None:
        con = await asyncpg.connect(self.url)
        con.add_termination_listener(lambda _con: self._lost.set())
        await con.add_listener(self.channel, self._heard)
        self.con, self.pid = con, con.get_server_pid()
        self._lost.clear()

    def _heard(self, _con: Any, pid: int, _channel: str, payload: object) -> None:
        if pid != self.pid and self.handler is not None:
            self.handler(str(payload))

    async def _keep(self) -> None:
        while not self._closing:
            await self._lost.wait()
            if self._closing:
                return
            log.warning("web bus: the listening connection died; connecting again")
            while not self._closing:
                try:
                    await self._connect()
                    break
                except (OSError, asyncpg.PostgresError) as e:
                    log.warning("web bus: cannot listen yet (%r)", e)
                    await asyncio.sleep(RECONNECT_SECONDS)

    async def publish(self, message: str) -> None:
        if self.handler is not None:
            self.handler(message)
        con = self.con
        if con is None or con.is_closed():
            log.warning("web bus: not connected; %s reaches this process only", message)
            return
        try:
            async with self._sending:
                await con.execute("SELECT pg_notify($1, $2)", self.channel, message)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            log.warning("web bus: could not publish %s (%r)", message, e)

    async def stop(self) -> None:
        self._closing = True
        self._lost.set()
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        if self.con is not None and not self.con.is_closed():
            with contextlib.suppress(Exception):
                await self.con.close()
        self.handler = None
