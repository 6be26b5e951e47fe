"""How much do the others' card plays tell about their hands? The measurement behind
docs/computer-players.md, "Tried for a stronger Hard" (issue 21), repeatable:

    python -m benchmarks.reading_model --hands 900 --test 200 --workers 2

Reading the play can only make Hard stronger if a player's cards show in how it plays. This
fits a model of how a level actually plays Filicău and asks what it would tell:

1. ``--hands`` hands of four players of ``--level`` (default ``hard_baseline``, the arena's
   yardstick), played from seeds of their own (``reading|<seed>|<i>``), not the arena's.
2. A choice model: at every card choice with more than one legal card, the chance of each
   legal card is a softmax over a dozen features of it, seen with the actor's own hand
   (``lead_features``, ``follow_features``: does it win the trick, does it hold points, is it
   the highest card of its suit still out, how many of its suit the actor holds...), with one
   weight vector for leads and one for following. Fit by maximum likelihood (numpy, which
   matplotlib brings) on all but the last ``--test`` hands.
3. On the last ``--test`` hands, which the fit never saw:

   - **nats a choice**: how much better than a uniform pick among the legal cards the model
     predicts the card played, in log-likelihood per choice (0 = it knows nothing, and a
     choice between two cards has at most 0.69 to tell);
   - **P(true holder)**: at the seat to move's leads after two to five tricks, each hidden
     Ace and Ten is placed by ``--samples`` guesses as Normal and Hard guess them
     (``engine.inference``: revealed voids and shown cards), and the mean chance the guesses
     give its true holder is reported unweighted (as Hard searches) and with each guess
     weighed by the model's likelihood of the others' plays so far in it (what reading the
     play with this model would search). A player that saw every card would score 1.

4. The same two figures for the model the computer players ship (``engine.ai.reading``,
   fitted by ``python -m engine.tools.train`` to self-play of Hard before it read the play):
   ``shipped.leads``/``follows`` (nats a choice on the same test hands) and
   ``true_holder.weighed_by_shipped`` (the same guesses weighed by its likelihood of the
   others' plays, each chance mixed with a uniform pick by a tenth, as Hard mixes them) and
   ``redrawn_by_search`` (the guesses Hard's search itself draws: a pool twice as large,
   drawn again by those weights), with a 95 % interval of the last less the unweighted share.

Printed as JSON. ``--game`` takes any game the shipped model covers (default Filicău; the
fitted linear model reads the card play only).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from engine.actions import Action, action_from_json
from engine.ai import Reading, make_player, reading
from engine.ai.search import SearchPlayer, search_hands
from engine.cards import TRUMP, Card
from engine.determinize import hand_from_view
from engine.errors import RecordError
from engine.hand import PLAYING, Hand
from engine.inference import infer, sample
from engine.record import start, to_record
from engine.rules import make_rules
from engine.status import Status
from engine.tools.arena import mean_ci, play_hand
from engine.view import SeatView, seat_view

GAME = "filicau"
#: The uniform share Hard mixes into each chance (``engine.ai.search.Reading``).
MIX = Reading().mix
LEAD_FEATURES = 12
FOLLOW_FEATURES = 16


def play(job: tuple[str, int, int, str]) -> dict[str, Any]:
    """One self-play hand of ``level``: even, team 0 or team 1 masters in turn (in games
    with masters)."""
    level, seed, i, game = job
    rules = make_rules(game)
    rng = random.Random(f"reading|{seed}|{i}")
    pack = list(rules.pack)
    rng.shuffle(pack)
    masters = (None, 0, 1)[i % 3] if "masters" in rules.status_fields else None
    players = [make_player(level, seed=seed * 100_000 + i * 10 + s, timed=False)
               for s in range(rules.players)]
    dealer = rng.randrange(rules.players)
    if masters is not None and dealer % 2 == masters:
        dealer = (dealer + 1) % rules.players  # a slave deals while there are slaves
    return to_record(play_hand(Hand(rules, dealer, pack, Status(masters=masters)), players))


def replay(record: dict[str, Any]) -> Iterator[tuple[Hand, int, Action]]:
    """Each action of the record with the hand it was taken in (before it)."""
    hand = start(record)
    for obj in record["actions"]:
        action = action_from_json(obj)
        yield hand, obj["seat"], action
        hand.apply(obj["seat"], action)


def _higher_out(hand: Hand, c: Card, outside: int) -> int:
    """How many cards of ``c``'s suit that beat it are still out, not in the actor's hand."""
    order = hand.order
    assert order is not None
    power = order.power
    return sum(1 for d in _cards(outside & order.masks[order.suit[c]]) if power[d] > power[c])


def _cards(mask: int) -> list[Card]:
    return [d for d in range(32) if mask >> d & 1]


def lead_features(hand: Hand, held: int, c: Card, outside: int) -> list[float]:
    order = hand.order
    assert order is not None
    suit, power, masks = order.suit, order.power, order.masks
    mine = _cards(held & masks[suit[c]])
    higher = _higher_out(hand, c, outside)
    point, trump, master = hand.rules.points[c] > 0, suit[c] == TRUMP, higher == 0
    trumps = (held & masks[TRUMP]).bit_count() / 8
    out = (outside & masks[suit[c]]).bit_count() / 8
    return [point, trump, master, higher / 8, len(mine) / 8,
            all(power[d] >= power[c] for d in mine), all(power[d] <= power[c] for d in mine),
            point and master, point and not master, trump and master, trump * trumps, out]


def follow_features(hand: Hand, seat: int, held: int, legal: Sequence[Card], c: Card,
                    outside: int) -> list[float]:
    order = hand.order
    assert order is not None
    suit, power, masks = order.suit, order.power, order.masks
    trick = hand.trick
    led = suit[trick[0]]
    rank = order.led_rank[led]
    points = hand.rules.points
    top = max(range(len(trick)), key=lambda i: rank[trick[i]])
    best = rank[trick[top]]
    partner = hand.team[(hand.leader + top) % hand.n] == hand.team[seat]
    last = len(trick) == hand.n - 1
    at_stake = sum(points[x] for x in trick) / 2
    winners = [d for d in legal if rank[d] > best]
    wins = rank[c] > best
    higher = _higher_out(hand, c, outside)
    mine = _cards(held & masks[suit[c]])
    point, trump = points[c] > 0, suit[c] == TRUMP
    return [point, trump, wins, partner and point, wins and point,
            not wins and not partner and point, wins * at_stake, wins and last,
            wins and higher == 0, bool(winners) and c == min(winners, key=rank.__getitem__),
            all(power[d] >= power[c] for d in mine), trump and led != TRUMP, higher / 8,
            partner and wins, point and last and partner, not last and wins and higher > 0]


def choice(hand: Hand, seat: int) -> tuple[bool, list[Card], np.ndarray] | None:
    """The legal cards for ``seat`` to play now and their features, or None when there is
    nothing to choose."""
    if hand.phase != PLAYING or hand.to_move != seat:
        return None
    cards = [a.value for a in hand.legal_actions(seat)]
    if len(cards) < 2:
        return None
    held = _mask(hand.hands[seat])
    outside = _mask(c for other in hand.hands for c in other) & ~held
    lead = not hand.trick
    rows = [lead_features(hand, held, c, outside) if lead
            else follow_features(hand, seat, held, cards, c, outside) for c in cards]
    return lead, cards, np.array(rows, dtype=float)


def _mask(cards: Iterable[Card]) -> int:
    return sum(1 << c for c in cards)


def fit(items: Sequence[tuple[np.ndarray, int]], width: int, steps: int = 400) -> np.ndarray:
    """Softmax weights maximising the likelihood of the chosen cards (Adam, a little L2)."""
    x = np.concatenate([f for f, _ in items])
    sizes = np.array([len(f) for f, _ in items])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    chosen = starts + np.array([y for _, y in items])
    w, m, v = np.zeros(width), np.zeros(width), np.zeros(width)
    for t in range(1, steps + 1):
        z = x @ w
        z -= np.repeat(np.maximum.reduceat(z, starts), sizes)
        e = np.exp(z)
        p = e / np.repeat(np.add.reduceat(e, starts), sizes)
        g = (x[chosen].sum(0) - (p[:, None] * x).sum(0)) / len(items) - 1e-3 * w
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w += 0.05 * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return w


def log_chance(weights: np.ndarray, rows: np.ndarray, i: int) -> float:
    z = rows @ weights
    z -= z.max()
    return float(z[i] - math.log(np.exp(z).sum()))


def choices(records: Sequence[dict[str, Any]]) -> dict[bool, list[tuple[np.ndarray, int]]]:
    out: dict[bool, list[tuple[np.ndarray, int]]] = {True: [], False: []}
    for record in records:
        for hand, seat, action in replay(record):
            got = choice(hand, seat)
            if got is not None:
                lead, cards, rows = got
                out[lead].append((rows, cards.index(action.value)))
    return out


def likelihood(guess: Hand, me: int, weights: dict[bool, np.ndarray]) -> float:
    """The model's chance of the others' card plays so far, had ``guess`` been the deal."""
    hand = Hand(guess.rules, guess.dealer, guess.pack, guess.status)
    total = 0.0
    for seat, action in guess.actions:
        if seat != me:
            got = choice(hand, seat)
            if got is not None:
                lead, cards, rows = got
                total += log_chance(weights[lead], rows, cards.index(action.value))
        hand.apply(seat, action)
    return math.exp(total)


def holder_positions(record: dict[str, Any]) -> Iterator[tuple[Hand, int]]:
    """The positions *P(true holder)* is measured at: each lead of the seat to move after
    two to five tricks, with the hand as it stood."""
    for hand, seat, _ in replay(record):
        if not (hand.play_over or hand.phase != PLAYING or hand.trick
                or not 2 <= len(hand.tricks) <= 5 or hand.to_move != seat):
            yield hand, seat


def hidden_point_cards(hand: Hand, view: SeatView) -> Iterator[tuple[Card, int]]:
    """The point cards the view's seat does not see, each with its true holder."""
    for other in range(hand.n):
        if other != view.seat:
            for c in hand.hands[other]:
                if hand.rules.points[c] and (c, other) not in view.shown_held:
                    yield c, other


