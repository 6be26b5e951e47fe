"""End to end, a table across servers on two shard processes: four people in four servers,
two servers on each shard, each process the real bot (``python -m bot``) on one shard of the
stand-in, sharing one real PostgreSQL. The table forms from ``/play where:everywhere``; its
owner (the process of its home server's shard) drives it, and the other process carries its
servers' clicks there (``bot.crossplay.relay``). The process that does not drive the table is
killed and started again, then the owner is killed mid-trick and started again, and the hand
finishes with no move lost or stored twice; every message of every server is checked for
hidden cards."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from standin import Message, Player, StandIn, serving, shard_process
from standin.crossgame import TIMEOUT, CrossTable
from standin.game import Table
from standin.records import HiddenCardCheck, StoredHand

from bot.store.postgres import PostgresStore
from bot.texts import FRENCH_SIGNS, SUIT_EMOJI, t
from engine import replay, seat_view


class PgHiddenCards(HiddenCardCheck):
    """The hidden-card check of ``standin.records`` against PostgreSQL: every message the
    stand-in gets, as it was written, is checked (its channel the table's home or one of its
    venues) against the stored hand, read a moment later — never behind what the bot
    showed, at most a move ahead (a check more lenient by that move)."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(db=None)  # type: ignore[arg-type]
        self.store = store
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._run())
        self.problems: list[str] = []

    def __call__(self, msg: Message) -> None:
        self.queue.put_nowait(Seen(msg.channel_id, msg.audience, msg.text,
                                   [dict(b) for b in msg.buttons], list(msg.files)))

    async def _run(self) -> None:
        while True:
            seen = await self.queue.get()
            try:
                await self._check_seen(seen)
            except Exception as e:  # the test fails on it, with its reason
                self.problems.append(repr(e))
            finally:
                self.queue.task_done()

    async def _check_seen(self, seen: Seen) -> None:
        table_id = None
        for row in await self.store.open_tables():
            if row.channel_id == seen.channel_id or any(
                    v.channel_id == seen.channel_id for v in await self.store.venues(row.id)):
                table_id = row.id
        if table_id is None:
            return
        stored = [StoredHand(h.id, h.table_id, h.number, h.header, h.actions, h.result)
                  for h in sorted(await self.store.hands(table_id, limit=100),
                                  key=lambda h: h.number)]
        self.db = _Hands(table_id, stored)
        super().__call__(seen)  # type: ignore[arg-type]

    async def drain(self) -> None:
        await self.queue.join()

    async def stop(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


@dataclass
class Seen:
    channel_id: int
    audience: int | None
    text: str
    buttons: list[dict[str, Any]]
    files: list[tuple[str, bytes]]


class _Hands:
    """What ``HiddenCardCheck`` reads of the database: the table of the channel, its hands."""

    def __init__(self, table_id: int, hands: list[StoredHand]) -> None:
        self.id, self.stored = table_id, hands

    def table_in(self, channel_id: int) -> dict[str, int]:
        return {"id": self.id}

    def hands(self, table_id: int) -> list[StoredHand]:
        return self.stored


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    """Four servers, one channel each: servers 0 and 2 on shard 0, 1 and 3 on shard 1."""
    async with serving(channels=4, guilds=4, shards=2) as server:
        yield server


async def four_servers_on(standin: StandIn) -> list[Player]:
    """Each server's manager turns play across servers on (an answer only they see); the
    four people, one in each server's channel."""
    for number, c in enumerate(standin.channel_ids):
        boss = Player(standin, f"boss{number}", channel_id=c, manager=True)
        inter = await boss.command("admin crossplay", mode="on")
        assert boss.response(inter).audience == boss.id
    return [Player(standin, name, channel_id=c)
            for name, c in zip(("ana", "bo", "cy", "di"), standin.channel_ids, strict=True)]


@pytest.mark.slow
async def test_a_table_across_servers_on_two_shard_processes(
    standin: StandIn, tmp_path: Path, pg_url: str
) -> None:
    guilds = [standin.guild_of[c] for c in standin.channel_ids]
    assert [standin.shard_of(g) for g in guilds] == [0, 1, 0, 1]
    procs = {s: shard_process(standin, tmp_path, pg_url, [s]) for s in (0, 1)}
    for p in procs.values():
        await p.start()
    store = PostgresStore(pg_url)
    await store.open()
    hidden = PgHiddenCards(store)
    standin.observers.append(hidden)
    try:
        people = await four_servers_on(standin)
        spent = standin.global_requests
        for p in people:
            inter = await p.command("play", where="everywhere", game="filicau")
            assert p.response(inter).audience == p.id
        table = CrossTable(standin, people, seed=7)
        await standin.wait_for(lambda: all(table.table_message(p) for p in people),
                               TIMEOUT, "the table in every server's channel")
        [row] = await store.open_tables()
        # Whichever process's /play completed the group formed the table, its home in a
        # server of that process: it drives the table.
        owner = procs[standin.shard_of(row.guild_id)]
        other = procs[1 - standin.shard_of(row.guild_id)]
        venues = {v.guild_id: v for v in await store.venues(row.id)}
        assert sorted([row.guild_id, *venues]) == guilds
        for p in people:
            told = await standin.wait_for(
                lambda p=p: p.latest(str(table.table_message(p).id)),  # type: ignore[union-attr]
                TIMEOUT, f"{p.name} told where the table is")
            assert told.audience == p.id
            # No mention of a person of another server, in any server.
            assert "<@" not in table.table_message(p).text  # type: ignore[union-attr]

        # Ana's table message copied into Cy's channel (a forged click, on the process
        # that does not drive the table): refused there, not carried on.
        ana, cy = people[0], people[2]
        copied = table.table_message(ana)
        assert copied is not None
        forged = Message(copied.id, cy.channel_id, None, copied.data, [])
        inter = await cy.click(f"fc:hand:{row.id}", message=forged)
        assert await table.settled(cy, inter) == t("err.bad_button")

        for p in people:
            await table.my_hand(p)
        assert table.relayed == 2  # the two of the other process's servers, carried over
        await table.moves_across(6)
        # Every server's table message is a follow-up of a /play made there, edited by its
        # token: none of this cost a request of the bot's global limit.
        for p in people:
            assert table.table_message(p).token is not None  # type: ignore[union-attr]
        assert standin.global_requests == spent

        # The process that does not drive the table dies and comes back: its players play
        # on from the hand views the owner drew for them.
        await other.kill()
        await other.start()
        # The hand is played out; a player of that process deals the next one from under
        # the result in their channel (carried to the owner: the new hand's table is posted
        # there in place of "thinking…"), and everybody opens their new hand.
        await table.play(await table.playing())
        dealer = next(p for p in people if standin.shard_of(standin.guild_of[p.channel_id])
                      != standin.shard_of(row.guild_id))
        await table.next_hand(dealer)
        await table.moves_across(5)

        # The owner dies mid-trick; started again, it takes the table back from the store
        # with its venues, and every server's clicks reach it again.
        await owner.kill()
        await owner.start()
        for p in people:
            await table.my_hand(p)
        await table.moves_across(2)
        number = await table.playing()

        # A server of the other process chooses French faces: the owner, which draws that
        # server's table message, hears of it and redraws it with French suit signs; the
        # other servers' messages keep the game's own.
        french = next(p for p in people if standin.shard_of(standin.guild_of[p.channel_id])
                      != standin.shard_of(row.guild_id))
        boss = Player(standin, "boss-faces", channel_id=french.channel_id, manager=True)
        inter = await boss.command("admin faces", faces="french")
        assert boss.response(inter).audience == boss.id

        def signs(p: Player) -> tuple[bool, bool]:
            text = table.table_message(p).text  # type: ignore[union-attr]
            return (any(s in text for s in FRENCH_SIGNS),
                    any(s.rstrip("\ufe0f") in text for s in SUIT_EMOJI))

        await standin.wait_for(lambda: signs(french) == (True, False), TIMEOUT,
                               f"French suit signs in {french.name}'s channel")
        assert all(signs(p) == (False, True) for p in people if p is not french)

        # A player of the other process leaves mid-hand (the question and the yes carried
        # to the owner): the computer plays their seat to the end of the hand, and every
        # server's channel says so, naming nobody by a mention.
        leaver = next(p for p in people if standin.shard_of(standin.guild_of[p.channel_id])
                      != standin.shard_of(row.guild_id))
        inter = await leaver.press(t("btn.leave_hand"), table.table_message(leaver))  # type: ignore[arg-type]
        assert await table.settled(leaver, inter) is None
        [question] = [standin.messages[f] for f in inter.followups]
        assert question.audience == leaver.id and question.content == t("hand.leave_ask")
        inter = await leaver.press(t("btn.leave_yes"), question)
        assert await table.settled(leaver, inter) is None
        assert standin.messages[question.id].content == t("hand.left")
        table.players.remove(leaver)
        said = t("turn.left", user="\0").split("\0")[1]
        for p in people:
            notice = await standin.wait_for(
                lambda p=p: next((m for m in standin.public(p.channel_id)
                                  if m.content.endswith(said)), None),
                TIMEOUT, f"the notice in {p.name}'s channel")
            assert "<@" not in notice.content
        await table.play(number)
        for p in people:
            await standin.wait_for(lambda p=p: table.result(number, p), TIMEOUT,
                                   f"the result in {p.name}'s channel")

        # Every move accepted is stored once, and the hands replay; the leaver's seat was
        # played by the computer after they left.
        hands = sorted(await store.hands(row.id, limit=100), key=lambda h: h.number)
        assert hands[-1].number == number
        stored, computers = [], set()
        for hand in hands:
            replay(hand.record())
            for r in await store.db.fetch("SELECT action, by_computer FROM actions "
                                          "WHERE hand_id = ? ORDER BY idx", hand.id):
                action = json.loads(r["action"])
                if r["by_computer"]:
                    computers.add((hand.number, action["seat"]))
                elif "card" in action:
                    stored.append(str(action["card"]))
        clicked = [cid.split(":")[-1] for _, cid in table.moves
                   if cid.split(":")[1] == "card"]
        assert stored == clicked
        assert {p.name for p, _ in table.moves} == {"ana", "bo", "cy", "di"}
        seat = hands[-1].header["members"].index(str(leaver.id))
        assert (number, seat) in computers
        assert table.relayed > len(table.moves) // 2  # those of two players, at least
        # A server of the other process turns play across servers off, between hands: its
        # process tells the owner, which hands that server's seat to the computer, and
        # every server's channel says why.
        stayer = next(p for p in people if p is not leaver and standin.shard_of(
            standin.guild_of[p.channel_id]) != standin.shard_of(row.guild_id))
        boss = Player(standin, "boss-off", channel_id=stayer.channel_id, manager=True)
        inter = await boss.command("admin crossplay", mode="off")
        assert boss.response(inter).content == t("ok.crossplay_off")
        why = t("crossplay.withdrawn", user=stayer.name.title())
        # Their line among the table message's seats ("A3 Cy", "B4 Di (deals)").
        seated = re.compile(rf"(?m)^[AB]\d {re.escape(stayer.name.title())}(?: \(|$)")
        for p in people:
            await standin.wait_for(
                lambda p=p: any(m.content == why for m in standin.public(p.channel_id)),
                TIMEOUT, f"why, in {p.name}'s channel")
            await standin.wait_for(
                lambda p=p: not seated.search(table.table_message(p).text),  # type: ignore[union-attr]
                TIMEOUT, f"the computer in {stayer.name}'s seat, in {p.name}'s channel")
        after = await store.get_table(row.id)
        assert after is not None and str(stayer.id) not in after.seats
        await hidden.drain()
        assert not hidden.problems, hidden.problems
        assert not hidden.leaks, hidden.leaks
        assert hidden.checked > 0
        for p in procs.values():
            assert p.errors() == [], p.log()[-3000:]
    finally:
        await hidden.stop()
        await store.close()
        for p in procs.values():
            await p.stop()


@pytest.mark.slow
async def test_a_turn_runs_out_for_a_player_of_the_other_process(
    standin: StandIn, tmp_path: Path, pg_url: str
) -> None:
    """At a quick table (30 s a turn) a player of the process that does not drive the table
    lets their turn run out: only their server's channel is warned, the owner's computer
    plays that move for them and redraws their hand view, and play goes on."""
    procs = {s: shard_process(standin, tmp_path, pg_url, [s]) for s in (0, 1)}
    for p in procs.values():
        await p.start()
    store = PostgresStore(pg_url)
    await store.open()
    try:
        people = await four_servers_on(standin)
        for p in people:
            await p.command("play", where="everywhere", game="filicau", pace="quick")
        table = CrossTable(standin, people, seed=3)
        await standin.wait_for(lambda: all(table.table_message(p) for p in people),
                               TIMEOUT, "the table in every server's channel")
        [row] = await store.open_tables()
        home_shard = standin.shard_of(row.guild_id)
        for p in people:
            await table.my_hand(p)
        # Play on until it is the turn of a player of the other process, who lets it run
        # out (their hand view has their cards enabled).
        remote = [p for p in people
                  if standin.shard_of(standin.guild_of[p.channel_id]) != home_shard]

        async def away(number: int) -> Player | None:
            """The player of the other process whose turn it is (by the stored hand), once
            their hand view has their cards enabled."""
            [stored] = await store.hands(row.id, limit=1)
            hand = replay(stored.record())
            if stored.number != number or hand.finished:
                return None
            for p in remote:
                seat = stored.header["members"].index(str(p.id))
                view = Table.hand_view(p, number)
                if any(a.kind == "card" for a in seat_view(hand, seat).legal) \
                        and view is not None and view.moves():
                    return p
            return None

        number = await table.playing()
        while (late := await away(number)) is None:
            await table.step(number)
            number = await table.playing()
        moved = len((await store.hands(row.id, limit=1))[0].actions)
        warned = t("turn.warning", user=late.mention, when="\0").split("\0")[0]
        await standin.wait_for(
            lambda: any(m.content.startswith(warned) for m in standin.public(late.channel_id)),
            TIMEOUT, "the warning in their own server's channel")
        # The computer plays for them, and the turn moves on.
        await standin.wait_for(lambda: table.turn() not in (late, None), 90,
                               "the turn to run out")
        [hand] = await store.hands(row.id, limit=1)
        rows = await store.db.fetch(
            "SELECT action, by_computer FROM actions WHERE hand_id = ? ORDER BY idx", hand.id)
        seat = hand.header["members"].index(str(late.id))
        assert any(r["by_computer"] and json.loads(r["action"])["seat"] == seat
                   for r in rows[moved:])
        # Their hand view is redrawn by the owner: their cards no longer enabled.
        await standin.wait_for(lambda: not Table.hand_view(late, number).moves()  # type: ignore[union-attr]
                               or table.turn() is late, TIMEOUT, "their hand view redrawn")
        # A person of another server is never mentioned in a server's channel.
        for p in people:
            if p is not late:
                assert not any(late.mention in m.content
                               for m in standin.public(p.channel_id)), p.name
        await table.moves_across(3)
        for p in procs.values():
            assert p.errors() == [], p.log()[-3000:]
    finally:
        await store.close()
        for p in procs.values():
            await p.stop()
