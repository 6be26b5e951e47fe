"""Normal and Hard: determinized Monte Carlo search with an exact search over the last tricks.

For each *sample*, the player guesses the hidden hands (``inference.sample``: consistent with
revealed voids and the shown cards), builds the full hand (``engine.determinize``), and scores
every legal action in it: with a quick playout to the end of the hand while many cards are
left, and with an exact minimax (its team against the other) over the last tricks. The action
with the best total wins. Scores are the *status outcome* of the hand for the player's team,
as the rules rank it (``Rules.outcome_value``: becoming or staying masters, not being
enslaved, running away when nothing better is left), with card points only as a small
tie-break.

The number of samples is the strength knob; ``budget`` (seconds) is a cap checked between
samples, so that a slow machine plays a little weaker rather than late. Decisions are a pure
function of the seed and the view: the same view always gives the same action (unless the
time cap cuts the search short).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from engine.actions import Action
from engine.cards import code
from engine.determinize import hand_from_view, plays_so_far
from engine.hand import Hand
from engine.inference import infer, sample
from engine.rules.base import POINTS_WEIGHT, Rules
from engine.status import RecordError, Status
from engine.view import SeatView

Rollout = Callable[[Hand, random.Random], None]


def _actor(hand: Hand) -> int | None:
    """The seat to act next in a playout (the first of several, in an open window)."""
    if hand.to_move is not None:
        return hand.to_move
    actors = hand.actors()
    return actors[0] if actors else None


def random_playout(hand: Hand, rng: random.Random) -> None:
    """Play ``hand`` to the end of play with uniformly random legal actions."""
    rand = rng.random
    while not hand.play_over:
        seat = _actor(hand)
        if seat is None:
            return
        legal = hand.legal_actions(seat)
        hand.apply(seat, legal[int(rand() * len(legal))])


def greedy_playout(hand: Hand, rng: random.Random) -> None:
    """Play to the end with a cheap policy: when following, add points to a partner's trick,
    else win it with the weakest winning card if the trick holds points, else throw the least
    valuable card; leads are random. One move in five is random, to keep the playouts varied."""
    rand = rng.random
    points = hand.rules.points
    n = hand.n
    team = hand.team
    while not hand.play_over:
        seat = _actor(hand)
        if seat is None:
            return
        legal = hand.legal_actions(seat)
        trick = hand.trick
        if len(legal) == 1:
            action = legal[0]
        elif not trick or rand() < 0.2 or legal[0].kind != "card":
            action = legal[int(rand() * len(legal))]
        else:
            order = hand.order
            assert order is not None
            rank = order.led_rank[order.suit[trick[0]]]
            best_i = trick.index(max(trick, key=rank.__getitem__))
            best = rank[trick[best_i]]
            if team[(hand.leader + best_i) % n] == team[seat]:
                action = max(legal, key=lambda a: (points[a[1]], -rank[a[1]]))
            else:
                beat = [a for a in legal if rank[a[1]] > best]
                if beat and (sum(points[c] for c in trick) or
                             any(points[a[1]] for a in beat)):
                    action = min(beat, key=lambda a: rank[a[1]] - 50 * points[a[1]])
                else:
                    action = min(legal, key=lambda a: (points[a[1]], rank[a[1]]))
        hand.apply(seat, action)


class Scorer:
    """The value of a finished (or decided) hand for one team, cached by points taken."""

    def __init__(self, rules: Rules, status: Status, team: int) -> None:
        self.rules = rules
        self.status = status
        self.team = team
        self.cache: dict[tuple[int, ...], float] = {}
        self.total = max(1, rules.total_points)

    def __call__(self, hand: Hand) -> float:
        pts = tuple(hand.team_taken)
        v = self.cache.get(pts)
        if v is None:
            rules = self.rules
            outcome = rules.outcome(self.status, pts)
            mine = pts[self.team]
            v = rules.outcome_value(self.status, outcome, self.team)
            v += POINTS_WEIGHT * (2 * mine - sum(pts)) / self.total
            self.cache[pts] = v
        return v


def exact(hand: Hand, team: int, score: Scorer, alpha: float, beta: float) -> float:
    """Minimax value of ``hand`` (all cards known) for ``team``: its seats maximise, the
    others minimise; alpha-beta pruned."""
    while not hand.play_over:
        seat = hand.to_move
        if seat is None:
            break
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            hand.apply(seat, legal[0])
            continue
        if hand.team[seat] == team:
            best = -9.0
            for a in legal:
                child = hand.copy()
                child.apply(seat, a)
                v = exact(child, team, score, alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            return best
        best = 9.0
        for a in legal:
            child = hand.copy()
            child.apply(seat, a)
            v = exact(child, team, score, alpha, beta)
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best
    return score(hand)


class SearchPlayer:
    """Determinized Monte Carlo (see the module's doc)."""

    def __init__(
        self, name: str, *, samples: int, seed: int | None = 0, budget: float | None = None,
        exact_cards: int = 8, playout: Rollout = greedy_playout,
    ) -> None:
        self.name = name
        self.samples = samples
        self.seed = seed
        self.budget = budget
        #: Search exactly once at most this many cards are left in all hands together.
        self.exact_cards = exact_cards
        self.playout = playout
        #: How many samples the last decision used (for tests and the timing report).
        self.last_samples = 0

    def rng_for(self, view: SeatView) -> random.Random:
        history = " ".join(code(c) for _, c in plays_so_far(view))
        return random.Random(f"{self.seed}|{view.seat}|{view.phase}|{history}")

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        self.last_samples = 0
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        rng = self.rng_for(view)
        seat = view.seat
        knowledge = infer(view)
        team = view.team[seat]
        score: Scorer | None = None
        totals = [0.0] * len(legal)
        # Cards still out, counted from the pack: hands may not show them all (Officers'
        # face-down piles, cards not dealt yet), and the exact search must not start early.
        left = len(view.rules.pack) - len(plays_so_far(view))
        for i in range(self.samples):
            try:
                hand = hand_from_view(view, sample(knowledge, rng))
            except RecordError:
                if i:
                    continue
                # A game whose hand cannot be rebuilt from a view: its rule of thumb decides.
                suggested = view.rules.suggest(view)
                return suggested if suggested in legal else legal[0]
            if team is None:
                team = hand.team[seat]
            if score is None:
                score = Scorer(view.rules, view.status, team)
            if left <= self.exact_cards:
                for j, a in enumerate(legal):
                    child = hand.copy()
                    child.apply(seat, a)
                    totals[j] += exact(child, team, score, -9.0, 9.0)
            else:
                for j, a in enumerate(legal):
                    child = hand.copy()
                    child.apply(seat, a)
                    self.playout(child, rng)
                    totals[j] += score(child)
            self.last_samples = i + 1
            if self.budget is not None and time.perf_counter() - start > self.budget:
                break
        best = max(totals)
        # Ties (e.g. equivalent cards, or a Servant choice that decides nothing) go to the
        # first legal action: the engine lists them in a fixed order.
        return legal[next(j for j, v in enumerate(totals) if v >= best - 1e-9)]
