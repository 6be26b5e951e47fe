"""One cross-server table shown in several servers' channels: a *venue* is one server's
channel and table message, with the people who play from that server.

The table's home (the server it was formed in) is its own row; each further server is a
``VenueRow``. Every venue is a Discord surface of the table's courier like the home's
(``bot.discord_surface``): its table message, its results, its players' hand views and
turn signals, in its own server's language and pictures. It draws the same table through a
``VenueSession``, the table's session as that venue sees it — its server, channel and
message, nothing kept over the home's — so that the surface itself needs no change.

``CrossplaySurface`` is the surface of each venue, the home's too: it signals a turn only
where the people waited for play from, and tells its own players why a seat went to the
computer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.courier import Signal
from bot.discord_surface import DiscordSurface
from bot.session import TableSession
from bot.store import Member, Store, VenueRow


class VenueSession:
    """``session`` as ``venue`` shows it: another server, channel and table message (kept
    in the venue's row, never in the table's), no thread, its own runtime values; all the
    rest is the table's own session (one table, one lock, one hand)."""

    def __init__(self, session: TableSession, venue: VenueRow, store: Store) -> None:
        self.__dict__.update(_session=session, _venue=venue, _store=store)

    # What differs from the home's: where it is shown.

    @property
    def venue(self) -> VenueRow:
        venue: VenueRow = self.__dict__["_venue"]
        return venue

    @property
    def guild_id(self) -> int:
        return self.venue.guild_id

    @property
    def channel_id(self) -> int:
        return self.venue.channel_id

    @property
    def message_id(self) -> int | None:
        return self.venue.message_id

    @message_id.setter
    def message_id(self, value: int | None) -> None:
        self.__dict__["_venue"] = self.venue.model_copy(update={"message_id": value})

    @property
    def thread_id(self) -> int | None:
        return None

    @property
    def store(self) -> VenueSession:
        """The surface stores its message's id through ``store.update_table``: here, in
        the venue's row."""
        return self

    async def update_table(self, table_id: int, *, message_id: int | None = None,
                           **_: Any) -> None:
        if message_id is not None:
            self.message_id = message_id
        store: Store = self.__dict__["_store"]
        await store.put_venue(self.venue)

    async def keep(self, **values: Any) -> None:
        """The venue's own runtime values (its turn signal): in its row, not the table's."""
        runtime = {k: v for k, v in {**self.venue.runtime, **values}.items() if v is not None}
        self.__dict__["_venue"] = self.venue.model_copy(update={"runtime": runtime})
        await self.update_table(self.venue.table_id)

    @property
    def row(self) -> Any:
        """The table's row, with the venue's runtime values (its signal) in place of the
        home's."""
        session: TableSession = self.__dict__["_session"]
        runtime = {**session.row.runtime, "signal": self.venue.runtime.get("signal")}
        return session.row.model_copy(update={"runtime": runtime})

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_session"], name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "message_id":
            object.__setattr__(self, name, value)
        else:
            setattr(self.__dict__["_session"], name, value)


class CrossplaySurface(DiscordSurface):
    """The Discord surface of one venue of a cross-server table (the home's too):
    ``members()``, the people who play from its server."""

    members: Callable[[], set[Member]]

    async def signal(self, signal: Signal, seconds: int) -> None:
        """A turn's signal, only where somebody waited for plays from: a mention of a person
        of another server would name nobody here."""
        s = self.session
        mine = self.members()
        if not any(s.seats[seat] in mine for seat in s.waiting_for_human()):
            await self.unsignal()
            return
        await super().signal(signal, seconds)
