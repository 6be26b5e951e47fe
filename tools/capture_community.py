"""Find a game and hold a tournament against the in-process Discord fake, and dump the
messages of ``docs/community.md`` and ``docs/messages.md`` as JSON.

A developer's tool (not a test, not a CI step), the companion of ``tools/capture_hand.py``
(same ``messages.json``, drawn by ``tools/render_messages.py``):

    .venv/bin/python tools/capture_community.py --out /tmp/community
    .venv/bin/python tools/render_messages.py /tmp/community/messages.json \\
        --out docs/pictures/messages

It keeps: ``tables`` (``/tables`` as Eve sees it: two tables in two channels), ``reminder``
(the direct message Di gets when her turn has waited two thirds of its time),
``tournament`` (an announcement taking sign-ups), ``tournament-standings`` (the standings after the
first round of a Swiss tournament) and ``final`` (its final results); with ``--only
crossplay``, ``crossplay-en`` and ``crossplay-de``: one table across two servers, as each of
them shows it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tools")]

import capture_hand  # noqa: E402  (after the path: the fake lives in tests/)
import pytest  # noqa: E402
from fake_discord import (  # noqa: E402
    CHANNEL_ID,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    Harness,
    Message,
    User,
    running,
)
from test_tournaments import play_everything  # noqa: E402

from bot.courier import Signal  # noqa: E402
from bot.texts import language_of, speaking, t  # noqa: E402


class Capture(capture_hand.Capture):
    """``tools/capture_hand.py``'s, with the two channels named for their mentions."""

    def __init__(self, out: Path) -> None:
        super().__init__(out)
        self.users.update({"#" + str(CHANNEL_ID): "cards", "#" + str(OTHER_CHANNEL_ID): "cards-2"})


def standings(h: Harness) -> list[Message]:
    return [m for m in h.public() if m.embeds and "\n" in (m.embeds[0].get("title") or "")]


async def play(h: Harness, capture: Capture) -> None:
    names = ("Ana", "Bo", "Cy", "Di", "Eve", "Fay")
    ana, bo, cy, di, eve, fay = (h.user(n) for n in names)
    mia = h.user("Mia", manager=True)
    capture.users.update({str(u.id): u.name for u in (ana, bo, cy, di, eve, fay, mia)})

    # Two tables in two channels; Eve asks for /tables.
    await h.command(ana, "table new", game="filicau")
    await h.press(ana, t("btn.join_a"))
    await h.press(bo, t("btn.join_b"))
    await h.press(cy, t("btn.join_a"))
    r = await h.command(di, "table new", game="schafkopf3", channel_id=OTHER_CHANNEL_ID)
    r = await h.command(eve, "tables")
    capture.keep("tables", r.message)
    for table in list(h.tables):
        assert h.bot is not None
        await h.bot.service.end(table, "ok.ended")

    # Ana invites Bo and Cy: their seats are held, by name, and the seat buttons are theirs.
    await h.command(ana, "table new", game="schafkopf", invite=bo, invite_2=cy)
    await h.press(ana, t("btn.sit"))
    await h.add_computer(ana, "easy")
    capture.keep("invitation", h.table_message())
    for table in list(h.tables):
        assert h.bot is not None
        await h.bot.service.end(table, "ok.ended")

    # Di asked for reminders; her turn at a table with computers waits two thirds of its
    # time (the runner's warning).
    await h.command(di, "settings", reminders="dm")
    await h.command(di, "table new", game="filicau")
    await h.press(di, t("btn.join_a"))
    for _ in range(3):
        await h.add_computer(di, "easy")
    await h.press(di, t("btn.start"))
    session = h.session()
    await h.press(di, t("btn.my_hand"))
    assert session.waiting_for_human() == [0]
    await h.runner(session).courier.signal(Signal.WARNING, 30)
    capture.keep("reminder", h.dms(di)[-1])
    assert h.bot is not None
    await h.bot.service.end(h.table(session), "ok.ended")

    # A Swiss tournament: six people, two computers, two rounds of one hand.
    r = await h.command(mia, "tournament new", game="filicau", format="swiss", rounds=2,
                        hands=1, computers=2, starts_in=30)
    announcement = r.message
    people = [ana, bo, cy, di, eve, fay]
    for user in people:
        await h.press(user, t("btn.sign_up"), message=h.discord.messages[announcement.id])
    capture.keep("tournament", h.discord.messages[announcement.id])
    await h.press(mia, t("btn.start_now"), message=h.discord.messages[announcement.id])
    await play_everything(h, people, random.Random(3))
    first, final = standings(h)
    capture.keep("tournament-standings", first)
    capture.keep("final", final)


async def crossplay(h: Harness, capture: Capture) -> None:
    """A table across two servers (issue 42): an English one (Ana, Bob) and a German one
    (Cid, Dan), both on for play across servers, pictures on; the four queue for Filicău
    *everywhere*, a table forms, two cards are played, and each server's table message is
    kept (``crossplay-en``, ``crossplay-de``): the others by their plain names, in its own
    language, with its own card pictures."""
    servers = (("en-US", (GUILD_ID, CHANNEL_ID), ("Ana", "Bob")),
               ("de", h.guild(1), ("Cid", "Dan")))
    players: list[tuple[User, int, str]] = []
    for number, (locale, (guild_id, channel_id), names) in enumerate(servers):
        h.guild_locale = locale
        boss = h.user(f"Boss{number}", manager=True, guild=guild_id, locale=locale)
        await h.command(boss, "admin pictures", mode="on", channel_id=channel_id)
        await h.command(boss, "admin crossplay", mode="on", channel_id=channel_id)
        players += [(h.user(n, guild=guild_id, locale=locale), channel_id, locale)
                    for n in names]
    for user, channel_id, locale in players:
        h.guild_locale = locale
        await h.command(user, "play", where="everywhere", game="filicau",
                        channel_id=channel_id)
    [table] = list(h.tables)
    session = table.session
    rng = random.Random(42)
    for _ in range(2):
        await h.settle()
        [(user, channel_id, locale)] = [p for p in players
                                        if session.seat_of(p[0].id) in
                                        session.waiting_for_human()][:1]
        h.guild_locale = locale
        with speaking(language_of(locale)):
            r = await h.press(user, t("btn.my_hand"), message=table_in(h, channel_id))
        view = r.message
        await h.click(user, rng.choice(sorted(view.moves())), message=view)
    await h.settle()
    for (_, channel_id, locale) in players[::2]:
        capture.keep(f"crossplay-{language_of(locale)}", table_in(h, channel_id))


def table_in(h: Harness, channel_id: int) -> Message:
    """The table message of a channel (a public message with a My hand button)."""
    found = [m for m in h.public(channel_id)
             if any(str(b.get("custom_id", "")).startswith("fc:hand:") for b in m.buttons)]
    return found[-1]


PARTS = {"community": play, "crossplay": crossplay}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for messages.json")
    parser.add_argument("--only", nargs="*", choices=sorted(PARTS),
                        help="capture only these parts (default: all)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    capture = Capture(args.out)

    async def run() -> None:
        for name in args.only or PARTS:
            with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
                async with running(Path(tmp) / "bot.sqlite3", mp) as h:
                    await PARTS[name](h, capture)
                    capture.users.update({str(u.id): u.name
                                          for u in h.discord.members.values()})

    asyncio.run(run())
    capture.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
