"""What a month's hands give each player in a league: which hands count, and their points.

**Which hands count.** A hand of the league's game, finished in the month (UTC), at a table of
the league's server (every server's, for a league of the whole bot), that moves ratings (a
rated table, no seat handed to the computer mid-hand: ``counts_for_ratings``) and that ranks
at least two sides. A hand with a computer at the table counts only where the league says so
(``with_computers``): an easy computer would otherwise give points for nothing. Computers
themselves are never in a league.

**Hand points**, as a Swiss tournament gives them (``bot.tournaments.scoring``): 1 for every
other side of the hand that did worse, ½ for every other side that did as well, over the
number of other sides, as the ratings rank the sides (``bot.ratings.model.placings``). In a
game of two sides that is 1 for a win, ½ each for a tie, 0 for a loss; partners share their
side's. A month's table ranks players by points per hand, kept as exact fractions so that
equal records are equal and a tie is a tie.

>>> from bot.store import ResultRow
>>> row = ResultRow(hand_id=1, guild_id=7, game="schafkopf", team_a=[], team_b=[],
...                 points_a=0, points_b=0, masters_before=None, masters_after=None,
...                 event="won", event_team=None, finished_at="2026-01-05T20:00:00+00:00",
...                 members=["1", "2", "3", "4"], scores={"1": 30, "2": -10, "3": -10,
...                                                      "4": -10})
>>> {p: str(v) for p, v in hand_points(row).items()}
{'1': '1', '2': '0', '3': '0', '4': '0'}
>>> tally = tally_month([(row, True)], scope=7, game="schafkopf", month=Month(2026, 1))
>>> tally.arrivals, tally.players["1"]
(('1', '2', '3', '4'), Tally(hands=1, points=Fraction(1, 1)))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from bot.leagues.model import BOT_WIDE, Scope
from bot.leagues.months import Month, instant
from bot.ratings.model import is_computer_player, placings
from bot.seats import player_of
from bot.store import ResultRow


def seated(row: ResultRow) -> list[str]:
    """The players of a hand (computers as their level)."""
    return [player_of(m) for m in (row.members or [*row.team_a, *row.team_b])]


def hand_points(row: ResultRow) -> dict[str, Fraction]:
    """Each person's hand points (see the module's docstring); computers get none."""
    placed = placings(row)
    others = len(placed) - 1
    out: dict[str, Fraction] = {}
    for members, rank in placed:
        beaten = sum(1 for _, r in placed if r > rank)
        tied = sum(1 for _, r in placed if r == rank) - 1
        points = Fraction(2 * beaten + tied, 2 * others) if others else Fraction(1, 2)
        for member in members:
            player = player_of(member)
            if not is_computer_player(player):
                out[player] = points
    return out


def counts(row: ResultRow, rated: bool, *, scope: Scope, game: str, month: Month,
           with_computers: bool = False) -> bool:
    """Whether a stored result counts in a league's month (see the module's docstring)."""
    if not rated or row.game != game or (scope != BOT_WIDE and row.guild_id != scope):
        return False
    if row.finished_at not in month:
        return False
    players = seated(row)
    if not with_computers and any(is_computer_player(p) for p in players):
        return False
    return len(placings(row)) >= 2 and any(not is_computer_player(p) for p in players)


@dataclass(frozen=True)
class Tally:
    hands: int = 0
    points: Fraction = Fraction(0)


@dataclass(frozen=True)
class MonthTally:
    """A month's counted hands: each player's tally, and the players in the order they
    first played in the month (who joins the league first, if new)."""

    month: Month
    players: dict[str, Tally] = field(default_factory=dict)
    arrivals: tuple[str, ...] = ()


def tally_month(results: Iterable[tuple[ResultRow, bool]], *, scope: Scope, game: str,
                month: Month, with_computers: bool = False) -> MonthTally:
    """Each player's hands and points in ``month`` from stored results (each with whether it
    moves ratings, as ``Store.rated_results`` gives them), whatever else they hold.

    Players arrive in the order of their first hand (its time in UTC, then the hand's id);
    players first seen in the same hand arrive by their id."""
    rows = sorted((row for row, rated in results
                   if counts(row, rated, scope=scope, game=game, month=month,
                             with_computers=with_computers)),
                  key=lambda row: (instant(row.finished_at), row.hand_id))
    tallies: dict[str, Tally] = {}
    arrivals: list[str] = []
    for row in rows:
        points = hand_points(row)
        arrivals += sorted(p for p in points if p not in tallies)
        for player, got in points.items():
            before = tallies.get(player, Tally())
            tallies[player] = Tally(before.hands + 1, before.points + got)
    return MonthTally(month, tallies, tuple(arrivals))
