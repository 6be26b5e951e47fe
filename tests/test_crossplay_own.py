"""Play across servers, what a server and a player choose (issue 42, ladder42's part), as
players and managers notice it, in process (``tests/fake_discord.py``): a server that counts
its members' hands across servers in its own ratings, a player's own table name, open
tables across servers in ``/tables``, and the ladder's pages."""

from __future__ import annotations

import random

from fake_discord import CHANNEL_ID, GUILD_ID, Harness, Message, User
from test_cogs import play_until
from test_crossplay import four_servers, table_in
from test_ratings_cogs import TopDrawn, top_drawn  # noqa: F401 (the pictures drawn)

from bot import ratings
from bot.pictures import digest
from bot.store import EVERYWHERE
from bot.texts import t


def result_in(h: Harness, channel_id: int) -> Message:
    """The latest result of a channel (a public message with a Next hand button)."""
    return [m for m in h.public(channel_id)
            if m.embeds and t("btn.next_hand") in [b.get("label") for b in m.buttons]][-1]


async def play_hand(h: Harness, players: list[tuple[User, int]], seed: int) -> None:
    """Everybody opens their hand from their own server's table message; the hand is
    played to its end."""
    [table] = [x for x in h.tables if x.session.state == "playing"]
    for user, channel_id in players:
        await h.press(user, t("btn.my_hand"), message=table_in(h, channel_id))
    await play_until(h, table.session, [u for u, _ in players], random.Random(seed))
    await h.settle()


# -- a server's own ratings -----------------------------------------------------------------


async def test_a_server_counts_its_members_hands_across_servers_only_if_it_says_so(
        h: Harness) -> None:
    """Off (the default), a hand across servers is on the ladder only; once Ana's server
    counts such hands in its own ratings, the next hand moves Ana there — and nobody else
    (no stranger of another server, no computer), and no other server's ratings."""
    players = await four_servers(h)
    (ana, _), (bob, bob_channel) = players[0], players[1]
    store = h.bot.store
    await play_hand(h, players, 3)
    r = await h.command(ana, "leaderboard", game="filicau")
    assert r.message.embeds[0]["description"] == t("leaderboard.none")
    boss = h.user("boss", manager=True)
    r = await h.command(boss, "admin crossplay", own_ratings="on")
    assert r.ephemeral and r.text == "\n".join((
        t("ok.crossplay_on", games=t("crossplay.every_game"),
          channels=t("crossplay.every_channel")), t("ok.crossplay_own_ratings")))
    await h.press(ana, t("btn.next_hand"), message=result_in(h, CHANNEL_ID))
    await play_hand(h, players, 4)
    [own] = await store.ratings(GUILD_ID, "filicau", 1)
    assert own.player == ana.member and own.hands == 1  # the second hand, for Ana only
    assert len({r.player for r in await store.ratings(EVERYWHERE, "filicau", 1)}) == 4
    for user, _ in players[1:]:
        assert await store.ratings(user.guild_id, "filicau", 1) == []
    r = await h.command(ana, "leaderboard", game="filicau")
    [embed] = r.message.embeds
    assert ana.mention in embed["description"]
    assert not any(u.mention in embed["description"] for u, _ in players[1:])
    r = await h.command(bob, "leaderboard", game="filicau", channel_id=bob_channel)
    assert r.message.embeds[0]["description"] == t("leaderboard.none")
    # Rebuilt from the stored results, the ratings are what the hands made them.
    before = await store.ratings(GUILD_ID, "filicau", 1)
    ladder = await store.ratings(EVERYWHERE, "filicau", 1)
    await ratings.rebuild(store)
    assert await store.ratings(GUILD_ID, "filicau", 1) == before
    assert await store.ratings(EVERYWHERE, "filicau", 1) == ladder
    # Off again: the next hand is on the ladder only.
    r = await h.command(boss, "admin crossplay", own_ratings="off")
    assert r.text.endswith(t("ok.crossplay_ladder_only"))
    await h.press(ana, t("btn.next_hand"), message=result_in(h, CHANNEL_ID))
    await play_hand(h, players, 5)
    assert await store.ratings(GUILD_ID, "filicau", 1) == before
    h.check_clean()


# -- a player's own table name --------------------------------------------------------------


async def servers_on(h: Harness, names: tuple[str, ...] = ("ana", "bob", "cid", "dan"),
                     ) -> list[tuple[User, int]]:
    """A player in each of as many servers that play across servers (Ana's is the
    harness's own), each with the channel they play from; nobody queued yet."""
    players = []
    for number, name in enumerate(names):
        guild_id, channel_id = (GUILD_ID, CHANNEL_ID) if number == 0 else h.guild(number)
        boss = h.user(f"boss{number}", manager=True, guild=guild_id)
        await h.command(boss, "admin crossplay", mode="on", channel_id=channel_id)
        players.append((h.user(name, guild=guild_id), channel_id))
    return players


