"""One way for the game tests to set up a deal and script its play.

``deal`` lays out a pack so that each seat is dealt the cards given for it, in the order
dealt (the game's ``Rules.holders`` says which pack index goes to whom; a widow or skat,
seat -1, takes ``widow``'s cards); ``act`` applies a script of actions, each by the seat to
move: card codes, or ``kind`` / ``kind:VALUE`` in the record notation (``pass``, ``take``,
``solo:H``, ``call:GA``).

>>> hand = deal("officers", ["EA E10 EK E9 E8 E7 G8 G7 EO GO HO SO EU GU HU SU",
...                          "HA H10 HK H9 H8 H7 G10 G9 SA S10 SK S9 S8 S7 GA GK"], dealer=1)
>>> act(hand, "EO S7")
>>> hand.tricks[0].winner
0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import Action, Hand, Status, action_from_json, make_rules
from engine.cards import card, code

#: The pseudo-seat of a widow (skat) in ``Rules.holders``.
WIDOW = -1


def pack_for(game: str, hands: Sequence[str], dealer: int = 0, widow: str = "",
             **options: Any) -> list[str]:
    """The pack (codes, top card first) that deals ``hands[s]`` to seat ``s``."""
    rules = make_rules(game, options)
    cards = {s: iter(h.split()) for s, h in enumerate(hands)}
    cards[WIDOW] = iter(widow.split())
    return [next(cards[seat]) for seat in rules.holders(dealer)]


def deal(game: str, hands: Sequence[str], dealer: int = 0, status: Status | None = None,
         widow: str = "", **options: Any) -> Hand:
    """The hand in which seat ``s`` is dealt ``hands[s]`` (codes, in the order dealt)."""
    pack = [card(c) for c in pack_for(game, hands, dealer, widow, **options)]
    return Hand(make_rules(game, options), dealer, pack, status or Status())


def action(token: str) -> Action:
    """A card code, ``kind`` (a flag action) or ``kind:VALUE`` in the record notation."""
    kind, _, value = token.partition(":")
    if not value:
        try:
            return Action("card", card(token))
        except ValueError:
            return action_from_json({kind: True})
    return action_from_json({kind: value})


def act(hand: Hand, *script: str) -> None:
    """Apply each token (``|`` may separate tricks) by the seat to move."""
    for group in script:
        for token in group.replace("|", " ").split():
            seat = hand.to_move
            assert seat is not None, f"nobody is to move for {token}"
            hand.apply(seat, action(token))


def legal_cards(hand: Hand, seat: int | None = None) -> list[str]:
    """The cards ``seat`` (default: the seat to move) may play, as sorted codes."""
    return sorted(code(a.value) for a in hand.legal_actions(seat) if a.kind == "card")
