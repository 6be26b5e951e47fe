"""The leaderboard and profile of docs/ratings.md: ``python docs/ratings/make_example.py``.

A small server plays Filicău: six members and the computer levels. The members' cards are
played by the engine's computer players, one level per member and never told to anyone (so
that the ratings have a truth to find): Ana and Flo play like Hard, Bob and Cid like Normal,
Dan and Eva like Easy. Every hand seats four of them (sometimes two members and two
computers), keeps the partnerships' status from hand to hand as the bot does, and is stored
and rated through the bot's own store and ``bot.ratings.record``. The leaderboard is the
ratings cog's own embed; the profile's chart is the cog's chart.

Writes ``leaderboard.md``, ``top.png`` (the leaderboard's picture when the server has
pictures on: the cog's own), ``profile.md`` and ``profile.png`` next to this file, and prints
each member's decided hands (won, lost) for comparison.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot import ratings
from bot.names import mention
from bot.ratings import board
from bot.ratings.chart import Labels, rating_chart
from bot.store import ResultRow, SqliteStore, canonical
from bot.texts import t
from cogs.ratings import Ratings
from engine.ai import make_player
from engine.hand import Hand
from engine.rules import make_rules
from engine.status import Status
from engine.tools.arena import play_hand

OUT = Path(__file__).resolve().parent
GUILD = 1
#: Member id -> (name, the level that plays their cards).
PEOPLE = {
    "101": ("Ana", "hard"), "102": ("Bob", "normal"), "103": ("Cid", "normal"),
    "104": ("Dan", "easy"), "105": ("Eva", "easy"), "106": ("Flo", "hard"),
}
COMPUTERS = ("cpu:easy", "cpu:normal", "cpu:hard")
HANDS = 480


def level_of(member: str) -> str:
    return member.split(":")[1] if member.startswith("cpu:") else PEOPLE[member][1]


def stored(member: str, seat: int) -> str:
    """A seat's member as the bot stores it (a computer carries its team letter)."""
    return member if not member.startswith("cpu:") else f"{member}@{'ab'[seat % 2]}"