async def queue_all(h: Harness, players: list[tuple[User, int]], game: str = "filicau") -> None:
    for user, channel_id in players:
        r = await h.command(user, "play", where="everywhere", game=game, channel_id=channel_id)
        assert r.ephemeral


async def test_a_player_chooses_the_name_other_servers_see(h: Harness) -> None:
    """Ana chooses a table name: every other server's table message, and the ladder, name
    her by it (capped, isolated like every name), never by her Discord name. A name that
    would show nothing is refused; without a name, her Discord name again."""
    players = await servers_on(h)
    ana = players[0][0]
    r = await h.command(ana, "crossplay name", name="\u200b \u2066\u2069")
    assert r.ephemeral and r.text == t("err.bad_table_name")
    r = await h.command(ana, "crossplay name", name="  Tisch\nfee  ")
    assert r.ephemeral and r.text == t("ok.table_name", name="Tisch fee")
    await queue_all(h, players)
    for _, channel_id in players[1:]:
        text = table_in(h, channel_id).text
        assert "Tisch fee" in text and "Ana" not in text
    await play_hand(h, players, 3)
    r = await h.command(players[2][0], "leaderboard", game="filicau", where="everywhere",
                        channel_id=players[2][1])
    assert "Tisch fee" in r.message.embeds[0]["description"]
    # Too long: capped; a right-to-left override stays between isolates.
    r = await h.command(ana, "crossplay name", name="\u202e" + "y" * 60)
    assert r.text == t("ok.table_name", name="\u2068\u202e" + "y" * 30 + "…\u2069")
    assert await h.bot.store.table_name(ana.id) == "\u202e" + "y" * 30 + "…"
    # Cleared: her Discord name from the next table on (and in the queue at once).
    r = await h.command(ana, "crossplay name")
    assert r.text == t("ok.table_name_cleared", name="Ana")
    assert await h.bot.store.table_name(ana.id) is None
    h.check_clean()


# -- /tables: open tables across servers ----------------------------------------------------


async def test_tables_lists_a_free_seat_across_servers_and_its_join_seats_a_new_venue(
        h: Harness) -> None:
    """Dan leaves between hands: Eve, of a fifth server that plays across servers, finds
    the table in ``/tables`` (nothing of its home server named) and joins from her own
    channel, which shows the table from then on; she opens her hand there. Nobody of a
    server that does not play across servers, nobody barred and nobody in a block with a
    seated player is offered the table, and a forged Join of theirs seats nobody."""
    players = await servers_on(h, ("ana", "bob", "cid", "dan", "eve"))
    table_players, (eve, eve_channel) = players[:4], players[4]
    await queue_all(h, table_players)
    [table] = list(h.tables)
    s = table.session
    await play_hand(h, table_players, 3)
    dan, dan_channel = table_players[3]
    r = await h.press(dan, t("btn.leave"), message=table_in(h, dan_channel))
    assert s.seats.count(None) == 1 and dan.member not in s.seats
    # Eve sees it beside her server's own tables (none), and no channel of another server.
    r = await h.command(eve, "tables", channel_id=eve_channel)
    [embed] = r.message.embeds
    assert r.ephemeral and t("tables.line_across", number=1, game=t("game.filicau"),
                             taken=3, seats=4, state=t("tables.between"),
                             free=t("tables.free", count=1)) == embed["description"]
    assert "<#" not in embed["description"]
    listed = r.message
    # Not offered: a server that does not play across servers; a barred player; a player
    # Ana blocked. A forged Join of the blocked one is refused and seats nobody.
    guild_id, zed_channel = h.guild(6)  # never opted in
    zed = h.user("zed", guild=guild_id)
    r = await h.command(zed, "tables", channel_id=zed_channel)
    assert r.message.embeds[0]["description"] == t("tables.none")
    yan = h.user("yan", guild=eve.guild_id)
    r = await h.command(yan, "tables", channel_id=eve_channel)
    stale = r.message
    await h.bot.store.block(table_players[0][0].id, yan.id)
    r = await h.command(yan, "tables", channel_id=eve_channel)
    assert r.message.embeds[0]["description"] == t("tables.none")
    r = await h.press(yan, t("btn.take", number=1), message=stale)
    assert r.rejected_with(t("err.crossplay_blocked"))
    assert s.seats.count(None) == 1
    xi = h.user("xi", guild=eve.guild_id)
    await h.bot.store.bar(xi.id, by=1)
    r = await h.command(xi, "tables", channel_id=eve_channel)
    assert r.message.embeds[0]["description"] == t("tables.none")
    # Eve joins: seated, and her channel shows the table, named as names.
    r = await h.press(eve, t("btn.take", number=1), message=listed)
    assert eve.member in s.seats
    await h.settle()
    mine = table_in(h, eve_channel)
    assert str(mine.id) in r.text
    assert "Eve" in mine.text and "Ana" in mine.text and "<@" not in mine.text
    assert any("Eve" in table_in(h, c).text for _, c in table_players[:3])
    r = await h.press(eve, t("btn.my_hand"), message=mine)
    assert r.ephemeral and r.channel_id == eve_channel
    # Between hands, her channel offers Next hand as every other does, and hers deals it:
    # every channel's result stops offering it.
    number = s.hand_number
    r = await h.press(eve, t("btn.next_hand"), message=result_in(h, eve_channel))
    await h.settle()
    assert s.hand_number == number + 1 and s.state == "playing"
    for _, channel_id in (*table_players[:3], (eve, eve_channel)):
        assert not [m for m in h.public(channel_id)
                    if t("btn.next_hand") in [b.get("label") for b in m.buttons]]
    # No free seat left: the table is no longer listed.
    r = await h.command(h.user("ivy", guild=eve.guild_id), "tables", channel_id=eve_channel)
    assert r.message.embeds[0]["description"] == t("tables.none")
    # After a restart, Eve's channel still shows the table, and her hand is hers.
    await h.restart()
    r = await h.press(eve, t("btn.my_hand"), message=table_in(h, eve_channel))
    assert r.ephemeral and r.channel_id == eve_channel
    h.check_clean()


