"""A tournament's Discord scheduled event: made when the tournament is announced (so that the
server's members see it coming and can say they are interested), active once it starts,
completed at its end, cancelled with it.

The event is *external* (its place a link to the tournament's channel): a voice or stage
event would need a voice channel. The bot needs the Create Events permission; without it
(or on any failure) the tournament goes on without an event, and the log says why.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.delivery import FAILURES, describe

if TYPE_CHECKING:
    from discord.http import HTTPClient

    from bot.store import TournamentRow

log = logging.getLogger(__name__)

#: Discord's GuildScheduledEventStatus values.
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
#: Discord's entity type of an event somewhere else than a voice channel.
EXTERNAL = 3
#: Only the server's members see it.
GUILD_ONLY = 2


def channel_link(row: TournamentRow) -> str:
    return f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"


async def create(http: HTTPClient, guild_id: int, *, start: str, end: str,
                 **fields: Any) -> int | None:
    """Make the event; its id, or None when Discord refused."""
    try:
        data = await http.create_guild_scheduled_event(
            guild_id, privacy_level=GUILD_ONLY, entity_type=EXTERNAL,
            scheduled_start_time=start, scheduled_end_time=end, **fields)
    except FAILURES as e:
        log.warning("server %s: the tournament's scheduled event was not made (%s)", guild_id,
                    describe(e))
        return None
    return int(data["id"])


async def set_status(http: HTTPClient, guild_id: int, event_id: int | None,
                     status: int) -> None:
    """Move the event on (active, completed, cancelled); nothing without one."""
    if event_id is None:
        return
    try:
        await http.edit_scheduled_event(guild_id, event_id, status=status)
    except FAILURES as e:
        log.info("server %s: scheduled event %s not moved to %s (%s)", guild_id, event_id,
                 status, describe(e))
