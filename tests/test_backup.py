"""``python -m bot.backup``: a copy made while the bot plays is the database at one moment, and
a fresh bot restored from it goes on from there.

The whole story, on SQLite and on a real PostgreSQL: the real bot process plays a hand
against the local Discord stand-in; mid-trick the documented backup command copies its
database (the PostgreSQL copy restore-tested in a scratch database by ``--check-into``); the
bot plays on, and stops; the documented restore command puts the copy into a new database, a
new bot process starts on it, and the players see the table and their hands as they were at
the copy, the same buttons, and finish the hand. Around it: a restore is refused while a bot
owns the database, keeps what it replaces, and takes back a newer schema's tables.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import re
import shlex
import sys
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from standin import BotProcess, Message, Player, StandIn
from standin.game import Table, acting

from bot.backup import postgres, sqlite
from bot.backup.copies import BackupError, Copy
from bot.store import MIGRATIONS, SqliteStore, Store, make_store
from bot.store.postgres import PostgresStore
from bot.texts import t
from engine import replay

try:
    from tests.bot_fixtures import play, started_table
    from tests.pg_server import Cluster
except ImportError:  # plain `pytest`, where tests/ itself is on sys.path
    from bot_fixtures import play, started_table  # type: ignore[no-redef,import-not-found,unused-ignore]
    from pg_server import Cluster  # type: ignore[no-redef,import-not-found,unused-ignore]

ROOT = Path(__file__).resolve().parents[1]
SETUP = ROOT / "docs" / "setup.md"
FOUR = ("ana", "bo", "cy", "di")
#: A copy's name, as the documents show it (the real file takes the example's place).
NAME = re.compile(r"backups/filicau-\d{8}T\d{6}Z\.(?:sqlite3|pgdump)")
#: A Discord timestamp counting down: when a turn ends by itself.
COUNTDOWN = re.compile(r"<t:(\d+):R>")
#: The documents' example scratch database.
SCRATCH = "postgresql://filicau:secret@db.example/filicau_check"


# -- the documented commands ------------------------------------------------------------------


def documented() -> list[str]:
    """The lines of docs/setup.md's bash blocks that this file runs (the backup's own, and the
    PostgreSQL programs beside it), without their comments."""
    blocks = re.findall(r"```bash\n(.*?)```", SETUP.read_text(encoding="utf-8"), re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines
            if "bot.backup" in line or line.startswith(("createdb ", "pg_restore "))]


def command(*needles: str, without: str = "\0") -> str:
    """The one documented line holding every needle (and not ``without``)."""
    found = [c for c in documented() if all(n in c for n in needles) and without not in c]
    assert len(found) == 1, (needles, found)
    return found[0]


#: What each scenario runs, by backend: the backup, its check (PostgreSQL), the restore.
RUN = {
    "sqlite": lambda: [command("bot.backup", without="--")],
    "postgres": lambda: [command("createdb "), command("--check-into"),
                         command("pg_restore --list")],
}
RESTORE = {"sqlite": lambda: command("--restore", ".sqlite3"),
           "postgres": lambda: command("--restore", ".pgdump")}


def test_every_documented_backup_command_is_run_here() -> None:
    ran = {line for lines in RUN.values() for line in lines()} | {f() for f in RESTORE.values()}
    assert set(documented()) == ran


async def shell(line: str, cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    """A documented line, as written but with this test's interpreter, in ``cwd`` (the bot's
    folder), while the event loop goes on serving the stand-in."""
    proc = await asyncio.create_subprocess_exec(
        "bash", "-c", line.replace(".venv/bin/python", shlex.quote(sys.executable)), cwd=cwd,
        env={**os.environ, **env}, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    async with asyncio.timeout(120):
        out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


# -- where a bot keeps its data ---------------------------------------------------------------


def pg_client_bin() -> str | None:
    """The folder of pgserver's client programs (pg_dump of the test server's version)."""
    if os.environ.get("TEST_POSTGRES_URL"):
        return None  # a server of your own: its client programs are on PATH
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pgserver
    return str(Path(pgserver.__file__).parent / "pginstall" / "bin")


@dataclass
class Place:
    """A bot's database: an SQLite file, or a PostgreSQL database of its own."""

    path: Path
    url: str | None = None

    @property
    def env(self) -> dict[str, str]:
        env = {"DATABASE_PATH": str(self.path), "DATABASE_URL": self.url or ""}
        folder = pg_client_bin() if self.url else None
        if folder is not None:
            env["PATH"] = f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"
        return env

    def store(self) -> Store:
        return make_store(self.url, self.path)


