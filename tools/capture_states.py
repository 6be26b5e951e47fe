"""Capture the messages players read besides one played hand, as JSON for
``tools/render_messages.py``: a hint and a review, the rules page, the 20-card game's fris
window, a Schafkopf result with a declarer, the standings, a profile and the leaderboard; a
Doppelkopf deal's states (the Vorbehalt question, a Hochzeit, a solo, the announcements, a
Fuchs as it falls, the tallied results, the hand view); a month's league standings.

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
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tools")]

import pytest  # noqa: E402  (after the path: the fake lives in tests/)
from bot_fixtures import reseed  # noqa: E402
from capture_hand import Capture  # noqa: E402
from fake_discord import Harness, Picture, User, running  # noqa: E402
from test_ratings_cogs import rated_hands  # noqa: E402

from bot.pictures import digest  # noqa: E402
from bot.session import TableSession  # noqa: E402
from bot.texts import speaking, t  # noqa: E402
from engine import GAMES, public_view  # noqa: E402
from engine.cards import card  # noqa: E402

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


# -- Doppelkopf (issue 45) ----------------------------------------------------------------------

async def dk_seated(h: Harness, lang: str = "en") -> tuple[User, TableSession]:
    """Ana and three Easy computers at a Doppelkopf table, pictures on, not yet started."""
    locale = "de" if lang == "de" else "en-US"
    h.guild_locale = locale
    ana, mia = h.user("Ana", locale=locale), h.user("Mia", manager=True, locale=locale)
    with speaking(lang):
        await h.command(mia, "admin pictures", mode="on")
        await h.command(ana, "table new", game="doppelkopf", rated=False)
        await h.press(ana, t("btn.sit"))
        session = h.session()
        while not session.full:
            await h.add_computer(ana, "easy")
    return ana, session


async def dk_start(h: Harness, ana: User, lang: str) -> None:
    with speaking(lang):
        await h.press(ana, t("btn.start"))
        await h.press(ana, t("btn.my_hand"))
    await h.settle()


async def say_vorbehalt(h: Harness, ana: User, kind: str | None) -> None:
    """Ana says gesund (``kind`` None) or her Vorbehalt ``kind`` from the menu."""
    view = h.hand_view(ana)
    if kind is None:
        [gesund] = [b["custom_id"] for b in view.buttons if ":gesund:" in b["custom_id"]]
        await h.click(ana, gesund, message=view)
    else:
        menu = view.select("act")
        assert menu is not None, "no Vorbehalt menu"
        [value] = [o["value"] for o in menu["options"] if o["value"] == f'vorbehalt:"{kind}"']
        await h.choose(ana, menu["custom_id"], [value], message=view)
    await h.settle()


async def dk_play_out(h: Harness, session: TableSession, ana: User, capture: Capture,
                   prefix: str, rng: random.Random, announce: tuple[str, ...] = ()) -> None:
    """Ana plays until the hand ends: a random card, each announcement of ``announce`` when
    offered. Kept: the hand view at her first card, the table once announcements stand on
    it and once an extra (Fuchs, Karlchen…) is seen, the result."""
    hand = session.hand
    assert hand is not None
    kept: set[str] = set()
    mark = max(h.discord.messages, default=0)
    for _ in range(200):
        await h.settle()
        if hand.finished:
            break
        v = public_view(hand)
        if (v.public.get("extras_seen") or v.public.get("sonderpunkte")) \
                and "extras" not in kept:
            kept.add("extras")
            capture.keep(f"{prefix}extras-table", h.table_message())
        view = h.hand_view(ana)
        moves = sorted(view.moves())
        menu = view.select("act")
        said = [o["value"] for o in (menu or {}).get("options", [])
                if any(o["value"] == f'ansage:"{k}"' for k in announce)]
        if said:
            await h.choose(ana, menu["custom_id"], [said[0]], message=view)  # type: ignore[index]
            announce = tuple(k for k in announce if f'ansage:"{k}"' != said[0])
            await h.settle()
            # The table after Ana's latest announcement (an earlier one is replaced).
            name = f"{prefix}ansagen-table"
            capture.messages = [m for m in capture.messages if m["name"] != name]
            capture.keep(name, h.table_message())
            continue
        cards = [m for m in moves if ":card:" in m]
        if cards and "hand" not in kept:
            kept.add("hand")
            capture.keep(f"{prefix}hand", view)
        if cards:
            await h.click(ana, rng.choice(cards), message=view)
        elif moves:
            await h.click(ana, rng.choice(moves), message=view)
    assert hand.finished, "the hand did not end"
    await h.settle()
    after = [m for m in h.public() if m.id > mark and m.id != h.table_message().id]
    capture.keep(f"{prefix}result", after[0])
    capture.keep(f"{prefix}table-end", h.table_message())


async def dk_hochzeit(h: Harness, capture: Capture) -> None:
    """Ana holds both Queens of clubs (the first seed from 1 that deals them to her: a deal
    that does not is ended and the table opened again): her Vorbehalt question offers the
    Hochzeit; she says it, the table says so, and the hand is played out."""
    eo = card("EO")
    for seed in range(1, 200):
        ana, session = await dk_seated(h)
        await reseed(session, seed)
        await dk_start(h, ana, "en")
        assert session.hand is not None
        if list(session.hand.hands[0]).count(eo) == 2:
            break
        assert h.bot is not None
        await h.bot.service.end(h.table(session), "ok.ended")
    capture.keep("doppelkopf-vorbehalt", h.hand_view(ana))
    await say_vorbehalt(h, ana, "hochzeit")
    capture.keep("doppelkopf-hochzeit-table", h.table_message())
    await dk_play_out(h, session, ana, capture, "doppelkopf-hochzeit-", random.Random(1))


async def dk_solo(h: Harness, capture: Capture) -> None:
    """Ana announces a Damensolo: the table names it and its trumps."""
    ana, session = await dk_seated(h)
    await reseed(session, 12)
    await dk_start(h, ana, "en")
    await say_vorbehalt(h, ana, "damen")
    capture.keep("doppelkopf-solo-table", h.table_message())
    await dk_play_out(h, session, ana, capture, "doppelkopf-solo-", random.Random(2))


async def dk_ansagen(h: Harness, capture: Capture) -> None:
    """A German server: Ana says gesund, then her party's announcement and keine 90; the
    table shows the stakes and what each party needs, the extras as they fall, the result
    item by item."""
    ana, session = await dk_seated(h, "de")
    await reseed(session, 5)
    await dk_start(h, ana, "de")
    await say_vorbehalt(h, ana, None)
    with speaking("de"):
        await dk_play_out(h, session, ana, capture, "doppelkopf-de-", random.Random(5),
                       announce=("re", "kontra", "keine_90"))



async def dk_karlchen(h: Harness, capture: Capture) -> None:
    """A Karlchen as it happens: the last trick won by a Jack of clubs, on the table and in
    the tally (the first seed from 1 whose hand ends so, everybody gesund)."""
    for seed in range(1, 60):
        ana, session = await dk_seated(h)
        await reseed(session, seed)
        await dk_start(h, ana, "en")
        hand = session.hand
        assert hand is not None
        if hand.phase == "vorbehalt" and any(":gesund:" in m for m in h.hand_view(ana).moves()):
            await say_vorbehalt(h, ana, None)
        scratch = Capture(capture.out)
        await dk_play_out(h, session, ana, scratch, "doppelkopf-karlchen-", random.Random(seed))
        assert hand.result is not None
        if any(item.get("item") == "dk_karlchen" for item in hand.result.extra["counted"]):
            capture.messages += [m for m in scratch.messages
                                 if m["name"].endswith(("-result", "-table-end"))]
            return
        assert h.bot is not None
        await h.bot.service.end(h.table(session), "ok.ended")
    raise AssertionError("no Karlchen in 59 hands")

async def league(h: Harness, capture: Capture) -> None:
    """A server's monthly Bavarian Schafkopf league (issue 43): Mia starts it (divisions of
    four, two hands to count, one up and one down), eight members' hands of this month so
    far are stored (each an hour apart from the month's first day), and Ana reads ``/league
    standings``."""
    from test_leagues import Hands

    now = datetime.now(UTC)
    first = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    mia = h.user("Mia", manager=True)
    names = ("Ana", "Bob", "Cid", "Dan", "Eva", "Flo", "Gus", "Hal")
    ids = [h.user(n).member for n in names]
    r = await h.command(mia, "league start", game="schafkopf", division_size=4, min_hands=2,
                        up_and_down=1)
    capture.keep("league-started", r.message)
    stored = Hands(h)
    rng = random.Random(43)
    for day in range(1, 19):
        four = rng.sample(ids[:4] if day % 2 else ids[4:], 4) if day < 15 else \
            rng.sample(ids[:7], 4)
        at = min(first + timedelta(hours=day), now - timedelta(minutes=19 - day))
        await stored.won(four[:2], four[2:], at.isoformat(timespec="seconds"))
    r = await h.command(h.user("Ana"), "league standings", game="schafkopf")
    capture.keep("league", r.message)


STATES: dict[str, State] = {
    "doppelkopf-hochzeit": dk_hochzeit, "doppelkopf-solo": dk_solo,
    "doppelkopf-ansagen": dk_ansagen, "doppelkopf-karlchen": dk_karlchen, "league": league,
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
