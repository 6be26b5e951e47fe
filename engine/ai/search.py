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

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from engine.actions import Action
from engine.ai import reading
from engine.cards import code
from engine.determinize import hand_from_view, plays_so_far
from engine.hand import PLAYING, Hand
from engine.inference import Knowledge, infer, sample
from engine.rules.base import POINTS_WEIGHT, Rules
from engine.status import RecordError, Status
from engine.view import SeatView, seat_view

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
    _playout(hand, rng, None)


def aimed_playout(hand: Hand, rng: random.Random) -> None:
    """``greedy_playout`` for seats that want card points; a seat whose team wants none
    (``Rules.wants_points``: Schafkopf's least) ducks under every trick it can and leads its
    weakest card, and a seat that wants points throws them onto the trick of a team that
    wants none. Where every team wants points it plays the same cards with the same random
    numbers as ``greedy_playout``."""
    rules = hand.rules
    # Most games never refuse points: they skip the question on every card.
    refuses = type(rules).wants_points is not Rules.wants_points
    _playout(hand, rng, rules.wants_points if refuses else None)


def _playout(hand: Hand, rng: random.Random, wants: Callable[[Hand, int], bool] | None) -> None:
    """The loop of ``greedy_playout`` (``wants`` None) and ``aimed_playout``."""
    rand = rng.random
    points = hand.rules.points
    team = hand.team
    while not hand.play_over:
        seat = _actor(hand)
        if seat is None:
            return
        legal = hand.legal_actions(seat)
        trick = hand.trick
        order = hand.order
        if len(legal) == 1:
            action = legal[0]
        elif wants is not None and not wants(hand, team[seat]):
            if rand() < 0.2 or legal[0].kind != "card" or order is None:
                action = legal[int(rand() * len(legal))]
            elif not trick:
                power = order.power
                action = min(legal, key=lambda a: (power[a[1]], points[a[1]]))
            else:
                action = _duck(legal, trick, order.led_rank[order.suit[trick[0]]], points)
        elif not trick or rand() < 0.2 or legal[0].kind != "card":
            action = legal[int(rand() * len(legal))]
        else:
            action = _follow(hand, seat, legal, trick, wants)
        hand.apply(seat, action)


def _follow(hand: Hand, seat: int, legal: Sequence[Action], trick: list[int],
            wants: Callable[[Hand, int], bool] | None = None) -> Action:
    """``greedy_playout``'s card when following; with ``wants`` (``Rules.wants_points``),
    points go onto the trick of a team that wants none."""
    order = hand.order
    assert order is not None
    points = hand.rules.points
    team = hand.team
    rank = order.led_rank[order.suit[trick[0]]]
    best_i = trick.index(max(trick, key=rank.__getitem__))
    best = rank[trick[best_i]]
    winner = team[(hand.leader + best_i) % hand.n]
    if winner == team[seat]:
        return max(legal, key=lambda a: (points[a[1]], -rank[a[1]]))
    if wants is not None and not wants(hand, winner):
        return _duck(legal, trick, rank, points)
    beat = [a for a in legal if rank[a[1]] > best]
    if beat and (sum(points[c] for c in trick) or any(points[a[1]] for a in beat)):
        return min(beat, key=lambda a: rank[a[1]] - 50 * points[a[1]])
    return min(legal, key=lambda a: (points[a[1]], rank[a[1]]))


def _duck(legal: Sequence[Action], trick: list[int], rank: tuple[int, ...],
          points: tuple[int, ...]) -> Action:
    """Play under the trick's best card, shedding the most points; when every card would
    win, win with the one that costs least."""
    best = max(rank[c] for c in trick)
    under = [a for a in legal if rank[a[1]] < best]
    if under:
        return max(under, key=lambda a: (points[a[1]], rank[a[1]]))
    return min(legal, key=lambda a: (points[a[1]], rank[a[1]]))


class Scorer:
    """The value of a finished (or decided) hand for one team, cached by points taken."""

    def __init__(self, rules: Rules, status: Status, team: int) -> None:
        self.rules = rules
        self.status = status
        self.team = team
        self.cache: dict[tuple[int, ...], float] = {}
        self.total = max(1, rules.total_points)
        #: The game values whole hands itself (``Rules.hand_value``): more than the points
        #: per team decide its result.
        self.by_hand = type(rules).hand_value is not Rules.hand_value

    def __call__(self, hand: Hand) -> float:
        if self.by_hand:
            return self.rules.hand_value(hand, self.team)
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


