"""A table's web pages as one more surface of its courier.

The courier (``bot.courier`` on main) hands each update of a table to every surface showing
it; this one only says "table T changed" (with the turn's deadline, for the pages'
countdown) to every process serving a page of it (``Feed.changed``): the pages read the
rest from the store. It has the methods of ``bot.courier.Surface``, without importing it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.web.live import Feed


class WebSurface:
    """``courier.add(WebSurface(bot.web.feed, table_id, runner.deadline))``."""

    def __init__(self, feed: Feed, table_id: int,
                 deadline: Callable[[], float | None] = lambda: None) -> None:
        self.feed = feed
        self.table_id = table_id
        self.deadline = deadline

    async def _changed(self) -> None:
        await self.feed.changed(self.table_id, self.deadline())

    async def changed(self, outcome: Any = None) -> None:
        await self._changed()

    async def dealt(self, change: Any = None) -> None:
        await self._changed()

    async def signal(self, signal: Any, seconds: int) -> None:
        # A wait has begun: its deadline is known now (the pages count it down).
        await self._changed()

    async def notice(self, key: str, seat: int) -> None:
        """A notice changes nothing stored that a page shows; the Activity says it."""
        await self.feed.notice(self.table_id, key, seat)

    async def closed(self, key: str) -> None:
        await self.feed.changed(self.table_id)

    def stop(self) -> None:
        """Nothing is held: the pages' state lives in the store and the feed."""
