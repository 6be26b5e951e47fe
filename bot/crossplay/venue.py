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

Its table message is a follow-up of the ``/play`` of a player of its server
(``PostedDelivery``): posted, edited and followed by the results through that interaction's
token, so that a table across servers spends none of the bot's global limit while the token
lives (15 minutes from the ``/play``), like a table of one server opened by a command; after
that, or after a restart (tokens are not stored), through the channel as before.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import discord

from bot.courier import Change, Signal
from bot.delivery import FAILURES, Delivery, Edit, Message, Token
from bot.discord_surface import DiscordSurface
from bot.session import TableSession
from bot.store import Member, Store, VenueRow, Waiting


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

    async def dealt(self, change: Change) -> None:
        """A new hand: shown on every server's table message. The click that dealt it was
        answered in one server's channel at most (there the edit finds the message showing
        it already, and makes no request)."""
        await super().dealt(change)
        self.request_refresh()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The same delivery (the hand views and the turn signal hold it), able to post the
        # table as a follow-up of a /play and to edit it by that token.
        self.delivery.__class__ = PostedDelivery

    def post_by(self, waiting: Waiting) -> None:
        """The table message is to be posted as a follow-up of this player's ``/play``
        (they queued from this surface's channel)."""
        if isinstance(self.delivery, PostedDelivery) \
                and waiting.channel_id == self.session.channel_id:
            self.delivery.via(PostedToken.of_waiting(waiting))


class PostedToken(Token):
    """A ``/play``'s token, and the follow-up of it that is the table message."""

    __slots__ = ("message_id",)

    def __init__(self, application_id: int, token: str, locale: discord.Locale, *,
                 since: float, message_id: int | None = None) -> None:
        super().__init__(application_id, token, locale, since=since)
        self.message_id = message_id

    @classmethod
    def of_waiting(cls, waiting: Waiting) -> PostedToken:
        """The token of a player's ``/play``, as old as the time they queued."""
        try:
            locale = discord.Locale(waiting.locale)
        except ValueError:
            locale = discord.Locale.american_english
        age = max(0.0, time.time() - datetime.fromisoformat(waiting.queued_at).timestamp())
        return cls(waiting.application_id, waiting.token, locale,
                   since=time.monotonic() - age)


class PostedDelivery(Delivery):
    """A table's routes whose table message is a follow-up of a ``/play`` (see the module
    docstring): ``send`` to the channel posts it by the token, the edits of that message
    go by the token, and ``post`` (results, signals) follows up the token as with any
    table's."""

    def via(self, token: PostedToken) -> None:
        self._token = token

    async def send(self, channel_id: int, *, what: str = "send a message",
                   **fields: Any) -> Message | None:
        token = self.token
        if isinstance(token, PostedToken) and token.message_id is None \
                and channel_id == self.channel_id:
            try:
                sent = await self._followup(token).send(
                    **{k: (discord.utils.MISSING if v is None else v)
                       for k, v in fields.items()}, wait=True)
            except FAILURES as e:
                self._warn(what, e)
                self.forget()  # through the channel, then
            else:
                token.message_id = sent.id
                return sent
        return await super().send(channel_id, what=what, **fields)

    async def edit(self, message_id: int | None, channel_id: int | None = None, *,
                   token: Token | None = None, what: str = "edit a message",
                   **fields: Any) -> Edit:
        if isinstance(token, PostedToken):
            if token.message_id is None or token.message_id != message_id or token.expired:
                token = None  # not the message it posted: the channel route
            else:
                try:
                    await self._followup(token).edit_message(token.message_id, **fields)
                    return Edit.DONE
                except FAILURES as e:
                    self._warn(what, e)
                    if self._token is token:
                        self.forget()
                    token = None
        return await super().edit(message_id, channel_id, token=token, what=what, **fields)
