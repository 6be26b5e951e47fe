"""Discord faked at the discord.py boundary, for the cog tests.

A real ``FilicauBot`` logs in and runs its ``setup_hook`` while ``HTTPClient.request`` (the
bot's REST calls) and ``AsyncWebhookAdapter.request`` (interaction callbacks, follow-ups and
edits of interaction responses) are replaced by ``FakeDiscord``, which records every call and
keeps the messages of one guild the way Discord would: channel messages and public interaction
responses for everybody, ephemeral ones for one user only, each with its latest edit.

Users act through real ``INTERACTION_CREATE`` payloads handed to discord.py's own
``ConnectionState.parse_interaction_create``: slash commands reach the command tree, button
clicks and menu choices the bot's one listener (``bot.clicks``), which parses
their ``custom_id``. A click names a ``custom_id`` that the user can see in a
message (enabled, unless the test says the client misbehaves); the message as the user sees it
travels with the interaction, as it does from Discord.

Synchronisation is by tasks, never by time: ``Harness.dispatch`` awaits the tasks that
discord.py created for the interaction, then ``settle`` awaits the bot's work that needs no
clock: table-message refreshes, and drivers whose next move is a computer's (the settings make
``computer_delay`` 0). Drivers waiting for a person (the turn timer) or for the next hand are
left alone; tests call the table runner's ``turn_timeout`` for the timer
(``h.runner(session).turn_timeout(stamp)``).

Two invariants are checked on every message the bot creates or edits, for every test:

- no hidden card: while a hand is being played, a message names a card still in some player's
  hand (by ``card_label`` or in a card button's ``custom_id``) only if it is that player's own
  ephemeral message (the card shown to fix trump is public); no record file of the hand in play
  is sent;
- no error is logged, unless the test expects it (``Harness.expect_error``);
- Discord would accept every message (its size limits, no empty message).

Use (see ``test_cogs.py``)::

    h = Harness(tmp_path / "bot.sqlite3"); h.patch(monkeypatch); await h.start()
    ana = h.user("ana")
    r = await h.command(ana, "table new", game="filicau")  # a Sent: r.message, r.ephemeral
    r = await h.press(ana, "Join team A")  # a button on the table message, by label
    r = await h.click(ana, custom_id)  # any button ana sees (message=, force=, forge=)
    h.table_message(), h.hand_view(ana), h.last_ephemeral(ana), h.public()
    await h.restart()  # a new bot process on the same database and the same Discord
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import io
import itertools
import json
import logging
import re
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter
from standin.discord_objects import Message as SharedMessage
from standin.discord_objects import walk_components
from standin.schema import SchemaCheck
from visibility import hidden_from, holder

from bot import cardart
from bot.client import FilicauBot
from bot.open_tables import OpenTable, OpenTables
from bot.pictures import digest
from bot.protocol import Place, parse
from bot.runner import TableRunner
from bot.session import TableSession
from bot.settings import Settings
from bot.texts import card_label, card_labels, language_of, speaking, t
from engine.cards import CardError, card

APP_ID = 800_000_000_000_000_001
BOT_USER_ID = APP_ID
GUILD_ID = 810_000_000_000_000_001
OWNER_ID = 820_000_000_000_000_001
MANAGER_ROLE_ID = 830_000_000_000_000_001
CHANNEL_ID = 840_000_000_000_000_001
OTHER_CHANNEL_ID = 840_000_000_000_000_002
EPHEMERAL = 64
TOKEN = "ODAwMDAwMDAwMDAwMDAwMDAx.fake.token"

#: Interaction callback types (Discord's InteractionResponseType).
CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7

USER_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True,
    use_application_commands=True,
)
MANAGER_PERMISSIONS = discord.Permissions(USER_PERMISSIONS.value | discord.Permissions(
    manage_guild=True).value)


# -- people --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class User:
    id: int
    name: str
    manager: bool = False
    #: The user's Discord locale (their client's language), sent with each interaction.
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def member(self) -> str:
        """The id a table stores for this user's seat."""
        return str(self.id)

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "global_name": self.name.title(),
                "discriminator": "0", "avatar": None, "bot": False, "public_flags": 0}

    def member_payload(self) -> dict[str, Any]:
        perms = MANAGER_PERMISSIONS if self.manager else USER_PERMISSIONS
        return {"user": self.payload(), "nick": None, "avatar": None,
                "roles": [str(MANAGER_ROLE_ID)] if self.manager else [],
                "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                "flags": 0, "pending": False, "permissions": str(perms.value)}


@dataclass(frozen=True)
class Role:
    """A role of the server, as a slash command's option names it."""

    id: int
    name: str

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


def bot_user_payload() -> dict[str, Any]:
    return {"id": str(BOT_USER_ID), "username": "filicau", "global_name": None,
            "discriminator": "0", "avatar": None, "bot": True, "public_flags": 0,
            "flags": 0, "mfa_enabled": False, "verified": True}


def channel_payload(channel_id: int) -> dict[str, Any]:
    return {"id": str(channel_id), "type": 0, "guild_id": str(GUILD_ID),
            "name": f"cards-{channel_id % 10}", "position": channel_id % 10,
            "permission_overwrites": [], "nsfw": False, "parent_id": None,
            "rate_limit_per_user": 0, "topic": None, "last_message_id": None}


def role_payload(role_id: int, name: str, perms: discord.Permissions) -> dict[str, Any]:
    return {"id": str(role_id), "name": name, "color": 0, "hoist": False,
            "position": 0 if role_id == GUILD_ID else 1, "permissions": str(perms.value),
            "managed": False, "mentionable": False, "flags": 0}


def guild_payload(locale: str = "en-US") -> dict[str, Any]:
    """What GUILD_CREATE would have told the bot: the roles (so that member permissions can be
    computed) and the channels."""
    return {
        "id": str(GUILD_ID), "name": "Card club", "owner_id": str(OWNER_ID), "icon": None,
        "roles": [role_payload(GUILD_ID, "@everyone", USER_PERMISSIONS),
                  role_payload(MANAGER_ROLE_ID, "managers", MANAGER_PERMISSIONS)],
        "channels": [channel_payload(CHANNEL_ID), channel_payload(OTHER_CHANNEL_ID)],
        "members": [], "emojis": [], "stickers": [], "features": [], "member_count": 8,
        "preferred_locale": locale, "unavailable": False, "verification_level": 0,
        "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
        "premium_tier": 0, "nsfw_level": 0, "afk_timeout": 300, "system_channel_flags": 0,
    }


# -- what Discord keeps ----------------------------------------------------------------------


@dataclass
class Message(SharedMessage):
    """The stand-in's message model (one for both fakes); here a label names one button."""

    def button_by_label(self, label: str) -> dict[str, Any]:  # type: ignore[override]
        found = [b for b in self.buttons if b.get("label") == label]
        assert len(found) == 1, f"no single button {label!r} in {self.text}"
        return found[0]


def find_button(data: dict[str, Any], custom_id: str) -> dict[str, Any] | None:
    for c in walk_components(data.get("components") or []):
        if c.get("custom_id") == custom_id:
            return c
    return None


def invalid_message(data: dict[str, Any], *, has_files: bool) -> str | None:
    """What Discord would refuse in a message (its documented limits), or None."""
    content = str(data.get("content") or "")
    embeds = data.get("embeds") or []
    rows = data.get("components") or []
    if not (content or embeds or rows or has_files):
        return "an empty message"
    if len(content) > 2000:
        return f"content of {len(content)} characters"
    if len(embeds) > 10:
        return f"{len(embeds)} embeds"
    total = 0
    for e in embeds:
        fields = e.get("fields") or []
        if len(e.get("title") or "") > 256 or len(e.get("description") or "") > 4096:
            return "an embed title or description too long"
        if len(fields) > 25:
            return f"{len(fields)} embed fields"
        for f in fields:
            if not f.get("name") or not f.get("value"):
                return f"an empty embed field {f!r}"
            if len(f["name"]) > 256 or len(f["value"]) > 1024:
                return f"an embed field of {len(f['value'])} characters: {f['name']!r}"
        total += len(e.get("title") or "") + len(e.get("description") or "") + sum(
            len(f["name"]) + len(f["value"]) for f in fields)
    if total > 6000:
        return f"embeds of {total} characters"
    if len(rows) > 5 or any(len(r.get("components") or []) > 5 for r in rows):
        return "more than 5 rows of 5 components"
    ids = [c["custom_id"] for c in walk_components(rows) if "custom_id" in c]
    if len(ids) != len(set(ids)) or any(not 0 < len(i) <= 100 for i in ids):
        return f"bad custom_ids {ids}"
    if any(len(c.get("label") or "") > 80 for c in walk_components(rows)):
        return "a button label too long"
    return None


_SCHEMA = SchemaCheck()


@dataclass
class Thread:
    """A public thread the bot started on a message of a channel."""

    id: int
    parent_id: int
    name: str
    archived: bool = False
    locked: bool = False
    #: Removed by a moderator: every route to it is 404 Unknown Channel.
    deleted: bool = False
    #: The bot may no longer post in it (its permissions were taken away): 403.
    forbidden: bool = False

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": 11, "guild_id": str(GUILD_ID),
                "parent_id": str(self.parent_id), "name": self.name,
                "owner_id": str(BOT_USER_ID), "message_count": 0, "member_count": 1,
                "rate_limit_per_user": 0, "flags": 0, "last_message_id": None,
                "thread_metadata": {"archived": self.archived, "locked": self.locked,
                                    "auto_archive_duration": 1440,
                                    "archive_timestamp": "2026-01-01T00:00:00+00:00"}}


