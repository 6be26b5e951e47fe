"""The web leaderboard shows either a server's own ratings or the ladder of play across
servers (issue 42), on both databases: a switch on the page, the ladder's players by the
names they showed at those tables, no profile link of the server's to them."""

from __future__ import annotations

import aiohttp
from web_helpers import path_of, serve

from bot.store import EVERYWHERE, RatingRow, Store

GUILD = 1


def rated(guild_id: int, player: int, mu: float) -> RatingRow:
    return RatingRow(guild_id=guild_id, game="filicau", season=1, player=str(player), mu=mu,
                     sigma=2.0, hands=5, updated_at="2026-12-01T10:00:00+00:00")


async def test_the_web_leaderboard_switches_between_the_server_and_the_ladder(
        store: Store) -> None:
    await store.save_ratings([rated(GUILD, 11, 30.0)], [])
    await store.save_ratings([rated(EVERYWHERE, 21, 31.0), rated(EVERYWHERE, 22, 29.0)], [])
    await store.put_table_name(21, "Tisch\u202efee", "Tisch\u202efee")
    await store.put_table_name(22, None, "Zora")
    server, base = await serve(store)
    try:
        link = path_of(await server.board_link(GUILD, "filicau"))
        async with aiohttp.ClientSession(base) as client:
            async with client.get(link) as r:
                assert r.status == 200
                own = await r.text()
            async with client.get(link + "&where=everywhere") as r:
                assert r.status == 200
                ladder = await r.text()
            async with client.get(link + "&where=elsewhere") as r:
                assert r.status == 404
            async with client.get(link + "&where=everywhere&season=2") as r:
                assert r.status == 404  # the ladder has no season 2 yet
        assert 'name="where"' in own and 'value="everywhere"' in own
        assert "/player/" in own and "Zora" not in own
        assert '<option value="everywhere" selected>' in ladder
        assert "Zora" in ladder and "Tisch\u202efee" in ladder and "/player/" not in ladder
        assert ladder.index("Tisch") < ladder.index("Zora")  # the better first
    finally:
        await server.stop()


