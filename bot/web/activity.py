"""The table as a Discord Activity: its page, who is playing, and their socket.

Discord opens the Activity in an iframe of its client, at the application's URL mapping
(``/`` → ``WEB_URL/activity``: docs/activity.md), with the instance, its channel and guild
in the query. The page (``activity/`` built into ``bot/web/static/activity/``) runs the
Embedded App SDK; everything it fetches is relative, so it works behind Discord's proxy.

**Who is playing is proven, not claimed.** The page asks the SDK to ``authorize`` (Discord's
client shows its consent and hands the page a one-time code) and posts the code with its
instance id to ``api/session``. The bot exchanges the code at Discord's OAuth2 token
endpoint (the application's id and ``CLIENT_SECRET``), asks Discord whose token it is
(``/users/@me``), and asks Discord with the bot's own token where the instance is and who is
in it (``/applications/{id}/activity-instances/{instance}``). Only a user who is in that
instance, whose instance is in the channel of an open table of that table's guild, gets a
**ticket**: the guild, the table, the user, an expiry and the user's language, signed with
the guild's web key (``bot.web.keys``; rotating it revokes every ticket). A code the bot has
seen is refused before Discord is asked (Discord refuses it too); the page's own claims
(its guild and channel) must match what Discord says, or nothing is given.

The ticket opens the socket ``ws/{ticket}`` (``bot.web.protocol``, the pages' protocol with
the Activity's additions): the user sees the table as the channel sees it, and while they
hold a seat, their own seat's part (``bot.web.seatview``); their ``act``, ``seat`` and
``hint`` messages go to the table's live side (``Play``, the bot's registry in this
process), through the same ``TableSession`` calls under the same lock as the buttons, and
the table's runner is told so that every surface shows the change. Anything refused is
answered with ``error`` (a reason and the refusal in the user's language) and changes
nothing.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import logging
import struct
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import aiohttp
from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot import boards
from bot.session import SessionError
from bot.store import WebKey
from bot.texts import EN, LANGUAGES, language_of, refusal, showing, speaking, t
from bot.voice import Text
from bot.voice.wire import SpanData, spans
from bot.web import cards, protocol
from bot.web.assets import Assets
from bot.web.keys import Keys
from bot.web.live import Subscriber
from bot.web.protocol import Viewer
from engine import Action, action_from_json
from engine.cards import CardError
from engine.errors import RecordError

if TYPE_CHECKING:
    from bot.web.server import WebServer

log = logging.getLogger(__name__)

#: The built page's files (``activity/``: ``npm run build``), in the package.
STATIC = ("app.js", "app.css")
#: How long a ticket opens the socket (the page asks for a new one, silently, after it).
TICKET_SECONDS = 6 * 3600
#: Codes remembered as used (a replayed code is refused before Discord is asked).
CODES_KEPT = 10_000
#: Codes this process exchanges with Discord at most, a second on average and at once: a
#: flood of made-up codes must not spend the application's OAuth2 rate limit, which the
#: people opening the Activity need.
EXCHANGES_PER_SECOND, EXCHANGES_AT_ONCE = 10.0, 30.0
#: Where the Activity may be framed: Discord's clients (and, behind a proxy on the same
#: origin, the stand-in's client frame: 'self').
FRAME_ANCESTORS = ("'self' https://discord.com https://*.discord.com https://discordapp.com "
                   "https://*.discordapp.com")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; "
       f"frame-ancestors {FRAME_ANCESTORS}")


class Refused(Exception):
    """The Activity's request is refused (``reason``: ``activity.refused.REASON``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# -- who: Discord's answers ------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    """A Discord user as Discord says, from their OAuth2 token."""

    id: int
    name: str
    locale: str | None = None


@dataclass(frozen=True)
class Instance:
    """Where an Activity instance runs and who is in it, as Discord says."""

    guild_id: int | None
    channel_id: int
    users: frozenset[int]


class Identity(Protocol):
    """What the bot asks Discord to know who is playing."""

    async def exchange(self, code: str) -> str:
        """The access token for an authorization code (``Refused`` if Discord refuses it)."""

    async def person(self, access_token: str) -> Person:
        """Whose token it is."""

    async def instance(self, instance_id: str) -> Instance | None:
        """The instance's place and people (None: no such instance of this application)."""


#: ``GET /applications/{id}/activity-instances/{instance}`` with the bot's token: its JSON,
#: or None for an unknown instance (the bot's HTTP client makes the request).
InstanceLookup = Callable[[str], Awaitable[dict[str, Any] | None]]


