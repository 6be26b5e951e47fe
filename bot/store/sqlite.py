"""The SQLite store: one process, one file (the default).

aiosqlite runs the one connection on its own thread; WAL mode; migrations by
``PRAGMA user_version``, each in its own transaction. A single process owns every table: a
second bot process on the same file is kept out by a lock on ``<file>.owner`` that the
operating system drops when the process dies.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import sqlite3
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import IO, Any

import aiosqlite

from bot.store.model import (
    GuildSettings,
    HandRow,
    Member,
    PartnershipStatus,
    RatingChange,
    RatingRow,
    ResultRow,
    Season,
    StoreError,
    TableRow,
    TableState,
    WebKey,
    canonical,
    counts_for_ratings,
    now,
    pair_key,
    reset_members_status,
    with_hand_winners,
)

MIGRATIONS: list[str] = [
    # 1: the first schema.
    """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        settings TEXT NOT NULL DEFAULT '{}',
        opener_id INTEGER NOT NULL,
        seats TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('lobby', 'playing', 'closed')),
        created_at TEXT NOT NULL,
        closed_at TEXT
    );
    CREATE UNIQUE INDEX one_open_table_per_channel ON tables (channel_id)
        WHERE state != 'closed';
    CREATE TABLE hands (
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables (id),
        number INTEGER NOT NULL,
        header TEXT NOT NULL,
        result TEXT,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        UNIQUE (table_id, number)
    );
    CREATE TABLE actions (
        hand_id INTEGER NOT NULL REFERENCES hands (id),
        idx INTEGER NOT NULL,
        action TEXT NOT NULL,
        user_id INTEGER,
        by_computer INTEGER NOT NULL DEFAULT 0,
        at TEXT NOT NULL,
        PRIMARY KEY (hand_id, idx)
    );
    CREATE TABLE partnerships (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        pair_key TEXT NOT NULL,
        team_a TEXT NOT NULL,
        team_b TEXT NOT NULL,
        masters TEXT CHECK (masters IN ('a', 'b')),
        servant TEXT,
        next_dealer TEXT,
        since TEXT,
        updated_at TEXT,
        PRIMARY KEY (guild_id, game, pair_key)
    );
    CREATE TABLE results (
        hand_id INTEGER PRIMARY KEY REFERENCES hands (id),
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        team_a TEXT NOT NULL,
        team_b TEXT NOT NULL,
        points_a INTEGER NOT NULL,
        points_b INTEGER NOT NULL,
        masters_before TEXT,
        masters_after TEXT,
        event TEXT NOT NULL,
        event_team TEXT,
        finished_at TEXT NOT NULL
    );
    CREATE INDEX results_by_guild ON results (guild_id, game);
    """,
    # 2: games whose teams form per deal, matches and per-player scores.
    """
    ALTER TABLE partnerships ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE results ADD COLUMN members TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE results ADD COLUMN masters_before_members TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE results ADD COLUMN masters_after_members TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE results ADD COLUMN scores TEXT;
    ALTER TABLE results ADD COLUMN match_winners TEXT NOT NULL DEFAULT '[]';
    """,
    # 3: per server: the locale of public messages, card pictures or text only, their theme.
    """
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        locale TEXT,
        pictures INTEGER NOT NULL DEFAULT 0,
        theme TEXT NOT NULL DEFAULT 'dark',
        updated_at TEXT NOT NULL
    );
    """,    # 4: hand reviews (issue 17), computed once per finished hand and seat.
    """
    CREATE TABLE IF NOT EXISTS reviews (
        hand_id INTEGER NOT NULL REFERENCES hands (id),
        seat INTEGER NOT NULL,
        review TEXT NOT NULL,
        made_at TEXT NOT NULL,
        PRIMARY KEY (hand_id, seat)
    );
    """,
    # 5: ratings, derived from the results (bot.ratings; built for the stored results when
    # the store opens after this step).
    """
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        season INTEGER NOT NULL,
        player TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        hands INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, game, season, player)
    );
    CREATE TABLE rating_history (
        seq INTEGER PRIMARY KEY,
        hand_id INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        season INTEGER NOT NULL,
        player TEXT NOT NULL,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        finished_at TEXT NOT NULL,
        UNIQUE (hand_id, player)
    );
    CREATE INDEX rating_history_by_player ON rating_history (guild_id, game, season, player);
    CREATE TABLE seasons (
        guild_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, number)
    );
    """,
    # Every finished hand asks for the server's latest rating change: by this index it is
    # one lookup, where it sorted the server's whole history (seconds of waiting for the
    # tables that finish together, once a server has some thousand hands).
    """
    CREATE INDEX rating_history_latest ON rating_history (guild_id, game, seq);
    """,
    # 7: each server's key for its web pages (bot.web): links are signed with it.
    """
    CREATE TABLE web_keys (
        guild_id INTEGER PRIMARY KEY,
        secret TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        updated_at TEXT NOT NULL
    );
    """,
]
#: The schema version that added the ratings: opening a store from before it builds them.
RATINGS_VERSION = 5


def _statements(script: str) -> list[str]:
    """The statements of a migration script, split where SQLite says a statement ends (an
    unfinished last one is kept, for SQLite to refuse)."""
    statements: list[str] = []
    current = ""
    for piece in script.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if current.strip(" \n;"):
                statements.append(current)
            current = ""
    if current.strip(" \n;"):
        statements.append(current.rstrip(";"))
    return statements


#: Tries to switch a file to write-ahead logging (about 20 s of waiting in all).
WAL_ATTEMPTS = 30


class SqliteStore:
    """The SQLite store. One connection; aiosqlite runs it on its own thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        self._owner: IO[bytes] | None = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is not open")
        return self._db

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # Autocommit: every write is its own transaction, without a second trip to the
        # connection's thread to commit it (each trip costs the event loop a thread switch).
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._write_ahead_log()
        await self._db.execute("PRAGMA foreign_keys = ON")
        await self._db.execute("PRAGMA synchronous = NORMAL")
        try:
            await self.migrate()
        except BaseException:
            # Leave no connection (and its thread) behind a refused start.
            await self.close()
            raise

    async def _write_ahead_log(self) -> None:
        """Switch the file to write-ahead logging. SQLite answers "database is locked" at
        once, without waiting its busy timeout, when another connection switches it or
        migrates it at that moment (processes starting together): wait and try again."""
        assert self._db is not None
        for attempt in range(WAL_ATTEMPTS):
            try:
                await self._db.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) or attempt == WAL_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(0.05 * (attempt + 1))

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None
        if self._owner is not None:
            self._owner.close()  # closing the file drops its lock
            self._owner = None

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise StoreError(
                f"the database {self.path} has schema version {version}, newer than this bot "
                f"knows ({len(MIGRATIONS)}): upgrade the bot"
            )
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            # One transaction per migration, so a failure leaves the previous version intact;
            # the version is read again under the write lock, so that processes starting
            # together run each migration once.
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                if await self.schema_version() < number:
                    for statement in _statements(script):
                        await self.db.execute(statement)
                    await self.db.execute(f"PRAGMA user_version = {number}")
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
        if version < RATINGS_VERSION <= len(MIGRATIONS):
            from bot import ratings  # the ratings read the store: imported when needed

            await ratings.rebuild(self)

    # -- tables ----------------------------------------------------------------------------

    @staticmethod
    def _table(row: aiosqlite.Row) -> TableRow:
        return TableRow(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
            message_id=row["message_id"], game=row["game"], options=json.loads(row["options"]),
            opener_id=row["opener_id"], seats=json.loads(row["seats"]), state=row["state"],
            created_at=row["created_at"], settings=json.loads(row["settings"]),
        )

    async def create_table(
        self, *, guild_id: int, channel_id: int, game: str, options: dict[str, Any],
        opener_id: int, seats: list[Member | None], settings: dict[str, Any] | None = None,
    ) -> TableRow:
        created = now()
        settings = settings or {}
        try:
            cur = await self.db.execute(
                "INSERT INTO tables (guild_id, channel_id, game, options, settings, opener_id, "
                "seats, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?)",
                (guild_id, channel_id, game, json.dumps(options), json.dumps(settings),
                 opener_id, json.dumps(seats), created),
            )
        except aiosqlite.IntegrityError:
            raise StoreError("this channel already has an open table") from None
        assert cur.lastrowid is not None
        return TableRow(
            id=cur.lastrowid, guild_id=guild_id, channel_id=channel_id, message_id=None,
            game=game, options=options, opener_id=opener_id, seats=seats, state="lobby",
            created_at=created, settings=settings,
        )

    async def update_table(
        self, table_id: int, *, seats: list[Member | None] | None = None,
        state: TableState | None = None, message_id: int | None = None,
        options: dict[str, Any] | None = None, settings: dict[str, Any] | None = None,
    ) -> None:
        sets: list[str] = []
        args: list[Any] = []
        if seats is not None:
            sets.append("seats = ?")
            args.append(json.dumps(seats))
        if state is not None:
            sets.append("state = ?")
            args.append(state)
            if state == "closed":
                sets.append("closed_at = ?")
                args.append(now())
        if message_id is not None:
            sets.append("message_id = ?")
            args.append(message_id)
        if options is not None:
            sets.append("options = ?")
            args.append(json.dumps(options))
        if settings is not None:
            sets.append("settings = ?")
            args.append(json.dumps(settings))
        if not sets:
            return
        await self.db.execute(f"UPDATE tables SET {', '.join(sets)} WHERE id = ?",
                              (*args, table_id))

    async def get_table(self, table_id: int) -> TableRow | None:
        async with self.db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
        return None if row is None else self._table(row)

    async def open_tables(self) -> list[TableRow]:
        async with self.db.execute(
            "SELECT * FROM tables WHERE state != 'closed' ORDER BY id"
        ) as cur:
            return [self._table(r) for r in await cur.fetchall()]

    async def open_table_in(self, channel_id: int) -> TableRow | None:
        async with self.db.execute(
            "SELECT * FROM tables WHERE channel_id = ? AND state != 'closed'", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else self._table(row)

    # -- hands and actions -----------------------------------------------------------------

    async def start_hand(self, table_id: int, number: int, header: dict[str, Any]) -> int:
        # Two statements, each its own transaction (autocommit): a crash between them leaves
        # a table in play with no hand yet, which a restart restores as such.
        await self.db.execute(
            "UPDATE tables SET state = 'playing' WHERE id = ? AND state = 'lobby'", (table_id,))
        try:
            cur = await self.db.execute(
                "INSERT INTO hands (table_id, number, header, started_at) VALUES (?, ?, ?, ?)",
                (table_id, number, json.dumps(header), now()),
            )
        except aiosqlite.IntegrityError:
            raise StoreError(f"hand {number} of table {table_id} is already stored") from None
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def append_action(
        self, hand_id: int, index: int, action: dict[str, Any], *, user_id: int | None,
        by_computer: bool,
    ) -> None:
        try:
            await self.db.execute(
                "INSERT INTO actions (hand_id, idx, action, user_id, by_computer, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (hand_id, index, json.dumps(action), user_id, int(by_computer), now()),
            )
        except aiosqlite.IntegrityError:
            raise StoreError(f"action {index} of hand {hand_id} is already stored") from None

    async def finish_hand(self, hand_id: int, result: dict[str, Any]) -> None:
        await self.db.execute(
            "UPDATE hands SET result = ?, finished_at = ? WHERE id = ?",
            (json.dumps(result), now(), hand_id),
        )

    async def _hand(self, row: aiosqlite.Row) -> HandRow:
        async with self.db.execute(
            "SELECT action FROM actions WHERE hand_id = ? ORDER BY idx", (row["id"],)
        ) as cur:
            actions = [json.loads(r["action"]) for r in await cur.fetchall()]
        return HandRow(
            id=row["id"], table_id=row["table_id"], number=row["number"],
            header=json.loads(row["header"]), actions=actions,
            result=None if row["result"] is None else json.loads(row["result"]),
            started_at=row["started_at"], finished_at=row["finished_at"],
        )

    async def current_hand(self, table_id: int) -> HandRow | None:
        async with self.db.execute(
            "SELECT * FROM hands WHERE table_id = ? ORDER BY number DESC LIMIT 1", (table_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else await self._hand(row)

    async def hands(self, table_id: int, limit: int = 10) -> list[HandRow]:
        async with self.db.execute(
            "SELECT * FROM hands WHERE table_id = ? ORDER BY number DESC LIMIT ?",
            (table_id, limit),
        ) as cur:
            rows = await cur.fetchall()
        return [await self._hand(r) for r in rows]

    async def hand(self, hand_id: int) -> HandRow | None:
        async with self.db.execute("SELECT * FROM hands WHERE id = ?", (hand_id,)) as cur:
            row = await cur.fetchone()
        return None if row is None else await self._hand(row)

    # -- partnerships ----------------------------------------------------------------------

    @staticmethod
    def _status(row: aiosqlite.Row) -> PartnershipStatus:
        return PartnershipStatus(
            guild_id=row["guild_id"], game=row["game"], team_a=json.loads(row["team_a"]),
            team_b=json.loads(row["team_b"]), masters=row["masters"], servant=row["servant"],
            next_dealer=row["next_dealer"], since=row["since"], updated_at=row["updated_at"],
            extra=json.loads(row["extra"]),
        )

    async def get_status(
        self, guild_id: int, game: str, team0: Sequence[Member], team1: Sequence[Member]
    ) -> PartnershipStatus | None:
        a, b, _ = canonical(team0, team1)
        async with self.db.execute(
            "SELECT * FROM partnerships WHERE guild_id = ? AND game = ? AND pair_key = ?",
            (guild_id, game, pair_key(a, b)),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else self._status(row)

    async def put_status(self, status: PartnershipStatus) -> None:
        a, b, swapped = canonical(status.team_a, status.team_b)
        if swapped:
            raise StoreError("a partnership status must list its teams in canonical order")
        await self.db.execute(
            "INSERT INTO partnerships (guild_id, game, pair_key, team_a, team_b, masters, "
            "servant, next_dealer, since, updated_at, extra) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, game, pair_key) DO UPDATE SET masters = excluded.masters, "
            "servant = excluded.servant, next_dealer = excluded.next_dealer, "
            "since = excluded.since, updated_at = excluded.updated_at, extra = excluded.extra",
            (status.guild_id, status.game, pair_key(a, b), json.dumps(a), json.dumps(b),
             status.masters, status.servant, status.next_dealer, status.since,
             status.updated_at or now(), json.dumps(status.extra)),
        )

    async def statuses(self, guild_id: int) -> list[PartnershipStatus]:
        async with self.db.execute(
            "SELECT * FROM partnerships WHERE guild_id = ? ORDER BY updated_at DESC", (guild_id,)
        ) as cur:
            return [self._status(r) for r in await cur.fetchall()]

    async def reset_status(self, guild_id: int, game: str, member: Member) -> int:
        return await reset_members_status(self, guild_id, game, member)

    # -- results ---------------------------------------------------------------------------

    async def add_result(self, result: ResultRow) -> None:
        await self.db.execute(
            "INSERT OR REPLACE INTO results (hand_id, guild_id, game, team_a, team_b, points_a, "
            "points_b, masters_before, masters_after, event, event_team, finished_at, members, "
            "masters_before_members, masters_after_members, scores, match_winners) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (result.hand_id, result.guild_id, result.game, json.dumps(result.team_a),
             json.dumps(result.team_b), result.points_a, result.points_b,
             result.masters_before, result.masters_after, result.event, result.event_team,
             result.finished_at, json.dumps(result.members),
             json.dumps(result.masters_before_members),
             json.dumps(result.masters_after_members),
             None if result.scores is None else json.dumps(result.scores),
             json.dumps(result.match_winners)),
        )

    async def results(self, guild_id: int, game: str | None = None) -> list[ResultRow]:
        sql = "SELECT * FROM results WHERE guild_id = ?"
        args: tuple[Any, ...] = (guild_id,)
        if game is not None:
            sql += " AND game = ?"
            args = (guild_id, game)
        async with self.db.execute(sql + " ORDER BY hand_id", args) as cur:
            rows = await cur.fetchall()
        return [
            ResultRow(
                hand_id=r["hand_id"], guild_id=r["guild_id"], game=r["game"],
                team_a=json.loads(r["team_a"]), team_b=json.loads(r["team_b"]),
                points_a=r["points_a"], points_b=r["points_b"],
                masters_before=r["masters_before"], masters_after=r["masters_after"],
                event=r["event"], event_team=r["event_team"], finished_at=r["finished_at"],
                members=json.loads(r["members"]),
                masters_before_members=json.loads(r["masters_before_members"]),
                masters_after_members=json.loads(r["masters_after_members"]),
                scores=None if r["scores"] is None else json.loads(r["scores"]),
                match_winners=json.loads(r["match_winners"]),
            )
            for r in rows
        ]

    # -- servers ---------------------------------------------------------------------------

    async def guild_settings(self) -> list[GuildSettings]:
        async with self.db.execute("SELECT * FROM guild_settings ORDER BY guild_id") as cur:
            rows = await cur.fetchall()
        return [GuildSettings(guild_id=r["guild_id"], locale=r["locale"],
                              pictures=bool(r["pictures"]), theme=r["theme"]) for r in rows]

    async def put_guild_settings(self, settings: GuildSettings) -> None:
        await self.db.execute(
            "INSERT OR REPLACE INTO guild_settings (guild_id, locale, pictures, theme, "
            "updated_at) VALUES (?, ?, ?, ?, ?)",
            (settings.guild_id, settings.locale, int(settings.pictures), settings.theme, now()),
        )

    # -- the web pages' keys (bot.web.keys) ------------------------------------------------

    async def web_key(self, guild_id: int) -> WebKey | None:
        async with self.db.execute("SELECT * FROM web_keys WHERE guild_id = ?",
                                   (guild_id,)) as cur:
            row = await cur.fetchone()
        return None if row is None else WebKey(guild_id=row["guild_id"], secret=row["secret"],
                                               enabled=bool(row["enabled"]))

    async def add_web_key(self, key: WebKey) -> WebKey:
        await self.db.execute(
            "INSERT OR IGNORE INTO web_keys (guild_id, secret, enabled, updated_at) "
            "VALUES (?, ?, ?, ?)", (key.guild_id, key.secret, int(key.enabled), now()))
        kept = await self.web_key(key.guild_id)
        assert kept is not None
        return kept

    async def put_web_key(self, key: WebKey) -> None:
        await self.db.execute(
            "INSERT OR REPLACE INTO web_keys (guild_id, secret, enabled, updated_at) "
            "VALUES (?, ?, ?, ?)", (key.guild_id, key.secret, int(key.enabled), now()))

    # -- ownership -------------------------------------------------------------------------

    async def claim_shards(self, shard_ids: Sequence[int], shard_count: int) -> bool:
        """One process owns everything on an SQLite file, whatever its shards: the claim is
        the file's ``.owner`` lock, refused while another process holds it."""
        if self._owner is not None or self.path == ":memory:":
            return True
        lock = open(self.path + ".owner", "ab")  # noqa: SIM115 - held until close()
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            return False
        lock.truncate(0)
        lock.write(f"{os.getpid()}\n".encode())
        lock.flush()
        self._owner = lock
        return True

    def owns(self, guild_id: int) -> bool:
        return True

    async def owned_tables(self) -> list[TableRow]:
        return await self.open_tables()

    async def ownership_lost(self) -> None:
        # A file lock cannot be lost while the process lives.
        await asyncio.Event().wait()

    # -- hand reviews (issue 17) -----------------------------------------------------------

    async def put_review(self, hand_id: int, seat: int, review: dict[str, Any]) -> None:
        """Keep the review of ``seat`` in a finished hand (replacing an older one)."""
        await self.db.execute(
            "INSERT OR REPLACE INTO reviews (hand_id, seat, review, made_at) "
            "VALUES (?, ?, ?, ?)",
            (hand_id, seat, json.dumps(review), now()),
        )

    async def get_review(self, hand_id: int, seat: int) -> dict[str, Any] | None:
        async with self.db.execute(
            "SELECT review FROM reviews WHERE hand_id = ? AND seat = ?", (hand_id, seat)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        review: dict[str, Any] = json.loads(row["review"])
        return review

    # -- ratings (derived from the results; bot.ratings) -----------------------------------

    async def rated_results(self, guild_id: int | None = None) -> list[tuple[ResultRow, bool]]:
        sql = ("SELECT results.hand_id, tables.settings, hands.result FROM results "
               "LEFT JOIN hands ON hands.id = results.hand_id "
               "LEFT JOIN tables ON tables.id = hands.table_id")
        args: tuple[Any, ...] = ()
        if guild_id is not None:
            sql += " WHERE results.guild_id = ?"
            args = (guild_id,)
        async with self.db.execute(sql, args) as cur:
            rows = await cur.fetchall()
        rated = {r["hand_id"]: counts_for_ratings(r["settings"], r["result"]) for r in rows}
        hand_results = {r["hand_id"]: r["result"] for r in rows}
        guilds: list[int]
        if guild_id is None:
            async with self.db.execute("SELECT DISTINCT guild_id FROM results") as cur:
                guilds = [r[0] for r in await cur.fetchall()]
        else:
            guilds = [guild_id]
        return [(with_hand_winners(r, hand_results.get(r.hand_id)), rated.get(r.hand_id, True))
                for g in sorted(guilds) for r in await self.results(g)]

    @staticmethod
    def _rating(r: aiosqlite.Row) -> RatingRow:
        return RatingRow(guild_id=r["guild_id"], game=r["game"], season=r["season"],
                         player=r["player"], mu=r["mu"], sigma=r["sigma"], hands=r["hands"],
                         updated_at=r["updated_at"])

    @staticmethod
    def _change(r: aiosqlite.Row) -> RatingChange:
        return RatingChange(hand_id=r["hand_id"], guild_id=r["guild_id"], game=r["game"],
                            season=r["season"], player=r["player"], mu_before=r["mu_before"],
                            sigma_before=r["sigma_before"], mu=r["mu"], sigma=r["sigma"],
                            finished_at=r["finished_at"])

    async def ratings(self, guild_id: int, game: str, season: int,
                      players: Collection[str] | None = None) -> list[RatingRow]:
        sql = "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND season = ?"
        args: tuple[Any, ...] = (guild_id, game, season)
        if players is not None:
            sql += f" AND player IN ({', '.join('?' * len(players))})"
            args = (*args, *players)
        async with self.db.execute(sql + " ORDER BY player", args) as cur:
            return [self._rating(r) for r in await cur.fetchall()]

    async def rating_history(
        self, guild_id: int, game: str, season: int, player: str | None = None
    ) -> list[RatingChange]:
        sql = "SELECT * FROM rating_history WHERE guild_id = ? AND game = ? AND season = ?"
        args: tuple[Any, ...] = (guild_id, game, season)
        if player is not None:
            sql += " AND player = ?"
            args = (*args, player)
        async with self.db.execute(sql + " ORDER BY seq", args) as cur:
            return [self._change(r) for r in await cur.fetchall()]

    async def last_rating_change(self, guild_id: int, game: str) -> RatingChange | None:
        async with self.db.execute(
            "SELECT * FROM rating_history WHERE guild_id = ? AND game = ? "
            "ORDER BY seq DESC LIMIT 1", (guild_id, game),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else self._change(row)

    async def rated_hand(self, hand_id: int) -> bool:
        async with self.db.execute(
            "SELECT 1 FROM rating_history WHERE hand_id = ? LIMIT 1", (hand_id,)
        ) as cur:
            return await cur.fetchone() is not None

    async def _write_ratings(self, ratings: list[RatingRow], changes: list[RatingChange]) -> None:
        await self.db.executemany(
            "INSERT OR REPLACE INTO ratings (guild_id, game, season, player, mu, sigma, hands, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(r.guild_id, r.game, r.season, r.player, r.mu, r.sigma, r.hands, r.updated_at)
             for r in ratings],
        )
        await self.db.executemany(
            "INSERT INTO rating_history (hand_id, guild_id, game, season, player, mu_before, "
            "sigma_before, mu, sigma, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(c.hand_id, c.guild_id, c.game, c.season, c.player, c.mu_before, c.sigma_before,
              c.mu, c.sigma, c.finished_at) for c in changes],
        )

    async def _in_transaction(self, *steps: tuple[str, tuple[Any, ...]],
                              ratings: list[RatingRow], changes: list[RatingChange]) -> None:
        await self.db.execute("BEGIN")
        try:
            for sql, args in steps:
                await self.db.execute(sql, args)
            await self._write_ratings(ratings, changes)
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        await self.db.execute("COMMIT")

    async def save_ratings(self, ratings: list[RatingRow], changes: list[RatingChange]) -> None:
        await self._in_transaction(ratings=ratings, changes=changes)

    async def replace_ratings(
        self, guild_id: int, ratings: list[RatingRow], changes: list[RatingChange]
    ) -> None:
        await self._in_transaction(
            ("DELETE FROM ratings WHERE guild_id = ?", (guild_id,)),
            ("DELETE FROM rating_history WHERE guild_id = ?", (guild_id,)),
            ratings=ratings, changes=changes)

    async def seasons(self, guild_id: int) -> list[Season]:
        async with self.db.execute(
            "SELECT * FROM seasons WHERE guild_id = ? ORDER BY number", (guild_id,)
        ) as cur:
            return [Season(guild_id=r["guild_id"], number=r["number"],
                           started_at=r["started_at"]) for r in await cur.fetchall()]

    async def start_season(self, guild_id: int, started_at: str) -> Season:
        """The next season of this server (season 1 is every server's first, unstored)."""
        number = max((s.number for s in await self.seasons(guild_id)), default=1) + 1
        await self.db.execute(
            "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, ?)",
            (guild_id, number, started_at),
        )
        return Season(guild_id=guild_id, number=number, started_at=started_at)
