"""The upgrade of docs/scale.md ("Upgrading to a new version"), run: two shard processes of
the real bot on one PostgreSQL play a table each against the local Discord stand-in; the
documented ``python -m bot.migrate`` of a "new version" adds a step to the schema while they
play; then each process in turn hands its shard to a standby of the new version started
beside it, and is stopped, while the other shard's tables play on. No move is lost, none is
stored twice, no hand has two results, and the old version refuses to start on the new
schema.

The new version is this code with one step more, added by a ``sitecustomize`` module on the
new processes' ``PYTHONPATH`` (Python's own start-up hook, run before ``-m bot``), which
appends the step to ``bot.store.migrations.MIGRATIONS``. Nothing in the bot knows of it: no
setting, no variable, no code path that production runs differently.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import signal
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import pytest
from standin import BotProcess, Player, StandIn, shard_process
from standin.game import Table

from bot.store import MIGRATIONS, migrations
from bot.store.postgres import PostgresStore
from bot.texts import t
from engine import replay

ROOT = Path(__file__).resolve().parents[1]
SCALE = ROOT / "docs" / "scale.md"

#: The new version's step: additive, as the procedure asks (a column with a default on the
#: table every move writes, an index on it).
STEP = """
    ALTER TABLE actions ADD COLUMN seen_by_upgrade $bool NOT NULL DEFAULT $false;
    CREATE INDEX actions_by_user ON actions (user_id);
"""
NEW = len(MIGRATIONS) + 1


def documented_migrate() -> str:
    """The upgrade's migrate line in docs/scale.md, as written."""
    text = SCALE.read_text(encoding="utf-8")
    section = text[text.index("## Upgrading to a new version"):]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    [line] = [c for c in lines if "bot.migrate" in c]
    return line


@pytest.fixture
def new_version(tmp_path: Path) -> dict[str, str]:
    """The environment that makes a process the new version."""
    folder = tmp_path / "new-version"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(textwrap.dedent(f'''\
        """The new version of the upgrade test: this code, with one step more."""
        from bot.store import migrations

        migrations.MIGRATIONS.append({STEP!r})
        '''), encoding="utf-8")
    path = os.environ.get("PYTHONPATH")
    return {"PYTHONPATH": str(folder) + (os.pathsep + path if path else "")}


@dataclass
class Players:
    """One table's people, playing hand after hand until told to stop; paused (between two
    clicks) while the process driving their table is replaced."""

    table: Table
    people: list[Player]
    shard: int
    go: asyncio.Event = field(default_factory=asyncio.Event)
    resting: asyncio.Event = field(default_factory=asyncio.Event)
    stop: bool = False
    #: After a pause: the hand views drawn by the old process are not refreshed by the new
    #: one, so each person presses My hand again.
    redraw: bool = False
    task: asyncio.Task[None] | None = None

    async def play(self) -> None:
        number = self.table.number() or 1
        while True:
            if not self.go.is_set():
                self.resting.set()
                await self.go.wait()
                self.resting.clear()
                if self.redraw:
                    for p in self.people:
                        await self.table.my_hand(p)
                    self.redraw = False
                continue
            if self.stop:
                # Told to stop right after a click: the computers whose turns follow it
                # still play. Done once the table waits for one of these people.
                await self.table.standin.wait_for(
                    lambda last=number: self.table.result(last) or self.table.to_act(), 60,
                    "the table to wait for a person", channel_id=self.table.channel_id)
                return
            if not await self.table.step(number):
                await self.table.next_hand(self.people[number % 2])
                number += 1

    async def pause(self) -> None:
        self.go.clear()
        await asyncio.wait_for(self.resting.wait(), 60)

    def resume(self) -> None:
        self.redraw = True
        self.go.set()


def process(standin: StandIn, tmp_path: Path, url: str, name: str, shard: int,
            env: dict[str, str] | None = None) -> BotProcess:
    bot = shard_process(standin, tmp_path, url, [shard], name=name, computer_delay=0.05)
    # The computers think in a thread: three processes' worker pools starting on two loaded
    # cores are not what this test is about.
    bot.env.update(AI_PROCESSES="0", **(env or {}))
    return bot


async def moved(standin: StandIn, tables: list[Players], more: int) -> None:
    """Until each of these tables has had ``more`` accepted clicks more."""
    goal = {id(p): len(p.table.moves) + more for p in tables}

    def done() -> bool:
        for p in tables:
            if p.task is not None and p.task.done():
                p.task.result()  # a player's failure, raised here
        return all(len(p.table.moves) >= goal[id(p)] for p in tables)

    await standin.wait_for(done, 90, f"{more} more moves at each table")


def said(bot: BotProcess, line: str, starting: asyncio.Task[None]) -> Callable[[], bool]:
    """Whether the process has logged ``line`` (or stopped starting, for better or worse)."""
    return lambda: line in bot.log() or starting.done()


async def run(line: str, env: dict[str, str]) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        "bash", "-c", line.replace(".venv/bin/python", shlex.quote(sys.executable)),
        cwd=ROOT, env={**os.environ, **env}, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    async with asyncio.timeout(120):
        out, _ = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode()