NewPlace = Callable[[str], Awaitable[Place]]


@pytest.fixture(params=["sqlite", "postgres"])
async def places(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[NewPlace]:
    """Makes new, empty databases of one backend: SQLite files, or PostgreSQL databases (a
    backup holds a whole database: the tests' schemas in one database would not do)."""
    made: list[str] = []
    cluster: Cluster | None = (request.getfixturevalue("pg_cluster")
                               if request.param == "postgres" else None)

    async def new(name: str) -> Place:
        path = tmp_path / name / "data" / "filicau.sqlite3"
        path.parent.mkdir(parents=True)
        if cluster is None:
            return Place(path)
        made.append(await cluster.create_database())
        return Place(path, cluster.url(database=made[-1]))

    try:
        yield new
    finally:
        if cluster is not None:
            for name in made:
                await cluster.drop_database(name)


@pytest.fixture
def pg_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """pg_dump and pg_restore of the test server's version, for the module's own calls."""
    folder = pg_client_bin()
    if folder is not None:
        monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")


# -- what players see -----------------------------------------------------------------------


def controls(message: Message) -> list[tuple[str, bool]]:
    """A message's buttons and menus as a player can use them: custom_id, and enabled."""
    found = [(b["custom_id"], not b.get("disabled")) for b in message.buttons]
    return found + [(m["custom_id"], not m.get("disabled")) for m in message.selects]


async def what_players_see(table: Table, players: list[Player]) -> dict[str, Any]:
    """The table message's controls and whose turn it shows, and each player's hand view
    (pressed now): its controls, the enabled ones being the cards they may play."""
    message = table.table_message()
    assert message is not None and message.embeds
    # The turn's countdown runs from when the process driving the table saw the turn begin:
    # the player to act is marked, and the moment their turn ends is set aside.
    turn = COUNTDOWN.sub("<t:…:R>", acting(message))
    seen: dict[str, Any] = {"table": controls(message), "turn": turn,
                            "trick": trick_field(message)}
    for p in players:
        seen[p.name] = controls(await table.my_hand(p))
    return seen


def turn_ends(table: Table) -> int:
    """When the turn shown on the table message ends (a Unix time)."""
    message = table.table_message()
    assert message is not None
    [end] = COUNTDOWN.findall(acting(message))
    return int(end)


def trick_field(message: Message) -> str:
    """The cards of the trick in play, as the table message shows them."""
    trick = t("table.trick_of", trick="\0", tricks="\0").split("\0")[0]
    return next((f"{f['name']}: {f['value']}" for f in message.embeds[0].get("fields", [])
                 if f["name"].startswith(trick)), "")


async def settled(standin: StandIn, table: Table, place: Place, moves: int) -> None:
    """Until the table message shows the stored hand of ``moves`` moves: the player to act
    marked, and as many cards in the trick."""
    store = place.store()
    await store.open()
    try:
        [row] = await store.open_tables()
        [hand] = await store.hands(row.id)
        assert len(hand.actions) == moves
        h = replay(hand.record())
        mover = f"<@{hand.header['members'][h.actors()[0]]}>"
    finally:
        await store.close()

    def shows() -> bool:
        msg = table.table_message()
        if msg is None or not msg.embeds or mover not in acting(msg):
            return False
        cards = trick_field(msg).partition(": ")[2]
        shown = 0 if cards == t("table.trick_empty") else cards.count(" · ") + 1
        return shown == len(h.trick)

    await standin.wait_for(shows, 15, "the table message to show the stored hand")


async def stored_moves(place: Place) -> tuple[list[str], int]:
    """The cards of the table's stored hand, in order, and the results stored for it."""
    store = place.store()
    await store.open()
    try:
        rows = await store.open_tables()
        [row] = rows
        [hand] = await store.hands(row.id)
        replay(hand.record())
        results = await store.results(row.guild_id)
        return [str(a["card"]) for a in hand.actions], len(results)
    finally:
        await store.close()


def holds_owner_lock(db: Path) -> bool:
    """Whether a process holds the SQLite file's ownership lock (the bot's ``.owner``)."""
    with open(str(db) + ".owner", "ab") as f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)
        return False


