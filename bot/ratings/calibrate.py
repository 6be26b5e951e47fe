"""Calibrating the computer levels: rated hands among the levels, played by the engine.

Deals are played in duplicate, as in ``engine.arena``: each pack twice with the same dealer
and status, the two levels swapping seats, and a deal starts even, with the first level
masters or with the second (in turn). The pairs of levels take turns deal by deal, and the
hands are rated in that order from OpenSkill's default, through the same ``update`` the
bot uses; the levels' final ratings are their starting ratings on every server.

The hands are kept (``CalibrationHand``, in ``calibration_GAME.json``), so that the ratings
can be checked against them without playing again.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal, TextIO

from openskill.models import PlackettLuce

from bot.ratings.levels import LEVELS_FILE
from bot.ratings.model import MU, SIGMA, Rating, default_prior, replay
from bot.store import ResultRow
from engine.ai import make_player
from engine.arena import _status as arena_status
from engine.arena import play_hand
from engine.hand import Hand
from engine.players import Player
from engine.rules import make_rules

LEVELS = ("easy", "normal", "hard")
#: The rating model of the calibration: the bot's, without the drift of a player's skill.
STATIC = PlackettLuce(mu=MU, sigma=SIGMA, tau=0.0)
DATA_DIR = LEVELS_FILE.parent


@dataclass(frozen=True)
class CalibrationHand:
    """One hand among two levels: level ``a`` is partnership "a"."""

    a: str
    b: str
    masters_before: Literal["a", "b"] | None
    masters_after: Literal["a", "b"] | None
    points_a: int
    points_b: int
    event: str

    def result(self, game: str, hand_id: int) -> ResultRow:
        """The hand as the bot stores a result (the computers' members as a table writes
        them)."""
        members = [f"cpu:{self.a}@a", f"cpu:{self.b}@b", f"cpu:{self.a}@a#1",
                   f"cpu:{self.b}@b#1"]
        return ResultRow(
            hand_id=hand_id, guild_id=0, game=game, team_a=[f"cpu:{self.a}"] * 2,
            team_b=[f"cpu:{self.b}"] * 2, points_a=self.points_a, points_b=self.points_b,
            masters_before=self.masters_before, masters_after=self.masters_after,
            event=self.event, event_team=None, finished_at="", members=members,
            masters_before_members=[m for m in members if self.masters_before
                                    and m.split("@")[1][0] == self.masters_before],
            masters_after_members=[m for m in members if self.masters_after
                                   and m.split("@")[1][0] == self.masters_after],
        )


def pairs(levels: Sequence[str]) -> list[tuple[str, str]]:
    return list(itertools.combinations(levels, 2))


def play_deal(game: str, a: str, b: str, seed: int, index: int) -> list[CalibrationHand]:
    """Deal ``index`` played twice, level ``a`` in seats 0 and 2, then in 1 and 3."""
    rules = make_rules(game)
    if not rules.fixed_teams or rules.players % 2 or rules.teams != 2:
        raise ValueError(f"{game}: calibration plays fixed partnerships of two levels")
    rng = random.Random(f"calibrate|{game}|{seed}|{index}")
    pack = list(rules.pack)
    rng.shuffle(pack)
    dealer = rng.randrange(rules.players)
    kind = index % 3  # 0 even, 1 level a masters, 2 level b masters
    out: list[CalibrationHand] = []
    for a_team in (0, 1):
        masters = None if kind == 0 else (a_team if kind == 1 else 1 - a_team)
        status = arena_status(game, kind, masters, dealer)
        players: list[Player] = [
            make_player(a if s % 2 == a_team else b, seed=seed * 1000 + index * 10 + s,
                        timed=False)
            for s in range(rules.players)]
        hand = play_hand(Hand(rules, dealer, pack, status), players)
        result = hand.result
        assert result is not None

        def letter(team: int | None, a_team: int = a_team) -> Literal["a", "b"] | None:
            return None if team is None else ("a" if team == a_team else "b")

        out.append(CalibrationHand(
            a=a, b=b, masters_before=letter(status.masters),
            masters_after=letter(result.status.masters),
            points_a=result.points[a_team], points_b=result.points[1 - a_team],
            event=result.event))
    return out


def _work(job: tuple[str, str, str, int, int]) -> list[CalibrationHand]:
    return play_deal(*job)


def jobs(game: str, levels: Sequence[str], hands: int,
         seed: int) -> list[tuple[str, str, str, int, int]]:
    """Deals enough for ``hands`` hands (two a deal), the pairs of levels in turn. Each pair
    plays deals 0, 1, 2… (so every pair gets the same packs, and each its share of even
    starts and of either level starting as masters)."""
    cycle = pairs(levels)
    deals = (hands + 1) // 2
    return [(game, *cycle[i % len(cycle)], seed, i // len(cycle)) for i in range(deals)]


def play(game: str, levels: Sequence[str], hands: int, seed: int = 1, workers: int = 1,
         err: TextIO | None = sys.stderr,
         played: Sequence[CalibrationHand] = ()) -> list[CalibrationHand]:
    """``hands`` hands; the first ``played`` (hands of an earlier run with the same levels
    and seed) are kept rather than played again."""
    if len(played) % 2:
        raise ValueError("the hands played before must be whole deals")
    todo = jobs(game, levels, hands, seed)[len(played) // 2:]
    started = time.perf_counter()
    out: list[CalibrationHand] = list(played)

    def results() -> Iterator[list[CalibrationHand]]:
        if workers <= 1:
            yield from map(_work, todo)
            return
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(workers) as pool:
            yield from pool.imap(_work, todo, chunksize=1)

    for done, deal in enumerate(results(), start=1):
        out += deal
        if err is not None:
            err.write(f"\r{done}/{len(todo)} deals, {time.perf_counter() - started:6.0f} s")
            err.flush()
    if err is not None:
        err.write("\n")
    return out[:hands]


def rate(game: str, hands: Sequence[CalibrationHand]) -> dict[str, Rating]:
    """The levels' ratings after these hands, all starting at OpenSkill's default. A level's
    strength does not change from hand to hand, so its uncertainty is not widened between
    hands (OpenSkill's ``tau`` is 0 here; for people it is the default)."""
    ratings, _ = replay([h.result(game, i) for i, h in enumerate(hands, start=1)],
                        default_prior, model=STATIC)
    return {p.split(":", 1)[1]: r for p, r in ratings.items()}


def hands_file(game: str, directory: Path = DATA_DIR) -> Path:
    return directory / f"calibration_{game}.json"


def save(game: str, hands: Sequence[CalibrationHand], seed: int,
         levels_file: Path = LEVELS_FILE) -> dict[str, Rating]:
    """Store the hands and the levels' ratings after them (other games' entries kept)."""
    ratings = rate(game, hands)
    # One hand a line: a file that reads (and diffs) hand by hand.
    lines = ",\n".join(json.dumps(asdict(h)) for h in hands)
    hands_file(game, levels_file.parent).write_text(
        f'{{"game": {json.dumps(game)}, "seed": {seed}, "hands": [\n{lines}\n]}}\n',
        encoding="utf-8")
    data: dict[str, Any] = (json.loads(levels_file.read_text(encoding="utf-8"))
                            if levels_file.exists() else {"games": {}})
    data["games"][game] = {
        "hands": len(hands), "seed": seed,
        "levels": {level: {"mu": r.mu, "sigma": r.sigma, "conservative": r.conservative}
                   for level, r in sorted(ratings.items(), key=lambda x: -x[1].mu)},
    }
    levels_file.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n",
                           encoding="utf-8")
    return ratings


def load(game: str, directory: Path = DATA_DIR) -> list[CalibrationHand]:
    data = json.loads(hands_file(game, directory).read_text(encoding="utf-8"))
    return [CalibrationHand(**h) for h in data["hands"]]