class SeatScorer(Scorer):
    """A ``Scorer`` for one seat whose team is known only at the end: a choice before play
    (taking the widow) decides which side the seat is on."""

    def __init__(self, rules: Rules, status: Status, seat: int) -> None:
        super().__init__(rules, status, seat)
        self.seat = seat
        self.by_team: dict[int, Scorer] = {}

    def __call__(self, hand: Hand) -> float:
        team = hand.team[self.seat]
        scorer = self.by_team.get(team)
        if scorer is None:
            scorer = self.by_team[team] = Scorer(self.rules, self.status, team)
        return scorer(hand)


def rule_of_thumb(view: SeatView) -> Action:
    """The game's rule-of-thumb choice (``Rules.suggest``), or else the first legal action."""
    suggested = view.rules.suggest(view)
    return suggested if suggested in view.legal else view.legal[0]


def settle_choices(hand: Hand) -> None:
    """Make the choices left before play (another seat's bid, the taker's burial) as the
    game's rule of thumb would, seeing only what that seat may see."""
    rules = hand.rules
    while hand.phase != PLAYING and not hand.play_over:
        seat = hand.to_move
        if seat is None:
            return
        action = rules.thumb(hand, seat)
        if action is None:
            action = rule_of_thumb(seat_view(hand, seat))
        hand.apply(seat, action)


#: A transposition table for ``exact``: a position at the start of a trick -> the bounds
#: (low, high) proven for its value. Shared by every sample and root action of one decision.
Table = dict[tuple[object, ...], tuple[float, float]]


def _key(hand: Hand) -> tuple[object, ...] | None:
    """The position at a trick's start, for the transposition table: who holds what, who
    leads, who took what, the teams. ``None`` where more state matters (a game's own duties
    or hooks after each trick), so that such games are searched without the table."""
    if hand.trick:
        return None
    rules = hand.rules
    if hand._fast and rules.after_trick is None:
        return (*hand._masks, hand.leader, *hand.taken, *hand.team)
    more = rules.position_key(hand)
    if more is None:
        return None
    return (*hand._masks, hand.leader, *hand.taken, *hand.team, *more)


class OutOfNodes(Exception):
    """An exact search ran past its node allowance (``Allowance``)."""


class Allowance:
    """How many more positions an exact search may open before it gives up."""

    __slots__ = ("left",)

    def __init__(self, nodes: int) -> None:
        self.left = nodes


def exact(hand: Hand, team: int, score: Scorer, alpha: float, beta: float,
          table: Table | None = None, allowance: Allowance | None = None) -> float:
    """Minimax value of ``hand`` (all cards known) for ``team``: its seats maximise, the
    others minimise; alpha-beta pruned. With a ``table``, positions reached again at a
    trick's start (the same cards played in another order, or in another sample) are not
    searched again: their proven bounds are reused. With an ``allowance``, raises
    ``OutOfNodes`` once it has opened that many positions."""
    while not hand.play_over:
        seat = hand.to_move
        if seat is None:
            break
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            hand.apply(seat, legal[0])
            continue
        key = None if table is None else _key(hand)
        if key is not None:
            low, high = table.get(key, (-9.0, 9.0))  # type: ignore[union-attr]
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
        a0, b0 = alpha, beta
        if allowance is not None:
            allowance.left -= len(legal)
            if allowance.left < 0:
                raise OutOfNodes
        if hand.team[seat] == team:
            best = -9.0
            for a in legal:
                child = hand.copy()
                child.apply(seat, a)
                v = exact(child, team, score, alpha, beta, table, allowance)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = 9.0
            for a in legal:
                child = hand.copy()
                child.apply(seat, a)
                v = exact(child, team, score, alpha, beta, table, allowance)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if key is not None:
            low, high = table.get(key, (-9.0, 9.0))  # type: ignore[union-attr]
            # Fail-soft: a value at or below the window's floor is only an upper bound, at or
            # above its ceiling only a lower bound.
            if best <= a0:
                high = min(high, best)
            elif best >= b0:
                low = max(low, best)
            else:
                low = high = best
            table[key] = (low, high)  # type: ignore[index]
        return best
    return score(hand)


