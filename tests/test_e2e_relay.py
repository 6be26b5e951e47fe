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
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from standin import CHANNEL_MESSAGE, UPDATE_MESSAGE, BotProcess, Message, Player, StandIn
from standin.game import Table
from standin.records import HiddenCardCheck, StoredHand
from standin.server import DEFERRED_MESSAGE, DEFERRED_UPDATE, Interaction

from bot.store.postgres import PostgresStore
from bot.texts import t
from engine import replay

#: Answers to a click on a view the table has moved past (as ``standin.game``'s).
MOVED_ON = {t("illegal.wrong_phase"), t("illegal.not_your_turn"), t("err.stale_trick"),
            t("illegal.hand_over"), t("err.hand_over")}
NUMBER = re.compile(r" — hand (\d+)$")
#: Generous: two bots, PostgreSQL and the stand-in share a loaded machine.
TIMEOUT = 60.0


def process(standin: StandIn, tmp_path: Path, url: str, shard: int) -> BotProcess:
    return BotProcess(standin, tmp_path / "unused.sqlite3", tmp_path / f"shard{shard}.log",
                      database_url=url, shard_ids=[shard], shard_count=2)


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
    # Four servers, one channel each: servers 0 and 2 on shard 0, 1 and 3 on shard 1.
    server = StandIn(channels=4, guilds=4, shards=2)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    assert not server.problems, server.problems


class CrossTable:
    """One table as its four players see it, each in their own server's channel."""

    def __init__(self, standin: StandIn, players: list[Player], seed: int) -> None:
        self.standin = standin
        self.players = players
        self.rng = random.Random(seed)
        #: Every card or choice the bot accepted, in order: (player, custom_id).
        self.moves: list[tuple[Player, str]] = []
        #: Clicks answered by a deferral and a webhook (carried between processes).
        self.relayed = 0

    def table_message(self, p: Player) -> Message | None:
        for m in reversed(self.standin.public(p.channel_id)):
            if any(str(b.get("custom_id", "")).startswith("fc:hand:") for b in m.buttons):
                return m
        return None

    def number(self) -> int | None:
        m = self.table_message(self.players[0])
        found = m and m.embeds and NUMBER.search(m.embeds[0].get("title") or "")
        return int(found.group(1)) if found else None

    def result(self, p: Player, number: int) -> Message | None:
        prefix = t("result.title", number=number, a=0, b=0).split(":")[0]
        for m in self.standin.public(p.channel_id):
            title = (m.embeds[0].get("title") or "") if m.embeds else ""
            if title == prefix or title.startswith(prefix + ":"):
                return m
        return None

    async def settled(self, p: Player, inter: Interaction) -> str | None:
        """Wait for the bot's full answer to a click; its refusal's text, or None."""
        try:
            async with asyncio.timeout(TIMEOUT):
                await inter.settled.wait()
        except TimeoutError:
            raise AssertionError(f"{p.name}'s click {inter.custom_id} was never answered "
                                 f"in full (answered with type {inter.type})") from None
        if inter.type in (DEFERRED_MESSAGE, DEFERRED_UPDATE):
            self.relayed += 1
        if inter.type in (CHANNEL_MESSAGE, DEFERRED_MESSAGE):
            msg = self.standin.messages[inter.original] if inter.original else None
            if msg is not None and msg.audience == p.id and not msg.embeds \
                    and not msg.buttons and not msg.deleted:
                return msg.content
        for fid in inter.followups:
            msg = self.standin.messages[fid]
            if msg.audience == p.id and not msg.buttons:
                return msg.content
        return None

    async def my_hand(self, p: Player) -> Message:
        table = await self.standin.wait_for(lambda: self.table_message(p), TIMEOUT,
                                            f"{p.name}'s table message")
        inter = await p.press(t("btn.my_hand"), table)
        refused = await self.settled(p, inter)
        assert refused is None, refused
        assert inter.type in (CHANNEL_MESSAGE, DEFERRED_MESSAGE)
        view = p.response(inter)
        assert view.audience == p.id and view.content.startswith("**"), view.text
        return view

    def to_act(self, number: int) -> tuple[Player, Message] | None:
        for p in self.players:
            view = Table.hand_view(p, number)
            if view is not None and (view.moves() or [
                    m for m in view.selects if m["custom_id"].split(":")[1]
                    in ("act", "together")]):
                return p, view
        return None

    async def step(self, number: int) -> bool:
        """Wait until the hand is over (False) or a player may act, who clicks (True)."""
        found = await self.standin.wait_for(
            lambda: ("over" if self.result(self.players[0], number) else None)
            or self.to_act(number), TIMEOUT, f"a move in hand {number}")
        if found == "over":
            return False
        p, view = found
        menus = [m for m in view.selects if m["custom_id"].split(":")[1] in ("act", "together")]
        choices = sorted(view.moves()) + [m["custom_id"] for m in menus]
        cid = self.rng.choice(choices)
        menu = next((m for m in menus if m["custom_id"] == cid), None)
        if menu is not None:
            values = [o["value"] for o in menu["options"]]
            inter = await p.choose(cid, self.rng.sample(values, menu.get("min_values", 1)),
                                   message=view)
        else:
            inter = await p.click(cid, message=view)
        refused = await self.settled(p, inter)
        if refused is not None:
            assert menu is not None or refused in MOVED_ON, f"{p.name}: {cid}: {refused}"
            return True
        assert inter.type in (UPDATE_MESSAGE, DEFERRED_UPDATE)
        if menu is None:
            self.moves.append((p, cid))
        return True

    async def play(self, number: int, moves: int | None = None) -> None:
        done = 0
        while moves is None or done < moves:
            if not await self.step(number):
                return
            done += 1


