"""A table as an object: seats, the match, the hand in play, and the rules for who may do what.

``TableSession`` knows nothing of Discord: the cog turns clicks into calls here and renders
what comes back. Every change goes through ``self.lock`` (one click at a time per table) and
is written to the store before the in-memory state changes, so the store's log is always at
least as far as what anybody was shown.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any, Literal

from bot import ratings, results, thinking
from bot.options import describe as describe_options
from bot.seats import Seating, computer, computer_level, is_computer, user_member
from bot.store import (
    HandRow,
    Member,
    PartnershipStatus,
    Store,
    TableRow,
)
from bot.texts import t
from bot.watch import WATCH, WatchError, check_watch
from engine import (
    Action,
    Hand,
    HandResult,
    IllegalAction,
    RecordError,
    Status,
    action_to_json,
    make_rules,
    replay,
    to_record,
)
from engine.errors import OptionsError
from engine.view import seat_view

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
SETTING_SWITCHES = frozenset({"pings", "hints", "rated", "thread", "confirm"})


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


@dataclass
class Played:
    """One applied action, for the cog to render."""

    seat: int
    action: Action
    by_computer: bool


@dataclass
class Outcome:
    played: list[Played] = field(default_factory=list)
    #: Set when the hand ended with these actions.
    result: HandResult | None = None


def thinking_level(member: Member) -> str:
    """The level that decides for a seat: its computer's, or Normal for a person who timed
    out."""
    level = computer_level(member)
    if level is None:
        return TIMEOUT_LEVEL
    return level if level in COMPUTER_LEVELS else "simple"


class TableSession:
    def __init__(self, row: TableRow, store: Store, *, seed: int | None = None) -> None:
        self.row = row
        self.store = store
        self.rules = make_rules(row.game, row.options)
        self.seats: list[Member | None] = list(row.seats)
        self.state = row.state
        self.message_id = row.message_id
        self.lock = asyncio.Lock()
        self.rng = random.Random(seed)
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

    def abandoned(self) -> str | None:
        """Why the table must close now that nobody plays at it, or None. Computers never
        play a hand that no person sits at: when everybody has left, the hand stops at
        once; when the people left have all timed out, the computer finishes the hand for
        them (pressing My hand brings a player back), but no new hand is dealt."""
        if self.state != "playing":
            return None
        if not self.people_present():
            return "table.closed_left"
        if not self.people_playing() and (self.hand is None or self.hand.finished):
            return "table.closed_idle"
        return None

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
            member = user_member(user_id)
            current = self.seat_of(user_id)
            if current is not None and (team is None or current % 2 == team):
                raise SessionError("err.already_seated", seat=current)
            n = self.rules.players
            seats = range(n) if team is None else range(team, n, 2)
            free = [s for s in seats if self.seats[s] is None]
            if self.between_hands:
                # A person may take a computer's seat between hands (free seats first).
                free += [s for s in seats if is_computer(self.seats[s])]
            if not free:
                if team is None:
                    raise SessionError("err.table_full")
                raise SessionError("err.team_full", team="AB"[team])
            if current is not None:
                self.seats[current] = None
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
            self.known = await self.store.get_status(self.guild_id, self.game, team0, team1)

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
        return self.seating.to_stored(status, next_dealer, since, guild_id=self.guild_id,
                                      game=self.game)

    def team_letter(self, team: int | None) -> Literal["a", "b"] | None:
        """"a"/"b" of the canonical partnership order for a team at this table."""
        return self.seating.team_letter(team)

    # -- starting hands ------------------------------------------------------------------------

    async def start(self, user_id: int, *, is_admin: bool) -> Hand:
        async with self.lock:
            self._require_lobby()
            if not self.may_manage(user_id, is_admin=is_admin):
                raise SessionError("err.not_manager")
            if not self.full:
                raise SessionError("err.not_full")
            if not self.people_present():
                raise SessionError("err.no_person")
            # The first deal reads these players' stored status and storing its hand puts
            # the table in play: two round trips to the database while the click waits.
            self.dealt_with = []
            hand = await self._deal()
            self.state = "playing"
            return hand

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

    async def next_hand(self, by: Actor | None = None, number: int | None = None) -> Hand:
        """Deal the next hand: asked by a seated player or a manager for the hand that just
        ended (``number``), or by the bot itself."""
        if by is not None and not by.manager:
            self.require_seat(by.user_id)
        if number is not None and number != self.hand_number:
            raise SessionError("err.stale_hand")
        async with self.lock:
            if number is not None and number != self.hand_number:
                raise SessionError("err.stale_hand")
            if self.state != "playing":
                raise SessionError("err.no_hand")
            if self.hand is not None and not self.hand.finished:
                raise SessionError("err.hand_in_progress")
            return await self._deal()

    async def _deal(self) -> Hand:
        if not self.full:
            raise SessionError("err.not_full")
        if self.leaving:
            for seat in sorted(self.leaving):
                self.seats[seat] = computer(TIMEOUT_LEVEL)
                self.autoplay.discard(seat)
            await self._set_leaving(set())
            await self._seats_changed()
        if self.seats != self.dealt_with:
            # New partnerships (or a new group): their own stored status and dealer, or even.
            team0, team1 = self.team_members()
            self.known = await self.store.get_status(self.guild_id, self.game, team0, team1)
            self.status, self.next_dealer = self.stored_status(self.known)
            self.timeouts = [0] * self.rules.players
        self.dealt_with = list(self.seats)
        dealer = self.next_dealer
        if dealer is None:
            dealer = self.rules.first_dealer(self.status, self.rng)
        pack = list(self.rules.pack)
        self.rng.shuffle(pack)
        hand = Hand(self.rules, dealer, pack, self.status)
        header = to_record(hand)
        del header["actions"]
        header.update(table_id=self.id, hand=self.hand_number + 1, members=list(self.seats))
        self.hand_id = await self.store.start_hand(self.id, self.hand_number + 1, header)
        self.hand_number += 1
        self.hand = hand
        return hand

    # -- playing ---------------------------------------------------------------------------------

    @property
    def trick_number(self) -> int:
        """The trick in play, carried by card buttons so that stale ones are recognised."""
        return 0 if self.hand is None else len(self.hand.tricks)

    def _current(self, hand_number: int | None) -> Hand:
        if self.state != "playing" or self.hand is None:
            raise SessionError("err.no_hand")
        if hand_number is not None and hand_number != self.hand_number:
            raise SessionError("err.stale_hand")
        return self.hand

    async def act(
        self, user_id: int, action: Action, *, hand_number: int, trick: int | None = None,
        at: int | None = None,
    ) -> Outcome:
        """A seated player's action, checked by the engine against their seat. ``trick``
        (a button's stamp) or ``at`` (the Activity's: the actions its player had seen) must
        be the hand's now."""
        async with self.lock:
            hand = self._current(hand_number)
            seat = self.seat_of(user_id)
            if seat is None:
                raise SessionError("err.not_seated")
            if hand.finished:
                raise SessionError("err.hand_over")
            if trick is not None and trick != len(hand.tricks):
                raise SessionError("err.stale_trick")
            if at is not None and at != len(hand.actions):
                raise SessionError("err.stale_trick")
            if action not in hand.legal_actions(seat) and action not in hand.free_actions(seat):
                try:
                    hand.copy().apply(seat, action)
                except IllegalAction as e:
                    raise SessionError("illegal." + e.reason, **e.params) from None
                raise SessionError("err.not_allowed")  # pragma: no cover - engine disagrees
            self.timeouts[seat] = 0
            return await self._apply(seat, action, user_id=user_id, by_computer=False)

    async def computer_turn(self, *, timed_out: bool = False) -> Outcome | None:
        """If a computer (or a timed-out player) is to act, let it; None otherwise.

        The decision is made off the event loop (a search takes up to a second) from a
        ``SeatView`` snapshot taken under the lock; the action is then applied under the lock
        only if nothing moved in between (otherwise None: whoever moved drives on)."""
        async with self.lock:
            hand = self.hand
            if self.state != "playing" or hand is None or hand.finished:
                return None
            pick = None
            for seat in hand.actors():
                member = self.seats[seat]
                if not timed_out and self.rules.hold_back(hand, seat):
                    continue
                if is_computer(member) or seat in self.autoplay or timed_out:
                    assert member is not None
                    pick = (seat, member, seat_view(hand, seat))
                    break
            if pick is None:
                return None
            seen = (hand, len(hand.actions))
        seat, member, view = pick
        action = await thinking.decide(thinking_level(member), seat, view)
        # Shielded: a driver cancelled now (the table closing, the bot stopping) must not stop
        # between storing the action and applying it, or the log would run ahead of the hand.
        return await asyncio.shield(
            self._computer_apply(seat, member, action, seen, timed_out=timed_out))

    async def _computer_apply(self, seat: int, member: Member, action: Action,
                              seen: tuple[Hand, int], *, timed_out: bool) -> Outcome | None:
        async with self.lock:
            hand = self.hand
            if (self.state != "playing" or hand is None or hand is not seen[0]
                    or len(hand.actions) != seen[1] or action not in hand.legal_actions(seat)):
                return None
            if timed_out and not is_computer(member):
                self.timeouts[seat] += 1
                if self.timeouts[seat] >= TIMEOUTS_BEFORE_AUTOPLAY:
                    self.autoplay.add(seat)
            return await self._apply(seat, action, user_id=None, by_computer=True)

    def resume(self, user_id: int) -> None:
        """A player pressed "My hand": stop playing their seat for them."""
        seat = self.seat_of(user_id)
        if seat is not None:
            self.autoplay.discard(seat)
            self.timeouts[seat] = 0

    def computer_may_act(self) -> bool:
        """Whether a computer (or autoplay) seat may act now: it goes before any timer."""
        hand = self.hand
        if self.state != "playing" or hand is None or hand.finished:
            return False
        return any((is_computer(self.seats[s]) or s in self.autoplay)
                   and not self.rules.hold_back(hand, s) for s in hand.actors())

    def window_open(self) -> bool:
        """An open window (the fris window) that closes by itself when its time runs out."""
        hand = self.hand
        return (self.state == "playing" and hand is not None and not hand.finished
                and self.rules.window_timeout(hand) is not None)

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

    def hint_seat(self, user_id: int, hand_number: int, trick: int) -> int:
        """The seat whose position a hint is asked for: the asker's own, now, with a choice
        to make, at a table with hints on."""
        if not self.hints:
            raise SessionError("err.no_hints")
        hand = self._current(hand_number)
        seat = self.require_seat(user_id)
        if hand.finished:
            raise SessionError("err.hand_over")
        if trick != len(hand.tricks):
            raise SessionError("err.stale_trick")
        if not hand.legal_actions(seat):
            raise SessionError("illegal.not_your_turn")
        return seat

    async def finished_hand(self, user_id: int, number: int) -> tuple[HandRow, int]:
        """A hand of this table to review, and the asker's seat in it: only once it is over
        (its record shows every card), and only for a player who sat in it."""
        # Newest first: every hand of the table, to reach an early one of a long table.
        rows = [r for r in await self.store.hands(
            self.id, limit=max(number, self.hand_number) + 1) if r.number == number]
        if not rows:
            raise SessionError("err.no_record")
        row = rows[0]
        if row.result is None:
            raise SessionError("err.hand_in_progress")
        members = row.header.get("members") or []
        member = user_member(user_id)
        if member not in members:
            raise SessionError("err.not_seated")
        return row, members.index(member)

    @property
    def thread_id(self) -> int | None:
        """The table's own thread (opened with ``thread: True``), where it posts."""
        value = self.row.runtime.get("thread_id")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def window_seconds(self) -> int:
        return int(self.row.settings.get("window_seconds", DEFAULT_WINDOW_SECONDS))

    async def close_window(self, moved: int) -> Outcome | None:
        """The window's time ran out: apply the action that closes it (the dealer deals
        on), unless something moved since ``moved`` actions were played."""
        async with self.lock:
            hand = self.hand
            if (self.state != "playing" or hand is None or hand.finished
                    or len(hand.actions) != moved):
                return None
            closing = self.rules.window_timeout(hand)
            if closing is None or closing[1] not in hand.legal_actions(closing[0]):
                return None
            return await self._apply(closing[0], closing[1], user_id=None, by_computer=True)

    def waiting_for_human(self) -> list[int]:
        """Seats whose human player is to act now (the turn timer runs for them)."""
        hand = self.hand
        if self.state != "playing" or hand is None or hand.finished:
            return []
        return [s for s in hand.actors()
                if not is_computer(self.seats[s]) and s not in self.autoplay]

    async def _apply(
        self, seat: int, action: Action, *, user_id: int | None, by_computer: bool
    ) -> Outcome:
        hand = self.hand
        assert hand is not None and self.hand_id is not None
        # The log first: if the store fails, nothing changed and the click can be retried.
        await self.store.append_action(
            self.hand_id, len(hand.actions), {"seat": seat, **action_to_json(action)},
            user_id=user_id, by_computer=by_computer,
        )
        hand.apply(seat, action)
        outcome = Outcome(played=[Played(seat, action, by_computer)])
        if hand.result is not None:
            outcome.result = hand.result
            await self._finished(hand.result)
        return outcome

    async def _finished(self, result: HandResult) -> None:
        """Keep what a finished hand leaves: the players' status, the standings and ratings
        (``bot.results``), then the hand's result."""
        assert self.hand_id is not None and self.hand is not None
        stored = self._to_store(result.status, result.next_dealer,
                                results.masters_since(self.known, result))
        # Status and standings first, the hand's result last: restore() redoes all three
        # while a hand has no stored result, and the first two are safe to repeat.
        await self.store.put_status(stored)
        self.known = stored
        winners = results.hand_winner_seats(result, self.hand.team)
        row = results.result_row(result, hand_id=self.hand_id, stored=stored,
                                 seating=self.seating, seat_teams=self.rules.seat_teams,
                                 hand_winners=winners)
        # A seat handed to the computer mid-hand makes the hand a measure of nobody: it
        # counts for no one's rating (its result still counts in the standings). The seats
        # are kept with the hand's stored result, so that a rebuild leaves it out too.
        # ``finish`` gives the result its time (the order ratings take results in).
        await ratings.finish(self.store, row, rated=self.rated and not self.leaving)
        await self.store.finish_hand(self.hand_id,
                                     results.result_json(result, self.leaving, winners))
        self.status = result.status
        self.next_dealer = result.next_dealer

    # -- ending ------------------------------------------------------------------------------------

    async def close(self) -> None:
        async with self.lock:
            self.state = "closed"
            await self.store.update_table(self.id, state="closed")

    # -- restoring ---------------------------------------------------------------------------------

    @classmethod
    async def restore(cls, row: TableRow, store: Store) -> TableSession:
        """Rebuild an open table from the store: its seats, and the hand in play replayed from
        its log."""
        session = cls(row, store)
        if row.state == "lobby":
            if session.full:
                team0, team1 = session.team_members()
                session.known = await store.get_status(row.guild_id, row.game, team0, team1)
            return session
        team0, team1 = session.team_members()
        session.known = await store.get_status(row.guild_id, row.game, team0, team1)
        last = await store.current_hand(row.id)
        if last is None:
            session.status, session.next_dealer = session.stored_status(session.known)
            return session
        hand = replay(last.record())
        members = last.header.get("members")
        session.dealt_with = list(members) if isinstance(members, list) else list(row.seats)
        session.leaving = {int(x) for x in row.runtime.get("leaving", [])}
        session.autoplay |= session.leaving
        session.hand = hand
        session.hand_id = last.id
        session.hand_number = last.number
        if hand.result is not None:
            if last.result is None:
                # The process stopped between the last action and the bookkeeping.
                await session._finished(hand.result)
            session.status = hand.result.status
            session.next_dealer = hand.result.next_dealer
        else:
            session.status = hand.status
        return session
