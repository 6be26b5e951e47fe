"""Play one hand against the in-process Discord fake and dump what the bot sent, as JSON.

A developer's tool (not a test, not a CI step): the real bot plays one hand of a game with one
person (Ana) and computers, pictures on, and the messages are kept as Discord would hold them
at four moments: the lobby, the table when it is Ana's turn, Ana's hand view then, and the
result post (with any other public message sent once the hand is over). The dump is what
``tools/render_messages.py`` draws:

    .venv/bin/python tools/capture_hand.py --game filicau --out /tmp/hand
    .venv/bin/python tools/render_messages.py /tmp/hand/messages.json --out docs/pictures/messages

``messages.json`` holds ``users`` (id → name, for mentions), ``bot`` (its name) and
``messages``: each a ``name``, whether it is ``ephemeral``, ``captured_at`` (the clock its
countdowns count from), its Discord message object (``data``: content, embeds, components,
attachments) and its ``files`` (written beside the JSON).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import pytest  # noqa: E402  (after the path: the fake lives in tests/)
from bot_fixtures import reseed  # noqa: E402
from fake_discord import Harness, Message, running  # noqa: E402

from bot.texts import t  # noqa: E402
from engine import make_rules  # noqa: E402


class Capture:
    """Messages as they look at chosen moments, and their files."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.messages: list[dict[str, Any]] = []
        self.users: dict[str, str] = {}

    def keep(self, name: str, msg: Message) -> None:
        files = []
        for i, (filename, data) in enumerate(msg.files):
            path = f"{name}-{i}-{filename}"
            (self.out / path).write_bytes(data)
            files.append({"filename": filename, "path": path})
        self.messages.append({"name": name, "ephemeral": msg.audience is not None,
                              "captured_at": time.time(), "data": msg.payload(),
                              "files": files})

    def write(self) -> None:
        """``messages.json`` in the output folder, and a line saying so."""
        dump = {"bot": {"name": "Filicău"}, "users": self.users, "messages": self.messages}
        path = self.out / "messages.json"
        path.write_text(json.dumps(dump, ensure_ascii=False, indent=1))
        print(f"{len(self.messages)} messages in {path}")


async def play(h: Harness, game: str, seed: int, capture: Capture,
               choices: bool = False, prefer: tuple[str, ...] = ()) -> None:
    ana, mia = h.user("Ana"), h.user("Mia", manager=True)
    r = await h.command(mia, "admin pictures", mode="on")
    r = await h.command(ana, "table new", game=game)
    lobby = r.message
    session = h.session()
    # The deals from the seed: its randomness, and the first deal's seal drawn again from it
    # (the lobby's came from the system's).
    await reseed(session, seed)
    await h.press(ana, t("btn.join_a") if make_rules(game).fixed_teams else t("btn.sit"))
    while not session.full:
        await h.add_computer(ana, "normal")
    capture.keep("lobby", h.table_message() if h.table_message().id == lobby.id else lobby)
    await h.press(ana, t("btn.start"))
    await h.press(ana, t("btn.my_hand"))
    assert session.hand is not None
    pick = random.Random(seed)
    turn_kept = False
    chosen: set[str] = set()
    for _ in range(200):
        if session.hand.finished:
            break
        view = h.hand_view(ana)
        moves = sorted(view.moves())
        menus = [m for m in view.selects if m["custom_id"].split(":")[1] in ("act", "together")]
        assert moves or menus, "the hand waits for nobody: the driver cannot go on"
        if not turn_kept and any(":card:" in m for m in moves):
            capture.keep("table", h.table_message())
            capture.keep("hand", view)
            turn_kept = True
        phase = session.hand.phase
        if choices and phase != "play" and phase not in chosen:
            # A choice that is no card (Bavarian Schafkopf's announcement, its game, Kontra):
            # Ana's view and the table the first time she makes it in each phase.
            chosen.add(phase)
            capture.keep(f"choice-{phase}", view)
            capture.keep(f"choice-{phase}-table", h.table_message())
        mark = max(h.discord.messages, default=0)
        preferred = [m for m in moves if any(f":{kind}:" in m for kind in prefer)]
        if preferred:
            await h.click(ana, preferred[0], message=view)
        elif moves:
            await h.click(ana, pick.choice(moves), message=view)
        else:
            menu = menus[0]
            values = [o["value"] for o in menu["options"]]
            await h.choose(ana, menu["custom_id"], pick.sample(values, menu.get("min_values", 1)),
                           message=view)
    assert session.hand.finished, "the hand did not end"
    after = [m for m in h.public() if m.id > mark and m.id != h.table_message().id]
    for i, msg in enumerate(after):
        capture.keep("result" if i == 0 else f"after-{i}", msg)
    capture.keep("table-end", h.table_message())
    capture.users = {str(u.id): u.name for u in (ana, mia)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="filicau", help="the game to play (default filicau)")
    parser.add_argument("--seed", type=int, default=3, help="the deal and Ana's picks")
    parser.add_argument("--out", type=Path, required=True,
                        help="folder for messages.json and the pictures")
    parser.add_argument("--choices", action="store_true",
                        help="also keep Ana's view the first time she makes a choice that is "
                             "no card, in each phase (choice-PHASE, choice-PHASE-table)")
    parser.add_argument("--prefer", default="",
                        help="action kinds Ana picks when offered, comma-separated (e.g. dad)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    capture = Capture(args.out)

    async def run() -> None:
        with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
            async with running(Path(tmp) / "bot.sqlite3", mp) as h:
                await play(h, args.game, args.seed, capture, args.choices,
                           tuple(k for k in args.prefer.split(",") if k))

    asyncio.run(run())
    capture.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
