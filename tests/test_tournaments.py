"""Tournaments in process (``tests/fake_discord.py``): announced with a scheduled event,
signed up for with the announcement's buttons, each round's tables in their own threads,
standings after each round and final results, restarts that lose nothing, duplicate boards
alike at every table. The long runs through the real bot process are in
``tests/test_e2e_community.py``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fake_discord import (
    CHANNEL_ID,
    DEFERRED_UPDATE,
    UPDATE_MESSAGE,
    Harness,
    Message,
    User,
)

from bot.boards import plan_of
from bot.open_tables import OpenTable
from bot.seats import is_computer
from bot.store import TournamentRow
from bot.texts import t
from bot.tournaments import events
from bot.tournaments.manager import TABLE_DONE
from engine import replay


async def announce(h: Harness, boss: User, **options: Any) -> tuple[TournamentRow, Message]:
    options = {"game": "filicau", "format": "swiss", "rounds": 2, "hands": 1,
               "starts_in": 60, **options}
    r = await h.command(boss, "tournament new", **options)
    assert not r.ephemeral, r.text
    store = h.bot.store  # type: ignore[union-attr]
    [row] = await store.live_tournaments(810_000_000_000_000_001)
    assert row.message_id == r.message.id
    return row, r.message


async def sign_up(h: Harness, users: list[User], announcement: Message) -> Message:
    for user in users:
        r = await h.press(user, t("btn.sign_up"), message=h.discord.messages[announcement.id])
        assert r.type == UPDATE_MESSAGE, r.text
    return h.discord.messages[announcement.id]


def tournament_tables(h: Harness) -> list[OpenTable]:
    return [table for table in h.tables if table.session.plan is not None]


async def play_everything(h: Harness, users: list[User], rng: random.Random, *,
                          stop: Any = None) -> None:
    """Every person at every tournament table presses My hand and plays (random legal
    moves), round after round, until no tournament table is open (or ``stop()``)."""
    by_id = {u.id: u for u in users}
    viewed: set[tuple[int, int, int]] = set()
    for _ in range(5000):
        if stop is not None and stop():
            return
        await h.settle()
        open_tables = tournament_tables(h)
        if not open_tables:
            return
        moved = False
        for table in open_tables:
            s = table.session
            if s.hand is None or s.message_id is None:
                continue
            if s.hand.finished:
                # A person at the table presses Next hand under the result.
                person = next(by_id[int(m)] for m in s.seats if m and not is_computer(m))
                posts = [m for m in h.public(s.channel_id)
                         if any(b["custom_id"].startswith("fc:next:") for b in m.buttons)]
                next_id = next(b["custom_id"] for b in posts[-1].buttons
                               if b["custom_id"].startswith("fc:next:"))
                await h.click(person, next_id, message=posts[-1])
                moved = True
                continue
            for seat, member in enumerate(s.seats):
                if member is None or is_computer(member):
                    continue
                key = (s.id, s.hand_number, seat)
                if key not in viewed:
                    viewed.add(key)
                    r = await h.press(by_id[int(member)], t("btn.my_hand"),
                                      message=h.discord.messages[s.message_id])
                    assert r.ephemeral, r.text
            for seat in s.waiting_for_human():
                user = by_id[int(s.seats[seat] or 0)]
                view = h.hand_view(user)
                moves = view.moves()
                if moves:
                    await h.click(user, rng.choice(sorted(moves)), message=view)
                    moved = True
                    break
        if not moved:
            await h.settle()
    raise AssertionError("the tournament did not end")


async def test_a_swiss_tournament_from_announcement_to_final_results(h: Harness) -> None:
    boss = h.user("boss", manager=True)
    people = [h.user(n) for n in ("ana", "bob", "cid", "dan", "eve")]
    row, announcement = await announce(h, boss, computers=2)
    # The server's scheduled event, at the start time.
    [event] = h.discord.events.values()
    assert event["scheduled_start_time"] == row.starts_at and event["entity_type"] == 3
    assert f"/{CHANNEL_ID}" in event["entity_metadata"]["location"]
    # Only a manager announces one.
    r = await h.command(people[0], "tournament new", game="filicau", format="swiss")
    assert r.ephemeral and r.text == t("err.need_manage_server")

    shown = await sign_up(h, people, announcement)
    assert all(p.mention in shown.text for p in people)
    r = await h.press(people[0], t("btn.sign_up"), message=shown)
    assert r.ephemeral and r.text == t("err.tour_already")
    r = await h.press(people[4], t("btn.withdraw"), message=shown)
    assert r.type == UPDATE_MESSAGE and people[4].mention not in r.text
    people = people[:4]
    # Only the organizer (or a manager) starts it early.
    stale = h.snapshot(shown)
    signup = shown.button_by_label(t("btn.sign_up"))["custom_id"]
    r = await h.press(people[0], t("btn.start_now"), message=shown)
    assert r.text == t("err.tour_not_organizer")
    r = await h.press(boss, t("btn.start_now"), message=shown)
    assert r.type == DEFERRED_UPDATE
    assert h.discord.events[int(event["id"])]["status"] == events.ACTIVE

    # Round 1: six entrants (four people, two computers), two tables of four: computers
    # fill the two seats left over, each table in its own thread with a person or more.
    tables = tournament_tables(h)
    assert len(tables) == 2 and len(h.discord.threads) == 2
    for table in tables:
        s = table.session
        assert s.channel_id in h.discord.threads
        assert any(not is_computer(m) for m in s.seats)
        [seated] = [m for m in h.public(s.channel_id) if t("btn.my_hand") in m.text
                    and m.text.startswith(t("tour.seated", round=1, table=0, players="",
                                            button="").split(",")[0][:7])]
        assert all(f"<@{m}>" in seated.text for m in s.seats if not is_computer(m))
    # The announcement offers no sign-up now; a client showing it as it was is refused.
    assert not h.discord.messages[shown.id].buttons
    r = await h.click(people[0], signup, message=stale)
    assert r.text == t("err.tour_not_signup")

    await play_everything(h, people, random.Random(1))
    store = h.bot.store  # type: ignore[union-attr]
    final = await store.get_tournament(row.id)
    assert (final.state, final.round, final.shown) == ("finished", 2, 2)
    every = await store.tournament_tables(row.id)
    assert [(t.round, t.number) for t in every] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert all(t.result is not None and len(t.result["hands"]) == 1 for t in every)
    posts = [m for m in h.public() if m.embeds and "\n" in (m.embeds[0].get("title") or "")]
    titles = [m.embeds[0]["title"].split("\n")[1] for m in posts]
    assert titles == [t("tour.standings_title", round=1, rounds=2), t("tour.final_title")]
    lines = posts[-1].embeds[0]["description"].split("\n")
    assert len(lines) == 6  # every entrant, computers too; the fillers nowhere
    assert posts[-1].embeds[0]["footer"]["text"] == t("tour.tiebreaks_swiss")
    assert h.discord.events[int(event["id"])]["status"] == events.COMPLETED
    # Every tournament hand was rated; each table's thread is archived.
    for table in every:
        assert table.table_id is not None
        for hand in await store.hands(table.table_id):
            assert await store.rated_hand(hand.id)
    assert all(th.archived for th in h.discord.threads.values())
    h.check_clean()


async def test_a_duplicate_round_deals_the_same_boards_at_every_table(h: Harness) -> None:
    boss = h.user("boss", manager=True)
    people = [h.user(n) for n in ("ana", "bob", "cid")]
    row, announcement = await announce(h, boss, format="duplicate", rounds=1, hands=2,
                                       computers=9)
    shown = await sign_up(h, people, announcement)
    await h.press(boss, t("btn.start_now"), message=shown)
    tables = tournament_tables(h)
    assert len(tables) == 3
    await play_everything(h, people, random.Random(2))
    store = h.bot.store  # type: ignore[union-attr]
    every = await store.tournament_tables(row.id)
    headers: dict[int, set[str]] = {}
    for table in every:
        assert table.table_id is not None
        for hand in await store.hands(table.table_id):
            h_ = hand.header
            headers.setdefault(hand.number, set()).add(repr((h_["pack"], h_["dealer"],
                                                            h_["status"])))
            assert replay(hand.record()).result is not None
    assert sorted(headers) == [1, 2]
    assert all(len(same) == 1 for same in headers.values())  # the same deal everywhere
    standings = await h.bot.community.tournaments.standings(  # type: ignore[union-attr]
        await store.get_tournament(row.id))
    # Each board and seat hands out 3 match points among three tables: 2 boards x 4 seats.
    assert sum(s.score for s in standings if not s.entrant.startswith("cpu:easy#")) + sum(
        s.score for s in standings if s.entrant.startswith("cpu:easy#")) == 2 * 4 * 3
    h.check_clean()


async def test_a_restart_in_the_middle_of_a_round_loses_nothing(h: Harness) -> None:
    boss = h.user("boss", manager=True)
    people = [h.user(n) for n in ("ana", "bob")]
    row, announcement = await announce(h, boss, rounds=2, hands=2, computers=2)
    shown = await sign_up(h, people, announcement)
    await h.press(boss, t("btn.start_now"), message=shown)
    [table] = tournament_tables(h)
    first = table.session.id
    rng = random.Random(4)
    # Play into the first round's second hand, then the process stops.
    await play_everything(h, people, rng, stop=lambda: (
        (s := h.tables.get(first)) is not None and s.session.hand_number == 2
        and s.session.hand is not None and len(s.session.hand.actions) > 3))
    before = [a for a in table.session.hand.actions]  # type: ignore[union-attr]
    await h.restart()
    [again] = tournament_tables(h)
    assert again.session.id == first and again.session.hand is not None
    assert again.session.hand.actions == before
    await play_everything(h, people, rng)
    store = h.bot.store  # type: ignore[union-attr]
    every = await store.tournament_tables(row.id)
    assert [(t.round, len(t.result["hands"])) for t in every if t.result] == [(1, 2), (2, 2)]
    assert (await store.get_tournament(row.id)).state == "finished"
    h.check_clean()


async def test_a_restart_after_a_round_was_drawn_opens_its_tables_once(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process stops after the next round was drawn and stored but before its tables
    were made: the restarted process makes them, each once."""
    boss = h.user("boss", manager=True)
    people = [h.user(n) for n in ("ana", "bob", "cid", "dan", "eve")]
    row, announcement = await announce(h, boss, rounds=2, hands=1, computers=3)
    shown = await sign_up(h, people, announcement)
    await h.press(boss, t("btn.start_now"), message=shown)
    manager = h.bot.community.tournaments  # type: ignore[union-attr]
    opened: list[int] = []
    real = manager._open_table

    async def stops_after_one(tournament: TournamentRow, table: Any) -> None:
        if tournament.round == 2 and opened:
            raise RuntimeError("the process stops here")
        opened.append(table.number)
        await real(tournament, table)

    monkeypatch.setattr(manager, "_open_table", stops_after_one)
    h.expect_error("a tournament's work failed")
    await play_everything(h, people, random.Random(5), stop=lambda: len(opened) >= 3)
    await h.settle()
    store = h.bot.store  # type: ignore[union-attr]
    second = await store.tournament_tables(row.id, 2)
    assert len(second) == 2 and [t.table_id is not None for t in second] == [True, False]
    await h.restart()
    await h.settle()
    store = h.bot.store  # type: ignore[union-attr]
    second = await store.tournament_tables(row.id, 2)
    assert all(t.table_id is not None for t in second)
    assert len({t.thread_id for t in second}) == 2
    await play_everything(h, people, random.Random(6))
    assert (await store.get_tournament(row.id)).state == "finished"
    # Round 1's standings were posted once, the final results once.
    posts = [m for m in h.public() if m.embeds and "\n" in (m.embeds[0].get("title") or "")]
    assert len(posts) == 2
    h.check_clean()


