"""A local Discord stand-in: the gateway and the REST routes the bot uses, on loopback.

One guild with ``channels`` text channels. The bot connects as it would to Discord (discord.py's
own HTTP and gateway code, pointed here by ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL``);
simulated users act through ``StandIn.click`` / ``StandIn.command`` (see ``users.py``), which
send INTERACTION_CREATE over the gateway exactly as Discord does.

Discord's rules kept here:

- every REST request body is validated against Discord's OpenAPI schema (``schema.py``); an
  invalid one is answered 400/50035 and recorded in ``problems``;
- an interaction must be answered within 3 s (later: 404/10062, recorded in ``problems``), once
  (a second answer: 400/40060);
- an interaction token lives 15 minutes (then 401/50027); ``advance()`` moves that clock;
- ephemeral messages are seen by one user only and can be edited only through the token of the
  interaction that made them (the channel routes answer 404/10008);
- what counts against the bot's global limit, as on Discord: every request made with the bot's
  token (``Authorization: Bot …``), and no request made with an interaction's token (the
  callback, editing its messages, follow-ups); ``global_requests`` counts the first kind;
- shards (``shards=N``, with ``guilds=G`` guilds, channels dealt to them in turn): ``GET
  /gateway/bot`` recommends N shards, IDENTIFY must carry ``[shard_id, N]`` (else 4010), each
  shard's session gets READY and GUILD_CREATE for its own guilds only, and a guild's events go
  to shard ``(guild_id >> 22) % N``, as Discord does;
- optional rate limits (``rate_limits=True``): Discord's 50 requests/s per bot token and
  5 messages per 5 s per channel route, and 5 requests per 2 s per interaction token (one
  bucket per token, as Discord gives each webhook its own), answered 429 with
  ``retry_after``.

Every change to a message wakes ``wait_for`` (conditions with a time limit, never sleeps) and
calls the ``observers`` (e.g. the hidden-card check) before the bot gets its answer.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .activity import ActivityHost
from .discord_objects import (
    APP_ID,
    EPHEMERAL,
    FIRST_CHANNEL_ID,
    GUILD_ID,
    Message,
    User,
    application_payload,
    bot_user_payload,
    channel_payload,
    guild_payload,
)
from .schema import SchemaCheck

API_PREFIX = re.compile(r"^/api/v\d+")
ANSWER_SECONDS = 3.0
TOKEN_SECONDS = 15 * 60
HEARTBEAT_MS = 41_250

#: Interaction callback types (Discord's InteractionResponseType).
CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
LAUNCH_ACTIVITY = 12
#: An application command's type PRIMARY_ENTRY_POINT.
ENTRY_POINT = 4


class HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class Call:
    """One REST request of the bot, and the stand-in's answer."""

    method: str
    path: str
    body: Any
    status: int
    at: float
    #: Made with the bot's token: counts against its global rate limit.
    global_limited: bool = False


@dataclass
class Interaction:
    """One INTERACTION_CREATE a user sent, and what the bot did with it."""

    id: int
    token: str
    user: User
    channel_id: int
    #: The message a button was on (for clicks).
    message_id: int | None
    custom_id: str | None
    sent_at: float
    #: On the stand-in's clock (``advance`` ages tokens).
    born: float
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    answered_at: float | None = None
    callback: dict[str, Any] | None = None
    original: int | None = None
    followups: list[int] = field(default_factory=list)
    #: Set once the bot has answered in full: at its callback, or, after a deferral, at
    #: its first request by the token (the deferred message edited, or a follow-up).
    settled: asyncio.Event = field(default_factory=asyncio.Event)
    settled_at: float | None = None

    def settle(self, at: float) -> None:
        if self.settled_at is None:
            self.settled_at = at
            self.settled.set()

    @property
    def answer_time(self) -> float | None:
        """Seconds from the click to the bot's full answer (its latency when not deferred)."""
        return None if self.settled_at is None else self.settled_at - self.sent_at

    @property
    def latency(self) -> float | None:
        return None if self.answered_at is None else self.answered_at - self.sent_at

    @property
    def type(self) -> int | None:
        return None if self.callback is None else int(self.callback["type"])


