"""``/admin web rotate|on|off`` through the in-process Discord fake: a server manager's new key
refuses every link given before; off closes the pages; a bot without ``WEB_URL`` says so."""

from __future__ import annotations

from typing import Any

import aiohttp
from fake_discord import GUILD_ID, Harness
from web_helpers import path_of, serve

from bot.texts import t
from bot.web import demo


async def test_admin_web_rotates_switches_and_needs_web_url(h: Harness) -> None:
    mia = h.user("mia", manager=True)
    ana = h.user("ana")
    r = await h.command(mia, "admin web rotate")
    assert r.rejected_with(t("err.web_unset"))
    store: Any = h.bot.store
    server, base = await serve(store)
    h.bot.web = server  # type: ignore[attr-defined]  # what the lead wires in FilicauBot
    try:
        session = await demo.open_table(store, guild_id=GUILD_ID, channel_id=99)
        link = path_of(await server.table_link(GUILD_ID, session.id))
        async with aiohttp.ClientSession(base) as client:
            async def status(path: str) -> int:
                async with client.get(path) as resp:
                    return resp.status

            assert await status(link) == 200
            r = await h.command(ana, "admin web rotate")
            assert r.rejected_with(t("err.need_manage_server"))
            assert await status(link) == 200
            r = await h.command(mia, "admin web rotate")
            board = await server.board_link(GUILD_ID)
            assert r.ephemeral and r.message.content == t("ok.web_rotated", url=board)
            assert await status(link) == 404
            link = path_of(await server.table_link(GUILD_ID, session.id))
            r = await h.command(mia, "admin web off")
            assert r.ephemeral and r.message.content == t("ok.web_off")
            assert await status(link) == 404 and await status(path_of(board)) == 404
            r = await h.command(mia, "admin web on")
            assert r.ephemeral and r.message.content == t("ok.web_on", url=board)
            assert await status(link) == 200
    finally:
        await server.stop()
