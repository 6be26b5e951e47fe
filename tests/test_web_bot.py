"""The web pages of a table played on Discord (issue 35, wired into the bot): the table message
links to its live page, whose socket shows each move made with the buttons, and never a hidden
card; the result links to the hand's replay."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from fake_discord import running
from test_cogs import four_players, hand_of, play_turn
from test_crossplay import four_servers, table_in
from test_web import receive, receive_until
from web_helpers import hidden_cards_in

from bot.texts import t
from engine.cards import code


def link_path(url: str) -> str:
    """A link's path (the links say WEB_URL's port, the server listens on a free one)."""
    return url.split("127.0.0.1:0", 1)[1]


def link_button(message: Any, label: str) -> str:
    [url] = [b["url"] for b in message.buttons if b.get("label") == label and b.get("url")]
    return str(url)


async def test_a_table_played_on_discord_is_watched_and_replayed_on_the_web(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(tmp_path / "bot.sqlite3", monkeypatch, web=True) as h:
        assert h.bot is not None and h.bot.web is not None
        base = f"http://127.0.0.1:{h.bot.web.port}"
        session, users = await four_players(h, watch="public")
        watch = link_path(link_button(h.table_message(), t("btn.watch")))
        received: list[dict[str, Any]] = []
        async with aiohttp.ClientSession(base) as client, client.ws_connect("/ws" + watch) as ws:
            await receive(ws)
            await ws.send_json({"v": 1, "type": "resume", "hand": None, "at": 0})
            received.append(await receive(ws))
            rng = random.Random(5)
            while not hand_of(session).finished:
                await play_turn(h, session, users, rng)
                hand = hand_of(session)
                await receive_until(ws, len(hand.actions), received)
                text = json.dumps(received[-1], ensure_ascii=False)
                assert hidden_cards_in(text, hand) == [], f"a hidden card at {len(hand.actions)}"
            hand = hand_of(session)
            moves = [m["move"] for m in received if m["type"] == "step" and m["move"]]
            assert [m["seat"] for m in moves] == [seat for seat, _ in hand.actions]
            await h.settle()
            replay = link_path(link_button(h.result_post(), t("btn.replay")))
            async with client.get(replay) as r:
                assert r.status == 200
                page = await r.text()
            # The hand is over: its replay shows every trick, the first one's cards included.
            assert all(f'"{code(c)}"' in page for c in hand.tricks[0].cards)


async def test_a_table_not_to_be_watched_has_no_watch_link(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(tmp_path / "bot.sqlite3", monkeypatch, web=True) as h:
        await four_players(h, watch="off")
        assert t("btn.watch") not in {b.get("label") for b in h.table_message().buttons}


async def test_a_server_keeps_tables_across_servers_off_its_pages_and_its_table_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/admin crossplay watch:off`` in one of four servers at a table across servers: its
    table message stops offering Watch and its link opens on "not open to spectators"; the
    other servers' messages and pages are as before. On again, Watch is back."""
    async with running(tmp_path / "bot.sqlite3", monkeypatch, web=True) as h:
        assert h.bot is not None and h.bot.web is not None
        base = f"http://127.0.0.1:{h.bot.web.port}"
        players = await four_servers(h)
        await h.settle()
        (_, home_channel), (bob, bob_channel) = players[0], players[1]
        links = {c: link_path(link_button(table_in(h, c), t("btn.watch")))
                 for _, c in players}
        boss = h.user("boss1", manager=True, guild=bob.guild_id)
        r = await h.command(boss, "admin crossplay", watch="off", channel_id=bob_channel)
        assert r.ephemeral and r.text.endswith(t("ok.crossplay_unwatched"))
        await h.settle()
        assert t("btn.watch") not in {b.get("label") for b in table_in(h, bob_channel).buttons}
        assert link_path(link_button(table_in(h, home_channel), t("btn.watch"))) \
            == links[home_channel]
        async with aiohttp.ClientSession(base) as client:
            for channel_id, link in links.items():
                async with client.get(link) as page:
                    assert page.status == 200
                    off = t("web.watch_off") in await page.text()
                assert off == (channel_id == bob_channel), channel_id
        # Said again while off; on again, the message offers Watch again.
        r = await h.command(boss, "admin crossplay", channel_id=bob_channel)
        assert r.text.endswith(t("ok.crossplay_unwatched"))
        r = await h.command(boss, "admin crossplay", watch="on", channel_id=bob_channel)
        assert r.text.endswith(t("ok.crossplay_watched"))
        await h.settle()
        assert link_path(link_button(table_in(h, bob_channel), t("btn.watch"))) \
            == links[bob_channel]
