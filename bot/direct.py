"""Direct messages to players who asked for them (reminders, invitations), within a budget.

A direct message costs requests made with the bot's token, which count against Discord's
global limit (50 a second for the whole bot, whatever the number of processes): opening the
DM channel (once per player, then kept a while) and the message. Direct messages get a small
share of that limit (``PER_SECOND`` a second for the whole bot, this process its share of
it), and one that finds the budget spent is dropped, not queued: a reminder that comes late
is no reminder. A player who does not take direct messages from the server's members
(Discord refuses, 50007) is noted once and left alone.

>>> budget = Budget(per_second=2.0, burst=2, clock=iter([0.0, 0.0, 0.0, 0.5]).__next__)
>>> [budget.take(), budget.take(), budget.take(), budget.take()]
[True, True, False, True]
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord

from bot.delivery import FAILURES, Sender, describe

log = logging.getLogger(__name__)

#: Direct messages a second, for the whole bot (each one or two requests of the 50).
PER_SECOND = 4.0
#: Direct messages that may go at once after a quiet while.
BURST = 8
#: DM channels remembered (a few bytes each; the oldest forgotten first).
KEEP_CHANNELS = 10_000
#: Discord's refusal of a direct message to a user who takes none.
CANNOT_MESSAGE = 50007


class Budget:
    """A token bucket: ``per_second`` on average, ``burst`` at once."""

    def __init__(self, per_second: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.at: float | None = None

    def take(self) -> bool:
        now = self.clock()
        if self.at is not None:
            self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class DirectMessages:
    """The bot's direct messages (see the module docstring)."""

    def __init__(self, sender: Sender, share: float = 1.0) -> None:
        self.sender = sender
        self.budget = Budget(PER_SECOND * share, BURST)
        self.channels: OrderedDict[int, int] = OrderedDict()
        #: Users who take no direct message (Discord said so): not tried again this run.
        self.closed: set[int] = set()
        #: Messages sent and dropped (the budget was spent), for the logs and the tests.
        self.sent = 0
        self.dropped = 0

    async def send(self, user_id: int, *, what: str, **fields: Any) -> bool:
        """Send ``fields`` (discord.py's ``send`` arguments) to ``user_id``; False if it was
        not sent (no budget, or Discord refused)."""
        if user_id in self.closed:
            return False
        if not self.budget.take():
            self.dropped += 1
            log.info("direct message to %s dropped (%s): the budget is spent", user_id, what)
            return False
        try:
            channel_id = self.channels.get(user_id)
            if channel_id is None:
                # The id as Discord's schema spells snowflakes (discord.py sends what it is
                # given).
                data = await self.sender.http.start_private_message(str(user_id))
                channel_id = int(data["id"])
                self.channels[user_id] = channel_id
                while len(self.channels) > KEEP_CHANNELS:
                    self.channels.popitem(last=False)
            channel = self.sender.channel(channel_id, private=True)
            fields.setdefault("allowed_mentions", discord.AllowedMentions.none())
            await channel.send(**fields)
        except FAILURES as e:
            if isinstance(e, discord.HTTPException) and e.code == CANNOT_MESSAGE:
                self.closed.add(user_id)
                log.info("user %s takes no direct messages (%s)", user_id, what)
            else:
                log.warning("could not %s (%s)", what, describe(e))
            return False
        self.sent += 1
        return True