def holders(records: Sequence[dict[str, Any]], weights: dict[bool, np.ndarray],
            samples: int, seed: int) -> dict[str, float]:
    """Mean chance the guesses give each hidden point card's true holder, at the seat to
    move's leads after two to five tricks: unweighted, weighed by ``likelihood`` (the linear
    model), weighed by the shipped model, and among the guesses Hard's search draws; and
    how many cards that averages over."""
    plain = weighed = shipped = redrawn = 0.0
    #: Per card: its true holder's share among the guesses the search draws, less unweighted.
    gains: list[float] = []
    count = skipped = 0
    game = records[0]["game"] if records else GAME
    model = reading.load(game)
    for r, record in enumerate(records):
        for hand, seat in holder_positions(record):
            view = seat_view(hand, seat)
            knowledge = infer(view)
            rng = random.Random(f"{seed}|{r}|{len(hand.actions)}")
            try:
                guesses = [hand_from_view(view, sample(knowledge, rng))
                           for _ in range(samples)]
            except RecordError:
                # A game rebuilding its deals itself (Bavarian Schafkopf's bidding and
                # called Ace) found none that fits within its tries: left out, and counted.
                skipped += 1
                continue
            weight = [likelihood(g, seat, weights) for g in guesses]
            total = sum(weight)
            if model is not None:
                ll = reading.log_likelihoods(model, seat, guesses, MIX)
                by_model = np.exp(ll - ll.max())
                by_model /= by_model.sum()
                search = SearchPlayer("hard", samples=samples)
                drawn = [h for h in search_hands(view, random.Random(f"{seed}|{r}"), samples,
                                                 search.guesser(view), Reading())
                         if h is not None]
            for c, other in hidden_point_cards(hand, view):
                has = [c in g.hands[other] for g in guesses]
                plain += sum(has) / samples
                before = sum(has) / samples
                weighed += sum(w for w, h in zip(weight, has, strict=True) if h) / total
                if model is not None:
                    shipped += float(by_model[np.array(has)].sum())
                    after = sum(c in g.hands[other] for g in drawn) / len(drawn)
                    redrawn += after
                    gains.append(after - before)
                count += 1
    out: dict[str, Any] = {"cards": count, "positions_skipped": skipped,
                           "unweighted": plain / max(1, count),
                           "weighed_by_model": weighed / max(1, count)}
    if model is not None:
        out["weighed_by_shipped"] = shipped / max(1, count)
        out["redrawn_by_search"] = redrawn / max(1, count)
    out = {k: round(v, 4) if isinstance(v, float) else v for k, v in out.items()}
    if len(gains) > 1:
        # Cards of one position share its guesses, so the interval leans a little narrow.
        m, lo, hi = mean_ci(gains)
        out["redrawn_minus_unweighted"] = {"mean": round(m, 4), "ci95": [round(lo, 4),
                                                                         round(hi, 4)]}
    return out


