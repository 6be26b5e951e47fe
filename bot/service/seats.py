"""The table service's seat cases: open a table, sit down, leave, seat or remove a computer,
change an option, start, cancel, end (``bot.service``)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot import boards, holds
from bot.courier import Change, Via
from bot.lobby import Actor, SessionError, check_settings
from bot.open_tables import OpenTable, OpenTables
from bot.options import describe as describe_options
from bot.service.outcome import Outcome, Reply, Words
from bot.session import TableSession
from bot.store import Member
from engine import make_rules
from engine.errors import OptionsError
from engine.rules import GAMES

#: How a new table is shown where it was asked for (its message posted): a table exists
#: only once its message does.
Post = Callable[[OpenTable], Awaitable[object]]


async def publish(table: OpenTable, outcome: Outcome, reply: Reply | None,
                  news: Callable[[], Awaitable[None]]) -> Outcome:
    """The order of every request once it is stored: the actor's own surface answers first
    (a Discord click within its 3 s), then every surface hears the news (``news``: the
    courier told) and the table's driver wakes — the last two even when the answer could
    not be given (too late): what was stored goes on."""
    try:
        if reply is not None:
            await reply(outcome)
    finally:
        await news()
        table.runner.kick()
    return outcome


class SeatCases:
    """Opening, seats, options, starting and ending (see the module docstring)."""

    tables: OpenTables

    # -- opening -------------------------------------------------------------------------------

    async def open(self, *, guild_id: int, channel_id: int, game: str, options: dict[str, Any],
                   opener_id: int, settings: dict[str, Any], post: Post | None,
                   opener_name: str | None = None, plan: boards.Plan | None = None,
                   members: list[Member | None] | None = None,
                   names: dict[Member, str] | None = None) -> OpenTable:
        """A new table in a channel, its lobby posted by ``post``: the game's ``options``
        and the table's ``settings`` checked here, whoever asked. ``opener_name``: the
        opener sits down at once (quick play); a tournament's table has its ``plan`` and
        its ``members`` seated with their ``names``."""
        if game not in GAMES:
            raise SessionError("err.bad_game")
        try:
            rules = make_rules(game, options)
        except OptionsError as e:
            raise SessionError("err.bad_options", problem=describe_options(e)) from None
        checked: dict[str, Any] = dict(check_settings(settings))
        if plan is not None:
            checked.update(boards.plan_settings(plan))
        table = await self.tables.create(
            guild_id=guild_id, channel_id=channel_id, game=game, options=options,
            opener_id=opener_id, seats=rules.players, settings=checked, members=members)
        try:
            s = table.session
            if names:
                await s.keep(names=names)
                s.names.update(names)
            if opener_name is not None:
                await sit_anywhere(s, opener_id, opener_name)
            if post is not None:
                await post(table)
        except BaseException:
            # A table exists only once its message does.
            await self.tables.discard(table)
            raise
        table.runner.start_lobby_timer()
        return table

    # -- seats -----------------------------------------------------------------------------

    async def _seated(self, table: OpenTable, outcome: Outcome, reply: Reply | None,
                      via: Via, *, left: bool = False) -> Outcome:
        """A change of seats (or of an option) is stored: answered, shown, and the driver
        looks again (a table between hands may have nobody left)."""
        change = Change(seat=outcome.seat, via=via, left=left)
        return await publish(table, outcome, reply,
                             lambda: table.runner.courier.changed(change))

    async def join(self, table: OpenTable, by: Actor, team: int | None, name: str | None, *,
                   via: Via, reply: Reply | None = None) -> Outcome:
        """Sit down in ``team`` (0 = A, 1 = B) at a fixed-teams table, or in the first free
        seat; at a table between hands, a computer's seat too."""
        seat = await table.session.join(by.user_id, team, name)
        return await self._seated(table, Outcome(seat=seat), reply, via)

    async def take_seat(self, table: OpenTable, by: Actor, name: str | None, *, via: Via,
                        reply: Reply | None = None) -> Outcome:
        """Sit down wherever there is room (quick play)."""
        seat = await sit_anywhere(table.session, by.user_id, name)
        return await self._seated(table, Outcome(seat=seat), reply, via)

    async def leave(self, table: OpenTable, by: Actor, *, sure: bool = False,
                    hand: int | None = None, via: Via, reply: Reply | None = None) -> Outcome:
        """Leave the table: at once in the lobby and between hands; during a hand only once
        ``sure`` (the outcome asks first), and the computer plays the seat from then on
        (``hand``: the hand the question was asked in, which must still be in play)."""
        s = table.session
        if not sure and s.state == "playing" and not s.between_hands:
            outcome = Outcome(seat=s.require_seat(by.user_id), ask=Words("hand.leave_ask"))
            if reply is not None:
                await reply(outcome)
            return outcome
        seat = s.require_seat(by.user_id)
        if hand is not None and hand != s.hand_number:
            raise SessionError("err.stale_hand")
        during = await s.leave(by.user_id)
        say = Words("hand.left") if during else Words("hand.left_between") if sure else None
        outcome = Outcome(seat=seat, say=say)

        async def news() -> None:
            if during:
                await table.runner.courier.notice("turn.left", seat)
            await table.runner.courier.changed(Change(seat=seat, via=via, left=during))
        return await publish(table, outcome, reply, news)

    async def add_computer(self, table: OpenTable, by: Actor, level: str, *, via: Via,
                           reply: Reply | None = None) -> Outcome:
        await table.session.add_computer(level=level, by=by)
        return await self._seated(table, Outcome(), reply, via)

    async def remove_computer(self, table: OpenTable, by: Actor, *, via: Via,
                              reply: Reply | None = None) -> Outcome:
        await table.session.remove_computer(by=by)
        return await self._seated(table, Outcome(), reply, via)

    async def set_option(self, table: OpenTable, by: Actor, name: str, value: Any, *,
                         via: Via, reply: Reply | None = None) -> Outcome:
        await table.session.set_option(by.user_id, name, value, is_admin=by.manager)
        return await self._seated(table, Outcome(), reply, via)

    async def hold(self, table: OpenTable, members: list[Member], until: float) -> None:
        """Hold a seat for each of ``members`` until ``until`` (wall clock): nobody else
        may take it meanwhile (``bot.holds``)."""
        s = table.session
        await s.keep(**{holds.HELD: holds.with_holds(s.row.runtime, members, until,
                                                     time.time())})

    # -- starting and ending ---------------------------------------------------------------

    async def start(self, table: OpenTable, by: Actor, *, via: Via,
                    reply: Reply | None = None) -> Outcome:
        """The lobby becomes a table in play: the first hand is dealt."""
        await table.session.start(by.user_id, is_admin=by.manager)
        table.runner.lobby_closed()
        change = Change(seat=table.session.seat_of(by.user_id), via=via)
        return await publish(table, Outcome(seat=change.seat, dealt=True), reply,
                             lambda: table.runner.courier.dealt(change))

    async def cancel(self, table: OpenTable, by: Actor, *,
                     reply: Reply | None = None) -> Outcome:
        """Close a table that has not started (its opener or a manager)."""
        await table.session.cancel(by)
        return await self._closed(table, "lobby.cancelled", reply)

    async def end(self, table: OpenTable, key: str, *, by: Actor | None = None,
                  reply: Reply | None = None) -> Outcome:
        """Close a table wherever it is, saying why (``key``): a server manager ends a
        stuck one (``by``), a tournament's round is played out (``by`` None: the bot)."""
        if by is not None and not by.manager:
            raise SessionError("err.not_manager")
        if table.session.state != "closed":
            await table.session.close()
        return await self._closed(table, key, reply)

    async def _closed(self, table: OpenTable, key: str, reply: Reply | None) -> Outcome:
        outcome = Outcome(say=Words(key))
        try:
            if reply is not None:
                await reply(outcome)
        finally:
            await table.runner.close(key)
        return outcome


async def sit_anywhere(s: TableSession, user_id: int, name: str | None) -> int:
    """Seat ``user_id`` in a team with room at a fixed-teams table (the one with more empty
    seats first), else in the first free seat; returns the seat."""
    if not s.fixed_teams:
        return await s.join(user_id, None, name)
    n = s.rules.players
    order = sorted((0, 1), key=lambda team: -sum(
        1 for x in range(team, n, 2) if s.seats[x] is None))
    try:
        return await s.join(user_id, order[0], name)
    except SessionError as e:
        if e.key not in ("err.team_full", "err.seat_held"):
            raise
        return await s.join(user_id, order[1], name)
