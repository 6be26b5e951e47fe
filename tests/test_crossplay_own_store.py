"""What ladder42's part of play across servers keeps in the store, on both databases (SQLite
and a real PostgreSQL): a server's choice to count its members' hands across servers in its
own ratings and the hands it counted, for whom; one hand's rating changes in two books; the
venue a channel shows; a player's chosen table name."""

from __future__ import annotations

from typing import Any

from bot import ratings
from bot.store import EVERYWHERE, CrossplaySettings, ResultRow, VenueRow

HOME, AWAY, OTHER = (820_000_000_000_000_001 + (i << 22) for i in range(3))


async def crossplay_hand(store: Any) -> tuple[int, int]:
    """A table across servers: its home HOME (players 1 and 3), AWAY's venue (2), OTHER's
    (4); its first hand dealt. The table and the hand."""
    table = await store.create_table(guild_id=HOME, channel_id=1, game="filicau", options={},
                                     opener_id=1, seats=["1", "2", "3", "4"],
                                     settings={"crossplay": True})
    for guild, channel, members in ((AWAY, 2, (2,)), (OTHER, 3, (4,))):
        await store.put_venue(VenueRow(table_id=table.id, guild_id=guild, channel_id=channel,
                                       members=members))
    hand = await store.start_hand(table.id, 1, {"game": "filicau",
                                                "members": ["1", "2", "3", "4"]})
    return table.id, hand


def result(hand: int) -> ResultRow:
    return ResultRow(hand_id=hand, guild_id=EVERYWHERE, game="filicau", team_a=["1", "3"],
                     team_b=["2", "4"], points_a=6, points_b=2, masters_before=None,
                     masters_after="a", event="masters", event_team="a", finished_at="",
                     members=["1", "2", "3", "4"])


async def test_a_hand_across_servers_counts_in_the_books_of_the_servers_that_say_so(
        store: Any) -> None:
    _, hand = await crossplay_hand(store)
    await store.put_crossplay_settings(CrossplaySettings(guild_id=HOME, enabled=True))
    assert not await store.own_ratings(HOME) and not await store.own_ratings(AWAY)
    await store.put_own_ratings(HOME, True)
    await store.put_own_ratings(AWAY, True)
    # The opt-in kept as it was beside the choice, and the choice beside a new opt-in.
    assert (await store.crossplay_settings(HOME)).enabled and await store.own_ratings(HOME)
    await store.put_crossplay_settings(CrossplaySettings(guild_id=HOME, enabled=True,
                                                         games=("filicau",)))
    assert await store.own_ratings(HOME) and not await store.own_ratings(OTHER)
    await store.finish_hand(hand, {"points": [6, 2]})
    await ratings.finish(store, result(hand))
    assert await store.share_result(hand) == [(HOME, ("1", "3")), (AWAY, ("2",))]
    home = {r.player: r for r in await store.ratings(HOME, "filicau", 1)}
    away = {r.player: r for r in await store.ratings(AWAY, "filicau", 1)}
    ladder = {r.player: r for r in await store.ratings(EVERYWHERE, "filicau", 1)}
    assert set(home) == {"1", "3"} and set(away) == {"2"} and set(ladder) == {"1", "2", "3", "4"}
    assert await store.ratings(OTHER, "filicau", 1) == []
    assert home["1"].mu > 25 > away["2"].mu
    assert await store.rated_in(hand, HOME) and await store.rated_in(hand, EVERYWHERE)
    assert not await store.rated_in(hand, OTHER)
    # Asked again (a restart redoes the bookkeeping): nothing moves twice.
    await ratings.record(store, result(hand).model_copy(update={"finished_at": "x"}))
    assert {r.player: r for r in await store.ratings(HOME, "filicau", 1)} == home
    [(shared, rated, counted)] = await store.shared_results(AWAY)
    assert shared.guild_id == AWAY and shared.hand_id == hand and rated and counted == ("2",)
    # A rebuild gives the same books (the choice turned off since changes no past hand).
    await store.put_own_ratings(AWAY, False)
    await ratings.rebuild(store)
    assert {r.player: r for r in await store.ratings(AWAY, "filicau", 1)} == away
    assert {r.player: r for r in await store.ratings(HOME, "filicau", 1)} == home
    assert len(await store.rating_history(HOME, "filicau", 1)) == 2
    assert len(await store.rating_history(EVERYWHERE, "filicau", 1)) == 4


async def test_the_venue_a_channel_shows_and_a_chosen_table_name(store: Any) -> None:
    table_id, _ = await crossplay_hand(store)
    [venue] = [v for v in await store.venues(table_id) if v.channel_id == 2]
    assert await store.venue_in(2) == venue and await store.venue_in(1) is None
    await store.update_table(table_id, state="closed")
    assert await store.venue_in(2) is None
    assert await store.table_name(5) is None
    await store.put_table_name(5, "Tischfee", "Tischfee")
    assert await store.table_name(5) == "Tischfee"
    assert await store.crossplay_names([5]) == {5: "Tischfee"}
    await store.put_table_name(5, None, "Eve")
    assert await store.table_name(5) is None and await store.crossplay_names([5]) == {5: "Eve"}