def shipped_nats(records: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """Nats a choice of the shipped model's card network on these hands' card plays."""
    if not records:
        return None
    model = reading.load(records[0]["game"])
    if model is None:
        return None
    col = reading.CARD_FEATURES.index("leads")
    gains: dict[bool, list[float]] = {True: [], False: []}
    for record in records:
        rows = reading.played_rows(replay_whole(record))
        if rows is None:
            continue
        chances = reading.log_chances(model.cards.scores(rows.x), rows, 0.0)
        sizes = np.diff(np.r_[rows.start, len(rows.x)])
        for i, size in enumerate(sizes):
            if size > 1 and rows.chosen[i] >= 0:
                gains[bool(rows.x[rows.start[i], col])].append(chances[i] + math.log(size))
    return {name: {"choices": len(g), "nats_a_choice": round(sum(g) / max(1, len(g)), 3),
                   "ci95": [round(x, 3) for x in mean_ci(g)[1:]] if len(g) > 1 else None}
            for name, g in (("leads", gains[True]), ("follows", gains[False]))}


def replay_whole(record: dict[str, Any]) -> Hand:
    hand = start(record)
    for obj in record["actions"]:
        hand.apply(obj["seat"], action_from_json(obj))
    return hand


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reading_model",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=900)
    parser.add_argument("--test", type=int, default=200, help="hands held out of the fit")
    parser.add_argument("--level", default="hard_baseline")
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", default=GAME)
    args = parser.parse_args(argv)
    if not 0 < args.test < args.hands:
        parser.error("--test must be between 0 and --hands")
    jobs = [(args.level, args.seed, i, args.game) for i in range(args.hands)]
    if args.workers > 1:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            records = pool.map(play, jobs, chunksize=1)
    else:
        records = list(map(play, jobs))
    train, test = records[:-args.test], records[-args.test:]
    seen, unseen = choices(train), choices(test)
    weights = {True: fit(seen[True], LEAD_FEATURES), False: fit(seen[False], FOLLOW_FEATURES)}
    report: dict[str, Any] = {"game": args.game, "level": args.level,
                              "train_hands": len(train), "test_hands": len(test)}
    for lead, name in ((True, "leads"), (False, "follows")):
        items = unseen[lead]
        gain = sum(log_chance(weights[lead], rows, y) + math.log(len(rows))
                   for rows, y in items) / max(1, len(items))
        report[name] = {"choices": len(items), "nats_a_choice": round(gain, 3),
                        "uniform_nats": round(sum(math.log(len(r)) for r, _ in items)
                                              / max(1, len(items)), 3)}
    shipped = shipped_nats(test)
    if shipped is not None:
        report["shipped"] = shipped
    report["true_holder"] = holders(test, weights, args.samples, args.seed)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
