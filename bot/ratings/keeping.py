"""Ratings kept in the store: moved after every rated hand (``record``), recomputed from
the stored results (``rebuild``)."""

from __future__ import annotations

import asyncio
import weakref
from collections import defaultdict
from collections.abc import Iterable, Sequence

from bot.ratings.levels import prior
from bot.ratings.model import Change, Prior, Rating, player_of, replay, update
from bot.store import RatingChange, RatingRow, ResultRow, Season, Store

#: Ratings are read, moved and written back: one hand at a time in this process (two tables
#: finishing together share their computer levels' ratings). One lock per event loop: a lock
#: is bound to the loop it first waits in.
_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary())


def _lock() -> asyncio.Lock:
    loop = asyncio.get_running_loop()
    lock = _locks.get(loop)
    if lock is None:
        lock = _locks[loop] = asyncio.Lock()
    return lock


def season_of(seasons: Sequence[Season], finished_at: str) -> int:
    """The season a result finished at ``finished_at`` counts in: the latest started by
    then (season 1 before any was started)."""
    number = 1
    for s in sorted(seasons, key=lambda s: s.number):
        if s.started_at <= finished_at:
            number = s.number
    return number


def order(rows: Iterable[ResultRow]) -> list[ResultRow]:
    """Results in the order ratings take them: as they finished (the hand id breaks a tie
    within a second)."""
    return sorted(rows, key=lambda r: (r.finished_at, r.hand_id))


def _rows(guild_id: int, game: str, season: int,
          ratings: dict[str, Rating], updated: dict[str, str]) -> list[RatingRow]:
    return [RatingRow(guild_id=guild_id, game=game, season=season, player=p, mu=r.mu,
                      sigma=r.sigma, hands=r.hands, updated_at=updated[p])
            for p, r in sorted(ratings.items())]


def _changes(guild_id: int, game: str, season: int, changes: Iterable[Change],
             finished: dict[int, str]) -> list[RatingChange]:
    return [RatingChange(hand_id=c.hand_id, guild_id=guild_id, game=game, season=season,
                         player=c.player, mu_before=c.before.mu, sigma_before=c.before.sigma,
                         mu=c.after.mu, sigma=c.after.sigma, finished_at=finished[c.hand_id])
            for c in changes]


def compute(guild_id: int, results: Iterable[tuple[ResultRow, bool]],
            seasons: Sequence[Season], start: Prior = prior,
            ) -> tuple[list[RatingRow], list[RatingChange]]:
    """A server's ratings and their history from its stored results (the rated ones)."""
    groups: dict[tuple[str, int], list[ResultRow]] = defaultdict(list)
    for row in order(r for r, rated in results if rated):
        groups[(row.game, season_of(seasons, row.finished_at))].append(row)
    rows: list[RatingRow] = []
    history: list[RatingChange] = []
    for (game, season), group in sorted(groups.items()):
        ratings, changes = replay(group, start)
        finished = {r.hand_id: r.finished_at for r in group}
        updated = {c.player: finished[c.hand_id] for c in changes}
        rows += _rows(guild_id, game, season, ratings, updated)
        history += _changes(guild_id, game, season, changes, finished)
    return rows, history


async def rebuild(store: Store, guild_id: int | None = None) -> int:
    """Recompute every rating (of one server, or all) from the stored results; returns how
    many hands were rated."""
    results = await store.rated_results(guild_id)
    by_guild: dict[int, list[tuple[ResultRow, bool]]] = defaultdict(list)
    for row, rated in results:
        by_guild[row.guild_id].append((row, rated))
    if guild_id is not None:
        by_guild.setdefault(guild_id, [])
    rated_hands = 0
    for guild, rows in sorted(by_guild.items()):
        ratings, history = compute(guild, rows, await store.seasons(guild))
        await store.replace_ratings(guild, ratings, history)
        rated_hands += len({c.hand_id for c in history})
    return rated_hands


async def record(store: Store, row: ResultRow, *, rated: bool = True) -> None:
    """Move the ratings of a hand's players by its stored result (at a rated table).

    A hand already rated is left alone (a restart may store its result again). Ratings take
    results in the order they finished; a result that comes in earlier than one already
    rated (two hands finishing in the same second, a clock set back) rebuilds the server's
    ratings, so that they are always what ``rebuild`` gives."""
    if not rated:
        return
    async with _lock():
        if await store.rated_hand(row.hand_id):
            return
        last = await store.last_rating_change(row.guild_id, row.game)
        if last is not None and (last.finished_at, last.hand_id) > (row.finished_at,
                                                                    row.hand_id):
            await rebuild(store, row.guild_id)
            return
        season = season_of(await store.seasons(row.guild_id), row.finished_at)
        players = {player_of(m) for m in (row.members or [*row.team_a, *row.team_b])}
        current = {r.player: Rating(mu=r.mu, sigma=r.sigma, hands=r.hands)
                   for r in await store.ratings(row.guild_id, row.game, season, players)}
        new = update(current, row, prior)
        if not new:
            return
        changes = [Change(row.hand_id, p, current.get(p) or prior(row.game, p), r)
                   for p, r in sorted(new.items())]
        await store.save_ratings(
            _rows(row.guild_id, row.game, season, new, dict.fromkeys(new, row.finished_at)),
            _changes(row.guild_id, row.game, season, changes, {row.hand_id: row.finished_at}))
