"""The Activity's players at the bot's tables: what ``bot.web.activity``'s socket asks, done
as the buttons do it.

Every request goes to the open table's ``TableSession`` (the same calls as the tables cog,
under the same lock, with the same refusals) and then to the table's runner, so that every
surface shows it: the Discord table message and hand views, the web pages and the Activity
itself. Only the process that drives a table (its shard's) can do this; another process's
Activity socket is refused with ``activity.elsewhere``.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot import render, thinking
from bot.session import Actor, SessionError, TableSession
from bot.tables import OpenTable
from bot.web.activity import Activity, DiscordIdentity
from bot.web.views import plain_text
from engine import Action, seat_view

if TYPE_CHECKING:
    from bot.client import FilicauBot

log = logging.getLogger(__name__)

#: Discord's API, where the bot exchanges the Activity's codes (``DISCORD_API_BASE`` points
#: the tests at the stand-in).
DISCORD_API = "https://discord.com/api/v10"
_MENTION = re.compile(r"<@!?(\d+)>")


class ActivityPlay:
    """``bot.web.activity.Play`` over the bot's registry of open tables."""

    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot

    def table_in(self, channel_id: int) -> int | None:
        table = self.bot.tables.in_channel(channel_id)
        return None if table is None or table.runner.closed else table.id

    def holds(self, table_id: int) -> bool:
        return self._table(table_id) is not None

    def _table(self, table_id: int) -> OpenTable | None:
        table = self.bot.tables.get(table_id)
        return None if table is None or table.runner.closed else table

    def _open(self, table_id: int) -> OpenTable:
        table = self._table(table_id)
        if table is None:
            raise SessionError("err.gone")
        return table

    @staticmethod
    def _in_hand(s: TableSession, hand_id: int | None) -> None:
        """The request was made at the hand in play (the page's stamp, as a button's)."""
        if s.hand is None or s.state != "playing":
            raise SessionError("err.no_hand")
        if hand_id is not None and hand_id != s.hand_id:
            raise SessionError("err.stale_hand")

    async def act(self, table_id: int, user_id: int, action: Action, *, hand_id: int,
                  at: int, seat: int | None) -> None:
        table = self._open(table_id)
        s = table.session
        self._in_hand(s, hand_id)
        mine = s.require_seat(user_id)
        if seat is not None and seat != mine:
            # The page speaks for a seat that is not this player's.
            raise SessionError("activity.not_your_seat")
        outcome = await s.act(user_id, action, hand_number=s.hand_number, at=at)
        await table.runner.after(outcome)
        # The player's own hand view on Discord, if open, shows the move too (a click on it
        # would have been answered with it).
        await table.discord.refresh_hand_views([mine], only=[mine])

    async def seat(self, table_id: int, user_id: int, op: str, *, team: int | None,
                   hand_id: int | None) -> None:
        table = self._open(table_id)
        s = table.session
        if s.state != "playing":
            # The lobby's seats are taken and left with its buttons (the lobby message is
            # answered in place, by the click).
            raise SessionError("activity.lobby_buttons")
        if op == "leave":
            seat = s.require_seat(user_id)
            if await s.leave(user_id):
                # During a hand: the computer plays the seat from now on.
                await table.discord.refresh_hand_views([seat], only=[seat])
                await table.runner.courier.notice("turn.left", seat)
            await table.runner.after(None)
        elif op == "sit":
            name = await self.bot.web_name(s.guild_id, str(user_id))
            await s.join(user_id, team, name)
            await table.runner.after(None)
        elif op == "back":
            s.require_seat(user_id)
            s.resume(user_id)
            await table.runner.after(None)
        elif op == "next":
            self._in_hand(s, hand_id)
            await s.next_hand(Actor(user_id), s.hand_number)
            table.discord.request_refresh()
            await table.runner.dealt()

    async def hint(self, table_id: int, user_id: int, *, hand_id: int, at: int) -> str:
        table = self._open(table_id)
        s = table.session
        self._in_hand(s, hand_id)
        hand = s.hand
        assert hand is not None
        if at != len(hand.actions):
            raise SessionError("err.stale_trick")
        seat = s.hint_seat(user_id, s.hand_number, len(hand.tricks))
        view = seat_view(hand, seat)
        try:
            hint = await thinking.hint("normal", seat, view)
        except ValueError:
            raise SessionError("illegal.not_your_turn") from None
        text = render.hint_text(s, view, hint)
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


def make_activity(bot: FilicauBot) -> Activity | None:
    """The Activity's routes for the bot's web server, when the bot may be an Activity
    (``WEB_URL`` and ``CLIENT_SECRET`` set), else None (said in one line)."""
    settings = bot.settings
    secret = settings.client_secret.get_secret_value() if settings.client_secret else ""
    if not settings.web_url or not secret or bot.application_id is None:
        if settings.web_url:
            log.info("Activity off: CLIENT_SECRET is not set (docs/activity.md)")
        return None
    app_id = bot.application_id

    async def lookup(instance_id: str) -> dict[str, Any] | None:
        route = discord.http.Route(
            "GET", "/applications/{application_id}/activity-instances/{instance_id}",
            application_id=app_id, instance_id=instance_id)
        try:
            found: dict[str, Any] = await bot.http.request(route)
        except discord.NotFound:
            return None
        except discord.HTTPException as e:
            log.warning("activity: Discord did not say where instance %r is (%s)",
                        instance_id[:40], e)
            return None
        return found

    api_base = settings.discord_api_base or DISCORD_API
    identity = DiscordIdentity(api_base, app_id, secret, lookup)
    return Activity(identity, ActivityPlay(bot), app_id)
