"""Draw the replay page's seal line (issue 43) at phone width: a finished hand's page says
that its cards are the fair shuffle its seal committed to.

A developer's tool (not a test, not a CI step), beside ``tools/render_messages.py``: the bot's
web server in this process, with a demo table of Filicău (seed 9) played out by the
computers, and the hand's replay page screenshot by headless Chromium at 400 px, cut to its
last lines (the last moves and the seal's line):

    .venv/bin/python tools/capture_seal.py --out docs/pictures/messages/seal-verified-phone.png
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tools")]

from render_messages import find_chromium  # noqa: E402  (after the path)
from web_helpers import path_of, serve  # noqa: E402

from bot.store import SqliteStore  # noqa: E402
from bot.web import demo  # noqa: E402


async def replay_png(chromium: str, out: Path, width: int = 400) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "bot.sqlite3")
        await store.open()
        server, base = await serve(store)
        try:
            session = await demo.open_table(store, guild_id=1, channel_id=1, game="filicau",
                                            seed=9)
            hand_id = session.hand_id
            assert hand_id is not None
            while await demo.move(session):
                pass
            url = base + path_of(await server.hand_link(1, hand_id))
            shot = Path(tmp) / "page.png"
            proc = await asyncio.create_subprocess_exec(
                chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--no-first-run", "--force-device-scale-factor=1",
                f"--user-data-dir={tmp}/profile", "--virtual-time-budget=4000",
                f"--screenshot={shot}", f"--window-size={width},2600", url,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            await proc.wait()
        finally:
            await server.stop()
            await store.close()
        cut(shot, out)


def cut(shot: Path, out: Path, lines: int = 260) -> None:
    """The page's last ``lines`` px of content, as a small 256-colour PNG."""
    from PIL import Image

    with Image.open(shot) as img:
        rgb = img.convert("RGB")
    w, h = rgb.size
    px = rgb.load()
    assert px is not None
    bg = px[w - 2, h - 2]
    bottom = h
    while bottom > 1 and all(px[x, bottom - 1] == bg for x in range(0, w, 2)):
        bottom -= 1
    part = rgb.crop((0, max(0, bottom - lines), w, min(h, bottom + 10)))
    part.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        out, optimize=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="the PNG file to write")
    parser.add_argument("--chromium", help="the Chromium binary (default: from PATH)")
    args = parser.parse_args(argv)
    asyncio.run(replay_png(find_chromium(args.chromium), args.out))
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
