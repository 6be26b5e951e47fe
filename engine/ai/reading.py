"""Reading the play: how likely the others' actions so far are, had they held a guessed hand.

The search players guess the hidden hands (``engine.inference``) consistently with what the
table has seen: voids, shown cards. That treats every consistent guess alike, as if the
others had played at random. They did not: a player who threw an Ace on his opponent's
trick had no low card of the suit; a Wenz is declared with Unters. ``ReadingModel`` is a
model of how players choose, fitted to self-play records of the game (``engine.tools.train``),
and ``log_likelihoods`` scores each guess by the model's chance of every action the other
seats took so far, had the guess been the deal: the product, over their decisions, of the
chance the model gives the action actually taken, among those the guessed hand allowed.
Guesses are then drawn again in proportion to it (``engine.ai.search``), the policy-based
inference of the strongest Skat programs (Rebstock, Solinas, Buro and Sturtevant, "Policy
Based Inference in Trick-Taking Card Games", 2019).

The model has two small networks (one hidden layer each), run in numpy:

- **cards**: for every card the actor may play, a few dozen features of it seen with the
  actor's hand (does it win the trick, is it the lowest of its suit in the hand, how many
  higher cards of its suit are still out, is a partner winning...), a score per card and a
  softmax over the cards allowed (by following suit and trumping: a game's further duties
  are left out, so the set may be a little larger than the rules allow);
- **choices** (bids, calls, doublings): the actor's cards, the action and the actor's place
  after the dealer, a score per legal action and a softmax over them.

Each guess is scored for all its decisions at once (arrays over guesses and decisions), so
that reading 200 guesses costs a few milliseconds. Weights are package data
(``engine/ai/models/GAME.npz``, with ``GAME.json``: how they were made).

>>> model = load("filicau")
>>> model is not None and model.game == "filicau"
True
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from engine.actions import Action, IllegalAction
from engine.cards import TRUMP, Card
from engine.determinize import plays_so_far
from engine.hand import Hand
from engine.trumps import TrumpOrder
from engine.view import SeatView

F64 = npt.NDArray[np.float64]
U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

#: Features of a card play (``card_features``): their names, in order.
CARD_FEATURES = (
    "trump", "points", "point_card", "rank_in_suit",
    "mine_in_suit", "mine_higher", "mine_lower", "lowest_mine", "highest_mine", "mine_trumps",
    "hand_size", "mine_suit_points",
    "out_higher", "out_lower", "master", "out_in_suit", "out_trumps",
    "leads", "follows_suit", "trumps_in", "discards", "wins", "cheapest_winner",
    "friend_winning", "last", "stake", "wins_stake", "gives_friend", "gives_enemy",
    "wins_last", "lowest_legal", "most_points_legal", "legal_count",
    "enemy_void_lead", "friend_void_lead", "progress", "our_points", "their_points",
    "masters", "suit_played",
)

_COLUMNS = {name: i for i, name in enumerate(CARD_FEATURES)}

#: Places after the dealer a choice's features tell apart (a larger table folds the rest).
PLACES = 6

#: The log weight of a guess in which an action the table saw could not have been taken (a
#: guess the game's own rebuild let through): far below any the model gives, yet finite, so
#: that a pool of nothing else is still drawn from evenly.
IMPOSSIBLE = -50.0

#: Rows scored at a time (``Net.scores``).
BLOCK = 256


# -- the model --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Net:
    """One hidden layer of rectified units and a linear term: ``relu(x W + b) . w + x . v``."""

    w: npt.NDArray[np.float32]
    b: npt.NDArray[np.float32]
    out: npt.NDArray[np.float32]
    linear: npt.NDArray[np.float32]

    def scores(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        out = np.empty(len(x), dtype=np.float32)
        # In blocks small enough that the linear algebra library keeps to one thread: on a
        # busy machine its threads cost ten times the work they share (and count as CPU).
        for at in range(0, len(x), BLOCK):
            part = np.ascontiguousarray(x[at:at + BLOCK])
            h = part @ self.w
            h += self.b
            np.maximum(h, 0.0, out=h)
            out[at:at + BLOCK] = h @ self.out + part @ self.linear
        return out


@dataclass(frozen=True)
class ReadingModel:
    game: str
    cards: Net
    #: For the choices that are not cards (None: the game has none worth reading).
    choices: Net | None
    #: A choice's key (``choice_key``) -> its index among the choice features.
    vocabulary: dict[str, int]
    #: The size of the card universe the choice features encode hands in.
    universe: int


def choice_key(phase: str, action: Action) -> str:
    """How a choice is named to the model: its phase and the action (``announce|dad True``)."""
    try:
        return _KEYS[phase, action]
    except KeyError:
        if len(_KEYS) > 20_000:
            _KEYS.clear()  # a bot running for months: the Armut's card triples add up
        key = _KEYS[phase, action] = f"{phase}|{action}"
        return key
    except TypeError:  # an action whose value is not hashable
        return f"{phase}|{action}"


#: ``choice_key``'s names made so far: reading a pool of guesses names the same few actions
#: thousands of times.
_KEYS: dict[tuple[str, Action], str] = {}


def nets_from_arrays(arrays: dict[str, np.ndarray]) -> tuple[Net, Net | None]:
    def net(prefix: str) -> Net | None:
        if f"{prefix}_w" not in arrays:
            return None
        return Net(*(arrays[f"{prefix}_{k}"].astype(np.float32)
                     for k in ("w", "b", "out", "linear")))

    cards = net("cards")
    assert cards is not None
    return cards, net("choices")


def model_from_arrays(game: str, arrays: dict[str, np.ndarray]) -> ReadingModel:
    cards, choices = nets_from_arrays(arrays)
    words = [str(w) for w in arrays.get("vocabulary", np.array([], dtype=str))]
    universe = int(arrays["universe"]) if "universe" in arrays else 32
    return ReadingModel(game, cards, choices, {w: i for i, w in enumerate(words)}, universe)


@lru_cache(maxsize=32)
def load(game: str) -> ReadingModel | None:
    """The shipped model of ``game`` (package data), or None when there is none."""
    try:
        data = (resources.files("engine.ai") / "models" / f"{game}.npz").read_bytes()
    except (FileNotFoundError, OSError):
        return None
    with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
        return model_from_arrays(game, dict(arrays))


# -- what the table saw, decision by decision ------------------------------------------------


@dataclass(frozen=True)
class Tables:
    """Per-card look-ups of one trump order, as arrays (``tables``)."""

    suit: I64
    power: I64
    points: F64
    #: Cards of the same suit that are higher (lower) than the card, within the pack.
    higher: U64
    lower: U64
    suit_mask: U64
    #: ``led_rank[s, c]`` as ``TrumpOrder.led_rank``.
    led_rank: I64
    trumps: np.uint64
    pack: np.uint64
    #: Masks of the cards worth each distinct point value (to sum a hand's points).
    point_values: tuple[tuple[float, np.uint64], ...]
    top_points: float
    universe: int
    #: ``by_suit[s]``: the pack's cards that follow suit ``s`` (``TRUMP`` included).
    by_suit: U64
    pack_size: int


@lru_cache(maxsize=64)
def tables(order: TrumpOrder, pack: tuple[Card, ...], points: tuple[int, ...]) -> Tables:
    universe = len(order.suit)
    in_pack = set(pack)
    suit = np.array(order.suit, dtype=np.int64)
    power = np.array(order.power, dtype=np.int64)
    higher = np.zeros(universe, dtype=np.uint64)
    lower = np.zeros(universe, dtype=np.uint64)
    for c in pack:
        for d in pack:
            if order.suit[d] == order.suit[c]:
                if order.power[d] > order.power[c]:
                    higher[c] |= np.uint64(1 << d)
                elif order.power[d] < order.power[c]:
                    lower[c] |= np.uint64(1 << d)
    pack_mask = sum(1 << c for c in pack)
    suit_mask = np.array([order.masks[order.suit[c]] & pack_mask for c in range(universe)],
                         dtype=np.uint64)
    pts = np.array([points[c] if c in in_pack else 0 for c in range(universe)], dtype=float)
    values = sorted({float(points[c]) for c in pack if points[c]})
    point_values = tuple((v, np.uint64(sum(1 << c for c in pack if points[c] == v)))
                         for v in values)
    return Tables(suit, power, pts, higher, lower, suit_mask,
                  np.array(order.led_rank, dtype=np.int64),
                  np.uint64(order.masks[TRUMP] & pack_mask), np.uint64(pack_mask),
                  point_values, max(1.0, max(pts)), universe,
                  np.array([order.masks[s] & pack_mask for s in range(TRUMP + 1)],
                           dtype=np.uint64), len(pack))


@dataclass
class Plays:
    """The card plays of a hand so far, each with what the table knew when it was made.

    One entry per card played: ``seat`` played ``card`` as the ``pos``-th card of a trick
    led in ``led`` (-1: it led), when the trick's best card so far ranked ``best_rank``
    (``led_rank``) and was ``best_seat``'s, with ``stake`` points in the trick; ``gone``: the
    cards played before it; ``taken[i, s]``: points seat ``s`` had taken; ``void[i, s]``: the
    suits seat ``s`` had shown it lacks; ``later[i]``: the cards the seat played from this
    one on (its hand then, less what it still holds)."""

    seat: I64
    card: I64
    led: I64
    pos: I64
    best_rank: I64
    best_seat: I64
    best_card: I64
    stake: F64
    gone: U64
    taken: F64
    void: I64
    later: U64

    def __len__(self) -> int:
        return len(self.seat)


def plays(cards: Sequence[tuple[int, Card]], winners: Sequence[int], order: TrumpOrder,
          points: Sequence[int], n: int, must_trump: bool) -> Plays:
    """``Plays`` of a hand's card plays in order (``engine.determinize.plays_so_far``), with
    the winner of each trick complete among them."""
    m = len(cards)
    seat = np.zeros(m, dtype=np.int64)
    card = np.zeros(m, dtype=np.int64)
    led = np.zeros(m, dtype=np.int64)
    pos = np.zeros(m, dtype=np.int64)
    best_rank = np.zeros(m, dtype=np.int64)
    best_seat = np.zeros(m, dtype=np.int64)
    best_card = np.zeros(m, dtype=np.int64)
    stake = np.zeros(m)
    gone = np.zeros(m, dtype=np.uint64)
    taken = np.zeros((m, n))
    void = np.zeros((m, n), dtype=np.int64)
    later = np.zeros(m, dtype=np.uint64)
    suit = order.suit
    taken_now = [0.0] * n
    void_now = [0] * n
    gone_now = 0
    trick: list[tuple[int, Card]] = []
    lead_suit = -1
    for i, (s, c) in enumerate(cards):
        k = len(trick)
        seat[i], card[i], pos[i] = s, c, k
        gone[i] = gone_now
        taken[i] = taken_now
        void[i] = void_now
        if k == 0:
            led[i] = -1
            lead_suit = suit[c]
        else:
            led[i] = lead_suit
            rank = order.led_rank[lead_suit]
            top = max(trick, key=lambda sc: rank[sc[1]])
            best_rank[i], best_seat[i], best_card[i] = rank[top[1]], top[0], top[1]
            stake[i] = sum(points[x] for _, x in trick)
            if suit[c] != lead_suit:
                void_now[s] |= 1 << lead_suit
                if must_trump and lead_suit != TRUMP and suit[c] != TRUMP:
                    void_now[s] |= 1 << TRUMP
        trick.append((s, c))
        gone_now |= 1 << c
        if len(trick) == n:
            t = i // n
            if t < len(winners):
                taken_now[winners[t]] += sum(points[x] for _, x in trick)
            trick = []
    after = [0] * n
    for i in range(m - 1, -1, -1):
        after[cards[i][0]] |= 1 << cards[i][1]
        later[i] = after[cards[i][0]]
    return Plays(seat, card, led, pos, best_rank, best_seat, best_card, stake, gone, taken,
                 void, later)


def _count(x: U64) -> F64:
    return np.bitwise_count(x).astype(np.float64)


def _points_of(tab: Tables, masks: U64) -> F64:
    total = np.zeros(masks.shape)
    for value, mask in tab.point_values:
        total += value * _count(masks & mask)
    return total


@dataclass
class Rows:
    """The feature rows of a set of decisions: one row per legal choice, the rows of one
    decision together (``start``: where each decision's rows begin), and the row of the
    choice made in each decision (``chosen``; -1 where the decision's rows lack it)."""

    x: npt.NDArray[np.float32]
    start: I64
    chosen: I64


def card_features(tab: Tables, p: Plays, held: U64, team: I64, masters: int | None,
                  n: int, must_trump: bool, hand_cards: int) -> Rows:
    """The rows of every play of ``p`` in every guess: ``held[i, g]`` is the hand the seat of
    play ``i`` held when it played (its card included) in guess ``g``, ``team[g, s]`` the
    team of seat ``s`` there, ``masters`` the team that stood masters (None: even), and
    ``hand_cards`` how many cards each seat was dealt (to scale counts)."""
    _, guesses = held.shape
    led = p.led
    # The cards allowed: of the led suit, else trumps where one must trump, else any.
    legal = held.copy()
    follows = led >= 0
    if follows.any():
        led_mask = tab.by_suit[np.where(follows, led, TRUMP)]
        same = held & led_mask[:, None]
        legal = np.where((same != 0) & follows[:, None], same, legal)
        if must_trump:
            trumps = held & tab.trumps
            use = follows[:, None] & (same == 0) & (trumps != 0) & (led[:, None] != TRUMP)
            legal = np.where(use, trumps, legal)
    bits = (legal[:, :, None] >> np.arange(tab.universe, dtype=np.uint64)) & np.uint64(1)
    mi, gi, ci = np.nonzero(bits)
    group = mi * guesses + gi
    rows = len(ci)
    start = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    sizes = np.diff(np.r_[start, rows])
    h = held[mi, gi]
    gone = p.gone[mi]
    out = tab.pack & ~gone & ~h
    c_suit = tab.suit[ci]
    c_points = tab.points[ci]
    suit_mask = tab.suit_mask[ci]
    higher, lower = tab.higher[ci], tab.lower[ci]
    actor = p.seat[mi]
    scale = float(max(1, hand_cards))
    # Column by column: a column of a Fortran-ordered array is contiguous.
    x = np.zeros((rows, len(CARD_FEATURES)), dtype=np.float32, order="F")
    col = _COLUMNS

    def put(name: str, values: npt.ArrayLike) -> None:
        x[:, col[name]] = values

    is_trump = c_suit == TRUMP
    put("trump", is_trump)
    put("points", c_points / tab.top_points)
    put("point_card", c_points > 0)
    put("rank_in_suit", _count(higher) / 8)
    mine_higher = _count(h & higher)
    mine_lower = _count(h & lower)
    put("mine_in_suit", _count(h & suit_mask) / scale)
    put("mine_higher", mine_higher / scale)
    put("mine_lower", mine_lower / scale)
    put("lowest_mine", mine_lower == 0)
    put("highest_mine", mine_higher == 0)
    put("mine_trumps", _count(h & tab.trumps) / scale)
    put("hand_size", _count(h) / scale)
    put("mine_suit_points", (_points_of(tab, h & suit_mask) - c_points) / (4 * tab.top_points))
    out_higher = _count(out & higher)
    put("out_higher", out_higher / 8)
    put("out_lower", _count(out & lower) / 8)
    put("master", out_higher == 0)
    put("out_in_suit", _count(out & suit_mask) / 8)
    put("out_trumps", _count(out & tab.trumps) / 8)
    put("suit_played", _count(gone & suit_mask) / 8)
    leads = led[mi] < 0
    put("leads", leads)
    row_led = np.where(leads, TRUMP, led[mi])
    put("follows_suit", ~leads & (c_suit == row_led))
    put("trumps_in", ~leads & is_trump & (row_led != TRUMP))
    put("discards", ~leads & (c_suit != row_led) & ~is_trump)
    rank = np.where(leads, tab.power[ci], tab.led_rank[row_led, ci])
    wins = ~leads & (rank > p.best_rank[mi])
    put("wins", wins)
    cheapest = np.minimum.reduceat(np.where(wins, rank, 1 << 40), start)
    put("cheapest_winner", wins & (rank == np.repeat(cheapest, sizes)))
    team_actor = team[gi, actor]
    friend = ~leads & (team[gi, p.best_seat[mi]] == team_actor)
    put("friend_winning", friend)
    last = p.pos[mi] == n - 1
    put("last", last)
    stake = p.stake[mi] / (2 * tab.top_points)
    put("stake", stake)
    put("wins_stake", wins * stake)
    put("gives_friend", friend * c_points / tab.top_points)
    put("gives_enemy", (~leads & ~friend & ~wins) * c_points / tab.top_points)
    put("wins_last", wins & last)
    lowest = np.minimum.reduceat(rank, start)
    put("lowest_legal", rank == np.repeat(lowest, sizes))
    most = np.maximum.reduceat(c_points, start)
    put("most_points_legal", (c_points == np.repeat(most, sizes)) & (c_points > 0))
    put("legal_count", np.repeat(sizes, sizes) / scale)
    enemy_void = np.zeros(rows, dtype=bool)
    friend_void = np.zeros(rows, dtype=bool)
    bit = np.left_shift(1, c_suit)
    for s in range(n):
        void_s = (p.void[mi, s] & bit) != 0
        other = actor != s
        same_team = team[gi, s] == team_actor
        enemy_void |= other & ~same_team & void_s
        friend_void |= other & same_team & void_s
    put("enemy_void_lead", leads & ~is_trump & enemy_void)
    put("friend_void_lead", leads & ~is_trump & friend_void)
    put("progress", _count(gone) / tab.pack_size)
    ours = np.zeros(rows)
    total_taken = p.taken[mi].sum(axis=1)
    for s in range(n):
        ours += p.taken[mi, s] * (team[gi, s] == team_actor)
    total = tab.top_points * 8
    put("our_points", ours / total)
    put("their_points", (total_taken - ours) / total)
    if masters is not None:
        put("masters", np.where(team_actor == masters, 1.0, -1.0))
    chosen = np.full(len(start), -1, dtype=np.int64)
    hit = np.flatnonzero(ci == p.card[mi])
    chosen[np.searchsorted(start, hit, side="right") - 1] = hit
    return Rows(x, start, chosen)


@dataclass
class Choice:
    """One choice that is not a card, as the actor saw it: its place after the dealer, its
    cards (a mask), the legal actions' keys and the index of the one taken."""

    place: int
    cards: int
    keys: tuple[str, ...]
    taken: int


def choice_features(vocabulary: dict[str, int], universe: int,
                    choices: Sequence[Choice]) -> Rows:
    """The rows of these choices: the actor's cards (one column per card of the
    ``universe``), the action (one column per word of the ``vocabulary``, and one for any
    other), the actor's place after the dealer."""
    width = choice_width(vocabulary, universe)
    count = sum(len(ch.keys) for ch in choices)
    x = np.zeros((count, width), dtype=np.float32)
    start = np.zeros(len(choices), dtype=np.int64)
    chosen = np.zeros(len(choices), dtype=np.int64)
    r = 0
    other = len(vocabulary)
    place = universe + len(vocabulary) + 1
    held_bits = np.arange(universe, dtype=np.uint64)
    for i, ch in enumerate(choices):
        start[i] = r
        chosen[i] = r + ch.taken
        k = len(ch.keys)
        x[r:r + k, :universe] = (np.uint64(ch.cards) >> held_bits) & np.uint64(1)
        for j, key in enumerate(ch.keys):
            x[r + j, universe + vocabulary.get(key, other)] = 1.0
        x[r:r + k, place + min(ch.place, PLACES - 1)] = 1.0
        r += k
    return Rows(x, start, chosen)


def choice_scores(net: Net, vocabulary: dict[str, int], universe: int,
                  choices: Sequence[Choice]) -> tuple[npt.NDArray[np.float32], Rows]:
    """``net.scores`` of ``choice_features``' rows, without building them: a choice's rows
    differ only in the action's column, so the cards' and the place's share of the hidden
    layer is summed once per choice (from the weights of the cards held, not a product
    with a row of zeros) and each row adds its action's weights. The same values up to
    rounding, in a fraction of the time, and without the linear algebra library, whose
    threads on a busy machine cost many times the work they share (``BLOCK``). The
    ``Rows`` returned have no ``x``."""
    width = choice_width(vocabulary, universe)
    other = len(vocabulary)
    place0 = universe + other + 1
    c = len(choices)
    masks = np.fromiter((ch.cards for ch in choices), dtype=np.uint64, count=c)
    places = np.fromiter((place0 + min(ch.place, PLACES - 1) for ch in choices),
                         dtype=np.int64, count=c)
    sizes = np.fromiter((len(ch.keys) for ch in choices), dtype=np.int64, count=c)
    start = np.zeros(c, dtype=np.int64)
    np.cumsum(sizes[:-1], out=start[1:])
    chosen = start + np.fromiter((ch.taken for ch in choices), dtype=np.int64, count=c)
    columns = _key_columns(vocabulary, universe)
    action = np.fromiter((columns(k) for ch in choices for k in ch.keys), dtype=np.int64,
                         count=int(sizes.sum()))
    w, lin = net.w, net.linear
    base = w[places] + net.b  # (choices, hidden)
    base_lin = lin[places].astype(np.float32)
    for card in range(universe):
        has = ((masks >> np.uint64(card)) & np.uint64(1)).astype(bool)
        if has.any():
            base[has] += w[card]
            base_lin[has] += lin[card]
    per_row = np.repeat(np.arange(c), sizes)
    h = base[per_row] + w[action]
    np.maximum(h, 0.0, out=h)
    scores = (h * net.out).sum(axis=1, dtype=np.float32) + base_lin[per_row] + lin[action]
    assert w.shape[0] == width
    return scores.astype(np.float32), Rows(np.zeros((0, width), dtype=np.float32), start,
                                           chosen)


def _key_columns(vocabulary: dict[str, int], universe: int) -> Callable[[str], int]:
    other = universe + len(vocabulary)
    get = vocabulary.get

    def column(key: str) -> int:
        i = get(key)
        return other if i is None else universe + i

    return column


def choice_width(vocabulary: dict[str, int], universe: int) -> int:
    return universe + len(vocabulary) + 1 + PLACES


def log_chances(scores: npt.NDArray[np.float32], rows: Rows, mix: float) -> F64:
    """Per decision, the log of the chance given to the choice made: the softmax of its
    rows' ``scores``, mixed with a uniform pick (``mix``) so that no guess is ruled out by a
    model that is sure and wrong. A decision whose rows lack the choice made gets the
    uniform part alone."""
    s = scores.astype(np.float64)
    top = np.maximum.reduceat(s, rows.start)
    sizes = np.diff(np.r_[rows.start, len(s)])
    e = np.exp(s - np.repeat(top, sizes))
    z = np.add.reduceat(e, rows.start)
    got = np.where(rows.chosen >= 0, e[np.maximum(rows.chosen, 0)] / z, 0.0)
    got = got * (rows.chosen >= 0)
    return np.log((1 - mix) * got + mix / sizes)  # type: ignore[no-any-return]


# -- reading guesses --------------------------------------------------------------------------


def card_plays_of(hand: Hand) -> tuple[list[tuple[int, Card]], list[int]]:
    """A hand's card plays in order and the winner of each complete trick."""
    n = hand.n
    cards = [((t.leader + i) % n, c) for t in hand.tricks for i, c in enumerate(t.cards)]
    cards += [((hand.leader + i) % n, c) for i, c in enumerate(hand.trick)]
    return cards, [t.winner for t in hand.tricks]


def masters_of(hand: Hand) -> int | None:
    masters = getattr(hand.status, "masters", None)
    return masters if isinstance(masters, int) else None


def choices_of(hand: Hand, seats: Sequence[int] | None = None,
               until: int | None = None) -> list[tuple[int, Choice]]:
    """Each choice that is not a card (of ``seats``: default all) in ``hand``'s actions (the
    first ``until``), with more than one legal action, by replaying the hand: its index among
    the actions and the ``Choice``. Out-of-turn actions (a partner signal) are left out."""
    out: list[tuple[int, Choice]] = []
    actions = hand.actions if until is None else hand.actions[:until]
    last = max((i for i, (s, a) in enumerate(actions)
                if a.kind != "card" and (seats is None or s in seats)), default=-1)
    if last < 0:
        return out
    replay = Hand(hand.rules, hand.dealer, hand.pack, hand.status, check=False)
    n = hand.n
    for i, (seat, action) in enumerate(actions[:last + 1]):
        if action.kind != "card" and (seats is None or seat in seats):
            legal = replay.legal_actions(seat)
            if len(legal) > 1 and action in legal:
                phase = replay.phase
                mask = 0
                for c in replay.hands[seat]:
                    mask |= 1 << c
                out.append((i, Choice((seat - hand.dealer - 1) % n, mask,
                                      tuple(choice_key(phase, a) for a in legal),
                                      legal.index(action))))
        replay.apply(seat, action)
    return out


@dataclass
class Reader:
    """Reads guesses for one decision of ``seat``: the public plays (``Plays``) and their
    tables, made once; ``log_likelihoods`` of any number of guesses then."""

    model: ReadingModel
    seat: int
    n: int
    plays: Plays
    others: npt.NDArray[np.bool_]
    tab: Tables | None
    must_trump: bool
    masters: int | None
    hand_cards: int
    mix: float

    def card_log_likelihoods(self, held_now: U64, team: I64) -> F64:
        """``held_now[g, s]``: the cards seat ``s`` holds now in guess ``g``."""
        p, tab = self.plays, self.tab
        guesses = held_now.shape[0]
        if tab is None or not self.others.any():
            return np.zeros(guesses)
        idx = np.flatnonzero(self.others)
        sub = Plays(*(getattr(p, f)[idx] for f in (
            "seat", "card", "led", "pos", "best_rank", "best_seat", "best_card", "stake", "gone",
            "taken", "void", "later")))
        held = held_now[:, sub.seat].T | sub.later[:, None]
        rows = card_features(tab, sub, held, team, self.masters, self.n, self.must_trump,
                             self.hand_cards)
        chances = log_chances(self.model.cards.scores(rows.x), rows, self.mix)
        return chances.reshape(len(idx), guesses).sum(axis=0)  # type: ignore[no-any-return]

    def choice_log_likelihoods(self, guesses: Sequence[Hand], until: int) -> F64:
        """The choices (not cards) of the other seats among the first ``until`` actions."""
        net = self.model.choices
        out = np.zeros(len(guesses))
        if net is None:
            return out
        others = [s for s in range(self.n) if s != self.seat]
        per: list[int] = []
        every: list[Choice] = []
        # A deal drawn more than once (few hidden cards left) is replayed and read once.
        first: dict[object, int] = {}
        same: list[int] = []
        for i, g in enumerate(guesses):
            key = _deal_key(g, until)
            j = i if key is None else first.setdefault(key, i)
            same.append(j)
            if j != i:
                per.append(0)
                continue
            try:
                found = choices_of(g, others, until)
            except IllegalAction:
                # The guess contradicts what the table saw (Filcau-20's face-up request
                # with an Unter in hand): as good as ruled out.
                found = []
                out[i] = IMPOSSIBLE
            per.append(len(found))
            every.extend(ch for _, ch in found)
        if every:
            scores, rows = choice_scores(net, self.model.vocabulary, self.model.universe,
                                         every)
            chances = log_chances(scores, rows, self.mix)
            at = 0
            for i, k in enumerate(per):
                if k:
                    out[i] += chances[at:at + k].sum()
                    at += k
        return out[same]


def _deal_key(hand: Hand, until: int) -> object | None:
    """What a guess's reading depends on: its deal and its first ``until`` actions (None
    where they cannot be told apart by a key)."""
    key = (hand.dealer, hand.status, tuple(hand.pack), tuple(hand.actions[:until]))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def reader(model: ReadingModel, hand: Hand, seat: int, mix: float) -> Reader:
    """A ``Reader`` for ``seat``'s decision in ``hand`` (any guess of it: only what the table
    saw is read from it)."""
    cards, winners = card_plays_of(hand)
    order = hand.order
    n = hand.n
    rules = hand.rules
    hand_cards = max(len(d) for d in hand.dealt) if hand.dealt else 8
    if order is None or not cards:
        empty = plays([], [], order, rules.points, n, rules.must_trump) if order else None
        return Reader(model, seat, n, empty or _no_plays(n), np.zeros(0, dtype=bool), None,
                      rules.must_trump, masters_of(hand), hand_cards, mix)
    p = plays(cards, winners, order, rules.points, n, rules.must_trump)
    tab = tables(order, tuple(rules.pack), tuple(rules.points))
    return Reader(model, seat, n, p, p.seat != seat, tab, rules.must_trump, masters_of(hand),
                  hand_cards, mix)


def reader_from_view(model: ReadingModel, view: SeatView, mix: float) -> Reader:
    """A ``Reader`` for ``view.seat``'s decision, from what the view shows (the public plays
    and tricks) alone."""
    n = view.players
    cards = plays_so_far(view)
    rules = view.rules
    order = view.order
    masters = view.status.masters if isinstance(view.status.masters, int) else None
    hand_cards = view.tricks_total or 8
    if order is None or not cards:
        return Reader(model, view.seat, n, _no_plays(n), np.zeros(0, dtype=bool), None,
                      rules.must_trump, masters, hand_cards, mix)
    p = plays(cards, [t.winner for t in view.tricks], order, rules.points, n,
              rules.must_trump)
    tab = tables(order, tuple(rules.pack), tuple(rules.points))
    return Reader(model, view.seat, n, p, p.seat != view.seat, tab, rules.must_trump, masters,
                  hand_cards, mix)


def _no_plays(n: int) -> Plays:
    z = np.zeros(0, dtype=np.int64)
    return Plays(z, z, z, z, z, z, z, np.zeros(0), np.zeros(0, dtype=np.uint64),
                 np.zeros((0, n)), np.zeros((0, n), dtype=np.int64), np.zeros(0, dtype=np.uint64))


def played_rows(hand: Hand) -> Rows | None:
    """The card-play rows of every seat's plays in a hand played out (a record replayed):
    the examples the card network is fitted to. None when no card was played."""
    cards, winners = card_plays_of(hand)
    order = hand.order
    if order is None or not cards:
        return None
    rules = hand.rules
    n = hand.n
    p = plays(cards, winners, order, rules.points, n, rules.must_trump)
    left = np.array([sum(1 << c for c in h) for h in hand.hands], dtype=np.uint64)
    held = (left[p.seat] | p.later)[:, None]
    team = np.array([hand.team], dtype=np.int64)
    hand_cards = max(len(d) for d in hand.dealt) if hand.dealt else 8
    return card_features(tables(order, tuple(rules.pack), tuple(rules.points)), p, held,
                         team, masters_of(hand), n, rules.must_trump, hand_cards)


def held_masks(guesses: Sequence[Hand]) -> U64:
    """``[g, s]``: the cards seat ``s`` holds in guess ``g``, as masks."""
    out = np.zeros((len(guesses), guesses[0].n if guesses else 0), dtype=np.uint64)
    for g, hand in enumerate(guesses):
        for s, cards in enumerate(hand.hands):
            mask = 0
            for c in cards:
                mask |= 1 << c
            out[g, s] = mask
    return out


def team_matrix(guesses: Sequence[Hand]) -> I64:
    return np.array([h.team for h in guesses], dtype=np.int64).reshape(len(guesses), -1)


def log_likelihoods(model: ReadingModel, seat: int, guesses: Sequence[Hand],
                    mix: float = 0.1) -> F64:
    """The model's log chance of every action the other seats took so far, in each guess
    (full hands consistent with what ``seat`` saw, at the same point of the same hand)."""
    if not guesses:
        return np.zeros(0)
    r = reader(model, guesses[0], seat, mix)
    ll = r.card_log_likelihoods(held_masks(guesses), team_matrix(guesses))
    if model.choices is not None and any(a.kind != "card" for _, a in guesses[0].actions):
        ll = ll + r.choice_log_likelihoods(guesses, len(guesses[0].actions))
    return ll


def resample(log_weights: F64, count: int, u: float) -> list[int]:
    """``count`` indexes drawn in proportion to ``exp(log_weights)`` (systematic resampling
    from one uniform number ``u`` in [0, 1): the draw is reproducible and spreads evenly)."""
    w = np.exp(log_weights - log_weights.max())
    cum = np.cumsum(w / w.sum())
    points = (u + np.arange(count)) / count
    return [int(i) for i in np.minimum(np.searchsorted(cum, points, side="right"),
                                        len(w) - 1)]


def effective_share(log_weights: F64) -> float:
    """The effective sample size of these weights as a share of their number (1: even)."""
    if not len(log_weights):
        return 1.0
    w = np.exp(log_weights - log_weights.max())
    return float(w.sum() ** 2 / (w * w).sum() / len(w))


__all__ = ["CARD_FEATURES", "ReadingModel", "load", "log_likelihoods", "resample"]