# -- the story --------------------------------------------------------------------------------


@pytest.mark.slow
async def test_a_backup_made_mid_hand_goes_on_in_a_fresh_bot(
    places: NewPlace, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    backend = "postgres" if "postgres" in request.node.callspec.id else "sqlite"
    first, second = await places("first"), await places("second")
    folder = tmp_path / "checkout"  # the bot's folder, where backups/ goes
    folder.mkdir()
    standin = StandIn(channels=1)
    await standin.start()
    bots = [BotProcess(standin, p.path, tmp_path / f"{n}.log", database_url=p.url)
            for n, p in (("first", first), ("second", second))]
    try:
        await bots[0].start()
        players = [Player(standin, n, channel_id=standin.channel_ids[0]) for n in FOUR]
        ana, bo, cy, di = players
        table = Table(standin, players, seed=5)
        await table.open(ana, [(ana, 0), (bo, 1), (cy, 0), (di, 1)], game="filicau")
        await table.start(ana)
        await table.play_hand(1, moves=6)  # the second trick has two cards
        await settled(standin, table, first, 6)
        assert table.to_act() is not None  # a player may play one of their cards
        before = await what_players_see(table, players)
        ends = turn_ends(table)

        scratch = await places("scratch") if backend == "postgres" else None
        made = ""  # the copy's file, once the backup has said it
        for line in RUN[backend]():
            if scratch is not None:
                assert scratch.url is not None
                line = line.replace(SCRATCH, scratch.url)
                if line.startswith("createdb "):
                    continue  # the scratch database is made above, as createdb would
            line = NAME.sub(made, line)
            code, out, err = await shell(line, folder, first.env)
            assert code == 0 and "Traceback" not in err, out + err
            if not made:
                [made] = re.findall(r" to (\S+) \(", out)
                assert NAME.fullmatch(made), made  # the name the documents show
                assert "checked: " in out, out
            if "--check-into" in line:
                assert "checked: restored into" in out, out
                assert f"schema version {len(MIGRATIONS)}" in out, out  # the current one
            if line.startswith("pg_restore --list"):
                assert "TABLE DATA public actions" in out, out

        # The bot was never held up: it still owns its database, and plays on.
        if first.url is None:
            assert holds_owner_lock(first.path)
        else:
            assert await postgres.claims(first.url)
        await table.play_hand(1, moves=2)
        played = [c.custom_id.split(":")[-1] for c in table.moves]
        assert (await stored_moves(first))[0] == played
        assert await bots[0].stop() == 0

        # A fresh bot on a new database, from the copy.
        line = NAME.sub(made, RESTORE[backend]())
        code, out, err = await shell(line, folder, second.env)
        assert code == 0 and "Traceback" not in err, out + err
        assert f"restored {made} into" in out, out
        message = table.table_message()
        assert message is not None
        edits = len(message.versions)
        await bots[1].start()
        await standin.wait_for(lambda: len(message.versions) > edits, 15,
                               "the restored bot to redraw the table")
        await settled(standin, table, second, 6)
        assert (await stored_moves(second))[0] == played[:6]
        # The same trick, the same buttons: the moves after the copy are gone, and only they.
        assert await what_players_see(table, players) == before
        assert turn_ends(table) >= ends  # the restored turn is not cut short
        assert await table.play_hand(1) is not None
        moves, results = await stored_moves(second)
        assert moves == played[:6] + [c.custom_id.split(":")[-1] for c in table.moves[8:]]
        assert results == 1  # the hand ended (maybe early: a decided hand stops), once
        for bot in bots:
            assert bot.errors() == [], bot.log()[-3000:]
    finally:
        for bot in bots:
            await bot.stop()
        await standin.stop()
    assert not standin.problems, standin.problems


# -- the store's side, without Discord ----------------------------------------------------------


async def test_a_copy_made_while_moves_are_stored_is_one_moment(tmp_path: Path) -> None:
    """The bot's store keeps writing (a table plays hand after hand on aiosqlite's thread)
    while the copy is made on another thread: the copy is the database at one moment (each
    hand in it replays, and holds a beginning of the moves finally stored), and the store
    still owns the file and writes on."""
    db = tmp_path / "data" / "filicau.sqlite3"
    store = SqliteStore(db)
    await store.open()
    try:
        assert await store.claim_shards([0], 1)
        session = await started_table(store)
        playing = True

        async def keep_playing() -> None:
            while playing:
                await play(session)
                await session.next_hand()

        player = asyncio.create_task(keep_playing())
        copies: list[Copy] = []
        # Copies until three were made at three moments of the play (a bounded number).
        for _ in range(50):
            copies.append(await asyncio.to_thread(sqlite.back_up, db, tmp_path / "backups"))
            if len({c.rows["actions"] for c in copies}) >= 3:
                break
        playing = False
        await player
        assert holds_owner_lock(db)
        final = {h.id: h.actions for h in await store.hands(session.id, limit=1000)}
    finally:
        await store.close()
    assert len({c.rows["actions"] for c in copies}) >= 3
    for c in copies:
        copied = SqliteStore(c.file)
        await copied.open()
        try:
            hands = await copied.hands(session.id, limit=1000)
        finally:
            await copied.close()
        assert hands and sum(len(h.actions) for h in hands) == c.rows["actions"]
        for h in hands:
            replay(h.record())
            assert final[h.id][:len(h.actions)] == h.actions


async def test_a_restore_is_refused_while_a_bot_owns_the_database(
    places: NewPlace, tmp_path: Path, pg_path: None
) -> None:
    place = await places("live")
    store = place.store()
    await store.open()
    try:
        await started_table(store)
        backup = (sqlite.back_up(place.path, tmp_path / "b") if place.url is None
                  else await postgres.back_up(place.url, tmp_path / "b"))
        assert await store.claim_shards([0], 1)  # the running bot
        with pytest.raises(BackupError) as refused:
            if place.url is None:
                await sqlite.restore(backup.file, place.path, tmp_path / "kept")
            else:
                await postgres.restore(backup.file, place.url, tmp_path / "kept")
        if place.url is None:
            assert f"a running bot (process {os.getpid()}) owns {place.path}: stop it first" \
                in str(refused.value)
        else:
            assert "bot processes run on" in str(refused.value)
            assert "shard 0 of 1" in str(refused.value) and "stop them first" in str(refused.value)
        assert not (tmp_path / "kept").exists()
        assert len(await store.open_tables()) == 1  # untouched, and the bot writes on
        await started_table(store, channel=11)
    finally:
        await store.close()


async def test_a_restore_keeps_what_it_replaces_and_takes_back_a_newer_schema(
    places: NewPlace, tmp_path: Path, pg_path: None
) -> None:
    """Restoring the copy made before an upgrade: the upgrade's table goes, the schema
    version is the copy's, and the database as it was is kept in a copy of its own."""
    place = await places("db")
    store = place.store()
    await store.open()
    try:
        await started_table(store)
    finally:
        await store.close()
    is_sqlite = place.url is None
    backup = (sqlite.back_up(place.path, tmp_path / "b") if is_sqlite
              else await postgres.back_up(place.url or "", tmp_path / "b"))
    # Another table, then an upgrade's step (a new table, the next version).
    store = place.store()
    await store.open()
    try:
        await started_table(store, channel=11)
    finally:
        await store.close()
    await schema_step(place, len(MIGRATIONS) + 1)

    keep = tmp_path / "kept"
    lines = (await sqlite.restore(backup.file, place.path, keep) if is_sqlite
             else await postgres.restore(backup.file, place.url or "", keep))
    [kept] = list(keep.iterdir())
    assert lines[0].startswith(f"restored {backup.file} into ")
    assert lines[1] == f"the database it replaced is kept in {keep / kept.name}"
    assert kept.name.startswith("filicau-before-restore-")
    store = place.store()
    await store.open()  # at the copy's version: this bot opens it
    try:
        assert store.upgraded_from == len(MIGRATIONS)
        assert [r.channel_id for r in await store.open_tables()] == [10]
        assert not await has_table(place, "later")
    finally:
        await store.close()
    # The kept copy is the database as it was, the upgrade's table and version included:
    # this bot, older than that schema, refuses to restore it.
    again = await places("again")
    with pytest.raises(BackupError, match="made by a newer bot than this one"):
        await (sqlite.restore(kept, again.path) if is_sqlite
               else postgres.restore(kept, again.url or ""))
    if is_sqlite:
        with sqlite.connected(kept, "ro") as con:
            assert sqlite.rows(con)["tables"] == 2 and "later" in sqlite.rows(con)
    else:
        listed = await postgres.run("pg_restore", ["--list", str(kept)])
        assert "later" in postgres.toc_tables(listed.splitlines())


async def test_a_damaged_database_is_restored_and_an_open_one_in_place(tmp_path: Path) -> None:
    """SQLite: a file damaged past reading is kept as it was and replaced; a readable one is
    written over in place, so that a connection open on it (a bot that started during the
    restore and waits for the ownership) reads the restored database, not the old file."""
    db = tmp_path / "data" / "filicau.sqlite3"
    store = SqliteStore(db)
    await store.open()
    try:
        await started_table(store)
    finally:
        await store.close()
    backup = sqlite.back_up(db, tmp_path / "b")
    store = SqliteStore(db)
    await store.open()  # a bot that started: the file is open, the ownership not claimed
    try:
        await started_table(store, channel=11)  # the database moved on since the copy
        await sqlite.restore(backup.file, db, tmp_path / "kept")
        assert [r.channel_id for r in await store.open_tables()] == [10]
    finally:
        await store.close()

    db.write_bytes(b"not a database any more " * 200)
    keep = tmp_path / "kept-damaged"
    lines = await sqlite.restore(backup.file, db, keep)
    [kept] = list(keep.iterdir())
    assert kept.read_bytes().startswith(b"not a database any more")
    assert lines[1] == f"the database it replaced is kept in {kept}"
    store = SqliteStore(db)
    await store.open()
    try:
        assert [r.channel_id for r in await store.open_tables()] == [10]
    finally:
        await store.close()


async def schema_step(place: Place, version: int) -> None:
    """What an upgrade's migration would do: a table of its own, and the next version."""
    if place.url is None:
        with sqlite.connected(place.path, "rw") as con:
            con.executescript(f"CREATE TABLE later (x INTEGER); PRAGMA user_version = {version};")
        return
    pg = await asyncpg.connect(place.url)
    try:
        await pg.execute("CREATE TABLE later (x integer)")
        await pg.execute("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 'now')",
                         version)
    finally:
        await pg.close()


async def has_table(place: Place, name: str) -> bool:
    if place.url is None:
        with sqlite.connected(place.path, "ro") as con:
            return name in sqlite.rows(con)
    pg = await asyncpg.connect(place.url)
    try:
        return bool(await pg.fetchval("SELECT to_regclass($1) IS NOT NULL", name))
    finally:
        await pg.close()


async def test_what_is_no_backup_of_this_database_is_refused(
    places: NewPlace, tmp_path: Path, pg_path: None
) -> None:
    place = await places("db")
    text = tmp_path / "notes.txt"
    text.write_text("not a backup\n", encoding="utf-8")
    with pytest.raises(BackupError, match="neither an SQLite database nor a pg_dump archive"):
        await sqlite.restore(text, place.path) if place.url is None \
            else await postgres.restore(text, place.url)
    other = tmp_path / "other.sqlite3"
    store = SqliteStore(other)
    await store.open()
    await store.close()
    if place.url is None:
        with pytest.raises(BackupError, match="there is no database at"):
            sqlite.back_up(place.path)
        return
    with pytest.raises(BackupError, match="is an SQLite database, and the bot's database is "
                                          "PostgreSQL"):
        await postgres.restore(other, place.url)
    with pytest.raises(BackupError, match="holds no database of the bot"):
        await postgres.back_up(place.url, tmp_path / "b")
    with pytest.raises(BackupError, match="names a schema"):
        postgres.libpq(place.url + "&search_path=test_1")
    store2 = PostgresStore(place.url)
    await store2.open()
    await store2.close()
    made = await postgres.back_up(place.url, tmp_path / "b")
    with pytest.raises(BackupError, match="names the bot's own database"):
        await postgres.check_into(made, place.url, place.url)
