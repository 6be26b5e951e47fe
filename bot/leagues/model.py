"""What a league is and what it shows: its settings, its ladder as a month begins, a month's
table per division, and the league as the store keeps it.

>>> settings = LeagueSettings(division_size=4, movers=1)
>>> ladder = Ladder(month=Month(2026, 1), players=("1", "2", "3", "4", "5"))
>>> ladder.divisions(settings.division_size)
[('1', '2', '3', '4'), ('5',)]
>>> ladder.division_of("5", settings.division_size)
2
>>> Ladder.model_validate_json(ladder.model_dump_json()) == ladder
True
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    model_validator,
)

from bot.leagues.months import Month

#: Whose league it is: a server's id, or ``BOT_WIDE`` (every server's hands, for play across
#: servers). Discord's ids are never 0.
Scope = int
BOT_WIDE: Scope = 0


def _month(value: Any) -> Any:
    return Month.parse(value) if isinstance(value, str) else value


#: A month in a model, kept as its ``YYYY-MM`` text in JSON.
MonthField = Annotated[Month, BeforeValidator(_month), PlainSerializer(str, return_type=str)]


class LeagueSettings(BaseModel):
    """What the organiser sets. A month closes under the settings in force when it ends.

    >>> LeagueSettings(division_size=4, movers=3)
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for LeagueSettings
      Value error, 3 up and 3 down do not fit a division of 4 ...
    """

    model_config = ConfigDict(frozen=True)

    #: Players in a division; the lowest holds the rest.
    division_size: int = Field(10, ge=2, le=1000)
    #: Hands in the month a player needs to count in its table (to go up, or to stay up).
    min_hands: int = Field(10, ge=1, le=100_000)
    #: At the month's end, at most this many go up from each division and as many come down.
    movers: int = Field(2, ge=1)
    #: A player leaves the league after this many months in a row without a counted hand
    #: (0: never).
    drop_after: int = Field(3, ge=0, le=120)
    #: Whether a hand with a computer at the table counts (else only hands among people do).
    with_computers: bool = False

    @model_validator(mode="after")
    def _movers_fit(self) -> LeagueSettings:
        if 2 * self.movers > self.division_size:
            raise ValueError(f"{self.movers} up and {self.movers} down do not fit a division "
                             f"of {self.division_size}")
        return self


class Ladder(BaseModel):
    """Every player of a league, best first, as ``month`` begins: division 1 is the first
    ``division_size`` of them, division 2 the next, and so on; the lowest division holds the
    rest. ``idle`` counts each player's months in a row without a counted hand (absent: 0)."""

    model_config = ConfigDict(frozen=True)

    month: MonthField
    players: tuple[str, ...] = ()
    idle: dict[str, int] = {}

    @model_validator(mode="after")
    def _each_once(self) -> Ladder:
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player stands twice in the ladder")
        return self

    def divisions(self, size: int) -> list[tuple[str, ...]]:
        return chunks(self.players, size)

    def division_of(self, player: str, size: int) -> int | None:
        """The division (1 the top) ``player`` begins the month in, or None."""
        try:
            return self.players.index(player) // size + 1
        except ValueError:
            return None


def chunks(players: Sequence[str], size: int) -> list[tuple[str, ...]]:
    """``players`` cut into divisions of ``size``, the last holding the rest."""
    return [tuple(players[i:i + size]) for i in range(0, len(players), size)]


#: Where a player goes at the month's end: a division up or down, the same division, or out
#: of the league (months without a hand). In a month still in play: where they would go if
#: it ended now.
Move = Literal["up", "down", "stay", "out"]


class Standing(BaseModel):
    """One player's line in their division's table."""

    model_config = ConfigDict(frozen=True)

    player: str
    #: 1 the top of the division.
    place: int
    #: Counted hands in the month.
    hands: int
    #: Hand points in the month (``bot.leagues.points``).
    points: Fraction
    #: Whether they played the month's minimum of hands.
    counted: bool
    #: Whether they joined the league this month (in the lowest division).
    new: bool
    move: Move

    @property
    def share(self) -> Fraction:
        """Points per hand, 0 to 1: what the table ranks by."""
        return self.points / self.hands if self.hands else Fraction(0)


class Division(BaseModel):
    model_config = ConfigDict(frozen=True)

    #: 1 the top.
    number: int
    standings: tuple[Standing, ...]


class LeagueTable(BaseModel):
    """A month's table of every division: as it stands while the month is in play, or as
    it ended (then kept as it was)."""

    model_config = ConfigDict(frozen=True)

    month: MonthField
    settings: LeagueSettings
    divisions: tuple[Division, ...] = ()

    def standing(self, player: str) -> tuple[int, Standing] | None:
        """A player's division and line, or None."""
        for division in self.divisions:
            for line in division.standings:
                if line.player == player:
                    return division.number, line
        return None


class LeagueRow(BaseModel):
    """A league as the store keeps it: whose, which game, its settings, the month it began
    with and the players it was seeded with, and its ladder as the month in play began."""

    model_config = ConfigDict(frozen=True)

    scope: Scope
    game: str
    settings: LeagueSettings
    first_month: MonthField
    #: The first month's ladder, best first (e.g. by rating, ``bot.leagues.seeding``).
    seeds: tuple[str, ...] = ()
    ladder: Ladder
    created_at: str = ""
