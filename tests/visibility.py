"""Which cards a message may name: the rule both Discord fakes check every message against.

A card may appear in a message only if its audience may know it: everybody may know the
cards shown, played, named in public facts or public actions (a called card), and all of
them once play is over; a seated player also knows their own cards, their private facts
(cards they buried) and the cards their own choices name (the Old Man's call buttons come
from his own hand only).
"""

from __future__ import annotations

import contextlib
from typing import Any

from engine import Hand, PublicView, action_from_json, action_to_json, public_view, seat_view
from engine.cards import CardError, card
from engine.record import start


def cards_named(value: Any) -> set[int]:
    """Every card code in a view's plain-data facts (public or private info, actions)."""
    out: set[int] = set()
    if isinstance(value, str):
        with contextlib.suppress(CardError):
            out.add(card(value))
    elif isinstance(value, dict):
        for k, v in value.items():
            out |= cards_named(k) | cards_named(v)
    elif isinstance(value, list | tuple):
        for v in value:
            out |= cards_named(v)
    return out


def public_cards(view: PublicView) -> set[int]:
    out = set(view.shown) | set(view.trick) | {c for t in view.tricks for c in t.cards}
    for cards in view.unplayed or ():
        out |= set(cards)
    out |= cards_named(view.public)
    for _, action in view.actions:
        if action is not None:
            out |= cards_named(action_to_json(action))
    return out


def choice_cards(hand: Hand, seat: int) -> set[int]:
    """The cards named by ``seat``'s own choices now (not card plays)."""
    own = seat_view(hand, seat)
    return {c for action in (*own.legal, *own.free) if action.kind != "card"
            for c in cards_named(action_to_json(action))}


def choices_so_far(record: dict[str, Any], seat: int) -> set[int]:
    """The cards named by ``seat``'s own choices at any point of a recorded hand: a message
    drawn a moment ago may still show choices the seat had then."""
    hand = start(record)
    out = choice_cards(hand, seat)
    for obj in record["actions"]:
        hand.apply(obj["seat"], action_from_json(obj))
        out |= choice_cards(hand, seat)
    return out


def hidden_from(hand: Hand, seat: int | None, *, also: set[int] = frozenset()) -> set[int]:
    """The cards of the game that someone at ``seat`` (None: anybody) may not know now;
    ``also``: cards the seat may name besides (its earlier choices)."""
    seen = public_cards(public_view(hand)) | set(also)
    if seat is not None:
        own = seat_view(hand, seat)
        seen |= set(own.hand) | cards_named(own.private) | choice_cards(hand, seat)
    return set(hand.pack) - seen


def holder(hand: Hand, c: int) -> str:
    seat = next((s for s, cards in enumerate(hand.hands) if c in cards), None)
    return "the pack" if seat is None else f"seat {seat}"
