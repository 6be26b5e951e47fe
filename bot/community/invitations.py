"""Invitations: ``/table new invite:@a invite_2:@b invite_3:@c`` holds a seat for each
invited player for a while (the server's hold time, ``/community``; 10 minutes unless a
manager chose another) and tells them.

Discord has no option that takes several users, so the command has three user options: each
is Discord's own member picker (a mention typed into a text option would be free text, to
be parsed and checked), and three cover every table of four, the most common; larger tables
fill their other seats by *Join*, ``/play`` or a call. The holds are kept with the table
(``bot.holds``), so they survive a restart.

The invited are told in the table's channel, with one mention each (a follow-up of the
``/table new`` answer: no request of the global limit), or by a direct message with a link
to the table for those who chose that (``/settings invites:dm``); one whose direct message
does not go is mentioned instead.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import discord

from bot import render
from bot.community.quickplay import table_link
from bot.delivery import only_users
from bot.direct import DirectMessages
from bot.open_tables import OpenTable
from bot.servers import Servers
from bot.service import TableService
from bot.store import Store
from bot.texts import language_of, speaking, t


def invited(users: Sequence[discord.abc.User | None], opener_id: int,
            seats: int) -> list[discord.abc.User]:
    """The users an invitation may hold seats for: people (not bots), not the opener, each
    once, at most as many as the seats left."""
    out: list[discord.abc.User] = []
    for user in users:
        if user is None or user.bot or user.id == opener_id or any(u.id == user.id
                                                                     for u in out):
            continue
        out.append(user)
    return out[:max(0, seats - 1)]


class Invitations:
    """Seats held for the invited, and the invited told (see the module docstring)."""

    def __init__(self, store: Store, servers: Servers, dms: DirectMessages,
                 service: TableService) -> None:
        self.store = store
        self.servers = servers
        self.dms = dms
        self.service = service

    async def invite(self, table: OpenTable, interaction: discord.Interaction[Any],
                     users: Sequence[discord.abc.User]) -> None:
        """Hold a seat for each of ``users`` at a table just opened (its lobby posted as
        the answer to ``interaction``) and tell them."""
        s = table.session
        if not users:
            return
        settings = await self.store.community_settings(s.guild_id)
        now = time.time()
        until = now + 60 * settings.hold_minutes
        await self.service.hold(table, [str(u.id) for u in users], until)
        when = f"<t:{int(until)}:t>"
        by = f"<@{interaction.user.id}>"
        mention: list[int] = []
        for user in users:
            prefs = await self.store.player_settings(user.id)
            if prefs.invites == "dm":
                with speaking(language_of(prefs.locale)):
                    text = t("invite.dm", user=by, game=render.title(s),
                             channel=f"<#{s.channel_id}>", until=when, link=table_link(table))
                if await self.dms.send(user.id, content=text, what=f"invite {user.id}"):
                    continue
            mention.append(user.id)
        if not mention:
            return
        with speaking(self.servers.public_language(s.guild_id)):
            text = t("invite.mention", users=" ".join(f"<@{u}>" for u in mention), user=by,
                     game=render.title(s), until=when)
        await interaction.followup.send(text, allowed_mentions=only_users(mention))
