"""The two parts of Discord an Activity talks to, for the stand-in (docs/standin.md).

**The client frame.** Discord's client opens an Activity in an iframe whose address carries
the instance, its channel and guild, and talks to it with ``postMessage`` (the Embedded App
SDK's RPC, ``@discord/embedded-app-sdk``'s ``Discord.mjs``): the page sends ``[0, HANDSHAKE]``
(``v``, ``encoding``, ``client_id``, ``frame_id``), the client answers ``[1, {cmd:
"DISPATCH", evt: "READY", data: {v, config, user}}]``; then each command ``[1, {cmd, args,
nonce}]`` gets ``[1, {cmd, evt: null, nonce, data}]`` or ``[1, {cmd, evt: "ERROR", nonce,
data: {code, message}}]``. Here ``GET /activities/{channel}?user=ID`` is a user's client:
it joins (or starts) the channel's instance and frames the Activity; ``AUTHORIZE`` gives a
one-time code for that user (Discord's consent, always granted), ``AUTHENTICATE`` checks an
access token is that user's. What the frame saw is kept (``handshakes``, ``commands``).

The Activity is framed through **Discord's proxy** (``/discordsays/...`` → the URL mapping
``/`` → ``target``, the bot's ``WEB_URL/activity``), HTTP and WebSocket alike, so that the
page and its client share an origin as they do on Discord (the SDK accepts messages from its
own origin and Discord's).

**OAuth2 and the REST routes** (in ``server.py``'s ``/api``): ``POST /oauth2/token``
(``authorization_code``: the application's id and secret and a code not used before, at
most 10 minutes old; else 400 ``invalid_grant`` / 401 ``invalid_client``), ``GET
/users/@me`` with ``Bearer`` (the token's user), ``GET
/applications/{id}/activity-instances/{instance}`` with the bot's token (where the instance
is and who is in it). Their answers are checked against Discord's OpenAPI schema where it
describes them; a ``LAUNCH_ACTIVITY`` callback (type 12) starts or joins the channel's
instance for the user who clicked.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import WSMsgType, web

from .discord_objects import APP_ID, User

if TYPE_CHECKING:
    from .server import StandIn

#: The application's OAuth2 client secret (the bot's ``CLIENT_SECRET``).
CLIENT_SECRET = "standin-client-secret"
CODE_SECONDS = 600
TOKEN_SECONDS = 7 * 24 * 3600
SCOPES = frozenset({"identify", "guilds", "guilds.members.read", "rpc.activities.write"})
#: Headers not passed on by the proxy.
HOP = frozenset({"connection", "keep-alive", "transfer-encoding", "upgrade", "host",
                 "content-length", "content-encoding", "proxy-authorization", "te",
                 "trailer"})


@dataclass
class ActivityInstance:
    id: str
    guild_id: int
    channel_id: int
    launch_id: str
    users: list[int] = field(default_factory=list)

    def payload(self) -> dict[str, Any]:
        """``EmbeddedActivityInstance`` (Discord's schema)."""
        return {"application_id": str(APP_ID), "instance_id": self.id,
                "launch_id": self.launch_id,
                "location": {"id": f"gc-{self.guild_id}-{self.channel_id}", "kind": "gc",
                             "channel_id": str(self.channel_id),
                             "guild_id": str(self.guild_id)},
                "users": [str(u) for u in self.users]}


@dataclass
class Grant:
    """An authorization code: its user and scopes, when it was made, whether it was used."""

    user_id: int
    scopes: tuple[str, ...]
    made: float
    used: bool = False


class ActivityHost:
    """The stand-in's Activity side (see the module docstring)."""

    def __init__(self, standin: StandIn) -> None:
        self.standin = standin
        self.instances: dict[str, ActivityInstance] = {}
        self.by_channel: dict[int, str] = {}
        self.codes: dict[str, Grant] = {}
        self.tokens: dict[str, tuple[int, float, tuple[str, ...]]] = {}
        #: The URL mapping ``/`` → target (the bot's ``WEB_URL/activity``).
        self.target: str | None = None
        #: Every HANDSHAKE and command the client frames received: (user, cmd, args).
        self.commands: list[tuple[int, str, Any]] = []
        #: Token exchanges asked for: (code, status).
        self.exchanges: list[tuple[str, int]] = []
        self._http: aiohttp.ClientSession | None = None
        self._count = 0

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/activities/{channel_id}", self.client_frame),
            web.post("/activities/rpc", self.rpc),
            web.route("*", "/discordsays/{tail:.*}", self.proxy),
        ]

    async def stop(self) -> None:
        if self._http is not None:
            await self._http.close()

    # -- instances -----------------------------------------------------------------------------

    def join(self, user: User, channel_id: int) -> ActivityInstance:
        """The user is in the channel's instance (started if there is none)."""
        self.standin.users[user.id] = user
        ident = self.by_channel.get(channel_id)
        if ident is None:
            self._count += 1
            guild = self.standin.guild_of[channel_id]
            ident = f"i-{1300000000000000000 + self._count}-gc-{guild}-{channel_id}"
            self.instances[ident] = ActivityInstance(
                ident, guild, channel_id, f"{1400000000000000000 + self._count}")
            self.by_channel[channel_id] = ident
        instance = self.instances[ident]
        if user.id not in instance.users:
            instance.users.append(user.id)
        return instance

    def url(self, user: User, channel_id: int, platform: str = "mobile") -> str:
        """Where a user's Discord client shows the channel's Activity (a browser opens it)."""
        self.standin.users[user.id] = user
        return (f"http://127.0.0.1:{self.standin.port}/activities/{channel_id}?"
                + urlencode({"user": user.id, "platform": platform}))

    # -- the client frame --------------------------------------------------------------------------

    async def client_frame(self, request: web.Request) -> web.Response:
        try:
            channel_id = int(request.match_info["channel_id"])
            user = self.standin.users[int(request.query["user"])]
        except (KeyError, ValueError):
            raise web.HTTPNotFound() from None
        if channel_id not in self.standin.guild_of:
            raise web.HTTPNotFound()
        platform = request.query.get("platform", "mobile")
        instance = self.join(user, channel_id)
        frame_id = secrets.token_hex(8)
        query = urlencode({"instance_id": instance.id, "frame_id": frame_id,
                           "channel_id": channel_id, "guild_id": instance.guild_id,
                           "location_id": instance.payload()["location"]["id"],
                           "platform": platform, "referrer_id": user.id})
        config = {"user": user.payload(), "frame_id": frame_id, "instance": instance.id,
                  "app_id": str(APP_ID)}
        html = CLIENT_FRAME.replace("__CONFIG__", json.dumps(config)).replace(
            "__SRC__", f"/discordsays/?{query}")
        return web.Response(text=html, content_type="text/html")

    async def rpc(self, request: web.Request) -> web.Response:
        """A command the client frame answers with Discord's help (a code, a token's user)."""
        body = await request.json()
        user = self.standin.users.get(int(body["user"]))
        cmd, args = body["cmd"], body.get("args") or {}
        if user is None:
            return web.json_response({"error": {"code": 4006, "message": "Not authenticated"}})
        self.commands.append((user.id, cmd, args))
        if cmd == "AUTHORIZE":
            scopes = tuple(args.get("scope") or ())
            if str(args.get("client_id")) != str(APP_ID) or not scopes or not set(
                    scopes) <= SCOPES or args.get("response_type", "code") != "code":
                return web.json_response({"error": {"code": 4002, "message": "Invalid args"}})
            code = secrets.token_urlsafe(24)
            self.codes[code] = Grant(user.id, scopes, time.monotonic())
            return web.json_response({"data": {"code": code}})
        if cmd == "AUTHENTICATE":
            held = self.tokens.get(str(args.get("access_token")))
            if held is None or held[0] != user.id:
                return web.json_response({"error": {"code": 4009, "message": "Invalid token"}})
            expires = time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00",
                                    time.gmtime(time.time() + TOKEN_SECONDS))
            return web.json_response({"data": {
                "access_token": args["access_token"], "user": user.payload(),
                "scopes": list(held[2]), "expires": expires,
                "application": {"id": str(APP_ID), "name": "Filicău", "description": "",
                                "icon": None}}})
        return web.json_response({"error": {"code": 4000, "message": f"{cmd}: not here"}})

    # -- OAuth2 and the REST routes -----------------------------------------------------------

    async def token(self, request: web.Request) -> web.Response:
        """``POST /oauth2/token``: an authorization code for an access token."""
        form = await request.post()
        code = str(form.get("code", ""))
        if str(form.get("client_id")) != str(APP_ID) or form.get(
                "client_secret") != CLIENT_SECRET:
            self.exchanges.append((code, 401))
            return web.json_response({"error": "invalid_client"}, status=401)
        grant = self.codes.get(code)
        if form.get("grant_type") != "authorization_code" or grant is None or grant.used \
                or time.monotonic() - grant.made > CODE_SECONDS:
            self.exchanges.append((code, 400))
            return web.json_response({"error": "invalid_grant",
                                      "error_description": 'Invalid "code" in request.'},
                                     status=400)
        grant.used = True
        access = secrets.token_urlsafe(30)
        self.tokens[access] = (grant.user_id, time.monotonic(), grant.scopes)
        self.exchanges.append((code, 200))
        return web.json_response({"access_token": access, "token_type": "Bearer",
                                  "expires_in": TOKEN_SECONDS,
                                  "refresh_token": secrets.token_urlsafe(30),
                                  "scope": " ".join(grant.scopes)})

    def me(self, access_token: str) -> dict[str, Any] | None:
        """``GET /users/@me`` with a user's token (``UserPIIResponse``)."""
        held = self.tokens.get(access_token)
        if held is None or time.monotonic() - held[1] > TOKEN_SECONDS:
            return None
        user = self.standin.users[held[0]]
        return {**user.payload(), "flags": 0, "mfa_enabled": False, "locale": user.locale,
                "banner": None, "accent_color": None, "premium_type": 0}

    def launch(self, user: User, channel_id: int) -> ActivityInstance:
        """A LAUNCH_ACTIVITY answer to a user's click: the channel's instance, with them."""
        return self.join(user, channel_id)

    # -- the proxy -----------------------------------------------------------------------------

    def _client(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(auto_decompress=False)
        return self._http

    async def proxy(self, request: web.Request) -> web.StreamResponse:
        if self.target is None:
            raise web.HTTPNotFound()
        url = self.target.rstrip("/") + "/" + request.match_info["tail"]
        if request.query_string:
            url += "?" + request.query_string
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._proxy_socket(request, "ws" + url[len("http"):])
        try:
            async with self._client().request(request.method, url, headers=headers,
                                              data=await request.read(),
                                              allow_redirects=False) as r:
                body = await r.read()
                out = {k: v for k, v in r.headers.items() if k.lower() not in HOP}
                if "Content-Encoding" in r.headers:
                    out["Content-Encoding"] = r.headers["Content-Encoding"]
                return web.Response(status=r.status, body=body, headers=out)
        except aiohttp.ClientError:
            # The app's server is down (stopping, restarting): Discord's proxy says so, as
            # for a socket, rather than failing itself.
            raise web.HTTPBadGateway() from None

    async def _proxy_socket(self, request: web.Request, url: str) -> web.StreamResponse:
        try:
            upstream = await self._client().ws_connect(url, autoping=True, max_msg_size=0)
        except aiohttp.WSServerHandshakeError as e:
            raise web.HTTPNotFound() if e.status == 404 else web.HTTPBadGateway() from None
        except aiohttp.ClientError:
            raise web.HTTPBadGateway() from None
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)

        async def pump(source: Any, sink: Any) -> None:
            async for msg in source:
                if msg.type is WSMsgType.TEXT:
                    await sink.send_str(msg.data)
                elif msg.type is WSMsgType.BINARY:
                    await sink.send_bytes(msg.data)
                else:
                    break
            await sink.close()

        try:
            await asyncio.gather(pump(ws, upstream), pump(upstream, ws))
        finally:
            with contextlib.suppress(Exception):
                await upstream.close()
        return ws


