"""A full hand consistent with what one seat sees: a *determinization* for computer players.

Search players do not see the other hands; they guess them (``engine.inference``) and
play the guesses out. ``hand_from_view`` turns a seat's view plus a guess of every other
seat's unplayed cards into a real ``Hand``: the pack is rebuilt so that each seat is dealt
the cards it played plus the cards it holds, the shown cards lie where they were shown, and
the actions seen so far are replayed. Any game whose dealing is described by
``Rules.holders`` and whose actions so far are the tricks in the view works unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.actions import PLAY, IllegalAction
from engine.cards import Card
from engine.hand import Hand
from engine.status import RecordError
from engine.view import PublicView, SeatView


def plays_so_far(view: PublicView) -> list[tuple[int, Card]]:
    """Every card played in the hand, in order, with the seat that played it."""
    n = view.players
    out = [((t.leader + i) % n, c) for t in view.tricks for i, c in enumerate(t.cards)]
    out += [((view.leader + i) % n, c) for i, c in enumerate(view.trick)]
    return out


def hand_from_view(view: SeatView, hidden: Mapping[int, Sequence[Card]]) -> Hand:
    """The hand in which ``view.seat`` holds ``view.hand`` and every other seat ``s`` holds
    ``hidden[s]`` (its unplayed cards, shown cards it still holds included), with the play
    so far replayed. Raises ``RecordError`` when the guess cannot match the view.

    A game with hidden actions or cards dealt elsewhere than to seats (a widow) rebuilds the
    hand itself (``Rules.determinize``)."""
    rules = view.rules
    own = rules.determinize(view, hidden)
    if own is not None:
        return own
    n = view.players
    plays = plays_so_far(view)
    dealt: list[list[Card]] = [[] for _ in range(n)]
    for seat, c in plays:
        dealt[seat].append(c)
    for seat in range(n):
        held = view.hand if seat == view.seat else hidden.get(seat, ())
        if len(held) != view.hand_sizes[seat]:
            raise RecordError(f"seat {seat} must hold {view.hand_sizes[seat]} cards")
        dealt[seat].extend(held)
    holders = rules.holders(view.dealer)
    pack: list[Card | None] = [None] * len(holders)
    placed = set()
    for c, i in zip(view.shown, view.shown_at, strict=True):
        pack[i] = c
        placed.add(c)
    for seat in range(n):
        cards = [c for c in dealt[seat] if c not in placed]
        free = [i for i, h in enumerate(holders) if h == seat and pack[i] is None]
        if len(cards) != len(free):
            raise RecordError(f"seat {seat} cannot have been dealt these cards")
        for i, c in zip(free, cards, strict=True):
            pack[i] = c
    hand = Hand(rules, view.dealer, pack, view.status)  # type: ignore[arg-type]
    if view.actions:
        try:
            for seat, action in view.actions:
                if action is None:
                    raise RecordError("a hidden action needs the game's own determinize")
                hand.apply(seat, action)
        except IllegalAction as e:
            raise RecordError(f"the guess cannot replay the view: {e}") from None
    else:
        for seat, c in plays:
            hand.apply(seat, PLAY[c])
    if hand.phase != view.phase or hand.to_move != view.to_move:
        raise RecordError("the replayed hand does not reach the view's state")
    return hand


def rebuild(view: SeatView, plays: Sequence[tuple[int, Card]], held: Sequence[Sequence[Card]],
            dealt: Sequence[Sequence[Card]] | None = None) -> Hand:
    """The hand in which each seat was dealt what it played and holds (or ``dealt``, in the
    order dealt), with the view's actions replayed: the rebuild for games whose views carry
    every action (Wendish, Officers' Schafkopf) and whose ``holders`` place every card.
    Raises ``RecordError`` when the guess cannot match the view."""
    rules = view.rules
    n = view.players
    if dealt is None:
        cards_of: list[list[Card]] = [[] for _ in range(n)]
        for seat, c in plays:
            cards_of[seat].append(c)
        for seat in range(n):
            cards_of[seat].extend(held[seat])
        dealt = cards_of
    holders = rules.holders(view.dealer)
    pack: list[Card] = [0] * len(holders)
    nxt = [iter(d) for d in dealt]
    try:
        for i, seat in enumerate(holders):
            pack[i] = next(nxt[seat])
    except StopIteration:
        raise RecordError("the guess does not fill the deal") from None
    hand = Hand(rules, view.dealer, pack, view.status)
    try:
        for seat, action in view.actions:
            if action is None:
                raise RecordError("a hidden action cannot be replayed")
            hand.apply(seat, action)
    except IllegalAction as e:
        raise RecordError(f"the guess cannot replay the view: {e}") from None
    if hand.phase != view.phase or hand.to_move != view.to_move:
        raise RecordError("the replayed hand does not reach the view's state")
    return hand
