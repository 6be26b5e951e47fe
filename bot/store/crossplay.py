"""Play across servers (issue 42): each server's opt-in, the one queue of every server and
its matchmaker, a cross-server table's venues, blocks, bars, reports, and the clicks one
process hands to another.

The matchmaker (``form``) runs in one transaction behind the queue's lock (an advisory lock
on PostgreSQL, the one connection on SQLite), so that two processes never seat one player
twice: it takes the players it seats out of the queue in the same transaction.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from bot.store.model import (
    EVERYWHERE,
    CrossplaySettings,
    Member,
    Report,
    ReportReason,
    ResultRow,
    VenueRow,
    Waiting,
    counts_for_ratings,
    now,
    with_hand_winners,
)
from bot.store.results import result_row
from bot.store.sql import Database, Row

#: The longest table name a player may choose (``/crossplay name``): a name is shown capped
#: at this length anyway (``bot.voice.markdown.NAME_LIMIT``).
NAME_CHARS = 32


def _waiting(r: Row) -> Waiting:
    return Waiting(user_id=r["user_id"], guild_id=r["guild_id"], channel_id=r["channel_id"],
                   game=r["game"], rated=bool(r["rated"]), pace=r["pace"], name=r["name"],
                   locale=r["locale"], application_id=r["application_id"], token=r["token"],
                   queued_at=r["queued_at"])


def _venue(r: Row) -> VenueRow:
    return VenueRow(table_id=r["table_id"], guild_id=r["guild_id"],
                    channel_id=r["channel_id"], message_id=r["message_id"],
                    members=tuple(json.loads(r["members"])),
                    runtime=json.loads(r["runtime"]))


def from_each_server(members: Sequence[Member], home: int,
                     venues: Sequence[VenueRow]) -> dict[int, tuple[Member, ...]]:
    """The people of a hand (its seats' members) by the server they play from: a venue's
    members from its server, everyone else from the table's home.

    >>> v = VenueRow(table_id=1, guild_id=20, channel_id=2, members=(2, 4))
    >>> from_each_server(["1", "2", "cpu:normal", "4"], 10, [v])
    {10: ('1',), 20: ('2', '4')}
    """
    out: dict[int, list[Member]] = {}
    away = {str(u): v.guild_id for v in venues for u in v.members}
    for m in members:
        if m.startswith("cpu:"):
            continue
        out.setdefault(away.get(m, home), []).append(m)
    return {g: tuple(ms) for g, ms in sorted(out.items())}


def compatible(group: Sequence[int], user: int, blocks: Collection[tuple[int, int]]) -> bool:
    """Whether ``user`` may sit with everyone of ``group``: neither blocked the other.

    >>> compatible([1, 2], 3, {(3, 2)}), compatible([1, 2], 3, {(4, 1)})
    (False, True)
    """
    return not any((user, other) in blocks or (other, user) in blocks for other in group)


def pick(waiting: Sequence[Waiting], players: int,
         blocks: Collection[tuple[int, int]]) -> list[Waiting] | None:
    """The first ``players`` who may sit together, the longest waiting first: each of the
    same wishes (rated or casual, pace) as the first of the group, none blocking another.

    >>> w = [Waiting(user_id=u, guild_id=u, channel_id=u, game="filicau", name=str(u),
    ...              application_id=1, token="t", queued_at=str(u)) for u in (1, 2, 3, 4, 5)]
    >>> [x.user_id for x in pick(w, 4, {(2, 1)}) or []]
    [1, 3, 4, 5]
    """
    for first in waiting:
        group = [first]
        for other in waiting:
            if other is first or (other.rated, other.pace) != (first.rated, first.pace):
                continue
            if compatible([g.user_id for g in group], other.user_id, blocks):
                group.append(other)
                if len(group) == players:
                    return group
    return None


class CrossplaySql:
    db: Database

    # -- each server's opt-in --------------------------------------------------------------

    async def crossplay_settings(self, guild_id: int) -> CrossplaySettings:
        r = await self.db.fetchrow("SELECT * FROM crossplay_servers WHERE guild_id = ?",
                                   guild_id)
        if r is None:
            return CrossplaySettings(guild_id=guild_id)
        return CrossplaySettings(guild_id=guild_id, enabled=bool(r["enabled"]),
                                 games=tuple(json.loads(r["games"])),
                                 channels=tuple(json.loads(r["channels"])))

    async def own_ratings(self, guild_id: int) -> bool:
        """Whether the hands this server's members play across servers count in its own
        ratings too (``/admin crossplay ratings:``; off by default)."""
        return bool(await self.db.fetchval(
            "SELECT own_ratings FROM crossplay_servers WHERE guild_id = ?", guild_id))

    async def put_own_ratings(self, guild_id: int, on: bool) -> None:
        await self.db.execute(
            "INSERT INTO crossplay_servers (guild_id, own_ratings, updated_at) "
            "VALUES (?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "own_ratings = excluded.own_ratings, updated_at = excluded.updated_at",
            guild_id, on, now())

    async def put_crossplay_settings(self, settings: CrossplaySettings) -> None:
        await self.db.execute(
            "INSERT INTO crossplay_servers (guild_id, enabled, games, channels, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "enabled = excluded.enabled, games = excluded.games, "
            "channels = excluded.channels, updated_at = excluded.updated_at",
            settings.guild_id, settings.enabled, json.dumps(list(settings.games)),
            json.dumps(list(settings.channels)), now())

    # -- the queue of every server ---------------------------------------------------------

    async def enqueue(self, waiting: Waiting) -> None:
        """Queue a player (again: their wishes and token replace the ones before)."""
        await self.db.execute(
            "INSERT INTO crossplay_queue (user_id, guild_id, channel_id, game, rated, pace, "
            "name, locale, application_id, token, queued_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "guild_id = excluded.guild_id, channel_id = excluded.channel_id, "
            "game = excluded.game, rated = excluded.rated, pace = excluded.pace, "
            "name = excluded.name, locale = excluded.locale, "
            "application_id = excluded.application_id, token = excluded.token, "
            "queued_at = excluded.queued_at",
            waiting.user_id, waiting.guild_id, waiting.channel_id, waiting.game,
            waiting.rated, waiting.pace, waiting.name, waiting.locale,
            waiting.application_id, waiting.token, waiting.queued_at)
        # The name they show at tables across servers, kept for the ladder's lines.
        await self.db.execute(
            "INSERT INTO crossplay_names (user_id, name, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, "
            "updated_at = excluded.updated_at", waiting.user_id, waiting.name, now())

    async def table_name(self, user_id: int) -> str | None:
        """The name a player chose to be shown by at tables across servers, if any."""
        name: str | None = await self.db.fetchval(
            "SELECT chosen FROM crossplay_names WHERE user_id = ?", user_id)
        return name

    async def put_table_name(self, user_id: int, chosen: str | None, shown: str) -> None:
        """Keep the name a player chose (None: their Discord name again); ``shown``, the
        name they show from now on (the ladder's line)."""
        await self.db.execute(
            "INSERT INTO crossplay_names (user_id, name, chosen, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, "
            "chosen = excluded.chosen, updated_at = excluded.updated_at",
            user_id, shown, chosen, now())

    async def crossplay_names(self, user_ids: Collection[int]) -> dict[int, str]:
        """The names these players last showed at tables across servers."""
        ids = list(user_ids)
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        return {r["user_id"]: r["name"] for r in await self.db.fetch(
            f"SELECT user_id, name FROM crossplay_names WHERE user_id IN ({marks})", *ids)}

    async def dequeue(self, user_id: int) -> Waiting | None:
        """Take a player out of the queue; the row they had, if any."""
        r = await self.db.fetchrow("DELETE FROM crossplay_queue WHERE user_id = ? RETURNING *",
                                   user_id)
        return None if r is None else _waiting(r)

    async def waiting(self, game: str | None = None) -> list[Waiting]:
        """The queue (of one game), the longest waiting first."""
        if game is None:
            rows = await self.db.fetch("SELECT * FROM crossplay_queue ORDER BY queued_at, user_id")
        else:
            rows = await self.db.fetch("SELECT * FROM crossplay_queue WHERE game = ? "
                                       "ORDER BY queued_at, user_id", game)
        return [_waiting(r) for r in rows]

    async def form(self, game: str, players: int) -> list[Waiting] | None:
        """The matchmaker: ``players`` of the queue for ``game`` who may sit together (their
        servers still opted in, none barred, none blocking another), taken out of the queue
        in the same transaction; None while there are not enough."""
        async with self.db.transaction() as sql:
            await sql.execute(self.db.words["queue_lock"])
            rows = await sql.fetch(
                "SELECT q.* FROM crossplay_queue q "
                "JOIN crossplay_servers s ON s.guild_id = q.guild_id AND s.enabled "
                "WHERE q.game = ? AND q.user_id NOT IN (SELECT user_id FROM crossplay_bars) "
                "ORDER BY q.queued_at, q.user_id", game)
            waiting = [_waiting(r) for r in rows]
            if len(waiting) < players:
                return None
            ids = [w.user_id for w in waiting]
            marks = ", ".join("?" * len(ids))
            blocks = {(r["user_id"], r["blocked_id"]) for r in await sql.fetch(
                f"SELECT user_id, blocked_id FROM blocks WHERE user_id IN ({marks}) "
                f"AND blocked_id IN ({marks})", *ids, *ids)}
            group = pick(waiting, players, blocks)
            if group is None:
                return None
            for w in group:
                await sql.execute("DELETE FROM crossplay_queue WHERE user_id = ?", w.user_id)
            return group

    # -- a cross-server table's venues -----------------------------------------------------

    async def put_venue(self, venue: VenueRow) -> None:
        await self.db.execute(
            "INSERT INTO table_venues (table_id, guild_id, channel_id, message_id, members, "
            "runtime) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, guild_id) DO UPDATE "
            "SET channel_id = excluded.channel_id, message_id = excluded.message_id, "
            "members = excluded.members, runtime = excluded.runtime",
            venue.table_id, venue.guild_id, venue.channel_id, venue.message_id,
            json.dumps(list(venue.members)), json.dumps(venue.runtime))

    async def venues(self, table_id: int) -> list[VenueRow]:
        """A table's venues beside its home server, by server."""
        return [_venue(r) for r in await self.db.fetch(
            "SELECT * FROM table_venues WHERE table_id = ? ORDER BY guild_id", table_id)]

    async def venue_in(self, channel_id: int) -> VenueRow | None:
        """The venue a channel shows, of a table still open (its Activity: the table as
        that server sees it)."""
        r = await self.db.fetchrow(
            "SELECT v.* FROM table_venues v JOIN tables t ON t.id = v.table_id "
            "WHERE v.channel_id = ? AND t.state <> 'closed' ORDER BY v.table_id DESC LIMIT 1",
            channel_id)
        return None if r is None else _venue(r)

    # -- a server's own ratings of its members' hands across servers -------------------------

    async def share_result(self, hand_id: int) -> list[tuple[int, tuple[Member, ...]]]:
        """The servers that count this hand of a table across servers in their own ratings
        (``own_ratings`` on when it finished), each with the members who played it from
        there; kept with the hand (``shared_results``), so that a rebuild counts the same
        hands for the same people, and given again if asked again."""
        async with self.db.transaction() as sql:
            hand = await sql.fetchrow(
                "SELECT hands.header, tables.id AS table_id, tables.guild_id FROM hands "
                "JOIN tables ON tables.id = hands.table_id WHERE hands.id = ?", hand_id)
            if hand is None:
                return []
            venues = [_venue(r) for r in await sql.fetch(
                "SELECT * FROM table_venues WHERE table_id = ?", hand["table_id"])]
            members = json.loads(hand["header"]).get("members") or []
            people = from_each_server([m for m in members if isinstance(m, str)],
                                      hand["guild_id"], venues)
            if people:
                marks = ", ".join("?" * len(people))
                counting = {r["guild_id"] for r in await sql.fetch(
                    f"SELECT guild_id FROM crossplay_servers WHERE guild_id IN ({marks}) "
                    "AND own_ratings", *people)}
                for guild_id, theirs in people.items():
                    if guild_id in counting and guild_id != EVERYWHERE:
                        await sql.execute(
                            "INSERT INTO shared_results (hand_id, guild_id, members) "
                            "VALUES (?, ?, ?) ON CONFLICT (hand_id, guild_id) DO NOTHING",
                            hand_id, guild_id, json.dumps(list(theirs)))
            rows = await sql.fetch("SELECT guild_id, members FROM shared_results "
                                   "WHERE hand_id = ? ORDER BY guild_id", hand_id)
        return [(r["guild_id"], tuple(json.loads(r["members"]))) for r in rows]

    async def shared_results(self, guild_id: int | None = None,
                             ) -> list[tuple[ResultRow, bool, tuple[Member, ...]]]:
        """The hands across servers that servers (one, or all) count in their own ratings:
        each result as that server's (its ``guild_id``), whether it moves ratings
        (``Store.rated_results``), and the members it counts for."""
        sql = ("SELECT results.*, shared_results.guild_id AS shared_guild, "
               "shared_results.members AS counted, tables.settings AS table_settings, "
               "hands.result AS hand_result FROM shared_results "
               "JOIN results ON results.hand_id = shared_results.hand_id "
               "LEFT JOIN hands ON hands.id = results.hand_id "
               "LEFT JOIN tables ON tables.id = hands.table_id")
        if guild_id is None:
            rows = await self.db.fetch(sql + " ORDER BY shared_results.guild_id, "
                                       "results.hand_id")
        else:
            rows = await self.db.fetch(sql + " WHERE shared_results.guild_id = ? "
                                       "ORDER BY results.hand_id", guild_id)
        return [(with_hand_winners(result_row(r), r["hand_result"]).model_copy(
                    update={"guild_id": r["shared_guild"]}),
                 counts_for_ratings(r["table_settings"], r["hand_result"]),
                 tuple(json.loads(r["counted"]))) for r in rows]

    async def rated_in(self, hand_id: int, guild_id: int) -> bool:
        """Whether this hand moved ratings in this server's books (or the ladder's)."""
        return await self.db.fetchval(
            "SELECT 1 FROM rating_history WHERE hand_id = ? AND guild_id = ? LIMIT 1",
            hand_id, guild_id) is not None

    # -- blocks, bars and reports ----------------------------------------------------------

    async def block(self, user_id: int, blocked_id: int) -> None:
        await self.db.execute(
            "INSERT INTO blocks (user_id, blocked_id, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id, blocked_id) DO NOTHING", user_id, blocked_id, now())

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        return await self.db.fetchrow(
            "DELETE FROM blocks WHERE user_id = ? AND blocked_id = ? RETURNING user_id",
            user_id, blocked_id) is not None

    async def blocked_among(self, user_ids: Collection[int]) -> set[tuple[int, int]]:
        """The blocks between any two of ``user_ids`` (who blocked whom)."""
        ids = list(user_ids)
        if len(ids) < 2:
            return set()
        marks = ", ".join("?" * len(ids))
        return {(r["user_id"], r["blocked_id"]) for r in await self.db.fetch(
            f"SELECT user_id, blocked_id FROM blocks WHERE user_id IN ({marks}) "
            f"AND blocked_id IN ({marks})", *ids, *ids)}

    async def bar(self, user_id: int, by: int) -> None:
        await self.db.execute(
            "INSERT INTO crossplay_bars (user_id, barred_by, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO NOTHING", user_id, by, now())
        await self.db.execute("DELETE FROM crossplay_queue WHERE user_id = ?", user_id)

    async def unbar(self, user_id: int) -> bool:
        return await self.db.fetchrow(
            "DELETE FROM crossplay_bars WHERE user_id = ? RETURNING user_id",
            user_id) is not None

    async def barred(self, user_id: int) -> bool:
        return await self.db.fetchrow(
            "SELECT user_id FROM crossplay_bars WHERE user_id = ?", user_id) is not None

    async def report(self, reporter_id: int, hand_id: int, guild_id: int,
                     reason: ReportReason) -> bool:
        """Keep a report (one per player and hand); False if they reported it already."""
        return await self.db.fetchrow(
            "INSERT INTO reports (reporter_id, hand_id, guild_id, reason, created_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (reporter_id, hand_id) DO NOTHING "
            "RETURNING id", reporter_id, hand_id, guild_id, reason, now()) is not None

    async def reports(self, limit: int = 20) -> list[Report]:
        """The latest reports, the latest first."""
        return [Report(id=r["id"], reporter_id=r["reporter_id"], hand_id=r["hand_id"],
                       guild_id=r["guild_id"], reason=r["reason"], created_at=r["created_at"])
                for r in await self.db.fetch(
                    "SELECT * FROM reports ORDER BY id DESC LIMIT ?", limit)]

    # -- clicks handed between processes ---------------------------------------------------

    async def relay(self, shard: int, payload: dict[str, Any]) -> int:
        """Keep an interaction for the process of ``shard``; its id."""
        rid: int = await self.db.fetchval(
            "INSERT INTO relayed (shard, payload, created_at) VALUES (?, ?, ?) RETURNING id",
            shard, json.dumps(payload), now())
        return rid

    async def take_relayed(self, relayed_id: int, *, at: float,
                           stale_before: float) -> dict[str, Any] | None:
        """The interaction kept under ``relayed_id``, taken once (by whichever asks first)
        at ``at`` (seconds since the epoch) — or again, if the process that took it had not
        done it before ``stale_before`` (it died): it stays kept until ``done_relayed``."""
        r = await self.db.fetchrow(
            "UPDATE relayed SET taken_at = ? WHERE id = ? "
            "AND (taken_at IS NULL OR taken_at < ?) RETURNING payload",
            at, relayed_id, stale_before)
        if r is None:
            return None
        payload: dict[str, Any] = json.loads(r["payload"])
        return payload

    async def done_relayed(self, relayed_id: int) -> None:
        """The interaction kept under ``relayed_id`` was handled: forgotten."""
        await self.db.execute("DELETE FROM relayed WHERE id = ?", relayed_id)

    async def relayed_for(self, shards: Collection[int], *, stale_before: float) -> list[int]:
        """The ids of the interactions kept for the processes of ``shards`` that nobody
        took, or that were taken before ``stale_before`` and never done, the oldest first (a
        notification that reached nobody: its owner was starting; or its owner died)."""
        ids = list(shards)
        if not ids:
            return []
        marks = ", ".join("?" * len(ids))
        return [r["id"] for r in await self.db.fetch(
            f"SELECT id FROM relayed WHERE shard IN ({marks}) "
            "AND (taken_at IS NULL OR taken_at < ?) ORDER BY id", *ids, stale_before)]
