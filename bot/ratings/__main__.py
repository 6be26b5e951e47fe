"""``python -m bot.ratings rebuild`` and ``python -m bot.ratings calibrate``."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bot.ratings import calibrate
from bot.ratings.keeping import rebuild
from bot.settings import Settings
from bot.store import SqliteStore
from engine.rules import GAMES


async def _rebuild(path: Path, guild: int | None) -> int:
    store = SqliteStore(path)
    await store.open()
    try:
        return await rebuild(store, guild)
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ratings")
    sub = parser.add_subparsers(dest="command", required=True)
    rb = sub.add_parser("rebuild", help="recompute every rating from the stored results")
    rb.add_argument("--database", type=Path, default=None,
                    help="the SQLite file (default: the bot's DATABASE_PATH)")
    rb.add_argument("--guild", type=int, default=None, help="only this server")
    cal = sub.add_parser("calibrate", help="rate the computer levels from engine hands")
    cal.add_argument("--game", default="filicau",
                     help="a game, several (comma-separated, one after the other) or 'all'")
    cal.add_argument("--hands", type=int, default=300)
    cal.add_argument("--levels", default=",".join(calibrate.LEVELS))
    cal.add_argument("--seed", type=int, default=1)
    cal.add_argument("--workers", type=int, default=1)
    cal.add_argument("--more", action="store_true",
                     help="keep the stored hands of this game (same levels and seed) and "
                          "play only the rest")
    args = parser.parse_args(argv)
    if args.command == "rebuild":
        path = args.database or Settings().database_path
        rated = asyncio.run(_rebuild(path, args.guild))
        print(f"{path}: ratings rebuilt from {rated} rated hands")
        return 0
    levels = [lv for lv in args.levels.split(",") if lv]
    games = list(GAMES) if args.game == "all" else [g for g in args.game.split(",") if g]
    for game in games:
        if game not in GAMES:
            parser.error(f"no game {game!r}")
    for game in games:
        before = calibrate.load(game) if args.more and calibrate.hands_file(game).exists() \
            else []
        if before and json.loads(calibrate.hands_file(game).read_text(
                encoding="utf-8"))["seed"] != args.seed:
            parser.error(f"--more: the stored hands of {game} were played with another seed")
        if any((h.a, h.b) not in calibrate.pairs(levels) for h in before):
            parser.error(f"--more: the stored hands of {game} were played among other levels")
        started = time.perf_counter()
        played = calibrate.play(game, levels, args.hands, args.seed, args.workers,
                                played=before)
        ratings = calibrate.save(game, played, args.seed)
        print(f"{game}: {len(played)} hands among {', '.join(levels)} (seed {args.seed}), "
              f"{time.perf_counter() - started:.0f} s")
        for level, r in sorted(ratings.items(), key=lambda x: -x[1].mu):
            print(f"  {level:8} mu {r.mu:6.2f}  sigma {r.sigma:5.2f}  "
                  f"mu-3sigma {r.conservative:6.2f}", flush=True)
        if calibrate.drifted(ratings):
            print("  the levels drifted together: hands kept, the levels' start is the "
                  "default (see calibrate.DRIFT)", flush=True)
        elif calibrate.undecided(game, played):
            print("  no hand ranked anyone: hands kept, the levels' start is the default "
                  "(see calibrate.undecided)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