Guesser = Callable[[random.Random], Hand]


@dataclass(frozen=True)
class Reading:
    """How a search player reads the play (``engine.ai.reading``): it draws ``pool`` times
    as many guesses as it has samples, weighs each by the model's chance of the others'
    actions in it (each chance mixed with a uniform pick by ``mix``), and searches
    ``samples`` of them drawn again in proportion. The weights are tempered (raised to a
    power of at most 1) until the guesses drawn again are worth at least ``spread`` of the
    pool as an even draw would be, so that a few guesses never stand for all of them."""

    pool: float = 2.0
    #: The pool where a guess is rebuilt by the game's own ``determinize`` (a dear rebuild,
    #: with the bidding replayed): the guesses the search would draw anyway, drawn again.
    rebuilt_pool: float = 1.0
    mix: float = 0.1
    spread: float = 0.1
    #: The power the likelihoods are raised to before drawing (above 1: read more boldly
    #: than the model's own chances say).
    power: float = 1.5


def _plain_guesses(samples: int, guess: Guesser, rng: random.Random
                   ) -> Iterator[Hand | None]:
    for _ in range(samples):
        try:
            yield guess(rng)
        except RecordError:
            yield None


def search_hands(view: SeatView, rng: random.Random, samples: int, guess: Guesser,
                 read: Reading | None = None, deadline: float | None = None
                 ) -> Iterator[Hand | None]:
    """The hands a search's samples search, in order (None where a guess could not be
    rebuilt into a hand). Without ``read`` each is a guess consistent with the view, drawn
    when asked (the random stream shared with the playouts as ever). With it, a pool of
    guesses is drawn first and read (``Reading``); the pool stops early once the clock
    passes ``deadline`` (a ``time.perf_counter`` value)."""
    model = reading.load(view.rules.game) if read is not None else None
    if read is None or model is None or not _others_acted(view):
        yield from _plain_guesses(samples, guess, rng)
        return
    yield from _read_guesses(view, rng, samples, guess, read, model, deadline)


def _others_acted(view: SeatView) -> bool:
    """Has any other seat made a public choice yet (a card, a bid)?"""
    return any(seat != view.seat and action is not None for seat, action in view.actions) \
        or any(seat != view.seat for seat, _ in plays_so_far(view))


def _common_rebuild(view: SeatView) -> bool:
    """Does the game rebuild its hands the common way (``engine.determinize``), with every
    seat's team public? Then a guess can be read before it is built."""
    return type(view.rules).determinize is Rules.determinize and None not in view.team


def _read_guesses(view: SeatView, rng: random.Random, samples: int, guess: Guesser,
                  read: Reading, model: reading.ReadingModel, deadline: float | None
                  ) -> Iterator[Hand | None]:
    reader = reading.reader_from_view(model, view, read.mix)
    n = view.players
    own = sum(1 << c for c in view.hand)
    if _common_rebuild(view):
        pool = max(samples, math.ceil(read.pool * samples))
        knowledge: Knowledge = infer(view)
        hidden: list[dict[int, list[int]]] = []
        for _ in range(pool):
            hidden.append(sample(knowledge, rng))
            if deadline is not None and time.perf_counter() > deadline:
                break
        held = np.zeros((len(hidden), n), dtype=np.uint64)
        for g, h in enumerate(hidden):
            for s, cards in h.items():
                held[g, s] = sum(1 << c for c in cards)
            held[g, view.seat] = own
        team = np.tile(np.array(view.team, dtype=np.int64), (len(hidden), 1))
        weights = reader.card_log_likelihoods(held, team)
        chosen = _redraw(weights, samples, rng, read)
        built: dict[int, Hand | None] = {}
        for i in chosen:
            if i not in built:
                try:
                    built[i] = hand_from_view(view, hidden[i])
                except RecordError:
                    built[i] = None
            hand = built[i]
            yield None if hand is None else hand.copy()
        return
    hands: list[Hand] = []
    for i in range(max(samples, math.ceil(read.rebuilt_pool * samples))):
        try:
            hands.append(guess(rng))
        except RecordError:
            if i == 0:
                yield None  # a game whose hand cannot be rebuilt from this view
                return
        if deadline is not None and time.perf_counter() > deadline:
            break
    if not hands:
        yield None
        return
    weights = reader.card_log_likelihoods(reading.held_masks(hands), reading.team_matrix(hands))
    if model.choices is not None and any(
            seat != view.seat and a is not None and a.kind != "card" for seat, a in view.actions):
        weights = weights + reader.choice_log_likelihoods(hands, len(view.actions))
    for i in _redraw(weights, samples, rng, read):
        yield hands[i].copy()


