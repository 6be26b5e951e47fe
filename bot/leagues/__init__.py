"""Monthly leagues: a server (or the whole bot, ``BOT_WIDE``) runs one per game, in
divisions of a set size, with promotion and relegation at each month's end (UTC).

- ``months``: a league's seasons, calendar months in UTC, and the month a stored time is in;
- ``model``: its settings, its ladder as a month begins, a month's table per division;
- ``points``: which hands count in a month, and each player's hand points;
- ``ladder``: a month's table and the ladder the next month begins with, a league replayed
  from its stored results, a first ladder from ratings;
- ``store``: ``LeagueStore``, what a league keeps; ``sql``: it for both databases, and its
  schema;
- ``keeping``: leagues in the store: started, their months closed once, shown as they stand.

Everything but ``sql`` and ``keeping`` is pure (no I/O, no clock: the time is passed in).
How a month works, for players and organisers: ``docs/leagues.md``.
"""

from bot.leagues.ladder import Closing, close, month_closing, replay, seeding
from bot.leagues.model import (
    BOT_WIDE,
    Division,
    Ladder,
    LeagueRow,
    LeagueSettings,
    LeagueTable,
    Move,
    Scope,
    Standing,
)
from bot.leagues.months import Month, months_ended
from bot.leagues.points import MonthTally, Tally, hand_points, tally_month
from bot.leagues.store import LeagueStore

__all__ = ["BOT_WIDE", "Closing", "Division", "Ladder", "LeagueRow", "LeagueSettings",
           "LeagueStore", "LeagueTable", "Month", "MonthTally", "Move", "Scope", "Standing",
           "Tally", "close", "hand_points", "month_closing", "months_ended", "replay",
           "seeding", "tally_month"]
