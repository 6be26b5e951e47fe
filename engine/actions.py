"""Actions, their JSON notation, and the error raised for an action the rules forbid.

An action is what one seat does: play a card, choose a Servant, later call a card, bind,
take the widow... It is a small immutable ``(kind, value)`` pair; the seat that acts is
given beside it, as in the game record::

    {"seat": 1, "card": "H10"}      ->  seat 1, Action("card", card("H10"))
    {"seat": 0, "servant": 3}       ->  seat 0, Action("servant", 3)

>>> from engine.actions import Action, action_from_json, action_to_json
>>> action_to_json(action_from_json({"card": "h10"}))
{'card': 'H10'}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from engine.cards import ALL_CARDS, Card, CardError, card, code, parse_suit, suit_letter
from engine.errors import EngineError


class Action(NamedTuple):
    kind: str
    value: Any

    def __str__(self) -> str:
        return _format(self)


#: One shared Action object per card: the play phase hands these out without allocating.
PLAY: tuple[Action, ...] = tuple(Action("card", c) for c in ALL_CARDS)


#: ``BYTE_PLAYS[k][b]``: the play actions for the cards ``8k + i`` whose bit ``i`` is set in
#: byte ``b``. Four lookups turn a 32-bit hand mask into its legal plays, in card order
#: (``Hand.legal_actions`` does them inline).
BYTE_PLAYS: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple(PLAY[8 * k + i] for i in range(8) if b >> i & 1) for b in range(256))
    for k in range(4)
)


class IllegalAction(EngineError):
    """An action the rules forbid. ``reason`` is a stable key (for translations and tests),
    ``params`` fills its placeholders, ``str(error)`` is the English sentence."""

    def __init__(self, reason: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = params


class NotationError(EngineError):
    """An action or record whose JSON does not parse."""


def _seat(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise NotationError(f"{v!r} is not a seat number")
    return v


def _flag(v: Any) -> bool:
    if not isinstance(v, bool):
        raise NotationError(f"{v!r} is not true or false")
    return v


def same(v: Any) -> Any:
    return v


def _card(v: Any) -> Card:
    try:
        return card(v)
    except CardError as e:
        raise NotationError(str(e)) from None


def _cards(v: Any) -> tuple[Card, ...]:
    if not isinstance(v, list):
        raise NotationError(f"{v!r} is not a list of cards")
    return tuple(sorted(_card(x) for x in v))


def _suit(v: Any) -> int:
    try:
        return parse_suit(v)
    except CardError as e:
        raise NotationError(str(e)) from None


# kind -> (JSON value -> engine value, engine value -> JSON value). Later rule families add
# their kinds here; the record format stays {"seat": N, KIND: VALUE}.
_KINDS: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "card": (_card, code),
    "servant": (_seat, same),
    "trump": (_suit, suit_letter),
    "call": (_card, code),
    "pass": (_flag, same),
    "bury": (_cards, lambda v: [code(c) for c in v]),
}


Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]


def register_kind(kind: str, parse: Callable[[Any], Any], dump: Callable[[Any], Any]) -> None:
    """Teach the record format an action kind (a game module does this for its own bids,
    calls and signals). ``parse`` turns the JSON value into the engine's value and raises
    ``NotationError`` when it cannot; ``dump`` goes back. Registering a kind twice with other
    codecs is a programming error."""
    known = _KINDS.get(kind)
    if known is not None and known != (parse, dump):
        raise ValueError(f"action kind {kind!r} is already registered differently")
    _KINDS[kind] = (parse, dump)


def choice(*allowed: str) -> Callable[[Any], str]:
    """A parser for a kind whose value is one of a few words (``"knock"``, ``"cut"``)."""
    def parse(v: Any) -> str:
        if v not in allowed:
            raise NotationError(f"{v!r} is not one of {', '.join(allowed)}")
        return str(v)
    return parse


#: The codecs above, for game modules registering their own kinds.
parse_seat, parse_flag, parse_card, parse_cards = _seat, _flag, _card, _cards
parse_suit_value = _suit


def action_from_json(obj: Mapping[str, Any]) -> Action:
    """Parse an action (the ``seat`` key, if present, is ignored here)."""
    if not isinstance(obj, Mapping):
        raise NotationError(f"an action must be an object, not {obj!r}")
    kinds = [k for k in obj if k != "seat"]
    if len(kinds) != 1 or kinds[0] not in _KINDS:
        known = ", ".join(sorted(_KINDS))
        raise NotationError(f"an action needs exactly one of {known}; got {sorted(obj)}")
    kind = kinds[0]
    return Action(kind, _KINDS[kind][0](obj[kind]))


def action_to_json(action: Action) -> dict[str, Any]:
    return {action.kind: _KINDS[action.kind][1](action.value)}


def _format(action: Action) -> str:
    value = _KINDS[action.kind][1](action.value) if action.kind in _KINDS else action.value
    return value if action.kind == "card" else f"{action.kind} {value}"
