"""The seats a player may take at tables across servers (``/tables``), whichever shard
process drives them.

A table across servers is driven by the process of its home server's shard, which alone
knows its seats as they are now (a computer's seat between hands, the seats held for the
invited). So each process lists the tables it drives (``here``), and the process the player
asked lists the others' by asking each of them once (``bot.crossplay.relay``: the request
``OPENINGS``), waiting for them at most ``LIST_SECONDS``: a process that does not answer
in time leaves its tables out of this list, not the list out of the answer.

What only the asker's process can know — whether the player may see the channel they would
play from, and the bot post there — it checks itself; everything else is in the store
(``refusal``), so either process decides it alike. The list only points: a *Join* is checked
again, under the table's lock, by the process that drives the table.

    >>> o = Opening(7, "filicau", "Filicău", taken=4, people=3, seats=4, free=1, lobby=False)
    >>> Opening.from_answer(o.answer()) == o
    True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from bot.community import quickplay
from bot.crossplay import access
from bot.crossplay.hub import plays_across
from bot.open_tables import OpenTable
from bot.seats import is_computer
from bot.store import CrossplaySettings, Store

#: The request, carried to the process that drives the tables, for their openings.
OPENINGS = "openings"
#: Seconds ``/tables`` waits for the other processes' openings.
LIST_SECONDS = 2.0


@dataclass(frozen=True)
class Opening:
    """A table across servers that takes the player now, as far as its list tells: its
    game (``title``: the game's name as its rules give it, worded by the reader's
    language), the seats taken, the people among them, its seats, how many the player may
    take, and whether it is still in its lobby (else between hands)."""

    table_id: int
    game: str
    title: str
    taken: int
    people: int
    seats: int
    free: int
    lobby: bool

    @classmethod
    def of(cls, table: OpenTable, free: int) -> Opening:
        s = table.session
        return cls(table.id, s.game, s.rules.title,
                   taken=sum(1 for m in s.seats if m is not None),
                   people=sum(1 for m in s.seats if m is not None and not is_computer(m)),
                   seats=len(s.seats), free=free, lobby=s.state == "lobby")

    def answer(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_answer(cls, data: dict[str, Any]) -> Opening:
        return cls(int(data["table_id"]), str(data["game"]), str(data["title"]),
                   taken=int(data["taken"]), people=int(data["people"]),
                   seats=int(data["seats"]), free=int(data["free"]), lobby=bool(data["lobby"]))


def fullest_first(openings: Iterable[Opening]) -> list[Opening]:
    """The fewest seats left empty first, then the most people, then the oldest."""
    return sorted(openings, key=lambda o: (o.seats - o.taken, -o.people, o.table_id))


async def refusal(store: Store, table: OpenTable, *, user_id: int, guild_id: int,
                  channel_id: int, settings: CrossplaySettings | None = None,
                  barred: bool | None = None) -> str | None:
    """Why a player of ``guild_id`` may not sit at ``table`` across servers, playing from
    ``channel_id`` (a key of the catalogs), or None, from what the store knows: their
    server's say for its game and that channel (``bot.crossplay.access``), the operator's
    bar, a block between them and anybody seated there. ``settings`` and ``barred``: the
    player's, read once already (a list asks for many tables)."""
    s = table.session
    if settings is None:
        settings = await store.crossplay_settings(guild_id)
    if barred is None:
        barred = await store.barred(user_id)
    why = access.refusal(settings, s.game, channel_id, barred=barred)
    if why is not None:
        return why
    people = [int(m) for m in s.seats if m is not None and not is_computer(m)]
    if any(user_id in pair for pair in await store.blocked_among([user_id, *people])):
        return "err.crossplay_blocked"
    return None


async def shows_another(store: Store, channel_id: int, table_id: int) -> bool:
    """Whether ``channel_id`` shows a table other than ``table_id`` (as its home or as a
    venue): a channel shows one table."""
    home = await store.open_table_in(channel_id)
    if home is not None and home.id != table_id:
        return True
    venue = await store.venue_in(channel_id)
    return venue is not None and venue.table_id != table_id


async def played_from(store: Store, table_id: int, guild_id: int, asked_in: int) -> int:
    """The channel a player of ``guild_id`` plays a table from: where their server shows it
    already (its home, or a venue), else where they ask (``asked_in``)."""
    row = await store.get_table(table_id)
    if row is not None and row.guild_id == guild_id:
        return row.channel_id
    for venue in await store.venues(table_id):
        if venue.guild_id == guild_id:
            return venue.channel_id
    return asked_in


async def here(store: Store, tables: Iterable[OpenTable], *, user_id: int, guild_id: int,
               channel_id: int, game: str | None,
               shown_in: Callable[[OpenTable], int | None],
               now: float | None = None) -> list[Opening]:
    """The tables across servers this process drives (of ``game``, or of any) that take
    the player now, the fullest first. ``shown_in``: the channel of the player's server
    that shows a table already, if any (else they would play from ``channel_id``, which
    must show no other table)."""
    now = time.time() if now is None else now
    member = quickplay.member_of(user_id)
    # The player's own settings and bar, read once, for the first table that has a seat.
    settings: CrossplaySettings | None = None
    barred: bool | None = None
    found = []
    for table in tables:
        s = table.session
        if not plays_across(table) or (game is not None and s.game != game):
            continue
        free = quickplay.seats_for(table, member, now)
        if free == 0:
            continue
        shown = shown_in(table)
        if settings is None:
            settings = await store.crossplay_settings(guild_id)
            barred = await store.barred(user_id)
        if await refusal(store, table, user_id=user_id, guild_id=guild_id,
                         channel_id=channel_id if shown is None else shown,
                         settings=settings, barred=barred) is not None:
            continue
        if shown is None and await shows_another(store, channel_id, table.id):
            continue
        found.append(Opening.of(table, free))
    return fullest_first(found)[:quickplay.LISTED]
