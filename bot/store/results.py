"""Results: one row per finished hand, for the standings and the ratings."""

from __future__ import annotations

import json

from bot.store.model import ResultRow, counts_for_ratings, with_hand_winners
from bot.store.sql import Row, Sql

COLUMNS = ("hand_id", "guild_id", "game", "team_a", "team_b", "points_a", "points_b",
           "masters_before", "masters_after", "event", "event_team", "finished_at", "members",
           "masters_before_members", "masters_after_members", "scores", "match_winners")
#: Stored again for the same hand, a result replaces the one before.
PUT = (f"INSERT INTO results ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))}) "
       "ON CONFLICT (hand_id) DO UPDATE SET "
       + ", ".join(f"{c} = excluded.{c}" for c in COLUMNS[1:]))


def result_row(r: Row) -> ResultRow:
    return ResultRow(
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


class ResultSql:
    db: Sql

    async def add_result(self, result: ResultRow) -> None:
        await self.db.execute(
            PUT, result.hand_id, result.guild_id, result.game, json.dumps(result.team_a),
            json.dumps(result.team_b), result.points_a, result.points_b,
            result.masters_before, result.masters_after, result.event, result.event_team,
            result.finished_at, json.dumps(result.members),
            json.dumps(result.masters_before_members), json.dumps(result.masters_after_members),
            None if result.scores is None else json.dumps(result.scores),
            json.dumps(result.match_winners),
        )

    async def results(self, guild_id: int, game: str | None = None) -> list[ResultRow]:
        if game is None:
            rows = await self.db.fetch(
                "SELECT * FROM results WHERE guild_id = ? ORDER BY hand_id", guild_id)
        else:
            rows = await self.db.fetch(
                "SELECT * FROM results WHERE guild_id = ? AND game = ? ORDER BY hand_id",
                guild_id, game)
        return [result_row(r) for r in rows]

    async def rated_results(self, guild_id: int | None = None) -> list[tuple[ResultRow, bool]]:
        """Every stored result (of one server, or all), by server and hand, each with whether
        it moves ratings (its table's settings and its hand's result) and with the
        ``hand_winners`` its hand's result names."""
        sql = ("SELECT results.*, tables.settings AS table_settings, "
               "hands.result AS hand_result FROM results "
               "LEFT JOIN hands ON hands.id = results.hand_id "
               "LEFT JOIN tables ON tables.id = hands.table_id")
        if guild_id is None:
            rows = await self.db.fetch(sql + " ORDER BY results.guild_id, results.hand_id")
        else:
            rows = await self.db.fetch(sql + " WHERE results.guild_id = ? "
                                       "ORDER BY results.hand_id", guild_id)
        return [(with_hand_winners(result_row(r), r["hand_result"]),
                 counts_for_ratings(r["table_settings"], r["hand_result"])) for r in rows]
