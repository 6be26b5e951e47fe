"""A table that plays by itself, for trying the pages without Discord (``python -m bot.web``),
for the browser tests and for the spectators benchmark.

Four (or as many as the game seats) named people sit at a table of a local store; each move
is chosen by the engine's simple player and made through ``TableSession.act`` — the path a
click takes — and then announced with ``Feed.changed``, as the bot's courier does.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from bot.session import TableSession
from bot.store import Store
from bot.watch import WATCH, WatchMode
from bot.web.live import Feed
from engine import make_rules, seat_view
from engine.players import SimplePlayer

NAMES = ("Ana", "Bogdán", "Cili", "Dénes", "Emőke", "Ferkó")
#: The Discord user ids of the demo's people (as members: "9001" ...).
FIRST_USER = 9001


async def open_table(store: Store, *, guild_id: int = 1, channel_id: int = 1,
                     game: str = "filicau", watch: WatchMode = "public",
                     names: Sequence[str] = NAMES, options: dict[str, Any] | None = None,
                     seed: int | None = None) -> TableSession:
    """A table of people with these names, seated and with its first hand dealt."""
    players = make_rules(game, options).players
    users = [FIRST_USER + i for i in range(players)]
    row = await store.create_table(
        guild_id=guild_id, channel_id=channel_id, game=game, options=options or {},
        opener_id=users[0], seats=[None] * players, settings={WATCH: watch})
    session = TableSession(row, store, seed=seed)
    for seat, user in enumerate(users):
        team = seat % 2 if session.fixed_teams else None
        await session.join(user, team, names[seat % len(names)])
    await session.start(users[0], is_admin=True)
    return session


async def move(session: TableSession, feed: Feed | None = None,
               deadline_seconds: float | None = None) -> bool:
    """One move of the hand in play (False when it is over), announced to the pages."""
    hand = session.hand
    if hand is None or hand.finished:
        return False
    seat = hand.actors()[0]
    member = session.seats[seat]
    assert member is not None
    action = SimplePlayer().choose(seat_view(hand, seat))
    await session.act(int(member), action, hand_number=session.hand_number,
                      trick=len(hand.tricks))
    if feed is not None:
        await feed.changed(session.id, None if deadline_seconds is None or hand.finished
                           else time.time() + deadline_seconds)
    return True


async def next_hand(session: TableSession, feed: Feed | None = None) -> None:
    await session.next_hand()
    if feed is not None:
        await feed.changed(session.id)
