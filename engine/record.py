"""Game records: a hand is its pack and its actions (``docs/record-format.md``).

>>> from engine.cards import PACK_32, code
>>> rec = {"game": "filicau", "options": {"early_end": False}, "dealer": 0,
...        "status": {"masters": None, "servant": None},
...        "pack": [code(c) for c in PACK_32], "actions": []}
>>> hand = replay(rec)
>>> report(hand)["to_move"], report(hand)["trump"]
(1, 'E')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError

from engine.actions import IllegalAction, NotationError, action_from_json, action_to_json
from engine.cards import CardError, card, codes, suit_letter
from engine.errors import EngineError
from engine.hand import Hand
from engine.rules import make_rules
from engine.status import RecordError, Status


class GameRecord(BaseModel):
    """The stored form of one hand. Extra keys are kept (the bot adds table and user data)."""

    model_config = ConfigDict(extra="allow")

    game: StrictStr
    options: dict[str, Any] = {}
    dealer: StrictInt
    status: dict[str, Any] | None = None
    pack: list[StrictStr]
    #: Checked one by one when replayed, so that a bad one is named by its position.
    actions: list[Any] = []


class ReplayError(EngineError):
    """A record that cannot be replayed. ``action`` is the index of the offending action, or
    None when the record itself (game, options, dealer, status, pack) is at fault."""

    def __init__(self, action: int | None, message: str, reason: str = "bad_record") -> None:
        super().__init__(message)
        self.action = action
        self.reason = reason

    def to_json(self) -> dict[str, Any]:
        return {"error": {"action": self.action, "message": str(self)}}


def start(record: Mapping[str, Any] | GameRecord) -> Hand:
    """The hand a record describes, before any of its actions."""
    rec = record if isinstance(record, GameRecord) else _validate(record)
    try:
        rules = make_rules(rec.game, rec.options)
        pack = [card(c) for c in rec.pack]
        return Hand(rules, rec.dealer, pack, Status.from_json(rec.status))
    except (RecordError, CardError) as e:
        raise ReplayError(None, str(e)) from None


def replay(record: Mapping[str, Any] | GameRecord) -> Hand:
    """Replay a whole record, or raise ``ReplayError`` naming the first bad action."""
    rec = record if isinstance(record, GameRecord) else _validate(record)
    hand = start(rec)
    for i, obj in enumerate(rec.actions):
        try:
            if not isinstance(obj, Mapping):
                raise NotationError(f"an action must be an object, not {obj!r}")
            seat = obj.get("seat")
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise NotationError(f"action needs a seat number, got {seat!r}")
            hand.apply(seat, action_from_json(obj))
        except NotationError as e:
            raise ReplayError(i, str(e), "bad_action") from None
        except IllegalAction as e:
            raise ReplayError(i, str(e), e.reason) from None
    return hand


def _validate(record: Mapping[str, Any]) -> GameRecord:
    try:
        return GameRecord.model_validate(record)
    except ValidationError as e:
        msg = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in e.errors()
        )
        raise ReplayError(None, f"not a game record: {msg}") from None


def to_record(hand: Hand) -> dict[str, Any]:
    """The record of a hand as played so far."""
    return {
        "game": hand.rules.game,
        "options": hand.rules.options.model_dump(),
        "dealer": hand.dealer,
        "status": hand.status.to_json(),
        "pack": codes(hand.pack),
        "actions": [{"seat": seat, **action_to_json(a)} for seat, a in hand.actions],
    }


def report(hand: Hand) -> dict[str, Any]:
    """What ``python -m engine replay`` prints for a hand (its shape is a contract)."""
    tricks = [
        {"leader": t.leader, "cards": codes(t.cards), "winner": t.winner} for t in hand.tricks
    ]
    if hand.trick:
        tricks.append({"leader": hand.leader, "cards": codes(hand.trick), "winner": None})
    result = hand.result
    return {
        "trump": None if hand.trump is None else suit_letter(hand.trump),
        "shown": codes(hand.shown),
        "hands": [codes(h) for h in hand.dealt],
        "tricks": tricks,
        "points": hand.team_points(),
        "finished": hand.finished,
        "to_move": hand.to_move,
        "legal": [action_to_json(a) for a in hand.legal_actions()],
        # A hand that ends a match shows the match's final status, not the next match's.
        "status": (result.extra.get("final_status") or result.status.to_json()) if result
        else hand.status.to_json(),
        "next_dealer": result.next_dealer if result else None,
    }
