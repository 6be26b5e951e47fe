"""``python -m bot.web``: the web pages against a table that plays by itself, no Discord needed.

Opens a store (a new SQLite file in a temporary folder, or ``--database``), seats named
people at a table (``--game``), serves the pages on ``--host``:``--port``, prints the links
of the live table, the leaderboard and each finished hand's replay, and plays a move every
``--delay`` seconds until stopped (Ctrl-C) or ``--hands`` hands are over.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.store import SqliteStore
from bot.watch import WATCH_MODES, check_watch
from bot.web import demo
from bot.web.server import WebServer
from engine.rules import GAMES


@dataclass
class DemoSettings:
    web_url: str
    web_host: str
    web_port: int
    database_url: str | None = None


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="filicau-web-"))
    store = SqliteStore(Path(args.database) if args.database else folder / "demo.sqlite3")
    await store.open()
    settings = DemoSettings(f"http://{args.host}:{args.port}", args.host, args.port)
    server = WebServer(settings, store)
    await server.start()
    try:
        session = await demo.open_table(store, game=args.game, watch=check_watch(args.watch))
        await server.feed.changed(session.id)
        print(f"table, live:  {await server.table_link(1, session.id)}", flush=True)
        print(f"leaderboard:  {await server.board_link(1, args.game)}", flush=True)
        hands = 0
        while args.hands == 0 or hands < args.hands:
            while await demo.move(session, server.feed, deadline_seconds=args.delay):
                await asyncio.sleep(args.delay)
            hands += 1
            assert session.hand_id is not None
            print(f"hand {session.hand_number}, replay: "
                  f"{await server.hand_link(1, session.hand_id)}", flush=True)
            if args.hands and hands >= args.hands:
                break
            await asyncio.sleep(args.delay * 3)
            await demo.next_hand(session, server.feed)
        if args.stay:
            await asyncio.Event().wait()
    finally:
        await server.stop()
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.web", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--game", default="filicau", choices=sorted(GAMES))
    parser.add_argument("--watch", default="public", choices=WATCH_MODES)
    parser.add_argument("--delay", type=float, default=1.5, help="seconds between moves")
    parser.add_argument("--hands", type=int, default=0, help="stop after this many (0: never)")
    parser.add_argument("--stay", action="store_true",
                        help="keep serving the pages after the last hand")
    parser.add_argument("--database", help="an SQLite file (default: a new one)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
