"""A table as an object: seats, the match, the hand in play, and the rules for who may do what.

``TableSession`` knows nothing of Discord: the table service (``bot.service``) turns every
surface's requests into calls here and tells the surfaces what changed. Every change goes
through ``self.lock`` (one request at a time per table) and is written to the store before
the in-memory state changes, so the store's log is always at least as far as what anybody
was shown.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot import boards, bookkeeping, ratings, thinking
from bot.lobby import (
    COMPUTER_LEVELS,
    DEFAULT_TURN_SECONDS,
    DEFAULT_WINDOW_SECONDS,
    LEGACY_LEVELS,
    SETTING_RANGES,
    SETTING_SWITCHES,
    TIMEOUT_LEVEL,
    TIMEOUTS_BEFORE_AUTOPLAY,
    Actor,
    Lobby,
    SessionError,
    check_settings,
)
from bot.seats import computer, computer_level, is_computer, user_member
from bot.store import HandRow, Member, Store, TableRow
from engine import (
    Action,
    Hand,
    HandResult,
    IllegalAction,
    Status,
    action_to_json,
    replay,
    to_record,
)
from engine.view import seat_view

__all__ = [
    "COMPUTER_LEVELS", "DEFAULT_TURN_SECONDS", "DEFAULT_WINDOW_SECONDS", "LEGACY_LEVELS",
    "SETTING_RANGES", "SETTING_SWITCHES", "TIMEOUTS_BEFORE_AUTOPLAY", "TIMEOUT_LEVEL", "Actor",
    "Moves", "Played", "SessionError", "TableSession", "check_settings", "thinking_level",
]


@dataclass
class Played:
    """One applied action."""

    seat: int
    action: Action
    by_computer: bool


@dataclass
class Moves:
    """The actions one request (or one computer's turn) applied, in order."""

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

class TableSession(Lobby):
    """A table: its seats (``Lobby``), the match, the hand in play, computer turns, timeouts,
    open windows, and the policy of play (module docstring)."""

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
        plan = self.plan
        if plan is not None and self.hand_number >= plan.hands:
            raise SessionError("err.round_over")
        if self.leaving:
            for seat in sorted(self.leaving):
                self.seats[seat] = computer(TIMEOUT_LEVEL)
                self.autoplay.discard(seat)
            await self._set_leaving(set())
            await self._seats_changed()
        if self.seats != self.dealt_with:
            # New partnerships (or a new group): their own stored status and dealer, or even
            # (a tournament is a match of its own).
            team0, team1 = self.team_members()
            self.known = await self.store.get_status(self.guild_id, self.game, team0, team1)
            self.status, self.next_dealer = self.stored_status(
                None if plan is not None and not self.dealt_with else self.known)
            self.timeouts = [0] * self.rules.players
        self.dealt_with = list(self.seats)
        dealer = self.next_dealer
        if dealer is None:
            dealer = self.rules.first_dealer(self.status, self.rng)
        pack = list(self.rules.pack)
        self.rng.shuffle(pack)
        if plan is not None and plan.seed is not None:
            # Duplicate: the round's board, from an even start, as at every other table.
            pack, dealer = boards.board(self.rules, plan.seed, self.hand_number + 1)
            self.status = Status()
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
    ) -> Moves:
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

    async def computer_turn(self, *, timed_out: bool = False) -> Moves | None:
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
                              seen: tuple[Hand, int], *, timed_out: bool) -> Moves | None:
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

    async def close_window(self, moved: int) -> Moves | None:
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
    ) -> Moves:
        hand = self.hand
        assert hand is not None and self.hand_id is not None
        # The log first: if the store fails, nothing changed and the click can be retried.
        await self.store.append_action(
            self.hand_id, len(hand.actions), {"seat": seat, **action_to_json(action)},
            user_id=user_id, by_computer=by_computer,
        )
        hand.apply(seat, action)
        moves = Moves(played=[Played(seat, action, by_computer)])
        if hand.result is not None:
            moves.result = hand.result
            await self._finished(hand.result)
        return moves

    async def _finished(self, result: HandResult) -> None:
        """Keep what a finished hand leaves: the players' status, the standings and ratings
        (``bot.bookkeeping``), then the hand's result."""
        assert self.hand_id is not None and self.hand is not None
        stored = self._to_store(result.status, result.next_dealer,
                                bookkeeping.masters_since(self.known, result))
        # Status and standings first, the hand's result last: restore() redoes all three
        # while a hand has no stored result, and the first two are safe to repeat.
        await self.store.put_status(stored)
        self.known = stored
        winners = bookkeeping.hand_winner_seats(result, self.hand.team)
        row = bookkeeping.result_row(result, hand_id=self.hand_id, stored=stored,
                                 seating=self.seating, seat_teams=self.rules.seat_teams,
                                 hand_winners=winners)
        # A seat handed to the computer mid-hand makes the hand a measure of nobody: it
        # counts for no one's rating (its result still counts in the standings). The seats
        # are kept with the hand's stored result, so that a rebuild leaves it out too.
        # ``finish`` gives the result its time (the order ratings take results in).
        await ratings.finish(self.store, row, rated=self.rated and not self.leaving)
        await self.store.finish_hand(self.hand_id,
                                     bookkeeping.result_json(result, self.leaving, winners))
        self.status = result.status
        self.next_dealer = result.next_dealer

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
