"""Training the reading model (``engine.ai.reading``): self-play records, then a fit.

    python -m engine.tools.train --game filicau --level hard_unread --samples 50 \
        --hands 750 --test 150 --seed 0 --records filicau.jsonl

1. **Self-play**: ``--hands`` hands of four (or the game's number of) computer players of
   ``--level``, untimed (so the records repeat exactly from the seed), each from a pack
   shuffled by ``Random(f"train|{game}|{seed}|{i}")``; in games with masters, hand ``i``
   starts even (``i % 3 == 0``) or with the dealer's opponents masters, as the arena deals.
   ``--samples`` plays a search level with fewer samples than its own (a quicker, noisier
   copy of it). ``--records FILE`` keeps the records (JSON lines) and plays only the hands
   the file lacks; a run cut short goes on where it stopped.
2. **The fit** (numpy only): every decision of every seat with more than one choice becomes
   an example (``engine.ai.reading.played_rows`` for the cards, ``choices_of`` for the
   rest); the model's two small networks are fitted by maximum likelihood with Adam on all
   but the last ``--test`` hands, keeping the epoch best on those (so their figures, nats a
   choice better than a uniform pick, lean a little optimistic:
   ``benchmarks/reading_model.py`` measures the shipped model on hands of its own).
3. The weights go to ``engine/ai/models/GAME.npz`` and their provenance (the command, the
   seeds, the number of hands, the engine commit, the records' digest, the held-out figures)
   to ``GAME.json`` beside them.
"""

from __future__ import annotations

import os

# The fit's matrices are small: the linear algebra library's threads would only fight over a
# busy machine's cores (and make the run slower, not faster).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import json
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.ai import make_player, reading
from engine.ai.reading import Rows
from engine.ai.search import SearchPlayer
from engine.hand import Hand
from engine.record import replay, to_record
from engine.rules import make_rules
from engine.rules.base import Rules
from engine.status import RecordError, Status
from engine.tools.arena import play_hand


def self_play(game: str, level: str, seed: int, i: int, samples: int | None = None
              ) -> dict[str, Any]:
    """Hand ``i`` of the self-play of ``level`` in ``game`` (with ``samples`` samples a
    decision instead of the level's, for a search level), as a record."""
    rules = make_rules(game)
    rng = random.Random(f"train|{game}|{seed}|{i}")
    pack = list(rules.pack)
    rng.shuffle(pack)
    dealer = rng.randrange(rules.players)
    status = _status_for(rules, i, dealer)
    players = [make_player(level, seed=seed * 100_000 + i * 10 + s, timed=False)
               for s in range(rules.players)]
    if samples is not None:
        for p in players:
            if isinstance(p, SearchPlayer):
                p.samples = samples
    return to_record(play_hand(Hand(rules, dealer, pack, status), players))


def _status_for(rules: Rules, i: int, dealer: int) -> Status:
    """Hand ``i``'s status: even when ``i % 3 == 0`` or the game keeps no masters, else the
    dealer's opponents masters (no master deals while masters stand), with the first seat
    of the others from the dealer on as their Servant where the game needs one."""
    if "masters" not in rules.status_fields or not i % 3:
        return Status()
    n = rules.players
    masters = rules.seat_teams[(dealer + 1) % n]
    servant = next(s for s in ((dealer + k) % n for k in range(n))
                   if rules.seat_teams[s] != masters)
    for status in (Status(masters), Status(masters, servant)):
        try:
            rules.check_status(status)
            rules.check_deal(dealer, status)
        except RecordError:
            continue
        return status
    return Status()


def _play(job: tuple[str, str, int, int, int | None]) -> dict[str, Any]:
    return self_play(*job)


def self_play_records(game: str, level: str, hands: int, seed: int, workers: int = 1,
                      start: int = 0, samples: int | None = None
                      ) -> Iterator[dict[str, Any]]:
    """``self_play`` of hands ``start`` .. ``hands`` - 1, in order."""
    jobs = [(game, level, seed, i, samples) for i in range(start, hands)]
    if workers <= 1:
        yield from map(_play, jobs)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(_play, jobs, chunksize=1)


# -- the fit ----------------------------------------------------------------------------------


