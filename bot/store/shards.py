"""Shards: which guilds a process serves, and when two claims overlap.

Discord sends a guild's events to shard ``(guild_id >> 22) % shard_count``. A process running
shards ``S`` of ``N`` owns the guilds of those shards. Two claims under different counts can
share guilds: a guild is on shard ``a`` of ``N`` and shard ``b`` of ``M`` for some guild id
exactly when ``a ≡ b (mod gcd(N, M))`` (Chinese remainder theorem), so that is the test.

>>> shard_of(175928847299117063, 4)
0
>>> overlaps(0, 2, 2, 4), overlaps(0, 2, 1, 4), overlaps(1, 1, 5, 8)
(True, False, True)
>>> parse_shard_ids("0-2,5")
(0, 1, 2, 5)
"""

from __future__ import annotations

import math


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


def overlaps(shard: int, count: int, other: int, other_count: int) -> bool:
    """Whether shard ``shard`` of ``count`` and shard ``other`` of ``other_count`` can hold
    the same guild."""
    return shard % math.gcd(count, other_count) == other % math.gcd(count, other_count)


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``0-3`` or ``0,2`` or ``0-1,4``: the shard ids, sorted, without repeats."""
    ids: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        low, sep, high = part.partition("-")
        if not low.strip().isdigit() or (sep and not high.strip().isdigit()):
            raise ValueError(f"{part!r} is not a shard id or a range like 0-3")
        first, last = int(low), int(high) if sep else int(low)
        if last < first:
            raise ValueError(f"the range {part!r} is empty")
        ids.update(range(first, last + 1))
    if not ids:
        raise ValueError("no shard ids given")
    return tuple(sorted(ids))
