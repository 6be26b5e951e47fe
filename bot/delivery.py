"""Sending and editing a table's Discord messages: through an interaction's token while it
lives, through the channel routes otherwise — decided here, once.

Discord allows a bot token 50 requests a second in all, whatever the number of processes, but
requests made with an interaction's token (its callback, editing its messages, follow-ups)
do not count. So a table's public messages go through the token of the last interaction
answered with the table message while it lives (15 minutes), and only then through the
channel. Every Discord failure of a delivery is handled here: a caller learns whether its
message arrived (``Sent``/``Edit``), never an exception.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from enum import Enum
from typing import Any, cast

import aiohttp
import discord
from discord.http import HTTPClient, handle_message_parameters
from discord.webhook.async_ import async_context

log = logging.getLogger(__name__)

#: An interaction token lives 15 minutes; stop using it a little before.
TOKEN_SECONDS = 14 * 60
#: What a delivery may fail with: Discord's refusal, or the connection.
FAILURES = (discord.HTTPException, aiohttp.ClientError)

Message = discord.Message | discord.WebhookMessage


class Sender:
    """Discord's HTTP as the bot's parts use it: a channel by its id, the REST routes, and an
    answered interaction's webhook (its follow-ups and edits). Made once by the bot over its
    client; the one place outside discord.py that reaches into the client's connection
    state, as ``Interaction.followup`` itself does.

    >>> client = discord.Client(intents=discord.Intents.none())
    >>> Sender(client).channel(1).id
    1
    """

    def __init__(self, client: discord.Client) -> None:
        self._client = client

    @property
    def http(self) -> HTTPClient:
        return self._client.http

    def channel(self, channel_id: int, *, private: bool = False) -> discord.PartialMessageable:
        """A channel (a DM channel: ``private``) to send to, known by its id alone."""
        kind = discord.ChannelType.private if private else None
        return self._client.get_partial_messageable(channel_id, type=kind)

    def webhook(self, application_id: int, token: str) -> discord.Webhook:
        """An interaction's follow-up webhook, as ``Interaction.followup`` makes it."""
        return discord.Webhook.from_state({"id": application_id, "type": 3, "token": token},
                                          self._client._connection)

    @property
    def allowed_mentions(self) -> discord.AllowedMentions | None:
        """The client's default mentions, which an edit's arguments are merged with."""
        return self._client._connection.allowed_mentions


class Token:
    """An answered interaction's token, which edits a message of the table (a player's hand
    view, or the table message itself) and sends follow-ups, for 15 minutes.

    Its routes need the application's id, the token and the player's language only: every
    open table keeps a few of these, so the ``discord.Interaction`` (its gateway payload,
    user, member, channel and message, several kB) is not kept.

    >>> token = Token(1, "abc", discord.Locale.romanian, since=time.monotonic())
    >>> token.expired
    False
    """

    __slots__ = ("application_id", "locale", "since", "token")

    def __init__(self, application_id: int, token: str, locale: discord.Locale, *,
                 since: float) -> None:
        self.application_id = application_id
        self.token = token
        self.locale = locale
        self.since = since

    @classmethod
    def of(cls, interaction: discord.Interaction[Any]) -> Token:
        """Keep what the routes of an answered ``interaction`` need."""
        return cls(interaction.application_id, interaction.token, interaction.locale,
                   since=time.monotonic())

    @property
    def expired(self) -> bool:
        return time.monotonic() - self.since > TOKEN_SECONDS


def token_dead(e: BaseException) -> bool:
    """Discord refused a token route because of the token (expired: 401/50027; unknown
    webhook: 10015), not because of the message."""
    return isinstance(e, discord.HTTPException) and (e.status == 401
                                                      or e.code in (10015, 50027))


def gone(e: BaseException) -> bool:
    """The message (or the channel) is no longer there, or the bot may not see it."""
    return isinstance(e, discord.NotFound | discord.Forbidden)


class Edit(Enum):
    """What became of an edit."""

    DONE = "done"
    #: The message is gone (deleted, or its channel): there is nothing to edit.
    GONE = "gone"
    #: Discord failed or limited us: worth trying again later.
    FAILED = "failed"


def describe(e: BaseException) -> str:
    return str(e.status) if isinstance(e, discord.HTTPException) else repr(e)


