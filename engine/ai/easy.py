"""Easy: a rule-based player, instant, with the table's rules of thumb.

- plays low when the trick is lost (its least valuable card: no points, no trump, weakest);
- takes Aces and Tens when it can: a trick with points in it (or a card of its own with
  points to save) is won with the cheapest card that wins, a plain card before a trump;
- keeps trumps for the points: it does not trump a trick that holds no points;
- helps its partner's trick: when the partner is winning, it adds a card with points;
- leads a plain Ace, else a low plain card.

Written against ``SeatView`` only (card points, trump order, teams), so it plays any game of
the family; a non-card choice (a Servant, a bid, a call) is the game's own rule of thumb
(``Rules.suggest``), else the first legal action.
"""

from __future__ import annotations

from engine.actions import Action
from engine.cards import ACE, TRUMP
from engine.view import SeatView


class EasyPlayer:
    name = "easy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        order = view.order
        if len(legal) == 1:
            return legal[0]
        suggested = view.rules.suggest(view)
        if suggested in legal:
            # The game's own rule of thumb (a bid, a call; or a card where the aim is not
            # the usual one, as in "least", where points are to be avoided).
            return suggested
        if order is None or any(a.kind != "card" for a in legal):
            return legal[0]
        points = view.card_points
        suit, power = order.suit, order.power
        cards = [a.value for a in legal]

        def low(c: int) -> tuple[int, bool, int]:
            # What a card costs to throw away: points, then being a trump, then strength.
            return (points[c], suit[c] == TRUMP, power[c])

        def pick(c: int) -> Action:
            return next(a for a in legal if a.value == c)

        if not view.trick:
            aces = [c for c in cards if suit[c] != TRUMP and c % 8 == ACE]
            if aces:
                return pick(aces[0])
            plain = [c for c in cards if suit[c] != TRUMP and not points[c]]
            return pick(min(plain or cards, key=low))
        trick = view.trick
        n = view.players
        win_i = order.winner(trick)
        best = trick[win_i]
        winner = (view.leader + win_i) % n
        # A secret partner knows its own side before the table does (``private["team"]``).
        mine = view.team[view.seat]
        if mine is None:
            mine = view.private.get("team")
        last = len(trick) == n - 1
        if mine is not None and view.team[winner] == mine:
            # The partner holds the trick: add points if it looks safe (last to play, or the
            # partner's card is a trump nobody else is likely to beat), else throw low.
            safe = last or suit[best] == TRUMP or len(trick) == n - 2
            givers = [c for c in cards if points[c] and suit[c] != TRUMP]
            if safe and givers:
                return pick(max(givers, key=lambda c: (points[c], -power[c])))
            return pick(min(cards, key=low))
        in_trick = sum(points[c] for c in trick)
        winners = [c for c in cards if order.beats(c, best)]
        plain_winners = [c for c in winners if suit[c] != TRUMP]
        if plain_winners:
            # Following suit and winning: the Ace or Ten if it is the winner, points taken.
            top = max(plain_winners, key=lambda c: (points[c], power[c]))
            if points[top] or in_trick:
                return pick(top)
            return pick(min(plain_winners, key=low))
        trump_winners = [c for c in winners if suit[c] == TRUMP]
        if trump_winners and in_trick:
            return pick(min(trump_winners, key=lambda c: (points[c], power[c])))
        return pick(min(cards, key=low))
