"""Leagues in the bot, on both databases: a manager starts the server's monthly league with
``/league start``, players read ``/league standings`` and ``/league join``, the month-end
task closes the month on a clock the test sets (no waiting), promotion and relegation show
in the next month's table, and the leaderboard page shows the league's table."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from fake_discord import CHANNEL_MESSAGE, GUILD_ID, Harness, running
from league_helpers import Clock, hand
from web_helpers import path_of

from bot.leagues.months import Month
from bot.texts import t

GAME = "schafkopf"
TITLE = "Bavarian Schafkopf"


@pytest.fixture
async def hw(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             database_url: str | None) -> AsyncIterator[Harness]:
    """The bot with its web pages, on each store."""
    async with running(tmp_path / "bot.sqlite3", monkeypatch, database_url=database_url,
                       web=True) as harness:
        yield harness


class Hands:
    """Hands stored as the bot stores them (a table of people, a hand, its result)."""

    def __init__(self, h: Harness) -> None:
        self.store: Any = h.bot.store  # type: ignore[union-attr]
        self.channels = itertools.count(850_000_000_000_000_001)

    async def won(self, winners: list[str], losers: list[str], at: str) -> None:
        table = await self.store.create_table(
            guild_id=GUILD_ID, channel_id=next(self.channels), game=GAME, options={},
            opener_id=1, seats=[*winners, *losers], settings={})
        hand_id = await self.store.start_hand(table.id, 1, {})
        await self.store.add_result(hand(winners, losers, at, guild=GUILD_ID,
                                         hand_id=hand_id))


def division_fields(embed: dict[str, Any]) -> dict[str, list[str]]:
    return {f["name"]: f["value"].splitlines() for f in embed["fields"]}


async def test_a_league_runs_through_a_month_on_a_set_clock(hw: Harness) -> None:
    h = hw
    assert h.bot is not None and h.bot.web is not None
    clock = Clock("2026-03-05T12:00:00+00:00")
    cog: Any = h.bot.get_cog("Leagues")
    cog.clock = lambda: clock.now
    mia = h.user("mia", manager=True)
    ana = h.user("ana")
    players = [h.user(f"p{i}") for i in range(1, 9)]
    ids = [p.member for p in players]

    r = await h.command(ana, "league standings", game=GAME)
    assert r.rejected_with(t("league.none", game=TITLE))
    r = await h.command(ana, "league start", game=GAME)
    assert r.rejected_with(t("err.need_manage_server"))
    r = await h.command(mia, "league start", game=GAME, division_size=4, min_hands=2,
                        up_and_down=1)
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    assert r.text == t("league.started", game=TITLE, month="2026-03", size=4, min_hands=2,
                       movers=1)
    r = await h.command(mia, "league start", game=GAME)
    assert r.rejected_with(t("league.exists", game=TITLE))

    # March: p1..p4 join first (division 1), p5..p8 after (division 2). In division 2, p8
    # wins every hand; in division 1, p1 loses every hand; p4 plays one hand only.
    stored = Hands(h)
    day = itertools.count(6)
    await stored.won([ids[1], ids[2]], [ids[0], ids[3]], f"2026-03-{next(day):02d}T20:00:00Z")
    for _ in range(2):
        await stored.won([ids[1], ids[2]], [ids[0], ids[4]], f"2026-03-{next(day):02d}T20:00Z")
    for _ in range(2):
        await stored.won([ids[7], ids[6]], [ids[5], ids[4]], f"2026-03-{next(day):02d}T20:00Z")
    await stored.won([ids[7], ids[5]], [ids[6], ids[4]], "2026-03-31T23:59:59Z")
    clock.set("2026-03-31T23:59:59.5+00:00")
    assert await cog.month_end.tick() == []  # the month has not ended

    r = await h.command(ana, "league standings", game=GAME)
    assert r.ephemeral
    embed = r.message.embeds[0]
    assert embed["title"] == t("league.title", game=TITLE, month="2026-03")
    fields = division_fields(embed)
    one, two = fields[t("league.division", number=1)], fields[t("league.division", number=2)]
    # Division 1: p2 and p3 won their 3 hands, p1 lost his, p4 is short of the minimum:
    # last, and so the one to go down if the month ended now.
    assert [line.split(" ")[0] for line in one] == ["＝", "＝", "＝", "▼"]
    assert players[1].mention in "".join(one[:2]) and players[2].mention in "".join(one[:2])
    assert one[2] == t("league.line", place=3, player=players[0].mention, points=0, hands=3,
                       share="0 %", arrow="＝")
    assert one[3] == t("league.line", place=4, player=players[3].mention, points=0, hands=1,
                       share="0 %", arrow="▼") + " " + t("league.short")
    assert two[0] == t("league.line", place=1, player=players[7].mention, points=3,
                       hands=3, share="100 %", arrow="▲")
    r = await h.command(players[3], "league join", game=GAME)
    assert r.text == t("league.join_in", game=TITLE, division=1, place=4, hands=1,
                       min_hands=2)
    r = await h.command(ana, "league join", game=GAME)
    assert r.text == t("league.join_how", game=TITLE, min_hands=2)

    # The month ends: the task closes it once, however often it runs.
    clock.set("2026-04-01T00:00:00.5+00:00")
    [(scope, game, march)] = await cog.month_end.tick()
    assert (scope, game, march.month) == (GUILD_ID, GAME, Month(2026, 3))
    assert await cog.month_end.tick() == []
    assert cog.month_end.wait() == 3600.0
    ended = {s.player: s.move for d in march.divisions for s in d.standings}
    assert ended[ids[7]] == "up" and [p for p, m in ended.items() if m == "down"] == [ids[3]]

    r = await h.command(ana, "league standings", game=GAME)
    embed = r.message.embeds[0]
    assert embed["title"] == t("league.title", game=TITLE, month="2026-04")
    # p8 went up and p4 down: April's table begins with them swapped, nobody ranked yet.
    fields = division_fields(embed)
    one, two = fields[t("league.division", number=1)], fields[t("league.division", number=2)]
    assert players[7].mention in "".join(one) and players[3].mention in "".join(two)
    assert all(line.endswith(t("league.short")) for line in one + two)

    await stored.won([ids[7], ids[0]], [ids[1], ids[2]], "2026-04-02T20:00:00Z")
    r = await h.command(players[7], "league join", game=GAME)
    assert r.text in {t("league.join_in", game=TITLE, division=1, place=place, hands=1,
                        min_hands=2) for place in range(1, 5)}

    # The leaderboard page shows the month's table, read only.
    link = await h.bot.web.board_link(GUILD_ID, GAME)
    base = f"http://127.0.0.1:{h.bot.web.port}"
    async with aiohttp.ClientSession(base) as client, client.get(path_of(link)) as got:
        page = await got.text()
    assert t("league.title", game=TITLE, month="2026-04") in page
    assert t("league.division", number=1) in page and t("league.short") in page