#: The user's Discord client, as far as an Activity sees it: a frame around the Activity
#: that answers the SDK's handshake and commands (see the module docstring).
CLIENT_FRAME = """<!doctype html>
<html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Discord (stand-in)</title>
<style>html,body{margin:0;height:100%;background:#313338}
iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body><iframe id="activity" src="__SRC__" allow="autoplay; clipboard-write"></iframe>
<script>
"use strict";
const config = __CONFIG__;
const frame = document.getElementById("activity");
window.discordClient = {handshakes: [], commands: [], closed: []};
function post(message) { frame.contentWindow.postMessage(message, location.origin); }
function reply(cmd, nonce, data) { post([1, {cmd, evt: null, nonce, data}]); }
function refuse(cmd, nonce, error) {
  post([1, {cmd, evt: "ERROR", nonce, data: {code: error.code, message: error.message}}]);
}
async function ask(cmd, args) {
  const r = await fetch("/activities/rpc", {method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({user: config.user.id, instance: config.instance, cmd, args})});
  return r.json();
}
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [op, data] = event.data;
  if (op === 0) {
    window.discordClient.handshakes.push(data);
    if (data.v !== 1 || data.client_id !== config.app_id || data.frame_id !== config.frame_id) {
      post([2, {code: 4001, message: "Invalid handshake"}]);
      return;
    }
    post([1, {cmd: "DISPATCH", evt: "READY", nonce: null, data: {
      v: 1, config: {cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api",
                     environment: "production"},
      user: {id: config.user.id, username: config.user.username,
             discriminator: config.user.discriminator}}}]);
  } else if (op === 1) {
    const {cmd, args, nonce} = data;
    window.discordClient.commands.push(cmd);
    if (cmd === "AUTHORIZE" || cmd === "AUTHENTICATE") {
      const answer = await ask(cmd, args);
      if (answer.error) refuse(cmd, nonce, answer.error); else reply(cmd, nonce, answer.data);
    } else if (cmd === "SUBSCRIBE" || cmd === "UNSUBSCRIBE") {
      reply(cmd, nonce, {evt: data.evt});
    } else if (cmd === "CAPTURE_LOG" || cmd === "SET_ORIENTATION_LOCK_STATE"
               || cmd === "SET_CONFIG") {
      reply(cmd, nonce, null);
    } else {
      refuse(cmd, nonce, {code: 4000, message: cmd + " is not in the stand-in"});
    }
  } else if (op === 2) {
    window.discordClient.closed.push(data);
  }
});
</script></body></html>
"""
