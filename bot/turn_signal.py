"""A table's turn signal on Discord: one live message that mentions only the people to act.

It is posted a few seconds into a turn, replaced (never added to) by the warning at two
thirds of it, and removed once the turn has moved on or the table closes. The table keeps
the signal's message with its runtime state, so that whichever process drives the table
next removes a signal an earlier one sent. Part of the table's Discord surface
(``bot.discord_surface``), which speaks the server's language while it draws one.

>>> Turn(3, 12) == Turn(3, 12), Turn(3, 12) == Turn(4, 0)
(True, False)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.courier import Signal
from bot.delivery import Delivery, Message, only_users
from bot.seats import is_computer
from bot.session import TableSession
from bot.texts import t
from bot.voice.markdown import markdown
from bot.voice.text import Moment


@dataclass(frozen=True)
class Turn:
    """A turn: the hand and how many actions it has seen."""

    hand: int
    actions: int


class TurnSignal:
    """The turn's one live signal of a table (see the module docstring); ``has_view``: whether
    a user's hand view is open (the signal then points to it rather than to My hand)."""

    def __init__(self, session: TableSession, delivery: Delivery,
                 has_view: Callable[[int], bool]) -> None:
        self.session = session
        self.delivery = delivery
        self.has_view = has_view
        #: The signal this process sent: (the turn, the message).
        self.sent: tuple[Turn, Message] | None = None
        #: A signal an earlier process sent (its turn, message and channel, kept with the
        #: table): whichever process drives the table removes it once its turn has moved.
        self.kept: tuple[Turn, int, int] | None = kept_signal(session)

    def turn(self) -> Turn:
        hand = self.session.hand
        return Turn(self.session.hand_number, 0 if hand is None else len(hand.actions))

    async def post(self, signal: Signal, seconds: int) -> None:
        """Signal the people to act now (``seconds`` left of their turn), in place of the
        signal before."""
        s = self.session
        people = [int(m) for seat in s.waiting_for_human()
                  if (m := s.seats[seat]) is not None and not is_computer(m)]
        if not people:
            return
        lines = []
        for user_id in people:
            if signal is Signal.WARNING:
                # A live countdown, as the reminder DM gives it: a fixed "30 s left" is stale
                # by the time it is read.
                lines.append(t("turn.warning", user=f"<@{user_id}>", when=markdown(
                    Moment(time.time() + seconds, "relative"))))
                continue
            key = "turn.ping" if self.has_view(user_id) else "turn.ping_view"
            lines.append(t(key, user=f"<@{user_id}>", button=t("btn.my_hand")))
        turn = self.turn()
        old, kept = self.sent, self.kept
        sent = await self.delivery.post(content="\n".join(lines),
                                        allowed_mentions=only_users(people),
                                        what="signal a turn")
        if sent is not None:
            self.sent, self.kept = (turn, sent), None
            await s.keep(signal={"message": sent.id, "channel": sent.channel.id,
                                 "hand": turn.hand, "actions": turn.actions,
                                 "stage": signal.value})
        if old is not None:
            await self.delivery.delete(old[1], what="remove a signal")
        if kept is not None:
            await self.delivery.delete(kept[1], kept[2], what="remove a signal")

    async def remove(self, *, force: bool = False) -> None:
        """Remove the signal of a turn that has moved on (``force``: any), this process's
        or one an earlier process left."""
        sent, kept, turn = self.sent, self.kept, self.turn()
        gone = False
        if sent is not None and (sent[0] != turn or force):
            self.sent = None
            gone = await self.delivery.delete(sent[1], what="remove a signal")
        if kept is not None and (kept[0] != turn or force):
            self.kept = None
            gone = await self.delivery.delete(kept[1], kept[2], what="remove a signal")
        if gone and self.sent is None and self.session.state != "closed":
            await self.session.keep(signal=None)


def kept_signal(session: TableSession) -> tuple[Turn, int, int] | None:
    """The turn's signal as the table keeps it (``TableSession.keep``): its turn, message
    and channel."""
    kept: Any = session.row.runtime.get("signal")
    try:
        return (Turn(int(kept["hand"]), int(kept["actions"])), int(kept["message"]),
                int(kept["channel"]))
    except (TypeError, KeyError, ValueError):
        return None
