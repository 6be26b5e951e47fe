"""What one seat, or everybody, may see of a hand.

The bot renders public messages only from a ``PublicView`` and a player's ephemeral hand only
from that player's ``SeatView``; computer players decide only from a ``SeatView``. Hidden cards
therefore cannot leak by accident: they are not in the object being rendered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.cards import Card
from engine.hand import FINISHED, Hand, HandResult, Trick
from engine.status import Status
from engine.trumps import TrumpOrder

if TYPE_CHECKING:
    # The rules' hooks take views (the rules are above the views): a name for annotations.
    from engine.rules.base import Rules


@dataclass(frozen=True)
class PublicView:
    game: str
    players: int
    dealer: int
    status: Status
    phase: str
    trump: int | None
    #: How cards rank now that trump is known (None before).
    order: TrumpOrder | None
    #: Points of each card in this game.
    card_points: tuple[int, ...]
    #: Cards shown to fix trump, in the order shown.
    shown: tuple[Card, ...]
    #: ``(card, seat)`` for each shown card not yet played: everyone knows who holds it.
    shown_held: tuple[tuple[Card, int], ...]
    #: Team of each seat, where it is public.
    team: tuple[int | None, ...]
    tricks: tuple[Trick, ...]
    leader: int
    trick: tuple[Card, ...]
    to_move: int | None
    actors: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    team_points: tuple[int, ...]
    result: HandResult | None
    #: Once play is over, the cards nobody played (early end shows them).
    unplayed: tuple[tuple[Card, ...], ...] | None
    #: The game's rules with the table's options (public: everybody knows what is played).
    rules: Rules
    #: Where each shown card lay in the pack (public: it was shown as it was dealt or cut).
    shown_at: tuple[int, ...]
    #: Every action so far as the table saw it, in order: ``(seat, action)``, with None for
    #: an action only its seat knows (cards buried face down).
    actions: tuple[tuple[int, Action | None], ...] = ()
    #: Card points taken by each seat (tricks are public, so this is too).
    taken: tuple[int, ...] = ()
    #: How many tricks the hand has (as many as cards dealt to each seat).
    tricks_total: int = 0
    #: The game's own public facts (``Rules.public_info``): the called card, bids, the match
    #: score, face-up cards...
    public: dict[str, Any] = field(default_factory=dict)
    #: What each team is (``Rules.side_roles``): ``("declarer", "defenders")``...; ``()``
    #: where sides have no role.
    sides: tuple[str, ...] = ()

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def last_trick(self) -> Trick | None:
        return self.tricks[-1] if self.tricks else None


@dataclass(frozen=True)
class SeatView(PublicView):
    seat: int = 0
    hand: tuple[Card, ...] = ()
    legal: tuple[Action, ...] = ()
    #: Out-of-turn actions this seat may take now (a partner signal).
    free: tuple[Action, ...] = ()
    #: What only this seat knows beyond its cards (``Rules.private_info``).
    private: dict[str, Any] = field(default_factory=dict)


def _public_fields(hand: Hand) -> dict[str, object]:
    held = []
    for c in hand.shown:
        for seat, cards in enumerate(hand.hands):
            if c in cards:
                held.append((c, seat))
    over = hand.play_over
    rules = hand.rules
    public_action = rules.public_action
    return {
        "game": hand.rules.game,
        "players": hand.n,
        "dealer": hand.dealer,
        "status": hand.status,
        "phase": hand.phase,
        "trump": hand.trump,
        "order": rules.public_order(hand),
        "card_points": hand.rules.points,
        "shown": tuple(hand.shown),
        "shown_held": tuple(held),
        "team": tuple(hand.rules.public_teams(hand)),
        "tricks": tuple(hand.tricks),
        "leader": hand.leader,
        "trick": tuple(hand.trick),
        "to_move": hand.to_move,
        "actors": tuple(hand.actors()),
        "hand_sizes": tuple(len(h) for h in hand.hands),
        "team_points": rules.public_team_points(hand),
        "result": hand.result,
        "unplayed": tuple(tuple(hand.sort_hand(h)) for h in hand.hands) if over else None,
        "rules": hand.rules,
        "shown_at": tuple(hand.pack.index(c) for c in hand.shown),
        "actions": tuple(
            (seat, a if a.kind == "card" else public_action(hand, seat, a))
            for seat, a in hand.actions
        ),
        "taken": tuple(hand.taken),
        "tricks_total": len(hand.dealt[0]) if hand.dealt else 0,
        "public": rules.public_info(hand),
        "sides": rules.side_roles(hand),
    }


def public_view(hand: Hand) -> PublicView:
    return PublicView(**_public_fields(hand))  # type: ignore[arg-type]


def seat_view(hand: Hand, seat: int) -> SeatView:
    return SeatView(
        **_public_fields(hand),  # type: ignore[arg-type]
        seat=seat,
        hand=tuple(hand.sort_hand(hand.hands[seat])),
        legal=tuple(hand.legal_actions(seat)),
        free=hand.free_actions(seat),
        private=hand.rules.private_info(hand, seat),
    )
