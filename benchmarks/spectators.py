"""Spectators benchmark: many pages watching many tables, and how late each move reaches them.

    python -m benchmarks.spectators                       # 200 spectators on 50 tables, 30 s
    python -m benchmarks.spectators --database postgresql # the same through LISTEN/NOTIFY
    python -m benchmarks.spectators --pages               # first paint and weight of the pages

This process plays ``--tables`` tables of four (``bot.web.demo``: each move stored through
``TableSession.act`` and announced with ``Feed.changed``, as the bot's courier does), a move
every ``--interval`` seconds at each table (spread evenly), and serves the pages
(``bot.web.server``). ``--spectators`` sockets, spread evenly over the tables, watch from a
second process (``--client``), as browsers would, each resuming from its first step. The
delay of a move is the time from the end of its ``Feed.changed`` (the move stored) to the
arrival of its step at a spectator; the report (JSON) gives its percentiles over every
(move, spectator), the moves missed or doubled (both must be 0), and the CPU the serving
process spent. With ``--database postgresql`` the store and the bus are a PostgreSQL
(``pgserver``, as the tests start it), and the pages are served by a **second** web server
with its own store and ``LISTEN`` connection, as another shard process would.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def client(base: str, links: list[str], seconds: float, out: Path) -> None:
    """The spectators: one socket per link; each step's arrival time by (link, hand, at)."""
    arrivals: list[tuple[int, int, int, float]] = []
    doubled = 0

    async def watch(i: int, link: str, session: aiohttp.ClientSession) -> None:
        nonlocal doubled
        seen: set[tuple[int, int]] = set()
        async with session.ws_connect(base + "/ws" + link, heartbeat=30) as ws:
            await ws.send_json({"v": 1, "type": "resume", "hand": None, "at": 0})
            async for msg in ws:
                now = time.time()
                m = json.loads(msg.data)
                if m.get("type") != "step":
                    continue
                key = (m["hand"], m["at"])
                if key in seen:
                    doubled += 1
                seen.add(key)
                if m["move"] is not None:
                    arrivals.append((i, m["hand"], m["at"], now))

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        tasks = [asyncio.create_task(watch(i, link, session)) for i, link in enumerate(links)]
        # Until the player says the moves are over and delivered (it closes our stdin).
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    out.write_text(json.dumps({"arrivals": arrivals, "doubled": doubled}))


@dataclass
class WebSettings:
    web_url: str = "http://127.0.0.1:0"
    web_host: str = "127.0.0.1"
    web_port: int = 0
    database_url: str | None = None


async def serve_and_play(args: argparse.Namespace) -> dict[str, Any]:
    from bot.store import SqliteStore
    from bot.web import demo
    from bot.web.bus import PgBus
    from bot.web.server import WebServer

    folder = Path(tempfile.mkdtemp(prefix="spectators-"))
    cluster = None
    if args.database == "postgresql":
        from pg_server import start_cluster

        from bot.store.postgres import PostgresStore

        cluster, pg = start_cluster()
        url = cluster.url()
        driver_store: Any = PostgresStore(url)
        page_store: Any = PostgresStore(url)
        await driver_store.open()
        await page_store.open()
        driver_bus: Any = PgBus(url)
        await driver_bus.start(lambda _m: None)
        server = WebServer(WebSettings(), page_store, bus=PgBus(url))

        class Courier:
            async def changed(self, table_id: int, deadline: float | None = None) -> None:
                await driver_bus.publish(f"t:{table_id}")

        courier: Any = Courier()
    else:
        driver_store = page_store = SqliteStore(folder / "bench.sqlite3")
        await driver_store.open()
        server = WebServer(WebSettings(), page_store)
        courier = None
    await server.start()
    feed = courier or server.feed
    base = f"http://127.0.0.1:{server.port}"
    tables = [await demo.open_table(driver_store, guild_id=1, channel_id=i + 1, seed=i,
                                    watch="public") for i in range(args.tables)]
    links = []
    for i in range(args.spectators):
        session = tables[i % len(tables)]
        links.append((await server.table_link(1, session.id) or "").split("127.0.0.1:0")[1])
    out = folder / "arrivals.json"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmarks.spectators", "--client", base, "--links",
        json.dumps(links), "--out", str(out), stdin=asyncio.subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[1])
    # The spectators connect, and have their first step, before the moves begin.
    while sum(sub.ready for tf in server.feed.tables.values()
              for sub in tf.subscribers) < args.spectators:
        await asyncio.sleep(0.05)
    moved: dict[tuple[int, int, int], float] = {}
    cpu0, wall0 = _cpu(), time.perf_counter()
    start = time.perf_counter()
    step = args.interval / len(tables)
    k = 0
    while time.perf_counter() - start < args.seconds:
        session = tables[k % len(tables)]
        k += 1
        if session.hand is not None and session.hand.finished:
            await demo.next_hand(session, feed)
        else:
            await demo.move(session, feed)
            assert session.hand is not None and session.hand_id is not None
            moved[(session.id, session.hand_id, len(session.hand.actions))] = time.time()
        delay = start + k * step - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
    cpu, wall = _cpu() - cpu0, time.perf_counter() - wall0
    # Every step is sent once its table's feed has caught up; then the spectators stop.
    while any(tf.busy or tf.wake.is_set() or any(not sub.queue.empty() for sub in tf.subscribers)
              for tf in server.feed.tables.values()):
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)  # what is on the wire arrives
    assert proc.stdin is not None
    proc.stdin.close()
    await proc.wait()
    data = json.loads(out.read_text())
    table_of = [tables[i % len(tables)].id for i in range(args.spectators)]
    delays = []
    missed = 0
    by_spectator: dict[int, set[tuple[int, int]]] = {}
    for i, hand, at, t in data["arrivals"]:
        by_spectator.setdefault(i, set()).add((hand, at))
        when = moved.get((table_of[i], hand, at))
        if when is not None:
            delays.append(t - when)
    for i in range(args.spectators):
        for (table, hand, at) in moved:
            if table == table_of[i] and (hand, at) not in by_spectator.get(i, set()):
                missed += 1
    await server.stop()
    if args.database == "postgresql":
        await driver_bus.stop()
        await driver_store.close()
        await page_store.close()
        if pg is not None:
            pg.cleanup()  # type: ignore[attr-defined]
    else:
        await driver_store.close()
    delays.sort()

    def pct(p: float) -> float:
        return round(1000 * delays[min(len(delays) - 1, int(p * len(delays)))], 1)

    return {
        "database": args.database, "tables": args.tables, "spectators": args.spectators,
        "seconds": args.seconds, "moves": len(moved), "deliveries": len(delays),
        "delay_ms": {"p50": pct(0.50), "p95": pct(0.95), "p99": pct(0.99),
                     "max": round(1000 * delays[-1], 1),
                     "mean": round(1000 * statistics.fmean(delays), 1)},
        "missed": missed, "doubled": data["doubled"],
        "server_cpu_share": round(cpu / wall, 3),
        "cpu_ms_per_delivery": round(1000 * cpu / max(1, len(delays)), 3),
        "note": ("one process plays the tables and serves the pages through a second web "
                 "server with its own store and LISTEN connection" if args.database ==
                 "postgresql" else "one process plays the tables and serves the pages")
                + "; the spectators run in another",
    }


