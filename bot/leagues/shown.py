"""A league's month as a player reads it, in Discord (``cogs.league``) and on the leaderboard
page: each division's lines, with the record as points of hands, the share, and where the
player goes if the month ended now (or went, for an ended month).

>>> from fractions import Fraction
>>> from bot.leagues.model import Division, LeagueSettings, LeagueTable, Standing
>>> from bot.leagues.months import Month
>>> s = Standing(player="7", place=1, hands=4, points=Fraction(5, 2), counted=True,
...              new=False, move="up")
>>> table = LeagueTable(month=Month(2026, 1), settings=LeagueSettings(),
...                     divisions=(Division(number=2, standings=(s,)),))
>>> [(d, [(x.place, x.name, x.points, x.share, x.arrow) for x in rows])
...  for d, rows in divisions(table, {"7": "Ana"}.get)]
[(2, [(1, 'Ana', '2½', '62 %', '▲')])]
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from bot.leagues.keeping import standing
from bot.leagues.model import LeagueTable, Move, Scope
from bot.leagues.store import LeagueStore

#: Where a player goes, as a sign every language reads alike.
ARROWS: Final[dict[Move, str]] = {"up": "▲", "down": "▼", "stay": "＝", "out": "✖"}


@dataclass(frozen=True)
class Line:
    place: int
    player: str
    name: str
    hands: int
    #: Hand points (halves written as ½).
    points: str
    #: Points per hand, as a percentage.
    share: str
    arrow: str
    #: Played the month's minimum of hands.
    counted: bool
    new: bool


def points_text(points: Fraction) -> str:
    """Hand points as a player writes them: ``3``, ``2½``, ``⅓`` rounded to a tenth."""
    whole, rest = divmod(points, 1)
    if rest == 0:
        return str(int(whole))
    if rest == Fraction(1, 2):
        return f"{int(whole) if whole else ''}½"
    return f"{float(points):.1f}"


def divisions(table: LeagueTable, name: Callable[[str], str | None]
              ) -> list[tuple[int, list[Line]]]:
    """Each division's number and lines, top first."""
    return [(d.number, [
        Line(place=s.place, player=s.player, name=name(s.player) or f"…{s.player[-4:]}",
             hands=s.hands, points=points_text(s.points),
             share=f"{round(100 * s.share)} %", arrow=ARROWS[s.move], counted=s.counted,
             new=s.new)
        for s in d.standings]) for d in table.divisions]


async def on_page(store: LeagueStore, scope: Scope, game: str,
                  names: Callable[[Sequence[str]], Awaitable[Mapping[str, str]]]
                  ) -> dict[str, Any] | None:
    """A league's month in play for the leaderboard page (its title, rules line and each
    division's lines), or None: no league of that game there. Reads only."""
    found = await standing(store, scope, game)
    if found is None:
        return None
    league, closing = found
    table = closing.table
    known = await names([s.player for d in table.divisions for s in d.standings])
    return {"month": str(table.month), "settings": league.settings,
            "divisions": divisions(table, known.get)}
