"""A table as the voice needs it beside a view: the game with its options, the hand's number,
who sits where (now, and when the hand on the table was dealt), the names the table knows,
and the settings that change what is said.

Made from the table's ``TableSession`` (the Discord side: ``Table.of``) or from its stored
rows (the pages, in any process: ``Table.from_rows``); both name a person alike.

>>> from engine import make_rules
>>> table = Table("filicau", make_rules("filicau"), 1, ("42", "cpu:easy@b#1", None, "7"),
...               names={"42": "Ana"})
>>> [table.person(seat).name for seat in range(4)]
['Ana', '🤖 Computer 2 (Easy)', '— empty —', 'Player …7']
>>> table.person(0).member, table.person(1).member, table.person(3).short
('42', None, '#3')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.seats import computer_level, is_computer
from bot.store import HandRow, Member, TableRow
from bot.texts import current_language, game_title, t
from bot.thinking import COMPUTER_LEVELS
from bot.voice.text import Person
from engine import Rules, make_rules


class Seated(Protocol):
    """What ``Table.of`` reads of a table in play (``bot.session.TableSession``)."""

    @property
    def game(self) -> str: ...
    @property
    def hints(self) -> bool: ...
    rules: Rules
    hand_number: int
    seats: list[Member | None]
    dealt_with: list[Member | None]
    names: dict[Member, str]
    leaving: set[int]


@dataclass(frozen=True)
class Table:
    game: str
    rules: Rules
    #: The number of the hand on the table (0: none dealt yet).
    number: int
    #: Who sits where now.
    seats: tuple[Member | None, ...]
    #: Who sat where when the hand on the table was dealt (``seats`` if the same).
    dealt: tuple[Member | None, ...] = ()
    #: Display names the table knows, by member.
    names: Mapping[Member, str] = field(default_factory=dict)
    #: Whether a player may ask for a hint (a casual table's setting).
    hints: bool = False
    #: Seats whose player left during the hand.
    leaving: frozenset[int] = frozenset()
    #: Each person as named in each language, made once (the pages name them on every move).
    _named_: dict[tuple[Member | None, int, str], Person] = field(
        default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, s: Seated) -> Table:
        return cls(s.game, s.rules, s.hand_number, tuple(s.seats), tuple(s.dealt_with),
                   s.names, s.hints, frozenset(s.leaving))

    @classmethod
    def from_rows(cls, row: TableRow, hand: HandRow | None = None) -> Table:
        """The table as its rows say: the seats of ``hand`` as dealt (its header names its
        members), else the table's seats now."""
        members = hand.header.get("members") if hand is not None else None
        seats = tuple(members) if isinstance(members, list) else tuple(row.seats)
        names = row.runtime.get("names", {})
        settings = row.settings
        hints = bool(settings.get("hints", True)) and not bool(settings.get("rated", True))
        return cls(row.game, make_rules(row.game, row.options),
                   hand.number if hand is not None else 0, seats, seats,
                   names if isinstance(names, dict) else {}, hints)

    @property
    def fixed_teams(self) -> bool:
        return self.rules.fixed_teams

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def title(self) -> str:
        """The game, named in the current language."""
        return game_title(self.game, self.rules.title)

    def person(self, seat: int) -> Person:
        """Who sits at ``seat`` now."""
        return self._named(self.seats[seat] if 0 <= seat < len(self.seats) else None, seat)

    def player(self, seat: int) -> Person:
        """Who played ``seat`` in the hand on the table: tricks and results keep naming
        them after a change of seats between hands."""
        members = self.dealt if len(self.dealt) == len(self.seats) else self.seats
        return self._named(members[seat] if 0 <= seat < len(members) else None, seat)

    def _named(self, member: Member | None, seat: int) -> Person:
        key = (member, seat, current_language())
        found = self._named_.get(key)
        if found is None:
            found = self._named_[key] = person(member, seat, self.names)
        return found

    def people(self, seats: Sequence[int]) -> list[Person]:
        return [self.person(seat) for seat in seats]


def person(member: Member | None, seat: int | None, names: Mapping[Member, str]) -> Person:
    """A member as a table names them: a person by the name the table knows (or their
    number's last digits); a computer by its seat (several at one table are told apart)
    and level; an empty seat as empty."""
    if member is None:
        return Person(t("lobby.empty"), seat=seat)
    if is_computer(member):
        level = computer_level(member)
        name = t("lobby.computer") if seat is None else t("lobby.computer_seat", seat=seat + 1)
        full = t("lobby.computer_named", name=name, level=t(f"level.{level}")) \
            if level in COMPUTER_LEVELS else name
        return Person(full, seat=seat, short=name)
    known = names.get(member)
    return Person(known or t("web.player", number=member[-4:]), member=member, seat=seat,
                  short=known or f"#{seat}")