@dataclass
class Examples:
    """Decisions to fit a network to: rows of features, where each decision's rows start,
    which row was chosen (``engine.ai.reading.Rows``), only decisions with a choice."""

    x: np.ndarray
    start: np.ndarray
    chosen: np.ndarray

    @property
    def decisions(self) -> int:
        return len(self.start)

    @classmethod
    def join(cls, parts: Sequence[Rows]) -> Examples:
        xs, starts, chosen = [], [], []
        at = 0
        for rows in parts:
            sizes = np.diff(np.r_[rows.start, len(rows.x)])
            keep = (sizes > 1) & (rows.chosen >= 0)
            if not keep.any():
                continue
            idx = np.concatenate([np.arange(a, a + k) for a, k in
                                  zip(rows.start[keep], sizes[keep], strict=True)])
            new_sizes = sizes[keep]
            new_start = np.r_[0, np.cumsum(new_sizes)[:-1]]
            xs.append(rows.x[idx].astype(np.float64))
            starts.append(at + new_start)
            chosen.append(at + new_start + (rows.chosen[keep] - rows.start[keep]))
            at += len(idx)
        if not xs:
            return cls(np.zeros((0, 0)), np.zeros(0, dtype=np.int64),
                       np.zeros(0, dtype=np.int64))
        return cls(np.concatenate(xs), np.concatenate(starts), np.concatenate(chosen))

    def subset(self, decisions: np.ndarray) -> Examples:
        sizes = np.diff(np.r_[self.start, len(self.x)])[decisions]
        first = self.start[decisions]
        idx = np.repeat(first, sizes) + (np.arange(sizes.sum())
                                         - np.repeat(np.r_[0, np.cumsum(sizes)[:-1]], sizes))
        start = np.r_[0, np.cumsum(sizes)[:-1]]
        return Examples(self.x[idx], start, start + (self.chosen[decisions] - first))


