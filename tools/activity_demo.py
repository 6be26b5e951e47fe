"""Play at a table as a Discord Activity on your own machine: the real bot (``python -m bot``)
against the local Discord stand-in (``tests/standin``), no Discord account needed.

    .venv/bin/python tools/activity_demo.py              # open the printed address
    .venv/bin/python tools/activity_demo.py --game wendish --buttons 0

The stand-in plays Discord: its server, its gateway, the OAuth2 token endpoint, the client
frame an Activity runs in and the proxy in front of it. You are a user of its server; the
demo opens a table in a channel, seats you, ``--buttons`` simulated users who play with the
buttons of the table message (a random legal card each turn, as Discord's users would), and
computers in the other seats, deals, and prints the address of your Discord client showing
the channel's Activity. Open it in a browser (narrow the window, or use the browser's phone
view, to see it as on a phone): tap your cards, make your choices; the simulated players
and the computers answer. Ctrl-C stops everything.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from standin import BotProcess, Player, StandIn  # noqa: E402
from standin.game import Table  # noqa: E402

from engine import make_rules  # noqa: E402
from engine.rules import GAMES  # noqa: E402

NAMES = ("ana", "bo", "cy", "di", "ed")


async def open_table(standin: StandIn, game: str, buttons: int, **settings: object
                     ) -> tuple[Player, Table]:
    """You and ``buttons`` simulated players at a table of ``game``, computers in the other
    seats, its first hand dealt."""
    rules = make_rules(game)
    others = min(buttons, rules.players - 1)
    you = Player(standin, "you", manager=True)
    players = [you, *(Player(standin, NAMES[i]) for i in range(others))]
    table = Table(standin, players, timeout=24 * 3600)
    seats = [(p, i % 2 if rules.fixed_teams else None) for i, p in enumerate(players)]
    await table.open(you, seats, game=game, computers=rules.players - len(players),
                     **settings)
    await table.start(you, my_hand=False)
    for p in players[1:]:
        await table.my_hand(p)
    return you, table


async def play_buttons(table: Table) -> None:
    """The simulated players' turns, hand after hand (a hand ends; the next is dealt by a
    press of Next hand in the Activity or by itself)."""
    while True:
        number = table.number() or 1
        if not await table.step(number):
            await table.standin.wait_for(lambda n=number: (table.number() or 0) > n,
                                         24 * 3600, "the next hand")
            for p in table.players[1:]:
                await table.my_hand(p)


async def run(args: argparse.Namespace) -> None:
    standin = StandIn(channels=1, activities=True)
    await standin.start()
    folder = Path(tempfile.mkdtemp(prefix="filicau-activity-"))
    bot = BotProcess(standin, folder / "bot.sqlite3", folder / "bot.log", web=True,
                     computer_delay=args.computer_delay, next_hand_delay=args.next_hand_delay,
                     edit_interval=0.2)
    try:
        await bot.start()
        you, table = await open_table(standin, args.game, args.buttons,
                                      confirm=args.confirm)
        print(f"the bot's log: {bot.log_path}", flush=True)
        print(f"your Activity (phone): {you.activity_url('mobile')}", flush=True)
        print(f"your Activity (desktop): {you.activity_url('desktop')}", flush=True)
        await play_buttons(table)
    finally:
        await bot.stop()
        await standin.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="filicau", choices=sorted(GAMES))
    parser.add_argument("--buttons", type=int, default=1,
                        help="simulated players who play with the buttons (default 1)")
    parser.add_argument("--confirm", action="store_true",
                        help="the table's confirm setting: a card is played with a second tap")
    parser.add_argument("--computer-delay", type=float, default=1.0)
    parser.add_argument("--next-hand-delay", type=float, default=30.0)
    args = parser.parse_args()
    # Ctrl-C stops the demo even when it was started from a shell that ignores SIGINT (a
    # script's background job, CI): Python and asyncio only catch SIGINT when it is not
    # ignored at start, so the demo would play on for ever.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
