"""The replay page's analysis board (issue 46): from a position of a finished hand, another
card (or choice) for the player to move, and the computers play the hand out from there.

Only a finished hand is analysed — its record holds every card, and once it is over every
card may be seen; a hand still in play is refused before anything of it is read. The line is
played by the engine's ``normal`` computers, seeded by the position, so the same question
gets the same answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.voice.table import Table
from bot.web.protocol import ReplayState
from bot.web.views import replay_steps
from engine import Action, action_from_json, action_to_json, seat_view
from engine.ai import make_player
from engine.errors import RecordError
from engine.record import start

#: The computers that play a line out.
LEVEL = "normal"
#: A hand has fewer moves than this; a request for a later one is refused unread.
MAX_AT = 400


class Refused(ValueError):
    """Not a position and move of this hand (``reason``: ``bad_position``, ``illegal``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def play_out(table: Table, record: Mapping[str, Any], at: int, action: Mapping[str, Any]
             ) -> list[ReplayState]:
    """The hand of ``record`` after its first ``at`` moves, ``action`` for the player to move
    there, then played out by the computers: the replay's steps from that position on (the
    position itself first). Raises ``Refused`` for a position past the hand's end or an
    action its player may not take there."""
    actions = record.get("actions")
    if not isinstance(actions, list) or not 0 <= at < len(actions):
        raise Refused("bad_position")
    hand = start(record)
    for obj in actions[:at]:
        hand.apply(obj["seat"], action_from_json(obj))
    actors = hand.actors()
    try:
        chosen: Action = action_from_json(dict(action))
    except (RecordError, KeyError, TypeError, ValueError):
        raise Refused("illegal") from None
    seat = next((s for s in actors if chosen in hand.legal_actions(s)), None)
    if seat is None:
        raise Refused("illegal")
    line = [*actions[:at], {"seat": seat, **action_to_json(chosen)}]
    hand.apply(seat, chosen)
    for _ in range(MAX_AT):
        if hand.finished:
            break
        mover = hand.actors()[0]
        player = make_player(LEVEL, seed=len(line), timed=False)
        step = player.choose(seat_view(hand, mover))
        hand.apply(mover, step)
        line.append({"seat": mover, **action_to_json(step)})
    return replay_steps(table, {**record, "actions": line}, reviews={})[at:]