async def test_a_table_whose_round_is_played_out_is_closed_at_start(h: Harness) -> None:
    """The process stopped between a round's last hand and closing its table: at start the
    table closes, and the tournament goes on."""
    boss = h.user("boss", manager=True)
    people = [h.user("ana")]
    row, announcement = await announce(h, boss, rounds=1, hands=1, computers=3)
    shown = await sign_up(h, people, announcement)
    await h.press(boss, t("btn.start_now"), message=shown)
    [table] = tournament_tables(h)
    # The courier does not get to close it (as if the process stopped right then).
    table.runner.courier.surfaces = [s for s in table.runner.courier.surfaces
                                     if type(s).__name__ != "TournamentSurface"]
    await play_everything(h, people, random.Random(7),
                          stop=lambda: table.session.hand is not None
                          and table.session.hand.finished)
    assert plan_of(table.session.row.settings) is not None and table.session.state == "playing"
    await h.restart()
    await h.settle()
    store = h.bot.store  # type: ignore[union-attr]
    assert (await store.get_tournament(row.id)).state == "finished"
    closed = await store.get_table(table.session.id)
    assert closed.state == "closed"
    assert h.discord.messages[table.session.message_id].text == t(TABLE_DONE)  # type: ignore[index]
    h.check_clean()


async def test_too_few_people_at_the_start_time_cancel_the_tournament(h: Harness) -> None:
    """Computers alone make no tournament: Start now is refused (only its presser hears
    it) and the tournament keeps taking sign-ups; at the start time it is called off, its
    event too, and the channel is told."""
    boss = h.user("boss", manager=True)
    row, announcement = await announce(h, boss, computers=4)
    r = await h.press(boss, t("btn.start_now"), message=announcement)
    assert r.type == DEFERRED_UPDATE
    store = h.bot.store  # type: ignore[union-attr]
    assert (await store.get_tournament(row.id)).state == "signup"
    assert h.ephemerals(boss)[-1].text == t("err.tour_too_few", count=0)
    manager = h.bot.community.tournaments  # type: ignore[union-attr]
    await manager.start(row.id, by=None)  # the start time came
    row = await store.get_tournament(row.id)
    assert row.state == "cancelled" and row.event_id is not None
    assert h.discord.events[row.event_id]["status"] == events.CANCELED
    title = h.discord.messages[announcement.id].embeds[0]["title"]
    assert h.public()[-1].text == t("tour.cancelled_too_few", title=title)
    assert not h.discord.messages[announcement.id].buttons
    h.check_clean()