@dataclass
class Call:
    """One REST call of the bot."""

    via: str  # "http" (the bot's token) or "webhook" (an interaction token)
    method: str
    path: str
    body: Any
    files: list[tuple[str, bytes]]

    @property
    def is_callback(self) -> bool:
        return self.path.startswith("/interactions/")


@dataclass
class Sent:
    """One interaction a user sent, and what the bot did with it."""

    id: int
    token: str
    user: User
    channel_id: int
    #: The message a button was on (for clicks).
    message_id: int | None
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    original: int | None = None
    followups: list[Message] = field(default_factory=list)
    #: Every REST call the bot made while this interaction was handled (for concurrent
    #: interactions, the calls of all of them).
    calls: list[Call] = field(default_factory=list)
    harness: Harness | None = None

    @property
    def answered(self) -> bool:
        return bool(self.callbacks)

    @property
    def type(self) -> int:
        assert len(self.callbacks) == 1, f"{len(self.callbacks)} callbacks"
        return int(self.callbacks[0]["type"])

    @property
    def message(self) -> Message:
        """The message the callback created or updated."""
        assert self.harness is not None and self.original is not None, "no response message"
        return self.harness.discord.messages[self.original]

    @property
    def ephemeral(self) -> bool:
        """Answered with a message only its user sees (at once, or deferred then edited)."""
        return (self.type in (CHANNEL_MESSAGE, DEFERRED_MESSAGE)
                and self.message.audience == self.user.id)

    @property
    def text(self) -> str:
        return self.message.text

    def rejected_with(self, text: str) -> bool:
        """The user got exactly ``text`` as an ephemeral message, and nothing else happened:
        the only REST call was this interaction's callback."""
        return (self.type == CHANNEL_MESSAGE and self.ephemeral and self.message.content == text
                and not self.message.embeds and not self.message.buttons
                and [c.is_callback for c in self.calls] == [True])


