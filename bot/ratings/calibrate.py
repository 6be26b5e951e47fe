"""Calibrating the computer levels: rated hands among the levels, played by the engine.

Deals are played in duplicate, as in ``engine.tools.arena``: each pack twice with the same dealer
and status, the two levels swapping seats (one in the even seats, the other in the odd
ones). At fixed-partnership games with masters a deal starts even, with the first level
masters or with the second (in turn); every other game starts each deal afresh (its teams
form in the deal, or it has no masters). The pairs of levels take turns deal by deal, and
the hands are rated in that order from OpenSkill's default, through the same ``update`` the
bot uses, each stored as the bot stores a result (``CalibrationHand.result``); the levels'
final ratings are their starting ratings on every server.

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
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path
from statistics import fmean
from typing import Any, Literal, TextIO

from openskill.models import PlackettLuce

from bot.ratings.levels import LEVELS_FILE
from bot.ratings.model import MU, SIGMA, Rating, default_prior, placings, replay
from bot.store import ResultRow
from engine.ai import make_player
from engine.errors import EngineError
from engine.hand import Hand, HandResult
from engine.players import Player
from engine.rules import make_rules
from engine.rules.base import Rules
from engine.status import Status
from engine.tools.arena import _status as arena_status
from engine.tools.arena import play_hand

LEVELS = ("easy", "normal", "hard")
#: The rating model of the calibration: the bot's, without the drift of a player's skill.
STATIC = PlackettLuce(mu=MU, sigma=SIGMA, tau=0.0)
DATA_DIR = LEVELS_FILE.parent


@dataclass(frozen=True)
class CalibrationHand:
    """One hand among two levels: level ``a`` is partnership "a".

    Where teams form in the deal (or a game scores seats), ``seats`` holds each seat's
    level, and the seats that were masters before and after, each seat's score change and
    the seats that won a match or the hand are kept by seat;
    ``masters_before``/``masters_after`` and the points are then those of the engine's
    team 0 (seat 0's) and team 1."""

    a: str
    b: str
    masters_before: Literal["a", "b"] | None
    masters_after: Literal["a", "b"] | None
    points_a: int
    points_b: int
    event: str
    seats: list[str] | None = None
    masters_before_seats: list[int] = field(default_factory=list)
    masters_after_seats: list[int] = field(default_factory=list)
    scores: list[int] | None = None
    match_winners: list[int] = field(default_factory=list)
    #: The seats of the side that won the hand, where the game names it (Rich and Poor).
    hand_winners: list[int] = field(default_factory=list)

    def result(self, game: str, hand_id: int) -> ResultRow:
        """The hand as the bot stores a result (the computers' members as a table writes
        them: ``bot.session.TableSession._member_at``)."""
        if self.seats is not None:
            return self._seated_result(game, hand_id)
        pairs = make_rules(game).players // 2
        members = [f"cpu:{level}@{side}" + (f"#{rank}" if rank else "")
                   for rank in range(pairs) for level, side in ((self.a, "a"), (self.b, "b"))]
        return ResultRow(
            hand_id=hand_id, guild_id=0, game=game, team_a=[f"cpu:{self.a}"] * pairs,
            team_b=[f"cpu:{self.b}"] * pairs, points_a=self.points_a, points_b=self.points_b,
            masters_before=self.masters_before, masters_after=self.masters_after,
            event=self.event, event_team=None, finished_at="", members=members,
            masters_before_members=[m for m in members if self.masters_before
                                    and m.split("@")[1][0] == self.masters_before],
            masters_after_members=[m for m in members if self.masters_after
                                   and m.split("@")[1][0] == self.masters_after],
        )

    def _seated_result(self, game: str, hand_id: int) -> ResultRow:
        assert self.seats is not None
        members = [f"cpu:{level}" + (f"#{rank}" if (rank := self.seats[:s].count(level))
                                     else "")
                   for s, level in enumerate(self.seats)]
        return ResultRow(
            hand_id=hand_id, guild_id=0, game=game, team_a=members, team_b=[],
            points_a=self.points_a, points_b=self.points_b, masters_before=None,
            masters_after=None, event=self.event, event_team=None, finished_at="",
            members=members,
            masters_before_members=[members[s] for s in self.masters_before_seats],
            masters_after_members=[members[s] for s in self.masters_after_seats],
            scores=None if self.scores is None else dict(zip(members, self.scores,
                                                             strict=True)),
            match_winners=[members[s] for s in self.match_winners],
            hand_winners=[members[s] for s in self.hand_winners],
        )


def pairs(levels: Sequence[str]) -> list[tuple[str, str]]:
    return list(itertools.combinations(levels, 2))


def _start(rules: Rules, game: str, masters: int | None, dealer: int) -> tuple[Status, int]:
    """A status with ``masters`` (a team) and a dealer it allows: the arena's status at
    ``dealer`` if the game takes it, else the first slave after ``dealer`` who may deal it
    (the arena's status, or a standing Servant of the slaves)."""
    status = arena_status(game, 1, masters, dealer)
    if _allowed(rules, status, dealer):
        return status, dealer
    assert masters is not None
    for step in range(rules.players):
        seat = (dealer + step) % rules.players
        if rules.seat_teams[seat] == masters:
            continue
        for status in (arena_status(game, 1, masters, seat), Status(masters, seat)):
            if _allowed(rules, status, seat):
                return status, seat
    raise ValueError(f"{game}: no deal starts with team {masters} masters")


def _allowed(rules: Rules, status: Status, dealer: int) -> bool:
    try:
        Hand(rules, dealer, list(rules.pack), status)
    except EngineError:
        return False
    return True


def play_deal(game: str, a: str, b: str, seed: int, index: int) -> list[CalibrationHand]:
    """Deal ``index`` played twice, level ``a`` in the even seats (0, 2…), then in the odd
    ones."""
    rules = make_rules(game)
    fixed = rules.fixed_teams and rules.players % 2 == 0 and rules.teams == 2
    rng = random.Random(f"calibrate|{game}|{seed}|{index}")
    pack = list(rules.pack)
    rng.shuffle(pack)
    dealer = rng.randrange(rules.players)
    # 0 even, 1 level a masters, 2 level b masters; where teams form in the deal (or there
    # are no masters), always even.
    kind = index % 3 if fixed and "masters" in rules.status_fields else 0
    out: list[CalibrationHand] = []
    for a_team in (0, 1):
        masters = None if kind == 0 else (a_team if kind == 1 else 1 - a_team)
        status, first = (Status(), dealer) if masters is None else _start(
            rules, game, masters, dealer)
        levels = [a if s % 2 == a_team else b for s in range(rules.players)]
        players: list[Player] = [
            make_player(level, seed=seed * 1000 + index * 10 + s, timed=False)
            for s, level in enumerate(levels)]
        hand = play_hand(Hand(rules, first, pack, status), players)
        result = hand.result
        assert result is not None
        if fixed:

            def letter(team: int | None, a_team: int = a_team) -> Literal["a", "b"] | None:
                return None if team is None else ("a" if team == a_team else "b")

            out.append(CalibrationHand(
                a=a, b=b, masters_before=letter(status.masters),
                masters_after=letter(result.status.masters),
                points_a=result.points[a_team], points_b=result.points[1 - a_team],
                event=result.event))
        else:
            out.append(_seated(rules, a, b, levels, result, hand.team))
    return out


def _seated(rules: Rules, a: str, b: str, levels: list[str], result: HandResult,
            teams_of_hand: Sequence[int]) -> CalibrationHand:
    """A hand where teams form in the deal, kept by seat as ``bot.session`` stores it."""

    def masters(status: Status) -> list[int]:
        if status.masters is None:
            return []
        teams = status.teams or rules.seat_teams
        return [s for s in range(rules.players) if teams[s] == status.masters]

    scores = result.extra.get("scores")
    winners = result.extra.get("match_winner") or []
    if rules.score_by_seat:
        won = [s for s in winners if 0 <= s < rules.players]
    else:
        teams = result.status_before.teams or rules.seat_teams
        won = [s for s in range(rules.players) if teams[s] in winners]
    points = [*result.points, 0, 0]
    # As bot.session stores it (TableSession._hand_winner_seats).
    winner = result.extra.get("winner")
    hand_won = [] if winner is None else [s for s, t in enumerate(teams_of_hand)
                                          if t == winner]
    return CalibrationHand(
        a=a, b=b, masters_before=None, masters_after=None, points_a=points[0],
        points_b=points[1], event=result.event, seats=levels,
        masters_before_seats=masters(result.status_before),
        masters_after_seats=masters(result.status),
        scores=None if scores is None else [int(x) for x in scores], match_winners=won,
        hand_winners=hand_won)


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


#: How far the levels' mean mu may stray from OpenSkill's start for a calibration to be
#: shipped. Where teams of different sizes meet (a declarer against two defenders), the
#: rating model takes a team's strength as the sum of its members', expects the larger team
#: to win, and every level sinks together hand after hand: such ratings are not on the
#: scale a person starts on (25), so the levels keep that default start instead.
DRIFT = 2.0


def drifted(ratings: dict[str, Rating]) -> bool:
    """Whether the levels sank (or rose) together: see ``DRIFT``."""
    return abs(fmean(r.mu for r in ratings.values()) - MU) > DRIFT


def undecided(game: str, hands: Sequence[CalibrationHand]) -> bool:
    """Whether no hand ranked anyone above anyone: the stored result of such a game names
    no winner the ratings can read (no status, no seat scores), so every hand is a tie
    and the calibration says nothing."""
    return all(len({rank for _, rank in placings(h.result(game, i))}) < 2
               for i, h in enumerate(hands, start=1))


def shipped(game: str, hands: Sequence[CalibrationHand], ratings: dict[str, Rating]) -> bool:
    """Whether these hands' ratings become the levels' starting ratings."""
    return not drifted(ratings) and not undecided(game, hands)


def save(game: str, hands: Sequence[CalibrationHand], seed: int,
         levels_file: Path = LEVELS_FILE) -> dict[str, Rating]:
    """Store the hands and the levels' ratings after them (other games' entries kept); a
    calibration that is not ``shipped`` (it ``drifted``, or it is ``undecided``) stores its
    hands only: its levels start at the default, and once the bot rates such hands without
    the drift, or reads their winners, ``--more`` rates them again."""
    ratings = rate(game, hands)
    # One hand a line: a file that reads (and diffs) hand by hand.
    lines = ",\n".join(json.dumps(_compact(h)) for h in hands)
    hands_file(game, levels_file.parent).write_text(
        f'{{"game": {json.dumps(game)}, "seed": {seed}, "hands": [\n{lines}\n]}}\n',
        encoding="utf-8")
    data: dict[str, Any] = (json.loads(levels_file.read_text(encoding="utf-8"))
                            if levels_file.exists() else {"games": {}})
    if not shipped(game, hands, ratings):
        data["games"].pop(game, None)
    else:
        data["games"][game] = {
            "hands": len(hands), "seed": seed,
            "levels": {level: {"mu": r.mu, "sigma": r.sigma, "conservative": r.conservative}
                       for level, r in sorted(ratings.items(), key=lambda x: -x[1].mu)},
        }
    levels_file.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n",
                           encoding="utf-8")
    return ratings


def _compact(hand: CalibrationHand) -> dict[str, Any]:
    """The hand's fields, those at their defaults left out (a fixed-partnership game's
    hands have no seats)."""
    defaults = CalibrationHand("", "", None, None, 0, 0, "")
    return {k: v for k, v in asdict(hand).items()
            if k in _REQUIRED or v != getattr(defaults, k)}


_REQUIRED = frozenset(f.name for f in fields(CalibrationHand)
                      if f.default is MISSING and f.default_factory is MISSING)


def load(game: str, directory: Path = DATA_DIR) -> list[CalibrationHand]:
    data = json.loads(hands_file(game, directory).read_text(encoding="utf-8"))
    return [CalibrationHand(**h) for h in data["hands"]]