class Delivery:
    """The routes of one table: its channel (or its own thread, for posts) and the token of
    the last interaction answered with the table message."""

    def __init__(self, sender: Sender, table_id: int, channel_id: int) -> None:
        self.sender = sender
        self.table_id = table_id
        self.channel_id = channel_id
        self.thread_id: int | None = None
        self._token: Token | None = None

    def keep(self, interaction: discord.Interaction[Any]) -> None:
        """``interaction`` was answered with the table message (created or edited)."""
        self._token = Token.of(interaction)

    @property
    def token(self) -> Token | None:
        """The table's token while it lives."""
        if self._token is not None and self._token.expired:
            self._token = None
        return self._token

    def forget(self) -> None:
        self._token = None

    def _warn(self, what: str, e: BaseException) -> None:
        log.warning("table %s: could not %s (%s)", self.table_id, what, describe(e))

    async def edit(self, message_id: int | None, channel_id: int | None = None, *,
                   token: Token | None = None, what: str = "edit a message",
                   **fields: Any) -> Edit:
        """Edit a message through ``token`` (the interaction that made it) while it lives,
        else through the channel route; ``message_id`` None: an ephemeral message, which
        only its token reaches. ``fields``: discord.py's edit arguments."""
        if token is not None and not token.expired:
            try:
                await self._edit_original(token, fields)
                return Edit.DONE
            except FAILURES as e:
                if not (token_dead(e) or gone(e)):
                    self._warn(what, e)
                    return Edit.FAILED
                if token is self._token:
                    self._token = None
                # The token died early, or the message is gone: the channel route says which.
        if message_id is None:
            return Edit.GONE
        channel = self.sender.channel(channel_id or self.channel_id)
        try:
            await channel.get_partial_message(message_id).edit(**fields)
        except FAILURES as e:
            if gone(e):
                return Edit.GONE
            self._warn(what, e)
            return Edit.FAILED
        return Edit.DONE

    def _followup(self, token: Token) -> discord.Webhook:
        return self.sender.webhook(token.application_id, token.token)

    async def _edit_original(self, token: Token, fields: dict[str, Any]) -> None:
        """Edit the message the token's interaction was answered with: the route and
        arguments of ``Interaction.edit_original_response``. (That also hands a view to
        discord.py's view store when it is not finished; the bot's views are stopped when
        made, their clicks reach one listener.)"""
        hook = self._followup(token)
        with handle_message_parameters(
                previous_allowed_mentions=self.sender.allowed_mentions,
                **fields) as params:
            await async_context.get().edit_original_interaction_response(
                token.application_id, token.token, session=hook.session, proxy=hook.proxy,
                proxy_auth=hook.proxy_auth, payload=params.payload,
                multipart=params.multipart, files=params.files)

    async def edit_table(self, message_id: int, **fields: Any) -> Edit:
        return await self.edit(message_id, token=self.token, what="edit the table message",
                               **fields)

    async def post(self, *, what: str = "post a message", **fields: Any) -> Message | None:
        """A public message of the table: a follow-up of the table's live token when there
        is one (no global rate limit), else through the channel; in the table's thread when
        it has one (a follow-up would land in the parent channel). None: not sent.

        A thread that is gone, or that the bot may no longer post in, is given up with one
        warning: the table posts in its channel from then on."""
        if self.thread_id is not None:
            try:
                return await self.sender.channel(self.thread_id).send(
                    **_channel(fields))
            except FAILURES as e:
                if not gone(e):
                    self._warn(what, e)
                    return None
                log.warning("table %s: its thread %s is gone or closed to the bot (%s); "
                            "playing in the channel", self.table_id, self.thread_id,
                            describe(e))
                self.thread_id = None
        token = self.token
        if token is not None:
            try:
                return await self._followup(token).send(**_followup(fields), wait=True)
            except FAILURES as e:
                if not token_dead(e):
                    self._warn(what, e)
                    return None
                self._token = None
        try:
            return await self.sender.channel(self.channel_id).send(
                **_channel(fields))
        except FAILURES as e:
            self._warn(what, e)
            return None

    async def send(self, channel_id: int, *, what: str = "send a message",
                   **fields: Any) -> Message | None:
        """A message through a channel route (the table message posted again)."""
        try:
            return await self.sender.channel(channel_id).send(**_channel(fields))
        except FAILURES as e:
            self._warn(what, e)
            return None

    async def edit_sent(self, message: Message, *, what: str = "edit a message",
                        **fields: Any) -> Edit:
        """Edit a message this table posted: through its own route (a follow-up's token),
        else through the channel."""
        try:
            await message.edit(**fields)
            return Edit.DONE
        except FAILURES as e:
            if not (token_dead(e) or isinstance(e, aiohttp.ClientError)):
                if gone(e):
                    return Edit.GONE
                self._warn(what, e)
                return Edit.FAILED
        return await self.edit(message.id, message.channel.id, what=what, **fields)

    async def delete(self, message: Message | int, channel_id: int | None = None, *,
                     what: str = "remove a message") -> bool:
        """Remove a message this table posted (through its own route first, when it is a
        follow-up whose token lives), or one known only by its id; True when it is gone
        (also when somebody removed it already)."""
        if isinstance(message, int):
            message_id = message
        else:
            try:
                await message.delete()
                return True
            except FAILURES as e:
                if isinstance(e, discord.NotFound):
                    return True
                if not token_dead(e):
                    self._warn(what, e)
                    return False
            message_id, channel_id = message.id, message.channel.id
        try:
            await self.sender.channel(channel_id or self.channel_id
                                                   ).get_partial_message(message_id).delete()
        except FAILURES as e:
            if isinstance(e, discord.NotFound):
                return True
            self._warn(what, e)
            return False
        return True


def _followup(fields: dict[str, Any]) -> dict[str, Any]:
    """A follow-up's arguments: discord.py wants MISSING, not None, for what is left out."""
    out = {k: (discord.utils.MISSING if v is None else v) for k, v in fields.items()}
    if "content" in out and not out["content"]:
        out["content"] = discord.utils.MISSING
    return out


def _channel(fields: dict[str, Any]) -> dict[str, Any]:
    out = {k: (discord.utils.MISSING if v is None and k != "content" else v)
           for k, v in fields.items()}
    if "content" in out and not out["content"]:
        out["content"] = None
    return out


@dataclass(frozen=True)
class _SnowflakeText:
    """A user id spelt as Discord's API schema spells snowflakes, a string of digits:
    discord.py sends ``AllowedMentions`` users as the ``.id`` it finds, and an int there
    is outside the schema (``SnowflakeType``)."""

    id: str


def only_users(user_ids: list[int]) -> discord.AllowedMentions:
    """Mentions that ping these users and nobody else (no role, no @everyone)."""
    users = cast(list[discord.abc.Snowflake], [_SnowflakeText(str(u)) for u in user_ids])
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=users)
