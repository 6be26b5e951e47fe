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
from engine.cards import Card, CardError, card, codes, suit_letter
from engine.errors import EngineError, OptionsError
from engine.hand import Hand
from engine.rules import GAMES, make_rules
from engine.rules.base import Rules
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
    None when the record itself (game, options, dealer, status, pack) is at fault; ``reason``
    a stable key (an action's: the rules' own, ``must_follow``, ``stoss_late``...; a
    record's: ``not_json``, ``not_a_record``, ``unknown_game``, ``bad_options``,
    ``bad_card``, ``bad_dealer``, ``bad_pack``, ``bad_status``) and ``params`` what fills it.

    >>> ReplayError(2, "not seat 1's turn", "not_your_turn", seat=1, to_move=0).to_json()
    {'error': {'action': 2, 'reason': 'not_your_turn', 'params': {'seat': 1, 'to_move': 0}, \
'message': "not seat 1's turn"}}
    """

    def __init__(self, action: int | None, message: str, reason: str = "bad_record",
                 **params: Any) -> None:
        super().__init__(message)
        self.action = action
        self.reason = reason
        self.params = params

    def to_json(self) -> dict[str, Any]:
        return {"error": {"action": self.action, "reason": self.reason,
                          "params": _plain(self.params), "message": str(self)}}


def _plain(value: Any) -> Any:
    """A refusal's params as JSON: numbers, words, lists and objects as they are."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    return str(value)


def start(record: Mapping[str, Any] | GameRecord) -> Hand:
    """The hand a record describes, before any of its actions."""
    rec = record if isinstance(record, GameRecord) else _validate(record)
    try:
        rules = make_rules(rec.game, rec.options)
    except OptionsError as e:
        raise ReplayError(None, str(e), "bad_options", option=e.option, value=e.value,
                          problem=e.reason) from None
    except RecordError as e:
        reason = "bad_options" if rec.game in GAMES else "unknown_game"
        raise ReplayError(None, str(e), reason, game=rec.game) from None
    try:
        pack = [card(c) for c in rec.pack]
    except CardError as e:
        raise ReplayError(None, str(e), "bad_card") from None
    try:
        status = Status.from_json(rec.status)
        return Hand(rules, rec.dealer, pack, status)
    except RecordError as e:
        raise ReplayError(None, str(e), _record_reason(rules, rec, pack)) from None


def _record_reason(rules: Rules, rec: GameRecord, pack: list[Card]) -> str:
    """Which part of the record ``Hand`` refused (asked only once it has)."""
    if not 0 <= rec.dealer < rules.players:
        return "bad_dealer"
    if sorted(pack) != sorted(rules.pack):
        return "bad_pack"
    try:
        rules.check_status(Status.from_json(rec.status))
    except RecordError:
        return "bad_status"
    return "bad_dealer"  # ``check_deal``: a dealer the status does not allow


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
            raise ReplayError(i, str(e), e.reason, **e.params) from None
    return hand


def _validate(record: Mapping[str, Any]) -> GameRecord:
    try:
        return GameRecord.model_validate(record)
    except ValidationError as e:
        msg = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in e.errors()
        )
        raise ReplayError(None, f"not a game record: {msg}", "not_a_record") from None


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
        "may_act": may_act(hand),
        # A hand that ends a match shows the match's final status, not the next match's.
        "status": (result.extra.get("final_status") or result.status.to_json()) if result
        else hand.status.to_json(),
        "next_dealer": result.next_dealer if result else None,
    }


def may_act(hand: Hand) -> list[dict[str, Any]]:
    """Every seat that may act now, in seat order, with all it may do: its turn's actions
    (every seat asked in a window: a doubling window, the fris window, the masters choosing
    a Servant) and its out-of-turn ones (a partner signal, a claim, a Kontra before
    forehand's first card). ``report``'s ``legal`` is the seat to move's turn alone."""
    actors = frozenset(hand.actors())
    out: list[dict[str, Any]] = []
    for seat in range(hand.n):
        acts = list(hand.legal_actions(seat)) if seat in actors else []
        acts += [a for a in hand.free_actions(seat) if a not in acts]
        if acts:
            out.append({"seat": seat, "legal": [action_to_json(a) for a in acts]})
    return out
