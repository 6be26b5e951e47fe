"""Who a table may invite. A table of one server: its members who see the table's channel.
A table across servers: anybody not barred and in no block with a player there, for a seat
that is or will be free (``holdable``).

Discord's user option lets a command name any user by id, also one who is in none of this
server's channels (Discord then resolves a user, not a member). Holding a seat for them and
mentioning them in a channel they cannot see helps nobody and tells the channel about a
stranger: ``/table new`` refuses such an invitation as a whole, naming who cannot come.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot import holds
from bot.lobby import Lobby
from bot.seats import is_computer
from bot.store import Member

#: The request, carried to the process that drives a table across servers, to hold a seat.
HOLD = "crossplay_hold"


def strangers(users: Sequence[discord.abc.User],
              interaction: discord.Interaction[Any]) -> list[discord.abc.User]:
    """The invited who are not members of the interaction's server, or who cannot see its
    channel (as far as the bot knows: a channel it has not seen counts as visible)."""
    channel = interaction.channel
    sees = (channel.permissions_for
            if isinstance(channel, discord.abc.GuildChannel | discord.Thread) else None)
    return [user for user in users
            if not isinstance(user, discord.Member) or user.guild.id != interaction.guild_id
            or (sees is not None and not sees(user).view_channel)]


def holdable(s: Lobby, member: Member, now: float) -> bool:
    """Whether a table across servers has a seat to hold for ``member``: an empty one, a
    computer's, or one its player left mid-hand (taken between hands), not held already
    for somebody else."""
    seats = sum(1 for i, m in enumerate(s.seats)
                if m is None or is_computer(m) or i in s.leaving)
    return holds.free_for(member, free=seats, seated=s.seats, runtime=s.row.runtime,
                          now=now) > 0