class DiscordIdentity:
    """Discord's OAuth2 token endpoint and ``/users/@me`` (with the user's token), and the
    activity-instance route (with the bot's, through ``lookup``)."""

    def __init__(self, api_base: str, application_id: int, client_secret: str,
                 lookup: InstanceLookup) -> None:
        self.api_base = api_base.rstrip("/")
        self.application_id = application_id
        self.client_secret = client_secret
        self.lookup = lookup
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def exchange(self, code: str) -> str:
        form = {"client_id": str(self.application_id), "client_secret": self.client_secret,
                "grant_type": "authorization_code", "code": code}
        try:
            async with self._http().post(f"{self.api_base}/oauth2/token", data=form) as r:
                body = await r.json(content_type=None)
                status = r.status
        except (aiohttp.ClientError, TimeoutError, ValueError) as e:
            log.warning("activity: Discord's token endpoint failed: %s", e)
            raise Refused("discord") from None
        if status != 200 or not isinstance(body, dict) or not isinstance(
                body.get("access_token"), str):
            if status >= 500 or status == 401:
                # 401: our client id or secret is wrong (CLIENT_SECRET): the owner's to fix.
                log.warning("activity: Discord refused the code exchange (%s %s)", status,
                            str(body)[:200])
            raise Refused("bad_code")
        if "identify" not in str(body.get("scope", "")).split():
            raise Refused("bad_code")
        return str(body["access_token"])

    async def person(self, access_token: str) -> Person:
        headers = {"Authorization": f"Bearer {access_token}"}
        try:
            async with self._http().get(f"{self.api_base}/users/@me", headers=headers) as r:
                body = await r.json(content_type=None)
                status = r.status
        except (aiohttp.ClientError, TimeoutError, ValueError):
            raise Refused("discord") from None
        if status != 200 or not isinstance(body, dict):
            raise Refused("bad_code")
        try:
            user_id = int(body["id"])
        except (KeyError, TypeError, ValueError):
            raise Refused("bad_code") from None
        name = body.get("global_name") or body.get("username") or str(user_id)
        locale = body.get("locale")
        return Person(user_id, str(name)[:64], locale if isinstance(locale, str) else None)

    async def instance(self, instance_id: str) -> Instance | None:
        data = await self.lookup(instance_id)
        if data is None:
            return None
        try:
            location = data["location"]
            guild = location.get("guild_id")
            return Instance(None if guild is None else int(guild), int(location["channel_id"]),
                            frozenset(int(u) for u in data["users"]))
        except (KeyError, TypeError, ValueError, AttributeError):
            log.warning("activity: an activity instance not understood: %r", str(data)[:200])
            return None


# -- what: the table's live side -------------------------------------------------------------


class Play(Protocol):
    """The open tables, as the Activity plays them (``bot.activity``): the same
    ``TableSession`` calls as the buttons, and the runner told after each — made by the
    process that drives the table, wherever the socket is."""

    def table_in(self, channel_id: int) -> int | None:
        """The open table of a channel, if this process drives it (else the store says)."""

    async def act(self, table_id: int, user_id: int, action: Action, *, hand_id: int,
                  at: int, seat: int | None) -> None:
        """Play ``action`` for the user (``SessionError`` if refused)."""

    async def seat(self, table_id: int, user_id: int, op: str, *, team: int | None,
                   hand_id: int | None) -> None:
        """Leave, sit down, come back from the computer, or deal the next hand."""

    async def hint(self, table_id: int, user_id: int, *, hand_id: int, at: int
                   ) -> str | list[Text]:
        """What the computer would play, worded for the user: its lines
        (``bot.voice.words.hint``), or plain text."""

    def status(self, table_id: int, seat: int) -> dict[str, Any]:
        """What the live side says of a seat: ``autoplay`` (the computer plays it after its
        turns ran out), ``left`` (its player left during the hand)."""

    def deadline(self, table_id: int) -> float | None:
        """When the wait for the table's people ends by itself (wall clock), if one runs."""


# -- tickets --------------------------------------------------------------------------------


_TICKET = struct.Struct(">QQQI2s")
_MAC = 16


@dataclass(frozen=True)
class Ticket:
    guild_id: int
    table_id: int
    user_id: int
    expires: int
    lang: str


def _ticket_mac(key: WebKey, raw: bytes) -> bytes:
    return hmac.new(bytes.fromhex(key.secret), b"activity:" + raw, hashlib.sha256).digest()[:_MAC]