async def play(store: SqliteStore, rng: random.Random) -> None:
    rules = make_rules("filicau")
    table = await store.create_table(guild_id=GUILD, channel_id=1, game="filicau", options={},
                                     opener_id=101, seats=[None] * 4)
    statuses: dict[tuple[tuple[str, ...], tuple[str, ...]], str | None] = {}
    people = sorted(PEOPLE)
    for n in range(HANDS):
        if rng.random() < 0.3:
            two = rng.sample(people, 2)
            seats = [two[0], rng.choice(COMPUTERS), two[1], rng.choice(COMPUTERS)]
        else:
            seats = rng.sample(people, 4)
        team0, team1 = seats[0::2], seats[1::2]
        a, b, swapped = canonical(team0, team1)
        key = (tuple(a), tuple(b))
        masters_letter = statuses.get(key)
        masters = None if masters_letter is None else (
            0 if (masters_letter == "a") != swapped else 1)
        pack = list(rules.pack)
        rng.shuffle(pack)
        dealer = rules.first_dealer(Status(masters), rng)  # a slave deals to masters
        players = [make_player(level_of(m), seed=n * 10 + s, timed=False)
                   for s, m in enumerate(seats)]
        hand = play_hand(Hand(rules, dealer, pack, Status(masters)), players)
        result = hand.result
        assert result is not None

        def letter(team: int | None, swapped: bool = swapped) -> Any:
            return None if team is None else ("a" if (team == 0) != swapped else "b")

        after = letter(result.status.masters)
        statuses[key] = after
        members = [stored(m, s) for s, m in enumerate(seats)]
        hand_id = await store.start_hand(table.id, n + 1, {})
        row = ResultRow(
            hand_id=hand_id, guild_id=GUILD, game="filicau", team_a=a, team_b=b,
            points_a=result.points[1 if swapped else 0],
            points_b=result.points[0 if swapped else 1],
            masters_before=letter(masters), masters_after=after, event=result.event,
            event_team=letter(result.team),
            finished_at=f"2026-03-{1 + n // 40:02d}T20:{(n % 40):02d}:00+00:00",
            members=members,
            masters_before_members=[m for s, m in enumerate(members)
                                    if masters is not None and s % 2 == masters],
            masters_after_members=[m for s, m in enumerate(members)
                                   if result.status.masters is not None
                                   and s % 2 == result.status.masters])
        await store.add_result(row)
        await ratings.record(store, row)
        print(f"\r{n + 1}/{HANDS} hands", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


async def _display_name(guild: Any, player: str) -> str:
    return PEOPLE[player][0] if player in PEOPLE else mention(player)


def named(text: str) -> str:
    for member, (name, _) in PEOPLE.items():
        text = text.replace(f"<@{member}>", f"@{name}")
    return text


async def main() -> None:
    store = SqliteStore(":memory:")
    await store.open()
    try:
        await play(store, random.Random(18))
        cog = Ratings(SimpleNamespace(store=store))  # type: ignore[arg-type]
        pages = []
        lines = board.leaderboard(await store.ratings(GUILD, "filicau", 1), [])
        for number in range(1, board.page_count(lines) + 1):
            embed, _ = await cog.leaderboard(GUILD, "filicau", 1, number)
            pages.append(f"**{embed.title}**\n\n" + named(embed.description or "")
                         + f"\n\n*{embed.footer.text}*")
        (OUT / "leaderboard.md").write_text(named("\n\n---\n\n".join(pages)) + "\n",
                                            encoding="utf-8")
        # The cog's picture, with the members' names as Discord would show them.
        cog.display_name = _display_name  # type: ignore[method-assign]
        top = await cog.top_picture(SimpleNamespace(id=GUILD),  # type: ignore[arg-type]
                                    "filicau", 1)
        assert top is not None
        (OUT / "top.png").write_bytes(top)
        who = "101"
        for member, (name, level) in PEOPLE.items():
            won = lost = 0
            for row in await store.results(GUILD, "filicau"):
                for team, rank in ratings.placings(row):
                    if member in team and any(r != rank for _, r in ratings.placings(row)):
                        won += rank == 0
                        lost += rank != 0
            print(f"{name} ({level}): won {won}, lost {lost}", file=sys.stderr)
        rows = await store.ratings(GUILD, "filicau", 1)
        lines = board.leaderboard(rows, [])
        mine = next(line for line in lines if line.rating.player == who)
        record = board.record_of(who, await store.results(GUILD, "filicau"))
        best = record.best_partner()
        assert best is not None
        r = mine.rating
        text = "\n".join([
            f"**{t('profile.title', name=PEOPLE[who][0], game='Filicău')}**", "",
            t("profile.rating", rating=f"{mine.conservative:.1f}", rank=mine.rank,
              players=len(lines), season=1,
              sure=t(f"rating.sure.{board.sureness(r.sigma)}",
                     hands=t("n.hands", count=r.hands))), "",
            f"**{t('profile.status')}**: " + " · ".join([
                t("n.hands", count=record.hands),
                t("n.became_masters", count=record.became_masters),
                t("n.hands_as_masters", count=record.hands_as_masters),
                t("n.ran_away", count=record.ran_away)]),
            f"**{t('profile.partner')}**: " + t(
                "profile.partner_line", partner=f"<@{best.player}>", won=best.won,
                hands=t("n.hands", count=best.hands))])
        (OUT / "profile.md").write_text(named(text) + "\n", encoding="utf-8")
        history = await store.rating_history(GUILD, "filicau", 1, who)
        (OUT / "profile.png").write_bytes(rating_chart(history, Labels(
            title=t("chart.title", game="Filicău", season=1), hands=t("chart.hands"),
            mu=t("chart.mu"), ranked=t("chart.ranked"))))
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