class HTTPError(Exception):
    """Raised by FakeDiscord handlers; turned into discord.py's exception type."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class _Response:
    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


def _http_exception(e: HTTPError) -> discord.HTTPException:
    cls: type[discord.HTTPException] = {
        403: discord.Forbidden, 404: discord.NotFound}.get(e.status, discord.HTTPException)
    return cls(_Response(e.status, e.message), {"code": e.code, "message": e.message})


def _route_path(route: Route) -> str:
    m = re.search(r"/api/v\d+(/.*)$", route.url)
    path = m.group(1) if m else route.url
    return path.split("?")[0]


def _unpack(payload: Any, multipart: Sequence[dict[str, Any]] | None,
            files: Sequence[discord.File] | None) -> tuple[Any, list[tuple[str, bytes]]]:
    body = payload
    if multipart:
        body = json.loads(next(p["value"] for p in multipart if p["name"] == "payload_json"))
    got = []
    for f in files or []:
        f.fp.seek(0)
        got.append((f.filename or "file", f.fp.read()))
    return body, got


class FakeDiscord:
    """The REST side of Discord for one guild."""

    def __init__(self) -> None:
        self._ids = itertools.count(900_000_000_000_000_001)
        self.messages: dict[int, Message] = {}
        self.calls: list[Call] = []
        self.interactions: dict[str, Sent] = {}
        self.commands: dict[str, int] = {}
        #: The commands as the last bulk update made them.
        self.synced: list[dict[str, Any]] = []
        self.unexpected: list[str] = []
        #: Messages Discord would have refused (limits, empty messages).
        self.invalid: list[str] = []
        #: Called with every message created or edited, before the bot gets the answer.
        self.observers: list[Any] = []
        #: The server's members by id (``Harness.user`` adds them): what GET member answers.
        self.members: dict[int, User] = {}
        #: Public threads the bot started: on a message (thread id = the message's id), or
        #: without one (a tournament's tables).
        self.threads: dict[int, Thread] = {}
        #: What Discord answers the bot starting a thread, when it refuses (status, code).
        self.refuse_threads: tuple[int, int] | None = None
        #: Each user's direct-message channel with the bot (user id -> channel id).
        self.dm_channels: dict[int, int] = {}
        #: The server's scheduled events, by id.
        self.events: dict[int, dict[str, Any]] = {}

    def new_id(self) -> int:
        return next(self._ids)

    # -- the two patched entry points --------------------------------------------------------

    async def http_request(self, route: Route, files: Sequence[discord.File] | None,
                           form: Sequence[dict[str, Any]] | None, kwargs: dict[str, Any]) -> Any:
        body, got = _unpack(kwargs.get("json"), form, files)
        path = _route_path(route)
        self.calls.append(Call("http", route.method, path, body, got))
        self._check_schema(route.method, path, body)
        try:
            return self._http(route.method, path, body, got)
        except HTTPError as e:
            raise _http_exception(e) from None

    async def webhook_request(self, route: Route, payload: Any,
                              multipart: Sequence[dict[str, Any]] | None,
                              files: Sequence[discord.File] | None) -> Any:
        body, got = _unpack(payload, multipart, files)
        path = _route_path(route)
        self.calls.append(Call("webhook", route.method, path, body, got))
        self._check_schema(route.method, path, body)
        try:
            return self._webhook(route.method, path, body, got)
        except HTTPError as e:
            raise _http_exception(e) from None

    def _check_schema(self, method: str, path: str, body: Any) -> None:
        """Every body the bot sends must be one Discord's API schema allows (as the
        stand-in checks for the real bot process)."""
        if body is None and method not in ("POST", "PUT", "PATCH"):
            return
        problem = _SCHEMA.validate(method, path, body)
        if problem is not None:
            self.invalid.append(f"schema: {problem}")

    # -- messages --------------------------------------------------------------------------

    def _create(self, channel_id: int, audience: int | None, data: dict[str, Any],
                files: list[tuple[str, bytes]], *, loading: bool = False) -> Message:
        """A new message; ``loading``: the "thinking…" message of a deferred answer, empty
        until the bot edits it."""
        msg = Message(self.new_id(), channel_id, audience, {}, list(files))
        self._write(msg, data, allow_empty=loading)
        self.messages[msg.id] = msg
        return msg

    def _write(self, msg: Message, data: dict[str, Any],
               files: list[tuple[str, bytes]] | None = None, *,
               allow_empty: bool = False) -> None:
        """Apply a create or an edit: keys that are present replace the old values. An edit
        that lists ``attachments`` keeps the old files it names (by id) and adds the
        uploaded ones; an edit without it keeps the files as they are."""
        if msg.deleted:
            raise HTTPError(404, 10008, "Unknown Message")
        new = dict(msg.data)
        for key in ("content", "embeds", "components", "attachments"):
            if key in data:
                new[key] = copy.deepcopy(data[key])
        new_files = msg.files
        if files is not None and "attachments" in data:
            keep = {str(a.get("id")) for a in data["attachments"] or []}
            new_files = [f for i, f in enumerate(msg.files)
                         if str(msg.id * 10 + i) in keep] + list(files)
        problem = None if allow_empty else invalid_message(new, has_files=bool(new_files))
        if problem is not None:
            self.invalid.append(problem)
            raise HTTPError(400, 50035, f"Invalid Form Body: {problem}")
        msg.data = new
        msg.files = new_files
        msg.versions.append(copy.deepcopy(msg.data))
        for observe in self.observers:
            observe(msg)

    def _message(self, message_id: int, channel_id: int | None = None) -> Message:
        msg = self.messages.get(message_id)
        if msg is None or msg.deleted or (channel_id is not None and msg.channel_id != channel_id):
            raise HTTPError(404, 10008, "Unknown Message")
        return msg

    # -- the bot's own REST calls ----------------------------------------------------------

    def _http(self, method: str, path: str, body: Any, files: list[tuple[str, bytes]]) -> Any:
        if (method, path) == ("GET", "/users/@me"):
            return bot_user_payload()
        if (method, path) == ("GET", "/oauth2/applications/@me"):
            return {"id": str(APP_ID), "name": "Filicău", "description": "", "icon": None,
                    "bot_public": True, "bot_require_code_grant": False,
                    "owner": {**User(OWNER_ID, "owner").payload()}, "verify_key": "0" * 64,
                    "flags": 0, "summary": ""}
        m = re.fullmatch(r"/applications/(\d+)(?:/guilds/(\d+))?/commands", path)
        if m and method == "GET":
            # What the last bulk update made (the bot reads it before it syncs: an
            # Activity's Entry Point command must be kept, bot.client.entry_points).
            return list(self.synced)
        if m and method == "PUT":
            out = []
            for cmd in body:
                cid = self.commands.setdefault(cmd["name"], self.new_id())
                out.append({**cmd, "id": str(cid), "application_id": m.group(1),
                            "version": "1", "type": cmd.get("type", 1)})
            self.synced = out
            return out
        m = re.fullmatch(r"/guilds/(\d+)/members/(\d+)", path)
        if m and method == "GET" and int(m.group(1)) == GUILD_ID:
            user = self.members.get(int(m.group(2)))
            if user is None:
                raise HTTPError(404, 10007, "Unknown Member")
            return user.member_payload()
        if (method, path) == ("POST", "/users/@me/channels"):
            return self._dm_channel(int(body["recipient_id"]))
        m = re.fullmatch(r"/guilds/(\d+)/scheduled-events(?:/(\d+))?", path)
        if m and int(m.group(1)) == GUILD_ID:
            return self._event(method, m.group(2), body)
        m = re.fullmatch(r"/channels/(\d+)/messages/(\d+)/threads", path)
        if m and method == "POST":
            return self._start_thread(self._message(int(m.group(2)), int(m.group(1))), body)
        m = re.fullmatch(r"/channels/(\d+)/threads", path)
        if m and method == "POST":
            return self._new_thread(int(m.group(1)), body)
        m = re.fullmatch(r"/channels/(\d+)", path)
        if m and method == "PATCH" and int(m.group(1)) in self.threads:
            thread = self._thread(int(m.group(1)))
            thread.archived = bool(body.get("archived", thread.archived))
            thread.locked = bool(body.get("locked", thread.locked))
            return thread.payload()
        m = re.fullmatch(r"/channels/(\d+)/messages", path)
        if m and method == "POST":
            channel_id = int(m.group(1))
            if channel_id in self.threads:
                thread = self._thread(channel_id)
                if thread.forbidden or thread.locked:
                    raise HTTPError(403, 50001, "Missing Access")
            return self._create(channel_id, None, body, files).payload()
        if m := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path):
            if int(m.group(1)) in self.threads:
                self._thread(int(m.group(1)))
            msg = self._message(int(m.group(2)), int(m.group(1)))
            if msg.audience is not None:
                raise HTTPError(404, 10008, "Unknown Message")  # ephemeral: not via the bot
            if method == "PATCH":
                self._write(msg, body, files)
                return msg.payload()
            if method == "GET":
                return msg.payload()
            if method == "DELETE":
                msg.deleted = True
                return None
        self.unexpected.append(f"{method} {path}")
        raise HTTPError(404, 0, f"the fake Discord does not know {method} {path}")

    def _dm_channel(self, user_id: int) -> dict[str, Any]:
        """The user's DM channel with the bot (the same one every time)."""
        user = self.members.get(user_id)
        if user is None:
            raise HTTPError(400, 50033, "Invalid Recipient(s)")
        cid = self.dm_channels.setdefault(user_id, self.new_id())
        return {"id": str(cid), "type": 1, "last_message_id": None, "flags": 0,
                "recipients": [user.payload()]}

    def _new_thread(self, parent_id: int, body: dict[str, Any]) -> dict[str, Any]:
        """A public thread without a starter message."""
        if self.refuse_threads is not None:
            status, code = self.refuse_threads
            raise HTTPError(status, code, "Missing Permissions")
        thread = Thread(self.new_id(), parent_id, str(body["name"]))
        self.threads[thread.id] = thread
        return thread.payload()

    def _event(self, method: str, event_id: str | None, body: Any) -> dict[str, Any]:
        if method == "POST" and event_id is None:
            eid = self.new_id()
            self.events[eid] = {
                **body, "id": str(eid), "guild_id": str(GUILD_ID), "channel_id": None,
                "creator_id": str(BOT_USER_ID), "status": 1, "entity_id": None,
                "user_count": 0}
            return self.events[eid]
        if method == "PATCH" and event_id is not None and int(event_id) in self.events:
            self.events[int(event_id)].update(body)
            return self.events[int(event_id)]
        raise HTTPError(404, 10070, "Unknown Guild Scheduled Event")

    # -- interaction tokens ----------------------------------------------------------------

    def _webhook(self, method: str, path: str, body: Any, files: list[tuple[str, bytes]]) -> Any:
        if m := re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path):
            return self._callback(self._sent(m.group(2)), body, files)
        m = re.fullmatch(r"/webhooks/(\d+)/([^/]+)(?:/messages/(@original|\d+))?", path)
        if m is None or int(m.group(1)) != APP_ID:
            self.unexpected.append(f"{method} {path}")
            raise HTTPError(404, 10015, "Unknown Webhook")
        sent = self._sent(m.group(2))
        if not sent.callbacks:
            raise HTTPError(404, 10015, "Unknown Webhook")  # not acknowledged yet
        which = m.group(3)
        if which is None:
            if method != "POST":
                self.unexpected.append(f"{method} {path}")
                raise HTTPError(405, 0, "Method Not Allowed")
            flags = int(body.get("flags") or 0)
            msg = self._create(sent.channel_id, sent.user.id if flags & EPHEMERAL else None,
                               body, files)
            sent.followups.append(msg)
            return msg.payload()
        if which == "@original":
            if sent.original is None:
                raise HTTPError(404, 10008, "Unknown Message")
            msg = self._message(sent.original)
        else:
            msg = self._message(int(which))
            if msg not in sent.followups:
                raise HTTPError(404, 10008, "Unknown Message")
        if method == "GET":
            return msg.payload()
        if method == "PATCH":
            self._write(msg, body, files)
            return msg.payload()
        if method == "DELETE":
            msg.deleted = True
            return None
        self.unexpected.append(f"{method} {path}")
        raise HTTPError(405, 0, "Method Not Allowed")

    def _thread(self, thread_id: int) -> Thread:
        thread = self.threads[thread_id]
        if thread.deleted:
            raise HTTPError(404, 10003, "Unknown Channel")
        return thread

    def _start_thread(self, msg: Message, body: dict[str, Any]) -> dict[str, Any]:
        """A public thread on a public message (Discord gives it the message's id)."""
        if self.refuse_threads is not None:
            status, code = self.refuse_threads
            raise HTTPError(status, code, "Missing Permissions")
        if msg.audience is not None or msg.id in self.threads:
            raise HTTPError(400, 160004, "A thread has already been created for this message")
        thread = Thread(msg.id, msg.channel_id, str(body["name"]))
        self.threads[msg.id] = thread
        return thread.payload()

    def _sent(self, token: str) -> Sent:
        sent = self.interactions.get(token)
        if sent is None:
            raise HTTPError(401, 50027, "Invalid Webhook Token")
        return sent

    def _callback(self, sent: Sent, body: dict[str, Any],
                  files: list[tuple[str, bytes]]) -> dict[str, Any]:
        if sent.callbacks:
            raise HTTPError(400, 40060, "Interaction has already been acknowledged.")
        kind = int(body["type"])
        data = body.get("data") or {}
        if kind in (CHANNEL_MESSAGE, DEFERRED_MESSAGE):
            flags = int(data.get("flags") or 0)
            msg = self._create(sent.channel_id, sent.user.id if flags & EPHEMERAL else None,
                               data if kind == CHANNEL_MESSAGE else {}, files,
                               loading=kind == DEFERRED_MESSAGE)
        elif kind in (UPDATE_MESSAGE, DEFERRED_UPDATE):
            assert sent.message_id is not None, "an update answers a click only"
            msg = self._message(sent.message_id)
            if kind == UPDATE_MESSAGE:
                self._write(msg, data, files)
        else:
            self.unexpected.append(f"callback type {kind}")
            raise HTTPError(400, 0, "unsupported callback")
        sent.callbacks.append(body)
        sent.original = msg.id
        return {
            "interaction": {"id": str(sent.id), "type": 2 if sent.message_id is None else 3,
                            "response_message_id": str(msg.id),
                            "response_message_loading": kind == DEFERRED_MESSAGE,
                            "response_message_ephemeral": msg.audience is not None},
            "resource": {"type": kind, "message": msg.payload()},
        }