@pytest.mark.slow
async def test_a_rolling_upgrade_with_a_migration_loses_no_move(
    tmp_path: Path, pg_url: str, new_version: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    standin = StandIn(channels=2, guilds=2, shards=2)
    await standin.start()
    old = [process(standin, tmp_path, pg_url, f"old{s}", s) for s in (0, 1)]
    new: list[BotProcess] = []
    tables: list[Players] = []
    try:
        for bot in old:
            await bot.start()
        for i, cid in enumerate(standin.channel_ids):
            people = [Player(standin, f"{n}{i}", channel_id=cid) for n in ("ana", "bo")]
            table = Table(standin, people, seed=i + 1, timeout=60)
            await table.open(people[0], [(people[0], 0), (people[1], 1)], game="filicau",
                             computers=2)
            await table.start(people[0])
            tables.append(Players(table, people, standin.shard_of(standin.guild_of[cid])))
        assert {p.shard for p in tables} == {0, 1}
        for p in tables:
            p.go.set()
            p.task = asyncio.create_task(p.play())
        await moved(standin, tables, 3)

        # 1. Migrate, while the old version plays.
        env = {**old[0].env, **new_version}
        code, out = await run(documented_migrate(), env)
        assert code == 0, out
        assert f"schema version {NEW - 1} -> {NEW}" in out
        await moved(standin, tables, 3)  # the old version plays on the new schema

        # The old version now refuses to start on it, saying why.
        late = process(standin, tmp_path, pg_url, "late-old", 0)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=ROOT, env=late.env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        async with asyncio.timeout(60):
            refusal = (await proc.communicate())[0].decode()
        assert proc.returncode != 0
        assert f"has schema version {NEW}, newer than this bot knows ({NEW - 1}): upgrade the " \
               "bot" in refusal, refusal[-2000:]

        # 2. One process at a time: its standby of the new version waits for its shard, the
        # old process stops, the standby takes over; the other shard's tables play on.
        for shard in (0, 1):
            standby = process(standin, tmp_path, pg_url, f"new{shard}", shard, new_version)
            new.append(standby)
            starting = asyncio.create_task(standby.start(timeout=120))
            waiting = f"shards [{shard}] of 2 are still held by another process; waiting"
            await standin.wait_for(said(standby, waiting, starting), 60,
                                   "the standby to wait for its shard")
            assert not starting.done(), standby.log()[-2000:]
            here = [p for p in tables if p.shard == shard]
            others = [p for p in tables if p.shard != shard]
            for p in here:
                await p.pause()
            assert await old[shard].stop(sig=signal.SIGTERM) == 0
            await starting
            assert f"this process owns shards [{shard}] of 2" in standby.log()
            await standin.wait_for(said(standby, "ready as ", starting), 60,
                                   "the standby to be ready")
            for p in here:
                p.resume()
            await moved(standin, others, 1)  # they never stopped
            await moved(standin, here, 4)  # on, under the new version

        await moved(standin, tables, 4)
        for p in tables:
            await p.pause()
            p.stop = True
            p.resume()
        for p in tables:
            assert p.task is not None
            await p.task
        # The tables wait for their people; the store is read once no process writes to it
        # any more (an open window closes by itself), so that the hands, the results and
        # the count of action rows are of one moment.
        for bot in new:
            assert await bot.stop() == 0

        # Nothing lost, nothing twice (read by a store of the new version).
        monkeypatch.setattr(migrations, "MIGRATIONS", [*MIGRATIONS, STEP])
        store = PostgresStore(pg_url)
        await store.open()
        try:
            assert store.upgraded_from == NEW
            finished = moves = 0
            for p in tables:
                [row] = [r for r in await store.open_tables()
                         if r.channel_id == p.table.channel_id]
                hands = sorted(await store.hands(row.id, limit=100), key=lambda h: h.number)
                for h in hands:
                    replay(h.record())
                moves += sum(len(h.actions) for h in hands)
                humans = [a["card"] for h in hands for a in h.actions
                          if h.header["members"][a["seat"]].isdigit()]
                assert humans == [c.custom_id.split(":")[-1] for c in p.table.moves]
                done = [h for h in hands if h.result is not None]
                finished += len(done)
                for h in done:  # one result message a hand
                    title = t("result.title", number=h.number, a=0, b=0).split(":")[0]
                    posted = [m for m in p.table.public() if m.embeds and (
                        (m.embeds[0].get("title") or "") + ":").startswith(title + ":")]
                    assert len(posted) == 1, [m.embeds[0].get("title") for m in posted]
            con = await asyncpg.connect(pg_url)
            try:
                results = await con.fetchval("SELECT count(*) FROM results")
                stored = await con.fetchval("SELECT count(*) FROM actions")
                column = await con.fetchval(
                    "SELECT count(*) FROM information_schema.columns WHERE table_schema = "
                    "current_schema() AND table_name = 'actions' "
                    "AND column_name = 'seen_by_upgrade'")
            finally:
                await con.close()
            assert results == finished > 0
            assert stored == moves  # every action row belongs to a hand that replays
            assert column == 1
        finally:
            await store.close()
        for bot in (*old, *new):
            assert bot.errors() == [], bot.log()[-3000:]
    finally:
        for p in tables:
            if p.task is not None and not p.task.done():
                p.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await p.task
        for bot in (*old, *new):
            await bot.stop()
        await standin.stop()
    assert not standin.problems, standin.problems