def _redraw(weights: np.ndarray, samples: int, rng: random.Random, read: Reading) -> list[int]:
    """``samples`` indexes of the pool drawn again by ``weights`` (log), tempered."""
    temper = read.power
    while temper > 0.02 and reading.effective_share(temper * weights) < read.spread:
        temper *= 0.7
    return reading.resample(temper * weights, samples, rng.random())


class SearchPlayer:
    """Determinized Monte Carlo (see the module's doc)."""

    def __init__(
        self, name: str, *, samples: int, seed: int | None = 0, budget: float | None = None,
        exact_cards: int = 8, playout: Rollout = greedy_playout, transpositions: bool = True,
        deep_cards: int = 0, deep_nodes: int = 0, choices: bool = False,
        reading: Reading | None = None, race: tuple[int, float] | None = None,
    ) -> None:
        self.name = name
        self.samples = samples
        self.seed = seed
        self.budget = budget
        #: Search exactly once at most this many cards are left in all hands together.
        self.exact_cards = exact_cards
        #: Between ``exact_cards`` and ``deep_cards`` cards left, search exactly too if the
        #: first sample's exact search opens at most ``deep_nodes`` positions (else play out):
        #: a cheap endgame is solved, an expensive one does not slow the decision down. A
        #: count, not a clock, so decisions stay a function of the seed and the view.
        self.deep_cards = deep_cards
        self.deep_nodes = deep_nodes
        self.playout = playout
        #: Share proven endgame values between samples (``exact``'s table): the same values,
        #: found faster. Off only to time the levels as they were before.
        self.transpositions = transpositions
        #: Search the choices before play that the game can rebuild
        #: (``Rules.searched_choices``: taking the widow): each sample plays every choice
        #: out, later choices by rule of thumb. Off: the rule of thumb decides them.
        self.choices = choices
        #: Read the play (``Reading``): search guesses drawn by how well they explain the
        #: others' actions so far. None: every consistent guess alike.
        self.reading = reading
        #: ``(every, z)``: every ``every`` samples, stop playing out an action that trails
        #: the leading one by more than ``z`` standard errors of their paired difference (the
        #: same guesses played both ways): the samples go to the actions still in the race.
        #: None: every action is played out in every sample.
        self.race = race
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
        choice = view.phase in view.rules.searched_choices
        if choice and not self.choices:
            return rule_of_thumb(view)
        start = time.perf_counter()
        rng = self.rng_for(view)
        seat = view.seat
        guess = self.guesser(view)
        team = view.team[seat]
        score: Scorer | None = None
        if choice:
            score = SeatScorer(view.rules, view.status, seat)
        totals = [0.0] * len(legal)
        # Cards still out, counted from the pack: hands may not show them all (Officers'
        # face-down piles, cards not dealt yet), and the exact search must not start early.
        left = len(view.rules.pack) - len(plays_so_far(view))
        table: Table | None = {} if self.transpositions else None
        # Exact values by the sample's deal: a guess drawn again (few hidden cards left, or
        # Officers' few face-down ones) has the same values, so it is searched once.
        solved: dict[tuple[int, ...], dict[int, float]] = {}
        use_exact: bool | None = None if self.exact_cards < left else True
        if choice:
            # The exact search plays for a fixed team, and before play there is none yet.
            use_exact = False
        race = self.race
        running = list(range(len(legal)))
        rows: list[list[float]] = []
        deadline = None if self.budget is None else start + self.budget / 4
        hands = search_hands(view, rng, self.samples, guess, self.reading, deadline)
        for i, hand in enumerate(hands):
            if hand is None:
                if i:
                    continue
                # A game whose hand cannot be rebuilt from a view: its rule of thumb decides.
                return rule_of_thumb(view)
            if team is None:
                team = hand.team[seat]
            if score is None:
                score = Scorer(view.rules, view.status, team)
            if use_exact is None and left <= self.deep_cards:
                use_exact = self._exact_is_cheap(hand, seat, legal, team, score, table)
            row = [0.0] * len(legal)
            if not choice and (left <= self.exact_cards or use_exact):
                values = solved.get(hand.pack)
                if values is None:
                    values = solved[hand.pack] = {}
                for j in running:
                    v = values.get(j)
                    if v is None:
                        child = hand.copy()
                        child.apply(seat, legal[j])
                        v = values[j] = exact(child, team, score, -9.0, 9.0, table)
                    row[j] = v
                    totals[j] += v
            else:
                for j in running:
                    child = hand.copy()
                    child.apply(seat, legal[j])
                    if choice:
                        settle_choices(child)
                    self.playout(child, rng)
                    row[j] = v = score(child)
                    totals[j] += v
            if race is not None:
                rows.append(row)
                if len(rows) % race[0] == 0:
                    running = _still_running(running, rows, totals, race[1])
                    if len(running) == 1:
                        self.last_samples = i + 1
                        break  # the race is won: more samples would not change it
            self.last_samples = i + 1
            if self.budget is not None and time.perf_counter() - start > self.budget:
                break
        if len(running) < len(legal):
            # Actions out of the race have fewer samples: only those still in it compete.
            totals = [t if j in running else -math.inf for j, t in enumerate(totals)]
        best = max(totals)
        # Ties (e.g. equivalent cards, or a Servant choice that decides nothing) go to the
        # first legal action: the engine lists them in a fixed order.
        return legal[next(j for j, v in enumerate(totals) if v >= best - 1e-9)]

    def _exact_is_cheap(self, hand: Hand, seat: int, legal: tuple[Action, ...], team: int,
                        score: Scorer, table: Table | None) -> bool:
        """Does this sample's exact search fit in ``deep_nodes`` positions? (Its proven
        values stay in the table, so the work is not lost when it does.)"""
        allowance = Allowance(self.deep_nodes)
        # A game that tells its positions apart itself (``Rules.position_key``) is counted
        # without the table, as before it did so: which search a decision runs, and so the
        # decision, stays what the seed made it.
        if type(hand.rules).position_key is not Rules.position_key:
            table = None
        try:
            for a in legal:
                child = hand.copy()
                child.apply(seat, a)
                exact(child, team, score, -9.0, 9.0, table, allowance)
        except OutOfNodes:
            return False
        return True

    def guesser(self, view: SeatView) -> Callable[[random.Random], Hand]:
        """What each sample searches: a full hand guessed from the view (``inference``).
        Raises ``RecordError`` when the guess cannot be rebuilt into a hand."""
        knowledge = infer(view)
        return lambda rng: hand_from_view(view, sample(knowledge, rng))


