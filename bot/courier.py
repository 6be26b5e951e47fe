"""The courier: the one way a table's updates leave it, to every surface that shows it.

A *surface* is somewhere people see the table: its Discord messages (``DiscordSurface``), a
web page, the Activity. The table service (``bot.service``, a person's request) and the runner
(``bot.runner``, the table's own time) say what happened — the table changed (a ``Change``:
the moves, whose request it was and from which surface), a hand was dealt, a turn needs a
signal, the table closed — and the courier hands it to each surface, which decides how (and
whether) to show it. Neither knows which surfaces there are; a surface that fails is logged
and the others still get the news.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from bot.session import Moves, Played
from engine import HandResult

log = logging.getLogger(__name__)


class Signal(Enum):
    """What a turn's one live signal says, as the turn goes on."""

    #: A few seconds in: it is your turn.
    TURN = "turn"
    #: At two thirds of the turn: the computer plays for you soon.
    WARNING = "warning"


class Via(Enum):
    """The surface a person's request came from (the table itself: a computer, a timer)."""

    DISCORD = "discord"
    ACTIVITY = "activity"
    TABLE = "table"


@dataclass(frozen=True)
class Change:
    """What moved at a table, as every surface hears it: the moves applied (none: the seats,
    an option or a player's state changed), the seat of the person whose request it was and
    the surface it came from. A surface that answered the request itself (the Discord click
    was answered with the player's hand view) knows from ``via`` that it need not show it
    again; the others show it.

    >>> Change(seat=2, via=Via.ACTIVITY).finished
    False
    """

    moves: Moves | None = None
    #: The seat of the person whose request it was (None: the table's own doing).
    seat: int | None = None
    via: Via = Via.TABLE
    #: The seat's player left during the hand: the computer plays it from now on.
    left: bool = False

    @property
    def played(self) -> list[Played]:
        return [] if self.moves is None else self.moves.played

    @property
    def result(self) -> HandResult | None:
        """The hand's result, when these moves ended it."""
        return None if self.moves is None else self.moves.result

    @property
    def finished(self) -> bool:
        return self.result is not None


class Surface(Protocol):
    """Where a table is shown. Every method is called in the order things happened."""

    async def changed(self, change: Change) -> None:
        """The table moved: moves, a change of seats, a player back or gone."""

    async def dealt(self, change: Change) -> None:
        """A new hand was dealt (``change``: at whose request, from where)."""

    async def signal(self, signal: Signal, seconds: int) -> None:
        """The people to act now are waited for (``seconds`` left of their turn)."""

    async def notice(self, key: str, seat: int) -> None:
        """A public notice about a seat (``turn.autoplay``, ``turn.left``)."""

    async def closed(self, key: str) -> None:
        """The table closed; ``key`` says why, in a sentence of the catalogs."""

    def stop(self) -> None:
        """Drop everything held (the table is closed, or the bot is stopping)."""


class QuietSurface:
    """A surface that shows nothing by default: a surface that reacts to a few things only
    (a reminder to a turn's warning, a tournament to a hand's end) says which."""

    async def changed(self, change: Change) -> None:
        return None

    async def dealt(self, change: Change) -> None:
        return None

    async def signal(self, signal: Signal, seconds: int) -> None:
        return None

    async def notice(self, key: str, seat: int) -> None:
        return None

    async def closed(self, key: str) -> None:
        return None

    def stop(self) -> None:
        return None


class Courier:
    """Hands each update of one table to every surface showing it."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.surfaces: list[Surface] = []

    def add(self, surface: Surface) -> None:
        self.surfaces.append(surface)

    async def _each(self, what: str, call: Callable[[Surface], Awaitable[None]]) -> None:
        for surface in list(self.surfaces):
            try:
                await call(surface)
            except Exception:
                # One surface failing (a bug in it) must not keep the news from the others,
                # nor stop the table.
                log.exception("table %s: %s could not show %s", self.table_id,
                              type(surface).__name__, what)

    async def changed(self, change: Change | None = None) -> None:
        news = Change() if change is None else change
        await self._each("a change", lambda s: s.changed(news))

    async def dealt(self, change: Change | None = None) -> None:
        news = Change() if change is None else change
        await self._each("a new hand", lambda s: s.dealt(news))

    async def signal(self, signal: Signal, seconds: int) -> None:
        await self._each(f"the {signal.value} signal", lambda s: s.signal(signal, seconds))

    async def notice(self, key: str, seat: int) -> None:
        await self._each(key, lambda s: s.notice(key, seat))

    async def closed(self, key: str) -> None:
        await self._each("the end of the table", lambda s: s.closed(key))

    def stop(self) -> None:
        for surface in self.surfaces:
            surface.stop()
        self.surfaces.clear()
