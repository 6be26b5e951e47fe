"""A real Prometheus scrapes the real bot: Debian's ``prometheus`` server with the documented
configuration (``deploy/prometheus.yml``), the bot (``python -m bot`` with ``METRICS_PORT``)
playing a table against the local Discord stand-in, and the figures read back through
Prometheus's HTTP API (``/api/v1/query``) while the hand plays — what a dashboard would show,
not only the text page.

Prometheus scrapes every 200 ms; each figure is polled through the API until it reads what
the stand-in saw happen, within a deadline (a loaded machine scrapes late, never wrong).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from standin import BotProcess, Player, StandIn
from standin.game import Table
from standin.process import free_port

try:
    from tests.test_metrics_dashboard import panel_queries
except ImportError:  # plain `pytest`, where tests/ itself is on sys.path
    from test_metrics_dashboard import panel_queries  # type: ignore[no-redef,import-not-found,unused-ignore]

#: Seconds a figure may take to reach Prometheus (scraped every 200 ms; a loaded CI machine
#: is slow to start Prometheus and the bot).
DEADLINE = 60.0

Vector = list[tuple[dict[str, str], float]]

#: The scrape configuration docs/setup.md shows, and the target it names.
CONFIG = Path(__file__).resolve().parents[1] / "deploy" / "prometheus.yml"
DOCUMENTED_TARGET = "127.0.0.1:9108"


class Prometheus:
    """Debian's Prometheus server, scraping one target, with its data in a scratch folder."""

    def __init__(self, folder: Path, target: str) -> None:
        self.port = free_port()
        self.folder = folder
        # The documented configuration, scraping faster, at this test's port.
        documented = CONFIG.read_text(encoding="utf-8")
        assert "scrape_interval: 15s" in documented and DOCUMENTED_TARGET in documented
        config = folder / "prometheus.yml"
        config.write_text(documented.replace(
            "scrape_interval: 15s", "scrape_interval: 200ms\n  scrape_timeout: 200ms").replace(
            DOCUMENTED_TARGET, target), encoding="utf-8")
        self.args = [shutil.which("prometheus") or "prometheus", f"--config.file={config}",
                     f"--storage.tsdb.path={folder / 'data'}",
                     f"--web.listen-address=127.0.0.1:{self.port}"]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with open(self.folder / "prometheus.log", "wb") as log:
            self.proc = subprocess.Popen(self.args, stdin=subprocess.DEVNULL, stdout=log,
                                         stderr=subprocess.STDOUT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def log(self) -> str:
        return (self.folder / "prometheus.log").read_text(encoding="utf-8", errors="replace")

    def _get(self, path: str) -> Any:
        url = f"http://127.0.0.1:{self.port}{path}"
        with urllib.request.urlopen(url, timeout=5) as r:
            return json.loads(r.read())

    async def query(self, expr: str) -> Vector:
        """An instant query through the HTTP API: each series' labels and value."""
        try:
            answer = await asyncio.to_thread(
                self._get, "/api/v1/query?" + urllib.parse.urlencode({"query": expr}))
        except OSError:  # not listening yet
            return []
        assert answer["status"] == "success", answer
        return [(r["metric"], float(r["value"][1])) for r in answer["data"]["result"]]

    async def until(self, expr: str, good: Callable[[Vector], bool], what: str) -> Vector:
        """Poll ``expr`` until its answer is ``good``, within the deadline."""
        deadline = time.monotonic() + DEADLINE
        last: Vector = []
        while time.monotonic() < deadline:
            assert self.proc is not None and self.proc.poll() is None, self.log()[-2000:]
            last = await self.query(expr)
            if good(last):
                return last
            await asyncio.sleep(0.1)  # the poll's pace, not a wait for something
        raise AssertionError(f"{what}: {expr} answered {last}")

    async def one(self, expr: str, good: Callable[[float], bool], what: str) -> float:
        """A query of one series, polled until its value is ``good``."""
        [(_, found)] = await self.until(expr, lambda v: len(v) == 1 and good(v[0][1]), what)
        return found


@contextlib.asynccontextmanager
async def scraping(folder: Path, target: str) -> AsyncIterator[Prometheus]:
    prometheus = Prometheus(folder, target)
    prometheus.start()
    try:
        yield prometheus
    finally:
        prometheus.stop()


@pytest.mark.slow
async def test_prometheus_reads_the_figures_of_a_table_in_play(tmp_path: Path) -> None:
    assert shutil.which("prometheus"), "Debian's prometheus (README: apt-get install prometheus)"
    standin = StandIn(channels=1)
    await standin.start()
    port = free_port()
    bot = BotProcess(standin, tmp_path / "bot.sqlite3", tmp_path / "bot.log")
    bot.env.update(METRICS_PORT=str(port), METRICS_HOST="127.0.0.1", AI_PROCESSES="1")
    try:
        await bot.start()
        async with scraping(tmp_path, f"127.0.0.1:{port}") as prometheus:
            await prometheus.one('up{job="filicau"}', lambda v: v == 1, "the bot scraped")
            ana = Player(standin, "ana", channel_id=standin.channel_ids[0])
            table = Table(standin, [ana], seed=3)
            await table.open(ana, [(ana, 0)], game="filicau", computers=3)
            await table.start(ana)
            await table.play_hand(1, moves=2)
            # Mid-hand: the computers have played, and it is ana's turn again.
            await standin.wait_for(lambda: table.to_act() is not None, DEADLINE, "ana's turn")
            answered = [i for i in standin.interactions.values() if i.answered_at is not None]
            calls = len(standin.calls)

            # 1, 2: one table open, its hand in play, this process's shard on the series.
            [(labels, _)] = await prometheus.until(
                'filicau_tables_open{game="filicau"}', lambda v: len(v) == 1 and v[0][1] == 1,
                "the open table")
            assert labels["shard"] == "0"
            await prometheus.one('filicau_hands_in_play{game="filicau"}', lambda v: v == 1,
                                 "the hand in play")
            # 3, 4: every interaction ana sent, and each one's answer time.
            await prometheus.one("sum(filicau_interactions_total)",
                                 lambda v: v == len(standin.interactions), "the interactions")
            await prometheus.one("sum(filicau_interaction_answer_seconds_count)",
                                 lambda v: v == len(answered), "the answers timed")
            # Within Discord's 3 s: no answer was late.
            await prometheus.one(
                'sum(filicau_interaction_answer_seconds_bucket{le="3.0"})',
                lambda v: v == len(answered), "the answers within 3 s")
            # 5, 6: the REST requests the stand-in answered, and those made with the bot's
            # token (the global budget's).
            await prometheus.one("sum(filicau_discord_requests_total)",
                                 lambda v: v >= calls, "the REST requests")
            await prometheus.one(
                "sum(filicau_discord_global_limited_requests_total)",
                lambda v: v >= sum(c.global_limited for c in standin.calls[:calls]) > 0,
                "the requests against the global limit")
            routes = await prometheus.until(
                'filicau_discord_requests_total{route="/interactions/{id}/{token}/callback"}',
                lambda v: bool(v), "the interaction callbacks' route")
            assert {r["status"] for r, _ in routes} <= {"200", "204"}
            # 7: the store's calls, timed: every move stored, ana's and the computers'.
            await prometheus.one('filicau_store_query_seconds_count{op="append_action"}',
                                 lambda v: v >= len(table.moves) + 3, "the moves stored")
            # 8: the computers' decisions, timed, and their queue empty while ana thinks.
            await prometheus.one("sum(filicau_ai_decision_seconds_count)", lambda v: v >= 3,
                                 "the computers' decisions")
            await prometheus.one("filicau_ai_queue", lambda v: v == 0, "the empty queue")
            # 9: the gateway drops; the bot connects again and the reconnect is counted.
            before = standin.identifies
            assert standin.connection is not None
            await standin.connection.ws.close(code=4000, message=b"gone")
            await standin.wait_for(lambda: standin.identifies > before, DEADLINE,
                                   "the bot to connect again")
            await prometheus.one('filicau_gateway_reconnects_total{how="new_session"}',
                                 lambda v: v == 1, "the reconnect")
            await prometheus.one("filicau_gateway_disconnects_total", lambda v: v >= 1,
                                 "the disconnect")
            # Every panel of the Grafana dashboard has something to draw (its variables as
            # Grafana would fill them: all shards, a rate over a minute).
            for title, expr in panel_queries():
                query = expr.replace("$shard", ".*").replace("$__rate_interval", "1m")
                await prometheus.until(query, lambda v: bool(v), f"the panel {title!r}")
            # The table plays on after it.
            assert await table.play_hand(1, moves=1) is None
        assert await bot.stop() == 0
        assert bot.errors() == [], bot.log()[-3000:]
    finally:
        await bot.stop()
        await standin.stop()
    assert not standin.problems, standin.problems