def _still_running(running: list[int], rows: list[list[float]], totals: list[float],
                   z: float) -> list[int]:
    """The actions of ``running`` that do not trail the leader by more than ``z`` standard
    errors of their paired differences over the samples ``rows``."""
    leader = max(running, key=lambda j: (totals[j], -j))
    out = []
    n = len(rows)
    for j in running:
        if j != leader:
            diffs = [r[leader] - r[j] for r in rows]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean > 0 and mean * mean * n > z * z * var:
                continue
        out.append(j)
    return out


class OpenHandPlayer(SearchPlayer):
    """The same search with every card in sight: each sample is the true hand, so only the
    playouts vary (and the exact endgame is the true one). Not a level anyone can play
    against: the arena shows it the hand (``see``) to measure what hidden cards cost.

    >>> from engine import Match, make_rules, seat_view
    >>> hand = Match(make_rules("filicau"), seed=3).deal()
    >>> player = OpenHandPlayer("hard_open", samples=4)
    >>> player.see(hand)
    >>> player.choose(seat_view(hand, hand.to_move)) in hand.legal_actions()
    True
    """

    seen: Hand | None = None

    def see(self, hand: Hand) -> None:
        """Look at the real hand (all of it) before the next decision."""
        self.seen = hand

    def guesser(self, view: SeatView) -> Callable[[random.Random], Hand]:
        hand = self.seen
        if hand is None or len(hand.actions) != len(view.actions) or hand.to_move != view.to_move:
            raise ValueError("an open-hand player must be shown the hand it decides in")
        return lambda rng: hand.copy()