async def pages(runs: int) -> dict[str, Any]:
    """Each page's first contentful paint in Debian's Chromium (median of ``runs`` loads, a
    new page each time, the cache cold) and its weight before card pictures."""
    from playwright.async_api import async_playwright

    from bot.store import SqliteStore
    from bot.web import demo
    from bot.web.server import WebServer

    folder = Path(tempfile.mkdtemp(prefix="pages-"))
    store = SqliteStore(folder / "pages.sqlite3")
    await store.open()
    server = WebServer(WebSettings(), store)
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    session = await demo.open_table(store, watch="public", seed=1)
    while await demo.move(session):
        pass
    hand_id = session.hand_id
    assert hand_id is not None
    await demo.next_hand(session)
    for _ in range(6):
        await demo.move(session)
    links = {"table": await server.table_link(1, session.id),
             "replay": await server.hand_link(1, hand_id),
             "leaderboard": await server.board_link(1, "filicau")}
    out: dict[str, Any] = {}
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run"]
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path="/usr/bin/chromium", args=flags)
        for name, link in links.items():
            url = base + (link or "").split("127.0.0.1:0")[1]
            paints, weight = [], 0
            for _ in range(runs):
                context = await browser.new_context(viewport={"width": 400, "height": 860})
                page = await context.new_page()
                sizes: list[int] = []

                async def on_response(r: Any, sizes: list[int] = sizes) -> None:
                    if "/cards/" not in r.url:
                        sizes.append(len(await r.body()))

                page.on("response", on_response)
                await page.goto(url, wait_until="load")
                fcp = await page.evaluate(
                    "() => new Promise((done) => new PerformanceObserver((l) => done("
                    "l.getEntries().find((e) => e.name === 'first-contentful-paint')"
                    ".startTime)).observe({type: 'paint', buffered: true}))")
                paints.append(fcp)
                weight = sum(sizes)
                await context.close()
            out[name] = {"first_paint_ms": round(statistics.median(paints)),
                         "first_paint_max_ms": round(max(paints)),
                         "bytes_before_card_pictures": weight}
        await browser.close()
    await server.stop()
    await store.close()
    return {"pages": out, "runs": runs, "width": 400}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=1.0,
                        help="seconds between two moves at one table")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--pages", action="store_true",
                        help="measure the pages' first paint and weight instead")
    parser.add_argument("--client", help=argparse.SUPPRESS)
    parser.add_argument("--links", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        asyncio.run(client(args.client, json.loads(args.links), args.seconds, Path(args.out)))
        return
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    if args.pages:
        print(json.dumps(asyncio.run(pages(10)), indent=1))
        return
    print(json.dumps(asyncio.run(serve_and_play(args)), indent=1))


if __name__ == "__main__":
    main()
