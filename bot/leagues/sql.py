"""``LeagueSql``: the leagues' SQL, written once for both databases over a ``Sql`` (as every
concern of ``bot.store.sqlstore``), and ``SCHEMA``, the tables it needs.

``SCHEMA`` is the content of the schema step that brings the leagues (``bot.store.migrations``
runs it with each database's words, ``Database.words``). Three tables:

- ``leagues``: one row per league, keyed by whose it is (``scope``: a server's id, or 0 for
  the whole bot) and its game, with its settings (JSON: new settings need no new column), the
  month it began with and its first ladder (``seeds``: organiser's input, which nothing else
  gives back), and ``month``, the month in play. Moving ``month`` on is what closes a month,
  so a month is closed once: the write that moves it names the month it closes.
- ``league_players``: the ladder the month in play began with, one row per player (its
  place, 0 the top, and its months in a row without a counted hand).
- ``league_months``: each closed month's final table (JSON, ``LeagueTable``): what the month
  showed when it ended, and the settings it closed under, which a replay needs.

Two indexes on ``results`` find a month's hands of a game in a server, and in every server.
Everything but ``seeds`` and the settings follows from the results (``bot.leagues.replay``);
a copy between databases (``python -m bot.migrate``) takes all three tables (``TABLES``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import timedelta

from bot.leagues.model import BOT_WIDE, Ladder, LeagueRow, LeagueSettings, LeagueTable, Scope
from bot.leagues.months import Month
from bot.store import ResultRow
from bot.store.model import counts_for_ratings, with_hand_winners
from bot.store.results import result_row
from bot.store.sql import Row, Sql

SCHEMA = """
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
"""

#: For ``python -m bot.migrate``: the tables in the order they can be filled, each with the
#: columns it is read in order of.
TABLES = {"leagues": "scope, game", "league_players": "scope, game, place",
          "league_months": "scope, game, month"}

#: A stored time written with an offset other than UTC's sorts as text by its own day: the
#: month's hands are looked for this much either side, and ``bot.leagues.points`` keeps the
#: month's.
MARGIN = timedelta(days=1)

_RESULTS = ("SELECT results.*, tables.settings AS table_settings, hands.result AS hand_result "
            "FROM results LEFT JOIN hands ON hands.id = results.hand_id "
            "LEFT JOIN tables ON tables.id = hands.table_id "
            "WHERE results.game = ? AND results.finished_at >= ? AND results.finished_at < ?")


#: A league with its ladder in one statement: one snapshot, so that a month closed meanwhile
#: is seen whole or not at all (on PostgreSQL two statements of a transaction may see two).
_LEAGUES = ("SELECT leagues.*, league_players.player, league_players.idle FROM leagues "
            "LEFT JOIN league_players ON league_players.scope = leagues.scope "
            "AND league_players.game = leagues.game WHERE leagues.scope = ?")
_IN_ORDER = " ORDER BY leagues.game, league_players.place"


def _leagues(rows: Sequence[Row]) -> list[LeagueRow]:
    """Leagues from their rows joined with their players' (a league without players has one
    row, its player NULL)."""
    by_league: dict[str, tuple[Row, list[Row]]] = {}
    for r in rows:
        _, players = by_league.setdefault(r["game"], (r, []))
        if r["player"] is not None:
            players.append(r)
    return [
        LeagueRow(scope=r["scope"], game=r["game"],
                  settings=LeagueSettings.model_validate_json(r["settings"]),
                  first_month=r["first_month"], seeds=tuple(json.loads(r["seeds"])),
                  ladder=Ladder(month=r["month"], players=tuple(p["player"] for p in players),
                                idle={p["player"]: p["idle"] for p in players if p["idle"]}),
                  created_at=r["created_at"])
        for r, players in by_league.values()]


async def _write_ladder(sql: Sql, scope: Scope, game: str, ladder: Ladder) -> None:
    await sql.execute("DELETE FROM league_players WHERE scope = ? AND game = ?", scope, game)
    await sql.executemany(
        "INSERT INTO league_players (scope, game, player, place, idle) VALUES (?, ?, ?, ?, ?)",
        [(scope, game, p, place, ladder.idle.get(p, 0))
         for place, p in enumerate(ladder.players)])


class LeagueSql:
    db: Sql

    async def create_league(self, scope: Scope, game: str, settings: LeagueSettings,
                            first_month: Month, seeds: Sequence[str],
                            created_at: str) -> LeagueRow | None:
        ladder = Ladder(month=first_month, players=tuple(seeds))
        async with self.db.transaction() as sql:
            made = await sql.fetchval(
                "INSERT INTO leagues (scope, game, settings, first_month, seeds, month, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (scope, game) DO NOTHING RETURNING scope",
                scope, game, settings.model_dump_json(), str(first_month),
                json.dumps(ladder.players), str(first_month), created_at, created_at)
            if made is None:
                return None
            await _write_ladder(sql, scope, game, ladder)
        return LeagueRow(scope=scope, game=game, settings=settings, first_month=first_month,
                         seeds=ladder.players, ladder=ladder, created_at=created_at)

    async def league(self, scope: Scope, game: str) -> LeagueRow | None:
        found = _leagues(await self.db.fetch(_LEAGUES + " AND leagues.game = ?" + _IN_ORDER,
                                             scope, game))
        return found[0] if found else None

    async def leagues(self, scope: Scope) -> list[LeagueRow]:
        return _leagues(await self.db.fetch(_LEAGUES + _IN_ORDER, scope))

    async def leagues_due(self, month: Month) -> list[tuple[Scope, str]]:
        rows = await self.db.fetch(
            "SELECT scope, game FROM leagues WHERE month < ? ORDER BY scope, game", str(month))
        return [(int(r["scope"]), str(r["game"])) for r in rows]

    async def put_league_settings(self, scope: Scope, game: str, settings: LeagueSettings,
                                  updated_at: str) -> bool:
        done = await self.db.fetchval(
            "UPDATE leagues SET settings = ?, updated_at = ? WHERE scope = ? AND game = ? "
            "RETURNING scope", settings.model_dump_json(), updated_at, scope, game)
        return done is not None

    async def save_closing(self, scope: Scope, game: str, table: LeagueTable, after: Ladder,
                           closed_at: str) -> bool:
        if after.month != table.month.next():
            raise ValueError(f"{table.month} is followed by {table.month.next()}, "
                             f"not {after.month}")
        async with self.db.transaction() as sql:
            # The month moves on only from the month closed: a second closing of it finds
            # the league's month moved already, and writes nothing.
            moved = await sql.fetchval(
                "UPDATE leagues SET month = ?, updated_at = ? "
                "WHERE scope = ? AND game = ? AND month = ? RETURNING scope",
                str(after.month), closed_at, scope, game, str(table.month))
            if moved is None:
                return False
            await _write_ladder(sql, scope, game, after)
            await sql.execute(
                "INSERT INTO league_months (scope, game, month, standings, closed_at) "
                "VALUES (?, ?, ?, ?, ?)", scope, game, str(table.month),
                table.model_dump_json(), closed_at)
        return True

    async def league_tables(self, scope: Scope, game: str) -> list[LeagueTable]:
        rows = await self.db.fetch(
            "SELECT standings FROM league_months WHERE scope = ? AND game = ? ORDER BY month",
            scope, game)
        return [LeagueTable.model_validate_json(r["standings"]) for r in rows]

    async def league_table(self, scope: Scope, game: str, month: Month) -> LeagueTable | None:
        text = await self.db.fetchval(
            "SELECT standings FROM league_months WHERE scope = ? AND game = ? AND month = ?",
            scope, game, str(month))
        return None if text is None else LeagueTable.model_validate_json(text)

    async def end_league(self, scope: Scope, game: str) -> bool:
        async with self.db.transaction() as sql:
            for table in ("league_months", "league_players"):
                await sql.execute(f"DELETE FROM {table} WHERE scope = ? AND game = ?",
                                  scope, game)
            gone = await sql.fetchval(
                "DELETE FROM leagues WHERE scope = ? AND game = ? RETURNING scope",
                scope, game)
        return gone is not None

    async def league_results(self, scope: Scope, game: str, first: Month,
                             last: Month) -> list[tuple[ResultRow, bool]]:
        since = (first.start - MARGIN).isoformat()
        until = (last.end + MARGIN).isoformat()
        order = " ORDER BY results.finished_at, results.hand_id"
        if scope == BOT_WIDE:
            rows = await self.db.fetch(_RESULTS + order, game, since, until)
        else:
            rows = await self.db.fetch(_RESULTS + " AND results.guild_id = ?" + order,
                                       game, since, until, scope)
        return [(with_hand_winners(result_row(r), r["hand_result"]),
                 counts_for_ratings(r["table_settings"], r["hand_result"])) for r in rows]
