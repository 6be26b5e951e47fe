"""The way from a table's page to its hands' replays (``/table/TOKEN/hand/ID``): a finished
hand of that table is sent on to its signed replay; a hand still in play, another table's
hand or a wrong token are the bare 404 of any wrong link — the page cannot open a replay
early, nor reach another table's hands."""

from __future__ import annotations

import aiohttp
from web_helpers import path_of, serve

from bot.store import Store
from bot.web import demo

GUILD = 1


async def test_a_tables_page_reaches_only_its_own_finished_hands(store: Store) -> None:
    server, base = await serve(store)
    try:
        one = await demo.open_table(store, guild_id=GUILD, channel_id=1, seed=1)
        other = await demo.open_table(store, guild_id=GUILD, channel_id=2, seed=2)
        table = path_of(await server.table_link(GUILD, one.id))
        async with aiohttp.ClientSession(base) as client:

            async def answer(path: str) -> tuple[int, str | None]:
                async with client.get(path, allow_redirects=False) as r:
                    return r.status, r.headers.get("Location")

            first = one.hand_id
            assert first is not None
            # In play: refused, as the replay page itself would say nothing of it.
            assert await answer(f"{table}/hand/{first}") == (404, None)
            while await demo.move(one):
                pass
            assert await answer(f"{table}/hand/{first}") == (
                302, path_of(await server.hand_link(GUILD, first)))
            while await demo.move(other):
                pass
            assert other.hand_id is not None
            for wrong in (f"{table}/hand/{other.hand_id}", f"{table}/hand/999999",
                          f"{table[:-2]}xx/hand/{first}", f"{table}/hand/-1",
                          f"{table}/hand/1e3"):
                assert await answer(wrong) == (404, None), wrong
            # And the replay links back to the table's page.
            async with client.get(f"{table}/hand/{first}") as r:
                assert r.status == 200
                assert f'href="{table}"' in await r.text()
    finally:
        await server.stop()
