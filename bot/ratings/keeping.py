"""Ratings kept in the store: moved after every rated hand (``finish``, ``record``),
recomputed from the stored results (``rebuild``)."""

from __future__ import annotations

import asyncio
import weakref
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta

from bot.ratings.levels import prior
from bot.ratings.model import Change, Prior, Rating, counted_only, replay, update
from bot.seats import player_of
from bot.store import EVERYWHERE, RatingChange, RatingRow, ResultRow, Season, Store

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
            counted: Mapping[int, Collection[str]] | None = None,
            ) -> tuple[list[RatingRow], list[RatingChange]]:
    """A server's ratings and their history from its stored results (the rated ones);
    ``counted``: the hands across servers among them, each with the server's members it
    counts for (``Store.shared_results``)."""
    groups: dict[tuple[str, int], list[ResultRow]] = defaultdict(list)
    for row in order(r for r, rated in results if rated):
        groups[(row.game, season_of(seasons, row.finished_at))].append(row)
    rows: list[RatingRow] = []
    history: list[RatingChange] = []
    for (game, season), group in sorted(groups.items()):
        ratings, changes = replay(group, start, counted=counted)
        finished = {r.hand_id: r.finished_at for r in group}
        updated = {c.player: finished[c.hand_id] for c in changes}
        rows += _rows(guild_id, game, season, ratings, updated)
        history += _changes(guild_id, game, season, changes, finished)
    return rows, history


async def rebuild(store: Store, guild_id: int | None = None) -> int:
    """Recompute every rating (of one server, or all) from the stored results; returns how
    many hands were rated. Rebuilt for every server, the ratings are no longer stale."""
    results = await store.rated_results(guild_id)
    by_guild: dict[int, list[tuple[ResultRow, bool]]] = defaultdict(list)
    for row, rated in results:
        by_guild[row.guild_id].append((row, rated))
    # The hands across servers a server counts in its own ratings, for its members.
    counted: dict[int, dict[int, tuple[str, ...]]] = defaultdict(dict)
    for row, rated, members in await store.shared_results(guild_id):
        by_guild[row.guild_id].append((row, rated))
        counted[row.guild_id][row.hand_id] = members
    if guild_id is not None:
        by_guild.setdefault(guild_id, [])
    rated_hands = 0
    for guild, rows in sorted(by_guild.items()):
        ratings, history = compute(guild, rows, await store.seasons(guild),
                                   counted=counted.get(guild, {}))
        await store.replace_ratings(guild, ratings, history)
        rated_hands += len({c.hand_id for c in history})
    if guild_id is None:
        await store.ratings_rebuilt()
    return rated_hands


async def rebuild_if_stale(store: Store) -> int | None:
    """Rebuild every rating if a migration marked them stale (``bot.store.migrations``: the
    store never calls up into the ratings); returns how many hands were rated, or None when
    they were up to date. The bot does it at start, before any table plays."""
    if not await store.stale_ratings():
        return None
    return await rebuild(store)


#: The last time ``finish`` gave a result, in this process.
_last_finished: datetime | None = None


def _finished_now() -> str:
    """Now, to the microsecond, and always after the time last given: the order of these
    times is the order the results were rated in."""
    global _last_finished
    stamp = datetime.now(UTC)
    if _last_finished is not None and stamp <= _last_finished:
        stamp = _last_finished + timedelta(microseconds=1)
    _last_finished = stamp
    return stamp.isoformat(timespec="microseconds")


async def finish(store: Store, row: ResultRow, *, rated: bool = True) -> ResultRow:
    """Store a finished hand's result and move its players' ratings, one hand at a time.

    The result's time is given here, under the ratings' lock, so that the order the results
    finished in (what a rebuild replays) is the order they were rated in. Stamped before
    taking the lock, tables finishing in the same second came in "earlier" than a result
    already rated (a second's resolution, the hand id breaking the tie) and each such hand
    rebuilt the server's ratings from every hand it ever played: a busy server slowed down
    with its history until its clicks missed Discord's 3 s. Returns the result as stored."""
    async with _lock():
        row = row.model_copy(update={"finished_at": _finished_now()})
        await store.add_result(row)
        await _record(store, row, rated)
        await _shared(store, row, rated)
    return row


async def _shared(store: Store, row: ResultRow, rated: bool) -> None:
    """A hand across servers (on the ladder, ``EVERYWHERE``) also moves, in the own
    ratings of each server that counts such hands (``/admin crossplay ratings:on``), the
    ratings of that server's members who played it — never a stranger's nor a
    computer's there."""
    if row.guild_id != EVERYWHERE:
        return
    for guild_id, members in await store.share_result(row.hand_id):
        await _record(store, row.model_copy(update={"guild_id": guild_id}), rated, members)


async def record(store: Store, row: ResultRow, *, rated: bool = True) -> None:
    """Move the ratings of a hand's players by its stored result (at a rated table).

    A hand already rated is left alone (a restart may store its result again). Ratings take
    results in the order they finished; a result that comes in earlier than one already
    rated (a result stored before ``finish`` gave the times, a clock set back) rebuilds the
    server's ratings, so that they are always what ``rebuild`` gives."""
    async with _lock():
        await _record(store, row, rated)
        await _shared(store, row, rated)


async def _record(store: Store, row: ResultRow, rated: bool,
                  counted: Collection[str] | None = None) -> None:
    if not rated:
        return
    if await store.rated_in(row.hand_id, row.guild_id):
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
    new = counted_only(update(current, row, prior), counted)
    if not new:
        return
    changes = [Change(row.hand_id, p, current.get(p) or prior(row.game, p), r)
               for p, r in sorted(new.items())]
    await store.save_ratings(
        _rows(row.guild_id, row.game, season, new, dict.fromkeys(new, row.finished_at)),
        _changes(row.guild_id, row.game, season, changes, {row.hand_id: row.finished_at}))