def sign_ticket(key: WebKey, ticket: Ticket) -> str:
    """A ticket as the socket's path carries it.

    >>> key = WebKey(guild_id=7, secret="00" * 32)
    >>> token = sign_ticket(key, Ticket(7, 3, 42, 2_000_000_000, "hu"))
    >>> read_ticket(token) == Ticket(7, 3, 42, 2_000_000_000, "hu")
    True
    >>> check_ticket(key, token), check_ticket(WebKey(guild_id=7, secret="11" * 32), token)
    (True, False)
    """
    raw = _TICKET.pack(ticket.guild_id, ticket.table_id, ticket.user_id, ticket.expires,
                       ticket.lang.encode("ascii"))
    return base64.urlsafe_b64encode(raw + _ticket_mac(key, raw)).rstrip(b"=").decode()


def read_ticket(token: str) -> Ticket | None:
    """What a ticket claims (not yet checked)."""
    if len(token) > 128 or not token.isascii():
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None
    if len(raw) != _TICKET.size + _MAC or base64.urlsafe_b64encode(raw).rstrip(b"=") != \
            token.encode():
        return None  # one spelling for one ticket
    guild, table, user, expires, lang = _TICKET.unpack(raw[:_TICKET.size])
    try:
        language = lang.decode("ascii")
    except UnicodeDecodeError:
        return None
    return Ticket(guild, table, user, expires, language)


def check_ticket(key: WebKey, token: str) -> bool:
    """Whether ``token`` was signed with ``key`` (whatever its expiry)."""
    if read_ticket(token) is None:
        return False
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    return hmac.compare_digest(_ticket_mac(key, raw[:_TICKET.size]), raw[_TICKET.size:])


async def verify_ticket(keys: Keys, token: str) -> Ticket | None:
    """The ticket, if it is good now: signed with its guild's current key, not expired, and
    of a language the bot speaks. (The server's pages being off does not close the Activity:
    it is Discord's, and only the channel's people are in it.)"""
    ticket = read_ticket(token)
    if ticket is None or ticket.expires < time.time() or ticket.lang not in LANGUAGES:
        return None
    key = await keys.get(ticket.guild_id)
    if key is None or not check_ticket(key, token):
        return None
    return ticket


# -- the page's requests -----------------------------------------------------------------------


