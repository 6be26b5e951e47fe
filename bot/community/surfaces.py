"""Two small surfaces every ordinary table has besides its messages (``bot.courier``):

- **reminders**: when a turn's warning comes (two thirds of the turn gone, ``Signal.WARNING``:
  the player has not acted for a while), each person waited for who asked for reminders
  (``/settings reminders:dm``) gets a direct message in their language, with a link to the
  table and the seconds left: one per turn at most (the runner signals a turn's warning
  once, also across a restart), within the direct messages' budget (``bot.direct``), and
  never a card: it names the game, the channel and the time, nothing of the hand.
- **calls**: when a lobby needs one more player (one seat left that anybody may take), the
  server's call role, if a manager set one (``/community``), is mentioned once in the
  table's channel with a *Join* button: once per table, and at most once per
  ``CALL_SECONDS`` in the whole server (the store decides, so that two tables asking at once
  make one call).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import cast

import discord

from bot import holds, render
from bot.community import drawing
from bot.community.quickplay import table_link
from bot.courier import Change, QuietSurface, Signal
from bot.delivery import Delivery
from bot.direct import DirectMessages
from bot.open_tables import OpenTable
from bot.seats import is_computer
from bot.servers import Servers
from bot.store import Store
from bot.texts import language_of, speaking, t

log = logging.getLogger(__name__)

#: At most one call of a server's role in this many seconds.
CALL_SECONDS = 15 * 60


@dataclass(frozen=True)
class _SnowflakeText:
    """An id as Discord's schema spells snowflakes (a string of digits); discord.py sends the
    ``.id`` it finds in ``AllowedMentions``."""

    id: str


def only_role(role_id: int) -> discord.AllowedMentions:
    """Mentions that ping this role and nobody else."""
    roles = cast(list[discord.abc.Snowflake], [_SnowflakeText(str(role_id))])
    return discord.AllowedMentions(everyone=False, users=False, replied_user=False,
                                   roles=roles)


class ReminderSurface(QuietSurface):
    """Direct-message reminders of a turn (see the module docstring)."""

    def __init__(self, store: Store, table: OpenTable, dms: DirectMessages) -> None:
        self.store = store
        self.table = table
        self.dms = dms
        #: The turn reminded last: (hand, actions).
        self.reminded: tuple[int, int] | None = None

    async def signal(self, signal: Signal, seconds: int) -> None:
        if signal is not Signal.WARNING:
            return
        s = self.table.session
        hand = s.hand
        if hand is None or s.message_id is None:
            return
        turn = (s.hand_number, len(hand.actions))
        if turn == self.reminded:
            return
        self.reminded = turn
        people = [int(m) for seat in s.waiting_for_human()
                  if (m := s.seats[seat]) is not None and not is_computer(m)]
        for user_id in people:
            prefs = await self.store.player_settings(user_id)
            if prefs.reminders != "dm":
                continue
            with speaking(language_of(prefs.locale)):
                text = t("remind.turn", game=render.title(s), channel=f"<#{s.channel_id}>",
                         seconds=seconds, link=table_link(self.table))
            await self.dms.send(user_id, content=text, what=f"remind {user_id} of a turn")


class CallSurface(QuietSurface):
    """A call of the server's role for one more player (see the module docstring), posted
    through the table's own routes (``delivery``: a follow-up of its token while it
    lives), in the server's language."""

    def __init__(self, store: Store, servers: Servers, table: OpenTable,
                 delivery: Delivery) -> None:
        self.store = store
        self.servers = servers
        self.table = table
        self.delivery = delivery
        self.called = False

    async def changed(self, change: Change) -> None:
        s = self.table.session
        if self.called or s.state != "lobby" or s.message_id is None:
            return
        empty = s.seats.count(None)
        # One seat left, and anybody may take it (not held for an invited player).
        if empty != 1 or holds.free_for("", free=1, seated=s.seats, runtime=s.row.runtime,
                                        now=time.time()) != 1:
            return
        self.called = True
        settings = await self.store.community_settings(s.guild_id)
        role = settings.call_role_id
        if role is None:
            return
        now = datetime.now(UTC)
        since = (now - timedelta(seconds=CALL_SECONDS)).isoformat(timespec="seconds")
        if not await self.store.take_call(s.guild_id, now.isoformat(timespec="seconds"),
                                              since):
            log.info("table %s: the call for one more waits (one a while per server)", s.id)
            return
        with speaking(self.servers.public_language(s.guild_id)):
            content = f"<@&{role}> " + t("call.one_more", game=render.title(s),
                                          channel=f"<#{s.channel_id}>")
            view = drawing.take_view([s.id], label=t("btn.take_seat"))
        await self.delivery.post(content=content, view=view, allowed_mentions=only_role(role),
                                 what="call for one more player")