@pytest.mark.slow
async def test_a_table_across_servers_on_two_shard_processes(
    standin: StandIn, tmp_path: Path, pg_url: str
) -> None:
    guilds = [standin.guild_of[c] for c in standin.channel_ids]
    assert [standin.shard_of(g) for g in guilds] == [0, 1, 0, 1]
    procs = {s: process(standin, tmp_path, pg_url, s) for s in (0, 1)}
    for p in procs.values():
        await p.start()
    store = PostgresStore(pg_url)
    await store.open()
    hidden = PgHiddenCards(store)
    standin.observers.append(hidden)
    try:
        people = [Player(standin, name, channel_id=c)
                  for name, c in zip(("ana", "bo", "cy", "di"), standin.channel_ids,
                                     strict=True)]
        for number, c in enumerate(standin.channel_ids):
            boss = Player(standin, f"boss{number}", channel_id=c, manager=True)
            inter = await boss.command("admin crossplay", mode="on")
            assert boss.response(inter).audience == boss.id
        for p in people:
            inter = await p.command("play", where="everywhere", game="filicau")
            assert p.response(inter).audience == p.id
        table = CrossTable(standin, people, seed=7)
        await standin.wait_for(lambda: all(table.table_message(p) for p in people),
                               TIMEOUT, "the table in every server's channel")
        [row] = await store.open_tables()
        # The last /play (di's, shard 1) formed the table: its home is the longest waiting
        # player of that process's servers (bo's), and that process drives it.
        assert row.guild_id == guilds[1]
        owner, other = procs[1], procs[0]
        venues = {v.guild_id: v for v in await store.venues(row.id)}
        assert sorted(venues) == [guilds[0], guilds[2], guilds[3]]
        for p in people:
            told = await standin.wait_for(
                lambda p=p: p.latest(str(table.table_message(p).id)),  # type: ignore[union-attr]
                TIMEOUT, f"{p.name} told where the table is")
            assert told.audience == p.id
            # No mention of a person of another server, in any server.
            assert "<@" not in table.table_message(p).text  # type: ignore[union-attr]

        # Ana's table message copied into Cy's channel (a forged click, on the process
        # that does not drive the table): refused there, not carried on.
        ana, bo, cy, di = people
        copied = table.table_message(ana)
        assert copied is not None
        forged = Message(copied.id, cy.channel_id, None, copied.data, [])
        inter = await cy.click(f"fc:hand:{row.id}", message=forged)
        assert await table.settled(cy, inter) == t("err.bad_button")

        for p in people:
            await table.my_hand(p)
        assert table.relayed == 2  # ana's and cy's, carried to the owner
        await table.play(1, moves=6)

        # The process that does not drive the table dies and comes back: its players play
        # on from the hand views the owner drew for them.
        await other.kill()
        await other.start()
        await table.play(1, moves=5)

        # The owner dies mid-trick; started again, it takes the table back from the store
        # with its venues, and every server's clicks reach it again.
        await owner.kill()
        await owner.start()
        for p in people:
            await table.my_hand(p)
        await table.play(1)
        for p in people:
            await standin.wait_for(lambda p=p: table.result(p, 1), TIMEOUT,
                                   f"the result in {p.name}'s channel")

        # Every move accepted is stored once, and the hand replays.
        [hand] = await store.hands(row.id, limit=10)
        replay(hand.record())
        stored = [str(a["card"]) for a in hand.actions if "card" in a]
        clicked = [cid.split(":")[-1] for _, cid in table.moves
                   if cid.split(":")[1] == "card"]
        assert stored == clicked
        assert {p.name for p, _ in table.moves} == {"ana", "bo", "cy", "di"}
        assert table.relayed > len(table.moves) // 2  # ana's and cy's moves, at least
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