class SessionRequest(BaseModel):
    """What the page posts to ``api/session``: the SDK's code, its instance, and where the
    page believes it is (checked against Discord's answer)."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")

    code: str = Field(min_length=1, max_length=256)
    instance_id: str = Field(min_length=1, max_length=256)
    guild_id: str | None = Field(default=None, max_length=24)
    channel_id: str | None = Field(default=None, max_length=24)


class Activity:
    """The Activity's routes on the bot's web server (``WebServer(activity=...)``)."""

    def __init__(self, identity: Identity, play: Play | None, application_id: int) -> None:
        self.identity = identity
        self.play = play
        self.application_id = application_id
        self.server: WebServer | None = None
        self._codes: OrderedDict[bytes, None] = OrderedDict()
        #: The bucket's refill a second and depth (``EXCHANGES_…``).
        self.exchanges = (EXCHANGES_PER_SECOND, EXCHANGES_AT_ONCE)
        self._allowance = EXCHANGES_AT_ONCE
        self._allowed_at = time.monotonic()
        self.static = Assets("static/activity", STATIC)

    async def close(self) -> None:
        closing = getattr(self.identity, "close", None)
        if closing is not None:
            await closing()

    def attach(self, server: WebServer) -> list[web.RouteDef]:
        """The routes, for the server's application (before it starts)."""
        self.server = server
        server.feed.tickets = self._still_good
        if self.play is not None:
            server.feed.status = self.play.status
            server.feed.deadline = self.play.deadline
        return [
            web.get("/activity/", self.page),
            web.get("/activity", self.to_page),
            web.get("/activity/static/{name}", self.static.serve),
            web.get("/activity/cards/{faces}/{theme}/{lang}/{code}.png", server.card),
            web.post("/activity/api/session", self.session),
            web.get("/activity/ws/{ticket}", self.socket),
        ]

    @property
    def _server(self) -> WebServer:
        assert self.server is not None
        return self.server

    # -- the page ---------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        """The page: the same for everybody (no table, no person in it), the words in the
        language of the viewer's Discord client when the page says it (``locale``), else
        English until the session says the server's."""
        lang = language_of(request.query.get("locale"))
        with speaking(lang):
            texts = activity_texts()
        html = self._server.env.get_template("activity.html").render(
            lang=lang, t=t, texts=json.dumps(texts, ensure_ascii=False).replace(
                "<", "\\u003c"), app_id=str(self.application_id),
            static=self.static.addresses("static/"))
        return web.Response(text=html, content_type="text/html", charset="utf-8", headers={
            "Cache-Control": "no-store", "Content-Security-Policy": CSP})

    async def to_page(self, request: web.Request) -> web.Response:
        """``/activity`` → ``/activity/`` (the page's addresses are relative to it)."""
        raise web.HTTPFound(request.rel_url.with_path("/activity/").with_query(
            request.rel_url.query))

    # -- who is playing ---------------------------------------------------------------------

    async def session(self, request: web.Request) -> web.Response:
        """Exchange the page's code for a ticket (see the module docstring)."""
        lang = language_of(request.headers.get("Accept-Language", "")[:5] or None)
        try:
            raw = await request.read()
            try:
                asked = SessionRequest.model_validate_json(raw)
            except ValidationError:
                raise Refused("bad_request") from None
            answer = await self._session(asked)
        except Refused as e:
            with speaking(lang):
                text = t(f"activity.refused.{e.reason}")
            return web.json_response({"error": e.reason, "text": text}, status=403,
                                     headers={"Cache-Control": "no-store"})
        return web.json_response(answer, headers={"Cache-Control": "no-store"})

    def _may_exchange(self) -> bool:
        """A token bucket (``exchanges``: its refill a second, and its depth)."""
        now = time.monotonic()
        rate, depth = self.exchanges
        self._allowance = min(depth, self._allowance + (now - self._allowed_at) * rate)
        self._allowed_at = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    def _first_use(self, code: str) -> bool:
        digest = hashlib.sha256(code.encode()).digest()
        if digest in self._codes:
            return False
        self._codes[digest] = None
        while len(self._codes) > CODES_KEPT:
            self._codes.popitem(last=False)
        return True

    async def _session(self, asked: SessionRequest) -> dict[str, Any]:
        if not self._first_use(asked.code):
            raise Refused("bad_code")
        if not self._may_exchange():
            raise Refused("busy")
        token = await self.identity.exchange(asked.code)
        person = await self.identity.person(token)
        instance = await self.identity.instance(asked.instance_id)
        if instance is None:
            raise Refused("no_instance")
        if person.id not in instance.users:
            raise Refused("not_in_instance")
        if (asked.guild_id is not None and asked.guild_id != str(instance.guild_id)) or (
                asked.channel_id is not None and asked.channel_id != str(instance.channel_id)):
            raise Refused("elsewhere")
        server = self._server
        table_id = None if self.play is None else self.play.table_in(instance.channel_id)
        shown_in = None
        if table_id is None and self.play is not None:
            # A table another shard process drives (its requests are carried there), or
            # a venue's channel: a table across servers as that server shows it.
            row = await server.store.open_table_in(instance.channel_id)
            venue = None if row is not None else await server.store.venue_in(
                instance.channel_id)
            if row is not None:
                table_id = row.id
            elif venue is not None:
                table_id, shown_in = venue.table_id, venue.guild_id
        table = None if table_id is None else await server.store.get_table(table_id)
        guild_id = None if table is None else shown_in or table.guild_id
        if table is None or instance.guild_id is None or guild_id != instance.guild_id:
            raise Refused("no_table")
        if boards.is_secret_table(table.settings) and str(person.id) not in table.seats:
            # A duplicate tournament's table: its boards are its players' own for now.
            raise Refused("secret")
        # The ticket is the showing server's: signed with its key, in its language.
        key = await server.keys.for_links(guild_id)
        guild_lang = await server.guilds.language(guild_id)
        lang = language_of(person.locale) if person.locale else guild_lang
        ticket = sign_ticket(key, Ticket(guild_id, table.id, person.id,
                                         int(time.time()) + TICKET_SECONDS, lang))
        with speaking(lang):
            texts = activity_texts()
        return {"access_token": token, "ticket": ticket, "lang": lang, "texts": texts,
                "user": {"id": str(person.id), "name": person.name}}

    async def _still_good(self, sub: Subscriber) -> bool:
        ticket = await verify_ticket(self._server.keys, sub.token)
        return ticket is not None and ticket.table_id == sub.table_id

    # -- the socket -------------------------------------------------------------------------

    async def socket(self, request: web.Request) -> web.StreamResponse:
        server = self._server
        token = request.match_info["ticket"]
        ticket = await verify_ticket(server.keys, token)
        if ticket is None:
            raise web.HTTPNotFound()
        table = await server.store.get_table(ticket.table_id)
        if table is None or (table.guild_id != ticket.guild_id and not any(
                v.guild_id == ticket.guild_id
                for v in await server.store.venues(table.id))):
            raise web.HTTPNotFound()
        # As the ticket's server shows the table (a venue's, at a table across servers).
        config = await server.guilds.get(ticket.guild_id)
        cards_lang = await server.guilds.language(ticket.guild_id)
        seated = str(ticket.user_id) in table.seats
        if not seated and boards.is_secret_table(table.settings):
            raise web.HTTPNotFound()
        viewer = Viewer("player" if seated else "spectator", ticket.user_id,
                        table.seats.index(str(ticket.user_id)) if seated else None)
        sub = Subscriber(table.id, ticket.guild_id, token, viewer, activity=True,
                         lang=ticket.lang)

        faces = cards.faces_of(table.game, config.faces)

        async def answer(message: protocol.Message) -> None:
            await self._answer(sub, ticket, message, faces)

        return await server.run_socket(request, sub, protocol.hello(
            viewer, "public", protocol.TableInfo(
                confirm=bool(table.settings.get("confirm", False)),
                cards=cards.base(cards.faces_of(table.game, config.faces), config.theme,
                                 cards_lang, prefix="cards/"),
                user=str(ticket.user_id))),
            answer)

    async def _answer(self, sub: Subscriber, ticket: Ticket, message: protocol.Message,
                      faces: str) -> None:
        """A player's request, through the table's live side; a refusal answered in their
        language, nothing changed; its cards named as the page draws them (``faces``)."""
        try:
            # A hint is worded in its asker's language.
            with speaking(ticket.lang), showing(faces):
                await self._do(sub, ticket, message)
        except SessionError as e:
            with speaking(ticket.lang), showing(faces):
                text = (refusal(e.key, e.params) if e.key in EN else t("err.not_allowed"))
            sub.send(protocol.dump(protocol.Refusal(reason=e.key, text=text)))
        except Exception:
            # The bot's own failure (the store, say): nothing was changed that was not
            # stored; the player may try again.
            log.exception("activity: table %s: a request of user %s failed", sub.table_id,
                          ticket.user_id)
            with speaking(ticket.lang):
                sub.send(protocol.dump(protocol.Refusal(reason="err.internal",
                                                      text=t("err.internal"))))

    async def _do(self, sub: Subscriber, ticket: Ticket, message: protocol.Message) -> None:
        play = self.play
        if play is None:
            raise SessionError("activity.elsewhere")
        if isinstance(message, protocol.Act):
            try:
                action = action_from_json(message.action)
            except (ValueError, KeyError, TypeError, CardError, RecordError):
                raise SessionError("err.bad_button") from None
            await play.act(sub.table_id, ticket.user_id, action, hand_id=message.hand,
                           at=message.at, seat=message.seat)
        elif isinstance(message, protocol.SeatChange):
            if message.op == "sit":
                table = await self._server.store.get_table(sub.table_id)
                if table is not None and table.settings.get("crossplay"):
                    # A seat across servers is taken with /tables' Join, which asks the
                    # player's server and the blocks and bars first, and shows the table
                    # in their server.
                    raise SessionError("activity.crossplay_sit")
            await play.seat(sub.table_id, ticket.user_id, message.op, team=message.team,
                            hand_id=message.hand)
        elif isinstance(message, protocol.Hint):
            text = await play.hint(sub.table_id, ticket.user_id, hand_id=message.hand,
                                   at=message.at)
            sub.send(protocol.dump(protocol.Answer.model_validate(
                {"text": answer_lines(text), "hand": message.hand})))


def answer_lines(text: str | list[Text]) -> list[list[SpanData]]:
    """An answer's lines as the socket carries them."""
    if isinstance(text, str):
        return [[line] for line in text.splitlines()]
    return [spans(line) for line in text]


def activity_texts() -> dict[str, str]:
    """The words the Activity's script shows, in the current language (by their keys)."""
    return {key: t(key) for key in ACTIVITY_TEXTS}


ACTIVITY_TEXTS = (
    # the Activity's own
    "activity.connecting", "activity.tap_again", "activity.back", "activity.done",
    "activity.spectating", "activity.autoplay", "activity.retry", "activity.close",
    "activity.outside",
    # the buttons' and the pages' words, the same here
    "btn.join_a", "btn.join_b", "btn.sit", "btn.leave_hand", "btn.leave_yes", "btn.leave_no",
    "btn.next_hand", "btn.hint", "btn.last_trick", "hand.leave_ask", "hand.from_widow",
    "hand.left", "web.trump", "web.trick", "web.reconnecting", "web.gone_closed",
    "web.gone_revoked", "web.seconds_left", "web.result", "web.moves", "web.taken",
)