def _forward(params: dict[str, np.ndarray], x: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pre = x @ params["w"] + params["b"]
    h = np.maximum(pre, 0.0)
    return h @ params["out"] + x @ params["linear"], h, pre


def _softmax(s: np.ndarray, start: np.ndarray) -> np.ndarray:
    sizes = np.diff(np.r_[start, len(s)])
    top = np.repeat(np.maximum.reduceat(s, start), sizes)
    e = np.exp(s - top)
    return e / np.repeat(np.add.reduceat(e, start), sizes)  # type: ignore[no-any-return]


def nats(params: dict[str, np.ndarray], ex: Examples) -> float:
    """Mean log chance of the choices made, less a uniform pick's: what the model tells."""
    if not ex.decisions:
        return 0.0
    s, _, _ = _forward(params, ex.x)
    p = _softmax(s, ex.start)
    sizes = np.diff(np.r_[ex.start, len(s)])
    return float(np.mean(np.log(p[ex.chosen]) + np.log(sizes)))


def uniform_nats(ex: Examples) -> float:
    """What a uniform pick leaves to tell: the mean log of the number of choices."""
    sizes = np.diff(np.r_[ex.start, len(ex.x)])
    return float(np.mean(np.log(sizes))) if len(sizes) else 0.0


def fit(ex: Examples, valid: Examples, hidden: int, seed: int, epochs: int = 60,
        batch: int = 512, rate: float = 3e-3, l2: float = 1e-4) -> dict[str, np.ndarray]:
    """The network maximising the likelihood of the choices made (Adam on minibatches of
    decisions, a little L2), the epoch best on ``valid`` kept. Reproducible from ``seed``."""
    rng = np.random.default_rng(seed)
    width = ex.x.shape[1]
    params = {
        "w": rng.normal(0.0, 1.0 / math.sqrt(width), (width, hidden)),
        "b": np.zeros(hidden),
        "out": rng.normal(0.0, 1.0 / math.sqrt(hidden), hidden),
        "linear": np.zeros(width),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    # At least a few dozen steps an epoch, however few the decisions.
    batch = max(16, min(batch, ex.decisions // 40))
    best, best_nats = {k: v.copy() for k, v in params.items()}, nats(params, valid)
    step = 0
    for _ in range(epochs):
        order = rng.permutation(ex.decisions)
        for at in range(0, len(order), batch):
            part = ex.subset(np.sort(order[at:at + batch]))
            s, h, pre = _forward(params, part.x)
            ds = _softmax(s, part.start)
            ds[part.chosen] -= 1.0
            ds /= part.decisions
            dh = np.outer(ds, params["out"]) * (pre > 0)
            grads = {"out": h.T @ ds, "linear": part.x.T @ ds, "w": part.x.T @ dh,
                     "b": dh.sum(axis=0)}
            step += 1
            for k, g in grads.items():
                g = g + l2 * params[k]
                m, v = moments[k]
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                params[k] -= rate * (m / (1 - 0.9 ** step)) / (
                    np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        score = nats(params, valid)
        if score > best_nats:
            best, best_nats = {k: v.copy() for k, v in params.items()}, score
    return best


def examples(records: Sequence[dict[str, Any]], vocabulary: dict[str, int] | None = None,
             universe: int = 32) -> tuple[Examples, Examples, dict[str, int]]:
    """The card plays and the other choices of these records (decisions with a choice
    only), and the choices' vocabulary (made from the records when not given: every phase
    and action seen, sorted)."""
    hands = [replay(r) for r in records]
    cards = [rows for rows in map(reading.played_rows, hands) if rows is not None]
    choices = [ch for h in hands for _, ch in reading.choices_of(h)]
    if vocabulary is None:
        vocabulary = {w: i for i, w in enumerate(sorted({k for ch in choices
                                                         for k in ch.keys}))}
    chosen = Examples.join([reading.choice_features(vocabulary, universe, choices)]
                           if choices else [])
    return Examples.join(cards), chosen, vocabulary


def leads(ex: Examples, lead: bool = True) -> Examples:
    """The decisions of ``ex`` that lead a trick (``lead``), or those that follow."""
    if not ex.decisions:
        return ex
    col = reading.CARD_FEATURES.index("leads")
    return ex.subset(np.flatnonzero((ex.x[ex.start, col] > 0) == lead))


def read_records(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _commit() -> str:
    import subprocess

    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def train(game: str, records: Sequence[dict[str, Any]], test: int, hidden: int, seed: int,
          epochs: int) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The model's arrays (``engine.ai.reading.model_from_arrays``) fitted to all records
    but the last ``test``, and the figures on those."""
    universe = len(make_rules(game).points)
    train_part, test_part = records[:len(records) - test], records[len(records) - test:]
    cards, choices, vocabulary = examples(train_part, universe=universe)
    test_cards, test_choices, _ = examples(test_part, vocabulary, universe)
    arrays: dict[str, np.ndarray] = {"universe": np.array(universe)}
    figures: dict[str, Any] = {}
    net = fit(cards, test_cards, hidden, seed, epochs)
    arrays.update({f"cards_{k}": v for k, v in net.items()})
    for name, part in (("cards", test_cards), ("leads", leads(test_cards)),
                       ("follows", leads(test_cards, lead=False))):
        figures[name] = {"decisions": part.decisions, "nats_a_choice": round(nats(net, part), 4),
                         "uniform_nats": round(uniform_nats(part), 4)}
    figures["cards"]["train_decisions"] = cards.decisions
    if choices.decisions >= 50:
        net = fit(choices, test_choices, hidden, seed, epochs)
        arrays.update({f"choices_{k}": v for k, v in net.items()})
        arrays["vocabulary"] = np.array(sorted(vocabulary, key=vocabulary.__getitem__))
        figures["choices"] = {"decisions": test_choices.decisions,
                              "train_decisions": choices.decisions,
                              "nats_a_choice": round(nats(net, test_choices), 4),
                              "uniform_nats": round(uniform_nats(test_choices), 4)}
    return arrays, figures


def main(argv: list[str] | None = None) -> int:
    import argparse
    import hashlib
    import sys
    from pathlib import Path

    parser = argparse.ArgumentParser(prog="python -m engine.tools.train",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--level", default="hard_unread", help="the self-play's players")
    parser.add_argument("--samples", type=int, help="samples a decision of a search level "
                        "(default: the level's own)")
    parser.add_argument("--hands", type=int, default=1500)
    parser.add_argument("--test", type=int, default=200, help="hands held out of the fit")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hidden", type=int, default=32, help="hidden units a network")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--records", help="keep the self-play records in this file (and "
                        "play only the hands it lacks)")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "ai"
                                              / "models"), help="where the weights go")
    args = parser.parse_args(argv)
    if not 0 <= args.test < args.hands:
        parser.error("--test must be from 0 to --hands - 1")
    records: list[dict[str, Any]] = []
    if args.records and Path(args.records).exists():
        records = read_records(args.records)[:args.hands]
    sink = open(args.records, "a", encoding="utf-8") if args.records else None  # noqa: SIM115
    try:
        for n, record in enumerate(self_play_records(args.game, args.level, args.hands,
                                                     args.seed, args.workers, len(records),
                                                     args.samples), len(records)):
            records.append(record)
            if sink is not None:
                sink.write(json.dumps(record) + "\n")
                sink.flush()
            sys.stderr.write(f"\rself-play {n + 1}/{args.hands}")
    finally:
        if sink is not None:
            sink.close()
    digest = hashlib.sha256("".join(json.dumps(r) + "\n" for r in records).encode()).hexdigest()
    arrays, figures = train(args.game, records, args.test, args.hidden, args.seed, args.epochs)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    np.savez(out / f"{args.game}.npz", **arrays)  # type: ignore[arg-type]
    provenance = {
        "game": args.game,
        "command": "python -m engine.tools.train " + " ".join(
            f"--{k} {v}" for k, v in (("game", args.game), ("level", args.level),
                                     ("samples", args.samples), ("hands", args.hands),
                                     ("test", args.test), ("seed", args.seed),
                                     ("hidden", args.hidden), ("epochs", args.epochs))
            if v is not None),
        "self_play": {"level": args.level, "samples": args.samples, "hands": args.hands,
                      "seed": args.seed,
                      "deals": f"Random('train|{args.game}|{args.seed}|i'), i < {args.hands}",
                      "records_sha256": digest},
        "engine_commit": _commit(),
        "numpy": np.__version__,
        "held_out": {"hands": args.test, **figures},
    }
    (out / f"{args.game}.json").write_text(json.dumps(provenance, indent=2) + "\n",
                                          encoding="utf-8")
    sys.stderr.write("\n")
    print(json.dumps(provenance["held_out"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
