"""``python -m bot.ratings rebuild`` and ``python -m bot.ratings calibrate``."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.ratings import calibrate
from bot.ratings.keeping import rebuild
from bot.settings import Settings
from bot.store import SqliteStore


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
    cal.add_argument("--game", default="filicau")
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
    before = calibrate.load(args.game) if args.more else []
    if before and json.loads(calibrate.hands_file(args.game).read_text(
            encoding="utf-8"))["seed"] != args.seed:
        parser.error("--more: the stored hands were played with another seed")
    if any((h.a, h.b) not in calibrate.pairs(levels) for h in before):
        parser.error("--more: the stored hands were played among other levels")
    played = calibrate.play(args.game, levels, args.hands, args.seed, args.workers,
                            played=before)
    ratings = calibrate.save(args.game, played, args.seed)
    print(f"{args.game}: {len(played)} hands among {', '.join(levels)} (seed {args.seed})")
    for level, r in sorted(ratings.items(), key=lambda x: -x[1].mu):
        print(f"  {level:8} mu {r.mu:6.2f}  sigma {r.sigma:5.2f}  mu-3sigma {r.conservative:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
