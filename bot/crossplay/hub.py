"""Play across servers in this process: the queue of every server, the tables it forms, and
where each is shown (``Crossplay``, made once by the bot's wiring).

*Everywhere* (``/play where:everywhere``) queues a player in the store's one queue of every
server (``bot.store.crossplay``); the matchmaker, behind the queue's lock in whichever
process asks, takes the players who may sit together (their servers still in, none barred,
no blocked pair). The process that formed the group opens the table, like a tournament's
(the table service: seated, started, under the table's lock): its home is the channel of the
longest waiting player of this process's servers whose channel has no table (so that this
process, the owner of the home's shard, drives it, and takes it back after a restart), and
every further server of the group a venue (``bot.crossplay.venue``) with its own table
message. A venue on another shard process gets its clicks there, which carries them here
(``bot.crossplay.relay``). Each player is told where, by a
follow-up of their own ``/play`` (their token: no request of the global limit).

A server that turns play across servers off withdraws its players from its cross-server
tables: the computer plays their seats from then on, and every venue says why.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from bot.community.quickplay import DEFAULT_SETTINGS, link
from bot.courier import Via
from bot.crossplay.venue import CrossplaySurface, VenueSession
from bot.delivery import FAILURES, Sender, describe
from bot.lobby import Actor, SessionError
from bot.open_tables import OpenTable, OpenTables
from bot.options import offers
from bot.runner import TableRunner
from bot.seats import is_computer, user_member
from bot.service import Outcome, TableService
from bot.store import Member, Store, VenueRow, Waiting, now
from bot.texts import game_title, language_of, speaking, t
from bot.watch import DEFAULT_WATCH
from engine import make_rules

log = logging.getLogger(__name__)

#: A table setting (``bot.lobby.SETTING_SWITCHES``): the table plays across servers.
CROSSPLAY = "crossplay"
#: Seconds a turn lasts at each pace a player may ask for.
PACES = {"quick": 30, "usual": 90, "slow": 180}
#: A ``/play``'s token lives 15 minutes: a player waits in the queue at most this long
#: (their answer could not be followed up after), then waits no more.
QUEUE_SECONDS = 14 * 60

#: A venue's Discord surface, made for the table's session as the venue sees it.
VenueMaker = Callable[[VenueSession, TableRunner], CrossplaySurface]


def plays_across(table: OpenTable) -> bool:
    return bool(table.session.row.settings.get(CROSSPLAY))


class Crossplay:
    """See the module docstring. ``venue``: makes a venue's surface (the bot's wiring)."""

    def __init__(self, store: Store, tables: OpenTables, service: TableService, *,
                 sender: Sender, venue: VenueMaker, wait: float,
                 owns: Callable[[int], bool] = lambda _guild_id: True) -> None:
        self.store = store
        #: Whether a server is on this process's shards: a table formed here has its home
        #: there, so that this process drives it (and takes it back after a restart).
        self.owns = owns
        #: Tells the other processes that a server withdrew (``bot.crossplay.relay``).
        self.elsewhere: Callable[[int], Awaitable[None]] | None = None
        #: Seconds in the queue before a player is offered computers (``CROSSPLAY_WAIT``).
        self.wait = wait
        #: The offer of computers due to each waiting player, by user.
        self.offers: dict[int, asyncio.Task[None]] = {}
        self.tables = tables
        self.service = service
        self.sender = sender
        self._venue = venue
        #: Each cross-server table's venues beside its home, by table and server: how the
        #: venue sees the table, and its surface.
        self.venues: dict[int, dict[int, tuple[VenueSession, CrossplaySurface]]] = {}

    # -- where a table is shown ------------------------------------------------------------

    def venues_of(self, table_id: int) -> list[VenueRow]:
        return [seen.venue for seen, _ in self.venues.get(table_id, {}).values()]

    def surfaces_in(self, guild_id: int) -> list[CrossplaySurface]:
        """The surfaces of the venues in a server (its tables across servers of other
        servers, as it shows them)."""
        return [v[guild_id][1] for v in self.venues.values() if guild_id in v]

    def shown_at(self, table: OpenTable, guild_id: int | None) -> OpenTable | None:
        """The table as a server shows it: its home, one of its venues (the same table
        with that venue's surface), or None (not shown there)."""
        if guild_id == table.session.guild_id:
            return table
        venue = self.venues.get(table.id, {}).get(guild_id or 0)
        return None if venue is None else OpenTable(table.runner, venue[1])

    def in_channel(self, channel_id: int | None) -> OpenTable | None:
        """The cross-server table a channel shows (as its home or a venue), if any."""
        home = self.tables.in_channel(channel_id)
        if home is not None:
            return home if plays_across(home) else None
        for table_id, venues in self.venues.items():
            table = self.tables.get(table_id)
            for seen, surface in venues.values():
                if table is not None and seen.channel_id == channel_id:
                    return OpenTable(table.runner, surface)
        return None

    def members(self, table_id: int, guild_id: int) -> set[Member]:
        """The people at a table who play from ``guild_id`` (at its home: all but the
        venues')."""
        table = self.tables.get(table_id)
        if table is None:
            return set()
        venues = self.venues_of(table_id)
        for venue in venues:
            if venue.guild_id == guild_id:
                return {user_member(u) for u in venue.members}
        away = {user_member(u) for v in venues for u in v.members}
        return {m for m in table.session.seats
                if m is not None and not is_computer(m) and m not in away}

    def _show(self, table: OpenTable, venue: VenueRow) -> CrossplaySurface:
        seen = VenueSession(table.session, venue, self.store)
        surface = self._venue(seen, table.runner)
        self.venues.setdefault(table.id, {})[venue.guild_id] = (seen, surface)
        table.runner.courier.add(surface)
        # Tables closed since are forgotten here (their surfaces stopped with them).
        self.venues = {tid: v for tid, v in self.venues.items()
                       if self.tables.get(tid) is not None or tid == table.id}
        return surface

    async def restore(self) -> None:
        """After the open tables are restored: each cross-server table's venues again."""
        for table in self.tables:
            if not plays_across(table):
                continue
            for venue in await self.store.venues(table.id):
                self._show(table, venue).request_refresh()

    # -- the queue -------------------------------------------------------------------------

    async def queue(self, waiting: Waiting) -> int:
        """Queue a player, then form every table the queue can; how many wait for the
        game after (0: the player was seated). One who still waits after ``wait`` seconds
        is offered computers."""
        await self.store.enqueue(waiting)
        await self.drop_stale()
        players = make_rules(waiting.game).players
        while (group := await self.store.form(waiting.game, players)) is not None:
            for w in group:
                self._cancel_offer(w.user_id)
            try:
                await self._open(group)
            except Exception:
                # Taken out of the queue but not seated: back in it, first in line.
                log.exception("a table across servers could not open; its players wait on")
                for w in group:
                    await self.store.enqueue(w)
                break
        if any(w.user_id == waiting.user_id for w in await self.store.waiting(waiting.game)):
            self._cancel_offer(waiting.user_id)
            self.offers[waiting.user_id] = asyncio.get_running_loop().create_task(
                self._offer(waiting))
        return len(await self.store.waiting(waiting.game))

    async def leave(self, user_id: int) -> bool:
        """Out of the queue (quick play in their own server); whether they were in it."""
        self._cancel_offer(user_id)
        return await self.store.dequeue(user_id) is not None

    def _cancel_offer(self, user_id: int) -> None:
        task = self.offers.pop(user_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _offer(self, waiting: Waiting) -> None:
        """Still waiting after a while: computers are offered, as at any table here — quick
        play in their own server opens one (and takes them out of the queue)."""
        await asyncio.sleep(self.wait)
        if not any(w.token == waiting.token for w in await self.store.waiting(waiting.game)):
            return
        with speaking(language_of(waiting.locale)):
            text = t("crossplay.computers",
                     game=game_title(waiting.game, make_rules(waiting.game).title))
        try:
            await self.sender.webhook(waiting.application_id, waiting.token).send(
                text, ephemeral=True)
        except FAILURES as e:
            log.info("could not offer computers to %s (%s)", waiting.user_id, describe(e))
        finally:
            if self.offers.get(waiting.user_id) is asyncio.current_task():
                del self.offers[waiting.user_id]

    def stop(self) -> None:
        for task in self.offers.values():
            task.cancel()
        self.offers.clear()

    def pending(self) -> list[asyncio.Task[None]]:
        """The venues' table-message refreshes under way (the tests await them)."""
        return [task for venues in self.venues.values() for _seen, surface in venues.values()
                for task in surface.tasks()]

    async def drop_stale(self) -> None:
        """Players who waited longer than their ``/play`` can be answered: out."""
        cutoff = now_seconds() - QUEUE_SECONDS
        for w in await self.store.waiting():
            if seconds_of(w.queued_at) < cutoff:
                await self.store.dequeue(w.user_id)

    async def _open(self, group: list[Waiting]) -> None:
        """A table for ``group``: its home in the channel of the longest waiting player of
        this process's servers whose channel has no table, a venue in every further
        server."""
        homes = [w for w in group if self.owns(w.guild_id)
                 and self.tables.in_channel(w.channel_id) is None]
        if not homes:
            # Every channel of theirs has a table already: they wait on (first in line).
            for w in group:
                await self.store.enqueue(w)
            return
        home = homes[0]
        first = group[0]
        game = first.game
        options: dict[str, Any] = {"early_end": True} if offers(game, "early_end") else {}
        settings = {**DEFAULT_SETTINGS, "rated": first.rated,
                    "turn_seconds": PACES.get(first.pace, PACES["usual"]),
                    "watch": DEFAULT_WATCH, "hints": not first.rated, CROSSPLAY: True}
        members = [user_member(w.user_id) for w in group]
        table = await self.service.open(
            guild_id=home.guild_id, channel_id=home.channel_id, game=game, options=options,
            opener_id=home.user_id, settings=settings, members=list(members),
            names={user_member(w.user_id): w.name for w in group}, post=None)
        if isinstance(table.discord, CrossplaySurface):
            # Each server's table message: a follow-up of a /play made there (no request
            # of the bot's global limit while its token lives).
            table.discord.post_by(home)
        by_guild: dict[int, list[Waiting]] = {}
        for w in group:
            if w.guild_id != home.guild_id:
                by_guild.setdefault(w.guild_id, []).append(w)
        for guild_id, theirs in by_guild.items():
            venue = VenueRow(table_id=table.id, guild_id=guild_id,
                             channel_id=theirs[0].channel_id,
                             members=tuple(w.user_id for w in theirs))
            await self.store.put_venue(venue)
            self._show(table, venue).post_by(theirs[0])

        async def post(_: Outcome | None = None) -> None:
            await table.discord.post_in_channel()
            for _seen, surface in self.venues.get(table.id, {}).values():
                await surface.post_in_channel()

        await self.service.start(table, Actor(home.user_id, manager=True), via=Via.TABLE,
                                 reply=post)
        for w in group:
            await self._tell(table, w)

    async def _tell(self, table: OpenTable, w: Waiting) -> None:
        """Tell a player where their table is: a follow-up only they see, of their own
        ``/play``, in their own language."""
        shown = self.shown_at(table, w.guild_id)
        s = table.session if shown is None else shown.discord.session
        with speaking(language_of(w.locale)):
            game = table.session.game
            text = t("crossplay.formed", game=game_title(game, make_rules(game).title),
                     link=link(s.guild_id, s.channel_id, s.message_id))
        try:
            await self.sender.webhook(w.application_id, w.token).send(text, ephemeral=True)
        except FAILURES as e:
            log.info("table %s: could not tell %s where it is (%s)", table.id, w.user_id,
                     describe(e))

    # -- a server turns play across servers off --------------------------------------------

    async def withdraw(self, guild_id: int) -> None:
        """Every cross-server table with players of ``guild_id``: the computer plays their
        seats from now on (the hand in play goes on: its result stays theirs), and every
        server's table says why; the server's players leave the queue."""
        for w in await self.store.waiting():
            if w.guild_id == guild_id:
                await self.leave(w.user_id)
        await self.withdraw_here(guild_id)
        if self.elsewhere is not None:
            # With shard processes the server's tables may be driven by another one.
            await self.elsewhere(guild_id)

    async def withdraw_here(self, guild_id: int) -> None:
        """``withdraw``'s part at the tables this process drives."""
        for table in self.tables:
            if not plays_across(table) or table.session.state == "closed":
                continue
            theirs = self.members(table.id, guild_id)
            if table.session.guild_id != guild_id and not any(
                    v.guild_id == guild_id for v in self.venues_of(table.id)):
                continue
            for member in sorted(theirs):
                seat = table.session.seat_of(int(member))
                if seat is None:
                    continue
                await table.runner.courier.notice("crossplay.withdrawn", seat)
                try:
                    await self._to_computer(table, int(member))
                except SessionError as e:
                    log.info("table %s: seat %s stays (%s)", table.id, seat, e.key)

    async def _to_computer(self, table: OpenTable, user_id: int) -> None:
        s = table.session
        if s.state == "playing" and not s.between_hands:
            await self.service.leave(table, Actor(user_id), sure=True, hand=s.hand_number,
                                     via=Via.TABLE)
            return
        await self.service.leave(table, Actor(user_id), sure=True, via=Via.TABLE)
        await self.service.add_computer(table, Actor(s.row.opener_id, manager=True), "normal",
                                        via=Via.TABLE)


def now_seconds() -> float:
    return seconds_of(now())


def seconds_of(stamp: str) -> float:
    """Seconds since the epoch of a stored time (``bot.store.now``'s ISO format)."""
    return datetime.fromisoformat(stamp).timestamp()


async def seat_from_server(crossplay: Crossplay, table: OpenTable, *, user_id: int, name: str,
                           guild_id: int, channel_id: int) -> OpenTable:
    """A player of an opted-in server takes a seat at a table across servers of this
    process (a *Join* of ``/tables``: a free seat, or between hands a computer's), seated
    by the table service under the table's lock; the table as their server shows it after
    (``shown_at``). A server that shows the table already counts them among its venue's
    players; one that does not gets a new venue in the channel they asked from, its own
    table message posted there, and between hands the last result with its Next hand. At
    the table's home server they sit as at any table."""
    await crossplay.service.take_seat(table, Actor(user_id), name, via=Via.DISCORD)
    if guild_id == table.session.guild_id:
        return table
    known = crossplay.venues.get(table.id, {}).get(guild_id)
    if known is not None:
        seen, surface = known
        venue = seen.venue
        if user_id not in venue.members:
            venue = venue.model_copy(update={"members": (*venue.members, user_id)})
            # The venue's session shows the row it holds (``VenueSession.venue``).
            seen.__dict__["_venue"] = venue
            await crossplay.store.put_venue(venue)
        surface.request_refresh()
        return OpenTable(table.runner, surface)
    venue = VenueRow(table_id=table.id, guild_id=guild_id, channel_id=channel_id,
                     members=(user_id,))
    await crossplay.store.put_venue(venue)
    surface = crossplay._show(table, venue)
    if await surface.post_in_channel():
        # Between hands: the last result below it, with Next hand, as every venue has.
        await surface.post_result()
    return OpenTable(table.runner, surface)
