"""The schema's history: one numbered list of steps for both databases.

Step N brings a database at version N - 1 to version N, in one transaction, so a step that
fails leaves the version before it. A step is written once, in the SQL both databases speak;
the few words that differ are each database's (``Database.words``): ``$id`` an integer
primary key the database gives, ``$bigint`` (Discord's ids), ``$json`` (kept as its text),
``$bool`` and ``$false``, ``$real``. SQLite keeps the version in ``PRAGMA user_version``,
PostgreSQL in ``schema_migrations`` (``bot.store.postgres`` reads the older numbering of its
``schema_version`` too). The store applies what is missing when it opens, as does
``python -m bot.migrate``; processes starting together run each step once.

A step never calls up into the layers above the store: what has to be derived again (the
ratings, from the results) it marks ``stale``, and the bot derives it at start
(``bot.ratings.rebuild_if_stale``).

>>> from string import Template
>>> Template("x $bigint NOT NULL").substitute({"bigint": "INTEGER"})
'x INTEGER NOT NULL'
"""

from __future__ import annotations

from string import Template

from bot.store.model import StoreError
from bot.store.sql import Database

MIGRATIONS: list[str] = [
    # 1: the first schema.
    """
    CREATE TABLE tables (
        id $id,
        guild_id $bigint NOT NULL,
        channel_id $bigint NOT NULL,
        message_id $bigint,
        game TEXT NOT NULL,
        options $json NOT NULL,
        settings $json NOT NULL DEFAULT '{}',
        opener_id $bigint NOT NULL,
        seats $json NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('lobby', 'playing', 'closed')),
        created_at TEXT NOT NULL,
        closed_at TEXT
    );
    CREATE UNIQUE INDEX one_open_table_per_channel ON tables (channel_id)
        WHERE state <> 'closed';
    CREATE TABLE hands (
        id $id,
        table_id $bigint NOT NULL REFERENCES tables (id),
        number INTEGER NOT NULL,
        header $json NOT NULL,
        result $json,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        UNIQUE (table_id, number)
    );
    CREATE TABLE actions (
        hand_id $bigint NOT NULL REFERENCES hands (id),
        idx INTEGER NOT NULL,
        action $json NOT NULL,
        user_id $bigint,
        by_computer $bool NOT NULL DEFAULT $false,
        at TEXT NOT NULL,
        PRIMARY KEY (hand_id, idx)
    );
    CREATE TABLE partnerships (
        guild_id $bigint NOT NULL,
        game TEXT NOT NULL,
        pair_key TEXT NOT NULL,
        team_a $json NOT NULL,
        team_b $json NOT NULL,
        masters TEXT CHECK (masters IN ('a', 'b')),
        servant TEXT,
        next_dealer TEXT,
        since TEXT,
        updated_at TEXT,
        PRIMARY KEY (guild_id, game, pair_key)
    );
    CREATE TABLE results (
        hand_id $bigint PRIMARY KEY REFERENCES hands (id),
        guild_id $bigint NOT NULL,
        game TEXT NOT NULL,
        team_a $json NOT NULL,
        team_b $json NOT NULL,
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
    ALTER TABLE partnerships ADD COLUMN extra $json NOT NULL DEFAULT '{}';
    ALTER TABLE results ADD COLUMN members $json NOT NULL DEFAULT '[]';
    ALTER TABLE results ADD COLUMN masters_before_members $json NOT NULL DEFAULT '[]';
    ALTER TABLE results ADD COLUMN masters_after_members $json NOT NULL DEFAULT '[]';
    ALTER TABLE results ADD COLUMN scores $json;
    ALTER TABLE results ADD COLUMN match_winners $json NOT NULL DEFAULT '[]';
    """,
    # 3: per server: the locale of public messages, card pictures or text only, their theme.
    """
    CREATE TABLE guild_settings (
        guild_id $bigint PRIMARY KEY,
        locale TEXT,
        pictures $bool NOT NULL DEFAULT $false,
        theme TEXT NOT NULL DEFAULT 'dark',
        updated_at TEXT NOT NULL
    );
    """,
    # 4: hand reviews (issue 17), computed once per finished hand and seat.
    """
    CREATE TABLE IF NOT EXISTS reviews (
        hand_id $bigint NOT NULL REFERENCES hands (id),
        seat INTEGER NOT NULL,
        review TEXT NOT NULL,
        made_at TEXT NOT NULL,
        PRIMARY KEY (hand_id, seat)
    );
    """,
    # 5: ratings, derived from the results (bot.ratings; step 7 has them built).
    """
    CREATE TABLE ratings (
        guild_id $bigint NOT NULL,
        game TEXT NOT NULL,
        season INTEGER NOT NULL,
        player TEXT NOT NULL,
        mu $real NOT NULL,
        sigma $real NOT NULL,
        hands INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, game, season, player)
    );
    CREATE TABLE rating_history (
        seq $id,
        hand_id $bigint NOT NULL,
        guild_id $bigint NOT NULL,
        game TEXT NOT NULL,
        season INTEGER NOT NULL,
        player TEXT NOT NULL,
        mu_before $real NOT NULL,
        sigma_before $real NOT NULL,
        mu $real NOT NULL,
        sigma $real NOT NULL,
        finished_at TEXT NOT NULL,
        UNIQUE (hand_id, player)
    );
    CREATE INDEX rating_history_by_player ON rating_history (guild_id, game, season, player);
    CREATE TABLE seasons (
        guild_id $bigint NOT NULL,
        number INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, number)
    );
    """,
    # 6: every finished hand asks for the server's latest rating change: by this index it is
    # one lookup, where it sorted the server's whole history (seconds of waiting for the
    # tables that finish together, once a server has some thousand hands).
    """
    CREATE INDEX rating_history_latest ON rating_history (guild_id, game, seq);
    """,
    # 7: one history for both databases. What a step has to have derived again, it marks
    # stale: the ratings, where results exist and none was ever rated (a database from before
    # step 5). PostgreSQL's first step had the open tables' index already.
    """
    CREATE INDEX IF NOT EXISTS open_tables_by_guild ON tables (guild_id)
        WHERE state <> 'closed';
    CREATE TABLE stale (what TEXT PRIMARY KEY);
    INSERT INTO stale (what) SELECT 'ratings'
        WHERE EXISTS (SELECT 1 FROM results) AND NOT EXISTS (SELECT 1 FROM rating_history);
    """,
    # 8: each server's key for its web pages (bot.web): every link is signed with it.
    """
    CREATE TABLE web_keys (
        guild_id $bigint PRIMARY KEY,
        secret TEXT NOT NULL,
        enabled $bool NOT NULL DEFAULT $true,
        updated_at TEXT NOT NULL
    );
    """,
    # 9: what a table keeps while it lives (names, seats leaving, its thread, the turn's
    # signal) apart from the settings it was opened with. Rows from before keep it among their
    # settings; TableRow moves it when it reads them.
    """
    ALTER TABLE tables ADD COLUMN runtime $json NOT NULL DEFAULT '{}';
    """,
    # 10: finding a game and holding tournaments (issue 37): each player's own preferences
    # (reminders, how invitations reach them), each server's (the role called when a table
    # needs one more, how long an invitation holds a seat), and tournaments: their entrants,
    # and the tables of each round with what each table's round left.
    """
    CREATE TABLE player_settings (
        user_id $bigint PRIMARY KEY,
        reminders TEXT NOT NULL DEFAULT 'off' CHECK (reminders IN ('off', 'dm')),
        invites TEXT NOT NULL DEFAULT 'mention' CHECK (invites IN ('mention', 'dm')),
        locale TEXT,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE community_settings (
        guild_id $bigint PRIMARY KEY,
        call_role_id $bigint,
        hold_minutes INTEGER NOT NULL DEFAULT 10,
        last_call_at TEXT,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE tournaments (
        id $id,
        guild_id $bigint NOT NULL,
        channel_id $bigint NOT NULL,
        message_id $bigint,
        event_id $bigint,
        organizer_id $bigint NOT NULL,
        game TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('swiss', 'duplicate')),
        rounds INTEGER NOT NULL,
        hands INTEGER NOT NULL,
        settings $json NOT NULL DEFAULT '{}',
        state TEXT NOT NULL CHECK (state IN ('signup', 'running', 'finished', 'cancelled')),
        round INTEGER NOT NULL DEFAULT 0,
        shown INTEGER NOT NULL DEFAULT 0,
        starts_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        finished_at TEXT
    );
    CREATE INDEX live_tournaments ON tournaments (guild_id)
        WHERE state IN ('signup', 'running');
    CREATE TABLE tournament_entrants (
        tournament_id $bigint NOT NULL REFERENCES tournaments (id),
        entrant TEXT NOT NULL,
        name TEXT NOT NULL,
        joined_at TEXT NOT NULL,
        PRIMARY KEY (tournament_id, entrant)
    );
    CREATE TABLE tournament_tables (
        tournament_id $bigint NOT NULL REFERENCES tournaments (id),
        round INTEGER NOT NULL,
        number INTEGER NOT NULL,
        seats $json NOT NULL,
        thread_id $bigint,
        table_id $bigint REFERENCES tables (id),
        result $json,
        PRIMARY KEY (tournament_id, round, number)
    );
    """,
    # 11: each server's card faces in its pictures (each game's own, or German or French for
    # every game: bot.cardart.faces_for).
    """
    ALTER TABLE guild_settings ADD COLUMN faces TEXT NOT NULL DEFAULT 'game'
        CHECK (faces IN ('game', 'german', 'french'));
    """,
    # 12: monthly leagues (bot.leagues.sql): each league, the ladder its month in play began
    # with, each closed month's table; the results found by game and time.
    """
    CREATE TABLE leagues (
        scope $bigint NOT NULL,
        game TEXT NOT NULL,
        settings $json NOT NULL,
        first_month TEXT NOT NULL,
        seeds $json NOT NULL DEFAULT '[]',
        month TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (scope, game)
    );
    CREATE INDEX leagues_by_month ON leagues (month);
    CREATE TABLE league_players (
        scope $bigint NOT NULL,
        game TEXT NOT NULL,
        player TEXT NOT NULL,
        place INTEGER NOT NULL,
        idle INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, game, player),
        UNIQUE (scope, game, place),
        FOREIGN KEY (scope, game) REFERENCES leagues (scope, game)
    );
    CREATE INDEX league_players_by_player ON league_players (player);
    CREATE TABLE league_months (
        scope $bigint NOT NULL,
        game TEXT NOT NULL,
        month TEXT NOT NULL,
        standings $json NOT NULL,
        closed_at TEXT NOT NULL,
        PRIMARY KEY (scope, game, month),
        FOREIGN KEY (scope, game) REFERENCES leagues (scope, game)
    );
    CREATE INDEX results_by_guild_game_time ON results (guild_id, game, finished_at);
    CREATE INDEX results_by_game_time ON results (game, finished_at);
    """,
    # 13: play across servers (issue 42): each server's opt-in, the one queue of every
    # server, a cross-server table's venues (a server's channel and message showing it),
    # the names players show there (the ladder's), blocks, bars from cross-server play,
    # reports of hands, and clicks handed from the
    # process that received them to the one that drives their table.
    """
    CREATE TABLE crossplay_servers (
        guild_id $bigint PRIMARY KEY,
        enabled $bool NOT NULL DEFAULT $false,
        games $json NOT NULL DEFAULT '[]',
        channels $json NOT NULL DEFAULT '[]',
        updated_at TEXT NOT NULL
    );
    CREATE TABLE crossplay_queue (
        user_id $bigint PRIMARY KEY,
        guild_id $bigint NOT NULL,
        channel_id $bigint NOT NULL,
        game TEXT NOT NULL,
        rated $bool NOT NULL,
        pace TEXT NOT NULL,
        name TEXT NOT NULL,
        locale TEXT,
        application_id $bigint NOT NULL,
        token TEXT NOT NULL,
        queued_at TEXT NOT NULL
    );
    CREATE INDEX crossplay_waiting ON crossplay_queue (game, queued_at);
    CREATE TABLE table_venues (
        table_id $bigint NOT NULL REFERENCES tables (id),
        guild_id $bigint NOT NULL,
        channel_id $bigint NOT NULL,
        message_id $bigint,
        members $json NOT NULL DEFAULT '[]',
        runtime $json NOT NULL DEFAULT '{}',
        PRIMARY KEY (table_id, guild_id)
    );
    CREATE TABLE blocks (
        user_id $bigint NOT NULL,
        blocked_id $bigint NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (user_id, blocked_id)
    );
    CREATE TABLE crossplay_bars (
        user_id $bigint PRIMARY KEY,
        barred_by $bigint NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE reports (
        id $id,
        reporter_id $bigint NOT NULL,
        hand_id $bigint NOT NULL REFERENCES hands (id),
        guild_id $bigint NOT NULL,
        reason TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX one_report ON reports (reporter_id, hand_id);
    CREATE TABLE crossplay_names (
        user_id $bigint PRIMARY KEY,
        name TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE relayed (
        id $id,
        shard INTEGER NOT NULL,
        payload $json NOT NULL,
        created_at TEXT NOT NULL
    );
    """,
    # 14: play across servers, ladder42's part of issue 42: a server may count the hands its
    # members play across servers in its own ratings (``own_ratings``), each such hand kept
    # with the server and the members it counts for (``shared_results``); so one hand moves a
    # player on the ladder and in their server's own ratings, a rating change is one
    # server's (``rating_history`` again, unique by hand, server and player, its changes in
    # their order); a player's own table name (``crossplay_names.chosen``).
    """
    ALTER TABLE crossplay_servers ADD COLUMN own_ratings $bool NOT NULL DEFAULT $false;
    ALTER TABLE crossplay_names ADD COLUMN chosen TEXT;
    CREATE TABLE shared_results (
        hand_id $bigint NOT NULL REFERENCES hands (id),
        guild_id $bigint NOT NULL,
        members $json NOT NULL,
        PRIMARY KEY (hand_id, guild_id)
    );
    CREATE INDEX shared_results_by_guild ON shared_results (guild_id);
    CREATE TABLE rating_history_14 (
        seq $id,
        hand_id $bigint NOT NULL,
        guild_id $bigint NOT NULL,
        game TEXT NOT NULL,
        season INTEGER NOT NULL,
        player TEXT NOT NULL,
        mu_before $real NOT NULL,
        sigma_before $real NOT NULL,
        mu $real NOT NULL,
        sigma $real NOT NULL,
        finished_at TEXT NOT NULL,
        UNIQUE (hand_id, guild_id, player)
    );
    INSERT INTO rating_history_14 (hand_id, guild_id, game, season, player, mu_before,
                                   sigma_before, mu, sigma, finished_at)
        SELECT hand_id, guild_id, game, season, player, mu_before, sigma_before, mu, sigma,
               finished_at FROM rating_history ORDER BY seq;
    DROP TABLE rating_history;
    ALTER TABLE rating_history_14 RENAME TO rating_history;
    CREATE INDEX rating_history_by_player ON rating_history (guild_id, game, season, player);
    CREATE INDEX rating_history_latest ON rating_history (guild_id, game, seq);
    """,
    # 15: a click handed between processes stays kept until it is done, not only taken
    # (``taken_at``): one its taker did not finish (it died) is taken again by the next
    # owner of its shard.
    """
    ALTER TABLE relayed ADD COLUMN taken_at $real;
    """,
    # 16: a server may keep the tables across servers it shows off its web pages
    # (``watch_across``, ``/admin crossplay watch:off``), whatever the table allows.
    """
    ALTER TABLE guild_settings ADD COLUMN watch_across $bool NOT NULL DEFAULT $true;
    """,
]
#: The step that added the ratings.
RATINGS_VERSION = 5
#: The step that added the leagues (``bot.leagues.sql``).
LEAGUES_VERSION = 12


async def upgrade(db: Database) -> int:
    """Apply the steps the database has not had; returns its version before."""
    before = await db.version()
    if before > len(MIGRATIONS):
        raise StoreError(
            f"the database {db.where} has schema version {before}, newer than this bot "
            f"knows ({len(MIGRATIONS)}): upgrade the bot")
    for number in range(before + 1, len(MIGRATIONS) + 1):
        async with db.migrating() as sql:
            if await db.version(sql) >= number:
                continue  # another process ran it meanwhile
            await db.run_script(sql, Template(MIGRATIONS[number - 1]).substitute(db.words))
            await db.set_version(sql, number)
    return before
