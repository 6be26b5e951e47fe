"""``/metrics``: the figures an operator reads, in Prometheus's text format, as the bot plays.

Fast: the bot against the in-process Discord fake (tables, hands, interactions, the store's
calls), discord.py's HTTP hook against a small local server (routes, statuses, 429s, the
requests that count against the global limit, an interaction's answer time), and the page as
``METRICS_PORT`` serves it. ``tests/test_metrics_prometheus.py`` has a real Prometheus scrape
the real bot.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from fake_discord import Harness, running
from prometheus_client.parser import text_string_to_metric_families

from bot.metrics import Metrics, serve
from bot.settings import SettingsError
from bot.texts import t


def figures(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of a page in the text format, by name and labels (the parser is
    prometheus-client's own: what it reads, Prometheus reads)."""
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(page: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str,
          **labels: str) -> float | None:
    return page.get((name, frozenset(labels.items())))


async def test_the_page_shows_the_table_its_hand_the_clicks_and_the_store(h: Harness) -> None:
    users = [h.user(n) for n in ("ana", "bob", "cid", "dan")]
    await h.command(users[0], "table new", game="filicau")
    for user, label in zip(users, ("btn.join_a", "btn.join_b") * 2, strict=True):
        await h.press(user, t(label))
    bot = h.bot
    assert bot is not None
    page = figures(bot.metrics.page().decode())
    # Open, no hand yet.
    assert value(page, "filicau_tables_open", game="filicau", shard="0") == 1
    assert value(page, "filicau_hands_in_play", game="filicau", shard="0") == 0
    await h.press(users[0], t("btn.start"))
    page = figures(bot.metrics.page().decode())
    assert value(page, "filicau_hands_in_play", game="filicau", shard="0") == 1
    assert value(page, "filicau_interactions_total", kind="application_command",
                 shard="0") == 1
    assert value(page, "filicau_interactions_total", kind="component", shard="0") == 5
    # The hand was stored once, and timed.
    assert value(page, "filicau_store_query_seconds_count", op="start_hand", shard="0") == 1
    # Sockets are shown even when there are none (a panel has a line at 0, not no data).
    assert value(page, "filicau_web_sockets", kind="activity", shard="0") == 0
    assert value(page, "filicau_gateway_reconnects_total", how="resumed", shard="0") == 0
    # An error logged anywhere in the process is counted, by its logger.
    h.expect_error("broken on purpose")
    logging.getLogger("bot.somewhere").error("broken on purpose")
    page = figures(bot.metrics.page().decode())
    assert value(page, "filicau_errors_total", logger="bot.somewhere", shard="0") == 1


