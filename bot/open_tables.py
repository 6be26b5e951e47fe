"""The open tables of this process: opening, restoring, resuming, closing, and finding them.

The bot makes one ``OpenTables`` (``bot.tables``). Each open table is a ``TableRunner`` (its
time) with its courier's surfaces (how it is shown); the registry keeps them by table and by
channel, shares Discord's request budget between them (the edit interval), and stops them
all when the bot stops. It is given what it needs: the store, the runners' timing, and two
makers the bot wires — the table's Discord surface, and every surface a table is shown on
(``surfaces``: its pages, its Discord messages, the community's) — so it imports no surface.
What people ask of a table is the table service's (``bot.service``); cogs ask the registry
only to find tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import Any, Protocol

from bot.courier import Surface
from bot.discord_surface import DiscordSurface
from bot.runner import TableRunner, Timing
from bot.session import SessionError, TableSession
from bot.store import Member, Store, StoreError

log = logging.getLogger(__name__)

#: Table-message edits a second, all tables together (Discord: 50 requests a second a bot).
TABLE_EDITS_PER_SECOND = 30


class Settings(Timing, Protocol):
    """The bot's settings the registry reads (``bot.settings.Settings`` has them)."""

    @property
    def edit_interval(self) -> float: ...


#: A table's Discord surface: made for its session, its runner's clock and the edit interval.
DiscordMaker = Callable[[TableSession, TableRunner, Callable[[], float]], DiscordSurface]


class OpenTable:
    """One open table: its runner (time) and its Discord surface (messages)."""

    __slots__ = ("discord", "runner")

    def __init__(self, runner: TableRunner, discord: DiscordSurface) -> None:
        self.runner = runner
        self.discord = discord

    @property
    def session(self) -> TableSession:
        return self.runner.session

    @property
    def id(self) -> int:
        return self.runner.id


class OpenTables:
    """The registry of open tables (see the module docstring).

    ``share``: this process's share of the bot's request budget (its shards' share);
    ``ready``: returns once the bot is connected (restored tables resume then)."""

    def __init__(self, store: Store, settings: Settings, *, share: float,
                 discord: DiscordMaker, surfaces: Callable[[OpenTable], Iterable[Surface]],
                 ready: Callable[[], Awaitable[Any]]) -> None:
        self.store = store
        self.settings = settings
        self.share = share
        self._discord = discord
        self._surfaces = surfaces
        self._ready = ready
        self.open: dict[int, OpenTable] = {}
        self.by_channel: dict[int, int] = {}
        #: Set once the bot is stopping: no table starts anything new.
        self.closing = False
        self._playing_count = 0
        self._playing_at = -1e9
        self._resuming: asyncio.Task[None] | None = None

    # -- finding -------------------------------------------------------------------------------

    def get(self, table_id: int) -> OpenTable | None:
        return self.open.get(table_id)

    def in_channel(self, channel_id: int | None) -> OpenTable | None:
        return self.open.get(self.by_channel.get(channel_id or 0, 0))

    def session_in(self, channel_id: int | None) -> TableSession | None:
        table = self.in_channel(channel_id)
        return None if table is None else table.session

    @property
    def sessions(self) -> dict[int, TableSession]:
        return {tid: table.session for tid, table in self.open.items()}

    def __iter__(self) -> Iterator[OpenTable]:
        return iter(list(self.open.values()))

    # -- the request budget --------------------------------------------------------------------

    def edit_interval(self) -> float:
        """Seconds between two edits of one table message. Discord allows a bot 50 requests
        a second in all; table edits get at most TABLE_EDITS_PER_SECOND of them, shared by
        the tables in play, so the interval grows with the number of tables."""
        share = TABLE_EDITS_PER_SECOND * self.share  # shard processes share the token
        return max(self.settings.edit_interval, self._playing / share)

    @property
    def _playing(self) -> int:
        # Counted once a second at most: every refresh asks, and there may be hundreds of
        # tables.
        now = time.monotonic()
        if now - self._playing_at > 1.0:
            self._playing_count = sum(1 for t in self.open.values()
                                      if t.session.state == "playing")
            self._playing_at = now
        return self._playing_count

    # -- opening and closing -------------------------------------------------------------------

    def _track(self, session: TableSession) -> OpenTable:
        runner = TableRunner(session, self.settings, self._forget)
        table = OpenTable(runner, self._discord(session, runner, self.edit_interval))
        for surface in self._surfaces(table):
            runner.courier.add(surface)
        self.open[session.id] = table
        self.by_channel[session.channel_id] = session.id
        return table

    def _forget(self, runner: TableRunner) -> None:
        """The table is closed: drop it from the maps (its runner stops itself)."""
        table = self.open.get(runner.id)
        if table is not None and table.runner is runner:
            del self.open[runner.id]
        if self.by_channel.get(runner.session.channel_id) == runner.id:
            del self.by_channel[runner.session.channel_id]

    async def create(self, *, guild_id: int, channel_id: int, game: str,
                     options: dict[str, Any], opener_id: int, seats: int,
                     settings: dict[str, Any],
                     members: list[Member | None] | None = None) -> OpenTable:
        """A new table in the lobby (its message is the caller's to post), its seats empty
        or taken by ``members`` (a tournament's draw)."""
        if self.in_channel(channel_id) is not None:
            raise SessionError("err.channel_busy")
        try:
            row = await self.store.create_table(
                guild_id=guild_id, channel_id=channel_id, game=game, options=options,
                opener_id=opener_id, seats=list(members or [None] * seats),
                settings=settings)
        except StoreError:
            raise SessionError("err.channel_busy") from None
        return self._track(TableSession(row, self.store))

    async def discard(self, table: OpenTable) -> None:
        """A table whose message could not be posted: it never existed for anybody."""
        await table.session.close()
        self._forget(table.runner)
        table.runner.stop()

    # -- start-up and shut-down ----------------------------------------------------------------

    async def restore(self) -> None:
        """Rebuild the open tables of this process's shards from the store (each hand from
        its log); they resume once the bot is connected."""
        restored = []
        for row in await self.store.owned_tables():
            try:
                session = await TableSession.restore(row, self.store)
            except Exception:
                log.exception("table %s could not be restored; closing it", row.id)
                await self.store.update_table(row.id, state="closed")
                continue
            restored.append(self._track(session))
        self._resuming = asyncio.get_running_loop().create_task(self._resume(restored))

    async def _resume(self, restored: list[OpenTable]) -> None:
        """Once connected, bring back the tables restored from the store (only those: tables
        opened since have their own timers and drivers already)."""
        await self._ready()
        for table in restored:
            if table.runner.closed:
                continue
            if table.session.state == "lobby":
                table.runner.start_lobby_timer()
            else:
                table.discord.request_refresh()
                table.runner.kick()

    async def stop(self) -> None:
        """The bot is stopping: every table stops where it is (as stored)."""
        self.closing = True
        if self._resuming is not None:
            self._resuming.cancel()
        # The surface's tasks first: stopping the runner stops its surfaces.
        cancelled = [task for table in self.open.values()
                     for task in table.discord.tasks() + table.runner.stop()]
        for task in cancelled:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
