"""A table's life in the bot: what it holds while open, and that closing it leaves nothing.

A bot that runs for months in thousands of channels must stay as small as it started: every
table closed (cancelled, ended by a manager, its lobby expired) leaves no runner, task,
hand view, channel entry, or view kept by discord.py behind.
"""

from __future__ import annotations

import asyncio
import random

from fake_discord import CHANNEL_ID, UPDATE_MESSAGE, Harness, User
from test_cogs import play_until

from bot.runner import TableRunner
from bot.texts import t

CHANNELS = [CHANNEL_ID + 100 + i for i in range(4)]


def runner_tasks() -> list[asyncio.Task[object]]:
    """Tasks still running a table's work (its runner's or its surface's)."""
    return [task for task in asyncio.all_tasks()
            if getattr(task.get_coro(), "__qualname__", "").startswith(
                ("TableRunner.", "DiscordSurface."))]


def kept_by_discord_py(h: Harness) -> int:
    """Views and components discord.py keeps to dispatch clicks (one per message sent with
    a listening view)."""
    assert h.bot is not None
    store = h.bot._connection._view_store
    return (len(store._views) + len(store._synced_message_views)
            + len(h.bot.persistent_views))


async def open_with_computers(h: Harness, user: User, channel_id: int) -> int:
    r = await h.command(user, "table new", game="filicau", channel_id=channel_id)
    lobby = r.message
    r = await h.click(user, lobby.button_by_label(t("btn.join_a"))["custom_id"],
                      message=lobby)
    for _ in range(3):
        r = await h.add_computer(user, "easy", message=r.message)
        assert r.type == UPDATE_MESSAGE
    session = h.tables.session_in(channel_id)
    assert session is not None
    return session.id


async def test_closing_tables_leaves_nothing_behind(h: Harness) -> None:
    live = TableRunner.alive
    ana, bob, cid = h.user("ana"), h.user("bob"), h.user("cid")
    mia = h.user("mia", manager=True)
    # Three tables in play with open hand views, one lobby.
    for user, channel in zip((ana, bob, cid), CHANNELS, strict=False):
        await open_with_computers(h, user, channel)
        table = h.tables.session_in(channel)
        assert table is not None
        msg = h.discord.messages[table.message_id or 0]
        r = await h.click(user, msg.button_by_label(t("btn.start"))["custom_id"], message=msg)
        r = await h.click(user, r.message.button_by_label(t("btn.my_hand"))["custom_id"],
                          message=r.message)
        assert r.ephemeral
    lobby = await h.command(mia, "table new", game="filko", channel_id=CHANNELS[3])
    assert len(h.tables.open) == 4 and TableRunner.alive == live + 4
    played = h.tables.session_in(CHANNELS[0])
    assert played is not None
    await play_until(h, played, [ana], random.Random(3))
    table = h.table(played)
    runner, surface = table.runner, table.discord
    assert surface.hand_views and runner.tasks()

    # Ended by a manager (two of them), the lobby cancelled, the last one's lobby expired.
    for channel in CHANNELS[:2]:
        r = await h.command(mia, "admin end", channel_id=channel)
        assert r.message.content == t("ok.ended")
    r = await h.click(mia, lobby.message.button_by_label(t("btn.cancel"))["custom_id"],
                      message=lobby.message)
    assert r.type == UPDATE_MESSAGE
    await h.command(mia, "admin end", channel_id=CHANNELS[2])
    await h.settle()

    assert h.tables.open == {} and h.tables.by_channel == {}
    assert TableRunner.alive == live
    assert surface.hand_views == {} and runner.tasks() == [] and surface.tasks() == []
    leftover = runner_tasks()
    if leftover:  # cancelled, finishing their cancellation
        await asyncio.wait(leftover, timeout=10)
    assert runner_tasks() == []
    assert kept_by_discord_py(h) == 0


async def test_an_expired_lobby_leaves_nothing_behind(h: Harness) -> None:
    live = TableRunner.alive
    ana = h.user("ana")
    await h.command(ana, "table new", game="filicau")
    runner = h.runner(h.session())
    assert runner.lobby_timer is not None
    await runner.expire_lobby(0)
    assert h.table_message().content == t("lobby.expired")
    assert h.tables.open == {} and h.tables.by_channel == {}
    assert TableRunner.alive == live and runner.tasks() == []