async def test_a_watched_tables_socket_is_counted_while_open(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(tmp_path / "bot.sqlite3", monkeypatch, web=True) as h:
        bot = h.bot
        assert bot is not None and bot.web is not None
        users = [h.user(n) for n in ("ana", "bob", "cid", "dan")]
        await h.command(users[0], "table new", game="filicau", watch="public")
        for user, label in zip(users, ("btn.join_a", "btn.join_b") * 2, strict=True):
            await h.press(user, t(label))
        await h.press(users[0], t("btn.start"))
        [url] = [b["url"] for b in h.table_message().buttons
                 if b.get("label") == t("btn.watch") and b.get("url")]
        watch = url.split("127.0.0.1:0", 1)[1]

        def sockets() -> float | None:
            return value(figures(bot.metrics.page().decode()), "filicau_web_sockets",
                         kind="page", shard="0")

        assert sockets() == 0
        base = f"http://127.0.0.1:{bot.web.port}"
        async with aiohttp.ClientSession(base) as client, client.ws_connect("/ws" + watch) as ws:
            await ws.receive_json()  # the hello: the socket has joined the table's feed
            assert sockets() == 1
        await h.until(lambda: sockets() == 0)


class Requests:
    """A small HTTP server answering as Discord's REST API would, for the client hook."""

    def __init__(self) -> None:
        self.app = web.Application()
        self.app.router.add_route("*", "/api/v10/{tail:.*}", self.answer)
        self.runner = web.AppRunner(self.app)
        self.base = ""

    async def answer(self, request: web.Request) -> web.Response:
        if request.path.endswith("/limited"):
            return web.json_response({"message": "You are being rate limited.",
                                      "retry_after": 0.0, "global": True}, status=429,
                                     headers={"X-RateLimit-Scope": "global",
                                              "X-RateLimit-Global": "true"})
        if request.path.endswith("/callback"):
            return web.Response(status=204)
        return web.json_response({}, status=404 if "missing" in request.path else 200)

    async def __aenter__(self) -> Requests:
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        host, port = self.runner.addresses[0][:2]
        self.base = f"http://{host}:{port}/api/v10"
        return self

    async def __aexit__(self, *_: Any) -> None:
        await self.runner.cleanup()


@pytest.fixture
async def rest(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Requests]:
    async with Requests() as server:
        monkeypatch.setattr(discord.http.Route, "BASE", server.base)
        yield server


async def test_rest_requests_are_counted_by_route_and_status_with_429s_and_the_global_budget(
        rest: Requests) -> None:
    metrics = Metrics(shard="2,3", shards=2)
    bot = {"Authorization": "Bot a.b.c"}
    interaction = SimpleNamespace(id=99, type=discord.InteractionType.component)
    metrics.saw("interaction", (interaction,))
    async with aiohttp.ClientSession(trace_configs=[metrics.http_trace()]) as session:
        for path, headers in [("/channels/123/messages", bot), ("/channels/456/messages", bot),
                              ("/channels/1/messages/missing", bot), ("/channels/1/limited", bot),
                              ("/interactions/99/aW50ZXJhY3Rpb24/callback", {}),
                              ("/webhooks/7/aW50ZXJhY3Rpb24/messages/@original", {})]:
            async with session.post(rest.base + path, headers=headers) as r:
                await r.read()
    page = figures(metrics.page().decode())
    shard = {"shard": "2,3"}
    assert value(page, "filicau_discord_requests_total", method="POST", status="200",
                 route="/channels/{id}/messages", **shard) == 2
    assert value(page, "filicau_discord_requests_total", method="POST", status="404",
                 route="/channels/{id}/messages/missing", **shard) == 1
    assert value(page, "filicau_discord_requests_total", method="POST", status="204",
                 route="/interactions/{id}/{token}/callback", **shard) == 1
    assert value(page, "filicau_discord_rate_limited_total", scope="global", **shard) == 1
    # Only the bot token's requests count against the 50 a second; the token routes do not.
    assert value(page, "filicau_discord_global_limited_requests_total", **shard) == 4
    # The interaction was answered, once; its time is in the histogram, within the 3 s.
    assert value(page, "filicau_interaction_answer_seconds_count", kind="component",
                 **shard) == 1
    assert value(page, "filicau_interaction_answer_seconds_bucket", kind="component",
                 le="3.0", **shard) == 1
    # No token reached a label.
    assert "aW50ZXJhY3Rpb24" not in metrics.page().decode()


def test_a_second_session_on_a_shard_is_a_reconnect_and_a_resume_too() -> None:
    metrics = Metrics(shard="0,1", shards=2)
    for event in ("connect", "connect", "disconnect", "resumed", "disconnect", "connect"):
        metrics.saw(event, ())
    page = figures(metrics.page().decode())
    assert value(page, "filicau_gateway_reconnects_total", how="new_session", shard="0,1") == 1
    assert value(page, "filicau_gateway_reconnects_total", how="resumed", shard="0,1") == 1
    assert value(page, "filicau_gateway_disconnects_total", shard="0,1") == 2


async def test_metrics_port_serves_the_text_format() -> None:
    metrics = Metrics()
    with metrics.deciding("hard"):
        pass
    runner = await serve(metrics, "127.0.0.1", 0)
    try:
        host, port = runner.addresses[0][:2]
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://{host}:{port}/metrics") as r:
                assert r.status == 200
                assert r.headers["Content-Type"].startswith("text/plain; version=")
                page = figures(await r.text())
            async with session.get(f"http://{host}:{port}/") as r:
                assert r.status == 404  # nothing else is served there
    finally:
        await runner.cleanup()
    assert value(page, "filicau_ai_decision_seconds_count", level="hard", shard="0") == 1
    assert value(page, "filicau_ai_queue", shard="0") == 0


def test_each_shard_process_labels_its_figures_with_its_shards() -> None:
    """Shard processes scraped side by side are told apart by the ``shard`` label; a
    process's first session on each of its shards is no reconnect."""
    from bot.client import FilicauBot
    from bot.settings import Settings

    def process(**shards: object) -> Metrics:
        settings = Settings(discord_token="a.b.c", database_url="postgresql://unused/x",
                            **shards)  # type: ignore[arg-type]
        return FilicauBot(settings).metrics

    for metrics, label, shards in [(process(), "0", 1),
                                   (process(shard_count=4), "0,1,2,3", 4),
                                   (process(shard_count=4, shard_ids="2-3"), "2,3", 2)]:
        for _ in range(shards):
            metrics.saw("connect", ())
        page = figures(metrics.page().decode())
        assert value(page, "filicau_ai_queue", shard=label) == 0
        assert value(page, "filicau_gateway_reconnects_total", how="new_session",
                     shard=label) == 0
        metrics.saw("connect", ())
        page = figures(metrics.page().decode())
        assert value(page, "filicau_gateway_reconnects_total", how="new_session",
                     shard=label) == 1


async def test_a_metrics_port_in_use_is_a_setting_to_change() -> None:
    taken = await serve(Metrics(), "127.0.0.1", 0)
    try:
        host, port = taken.addresses[0][:2]
        with pytest.raises(SettingsError, match=f"METRICS_PORT {port}: cannot listen on "):
            await serve(Metrics(), host, port)
    finally:
        await taken.cleanup()
