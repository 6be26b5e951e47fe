"""Capture the messages players read besides one played hand, as JSON for
``tools/render_messages.py``: a hint and a review, the rules page, the 20-card game's fris
window, a Schafkopf result with a declarer, the standings, a profile and the leaderboard.

A developer's tool (not a test, not a CI step), the companion of ``tools/capture_hand.py``
(same ``messages.json``): the real bot answers the clicks and commands of people against the
in-process Discord fake (``tests/fake_discord.py``), pictures on where a message has one:

    .venv/bin/python tools/capture_states.py --out /tmp/states
    .venv/bin/python tools/render_messages.py /tmp/states/messages.json \\
        --out docs/pictures/messages

Each state is played in a server of its own (a fresh store), so that one does not change
another; each is deterministic (fixed seeds).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tools")]

import pytest  # noqa: E402  (after the path: the fake lives in tests/)
from capture_hand import Capture  # noqa: E402
from fake_discord import Harness, Picture, User, running  # noqa: E402
from test_ratings_cogs import rated_hands  # noqa: E402

from bot.pictures import digest  # noqa: E402
from bot.texts import t  # noqa: E402
from engine import GAMES  # noqa: E402

State = Callable[[Harness, Capture], Awaitable[None]]


async def seated(h: Harness, game: str, seed: int, *, rated: bool = True,
                 level: str = "normal") -> tuple[User, object]:
    """Ana and computers at a ``game`` table, started; Ana has pressed My hand."""
    ana, mia = h.user("Ana"), h.user("Mia", manager=True)
    await h.command(mia, "admin pictures", mode="on")
    await h.command(ana, "table new", game=game, rated=rated)
    await h.press(ana, t("btn.join_a") if GAMES[game].fixed_teams else t("btn.sit"))
    session = h.session()
    while not session.full:
        await h.add_computer(ana, level)
    session.rng = random.Random(seed)
    await h.press(ana, t("btn.start"))
    await h.press(ana, t("btn.my_hand"))
    return ana, session


async def play_on(h: Harness, session: object, ana: User, rng: random.Random) -> None:
    """Ana plays by random clicks until the hand is over."""
    hand = session.hand  # type: ignore[attr-defined]
    for _ in range(200):
        if hand.finished:
            return
        await h.settle()
        view = h.hand_view(ana)
        together = view.select("together")
        if together is not None:
            size = together["min_values"]
            await h.choose(ana, together["custom_id"],
                           [o["value"] for o in together["options"][:size]], message=view)
            continue
        moves = sorted(view.moves())
        if moves:
            await h.click(ana, rng.choice(moves), message=view)
    raise AssertionError("the hand did not end")


async def hint_and_review(h: Harness, capture: Capture) -> None:
    """A casual Filicău table: Ana's hand with the hint button, the hint, then the review of
    the hand from its result."""
    ana, session = await seated(h, "filicau", 3, rated=False)
    hand = session.hand  # type: ignore[attr-defined]
    rng = random.Random(3)
    while not any(":card:" in m for m in h.hand_view(ana).moves()) or len(hand.tricks) < 2:
        view = h.hand_view(ana)
        await h.click(ana, rng.choice(sorted(view.moves())), message=view)
        await h.settle()
    view = h.hand_view(ana)
    capture.keep("hand-hints", view)
    [hint] = view.enabled("hint")
    r = await h.click(ana, hint, message=view)
    capture.keep("hint", r.message)
    await play_on(h, session, ana, rng)
    await h.settle()
    result = h.result_post()
    r = await h.click(ana, result.button_by_label(t("btn.review"))["custom_id"],
                      message=result)
    capture.keep("review", r.message)
    [_, forward] = r.message.buttons
    r = await h.click(ana, forward["custom_id"], message=r.message)
    capture.keep("review-2", r.message)


async def rules_page(h: Harness, capture: Capture) -> None:
    mia = h.user("Mia", manager=True)
    await h.command(mia, "admin pictures", mode="on")
    r = await h.command(h.user("Ana"), "rules", game="schafkopf3")
    capture.keep("rules", r.message)


async def fris_window(h: Harness, capture: Capture) -> None:
    """Four people at a 20-card table (seed 3): Ana cuts, then may make fris."""
    users = [h.user(n) for n in ("Ana", "Bob", "Cid", "Dan")]
    ana = users[0]
    await h.command(ana, "table new", game="filcau20")
    for i, user in enumerate(users):
        await h.press(user, t("btn.join_a") if i % 2 == 0 else t("btn.join_b"))
    session = h.session()
    session.rng = random.Random(3)
    await h.press(ana, t("btn.start"))
    await h.press(ana, t("btn.my_hand"))
    await h.press(ana, t("act.deal.cut"), message=h.hand_view(ana))
    await h.settle()
    capture.keep("fris", h.hand_view(ana))
    capture.keep("fris-table", h.table_message())


async def schafkopf_result(h: Harness, capture: Capture) -> None:
    """Ana takes the widow in Schafkopf for three and plays it out."""
    ana, session = await seated(h, "schafkopf3", 11, level="easy")
    await h.press(ana, t("act.take.True"), message=h.hand_view(ana))
    await play_on(h, session, ana, random.Random(3))
    await h.settle()
    capture.keep("schafkopf-result", h.result_post())
    capture.keep("schafkopf-table", h.table_message())


async def standings_and_ratings(h: Harness, capture: Capture) -> None:
    """Two hands of Filicău by Ana and computers, then /standings; rated hands among eight
    members, then /leaderboard (with its top-ten picture) and a /profile."""
    ana, session = await seated(h, "filicau", 4)
    await play_on(h, session, ana, random.Random(4))
    await h.settle()
    await h.press(ana, t("btn.next_hand"), message=h.result_post())
    await h.press(ana, t("btn.my_hand"))
    await play_on(h, session, ana, random.Random(5))
    await h.settle()
    r = await h.command(ana, "standings")
    capture.keep("standings", r.message)
    note_charts(h)
    store = h.bot.store  # type: ignore[union-attr]
    others = [h.user(n).member for n in ("Bob", "Cid", "Dan", "Eva", "Flo", "Gus", "Hal")]
    await rated_hands(store, 40, [ana.member, *others])
    r = await h.command(ana, "leaderboard", game="filicau")
    capture.keep("leaderboard", r.message)
    r = await h.command(ana, "profile", game="filicau")
    capture.keep("profile", r.message)


def note_charts(h: Harness) -> None:
    """The harness checks that every picture sent is one the bot drew: note the rating
    pictures too (as ``tests/test_ratings_cogs.py`` does)."""
    cog = sys.modules["cogs.ratings"]
    for name in ("rating_chart", "top_chart"):
        draw = getattr(cog, name)

        def noted(*args: Any, draw: Callable[..., bytes] = draw) -> bytes:
            data = draw(*args)
            h.pictures[digest(data)] = Picture("chart", frozenset(), "dark", True)
            return data

        setattr(cog, name, noted)


STATES: dict[str, State] = {
    "hint": hint_and_review, "rules": rules_page, "fris": fris_window,
    "schafkopf": schafkopf_result, "standings": standings_and_ratings,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True,
                        help="folder for messages.json and the pictures")
    parser.add_argument("--only", nargs="*", choices=sorted(STATES),
                        help="capture only these states")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    capture = Capture(args.out)

    async def run() -> None:
        for name in args.only or STATES:
            with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
                async with running(Path(tmp) / "bot.sqlite3", mp) as h:
                    await STATES[name](h, capture)
                    capture.users.update({str(u.id): u.name
                                          for u in h.discord.members.values()})

    asyncio.run(run())
    capture.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
