"""How late a move reaches the other surface: the Activity and the Discord buttons, one table.

    python -m benchmarks.activity                 # 3 hands of Filicău
    python -m benchmarks.activity --hands 1 --think 0.5

The real bot (``python -m bot``, its default ``EDIT_INTERVAL`` and ``COMPUTER_DELAY``)
against the local Discord stand-in; two people play in the Activity (Chromium, at phone
width, through the stand-in's client frame and its proxy, as Discord's client and proxy
would carry them) and two with the buttons of their hand views; each waits ``--think``
seconds once it is their turn, then plays a random legal card or choice. Measured, per
move, on one clock (this machine's wall clock):

- a move made in the Activity, until Discord has it: from the tap (the page's clock, at
  the click) to the stand-in receiving the bot's edit of the table message;
- a move made with a button, until the Activity shows it: from the click's
  INTERACTION_CREATE leaving the stand-in to the step drawn in every Activity (the page's
  clock, when its table changed).

The report (JSON) gives each direction's p50, p95 and max, and the moves measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from browser.activity_pages import ActivityPage, decide, open_activity
from browser.chromium import CHROMIUM, FLAGS
from playwright.async_api import async_playwright
from standin import BotProcess, Player, StandIn
from standin.game import Table
from standin.records import Database

from bot.texts import t

#: Records, in the Activity, when its table last changed (the page's wall clock).
WATCH = """() => {
  const app = document.getElementById('app');
  window.__shown = {};
  new MutationObserver(() => {
    const key = app.dataset.hand + ':' + app.dataset.at;
    if (!(key in window.__shown)) window.__shown[key] = Date.now() / 1000;
  }).observe(app, {attributes: true, attributeFilter: ['data-at', 'data-hand']});
  document.addEventListener('click', () => { window.__tapped = Date.now() / 1000; }, true);
}"""


def wall(monotonic: float) -> float:
    """A ``time.monotonic()`` reading of this process on the wall clock."""
    return monotonic + (time.time() - time.monotonic())


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    return {"p50_ms": round(statistics.median(ordered) * 1000, 1),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000, 1),
            "max_ms": round(ordered[-1] * 1000, 1), "moves": len(ordered)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    standin = StandIn(channels=1, activities=True)
    await standin.start()
    folder = Path(tempfile.mkdtemp(prefix="activity-bench-"))
    db = Database(folder / "bot.sqlite3")
    bot = BotProcess(standin, db.path, folder / "bot.log", web=True, edit_interval=1.0,
                     computer_delay=1.0, next_hand_delay=3600)
    to_discord: list[float] = []
    to_activity: list[float] = []
    rng = random.Random(args.seed)
    try:
        await bot.start()
        cy, ana, di, bo = (Player(standin, n) for n in ("cy", "ana", "di", "bo"))
        table = Table(standin, [ana, bo], seed=args.seed, timeout=120)
        await table.open(ana, [(cy, 0), (ana, 1), (di, 0), (bo, 1)], game="filicau")
        await table.start(ana, my_hand=False)
        for p in (ana, bo):
            await table.my_hand(p)
        row = db.table_in(table.channel_id)
        assert row is not None
        await table.press(cy, t("btn.open_table"))
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            pages = {p.id: await open_activity(browser, p.activity_url()) for p in (cy, di)}
            for shown in pages.values():
                await shown.activity.evaluate(WATCH)
            for number in range(1, args.hands + 1):
                if number > 1:
                    await table.next_hand(ana)
                await play(standin, db, int(row["id"]), number, table, pages, rng, args.think,
                           to_discord, to_activity)
            await browser.close()
    finally:
        await bot.stop()
        await standin.stop()
    return {"activity_to_discord": percentiles(to_discord),
            "buttons_to_activity": percentiles(to_activity),
            "think_s": args.think, "hands": args.hands,
            "problems": standin.problems[:5], "errors": bot.errors()[:5]}


async def play(standin: StandIn, db: Database, table_id: int, number: int, table: Table,
               pages: dict[int, ActivityPage], rng: random.Random, think: float,
               to_discord: list[float], to_activity: list[float]) -> None:
    while True:
        stored = db.hand(table_id, number)
        assert stored is not None
        hand = stored.replay()
        if hand.finished:
            return
        at = len(hand.actions)
        seat = hand.actors()[0]
        user = int(stored.header["members"][seat])
        await asyncio.sleep(think)  # the player's thinking time: the pace of a real table
        message = table.table_message()
        assert message is not None
        versions = len(message.versions)
        if user in pages:
            shown = pages[user]
            await shown.wait_at(at, stored.id)
            await decide(shown, rng.choice(hand.legal_actions(seat)))
            tapped = await shown.activity.evaluate("() => window.__tapped")
            await standin.wait_for(lambda v=versions, m=message: len(m.versions) > v
                                   or table.result(number) is not None, 30, "the edit")
            if len(message.versions) > versions:
                to_discord.append(wall(message.times[versions]) - tapped)
        else:
            assert await table.step(number)
            sent = wall(table.moves[-1].interaction.sent_at)
            shown_at = []
            for shown in pages.values():
                await shown.wait_at(at + 1, stored.id)
                shown_at.append(await shown.activity.evaluate(
                    f"() => window.__shown['{stored.id}:{at + 1}']"))
            to_activity.append(max(shown_at) - sent)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.activity",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--think", type=float, default=1.5,
                        help="seconds a player takes once it is their turn")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=2))


if __name__ == "__main__":
    main()
