"""/leaderboard, /profile and /admin season start, through the fake Discord."""

from __future__ import annotations

import random
import sys
import threading
from typing import Any

import pytest
from fake_discord import (
    CHANNEL_MESSAGE,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    UPDATE_MESSAGE,
    Harness,
    Picture,
    User,
)
from test_cogs import one_human, play_until

from bot import ratings
from bot.pictures import digest
from bot.store import ResultRow, Store, canonical
from bot.texts import t

PLAYERS = [str(700_000_000_000_200_000 + i) for i in range(24)]


@pytest.fixture(autouse=True)
def charts_are_known(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness checks every picture is one the bot drew: note the rating charts (in the
    cog's module as the bot loaded it: an extension is a module object of its own)."""
    cog = sys.modules["cogs.ratings"]
    draw = cog.rating_chart

    def noted(*args: Any, **kwargs: Any) -> bytes:
        data = draw(*args, **kwargs)
        h.pictures[digest(data)] = Picture(
            "chart", frozenset(), "dark",
            threading.current_thread() is not threading.main_thread())
        return data

    monkeypatch.setattr(cog, "rating_chart", noted)


#: The rows each top-ten picture was drawn from, by the picture's digest.
TopDrawn = dict[str, list[Any]]


@pytest.fixture(autouse=True)
def top_drawn(h: Harness, monkeypatch: pytest.MonkeyPatch) -> TopDrawn:
    """The top-ten pictures the bot drew, noted like the rating charts, with their data."""
    cog = sys.modules["cogs.ratings"]
    draw = cog.top_chart
    drawn: TopDrawn = {}

    def noted(rows: Any, labels: Any) -> bytes:
        data = draw(rows, labels)
        h.pictures[digest(data)] = Picture(
            "top", frozenset(), "dark",
            threading.current_thread() is not threading.main_thread())
        drawn[digest(data)] = [*rows, labels]
        return data

    monkeypatch.setattr(cog, "top_chart", noted)
    return drawn


async def rated_hands(store: Store, count: int, players: list[str] = PLAYERS) -> None:
    """``count`` Filicău hands among ``players``, four at a time; the first pair of each
    four wins, so earlier players in a group rise."""
    table = await store.create_table(guild_id=GUILD_ID, channel_id=OTHER_CHANNEL_ID,
                                     game="filicau", options={}, opener_id=1, seats=[None] * 4)
    groups = len(players) // 4
    for n in range(count):
        four = players[4 * (n % groups):4 * (n % groups) + 4]
        hand_id = await store.start_hand(table.id, n + 1, {})
        a, b, _ = canonical(four[:2], four[2:])
        row = ResultRow(
            hand_id=hand_id, guild_id=GUILD_ID, game="filicau", team_a=a, team_b=b,
            points_a=6, points_b=2, masters_before=None,
            masters_after="a" if a == sorted(four[:2]) else "b", event="masters",
            event_team="a", finished_at=f"2026-01-01T12:{n // 60:02d}:{n % 60:02d}+00:00",
            members=[a[0], b[0], a[1], b[1]])
        await store.add_result(row)
        await ratings.record(store, row)


async def test_a_hand_played_at_the_table_is_rated(h: Harness) -> None:
    session, ana = await one_human(h, seed=4)
    await play_until(h, session, [ana], random.Random(4))
    rows = {r.player: r for r in await h.bot.store.ratings(  # type: ignore[union-attr]
        GUILD_ID, "filicau", 1)}
    assert ana.member in rows and rows[ana.member].hands == 1
    assert {p for p in rows if p.startswith("cpu:")} == {
        "cpu:" + ratings.player_of(m).split(":")[1] for m in session.seats[1:]
        if m is not None}
    r = await h.command(ana, "leaderboard", game="filicau")
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    assert ana.mention in r.text
    assert r.message.embeds[0]["title"] == t("leaderboard.title", game="Filicău", season=1)


async def test_the_leaderboard_ranks_by_the_conservative_rating_in_pages(h: Harness) -> None:
    store = h.bot.store  # type: ignore[union-attr]
    await rated_hands(store, 48)
    r = await h.command(h.user("ana"), "leaderboard", game="filicau")
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    embed = r.message.embeds[0]
    lines = embed["description"].split("\n")
    assert len(lines) == 10 and lines[0].startswith("**1.** ")
    assert embed["footer"]["text"] == t("leaderboard.footer", page=1, pages=3)
    ranked = [float(line.split("**")[3]) for line in lines]
    assert ranked == sorted(ranked, reverse=True)
    # The winners of every group are above every loser.
    expected = sorted(await store.ratings(GUILD_ID, "filicau", 1),
                      key=lambda x: x.mu - 3 * x.sigma, reverse=True)
    assert [f"<@{x.player}>" for x in expected[:10]] == [line.split(" ")[1] for line in lines]
    assert all(x.mu > 25 for x in expected[:12]) and all(x.mu < 25 for x in expected[12:])
    assert all(t("n.hands", count=8) in line for line in lines)

    nxt = r.message.button("fc:board:0:filicau:1:2")
    prev = r.message.button("fc:board:0:filicau:1:0")
    assert nxt is not None and not nxt.get("disabled")
    assert prev is not None and prev.get("disabled")
    p2 = await h.click(h.user("bob"), "fc:board:0:filicau:1:2", message=r.message)
    assert p2.type == UPDATE_MESSAGE
    lines2 = p2.message.embeds[0]["description"].split("\n")
    assert lines2[0].startswith("**11.** ")
    assert [f"<@{x.player}>" for x in expected[10:20]] == [ln.split(" ")[1] for ln in lines2]
    p3 = await h.click(h.user("bob"), "fc:board:0:filicau:1:3", message=p2.message)
    assert p3.message.embeds[0]["description"].count("\n") == 3  # players 21 to 24
    assert p3.message.button("fc:board:0:filicau:1:4").get("disabled")


async def test_with_pictures_on_the_leaderboard_shows_the_top_ten_as_the_text_ranks_them(
        h: Harness, top_drawn: TopDrawn) -> None:
    """Pictures on: the board comes with a picture of its first ten lines, drawn in a worker
    thread, each player named as Discord shows them (their display name); the ranking and
    the ratings in it are the text's. Turning the page keeps the picture."""
    store = h.bot.store  # type: ignore[union-attr]
    members = [h.user(f"player{i:02d}") for i in range(12)]
    await rated_hands(store, 24, [u.member for u in members])
    mia = h.user("mia", manager=True)
    await h.command(mia, "admin pictures", mode="on")
    r = await h.command(h.user("ana"), "leaderboard", game="filicau")
    assert not r.ephemeral
    embed = r.message.embeds[0]
    [(name, data)] = r.message.files
    assert name == "top.png" and data.startswith(b"\x89PNG")
    assert embed["image"]["url"] == "attachment://top.png"
    assert h.pictures[digest(data)].in_worker
    *rows, labels = top_drawn[digest(data)]
    assert labels.title == t("chart.top_title", game="Filicău", season=1)
    lines = embed["description"].split("\n")
    assert len(rows) == len(lines) == 10
    by_mention = {u.mention: u for u in members}
    for row, line in zip(rows, lines, strict=True):
        rank, who, rating = line.split(" ")[0], line.split(" ")[1], line.split("**")[3]
        assert rank == f"**{row.rank}.**"
        assert row.name == by_mention[who].name.title()  # the display name (global name)
        assert f"{row.ranked:.1f}" == rating
    assert [row.rank for row in rows] == list(range(1, 11))

    p2 = await h.click(h.user("bob"), "fc:board:0:filicau:1:2", message=r.message)
    assert p2.message.files == r.message.files
    assert p2.message.embeds[0]["image"]["url"] == "attachment://top.png"
    assert p2.message.embeds[0]["description"].startswith("**11.** ")


async def test_with_pictures_off_the_leaderboard_is_text_only(
        h: Harness, top_drawn: TopDrawn) -> None:
    store = h.bot.store  # type: ignore[union-attr]
    members = [h.user(f"player{i:02d}") for i in range(4)]
    await rated_hands(store, 4, [u.member for u in members])
    r = await h.command(h.user("ana"), "leaderboard", game="filicau")
    assert not r.message.files and "image" not in r.message.embeds[0]
    assert not top_drawn
    assert len(r.message.embeds[0]["description"].split("\n")) == 4


async def test_the_top_ten_names_computers_as_the_text_does_and_former_members_plainly(
        h: Harness, top_drawn: TopDrawn) -> None:
    """A computer level is named as in the text (without the emoji the picture's font
    lacks); a rated player who is no longer a member is named as such, in the server's
    language."""
    store = h.bot.store  # type: ignore[union-attr]
    gone = "700000000000299999"  # not a member of the server: Discord answers 404
    await rated_hands(store, 4, [h.user("ana").member, "cpu:hard", gone, "cpu:easy"])
    await h.command(h.user("mia", manager=True), "admin pictures", mode="on")
    r = await h.command(h.user("bob"), "leaderboard", game="filicau")
    [(_, data)] = r.message.files
    *rows, _ = top_drawn[digest(data)]
    names = {row.name for row in rows}
    assert {"Ana", t("chart.unknown_member")} < names
    assert t("lobby.computer_named", name=t("lobby.computer"), level=t("level.hard")) in names
    assert t("lobby.computer_named", name=t("lobby.computer"), level=t("level.hard")) in r.text


async def test_an_empty_leaderboard_and_an_unknown_season(h: Harness) -> None:
    ana = h.user("ana")
    r = await h.command(ana, "leaderboard", game="filko")
    assert t("leaderboard.none") in r.text and not r.message.buttons
    r = await h.command(ana, "leaderboard", game="filko", season=4)
    assert r.rejected_with(t("err.no_season", season=4, last=1))


async def test_a_new_season_starts_fresh_and_the_old_one_stays(h: Harness) -> None:
    store = h.bot.store  # type: ignore[union-attr]
    await rated_hands(store, 4, PLAYERS[:4])
    mia = h.user("mia", manager=True)
    r = await h.command(h.user("ana"), "admin season start")
    assert r.rejected_with(t("err.need_manage_server"))
    r = await h.command(mia, "admin season start")
    assert r.ephemeral and r.message.content == t("ok.season_started", season=2, old=1)
    r = await h.command(mia, "leaderboard", game="filicau")
    assert r.message.embeds[0]["title"] == t("leaderboard.title", game="Filicău", season=2)
    assert t("leaderboard.none") in r.text
    r = await h.command(mia, "leaderboard", game="filicau", season=1)
    # Season 1 is still there: the two winners of its hands on top.
    lines = r.message.embeds[0]["description"].split("\n")
    assert len(lines) == 4
    assert {ln.split(" ")[1] for ln in lines[:2]} == {f"<@{p}>" for p in PLAYERS[:2]}


async def test_a_profile_shows_rating_chart_status_and_best_partner(h: Harness) -> None:
    store = h.bot.store  # type: ignore[union-attr]
    await rated_hands(store, 24, PLAYERS[:8])
    ana = h.user("ana")
    who = PLAYERS[0]
    r = await h.command(ana, "profile", user=User(int(who), "pia"), game="filicau")
    assert r.ephemeral
    embed = r.message.embeds[0]
    mine = next(x for x in await store.ratings(GUILD_ID, "filicau", 1) if x.player == who)
    assert f"**{mine.mu - 3 * mine.sigma:.1f}**" in embed["description"]
    assert t("n.hands", count=12) in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields[t("profile.status")].startswith(t("n.hands", count=12) + " · "
                                                  + t("n.became_masters", count=12))
    assert fields[t("profile.partner")] == t(
        "profile.partner_line", partner=f"<@{PLAYERS[1]}>", won=12,
        hands=t("n.hands", count=12))
    [(name, data)] = r.message.files
    assert name == "rating.png" and data.startswith(b"\x89PNG")
    assert embed["image"]["url"] == "attachment://rating.png"


async def test_a_profile_without_rated_hands(h: Harness) -> None:
    ana = h.user("ana")
    r = await h.command(ana, "profile")
    assert r.ephemeral
    assert r.message.embeds[0]["description"] == t("profile.unrated", game="Filicău", season=1)
    assert not r.message.files



async def test_names_looked_up_for_the_top_ten_do_not_pile_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that runs for months shows many members on its boards: the names it keeps are
    dropped once stale, past a bound, so its memory stays flat."""
    import asyncio
    import types

    from bot import members

    monkeypatch.setattr(members, "NAMES_KEPT", 3)
    names = members.MemberNames()
    guild = types.SimpleNamespace(
        id=1, get_member=lambda uid: types.SimpleNamespace(display_name=f"m{uid}"))
    clock = asyncio.get_running_loop().time()
    for uid in range(3):  # looked up long ago
        names.kept[(1, str(uid))] = (f"m{uid}", clock - 2 * members.NAME_SECONDS)
    assert await names.display_name(guild, "7") == "m7"  # type: ignore[arg-type]
    assert list(names.kept) == [(1, "7")]
    assert await names.display_name(guild, "8") == "m8"  # type: ignore[arg-type]
    assert set(names.kept) == {(1, "7"), (1, "8")}  # fresh ones stay
