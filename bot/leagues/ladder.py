"""A league's month: its table per division, and the ladder the next month begins with.

**The table.** Each division ranks its players by points per hand in the month
(``bot.leagues.points``), among those who played the month's minimum of hands; ties go to
the one with more hands, then to the one placed higher as the month began (a player who came
down from the division above is placed above those who stayed, a player who came up below
them). A player short of the minimum is ranked after everyone who made it (among
themselves: more hands first, then points per hand, then the place the month began with): they
cannot go up, and they are the first to go down. Keeping their place without playing would
make not playing safer than playing badly, which no club wants.

**Promotion and relegation.** Between two neighbouring divisions, the best ``movers`` of the
lower one who played the minimum go up, and as many of the upper one's last go down: the two
moves mirror each other, so every division keeps its size. A division with nobody at the
minimum sends nobody up, and the division above it nobody down.

**New players** join in the lowest division as they play their first hand of the month (a
full lowest division opens one below it); their first month's table already shows them.
**Players who stop** leave the league after ``drop_after`` months in a row without a counted
hand. The places they leave are filled from below: everyone after them in the ladder moves
up, so each division below gives its first player (as the next month begins) to the one
above it: a player relegated at the same time may stay where he was.

Everything follows from the ladder as the month began, the settings and the month's stored
results: replaying a league's months from its first ladder gives the same league
(``replay``).

>>> from bot.leagues.points import MonthTally, Tally
>>> from fractions import Fraction
>>> jan = Month(2026, 1)
>>> ladder = Ladder(month=jan, players=("a", "b", "c", "d"))
>>> settings = LeagueSettings(division_size=2, movers=1, min_hands=2)
>>> won = {"a": 0, "b": 2, "c": 2, "d": 1}
>>> tally = MonthTally(jan, {p: Tally(2, Fraction(w)) for p, w in won.items()}, ())
>>> closing = close(ladder, settings, tally)
>>> [[(s.player, s.move) for s in d.standings] for d in closing.table.divisions]
[[('b', 'stay'), ('a', 'down')], [('c', 'up'), ('d', 'stay')]]
>>> closing.after.players, str(closing.after.month)
(('b', 'c', 'a', 'd'), '2026-02')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from bot.leagues.model import (
    Division,
    Ladder,
    LeagueSettings,
    LeagueTable,
    Move,
    Scope,
    Standing,
    chunks,
)
from bot.leagues.months import Month, months_ended
from bot.leagues.points import MonthTally, Tally, tally_month
from bot.store import ResultRow


@dataclass(frozen=True)
class Closing:
    """A month's table and the ladder the next month begins with. For a month in play: the
    table as it stands, and what would follow if the month ended now."""

    table: LeagueTable
    after: Ladder


def _rank_key(tally: Tally, seed: int, min_hands: int) -> tuple[int, Fraction, Fraction, int]:
    share = tally.points / tally.hands if tally.hands else Fraction(0)
    hands = Fraction(tally.hands)
    if tally.hands >= min_hands:
        return 0, -share, -hands, seed
    return 1, -hands, -share, seed


def close(ladder: Ladder, settings: LeagueSettings, tally: MonthTally) -> Closing:
    """The month's table per division and the ladder the next month begins with (see the
    module's docstring), from the ladder the month began with and its counted hands."""
    if tally.month != ladder.month:
        raise ValueError(f"hands of {tally.month} cannot close {ladder.month}")
    size, k = settings.division_size, settings.movers
    known = set(ladder.players)
    newcomers = [p for p in tally.arrivals if p not in known]
    order = [*ladder.players, *newcomers]
    seed = {p: i for i, p in enumerate(order)}

    def tally_of(player: str) -> Tally:
        return tally.players.get(player, Tally())

    def counted(player: str) -> bool:
        return tally_of(player).hands >= settings.min_hands

    tables = [sorted(d, key=lambda p: _rank_key(tally_of(p), seed[p], settings.min_hands))
              for d in chunks(order, size)]
    # ups[i]: who goes up from division i (to i - 1); as many of division i - 1 go down.
    ups = [[] if i == 0 else [p for p in table if counted(p)][:k]
           for i, table in enumerate(tables)]
    downs = [table[len(table) - len(ups[i + 1]):] if i + 1 < len(tables) and ups[i + 1] else []
             for i, table in enumerate(tables)]
    moved: list[str] = []
    for i, table in enumerate(tables):
        from_above = downs[i - 1] if i else []
        from_below = ups[i + 1] if i + 1 < len(tables) else []
        staying = [p for p in table if p not in ups[i] and p not in downs[i]]
        moved += [*from_above, *staying, *from_below]

    idle = {p: 0 if tally_of(p).hands else ladder.idle.get(p, 0) + 1 for p in order}
    leaving = {p for p in order
               if settings.drop_after and idle[p] >= settings.drop_after}
    after_players = [p for p in moved if p not in leaving]
    after_division = {p: i // size for i, p in enumerate(after_players)}

    def move(player: str, division: int) -> Move:
        if player in leaving:
            return "out"
        now = after_division[player]
        return "up" if now < division else "down" if now > division else "stay"

    divisions = tuple(
        Division(number=i + 1, standings=tuple(
            Standing(player=p, place=place, hands=tally_of(p).hands,
                     points=tally_of(p).points, counted=counted(p), new=p not in known,
                     move=move(p, i))
            for place, p in enumerate(table, start=1)))
        for i, table in enumerate(tables))
    return Closing(
        LeagueTable(month=ladder.month, settings=settings, divisions=divisions),
        Ladder(month=ladder.month.next(), players=tuple(after_players),
               idle={p: idle[p] for p in after_players if idle[p]}))


def month_closing(ladder: Ladder, settings: LeagueSettings,
              results: Iterable[tuple[ResultRow, bool]], *, scope: Scope,
              game: str) -> Closing:
    """The month in play as it stands, from its results so far: ``close`` of what is
    there (the moves are what would happen if the month ended now)."""
    return close(ladder, settings, tally_month(
        results, scope=scope, game=game, month=ladder.month,
        with_computers=settings.with_computers))


def replay(first: Ladder, settings_of: Callable[[Month], LeagueSettings],
           results: Iterable[tuple[ResultRow, bool]], *, scope: Scope, game: str,
           now: datetime) -> tuple[Ladder, list[LeagueTable]]:
    """A league rebuilt from its first ladder and every stored result: the ladder of the
    month in play at ``now`` and the table of each month that had ended, oldest first.
    ``settings_of`` gives the settings each month closed under."""
    by_month: dict[Month, list[tuple[ResultRow, bool]]] = {}
    for row, rated in results:
        by_month.setdefault(Month.of(row.finished_at), []).append((row, rated))
    ladder, tables = first, []
    for month in months_ended(first.month, now):
        closing = month_closing(ladder, settings_of(month), by_month.get(month, ()),
                            scope=scope, game=game)
        tables.append(closing.table)
        ladder = closing.after
    return ladder, tables


def seeding(ratings: Mapping[str, float]) -> tuple[str, ...]:
    """A first ladder from the players' ratings (a person's id -> the conservative rating
    the leaderboard ranks by): the highest first, equal ratings by id. Computers are left
    out.

    >>> seeding({"1": 20.5, "cpu:hard": 30.0, "2": 22.0, "3": 20.5})
    ('2', '1', '3')
    """
    people = [p for p in ratings if not p.startswith("cpu:")]
    return tuple(sorted(people, key=lambda p: (-ratings[p], p)))
