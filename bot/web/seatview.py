"""A seat's own part of the table, as the Activity draws it for the player who holds it.

Built from the seat's ``SeatView`` only (``engine.view.seat_view``): its cards, which of them
may be played now, which are trumps, every other choice the engine offers (bids, calls, a
fris, a binding, taking the widow, burying, announcements...) worded as the Discord hand view
words them, what only this seat knows, and what to do now — all by the voice
(``bot.voice.words``), as the hand view has them. The game is never named: a new game's
choices appear here as they appear on the hand view's buttons. This object is sent to its
holder's socket only (``bot.web.live``).
"""

from __future__ import annotations

from typing import Any

from bot.voice import words
from bot.voice.table import Table
from bot.voice.wire import spans
from bot.web.protocol import Mine
from engine import Action, Hand, SeatView, action_to_json, seat_view
from engine.cards import code


def choice(table: Table, action: Action, *, free: bool) -> dict[str, Any]:
    """One choice as a control (``Choice``'s data): what the socket sends back (``kind``
    and ``value``, the engine's JSON), and its words."""
    (kind, value), = action_to_json(action).items()
    return {"kind": kind, "value": value, "free": free,
            "label": spans(words.choice(table, action))}


def role(v: SeatView) -> str | None:
    """The seat's side's role as its player knows it: their secret side once they know it
    (``private["team"]``), else the side the table sees."""
    team = v.private.get("team")
    if isinstance(team, int) and not isinstance(team, bool) and 0 <= team < len(v.sides):
        return v.sides[team]
    return words.seat_role_of(v, v.seat)


def seat_state(table: Table, hand: Hand, seat: int) -> Mine:
    """What the seat's holder sees of their own (see the module docstring).

    >>> import random
    >>> from engine import make_rules
    >>> rules = make_rules("filicau")
    >>> pack = list(rules.pack); random.Random(1).shuffle(pack)
    >>> hand = Hand(rules, 0, pack)
    >>> table = Table("filicau", rules, 1, ("1", "2", "3", "4"))
    >>> mine = seat_state(table, hand, 1)
    >>> len(mine.cards), mine.seat, sorted(mine.legal) == sorted(mine.cards)
    (8, 1, True)
    """
    v = seat_view(hand, seat)
    order = v.order
    cards = [code(c) for c in v.hand]
    others = [a for a in v.legal if a.kind != "card"]
    together = [a for a in others if words.chosen_together(a)]
    widow = [x for x in v.private.get("widow") or () if isinstance(x, str)]
    # Built as data and read by the model once (see ``bot.web.views.state_data``).
    return Mine.model_validate({
        "seat": seat, "cards": cards,
        "legal": [code(a.value) for a in v.legal if a.kind == "card"],
        "trumps": [code(c) for c in v.hand if order is not None and order.is_trump(c)],
        "choices": [choice(table, a, free=False) for a in others
                    if not words.chosen_together(a)]
        + [choice(table, a, free=True) for a in v.free],
        "together": None if not together else {
            "kind": together[0].kind, "size": len(together[0].value),
            "cards": sorted({code(c) for a in together for c in a.value}, key=cards.index
                            if all(code(c) in cards for a in together for c in a.value)
                            else None),
            "label": spans(words.choose_cards(together[0].kind, len(together[0].value))),
            "widow": [x for x in widow if x in cards]},
        "private": [spans(x) for x in words.private(table, v)],
        # What to do now, as the hand view says it (without its countdown: the Activity
        # counts down itself).
        "prompt": spans(words.prompt(table, v)),
        "notes": [spans(x) for x in words.notes(v)],
        "my_turn": bool(v.legal) and not v.finished,
        "hints": table.hints and bool(v.legal) and not v.finished,
        "role": role(v)})
