"""The Activity's players at the bot's tables: what ``bot.web.activity``'s socket asks, done
by the table service (``bot.service``) as the buttons' are.

Every request is one call of the service — the same checks under the same lock, the same
refusals, every surface told (the Discord table message, the player's own hand view there,
the web pages and the Activity itself) — marked as the Activity's (``Via.ACTIVITY``). What
is left here is the socket's own stamp (the hand's id, the seat the page speaks for) read
into the service's terms. Only the process that drives a table (its shard's) can do this:
with shard processes, the socket of an Activity served by another one has its requests
carried there (``bot.crossplay.relay``'s ``ask``, kind ``activity``) and the answer — done,
a refusal, a hint's words in the asker's language — carried back; the table's updates reach
the socket as they reach every page, through the store and the bus.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from bot import logs, render
from bot.courier import Via
from bot.lobby import Actor, SessionError
from bot.open_tables import OpenTable, OpenTables
from bot.service import TableService
from bot.session import TableSession
from bot.settings import Settings
from bot.store import Store
from bot.texts import current_faces, current_language, showing, speaking
from bot.web.activity import Activity, DiscordIdentity
from bot.web.views import plain_text
from engine import Action, action_from_json, action_to_json

log = logging.getLogger(__name__)

#: Discord's API, where the bot exchanges the Activity's codes (``DISCORD_API_BASE`` points
#: the tests at the stand-in).
DISCORD_API = "https://discord.com/api/v10"
_MENTION = re.compile(r"<@!?(\d+)>")

#: A member's name as Discord shows it in their server (``FilicauBot.web_name``).
Names = Callable[[int, str], Awaitable[str | None]]


class Carrier(Protocol):
    """Requests carried to the process that owns a server's shard (``bot.crossplay.relay``)."""

    def on(self, kind: str,
           handler: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]) -> None: ...

    async def ask(self, guild_id: int, kind: str, work: dict[str, Any]) -> dict[str, Any]: ...


#: The kind of the Activity's requests carried between processes.
CARRIED = "activity"


