"""Quick play: which open tables a player may sit at now, the fullest first; sitting there
from anywhere in the server; opening a table when there is none.

A table takes a player now when it is in its lobby with a free seat, or between hands with a
free seat, a computer's seat or the seat of a player who left mid-hand to take (the table
service's ``take_seat`` decides, under the table's lock: this list only points). Its
settings are respected: seats held for invited players count as taken for everyone else
(``bot.holds``), a tournament's tables seat nobody, and a table in a channel the player cannot
see, or the bot cannot post in, is not offered.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import discord

from bot import holds
from bot.lobby import DEFAULT_TURN_SECONDS, DEFAULT_WINDOW_SECONDS, SessionError
from bot.open_tables import OpenTable
from bot.options import offers
from bot.seats import is_computer, user_member
from bot.service import Post, TableService
from bot.watch import DEFAULT_WATCH

#: The game ``/play`` opens when none is named and no table of any game takes a player.
DEFAULT_GAME = "filicau"
#: Tables ``/tables`` lists (one Join button each, five to a row, under Discord's 25).
LISTED = 10


@dataclass(frozen=True)
class Opening:
    """A table that takes the player now: how many seats are taken (the fullest first)
    and how many the player may take."""

    table: OpenTable
    taken: int
    people: int
    free: int

    @property
    def seats(self) -> int:
        return len(self.table.session.seats)


def seats_for(table: OpenTable, member: str, now: float) -> int:
    """How many seats of ``table`` ``member`` may take now (0: none)."""
    s = table.session
    if s.plan is not None or s.state == "closed" or s.message_id is None:
        return 0
    if not (s.state == "lobby" or s.between_hands) or member in s.seats:
        return 0
    # Empty seats, and between hands a computer's or one its player left mid-hand (the
    # computer's at the deal), less those held for others.
    open_seats = sum(1 for i, m in enumerate(s.seats) if m is None or s.takeable(i))
    return holds.free_for(member, free=open_seats, seated=s.seats, runtime=s.row.runtime,
                          now=now)


def openings(tables: Iterable[OpenTable], *, guild_id: int, member: str, game: str | None,
             visible: Callable[[int], bool], now: float | None = None) -> list[Opening]:
    """The tables ``member`` may sit at now in a server (of ``game``, or of any), the
    fullest first: the fewest seats left empty, then the most people, then the oldest."""
    now = time.time() if now is None else now
    found = []
    for table in tables:
        s = table.session
        if s.guild_id != guild_id or (game is not None and s.game != game):
            continue
        free = seats_for(table, member, now)
        if free == 0 or not visible(s.channel_id):
            continue
        taken = sum(1 for m in s.seats if m is not None)
        people = sum(1 for m in s.seats if m is not None and not is_computer(m))
        found.append(Opening(table, taken, people, free))
    found.sort(key=lambda o: (len(o.table.session.seats) - o.taken, -o.people, o.table.id))
    return found


def seated_at(tables: Iterable[OpenTable], *, guild_id: int, member: str) -> OpenTable | None:
    """The open table of the server ``member`` sits at, if any: quick play seats nobody
    twice."""
    for table in tables:
        s = table.session
        if s.guild_id == guild_id and s.state != "closed" and member in s.seats:
            return table
    return None


def visible_to(interaction: discord.Interaction[Any]) -> Callable[[int], bool]:
    """Whether the user may see a channel of the server and the bot post there (as far as
    the bot knows: a channel it has not seen counts as visible, the table is there)."""
    guild = interaction.guild
    user = interaction.user

    def check(channel_id: int) -> bool:
        if guild is None:
            return False
        channel = guild.get_channel_or_thread(channel_id)
        if channel is None:
            return True
        if isinstance(user, discord.Member) and not channel.permissions_for(user).view_channel:
            return False
        me = guild.me
        return me is None or channel.permissions_for(me).send_messages
    return check


def link(guild_id: int, channel_id: int, message_id: int | None) -> str:
    """A jump link to a message (to the channel, without one)."""
    tail = "" if message_id is None else f"/{message_id}"
    return f"https://discord.com/channels/{guild_id}/{channel_id}{tail}"


def table_link(table: OpenTable) -> str:
    s = table.session
    return link(s.guild_id, s.channel_id, s.message_id)


#: A table opened by ``/play``: the settings ``/table new`` has by default.
DEFAULT_SETTINGS: dict[str, Any] = {
    "turn_seconds": DEFAULT_TURN_SECONDS, "window_seconds": DEFAULT_WINDOW_SECONDS,
    "pings": True, "hints": True, "rated": True, "thread": False, "watch": DEFAULT_WATCH}


async def open_here(service: TableService, interaction: discord.Interaction[Any], game: str,
                    post: Post) -> OpenTable:
    """A new table of ``game`` in the channel asked from, with the asker seated, posted as
    the answer (``post``)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise SessionError("err.guild_only")
    options: dict[str, Any] = {"early_end": True} if offers(game, "early_end") else {}
    return await service.open(
        guild_id=interaction.guild_id, channel_id=interaction.channel_id, game=game,
        options=options, opener_id=interaction.user.id, settings=DEFAULT_SETTINGS,
        opener_name=interaction.user.display_name, post=post)


def member_of(user_id: int) -> str:
    return user_member(user_id)
