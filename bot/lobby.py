"""A table's seats and who may change them: the lobby, and the seat changes between hands.

``Lobby`` is the part of a table (``bot.session.TableSession`` is the rest) that knows who sits
where, what the table was opened with, and who may join, leave, seat or remove a computer or
change an option; with the table's identity, settings and runtime state (kept in the store,
so that a restart or another process carries on). Every change happens under the table's lock
and is written to the store before memory changes.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from typing import Any, Final, Literal

from bot import boards, holds, thinking
from bot.options import describe as describe_options
from bot.seats import Seating, computer, is_computer, user_member
from bot.store import (
    EVERYWHERE,
    Member,
    PartnershipStatus,
    Store,
    TableRow,
)
from bot.texts import t
from bot.watch import WATCH, WatchError, check_watch
from engine import (
    Hand,
    RecordError,
    Status,
    make_rules,
)
from engine.cards import Card
from engine.errors import OptionsError

#: The levels the lobby offers (``bot.thinking``, where they are played). ``simple`` (the
#: engine's SimplePlayer) still plays the computer seats of tables opened before the levels.
COMPUTER_LEVELS = thinking.COMPUTER_LEVELS
LEGACY_LEVELS = ("simple",)
#: Who plays for a person whose turn timed out (or who is in autoplay).
TIMEOUT_LEVEL = "normal"
#: A seat that times out this many times in a row is played by the computer until its player
#: presses "My hand" again.
TIMEOUTS_BEFORE_AUTOPLAY = 3
DEFAULT_TURN_SECONDS = 90
#: How long an open window (the fris window) stays open before it closes by itself.
DEFAULT_WINDOW_SECONDS = 20
#: The table settings a table may be opened with, and the range each may take (the slash
#: command declares the same ranges, but a value is checked here whoever sent it).
SETTING_RANGES: dict[str, tuple[int, int]] = {
    "turn_seconds": (20, 900),
    "window_seconds": (5, 120),
}
#: Table settings that are on or off.
SETTING_SWITCHES = frozenset({"pings", "hints", "rated", "thread", "confirm",
                              # a table of players of several servers (bot.crossplay)
                              "crossplay"})


class SessionError(Exception):
    """A request the table refuses. ``key`` names the message in ``bot.texts``."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Actor:
    """Who asks for a change: a user, and whether they manage the server."""

    user_id: int
    manager: bool = False
    #: The id of the click that asked (Discord's interaction id): a deal's cut
    #: (``bot.seals``).
    click: str | None = None


