"""Shared by the Activity's tests (``tests/test_activity.py``, ``tests/browser/``): the bot's
web server with its Activity, in this process, behind the stand-in's Discord (its OAuth2
token endpoint, its activity instances, its client frame and proxy), and tables of the
demo's people that the Activity plays through their ``TableSession``.

The bot's own ``Play`` (``bot.activity.ActivityPlay``) drives the bot's registry of tables
and is tested against the real bot (``tests/browser/test_activity_bot.py``); ``SessionPlay``
here does what it does with a table that has no Discord side: the same session calls, and
the pages told of the change.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from standin import APP_ID, GUILD_ID, StandIn
from standin.activity import CLIENT_SECRET
from standin.discord_objects import User
from visibility import choices_so_far, hidden_from
from web_helpers import _CODES, _LABELS, WebSettings

from bot.session import Actor, SessionError, TableSession
from bot.store import SqliteStore, Store
from bot.watch import WatchMode
from bot.web import demo
from bot.web.activity import Activity, DiscordIdentity
from bot.web.live import Feed
from bot.web.server import WebServer
from engine import Action, Hand
from engine.cards import code
from engine.record import to_record


class SessionPlay:
    """``bot.web.activity.Play`` over the test's own tables (see the module docstring)."""

    def __init__(self) -> None:
        self.sessions: dict[int, TableSession] = {}
        self.feed: Feed | None = None
        #: A turn's deadline by table, as a runner would know it.
        self.deadlines: dict[int, float] = {}

    def add(self, session: TableSession) -> None:
        self.sessions[session.id] = session

    def table_in(self, channel_id: int) -> int | None:
        found = [s.id for s in self.sessions.values()
                 if s.channel_id == channel_id and s.state != "closed"]
        return found[-1] if found else None

    async def _changed(self, table_id: int) -> None:
        assert self.feed is not None
        await self.feed.changed(table_id)

    async def act(self, table_id: int, user_id: int, action: Action, *, hand_id: int,
                  at: int, seat: int | None) -> None:
        s = self.sessions[table_id]
        if hand_id != s.hand_id:
            raise SessionError("err.stale_hand")
        mine = s.require_seat(user_id)
        if seat is not None and seat != mine:
            raise SessionError("activity.not_your_seat")
        await s.act(user_id, action, hand_number=s.hand_number, at=at)
        await self._changed(table_id)

    async def seat(self, table_id: int, user_id: int, op: str, *, team: int | None,
                   hand_id: int | None) -> None:
        s = self.sessions[table_id]
        if op == "leave":
            await s.leave(user_id)
        elif op == "back":
            s.require_seat(user_id)
            s.resume(user_id)
        elif op == "sit":
            await s.join(user_id, team)
        elif op == "next":
            if hand_id != s.hand_id:
                raise SessionError("err.stale_hand")
            await s.next_hand(Actor(user_id), s.hand_number)
        await self._changed(table_id)

    async def hint(self, table_id: int, user_id: int, *, hand_id: int, at: int) -> str:
        raise SessionError("err.no_hints")

    def deadline(self, table_id: int) -> float | None:
        return self.deadlines.get(table_id)

    def status(self, table_id: int, seat: int) -> dict[str, Any]:
        s = self.sessions.get(table_id)
        if s is None:
            return {}
        return {"autoplay": seat in s.autoplay, "left": seat in s.leaving}


@dataclass
class Site:
    """The web server with its Activity, and the stand-in's Discord in front of it."""

    standin: StandIn
    server: WebServer
    store: Store
    play: SessionPlay
    base: str

    def user(self, user_id: int, name: str) -> User:
        user = User(user_id, name)
        self.standin.users[user_id] = user
        return user

    async def table(self, *, channel: int = 0, game: str = "filicau", seed: int = 1,
                    watch: WatchMode = "public", **options: Any) -> TableSession:
        """A table of the demo's people in the stand-in's channel ``channel``, dealt."""
        channel_id = self.standin.channel_ids[channel]
        session = await demo.open_table(
            self.store, guild_id=self.standin.guild_of[channel_id], channel_id=channel_id,
            game=game, watch=watch, seed=seed, options=options or None)
        self.play.add(session)
        for seat, member in enumerate(session.seats):
            assert member is not None
            self.user(int(member), demo.NAMES[seat % len(demo.NAMES)])
        return session

    async def authorize(self, user: User, channel: int = 0) -> tuple[str, str]:
        """What the client frame does for ``AUTHORIZE``: the user joins the channel's
        instance and gets a one-time code. Returns (code, instance id)."""
        instance = self.standin.activity.join(user, self.standin.channel_ids[channel])
        async with aiohttp.ClientSession() as http, http.post(
                f"http://127.0.0.1:{self.standin.port}/activities/rpc",
                json={"user": user.id, "cmd": "AUTHORIZE",
                      "args": {"client_id": str(APP_ID), "scope": ["identify"]}}) as r:
            answer = await r.json()
        return answer["data"]["code"], instance.id


async def instance_lookup(standin: StandIn) -> Any:
    """``GET /applications/{id}/activity-instances/{instance}`` with the bot's token, as the
    bot's HTTP client makes it."""
    async def lookup(instance_id: str) -> dict[str, Any] | None:
        async with aiohttp.ClientSession() as http, http.get(
                f"{standin.api_base}/applications/{APP_ID}/activity-instances/{instance_id}",
                headers={"Authorization": f"Bot {standin.token}"}) as r:
            if r.status == 404:
                return None
            found: dict[str, Any] = await r.json()
            return found
    return lookup


@contextlib.asynccontextmanager
async def activity_site(tmp_path: Path, *, guilds: int = 1) -> AsyncIterator[Site]:
    standin = StandIn(channels=2, guilds=guilds)
    await standin.start()
    store = SqliteStore(tmp_path / "bot.sqlite3")
    await store.open()
    play = SessionPlay()
    identity = DiscordIdentity(standin.api_base, APP_ID, CLIENT_SECRET,
                               await instance_lookup(standin))
    server = WebServer(WebSettings(), store, activity=Activity(identity, play, APP_ID))
    play.feed = server.feed
    await server.start()
    standin.activity.target = f"http://127.0.0.1:{server.port}/activity"
    try:
        yield Site(standin, server, store, play, f"http://127.0.0.1:{server.port}")
    finally:
        await server.stop()
        await store.close()
        await standin.stop()
    assert not standin.problems, standin.problems


def hidden_named(text: str, hand: Hand, seat: int | None) -> list[str]:
    """The cards of ``hand`` that somebody at ``seat`` (None: anybody) may not know now and
    ``text`` names (by code or label, in any language)."""
    also = choices_so_far(to_record(hand), seat) if seat is not None else set()
    return [code(c) for c in sorted(hidden_from(hand, seat, also=also))
            if _CODES[c].search(text) or any(label in text for label in _LABELS[c])]


__all__ = ["GUILD_ID", "SessionPlay", "Site", "activity_site", "hidden_named"]
