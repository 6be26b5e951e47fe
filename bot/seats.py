"""Who sits where, and how a table's status is kept for people rather than seats.

Pure: no Discord, no store I/O. A seat holds a *member*: a person's user id as a string, or a
computer, ``cpu:LEVEL``. Status is stored per party (the two partnerships at fixed-teams
tables, the group of players otherwise) with every seat reference written as the member who
sits there, so that the same people find their status again in any seats. Computers of one
level share one id, so a stored computer carries its team letter at fixed-teams tables and,
after the first, its rank among the computers of that level (``cpu:normal@a#1``).

>>> seating = Seating(("1", "cpu:normal", "2", "cpu:normal"), fixed_teams=True)
>>> seating.member_at(1), seating.member_at(3)
('cpu:normal@b', 'cpu:normal@b#1')
>>> parse_member("cpu:hard@a#1")
StoredMember(level='hard', team='a', rank=1, user=None)
>>> player_of("cpu:hard@b#1"), player_of("1234")
('cpu:hard', '1234')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bot.store.model import Member, PartnershipStatus, canonical, now
from engine import HandResult, Status
from engine.errors import RecordError
from engine.status import FIELD_KINDS, Kind

COMPUTER_PREFIX = "cpu:"
#: Separates a computer member from its team letter in a stored status.
TEAM_MARK = "@"
#: Separates a computer member from its rank among the table's computers of its level.
RANK_MARK = "#"
_STORED_COMPUTER = re.compile(r"cpu:(?P<level>[^@#]*)(?:@(?P<team>[ab]))?(?:#(?P<rank>[0-9]+))?")


def computer(level: str = "simple") -> Member:
    return COMPUTER_PREFIX + level


def is_computer(member: Member | None) -> bool:
    return member is not None and member.startswith(COMPUTER_PREFIX)


def user_member(user_id: int) -> Member:
    return str(user_id)


@dataclass(frozen=True)
class StoredMember:
    """A member as a stored status or result names it: a computer's level, team letter and
    rank, or a person's user id."""

    level: str | None
    team: str | None
    rank: int
    user: str | None


def parse_member(member: Member) -> StoredMember:
    m = _STORED_COMPUTER.fullmatch(member)
    if m is None:
        return StoredMember(None, None, 0, member)
    return StoredMember(m["level"], m["team"], int(m["rank"] or 0), None)


def computer_level(member: Member | None) -> str | None:
    """The level of a computer member (None for a person), also as stored in a status."""
    if member is None or not is_computer(member):
        return None
    return parse_member(member).level


def player_of(member: Member) -> str:
    """The rated player behind a stored member: the member for a person, ``cpu:LEVEL`` for
    a computer (every computer of a level is one player)."""
    level = parse_member(member).level
    return member if level is None else computer(level)


