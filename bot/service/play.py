"""The table service's play cases: a move (a card, a bid, a claim...), back from the
computer, the next hand, a hint, a review (``bot.service``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot import thinking
from bot.courier import Change, Via
from bot.lobby import Actor, SessionError
from bot.open_tables import OpenTable
from bot.service.outcome import Advice, Outcome, Reply, Review
from bot.service.seats import publish
from engine import Action, seat_view

#: Said to the asker once a slow answer (a hint's search, a review) is allowed, before it is
#: worked out (a Discord click is answered "thinking…" within its 3 s).
Meanwhile = Callable[[], Awaitable[object]]


class PlayCases:
    """Moves, the next hand, hints and reviews (see the module docstring)."""

    async def act(self, table: OpenTable, by: Actor, action: Action, *, hand: int,
                  trick: int | None = None, at: int | None = None, via: Via,
                  reply: Reply | None = None) -> Outcome:
        """A seated player's action, checked by the engine against their seat, at the hand
        ``hand`` and the trick (a button's stamp) or the actions seen (``at``, the
        Activity's) it was chosen at."""
        s = table.session
        moves = await s.act(by.user_id, action, hand_number=hand, trick=trick, at=at)
        change = Change(moves, s.seat_of(by.user_id), via)
        return await publish(table, Outcome(seat=change.seat, moves=moves), reply,
                             lambda: table.runner.courier.changed(change))

    async def resume(self, table: OpenTable, by: Actor, *, via: Via,
                     reply: Reply | None = None) -> Outcome:
        """A player is back (My hand): the computer stops playing their seat."""
        s = table.session
        seat = s.require_seat(by.user_id)
        if s.hand is None:
            raise SessionError("err.no_hand")
        was_auto = seat in s.autoplay
        s.resume(by.user_id)
        outcome = Outcome(seat=seat)
        if not was_auto:
            if reply is not None:
                await reply(outcome)
            return outcome
        # The seat is the player's again: every surface shows it, the driver waits for them.
        return await publish(table, outcome, reply, lambda: table.runner.courier.changed(
            Change(seat=seat, via=via)))

    async def next_hand(self, table: OpenTable, by: Actor, hand: int, *, via: Via,
                        reply: Reply | None = None) -> Outcome:
        """Deal the hand after ``hand`` (a seated player or a manager asks)."""
        s = table.session
        await s.next_hand(by, hand)
        change = Change(seat=s.seat_of(by.user_id), via=via)
        return await publish(table, Outcome(seat=change.seat, dealt=True), reply,
                             lambda: table.runner.courier.dealt(change))

    async def hint(self, table: OpenTable, by: Actor, *, hand: int, trick: int | None = None,
                   at: int | None = None, meanwhile: Meanwhile | None = None) -> Advice:
        """"What would you play?": Normal's choice for the asker's position now and each
        legal action's chances, from the asker's own view (at a table with hints on)."""
        s = table.session
        if at is not None:
            if s.hand is None or hand != s.hand_number:
                raise SessionError("err.stale_hand")
            if at != len(s.hand.actions):
                raise SessionError("err.stale_trick")
            trick = len(s.hand.tricks)
        if trick is None:
            raise SessionError("err.stale_trick")
        seat = s.hint_seat(by.user_id, hand, trick)
        assert s.hand is not None
        view = seat_view(s.hand, seat)
        if meanwhile is not None:
            await meanwhile()
        try:
            hint = await thinking.hint("normal", seat, view)
        except ValueError:
            raise SessionError("illegal.not_your_turn") from None
        return Advice(seat, view, hint)

    async def review(self, table: OpenTable, by: Actor, number: int, *,
                     meanwhile: Meanwhile | None = None) -> Review:
        """A finished hand of the table, for a player who sat in it, with Hard's view of
        each decision they made."""
        s = table.session
        row, seat = await s.finished_hand(by.user_id, number)
        if meanwhile is not None:
            await meanwhile()
        decisions = await thinking.stored_review(s.store, row.id, row.record(), seat)
        return Review(row, seat, decisions)
