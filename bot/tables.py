"""The open tables of this process: opening, restoring, resuming, closing, and finding them.

The bot owns one ``Tables`` (``bot.tables``, made in ``setup_hook``). Each open table is a
``TableRunner`` (its time) with its courier's surfaces (how it is shown); the registry keeps
them by table and by channel, shares Discord's request budget between them (the edit
interval), and stops them all when the bot stops. Cogs ask it for tables and parse and answer
clicks; they hold no table state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.courier import Surface
from bot.discord_surface import DiscordSurface
from bot.runner import TableRunner
from bot.session import SessionError, TableSession
from bot.store import Member, StoreError
from bot.web.surface import WebSurface

if TYPE_CHECKING:
    from bot.client import FilicauBot

log = logging.getLogger(__name__)

#: Table-message edits a second, all tables together (Discord: 50 requests a second a bot).
TABLE_EDITS_PER_SECOND = 30


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


class Tables:
    """The registry of open tables (see the module docstring)."""

    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot
        self.open: dict[int, OpenTable] = {}
        self.by_channel: dict[int, int] = {}
        #: Set once the bot is stopping: no table starts anything new.
        self.closing = False
        self._playing_count = 0
        self._playing_at = -1e9
        self._resuming: asyncio.Task[None] | None = None
        #: What else shows a table, besides its messages and its page: each maker is asked
        #: for a surface for every table tracked (None: not this one). Added by the bot's
        #: services (``bot.community``) before the tables are restored.
        self.surface_makers: list[Callable[[OpenTable], Surface | None]] = []

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

    def __iter__(self) -> Any:
        return iter(list(self.open.values()))

    # -- the request budget --------------------------------------------------------------------

    def edit_interval(self) -> float:
        """Seconds between two edits of one table message. Discord allows a bot 50 requests
        a second in all; table edits get at most TABLE_EDITS_PER_SECOND of them, shared by
        the tables in play, so the interval grows with the number of tables."""
        share = TABLE_EDITS_PER_SECOND * self.bot.rate_share  # shard processes share the token
        return max(self.bot.settings.edit_interval, self._playing / share)

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
        runner = TableRunner(session, self.bot.settings, self._forget)
        surface = DiscordSurface(session, self.bot, runner, self.edit_interval)
        if self.bot.web is not None:
            # First: it only announces the change, while the Discord surface waits for
            # Discord's answers (a move from the Activity reaches the pages without them).
            runner.courier.add(WebSurface(self.bot.web.feed, session.id, runner.deadline))
        runner.courier.add(surface)
        table = OpenTable(runner, surface)
        for make in self.surface_makers:
            extra = make(table)
            if extra is not None:
                runner.courier.add(extra)
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
            row = await self.bot.store.create_table(
                guild_id=guild_id, channel_id=channel_id, game=game, options=options,
                opener_id=opener_id, seats=list(members or [None] * seats),
                settings=settings)
        except StoreError:
            raise SessionError("err.channel_busy") from None
        return self._track(TableSession(row, self.bot.store))

    async def discard(self, table: OpenTable) -> None:
        """A table whose message could not be posted: it never existed for anybody."""
        await table.session.close()
        self._forget(table.runner)
        table.runner.stop()

    async def close(self, table: OpenTable, key: str) -> None:
        """Close an open table, saying why (``key``) where it is shown."""
        await table.runner.close(key)

    # -- start-up and shut-down ----------------------------------------------------------------

    async def restore(self) -> None:
        """Rebuild the open tables of this process's shards from the store (each hand from
        its log); they resume once the bot is connected."""
        restored = []
        for row in await self.bot.store.owned_tables():
            try:
                session = await TableSession.restore(row, self.bot.store)
            except Exception:
                log.exception("table %s could not be restored; closing it", row.id)
                await self.bot.store.update_table(row.id, state="closed")
                continue
            restored.append(self._track(session))
        self._resuming = asyncio.get_running_loop().create_task(self._resume(restored))

    async def _resume(self, restored: list[OpenTable]) -> None:
        """Once connected, bring back the tables restored from the store (only those: tables
        opened since have their own timers and drivers already)."""
        await self.bot.wait_until_ready()
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