def check_settings(settings: dict[str, Any]) -> dict[str, int | bool | str]:
    """The table settings: numbers within their ranges, switches, who may watch on the web;
    or ``err.bad_setting`` / ``err.bad_command_input``."""
    out: dict[str, int | bool | str] = {}
    for name, value in settings.items():
        if name == WATCH:
            try:
                out[name] = check_watch(value)
            except WatchError:
                raise SessionError("err.bad_command_input") from None
            continue
        if name in SETTING_SWITCHES:
            if not isinstance(value, bool):
                raise SessionError("err.bad_command_input")
            out[name] = value
            continue
        low, high = SETTING_RANGES[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise SessionError("err.bad_setting", option=t(f"optname.{name}"), low=low,
                               high=high)
        out[name] = value
    return out


#: Shuffles and first dealers of every table not seeded (the tests' and the demo's are): the
#: operating system's randomness, which keeps no state (a ``random.Random`` per table kept
#: 2.5 kB of it for every open table).
DEALER: Final = random.SystemRandom()


class Lobby:
    """A table's identity, settings and seats, and the lobby's policy (module docstring)."""

    def __init__(self, row: TableRow, store: Store, *, seed: int | None = None) -> None:
        self.row = row
        self.store = store
        self.rules = make_rules(row.game, row.options)
        self.seats: list[Member | None] = list(row.seats)
        self.state = row.state
        self.message_id = row.message_id
        self.lock = asyncio.Lock()
        self.rng = random.Random(seed) if seed is not None else DEALER
        #: A pack laid out card by card (the tests' chosen deals), dealt as it lies and so
        #: not sealed: its record carries no shuffle. None: every deal is sealed.
        self.laid: list[Card] | None = None
        self.hand: Hand | None = None
        self.hand_id: int | None = None
        self.hand_number = 0
        #: Status and dealer for the next hand (from the store, then from each result).
        self.status: Status = Status()
        self.next_dealer: int | None = None
        #: The partnership status as stored when the teams last formed (for the lobby text).
        self.known: PartnershipStatus | None = None
        self.timeouts = [0] * self.rules.players
        self.autoplay: set[int] = set()
        #: Seats whose player left during the hand: a computer's from the next hand.
        self.leaving: set[int] = set()
        #: Who sat where when the hand in play was dealt (a change between hands makes new
        #: partnerships, whose own status is looked up before the next deal).
        self.dealt_with: list[Member | None] = list(row.seats)
        #: Display names seen at join time, for button labels (which cannot show mentions);
        #: kept with the table's settings so that they survive a restart.
        self.names: dict[Member, str] = dict(row.runtime.get("names", {}))

    # -- identity ----------------------------------------------------------------------------

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def guild_id(self) -> int:
        return self.row.guild_id

    @property
    def ledger_id(self) -> int:
        """Whose books the table's hands go in (partnerships, standings, ratings): its
        server's, or the ladder of play across servers (``EVERYWHERE``) at a table of
        several servers, so that no server's own ratings take in strangers' hands."""
        return EVERYWHERE if self.row.settings.get("crossplay") else self.row.guild_id

    @property
    def channel_id(self) -> int:
        return self.row.channel_id

    @property
    def game(self) -> str:
        return self.row.game

    @property
    def turn_seconds(self) -> int:
        return int(self.row.settings.get("turn_seconds", DEFAULT_TURN_SECONDS))

    def seat_of(self, user_id: int) -> int | None:
        return self.seating.seat_of(user_member(user_id))

    @property
    def fixed_teams(self) -> bool:
        """Seats in fixed partnerships (Filicău, Filkó) rather than teams formed per deal."""
        return self.rules.fixed_teams

    @property
    def seating(self) -> Seating:
        """The seats as the store keeps status for them (``bot.seats``)."""
        return Seating(tuple(self.seats), self.fixed_teams, self.rules.score_by_seat)

    def team_members(self) -> tuple[list[Member], list[Member]]:
        return self.seating.team_members()

    @property
    def full(self) -> bool:
        return all(m is not None for m in self.seats)

    def people_present(self) -> list[int]:
        """Seats of people still at the table: those who left during the hand are not
        (the computer plays their seat), those whose turns timed out still are."""
        return [seat for seat, m in enumerate(self.seats)
                if m is not None and not is_computer(m) and seat not in self.leaving]

    def people_playing(self) -> list[int]:
        """Seats whose person plays them now (not left, not played by the computer after
        their turns timed out)."""
        return [seat for seat in self.people_present() if seat not in self.autoplay]

    @property
    def plan(self) -> boards.Plan | None:
        """The tournament's plan for this table (``bot.boards``), or None."""
        return boards.plan_of(self.row.settings)

    def may_manage(self, user_id: int, *, is_admin: bool) -> bool:
        """The opener and the server's managers run the lobby: start, cancel, options and
        computers."""
        return is_admin or user_id == self.row.opener_id

    def _require_manager(self, by: Actor | None) -> None:
        """``by`` None: the bot itself (restoring a table, tests)."""
        if by is not None and not self.may_manage(by.user_id, is_admin=by.manager):
            raise SessionError("err.not_manager")

    # -- lobby -------------------------------------------------------------------------------

    def _require_lobby(self) -> None:
        if self.state != "lobby":
            raise SessionError("err.not_in_lobby")

    @property
    def between_hands(self) -> bool:
        """Playing, and no hand in play: seats may change (a player leaves, another sits
        down, a person takes a computer's seat)."""
        return self.state == "playing" and (self.hand is None or self.hand.finished)

    def takeable(self, seat: int) -> bool:
        """Whether a person may take ``seat`` now although it is not empty: between hands,
        a computer's seat, or one its player left mid-hand (the computer's from the next
        deal)."""
        return self.between_hands and (is_computer(self.seats[seat]) or seat in self.leaving)

    def _require_seats_open(self) -> None:
        """Seats change in the lobby and between hands."""
        if self.state == "lobby" or self.between_hands:
            return
        if self.state == "playing":
            raise SessionError("err.hand_in_progress")
        raise SessionError("err.not_in_lobby")

    async def join(self, user_id: int, team: int | None, name: str | None = None) -> int:
        """Seat ``user_id`` in ``team`` (0 = A, 1 = B) at a fixed-teams table, or in the
        first free seat (``team`` None) at a table whose teams form in each deal; returns the
        seat."""
        if team is not None and team not in (0, 1):
            raise SessionError("err.bad_button")  # only a forged button names another team
        if self.fixed_teams and team is None:
            raise SessionError("err.no_such_team")
        if not self.fixed_teams:
            team = None
        async with self.lock:
            self._require_seats_open()
            if self.plan is not None:
                raise SessionError("err.tournament_seats")
            member = user_member(user_id)
            current = self.seat_of(user_id)
            if current is not None and team is None:
                # No teams to change between (Schafkopf's form in each deal).
                raise SessionError("err.already_at_table", seat=current)
            if current is not None and current % 2 == team:
                raise SessionError("err.already_seated", seat=current)
            n = self.rules.players
            seats = range(n) if team is None else range(team, n, 2)
            free = [s for s in seats if self.seats[s] is None]
            if self.between_hands:
                # A person may take a computer's seat between hands (free seats first), and
                # the seat of a player who left mid-hand: the computer's from the next deal.
                free += [s for s in seats if self.takeable(s)]
            # Seats held for invited players (bot.holds) are not free for anybody else.
            now, held = time.time(), None
            open_seats = sum(1 for s in range(n) if self.seats[s] is None or self.takeable(s))
            if free and not holds.free_for(member, free=open_seats, seated=self.seats,
                                           runtime=self.row.runtime, now=now):
                held, free = holds.until_of(member, self.seats, self.row.runtime, now), []
            if not free:
                if held is not None:
                    raise SessionError("err.seat_held", until=f"<t:{int(held)}:t>")
                if team is None:
                    raise SessionError("err.table_full")
                raise SessionError("err.team_full", team="AB"[team])
            if current is not None:
                self.seats[current] = None
            if free[0] in self.leaving:
                self.autoplay.discard(free[0])
                await self._set_leaving(self.leaving - {free[0]})
            self.seats[free[0]] = member
            if name:
                self.names[member] = name
            await self._seats_changed()
            return free[0]

    async def leave(self, user_id: int) -> bool:
        """A player leaves their seat. In the lobby and between hands the seat is free at
        once. During a hand the computer plays the seat from now on, and it becomes a
        computer's seat when the hand is over (True): the hand's result still belongs to the
        players who started it."""
        async with self.lock:
            seat = self.seat_of(user_id)
            if seat is None:
                raise SessionError("err.not_seated")
            if self.state == "playing" and not self.between_hands:
                await self._set_leaving(self.leaving | {seat})
                self.autoplay.add(seat)
                return True
            if self.plan is not None:
                # The tournament seats its tables: a seat left empty would stop the round.
                raise SessionError("err.tournament_seats")
            self._require_seats_open()
            self.seats[seat] = None
            await self._seats_changed()
            return False

    async def add_computer(self, team: int | None = None, level: str = "simple", *,
                           by: Actor | None = None) -> int:
        """Seat a computer of ``level`` (the lobby buttons always name one of
        ``COMPUTER_LEVELS``; the ``simple`` default is the pre-levels behaviour)."""
        async with self.lock:
            self._require_seats_open()
            self._require_manager(by)
            if level not in COMPUTER_LEVELS + LEGACY_LEVELS:
                raise SessionError("err.bad_level", level=level)
            n = self.rules.players
            if team is None or not self.fixed_teams:
                free = [s for s in range(n) if self.seats[s] is None]
            else:
                free = [s for s in range(team, n, 2) if self.seats[s] is None]
            if not free:
                raise SessionError("err.table_full")
            seat = min(free)
            self.seats[seat] = computer(level)
            await self._seats_changed()
            return seat

    async def remove_computer(self, *, by: Actor | None = None) -> int:
        async with self.lock:
            self._require_lobby()
            self._require_manager(by)
            seats = [s for s, m in enumerate(self.seats) if is_computer(m)]
            if not seats:
                raise SessionError("err.no_computer")
            self.seats[seats[-1]] = None
            await self._seats_changed()
            return seats[-1]

    async def set_option(self, user_id: int, name: str, value: Any, *, is_admin: bool) -> None:
        """Change one game option in the lobby (the opener or a server manager)."""
        async with self.lock:
            self._require_lobby()
            if not self.may_manage(user_id, is_admin=is_admin):
                raise SessionError("err.not_manager")
            options = {**self.row.options, name: value}
            try:
                rules = make_rules(self.game, options)
            except OptionsError as e:
                raise SessionError("err.bad_options", problem=describe_options(e)) from None
            await self.store.update_table(self.id, options=options)
            self.row = self.row.model_copy(update={"options": options})
            self.rules = rules

    async def _set_leaving(self, seats: set[int]) -> None:
        """The seats handed to the computer until the hand ends (kept in the table's runtime
        state, so that a restart keeps playing them)."""
        await self._put_runtime(leaving=sorted(seats) or None)
        self.leaving = set(seats)

    async def keep(self, **values: Any) -> None:
        """Keep values in the table's runtime state (its thread, the turn's signal), under
        the table's lock: a change of seats meanwhile writes that state too. None removes."""
        async with self.lock:
            await self._put_runtime(**values)

    async def _put_runtime(self, *, seats: list[Member | None] | None = None,
                           **values: Any) -> None:
        runtime = {**self.row.runtime, **values}
        runtime = {k: v for k, v in runtime.items() if v is not None}
        await self.store.update_table(self.id, seats=seats, runtime=runtime)
        update: dict[str, Any] = {"runtime": runtime}
        if seats is not None:
            update["seats"] = seats
        self.row = self.row.model_copy(update=update)

    async def _seats_changed(self) -> None:
        seated = {m: n for m, n in self.names.items() if m in self.seats}
        await self._put_runtime(seats=list(self.seats), names=seated)
        self.known = None
        if self.full:
            team0, team1 = self.team_members()
            self.known = await self.store.get_status(self.ledger_id, self.game, team0, team1)

    # -- status between the engine and the store ---------------------------------------------

    def stored_status(self, st: PartnershipStatus | None) -> tuple[Status, int | None]:
        """The stored status of these players as seats at this table, and the dealer. A
        status that no longer fits (somebody missing, another game's shape) starts even."""
        try:
            status, dealer = self.seating.from_stored(st)
            self.rules.check_status(status)
        except (RecordError, KeyError, TypeError, ValueError, IndexError):
            return Status(), None
        return status, dealer

    def _to_store(self, status: Status, next_dealer: int, since: str | None) -> PartnershipStatus:
        return self.seating.to_stored(status, next_dealer, since, guild_id=self.ledger_id,
                                      game=self.game)

    def team_letter(self, team: int | None) -> Literal["a", "b"] | None:
        """"a"/"b" of the canonical partnership order for a team at this table."""
        return self.seating.team_letter(team)

    async def cancel(self, by: Actor) -> None:
        """Close an unstarted table (its opener or a manager)."""
        async with self.lock:
            self._require_manager(by)
            self._require_lobby()
            self.state = "closed"
            await self.store.update_table(self.id, state="closed")

    def require_seat(self, user_id: int) -> int:
        seat = self.seat_of(user_id)
        if seat is None:
            raise SessionError("err.not_seated")
        return seat

    @property
    def pings(self) -> bool:
        """Whether a person whose turn it is gets a ping (a table setting, on by default)."""
        return bool(self.row.settings.get("pings", True))

    @property
    def rated(self) -> bool:
        """Whether the table's hands move the players' ratings (a table setting, on by
        default; a casual table's do not)."""
        return bool(self.row.settings.get("rated", True))

    @property
    def hints(self) -> bool:
        """Whether a player may ask "What would you play?": a table setting, on by default,
        and always off at a rated table."""
        return bool(self.row.settings.get("hints", True)) and not self.rated

    @property
    def mentions(self) -> bool:
        """Whether the table names its people by mention: not at a table of several
        servers, where a mention of a person of another server would name nobody."""
        return not self.row.settings.get("crossplay")

    @property
    def thread_id(self) -> int | None:
        """The table's own thread (opened with ``thread: True``), where it posts."""
        value = self.row.runtime.get("thread_id")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def window_seconds(self) -> int:
        return int(self.row.settings.get("window_seconds", DEFAULT_WINDOW_SECONDS))

    # -- ending ------------------------------------------------------------------------------------

    async def close(self) -> None:
        async with self.lock:
            self.state = "closed"
            await self.store.update_table(self.id, state="closed")