# -- the harness -------------------------------------------------------------------------------


class _ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _label_pattern(c: int) -> re.Pattern[str]:
    """The card as any language's label names it (a label not followed by more of a word:
    English "🌰 K" is not in German "🌰 König")."""
    labels = sorted(card_labels(c), key=len, reverse=True)
    return re.compile("(?:" + "|".join(re.escape(label) for label in labels) + r")(?!\w)")


@dataclass(frozen=True)
class Picture:
    """A card picture the bot drew: a hand or the table, and the cards on it."""

    kind: str
    cards: frozenset[int]
    theme: str
    #: Drawn in a worker thread (not on the event loop).
    in_worker: bool
    #: The cards' faces: "german" or "french".
    faces: str = "german"


class Harness:
    def __init__(self, db_path: Path, *, next_hand_delay: float = 3600.0,
                 guild_locale: str = "en-US", database_url: str | None = None,
                 web: bool = False) -> None:
        self.db_path = db_path
        #: A PostgreSQL to keep the bot's data in (``db_path`` is then unused).
        self.database_url = database_url
        #: Whether the bot serves its web pages (on a free loopback port).
        self.web = web
        self.next_hand_delay = next_hand_delay
        #: The server's Discord locale (sent with each interaction as ``guild_locale``).
        self.guild_locale = guild_locale
        #: Every picture the bot drew, by its bytes' digest: what a file shows.
        self.pictures: dict[str, Picture] = {}
        self.discord = FakeDiscord()
        self.discord.observers.append(self._check_hidden)
        self.discord.observers.append(self._check_ids)
        self.discord.observers.append(self._check_private)
        self.bot: FilicauBot | None = None
        self.leaks: list[str] = []
        #: How many messages the hidden-card check looked at while a hand was being played.
        self.checked = 0
        self._users = itertools.count(700_000_000_000_000_001)
        self._errors = _ErrorLog()
        self._expected_errors: list[str] = []
        self.table_message_id: int | None = None

    # -- set-up ------------------------------------------------------------------------------

    def patch(self, monkeypatch: Any) -> None:
        fake = self.discord

        async def http_request(http: HTTPClient, route: Route, *,
                               files: Sequence[discord.File] | None = None,
                               form: Sequence[dict[str, Any]] | None = None,
                               **kwargs: Any) -> Any:
            return await fake.http_request(route, files, form, kwargs)

        async def webhook_request(adapter: AsyncWebhookAdapter, route: Route, session: Any, *,
                                  payload: Any = None,
                                  multipart: Sequence[dict[str, Any]] | None = None,
                                  proxy: Any = None, proxy_auth: Any = None,
                                  files: Sequence[discord.File] | None = None,
                                  reason: str | None = None, auth_token: str | None = None,
                                  params: dict[str, Any] | None = None) -> Any:
            return await fake.webhook_request(route, payload, multipart, files)

        monkeypatch.setattr(HTTPClient, "request", http_request)
        monkeypatch.setattr(AsyncWebhookAdapter, "request", webhook_request)

        # Every card picture is noted with the cards it shows, so that a file in a message
        # counts as part of its text for the hidden-card check.
        hand_png, table_png = cardart.hand_png, cardart.table_png
        pictures = self.pictures

        def in_worker() -> bool:
            return threading.current_thread() is not threading.main_thread()

        def noted_hand_png(cards: Sequence[int], **kwargs: Any) -> bytes:
            data = hand_png(cards, **kwargs)
            pictures[digest(data)] = Picture("hand", frozenset(cards),
                                             kwargs.get("theme", "dark"), in_worker(),
                                             kwargs.get("faces", "german"))
            return data

        def noted_table_png(**kwargs: Any) -> bytes:
            data = table_png(**kwargs)
            pictures[digest(data)] = Picture("table", frozenset(
                [c for _, c in kwargs["trick"]] + list(kwargs.get("shown", ()))),
                kwargs.get("theme", "dark"), in_worker(), kwargs.get("faces", "german"))
            return data

        ranking_png = cardart.ranking_png

        def noted_ranking_png(rows: Sequence[tuple[str, Sequence[int]]],
                              **kwargs: Any) -> bytes:
            # A game's card ranking shows every card, nobody's: no card of it is hidden.
            data = ranking_png(rows, **kwargs)
            pictures[digest(data)] = Picture("ranking", frozenset(),
                                             kwargs.get("theme", "dark"), in_worker(),
                                             kwargs.get("faces", "german"))
            return data

        monkeypatch.setattr(cardart, "hand_png", noted_hand_png)
        monkeypatch.setattr(cardart, "table_png", noted_table_png)
        monkeypatch.setattr(cardart, "ranking_png", noted_ranking_png)
        logging.getLogger().addHandler(self._errors)

    async def start(self) -> FilicauBot:
        """A new bot process on the same database: log in (REST only, no gateway), run
        ``setup_hook``, learn the guild as GUILD_CREATE would tell it, then be ready."""
        assert self.bot is None
        web: dict[str, Any] = {"web_url": "http://127.0.0.1:0", "web_port": 0} \
            if self.web else {}
        settings = Settings(discord_token=TOKEN, database_path=self.db_path,
                            database_url=self.database_url,
                            computer_delay=0, edit_interval=0, ai_processes=0,
                            next_hand_delay=self.next_hand_delay, ping_delay=3600, **web)
        bot = FilicauBot(settings)
        before = asyncio.all_tasks()
        await bot.login(TOKEN)
        state = bot._connection
        state._add_guild(discord.Guild(data=guild_payload(self.guild_locale),  # type: ignore[arg-type]
                                       state=state))
        bot._ready.set()
        self.bot = bot
        started = [t for t in asyncio.all_tasks() - before
                   if getattr(t.get_coro(), "__qualname__", "") == "OpenTables._resume"]
        if started:
            await asyncio.wait(started)
        await self.settle()
        return bot

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.close()
            self.bot = None

    async def restart(self) -> FilicauBot:
        await self.stop()
        return await self.start()

    def close(self) -> None:
        logging.getLogger().removeHandler(self._errors)

    def expect_error(self, text: str) -> None:
        """The next logged error containing ``text`` is part of the test."""
        self._expected_errors.append(text)

    def check_clean(self) -> None:
        """No leaked card, no unexpected request, and exactly the expected errors."""
        assert not self.leaks, self.leaks
        assert not self.discord.unexpected, self.discord.unexpected
        assert not self.discord.invalid, self.discord.invalid
        errors = [r.getMessage() + (f" [{r.exc_info[1]!r}]" if r.exc_info else "")
                  for r in self._errors.records]
        for text in self._expected_errors:
            match = [e for e in errors if text in e]
            assert match, f"expected an error log with {text!r}; got {errors}"
            errors.remove(match[0])
        assert not errors, errors

    # -- the bot's side, for assertions ---------------------------------------------------

    @property
    def tables(self) -> OpenTables:
        assert self.bot is not None
        return self.bot.tables

    def table(self, session: TableSession) -> OpenTable:
        """An open table: its runner (driver, timers) and its Discord surface (messages)."""
        table = self.tables.get(session.id)
        assert table is not None, "the table is not open"
        return table

    def session_of(self, channel_id: int) -> TableSession | None:
        """The open table a channel, or a table's own thread, shows."""
        if self.bot is None:
            return None
        found = self.tables.session_in(channel_id)
        return found or next((t.session for t in self.tables
                              if t.session.thread_id == channel_id), None)

    def runner(self, session: TableSession) -> TableRunner:
        """The live side of an open table (its driver and timers)."""
        return self.table(session).runner

    def session(self, channel_id: int = CHANNEL_ID) -> TableSession:
        s = self.tables.session_in(channel_id)
        assert s is not None, "no open table"
        return s  # type: ignore[no-any-return]

    def _computer_to_move(self, session: TableSession | None) -> bool:
        return session is not None and session.computer_may_act()

    async def until(self, condition: Callable[[], bool], seconds: float = 10.0) -> None:
        """Let the bot run until ``condition`` holds (bounded): for work behind a timer that
        a test has set to zero."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not condition():
            if loop.time() > deadline:
                raise AssertionError("the condition never held")
            await asyncio.sleep(0.001)

    async def settle(self) -> None:
        """Await the bot's work that needs no clock: table-message refreshes and computer
        moves, until no refresh is pending and no computer is to move. Each table's driver
        is a long-lived loop, so this waits on that condition (bounded), not on the tasks."""
        cog = self.tables
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while loop.time() < deadline:
            pending = [task for table in cog for task in table.discord.tasks()]
            assert self.bot is not None
            pending += self.bot.community.tournaments.pending()
            if pending:
                await asyncio.wait(pending, timeout=deadline - loop.time())
                continue
            if not any(r.acting or self._computer_to_move(r.session)
                       for r in (table.runner for table in cog)):
                return
            # A computer decides in a worker thread; give it and the driver a moment.
            await asyncio.sleep(0.001)
        raise AssertionError("the bot did not settle")

    # -- users -----------------------------------------------------------------------------

    def user(self, name: str, *, manager: bool = False, locale: str = "en-US") -> User:
        """A new member of the server."""
        user = User(next(self._users), name, manager, locale)
        self.discord.members[user.id] = user
        return user

    # -- what users see --------------------------------------------------------------------

    def visible(self, user: User, channel_id: int = CHANNEL_ID) -> list[Message]:
        """The messages ``user`` sees in the channel, oldest first, as last edited."""
        return [m for m in self.discord.messages.values()
                if not m.deleted and m.channel_id == channel_id
                and m.audience in (None, user.id)]

    def public(self, channel_id: int = CHANNEL_ID) -> list[Message]:
        return [m for m in self.discord.messages.values()
                if not m.deleted and m.channel_id == channel_id and m.audience is None]

    def ephemerals(self, user: User) -> list[Message]:
        return [m for m in self.discord.messages.values()
                if not m.deleted and m.audience == user.id]

    def dms(self, user: User) -> list[Message]:
        """The direct messages the bot sent ``user``, oldest first."""
        cid = self.discord.dm_channels.get(user.id)
        return [] if cid is None else self.public(cid)

    def last_ephemeral(self, user: User, containing: str = "") -> Message:
        found = [m for m in self.ephemerals(user) if containing in m.text]
        assert found, f"{user.name} has no ephemeral message with {containing!r}"
        return found[-1]

    def hand_view(self, user: User) -> Message:
        """The user's latest "My hand" message (the one their clicks keep updating), titled
        in their language."""
        with speaking(language_of(user.locale)):
            heading = t("hand.title", game="\0", number="\0").split("\0")[0]
        return self.last_ephemeral(user, heading)

    def table_message(self) -> Message:
        """The table's public message (the lobby, then the table in play)."""
        mid = self.table_message_id
        cog = self.tables if self.bot is not None else None
        session = cog.session_in(CHANNEL_ID) if cog is not None else None
        if session is not None and session.message_id is not None:
            mid = session.message_id
        assert mid is not None, "no table message"
        return self.discord.messages[mid]

    def result_post(self, channel_id: int = CHANNEL_ID) -> Message:
        """The latest result that offers Next hand (the table's one Next hand button)."""
        found = [m for m in self.public(channel_id)
                 if any(str(b.get("custom_id", "")).startswith("fc:next:") for b in m.buttons)]
        assert found, "no result offers Next hand"
        return found[-1]

    def snapshot(self, msg: Message) -> dict[str, Any]:
        """The message as a user's client shows it now (to click on it later, stale)."""
        return msg.payload()

    def mark(self) -> int:
        return len(self.discord.calls)

    def calls_since(self, mark: int) -> list[Call]:
        return self.discord.calls[mark:]

    # -- what users do ---------------------------------------------------------------------

    def _interaction(self, user: User, kind: int, data: dict[str, Any],
                     message: dict[str, Any] | None, channel_id: int) -> tuple[dict[str, Any],
                                                                               Sent]:
        iid = self.discord.new_id()
        token = f"itoken-{iid}"
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(APP_ID), "type": kind, "token": token,
            "version": 1, "guild_id": str(GUILD_ID), "channel_id": str(channel_id),
            "channel": self.discord.threads[channel_id].payload()
            if channel_id in self.discord.threads else channel_payload(channel_id),
            "member": user.member_payload(),
            "data": data, "locale": user.locale, "guild_locale": self.guild_locale,
            "app_permissions": str(discord.Permissions.text().value), "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)}, "context": 0,
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message
        sent = Sent(iid, token, user, channel_id,
                    None if message is None else int(message["id"]), harness=self)
        self.discord.interactions[token] = sent
        return payload, sent

    async def dispatch(self, *payloads: dict[str, Any]) -> None:
        """INTERACTION_CREATE through discord.py, then await what it started, then settle.
        Several payloads are dispatched before any is handled (a double click)."""
        assert self.bot is not None
        before = asyncio.all_tasks()
        for payload in payloads:
            self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        started = asyncio.all_tasks() - before
        if started:
            await asyncio.wait(started)
        await self.settle()

    def command_payload(self, user: User, name: str, /, channel_id: int = CHANNEL_ID,
                        **options: Any) -> tuple[dict[str, Any], Sent]:
        """A slash command as Discord sends it, its options typed from the bot's own tree."""
        assert self.bot is not None
        names = name.split()
        cmd: Any = self.bot.tree.get_command(names[0])
        assert cmd is not None, f"no command /{names[0]}"
        for sub in names[1:]:
            cmd = cmd.get_command(sub)
            assert cmd is not None, f"no command /{name}"
        opts: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        for key, value in options.items():
            param = cmd.get_parameter(key)
            assert param is not None, f"/{name} has no option {key}"
            if isinstance(value, User):
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                member = value.member_payload()
                del member["user"]
                resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            elif isinstance(value, Role):
                resolved.setdefault("roles", {})[str(value.id)] = role_payload(
                    value.id, value.name, USER_PERMISSIONS)
                value = str(value.id)
            opts.append({"name": key, "type": param.type.value, "value": value})
        for sub in reversed(names[1:]):
            opts = [{"type": 1 if sub == names[-1] else 2, "name": sub, "options": opts}]
        data: dict[str, Any] = {"id": str(self.discord.commands[names[0]]), "name": names[0],
                                "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        return self._interaction(user, 2, data, None, channel_id)

    async def command(self, user: User, name: str, /, *, channel_id: int = CHANNEL_ID,
                      **options: Any) -> Sent:
        """``await h.command(ana, "table new", game="filicau")``."""
        payload, sent = self.command_payload(user, name, channel_id, **options)
        mark = self.mark()
        await self.dispatch(payload)
        sent.calls = self.calls_since(mark)
        assert sent.answered, f"/{name} got no answer"
        if name == "table new" and sent.original is not None and not sent.ephemeral:
            self.table_message_id = sent.original
        return sent

    def click_payload(self, user: User, custom_id: str, *,
                      message: Message | dict[str, Any] | None = None, force: bool = False,
                      forge: bool = False) -> tuple[dict[str, Any], Sent]:
        """A button click as Discord sends it. The button must be on a message the user sees
        (the latest one holding it, unless ``message`` is given, e.g. a stale snapshot), and
        enabled unless ``force`` (a client that ignores ``disabled``). ``forge`` puts the
        custom_id on the message instead, in place of its first button: a hand-made
        interaction."""
        if isinstance(message, Message):
            assert message.audience in (None, user.id), "the user cannot see that message"
            message = message.payload()
        if message is None and not forge:
            holding = [m for m in self.visible(user) if m.button(custom_id) is not None]
            assert holding, f"{user.name} sees no button {custom_id}"
            message = holding[-1].payload()
        if forge:
            if message is None:
                message = self.visible(user)[-1].payload()
            message = copy.deepcopy(message)
            first = next(c for c in walk_components(message["components"])
                         if c.get("type") == 2)
            first.update(custom_id=custom_id, disabled=False)
        assert message is not None
        if message.get("flags", 0) & EPHEMERAL:
            assert int(message["id"]) in {m.id for m in self.ephemerals(user)}, \
                "an ephemeral message of somebody else"
        button = find_button(message, custom_id)
        assert button is not None, f"no button {custom_id} on that message"
        assert force or not button.get("disabled"), f"{custom_id} is disabled"
        data = {"custom_id": custom_id, "component_type": 2}
        return self._interaction(user, 3, data, message, int(message["channel_id"]))

    async def click(self, user: User, custom_id: str, **kwargs: Any) -> Sent:
        payload, sent = self.click_payload(user, custom_id, **kwargs)
        mark = self.mark()
        await self.dispatch(payload)
        sent.calls = self.calls_since(mark)
        assert sent.answered, f"the click on {custom_id} got no answer"
        return sent

    async def choose(self, user: User, custom_id: str, values: list[str],
                     message: Message | None = None) -> Sent:
        """Pick ``values`` in a select menu the user sees (only values it offers)."""
        msg = message or next(m for m in reversed(self.visible(user))
                              if any(c["custom_id"] == custom_id for c in m.selects))
        assert msg.audience in (None, user.id), "the user cannot see that message"
        menu = next(c for c in msg.selects if c["custom_id"] == custom_id)
        offered = {o["value"] for o in menu["options"]}
        assert set(values) <= offered, f"{values} are not all offered by {custom_id}"
        assert menu.get("min_values", 1) <= len(values) <= menu.get("max_values", 1)
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        payload, sent = self._interaction(user, 3, data, msg.payload(), msg.channel_id)
        mark = self.mark()
        await self.dispatch(payload)
        sent.calls = self.calls_since(mark)
        assert sent.answered, f"the choice in {custom_id} got no answer"
        return sent

    async def add_computer(self, user: User, level: str = "normal",
                           message: Message | None = None) -> Sent:
        """Pick a computer of ``level`` in the lobby's Add computer menu."""
        msg = message or self.table_message()
        menu = msg.select("cpu")
        assert menu is not None, f"no Add computer menu in {msg.text}"
        return await self.choose(user, menu["custom_id"], [level], message=msg)

    async def press(self, user: User, label: str, message: Message | None = None) -> Sent:
        """Click the button with this label on the table message (or on ``message``)."""
        msg = message or self.table_message()
        return await self.click(user, msg.button_by_label(label)["custom_id"], message=msg)

    # -- the bot reads what it writes ----------------------------------------------------

    def _check_ids(self, msg: Message) -> None:
        """Every component the bot draws is one its own reader accepts (``bot.protocol``):
        a button as it is, a menu with any value it offers (as many as it asks for)."""
        for b in msg.buttons:
            if "custom_id" in b and parse(b["custom_id"]) is None:
                self.discord.invalid.append(f"a button the bot cannot read: {b['custom_id']}")
        for menu in msg.selects:
            values = [o["value"] for o in menu.get("options") or []]
            size = max(menu.get("min_values", 1), 1)
            picks = [values[i:i + size] for i in range(0, len(values) - size + 1)] \
                if size > 1 else [[v] for v in values]
            for pick in picks:
                if parse(menu["custom_id"], pick) is None:
                    self.discord.invalid.append(
                        f"a menu value the bot cannot read: {menu['custom_id']} {pick}")

    # -- private content stays private ---------------------------------------------------

    def _check_private(self, msg: Message) -> None:
        """A public message never shows what the bot draws only on a message its user alone
        sees: a hand view, a review, a hint, the question whether to leave, or their
        buttons (``bot.protocol``'s places)."""
        if msg.audience is not None:
            return
        for c in [*msg.buttons, *msg.selects]:
            click = parse(str(c.get("custom_id", "")), [o["value"] for o in
                                                        (c.get("options") or [])[:1]])
            if click is not None and click.places == {Place.PRIVATE}:
                self.leaks.append(f"a private {click.op.value} component on a public message"
                                  f" in {msg.channel_id}: {c.get('custom_id')}")
        text = msg.text
        for heading in _PRIVATE_HEADINGS:
            if heading in text:
                self.leaks.append(f"a private message's words on a public message in "
                                  f"{msg.channel_id}: {heading!r} in {text[:300]!r}")

    # -- the hidden-card invariant ---------------------------------------------------------

    def _check_hidden(self, msg: Message) -> None:
        if self.bot is None:
            return
        for name, data in msg.files:
            shown = self.pictures.get(digest(data))
            if name.endswith(".png") and shown is None:
                self.leaks.append(f"a picture the bot did not draw: {name}")
            if shown is not None and shown.kind == "hand" and msg.audience is None:
                self.leaks.append(f"a picture of a hand posted publicly: {name}")
        session = self.session_of(msg.channel_id)
        hand = None if session is None else session.hand
        if session is None or hand is None or hand.finished:
            return
        reviewed = {parts[3] for parts in (str(b.get("custom_id", "")).split(":")
                                           for b in msg.buttons)
                    if len(parts) >= 4 and parts[:2] == ["fc", "review"]}
        if reviewed and reviewed != {str(session.hand_number)} and msg.audience is not None:
            # A private review of an earlier, finished hand: its cards are that hand's
            # (the same labels as this hand's cards, but not these cards).
            return
        self.checked += 1
        text = msg.text
        codes = set()
        for b in msg.buttons:
            parts = str(b.get("custom_id", "")).split(":")
            if len(parts) >= 6 and parts[:2] == ["fc", "card"]:
                with contextlib.suppress(CardError):
                    codes.add(card(parts[5]))
        seat = None
        if msg.audience is not None and str(msg.audience) in session.seats:
            seat = session.seats.index(str(msg.audience))
        for _, data in msg.files:
            shown = self.pictures.get(digest(data))
            codes |= shown.cards if shown is not None else set()
        for c in sorted(hidden_from(hand, seat)):
            if _label_pattern(c).search(text) or c in codes:
                who = "everybody" if msg.audience is None else f"user {msg.audience}"
                self.leaks.append(f"{card_label(c)} of {holder(hand, c)} shown to {who}: "
                                  f"{text!r}")
        for name, data in msg.files:
            try:
                record = json.loads(data)
            except ValueError:
                continue
            if (isinstance(record, dict) and record.get("table_id") == session.id
                    and record.get("hand") == session.hand_number):
                self.leaks.append(f"the record of the hand in play was sent as {name}")


def _headings() -> list[str]:
    """How the messages only their user sees begin, in every language: a hand view, a
    review, a hint, the question whether to leave."""
    out = set()
    for lang in ("en", "ro", "hu", "de"):
        with speaking(lang):
            out |= {t("hand.title", game="\0", number="\0").split("\0")[0],
                    t("review.title", game="\0", number="\0").split("\0")[0],
                    t("hint.choice", action="\0").split("\0")[0], t("hand.leave_ask")}
    return sorted(h for h in out if len(h) >= 6)


_PRIVATE_HEADINGS = _headings()


def file_json(msg: Message, index: int = 0) -> Any:
    return json.load(io.BytesIO(msg.files[index][1]))


@contextlib.asynccontextmanager
async def running(db_path: Path, monkeypatch: Any, **kwargs: Any) -> AsyncIterator[Harness]:
    """A started harness on ``db_path``, stopped afterwards; a test whose bot logged an
    unexpected error, leaked a card or sent an invalid request fails here."""
    harness = Harness(db_path, **kwargs)
    harness.patch(monkeypatch)
    try:
        await harness.start()
        yield harness
        await harness.stop()
    finally:
        harness.close()
    harness.check_clean()
