"""End to end, finding a game and tournaments: the real bot process (``python -m bot``)
against the local Discord stand-in, which checks every request against Discord's OpenAPI
schema (scheduled events, DM channels and threads included). As in ``tests/test_e2e.py``:
no interaction answered late or twice, no hidden card shown, no error logged.

- quick play and invitations, as people do them;
- a reminder by direct message, once a turn, from the runner's own turn clock;
- a Swiss tournament of twelve players (people and computers) over three rounds;
- a duplicate tournament of eight tables: the same boards at every table, scored by match
  points as ``bot.tournaments.scoring`` (checked against a hand-worked example in
  ``tests/test_tournament_logic.py``) computes them from the stored hands;
- a tournament whose process is killed mid-round, started again, and finished with nothing
  lost.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from standin import (
    CHANNEL_MESSAGE,
    UPDATE_MESSAGE,
    BotProcess,
    Message,
    Player,
    StandIn,
    serving,
    shard_process,
)
from standin.game import Table
from standin.records import Database
from standin.users import RoleOption
from test_e2e import E2E, e2e  # noqa: F401 - the fixture, used by name

from bot.store.postgres import PostgresStore
from bot.texts import card_label, t
from bot.tournaments import events, scoring
from bot.tournaments.round_scores import seat_values
from engine import replay

ROLE = RoleOption(860_000_000_000_000_001, "players")


# -- quick play and invitations -------------------------------------------------------------------


def lobby(standin: StandIn, channel_id: int) -> Message:
    found = [m for m in standin.public(channel_id)
             if any(str(b.get("custom_id", "")).startswith(("fc:join:", "fc:sit:"))
                    for b in m.buttons)]
    assert found, "no lobby in the channel"
    return found[-1]


@pytest.mark.slow
async def test_quick_play_and_invitations(e2e: E2E) -> None:  # noqa: F811
    standin = e2e.standin
    ana, bo, cy, di = e2e.players("ana", "bo", "cy", "di")
    eve, gus = e2e.players("eve", "gus", channel=1)
    [fay] = e2e.players("fay", channel=2)
    boss = e2e.players("boss", manager=True)[0]
    # Bo takes invitations by direct message; a manager sets the server's call role.
    await bo.command("settings", invites="dm")
    inter = await boss.command("community", call_role=ROLE, hold_minutes=10)
    assert ROLE.mention in boss.response(inter).text

    # Ana opens a table and invites Bo and Cy: Bo gets a DM with a link, Cy a mention.
    inter = await ana.command("table new", game="filicau", invite=bo, invite_2=cy)
    assert inter.type == CHANNEL_MESSAGE
    table_msg = ana.response(inter)
    [dm] = await standin.wait_for(bo.dms, 10, "Bo's invitation")
    assert f"/{ana.channel_id}/{table_msg.id}" in dm.text
    await standin.wait_for(lambda: [m for m in ana.visible() if cy.mention in m.text
                                    and bo.mention not in m.text], 10, "Cy's mention")
    await ana.press(t("btn.join_a"), table_msg)
    inter = await di.press(t("btn.join_b"), lobby(standin, ana.channel_id))
    assert inter.type == UPDATE_MESSAGE, di.refused(inter)
    # Two seats left, both held: Eve, in another channel, is offered none.
    inter = await eve.command("tables")
    assert eve.response(inter).embeds[0]["description"] == t("tables.none")

    # Eve's /play opens a table of Schafkopf for three in her channel; Fay's /play, from a
    # third channel, seats her there (the fullest that takes her), and tells her where.
    inter = await eve.command("play", game="schafkopf3")
    eves = eve.response(inter)
    assert inter.type == CHANNEL_MESSAGE and not eves.audience and eve.mention in eves.text
    inter = await fay.command("play")
    answer = fay.response(inter)
    assert answer.audience == fay.id and f"<#{eve.channel_id}>" in answer.text
    # One seat left at Eve's table, open to all: the server's role is called, once.
    call = await standin.wait_for(
        lambda: next((m for m in standin.public(eve.channel_id)
                      if m.text.startswith(ROLE.mention)), None), 10, "the call")
    inter = await gus.press(t("btn.take_seat"), call)
    assert inter.type == CHANNEL_MESSAGE and gus.response(inter).audience == gus.id
    await standin.wait_for(lambda: gus.mention in standin.messages[eves.id].text, 10,
                           "Eve's lobby to show Gus")
    assert fay.mention in standin.messages[eves.id].text

    # The invited come and Ana's table plays.
    # Every free seat is held for them: the seat buttons say so (issue 44).
    for p, team in ((bo, "A"), (cy, "B")):
        inter = await p.press(t("btn.join_invited", team=team), lobby(standin, ana.channel_id))
        assert inter.type == UPDATE_MESSAGE, p.refused(inter)
    table = Table(standin, [ana, bo, cy, di])
    table.since = table_msg.id
    await table.start(ana)
    assert await table.play_hand(1) is not None


# -- a reminder -------------------------------------------------------------------------------


@pytest.mark.slow
async def test_a_reminder_by_direct_message_once_a_turn(e2e: E2E) -> None:  # noqa: F811
    """Ana asked for reminders; at two thirds of her 20-second turn (the runner's clock)
    she gets one direct message with a link to the table and no card; the computer plays
    for her when the turn runs out, and she got no second one for that turn."""
    [ana] = e2e.players("ana")
    await ana.command("settings", reminders="dm")
    table = Table(e2e.standin, [ana])
    await table.open(ana, [(ana, 0)], game="filicau", computers=3, turn_seconds=20)
    await table.start(ana)
    dms = await e2e.standin.wait_for(ana.dms, 30, "the reminder")
    [dm] = dms
    msg = table.table_message()
    assert msg is not None and f"/{ana.channel_id}/{msg.id}" in dm.text
    hand = e2e.db.hand(e2e.table_id(table), 1)
    assert hand is not None
    for cards in hand.replay().hands:
        for c in cards:
            assert card_label(c) not in dm.text
    # The turn runs out: the computer plays for her, and the turn has moved on.
    tid = e2e.table_id(table)
    await e2e.standin.wait_for(
        lambda: any(r["by_computer"] and r["idx"] >= 0 and
                    e2e.db.hand(tid, 1).header["members"][json.loads(r["action"])["seat"]]
                    == str(ana.id) for r in e2e.db.action_rows(tid)), 30,
        "the computer to play for Ana")
    assert len(ana.dms()) == 1


# -- tournaments --------------------------------------------------------------------------------


def tournament_id(db: Database) -> int:
    [row] = db.rows("SELECT id FROM tournaments ORDER BY id DESC LIMIT 1")
    return int(row["id"])


def round_tables(db: Database, tid: int, number: int) -> list[dict[str, Any]]:
    return [dict(r) for r in db.rows(
        "SELECT tt.*, t.message_id FROM tournament_tables tt LEFT JOIN tables t "
        "ON t.id = tt.table_id WHERE tt.tournament_id = ? AND tt.round = ? ORDER BY number",
        tid, number)]


async def ready_round(env: E2E, tid: int, number: int, tables: int) -> list[dict[str, Any]]:
    """Wait until every table of round ``number`` is made and shown in its thread."""
    def ready() -> list[dict[str, Any]] | None:
        rows = round_tables(env.db, tid, number)
        if len(rows) == tables and all(r["message_id"] for r in rows):
            return rows
        return None

    found: list[dict[str, Any]] = await env.standin.wait_for(
        ready, 60, f"the tables of round {number}")
    return found


async def play_round(env: E2E, people: Sequence[Player], rows: list[dict[str, Any]],
                     hands: int, seed: int) -> None:
    """Each table of the round, one after the other: its people press My hand in its
    thread and play its hands (Next hand between them)."""
    for i, row in enumerate(rows):
        seats = json.loads(row["seats"])
        here = [p.at(int(row["thread_id"])) for p in people if str(p.id) in seats]
        table = Table(env.standin, here, seed=seed + i, timeout=60)
        for p in here:
            await table.my_hand(p)
        for number in range(1, hands + 1):
            if number > 1:
                await table.next_hand(here[0])
            assert await table.play_hand(number) is not None


def standings_posts(standin: StandIn, channel_id: int) -> list[Message]:
    return [m for m in standin.public(channel_id)
            if m.embeds and "\n" in (m.embeds[0].get("title") or "")
            and m.embeds[0].get("footer")]


async def run_tournament(env: E2E, boss: Player, people: Sequence[Player], *, fmt: str,
                         rounds: int, hands: int, computers: int, tables: int) -> int:
    standin = env.standin
    inter = await boss.command("tournament new", game="filicau", format=fmt, rounds=rounds,
                               hands=hands, computers=computers, level="easy",
                               turn_seconds=900)
    announcement = boss.response(inter)
    tid = tournament_id(env.db)
    [event] = await standin.wait_for(lambda: list(standin.events.values()), 10,
                                     "the scheduled event")
    assert event["entity_metadata"]["location"].endswith(f"/{boss.channel_id}")
    for p in people:
        inter = await p.press(t("btn.sign_up"), announcement)
        assert inter.type == UPDATE_MESSAGE, p.refused(inter)
    await boss.press(t("btn.start_now"), standin.messages[announcement.id])
    for number in range(1, rounds + 1):
        rows = await ready_round(env, tid, number, tables)
        assert len({r["thread_id"] for r in rows}) == tables
        await play_round(env, people, rows, hands, seed=number * 100)
        await standin.wait_for(lambda n=number: len(standings_posts(standin, boss.channel_id))
                               >= n, 60, f"the standings after round {number}")
    await standin.wait_for(lambda: env.db.rows(
        "SELECT 1 FROM tournaments WHERE id = ? AND state = 'finished'", tid), 30,
        "the tournament to finish")
    await standin.wait_for(lambda: standin.events[int(event["id"])]["status"]
                           == events.COMPLETED, 10, "the event to be completed")
    return tid


def stored_rounds(db: Database, tid: int) -> tuple[list[str], list[scoring.TableRound]]:
    """The entrants, and every table's round recomputed from its stored hands (replayed by
    the engine), not from what the bot kept."""
    entrants = [r["entrant"] for r in db.rows(
        "SELECT entrant FROM tournament_entrants WHERE tournament_id = ? "
        "ORDER BY joined_at, entrant", tid)]
    out = []
    for row in db.rows("SELECT * FROM tournament_tables WHERE tournament_id = ? "
                       "ORDER BY round, number", tid):
        hands = []
        for stored in db.hands(int(row["table_id"])):
            values, sides = seat_values(replay(stored.record()))
            hands.append(scoring.HandScore(stored.number, values, sides))
        out.append(scoring.TableRound(int(row["round"]), int(row["number"]),
                                      tuple(json.loads(row["seats"])), tuple(hands)))
    return entrants, out


def final_lines(standin: StandIn, channel_id: int) -> list[str]:
    final = standings_posts(standin, channel_id)[-1]
    assert final.embeds[0]["title"].endswith(t("tour.final_title"))
    return str(final.embeds[0]["description"]).split("\n")


@pytest.mark.slow
async def test_a_swiss_tournament_of_twelve_over_three_rounds(e2e: E2E) -> None:  # noqa: F811
    """Ten people and two computer entrants: three tables of four each round, by score; one
    hand a round (Easy computers, no delay). The final results rank all twelve, every hand
    was rated, and the standings are what the stored hands say."""
    boss = e2e.players("boss", manager=True)[0]
    people = e2e.players(*(f"p{i}" for i in range(10)))
    tid = await run_tournament(e2e, boss, people, fmt="swiss", rounds=3, hands=1,
                               computers=2, tables=3)
    db = e2e.db
    entrants, rounds = stored_rounds(db, tid)
    assert len(entrants) == 12 and len(rounds) == 9
    for r in rounds:  # a person at every table; the two computers never both at one
        assert any(e.isdigit() for e in r.seats) and len(r.hands) == 1
    expected = scoring.swiss(entrants, rounds, 3)
    lines = final_lines(e2e.standin, boss.channel_id)
    assert len(lines) == 12
    for line, standing in zip(lines, expected, strict=True):
        assert line.startswith(f"{standing.place}. ")
        assert f"{standing.score:g}" in line
        if standing.entrant.isdigit():
            assert f"<@{standing.entrant}>" in line
    # Every hand of the tournament moved ratings.
    hands = db.rows("SELECT h.id FROM hands h JOIN tournament_tables tt "
                    "ON tt.table_id = h.table_id WHERE tt.tournament_id = ?", tid)
    rated = db.rows("SELECT DISTINCT hand_id FROM rating_history")
    assert {r["id"] for r in hands} <= {r["hand_id"] for r in rated}


@pytest.mark.slow
async def test_a_duplicate_tournament_of_eight_tables(e2e: E2E) -> None:  # noqa: F811
    """Eight people and twenty-four computers: eight tables, two rounds of one board. Every
    table of a round holds the same cards from the same seats (pack, dealer and status in
    the records), and the final match points are the ones the stored hands give."""
    boss = e2e.players("boss", manager=True)[0]
    people = e2e.players(*(f"d{i}" for i in range(8)))
    tid = await run_tournament(e2e, boss, people, fmt="duplicate", rounds=2, hands=1,
                               computers=24, tables=8)
    db = e2e.db
    entrants, rounds = stored_rounds(db, tid)
    for number in (1, 2):
        deals = set()
        for row in db.rows("SELECT table_id FROM tournament_tables WHERE tournament_id = ? "
                           "AND round = ?", tid, number):
            [hand] = db.hands(int(row["table_id"]))
            deals.add(json.dumps([hand.header["pack"], hand.header["dealer"],
                                  hand.header["status"]]))
        assert len(deals) == 1, f"round {number}: the tables were dealt different cards"
    expected = scoring.duplicate(entrants, rounds, 2)
    # Two boards, four seats, 28 pairs of tables each: 224 match points in all.
    assert sum(s.score for s in expected) == 2 * 4 * 28
    lines = final_lines(e2e.standin, boss.channel_id)
    assert len(lines) == 32
    for line, standing in zip(lines, expected, strict=True):
        assert line.startswith(f"{standing.place}. ")
        assert re.search(rf"· {standing.score:g} ", line), (line, standing)


@pytest.mark.slow
async def test_a_tournament_killed_mid_round_loses_nothing(e2e: E2E) -> None:  # noqa: F811
    """Four people and four computers, two tables, two rounds of two hands. The process is
    killed (SIGKILL) in the middle of round 1's second hand and started again: the hand
    goes on from its log, the tournament from the store; it ends with every table's hands
    played once, each round drawn once, and each standings posted once."""
    standin = e2e.standin
    boss = e2e.players("boss", manager=True)[0]
    people = e2e.players("ka", "kb", "kc", "kd")
    inter = await boss.command("tournament new", game="filicau", format="swiss", rounds=2,
                               hands=2, computers=4, level="easy", turn_seconds=900)
    announcement = boss.response(inter)
    tid = tournament_id(e2e.db)
    for p in people:
        inter = await p.press(t("btn.sign_up"), announcement)
        assert inter.type == UPDATE_MESSAGE, p.refused(inter)
    await boss.press(t("btn.start_now"), standin.messages[announcement.id])
    rows = await ready_round(e2e, tid, 1, 2)
    # The first table plays its first hand and part of its second; then the crash.
    first = rows[0]
    seats = json.loads(first["seats"])
    here = [p.at(int(first["thread_id"])) for p in people if str(p.id) in seats]
    table = Table(standin, here, seed=11, timeout=60)
    for p in here:
        await table.my_hand(p)
    assert await table.play_hand(1) is not None
    await table.next_hand(here[0])
    # One click: the deals are sealed (drawn from a secret, not the test's seed) and the draw
    # may seat one person with three computers, so after three clicks a hand with an early
    # end could already be over (3 tricks to 1, seen once); after one, no hand is decided.
    await table.play_hand(2, moves=1)
    before = e2e.db.hand(int(first["table_id"]), 2)
    assert before is not None and before.result is None
    await e2e.bot.kill()
    await e2e.bot.start()
    for p in here:  # views drawn by the killed process are not refreshed: My hand again
        await table.my_hand(p)
    assert await table.play_hand(2) is not None
    after = e2e.db.hand(int(first["table_id"]), 2)
    assert after is not None and after.actions[:len(before.actions)] == before.actions
    await play_round(e2e, people, rows[1:], 2, seed=20)
    rows = await ready_round(e2e, tid, 2, 2)
    await play_round(e2e, people, rows, 2, seed=30)
    await standin.wait_for(lambda: e2e.db.rows(
        "SELECT 1 FROM tournaments WHERE id = ? AND state = 'finished'", tid), 30,
        "the tournament to finish")
    entrants, rounds = stored_rounds(e2e.db, tid)
    assert [(r.round, r.table, len(r.hands)) for r in rounds] == [
        (1, 1, 2), (1, 2, 2), (2, 1, 2), (2, 2, 2)]
    # The humans' moves are exactly their accepted clicks at the first table.
    stored = [a["card"] for h in e2e.db.hands(int(first["table_id"])) for a in h.actions
              if h.header["members"][a["seat"]].isdigit() and "card" in a]
    assert stored == [c.custom_id.split(":")[-1] for c in table.moves]
    assert len(standings_posts(standin, boss.channel_id)) == 2
    assert len(standin.threads) == 4
    expected = scoring.swiss(entrants, rounds, 2)
    assert len(final_lines(standin, boss.channel_id)) == len(expected) == 8


# -- a tournament on PostgreSQL with shard processes ---------------------------------------------


@pytest.fixture
async def sharded() -> Any:
    async with serving(channels=2, guilds=2, shards=2) as server:
        yield server


@pytest.mark.slow
async def test_a_tournament_goes_on_under_the_process_that_takes_its_shard_over(
        sharded: StandIn, tmp_path: Path, pg_url: str) -> None:
    """Two bot processes share one PostgreSQL, each running one shard; the tournament is in
    a server of the second, the first plays an ordinary table elsewhere. A tournament belongs
    to its server, so to one process at a time: all its tables are that process's. What
    spans processes is the store: the second process is killed in the middle of round 2,
    both stop, and one process that now runs both shards finds the tournament, its tables
    and their logs, and finishes it."""
    standin = sharded
    guild0, guild1 = (standin.guild_of[c] for c in standin.channel_ids)
    assert standin.shard_of(guild0) != standin.shard_of(guild1)

    def process(name: str, shards: list[int]) -> BotProcess:
        return shard_process(standin, tmp_path, pg_url, shards, name=name)

    procs = {s: process(f"shard{s}", [s]) for s in (0, 1)}
    for p in procs.values():
        await p.start()
    store = PostgresStore(pg_url)
    await store.open()
    try:
        here = standin.channel_ids[1]
        boss = Player(standin, "boss", channel_id=here, manager=True)
        people = [Player(standin, f"s{i}", channel_id=here) for i in range(6)]
        inter = await boss.command("tournament new", game="filicau", format="swiss",
                                   rounds=2, hands=1, computers=2, level="easy",
                                   turn_seconds=900)
        announcement = boss.response(inter)
        [row] = await store.live_tournaments(guild1)
        for p in people:
            inter = await p.press(t("btn.sign_up"), announcement)
            assert inter.type == UPDATE_MESSAGE, p.refused(inter)
        await boss.press(t("btn.start_now"), standin.messages[announcement.id])
        # Meanwhile an ordinary table in the other server, on the other process.
        ana = Player(standin, "ana", channel_id=standin.channel_ids[0])
        other = Table(standin, [ana], seed=5, timeout=60)
        await other.open(ana, [(ana, 0)], game="filicau", computers=3)
        await other.start(ana)

        def shown(number: int) -> bool:
            """Round ``number``'s two tables are up, each in its thread."""
            threads = [int(th["id"]) for th in standin.threads.values()
                       if th["name"].endswith(f"round {number} · table 1")
                       or th["name"].endswith(f"round {number} · table 2")]
            return len(threads) == 2 and all(
                any(m.button_by_label(t("btn.my_hand")) for m in standin.public(tid))
                for tid in threads)

        async def tables_of(number: int) -> list[Any]:
            await standin.wait_for(lambda: shown(number), 60, f"round {number}'s tables")
            return list(await store.tournament_tables(row.id, number))

        rows = await tables_of(1)
        for i, r in enumerate(rows):
            seated = [p.at(int(r.thread_id or 0)) for p in people if str(p.id) in r.seats]
            table = Table(standin, seated, seed=40 + i, timeout=60)
            for p in seated:
                await table.my_hand(p)
            assert await table.play_hand(1) is not None
        assert await other.play_hand(1) is not None
        rows = await tables_of(2)
        first = rows[0]
        seated = [p.at(int(first.thread_id or 0)) for p in people if str(p.id) in first.seats]
        table = Table(standin, seated, seed=50, timeout=60)
        for p in seated:
            await table.my_hand(p)
        await table.play_hand(1, moves=3)

        await procs[standin.shard_of(guild1)].kill()
        for p in procs.values():
            await p.stop()
        both = process("both", [0, 1])
        await both.start()
        try:
            for p in seated:
                await table.my_hand(p)
            assert await table.play_hand(1) is not None
            second = rows[1]
            seated2 = [p.at(int(second.thread_id or 0)) for p in people
                       if str(p.id) in second.seats]
            table2 = Table(standin, seated2, seed=51, timeout=60)
            for p in seated2:
                await table2.my_hand(p)
            assert await table2.play_hand(1) is not None
            # The announcement says it is over once the tournament is stored as finished.
            await standin.wait_for(
                lambda: t("tour.over") in standin.messages[announcement.id].text, 60,
                "the tournament to finish")
            done = await store.get_tournament(row.id)
            assert done is not None and (done.state, done.round, done.shown) == (
                "finished", 2, 2)
            every = await store.tournament_tables(row.id)
            assert [(t_.round, len((t_.result or {}).get("hands", []))) for t_ in every] == [
                (1, 1), (1, 1), (2, 1), (2, 1)]
            for t_ in every:
                assert t_.table_id is not None
                for hand in await store.hands(t_.table_id):
                    replay(hand.record())
            assert both.errors() == [], both.log()[-3000:]
            for p in procs.values():
                assert p.errors() == [], p.log()[-3000:]
        finally:
            await both.stop()
    finally:
        await store.close()
        for p in procs.values():
            await p.stop()