class Connection:
    """The bot's gateway session."""

    def __init__(self, ws: web.WebSocketResponse, session_id: str) -> None:
        self.ws = ws
        self.session_id = session_id
        self.seq = 0
        self.lock = asyncio.Lock()

    async def send(self, op: int, d: Any, t: str | None = None) -> None:
        async with self.lock:
            s = None
            if op == 0:
                self.seq += 1
                s = self.seq
            await self.ws.send_str(json.dumps({"op": op, "d": d, "s": s, "t": t}))


class StandIn:
    def __init__(self, *, channels: int = 4, token: str = "a.b.c", rate_limits: bool = False,
                 schema: SchemaCheck | None = None, guilds: int = 1, shards: int = 1,
                 activities: bool = False) -> None:
        self.token = token
        self.channel_ids = [FIRST_CHANNEL_ID + i for i in range(channels)]
        #: Guild ids one apart in their creation-time bits: consecutive guilds are on
        #: consecutive shards.
        self.guild_ids = [GUILD_ID + (i << 22) for i in range(guilds)]
        self.guild_of = {c: self.guild_ids[i % guilds] for i, c in enumerate(self.channel_ids)}
        self.shard_count = shards
        #: The gateway session of each shard (the latest to identify on it).
        self.shards: dict[int, Connection] = {}
        self.schema = schema or SchemaCheck()
        self.rate_limits = rate_limits
        self._ids = itertools.count(900_000_000_000_000_001)
        self.messages: dict[int, Message] = {}
        self.interactions: dict[str, Interaction] = {}
        self.commands: dict[str, dict[str, Any]] = {}
        self.calls: list[Call] = []
        #: Everything Discord would have refused, or the bot got wrong: schema failures,
        #: unknown routes, interactions answered late.
        self.problems: list[str] = []
        self.rate_limited = 0
        #: Requests that count against the bot's global limit (made with the bot's token).
        self.global_requests = 0
        self.expired_token_answers = 0
        self.observers: list[Callable[[Message], None]] = []
        self.identifies = 0
        self.clock_offset = 0.0
        #: Woken on every change (key None) and on every change in one channel.
        self._events: dict[int | None, asyncio.Event] = {}
        self.by_channel: dict[int, list[Message]] = {c: [] for c in self.channel_ids}
        #: Public threads the bot started on a message (thread id = the message's id), or
        #: without one (a tournament's tables).
        self.threads: dict[int, dict[str, Any]] = {}
        #: The users the bot added to each thread (a private one's readers).
        self.thread_members: dict[int, set[int]] = {}
        #: The users the tests made (``Player``): whom the bot may open a DM channel with.
        self.users: dict[int, User] = {}
        #: Each user's DM channel with the bot (user id -> channel id).
        self.dm_channels: dict[int, int] = {}
        #: The guilds' scheduled events, by id (``guild_id`` inside).
        self.events: dict[int, dict[str, Any]] = {}
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._arrived = 0.0
        self._global_window: collections.deque[float] = collections.deque()
        self._channel_windows: dict[tuple[bool, int], collections.deque[float]] = {}
        self._token_windows: dict[str, collections.deque[float]] = {}
        #: Every user who has interacted or opened the Activity, by id.
        self.users: dict[int, User] = {}
        #: The Activity's side of Discord: its client frame, OAuth2, instances (activity.py).
        self.activity = ActivityHost(self)
        if activities:
            # Activities enabled in the Developer Portal: Discord makes the application's
            # Entry Point command (its "Launch"), which a bulk update may not leave out.
            self.commands["launch"] = {
                "id": str(self.new_id()), "application_id": str(APP_ID), "version": "1",
                "type": ENTRY_POINT, "name": "launch", "description": "", "handler": 2,
                "integration_types": [0, 1], "contexts": [0, 1, 2]}

    # -- running ---------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/{tail:.*}", self._rest)
        app.add_routes(self.activity.routes())
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        await self.activity.stop()
        for conn in list(self.shards.values()):
            await conn.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def new_id(self) -> int:
        return next(self._ids)

    def now(self) -> float:
        """The clock of token lifetimes."""
        return time.monotonic() + self.clock_offset

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass for interaction tokens (not for the 3 s answer rule)."""
        self.clock_offset += seconds

    # -- waiting ---------------------------------------------------------------------------

    def notify(self, channel_id: int | None = None) -> None:
        """Wake the waiters of everything, and of one channel (all channels if None)."""
        keys = [None, channel_id] if channel_id is not None else list(self._events)
        for key in keys:
            event = self._events.pop(key, None)
            if event is not None:
                event.set()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0,
                       what: str = "a condition", channel_id: int | None = None) -> Any:
        """Wait until ``predicate()`` is true, re-checked on every change (in ``channel_id``
        only, if given); returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
            event = self._events.setdefault(channel_id, asyncio.Event())
            # At least once a second: a condition may depend on something outside (a process).
            # asyncio.timeout, not wait_for: Python 3.11's wait_for returns the event when the
            # waiter is cancelled just as the event is set, and the cancellation is lost (a
            # busy table sets it all the time: tools/activity_demo.py went on after Ctrl-C).
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(left, 1.0)):
                    await event.wait()

    # -- the gateway -----------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws, f"session-{self.new_id()}")
        await conn.send(10, {"heartbeat_interval": HEARTBEAT_MS})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    await conn.send(11, None)
                elif op == 2:
                    await self._identify(conn, data["d"])
                elif op == 6:
                    # No sessions are kept: the bot identifies again.
                    await conn.send(9, False)
        finally:
            for shard, held in list(self.shards.items()):
                if held is conn:
                    del self.shards[shard]
            self.notify()
        return ws

    @property
    def connection(self) -> Connection | None:
        """The bot's gateway session (of shard 0: the only one unless ``shards`` > 1)."""
        return self.shards.get(0)

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.shard_count

    async def _identify(self, conn: Connection, d: dict[str, Any]) -> None:
        if d.get("token") not in (self.token, f"Bot {self.token}"):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard, count = d.get("shard") or [0, 1]
        if count != self.shard_count or not 0 <= shard < count:
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        mine = [g for g in self.guild_ids if self.shard_of(g) == shard]
        await conn.send(0, {
            "v": 10, "user": bot_user_payload(),
            "guilds": [{"id": str(g), "unavailable": True} for g in mine],
            "session_id": conn.session_id, "resume_gateway_url": self.gateway_url,
            "application": {"id": str(APP_ID), "flags": 0}, "shard": [shard, count],
        }, "READY")
        for g in mine:
            await conn.send(0, guild_payload(
                [c for c in self.channel_ids if self.guild_of[c] == g], g), "GUILD_CREATE")
        self.shards[shard] = conn
        self.identifies += 1
        self.notify()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the shard of its guild (shard 0 without one)."""
        guild = data.get("guild_id")
        shard = 0 if guild is None else self.shard_of(int(guild))
        conn = self.shards.get(shard)
        if conn is None:
            raise ConnectionError(f"the bot is not connected to the gateway on shard {shard}")
        await conn.send(0, data, event)

    async def send_raw(self, event: str | None, d: Any) -> None:
        """A dispatch (op 0) of any type with any ``d`` (``None``, a string, a payload with
        fields missing): what a broken or hostile gateway could send."""
        if self.connection is None:
            raise ConnectionError("the bot is not connected to the gateway")
        await self.connection.send(0, d, event)

    # -- what users do (see users.py) ------------------------------------------------------

    def _interaction(self, user: User, kind: int, data: dict[str, Any],
                     message: dict[str, Any] | None, channel_id: int) -> tuple[dict[str, Any],
                                                                               Interaction]:
        iid = self.new_id()
        token = f"itoken-{iid}"
        self.users[user.id] = user
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(APP_ID), "type": kind, "token": token,
            "version": 1, "guild_id": str(self.guild_of[channel_id]),
            "channel_id": str(channel_id),
            "channel": channel_payload(channel_id, self.guild_of[channel_id]),
            "member": user.member_payload(),
            "data": data, "locale": "en-US", "guild_locale": "en-US",
            "app_permissions": str((1 << 11) | (1 << 10) | (1 << 16)), "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_of[channel_id])},
            "context": 0,
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message
        inter = Interaction(iid, token, user, channel_id,
                            None if message is None else int(message["id"]),
                            data.get("custom_id"), 0.0, self.now())
        self.interactions[token] = inter
        return payload, inter

    async def send_interaction(self, payload: dict[str, Any], inter: Interaction) -> None:
        inter.sent_at = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", payload)

    # -- REST --------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        self._arrived = time.monotonic()
        method = request.method
        path = API_PREFIX.sub("", request.path)
        if (method, path) == ("POST", "/oauth2/token"):
            # OAuth2's own form body, with the application's credentials in it.
            return await self.activity.token(request)
        bearer = request.headers.get("Authorization", "")
        if bearer.startswith("Bearer "):
            return self._as_user(method, path, bearer.removeprefix("Bearer "))
        body, files = await _read_body(request)
        via_token = path.startswith(("/interactions/", "/webhooks/"))
        status, result, headers = 200, None, {}
        self._touched: int | None = None
        as_bot = "Authorization" in request.headers
        if as_bot:
            self.global_requests += 1
        try:
            if not via_token and request.headers.get("Authorization") != f"Bot {self.token}":
                raise HTTPError(401, 0, "401: Unauthorized")
            if body is not None or method in ("POST", "PUT", "PATCH"):
                problem = self.schema.validate(method, path, body)
                if problem is not None:
                    self.problems.append(f"schema: {problem} (in {json.dumps(body)[:400]})")
                    raise HTTPError(400, 50035, f"Invalid Form Body: {problem}")
            if self.rate_limits:
                limited = (self._rate_limit(method, path) if as_bot
                           else self._token_rate_limit(path))
                if limited is not None:
                    retry, is_global = limited
                    self.rate_limited += 1
                    self.calls.append(Call(method, path, body, 429, time.monotonic(), as_bot))
                    return _json(429, {"message": "You are being rate limited.",
                                       "retry_after": retry, "global": is_global},
                                 {"Retry-After": str(max(1, round(retry))),
                                  # discord.py takes a 429 without Via for a Cloudflare ban.
                                  "Via": "1.1 google",
                                  "X-RateLimit-Scope": "global" if is_global else "user",
                                  **({"X-RateLimit-Global": "true"} if is_global else {})})
            if via_token:
                result = self._token_route(method, path, body, files, request.query)
            else:
                result = self._bot_route(method, path, body, files)
            if result is None:
                status = 204
        except HTTPError as e:
            status, result = e.status, {"code": e.code, "message": e.message}
            if e.code == 50027:
                self.expired_token_answers += 1
        self.calls.append(Call(method, path, body, status, time.monotonic(), as_bot))
        if self._touched is not None:
            self.notify(self._touched)
        if status == 204:
            return web.Response(status=204)
        return _json(status, result, headers)

    def _as_user(self, method: str, path: str, token: str) -> web.Response:
        """A request with a user's OAuth2 token: only ``GET /users/@me`` is needed."""
        if (method, path) != ("GET", "/users/@me"):
            self.problems.append(f"unexpected request with a user's token: {method} {path}")
            return _json(404, {"code": 0, "message": "404: Not Found"})
        me = self.activity.me(token)
        if me is None:
            return _json(401, {"code": 0, "message": "401: Unauthorized"})
        self._check_answer(method, path, 200, me)
        return _json(200, me)

    def _check_answer(self, method: str, path: str, status: int, body: Any) -> None:
        """The stand-in's own answer held to Discord's schema, where the schema has it."""
        problem = self.schema.validate_response(method, path, status, body)
        if problem is not None:
            self.problems.append(f"stand-in answer: {problem}")

    def _token_rate_limit(self, path: str) -> tuple[float, bool] | None:
        """One bucket per interaction token (its callback excepted): 5 requests per 2 s."""
        m = re.fullmatch(r"/webhooks/\d+/([^/]+).*", path)
        if m is None:
            return None
        now = time.monotonic()
        window = self._token_windows.setdefault(m.group(1), collections.deque())
        while window and now - window[0] >= 2.0:
            window.popleft()
        if len(window) >= 5:
            return 2.0 - (now - window[0]), False
        window.append(now)
        return None

    def _rate_limit(self, method: str, path: str) -> tuple[float, bool] | None:
        now = time.monotonic()
        window = self._global_window
        while window and now - window[0] >= 1.0:
            window.popleft()
        if len(window) >= 50:
            return 1.0 - (now - window[0]), True
        m = re.match(r"/channels/(\d+)/messages", path)
        if m:
            # One bucket per channel for sending, one for editing, as on Discord.
            key = (method == "POST", int(m.group(1)))
            cw = self._channel_windows.setdefault(key, collections.deque())
            while cw and now - cw[0] >= 5.0:
                cw.popleft()
            if len(cw) >= 5:
                return 5.0 - (now - cw[0]), False
            cw.append(now)
        window.append(now)
        return None

    # the bot's own routes

    def _bot_route(self, method: str, path: str, body: Any,
                   files: list[tuple[str, bytes]]) -> Any:
        if (method, path) == ("GET", "/users/@me"):
            return bot_user_payload()
        if (method, path) == ("GET", "/oauth2/applications/@me"):
            return application_payload()
        if method == "GET" and path in ("/gateway", "/gateway/bot"):
            return {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": {
                "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}
        m = re.fullmatch(r"/guilds/(\d+)/members/(\d+)", path)
        if m and method == "GET" and int(m.group(1)) in self.guild_ids:
            # A member of the server (the bot asks for the name of one who sat down from
            # the Activity, where no interaction brought it).
            user = self.users.get(int(m.group(2)))
            if user is None:
                raise HTTPError(404, 10007, "Unknown Member")
            return user.member_payload()
        m = re.fullmatch(r"/applications/(\d+)/activity-instances/([^/]+)", path)
        if m and method == "GET" and int(m.group(1)) == APP_ID:
            instance = self.activity.instances.get(m.group(2))
            if instance is None:
                raise HTTPError(404, 10003, "Unknown Activity Instance")  # (Discord: 10xxx)
            found = instance.payload()
            self._check_answer(method, path, 200, found)
            return found
        m = re.fullmatch(r"/applications/(\d+)(?:/guilds/(\d+))?/commands", path)
        if m and method == "GET" and int(m.group(1)) == APP_ID and m.group(2) is None:
            return list(self.commands.values())
        if m and method == "PUT" and int(m.group(1)) == APP_ID:
            if m.group(2) is None and any(c.get("type") == ENTRY_POINT
                                          for c in self.commands.values()) and not any(
                                              c.get("type") == ENTRY_POINT for c in body):
                raise HTTPError(400, 50240, "You cannot remove this app's Entry Point command "
                                            "in a bulk update operation.")
            out = []
            for cmd in body:
                old = self.commands.get(cmd["name"])
                cid = old["id"] if old else str(self.new_id())
                stored = {**cmd, "id": cid, "application_id": str(APP_ID), "version": "1",
                          "type": cmd.get("type", 1)}
                self.commands[cmd["name"]] = stored
                out.append(stored)
            return out
        if m := re.fullmatch(r"/channels/(\d+)/messages", path):
            channel = self._channel(int(m.group(1)))
            if method == "POST":
                return self._create(channel, None, None, body, files).payload()
        m = re.fullmatch(r"/channels/(\d+)/messages/(\d+)/threads", path)
        if m and method == "POST":
            return self._start_thread(self._message(int(m.group(2)),
                                                    self._channel(int(m.group(1)))), body)
        m = re.fullmatch(r"/channels/(\d+)/threads", path)
        if m and method == "POST":
            return self._start_thread_alone(self._channel(int(m.group(1))), body)
        if (method, path) == ("POST", "/users/@me/channels"):
            return self._dm_channel(int(body["recipient_id"]))
        m = re.fullmatch(r"/guilds/(\d+)/scheduled-events(?:/(\d+))?", path)
        if m and int(m.group(1)) in self.guild_ids:
            return self._event(int(m.group(1)), method, m.group(2), body)
        m = re.fullmatch(r"/channels/(\d+)/thread-members/(\d+)", path)
        if m and method == "PUT" and int(m.group(1)) in self.threads:
            self.thread_members.setdefault(int(m.group(1)), set()).add(int(m.group(2)))
            return None
        if (m := re.fullmatch(r"/channels/(\d+)", path)) and int(m.group(1)) in self.threads:
            thread = self.threads[int(m.group(1))]
            if method == "PATCH":
                meta = thread["thread_metadata"]
                meta.update({k: body[k] for k in ("archived", "locked") if k in body})
                self._touched = int(thread["id"])
                return thread
        if m := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path):
            msg = self._message(int(m.group(2)), self._channel(int(m.group(1))))
            if msg.audience is not None:
                raise HTTPError(404, 10008, "Unknown Message")  # ephemeral: tokens only
            return self._on_message(method, path, msg, body)
        self.problems.append(f"unexpected request {method} {path}")
        raise HTTPError(404, 0, "404: Not Found")

    def _on_message(self, method: str, path: str, msg: Message, body: Any) -> Any:
        if method == "GET":
            return msg.payload()
        if method == "PATCH":
            self._write(msg, body)
            return msg.payload()
        if method == "DELETE":
            msg.deleted = True
            self._touched = msg.channel_id
            return None
        self.problems.append(f"unexpected request {method} {path}")
        raise HTTPError(405, 0, "405: Method Not Allowed")

    def _channel(self, channel_id: int) -> int:
        if (channel_id not in self.channel_ids and channel_id not in self.threads
                and channel_id not in self.dm_channels.values()):
            raise HTTPError(404, 10003, "Unknown Channel")
        thread = self.threads.get(channel_id)
        if thread is not None and thread["thread_metadata"]["locked"]:
            raise HTTPError(403, 50083, "Thread is archived")
        return channel_id

    def _start_thread(self, msg: Message, body: dict[str, Any]) -> dict[str, Any]:
        """A public thread on ``msg`` (Discord gives it the message's id), open for posts."""
        if msg.audience is not None or msg.id in self.threads:
            raise HTTPError(400, 160004, "A thread has already been created for this message")
        thread = {"id": str(msg.id), "type": 11, "guild_id": str(self.guild_of[msg.channel_id]),
                  "parent_id": str(msg.channel_id), "name": str(body["name"]),
                  "owner_id": str(bot_user_payload()["id"]), "message_count": 0,
                  "member_count": 1, "rate_limit_per_user": 0, "flags": 0,
                  "thread_metadata": {
                      "archived": False, "locked": False,
                      "auto_archive_duration": body.get("auto_archive_duration", 1440),
                      "archive_timestamp": "2026-01-01T00:00:00+00:00"}}
        self.threads[msg.id] = thread
        self.by_channel[msg.id] = []
        self.guild_of[msg.id] = self.guild_of[msg.channel_id]
        return thread

    def _start_thread_alone(self, parent_id: int, body: dict[str, Any]) -> dict[str, Any]:
        """A thread without a starter message (its own id): public, or private (type 12,
        a duplicate tournament's table: its members added one by one)."""
        kind = int(body.get("type") or 11)
        if kind not in (11, 12):
            self.problems.append(f"a thread of type {kind} (expected public or private)")
        tid = self.new_id()
        thread = {"id": str(tid), "type": kind, "guild_id": str(self.guild_of[parent_id]),
                  "parent_id": str(parent_id), "name": str(body["name"]),
                  "owner_id": str(bot_user_payload()["id"]), "message_count": 0,
                  "member_count": 1, "rate_limit_per_user": 0, "flags": 0,
                  "thread_metadata": {
                      "archived": False, "locked": False,
                      "auto_archive_duration": body.get("auto_archive_duration", 1440),
                      "archive_timestamp": "2026-01-01T00:00:00+00:00"}}
        self.threads[tid] = thread
        self.by_channel[tid] = []
        self.guild_of[tid] = self.guild_of[parent_id]
        return thread

    def _dm_channel(self, user_id: int) -> dict[str, Any]:
        """The user's DM channel with the bot: the same one each time it is asked for."""
        user = self.users.get(user_id)
        if user is None:
            raise HTTPError(400, 50033, "Invalid Recipient(s)")
        cid = self.dm_channels.get(user_id)
        if cid is None:
            cid = self.dm_channels[user_id] = self.new_id()
            self.by_channel[cid] = []
        return {"id": str(cid), "type": 1, "last_message_id": None, "flags": 0,
                "recipients": [user.payload()]}

    def _event(self, guild_id: int, method: str, event_id: str | None,
               body: Any) -> dict[str, Any]:
        """A guild's scheduled events: made, then moved on (status) by the bot."""
        if method == "POST" and event_id is None:
            eid = self.new_id()
            self.events[eid] = {**body, "id": str(eid), "guild_id": str(guild_id),
                                "creator_id": str(bot_user_payload()["id"]), "status": 1,
                                "entity_id": None, "channel_id": None, "user_count": 0}
            self._touched = None
            return self.events[eid]
        event = None if event_id is None else self.events.get(int(event_id))
        if event is None or int(event["guild_id"]) != guild_id:
            raise HTTPError(404, 10070, "Unknown Guild Scheduled Event")
        if method == "PATCH":
            event.update(body)
            return event
        if method == "GET":
            return event
        self.problems.append(f"unexpected request {method} scheduled event")
        raise HTTPError(405, 0, "405: Method Not Allowed")

    def dms(self, user: User) -> list[Message]:
        """The direct messages the bot sent ``user``, oldest first."""
        cid = self.dm_channels.get(user.id)
        return [] if cid is None else self.public(cid)

    # interaction tokens

    def _token_route(self, method: str, path: str, body: Any, files: list[tuple[str, bytes]],
                     query: Any) -> Any:
        if m := re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path):
            inter = self.interactions.get(m.group(2))
            if inter is None or inter.id != int(m.group(1)) or method != "POST":
                raise HTTPError(404, 10062, "Unknown interaction")
            return self._callback(inter, body, files, with_response=bool(
                query.get("with_response") in ("1", "true", "True")))
        m = re.fullmatch(r"/webhooks/(\d+)/([^/]+)(?:/messages/(@original|\d+))?", path)
        if m is None or int(m.group(1)) != APP_ID:
            self.problems.append(f"unexpected request {method} {path}")
            raise HTTPError(404, 10015, "Unknown Webhook")
        inter = self.interactions.get(m.group(2))
        if inter is None:
            raise HTTPError(404, 10015, "Unknown Webhook")
        if self.now() - inter.born > TOKEN_SECONDS:
            raise HTTPError(401, 50027, "Invalid Webhook Token")
        if inter.callback is None:
            raise HTTPError(404, 10015, "Unknown Webhook")  # not acknowledged yet
        which = m.group(3)
        if which is None:
            if method != "POST":
                self.problems.append(f"unexpected request {method} {path}")
                raise HTTPError(405, 0, "405: Method Not Allowed")
            flags = int((body or {}).get("flags") or 0)
            msg = self._create(inter.channel_id, inter.user.id if flags & EPHEMERAL else None,
                               inter.token, body or {}, files)
            inter.followups.append(msg.id)
            inter.settle(time.monotonic())
            return msg.payload()
        if which == "@original":
            if inter.original is None:
                raise HTTPError(404, 10008, "Unknown Message")
            msg = self._message(inter.original)
        else:
            msg = self._message(int(which))
            if msg.id not in inter.followups:
                raise HTTPError(404, 10008, "Unknown Message")
        result = self._on_message(method, path, msg, body)
        if method != "GET":
            inter.settle(time.monotonic())
        return result

    def _callback(self, inter: Interaction, body: dict[str, Any],
                  files: list[tuple[str, bytes]], *, with_response: bool) -> Any:
        late = self._arrived - inter.sent_at
        if late > ANSWER_SECONDS:
            self.problems.append(f"interaction {inter.custom_id or 'command'} of "
                                 f"{inter.user.name} answered after {late:.2f} s")
            raise HTTPError(404, 10062, "Unknown interaction")
        if inter.callback is not None:
            raise HTTPError(400, 40060, "Interaction has already been acknowledged.")
        kind = int(body["type"])
        data = body.get("data") or {}
        if kind == LAUNCH_ACTIVITY:
            return self._launch(inter, body, with_response=with_response)
        if kind in (CHANNEL_MESSAGE, DEFERRED_MESSAGE):
            flags = int(data.get("flags") or 0)
            msg = self._create(inter.channel_id, inter.user.id if flags & EPHEMERAL else None,
                               inter.token, data if kind == CHANNEL_MESSAGE else {}, files,
                               allow_empty=kind == DEFERRED_MESSAGE)
        elif kind in (UPDATE_MESSAGE, DEFERRED_UPDATE):
            if inter.message_id is None:
                raise HTTPError(400, 50035, "Invalid Form Body: an update answers a click only")
            msg = self._message(inter.message_id)
            if kind == UPDATE_MESSAGE:
                self._write(msg, data)
        else:
            self.problems.append(f"unexpected callback type {kind}")
            raise HTTPError(400, 50035, "Invalid Form Body: unsupported callback type")
        inter.callback = body
        inter.original = msg.id
        inter.answered_at = self._arrived
        inter.answered.set()
        if kind not in (DEFERRED_MESSAGE, DEFERRED_UPDATE):
            inter.settle(self._arrived)
        if not with_response:
            return None
        return {
            "interaction": {"id": str(inter.id), "type": 2 if inter.message_id is None else 3,
                            "response_message_id": str(msg.id),
                            "response_message_loading": kind == DEFERRED_MESSAGE,
                            "response_message_ephemeral": msg.audience is not None},
            "resource": {"type": kind, "message": msg.payload()},
        }

    def _launch(self, inter: Interaction, body: dict[str, Any], *, with_response: bool) -> Any:
        """LAUNCH_ACTIVITY: the user who clicked joins (or starts) the channel's instance."""
        instance = self.activity.launch(inter.user, inter.channel_id)
        inter.callback = body
        inter.answered_at = self._arrived
        inter.answered.set()
        if not with_response:
            return None
        found = {"interaction": {"id": str(inter.id), "type": 3 if inter.message_id else 2,
                                 "activity_instance_id": instance.id},
                 "resource": {"type": LAUNCH_ACTIVITY,
                              "activity_instance": {"id": instance.id}}}
        self._check_answer("POST", f"/interactions/{inter.id}/{inter.token}/callback", 200,
                           found)
        return found

    # messages

    def _create(self, channel_id: int, audience: int | None, token: str | None,
                data: dict[str, Any], files: list[tuple[str, bytes]], *,
                allow_empty: bool = False) -> Message:
        msg = Message(self.new_id(), channel_id, audience, {}, list(files), token=token)
        self._write(msg, data, allow_empty=allow_empty)
        self.messages[msg.id] = msg
        self.by_channel[channel_id].append(msg)
        return msg

    def _write(self, msg: Message, data: dict[str, Any], *, allow_empty: bool = False) -> None:
        """A create or an edit: the keys present replace the old values."""
        if msg.deleted:
            raise HTTPError(404, 10008, "Unknown Message")
        # ``data`` is the request's freshly parsed JSON and nothing here changes a stored
        # message in place (each write makes a new dict), so versions share values without
        # copying them: copying every version cost the stand-in a quarter of its time under
        # load, time the bot's measured answers then waited for.
        new = dict(msg.data)
        for key in ("content", "embeds", "components", "attachments"):
            if key in data:
                new[key] = data[key]
        if not allow_empty and not (new.get("content") or new.get("embeds")
                                    or new.get("components") or msg.files):
            raise HTTPError(400, 50006, "Cannot send an empty message")
        msg.data = new
        msg.versions.append(new)
        msg.times.append(time.monotonic())
        self._touched = msg.channel_id
        for observe in self.observers:
            observe(msg)

    def _message(self, message_id: int, channel_id: int | None = None) -> Message:
        msg = self.messages.get(message_id)
        if msg is None or msg.deleted or (channel_id is not None and msg.channel_id != channel_id):
            raise HTTPError(404, 10008, "Unknown Message")
        return msg

    # -- what the tests read ---------------------------------------------------------------

    def visible(self, user: User, channel_id: int) -> list[Message]:
        """The messages ``user`` sees in a channel, oldest first, as last edited."""
        return [m for m in self.by_channel[channel_id]
                if not m.deleted and m.audience in (None, user.id)]

    def forget(self, channel_id: int) -> None:
        """Forget everything said in a channel: its messages and the interactions made there
        (the bot can no longer edit them). For a long soak, once a table has ended: a
        Discord that kept every message and request of thousands of tables in this process
        would make this side slow (its reads walk a channel's messages, its collector walks
        all of it), not the bot."""
        for msg in self.by_channel[channel_id]:
            self.messages.pop(msg.id, None)
        self.by_channel[channel_id] = []
        for token in [k for k, inter in self.interactions.items()
                      if inter.channel_id == channel_id]:
            del self.interactions[token]

    def public(self, channel_id: int) -> list[Message]:
        return [m for m in self.by_channel[channel_id] if not m.deleted and m.audience is None]


async def _read_body(request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
    ctype = request.content_type
    if ctype.startswith("multipart/"):
        body: Any = None
        files = []
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                body = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                files.append((part.filename or "file", bytes(await part.read())))  # type: ignore[union-attr]
        return body, files
    raw = await request.read()
    if not raw:
        return None, []
    return json.loads(raw), []


def _json(status: int, data: Any, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses a body as JSON only when Content-Type is exactly application/json.
    return web.Response(status=status, body=json.dumps(data).encode(),
                        headers={"Content-Type": "application/json", **(headers or {})})