@dataclass(frozen=True)
class Seating:
    """The seats of a table (members or None), seen the way its status is stored."""

    seats: tuple[Member | None, ...]
    fixed_teams: bool
    score_by_seat: bool = False

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def full(self) -> bool:
        return all(m is not None for m in self.seats)

    def seat_of(self, member: Member) -> int | None:
        return self.seats.index(member) if member in self.seats else None

    def team_members(self) -> tuple[list[Member], list[Member]]:
        """The two partnerships at a fixed-teams table; at any other table, the whole group
        of players and an empty second list (status then belongs to the group)."""
        if not self.fixed_teams:
            return [m for m in self.seats if m is not None], []
        n = self.players
        return ([m for s in range(0, n, 2) if (m := self.seats[s]) is not None],
                [m for s in range(1, n, 2) if (m := self.seats[s]) is not None])

    @property
    def swapped(self) -> bool:
        """Whether team 0 is stored second (the parties are stored in canonical order)."""
        return canonical(*self.team_members())[2]

    def team_letter(self, team: int | None) -> Literal["a", "b"] | None:
        """"a"/"b" of the canonical partnership order for a team at this table."""
        if team is None:
            return None
        return "a" if (team == 0) != self.swapped else "b"

    def member_at(self, seat: int) -> Member:
        """The member at ``seat`` as stored in a status (see the module docstring)."""
        member = self.seats[seat]
        assert member is not None
        if not is_computer(member):
            return member
        before = range(seat % 2, seat, 2) if self.fixed_teams else range(seat)
        rank = sum(1 for s in before if self.seats[s] == member)
        if self.fixed_teams:
            member = f"{member}{TEAM_MARK}{self.team_letter(seat % 2)}"
        return member if rank == 0 else f"{member}{RANK_MARK}{rank}"

    def members(self) -> list[Member]:
        return [self.member_at(s) for s in range(self.players)]

    def seat_of_member(self, member: Member | None) -> int | None:
        """The seat of a member as stored in a status (see ``member_at``)."""
        if member is None:
            return None
        for seat in range(self.players):
            if self.seats[seat] is not None and self.member_at(seat) == member:
                return seat
        return None

    # -- status ------------------------------------------------------------------------------

    def to_stored(self, status: Status, next_dealer: int, since: str | None, *,
                  guild_id: int, game: str) -> PartnershipStatus:
        """``status`` as stored for these players: every seat reference as a member."""
        team0, team1 = self.team_members()
        a, b, swapped = canonical(team0, team1)
        masters = None
        extra: dict[str, Any] = {}
        for name, kind in FIELD_KINDS.items():
            value = getattr(status, name)
            if value is None or name == "servant":
                continue
            if kind is Kind.TEAM and self.fixed_teams:
                masters = "a" if (value == 0) != swapped else "b"
            elif kind is Kind.SEAT:
                extra[name] = self.member_at(value)
            elif kind is Kind.PER_SEAT or (kind is Kind.SCORE and self.score_by_seat):
                extra[name] = {self.member_at(s): value[s] for s in range(self.players)}
            elif kind is Kind.SCORE:
                extra[name] = list(value[::-1] if swapped else value)
            else:
                extra[name] = value
        return PartnershipStatus(
            guild_id=guild_id, game=game, team_a=a, team_b=b, masters=masters,
            servant=None if status.servant is None else self.member_at(status.servant),
            next_dealer=self.member_at(next_dealer), since=since, updated_at=now(),
            extra=extra)

    def from_stored(self, st: PartnershipStatus | None) -> tuple[Status, int | None]:
        """The stored status of these players as seats at this table, and the dealer.
        Raises ``RecordError`` (or a ``ValueError``/``KeyError`` of a malformed row) when it
        does not fit these seats."""
        if st is None or (st.masters is None and st.next_dealer is None and not st.extra):
            return Status(), None
        values: dict[str, Any] = {}
        extra = dict(st.extra)
        for name, kind in FIELD_KINDS.items():
            raw: Any = st.servant if name == "servant" else extra.pop(name, None)
            if kind is Kind.TEAM and self.fixed_teams and st.masters is not None:
                raw = (0 if st.masters == "a" else 1) ^ int(self.swapped)
            if raw is None:
                continue
            if kind is Kind.SEAT:
                seat = self.seat_of_member(raw)
                if seat is None:
                    raise RecordError(f"the {name} is not at this table")
                values[name] = seat
            elif kind is Kind.PER_SEAT or (kind is Kind.SCORE and self.score_by_seat):
                values[name] = tuple(int(raw[self.member_at(s)]) for s in range(self.players))
            elif kind is Kind.SCORE:
                a, b = int(raw[0]), int(raw[1])
                values[name] = (b, a) if self.swapped else (a, b)
            else:
                values[name] = raw
        if extra:
            raise RecordError(f"unknown status fields {sorted(extra)}")
        return Status(**values), self.seat_of_member(st.next_dealer)

    def masters_members(self, status: Status, seat_teams: Sequence[int]) -> list[Member]:
        if status.masters is None:
            return []
        teams = status.teams or seat_teams
        return [self.member_at(s) for s in range(self.players) if teams[s] == status.masters]

    def match_winners(self, result: HandResult, seat_teams: Sequence[int]) -> list[Member]:
        winners = result.extra.get("match_winner") or []
        if self.score_by_seat:
            seats = [s for s in winners if 0 <= s < self.players]
        else:
            teams = result.status_before.teams or seat_teams
            seats = [s for s in range(self.players) if teams[s] in winners]
        return [self.member_at(s) for s in seats]