# -- the ladder's pages, in Discord and on the web ------------------------------------------


async def ladder_of(store: object, players: int) -> list[str]:
    """``players`` people rated on the ladder of Filicău, the best first, each with the
    name they showed at tables across servers."""
    from bot.store import RatingRow
    names = []
    for i in range(players):
        user = 910_000 + i
        names.append(f"Spieler{i:02d}")
        await store.put_table_name(user, None, names[-1])  # type: ignore[attr-defined]
        await store.save_ratings([RatingRow(  # type: ignore[attr-defined]
            guild_id=EVERYWHERE, game="filicau", season=1, player=str(user), mu=40.0 - i,
            sigma=2.0, hands=10, updated_at="2026-12-01T10:00:00+00:00")], [])
    return names


async def test_the_ladder_turns_its_pages_as_a_servers_leaderboard_does(h: Harness) -> None:
    names = await ladder_of(h.bot.store, 12)
    ana = h.user("ana")
    r = await h.command(ana, "leaderboard", game="filicau", where="everywhere")
    [embed] = r.message.embeds
    assert embed["footer"]["text"] == t("leaderboard.footer", page=1, pages=2)
    assert names[9] in embed["description"] and names[10] not in embed["description"]
    r = await h.press(ana, "▶", message=r.message)
    [embed] = r.message.embeds
    assert embed["title"] == t("leaderboard.ladder_title", game=t("game.filicau"), season=1)
    assert names[10] in embed["description"] and names[0] not in embed["description"]
    assert "<@" not in embed["description"]
    r = await h.command(ana, "leaderboard", game="filicau", where="everywhere", season=2)
    assert r.ephemeral and r.text == t("err.no_season", season=2, last=1)
    h.check_clean()


async def test_with_pictures_on_the_ladder_shows_its_top_ten_by_their_table_names(
        h: Harness, top_drawn: TopDrawn) -> None:  # noqa: F811
    names = await ladder_of(h.bot.store, 12)
    await h.command(h.user("mia", manager=True), "admin pictures", mode="on")
    ana = h.user("ana")
    r = await h.command(ana, "leaderboard", game="filicau", where="everywhere")
    assert not r.ephemeral
    [(name, data)] = r.message.files
    assert name == "top.png" and data.startswith(b"\x89PNG")
    assert r.message.embeds[0]["image"]["url"] == "attachment://top.png"
    assert names[0] in r.message.embeds[0]["description"]
    *rows, labels = top_drawn[digest(data)]
    assert [row.name for row in rows] == names[:10]
    assert labels.title == t("leaderboard.ladder_title", game=t("game.filicau"), season=1)
    r = await h.press(ana, "▶", message=r.message)
    assert r.message.embeds[0]["image"]["url"] == "attachment://top.png"
    assert names[11] in r.message.embeds[0]["description"]
    h.check_clean()