class ActivityPlay:
    """``bot.web.activity.Play`` over the registry of open tables and the table service; a
    table another process drives is played through ``carrier``."""

    def __init__(self, tables: OpenTables, service: TableService, names: Names, *,
                 store: Store | None = None, carrier: Carrier | None = None) -> None:
        self.tables = tables
        self.service = service
        self.names = names
        self.store = store
        self.carrier = carrier
        if carrier is not None:
            carrier.on(CARRIED, self._carried)

    def table_in(self, channel_id: int) -> int | None:
        table = self.tables.in_channel(channel_id)
        return None if table is None or table.runner.closed else table.id

    async def _elsewhere(self, table_id: int) -> int | None:
        """The home server of an open table another process drives, or None: this
        process's own (open here, or gone)."""
        if self.carrier is None or self.store is None or self._table(table_id) is not None:
            return None
        row = await self.store.get_table(table_id)
        return None if row is None or row.state == "closed" else row.guild_id

    async def _carry(self, home: int, work: dict[str, Any]) -> dict[str, Any]:
        assert self.carrier is not None
        return await self.carrier.ask(home, CARRIED, {
            **work, "lang": current_language(), "faces": current_faces()})

    async def _carried(self, work: dict[str, Any]) -> dict[str, Any]:
        """A request of another process's Activity socket, here where the table is driven:
        the same calls as this process's own sockets make (never carried on again)."""
        table_id, user_id = int(work["table"]), int(work["user"])
        if self._table(table_id) is None:
            raise SessionError("err.gone")
        hand = None if work.get("hand") is None else int(work["hand"])
        with speaking(str(work.get("lang", ""))), showing(str(work.get("faces", ""))):
            op = work.get("op")
            if op == "act":
                await self.act(table_id, user_id, action_from_json(work["action"]),
                               hand_id=int(work["hand"]), at=int(work["at"]),
                               seat=None if work.get("seat") is None else int(work["seat"]))
            elif op == "seat":
                await self.seat(table_id, user_id, str(work["seat_op"]),
                                team=None if work.get("team") is None else int(work["team"]),
                                hand_id=hand)
            elif op == "hint":
                return {"text": await self.hint(table_id, user_id, hand_id=int(work["hand"]),
                                                at=int(work["at"]))}
            else:
                raise SessionError("err.bad_button")
        return {}

    def _table(self, table_id: int) -> OpenTable | None:
        table = self.tables.get(table_id)
        return None if table is None or table.runner.closed else table

    def _open(self, table_id: int) -> OpenTable:
        logs.serving()  # an Activity's request: its lines are about the table
        table = self._table(table_id)
        if table is None:
            raise SessionError("err.gone")
        return table

    @staticmethod
    def _in_hand(s: TableSession, hand_id: int | None) -> int:
        """The hand in play's number, if the request was made at it (the page's stamp is
        the hand's id)."""
        if s.hand is None or s.state != "playing":
            raise SessionError("err.no_hand")
        if hand_id is not None and hand_id != s.hand_id:
            raise SessionError("err.stale_hand")
        return s.hand_number

    async def act(self, table_id: int, user_id: int, action: Action, *, hand_id: int,
                  at: int, seat: int | None) -> None:
        home = await self._elsewhere(table_id)
        if home is not None:
            await self._carry(home, {"op": "act", "table": table_id, "user": user_id,
                                     "action": action_to_json(action), "hand": hand_id, "at": at,
                                     "seat": seat})
            return
        table = self._open(table_id)
        s = table.session
        number = self._in_hand(s, hand_id)
        if seat is not None and seat != s.require_seat(user_id):
            # The page speaks for a seat that is not this player's.
            raise SessionError("activity.not_your_seat")
        await self.service.act(table, Actor(user_id), action, hand=number, at=at,
                               via=Via.ACTIVITY)

    async def seat(self, table_id: int, user_id: int, op: str, *, team: int | None,
                   hand_id: int | None) -> None:
        home = await self._elsewhere(table_id)
        if home is not None:
            await self._carry(home, {"op": "seat", "table": table_id, "user": user_id,
                                     "seat_op": op, "team": team, "hand": hand_id})
            return
        table = self._open(table_id)
        s = table.session
        if s.state != "playing":
            # The lobby's seats are taken and left with its buttons (the lobby message is
            # answered in place, by the click).
            raise SessionError("activity.lobby_buttons")
        by = Actor(user_id)
        if op == "leave":
            # The page asked "Leave the table?" itself.
            await self.service.leave(table, by, sure=True, via=Via.ACTIVITY)
        elif op == "sit":
            name = await self.names(s.guild_id, str(user_id))
            await self.service.join(table, by, team, name, via=Via.ACTIVITY)
        elif op == "back":
            await self.service.resume(table, by, via=Via.ACTIVITY)
        elif op == "next":
            number = self._in_hand(s, hand_id)
            await self.service.next_hand(table, by, number, via=Via.ACTIVITY)

    async def hint(self, table_id: int, user_id: int, *, hand_id: int, at: int) -> str:
        home = await self._elsewhere(table_id)
        if home is not None:
            answer = await self._carry(home, {"op": "hint", "table": table_id,
                                              "user": user_id, "hand": hand_id, "at": at})
            return str(answer.get("text", ""))
        table = self._open(table_id)
        s = table.session
        number = self._in_hand(s, hand_id)
        advice = await self.service.hint(table, Actor(user_id), hand=number, at=at)
        text = render.hint_text(s, advice.view, advice.hint)
        return plain_text(_MENTION.sub(lambda m: s.names.get(m.group(1), "?"), text))

    def deadline(self, table_id: int) -> float | None:
        table = self._table(table_id)
        return None if table is None else table.runner.deadline()

    def status(self, table_id: int, seat: int) -> dict[str, Any]:
        table = self._table(table_id)
        if table is None:
            return {}
        s = table.session
        return {"autoplay": seat in s.autoplay, "left": seat in s.leaving}


#: Discord's REST client's ``request`` (``discord.http.HTTPClient.request``).
Request = Callable[..., Awaitable[Any]]


def make_activity(settings: Settings, application_id: int | None, request: Request,
                  play: ActivityPlay) -> Activity | None:
    """The Activity's routes for the bot's web server, when the bot may be an Activity
    (``WEB_URL`` and ``CLIENT_SECRET`` set), else None (said in one line)."""
    secret = settings.client_secret.get_secret_value() if settings.client_secret else ""
    if not settings.web_url or not secret or application_id is None:
        if settings.web_url:
            log.info("Activity off: CLIENT_SECRET is not set (docs/activity.md)")
        return None
    app_id = application_id

    async def lookup(instance_id: str) -> dict[str, Any] | None:
        route = discord.http.Route(
            "GET", "/applications/{application_id}/activity-instances/{instance_id}",
            application_id=app_id, instance_id=instance_id)
        try:
            found: dict[str, Any] = await request(route)
        except discord.NotFound:
            return None
        except discord.HTTPException as e:
            log.warning("activity: Discord did not say where instance %r is (%s)",
                        instance_id[:40], e)
            return None
        return found

    api_base = settings.discord_api_base or DISCORD_API
    identity = DiscordIdentity(api_base, app_id, secret, lookup)
    return Activity(identity, play, app_id)
