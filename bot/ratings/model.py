"""How a hand's result moves ratings: pure functions, no I/O, deterministic.

A rating is OpenSkill's (Plackett–Luce) pair: ``mu``, the estimated strength, and ``sigma``,
how unsure that estimate is; players are ranked by the conservative rating ``mu - 3 sigma``
(``Rating.conservative``), so that a newcomer with a lucky first hand does not top the list.

Each hand ranks its teams by what the hand did to them, as the game ranks it, best first:

1. a match won (games played as matches);
2. the status change: becoming masters (or getting out of slavery) beats no change beats
   losing masters (or becoming slaves);
3. the status after the hand: masters who held beat slaves who stayed slaves;
4. the hand won, where the game names the side that won it and the status does not say
   (Rich and Poor: the Rich with 6 points, else the Poor; ``ResultRow.hand_winners``);
5. the hand's score, where a game scores players rather than teams (Schafkopf, Wendish…).

Equal teams tie. At fixed-partnership games (Filicău, Filkó) the two partnerships are the
teams; where teams form in the deal, the players whose hand went the same way are one team
(partners win and lose together), so partnerships feed their members' ratings everywhere.

Computers are rated per level: every ``cpu:normal`` seat of a game is the one player
``cpu:normal``. A level sitting in several seats of one hand moves by the sum of its seats'
moves (scaled where computers fill every seat: ``update``).

>>> from bot.store import ResultRow
>>> row = ResultRow(hand_id=1, guild_id=1, game="filicau", team_a=["1", "3"],
...                 team_b=["2", "4"], points_a=6, points_b=2, masters_before=None,
...                 masters_after="a", event="masters", event_team="a", finished_at="")
>>> placings(row)
[(['1', '3'], 0), (['2', '4'], 1)]
>>> after = update({}, row, default_prior)
>>> after["1"].mu > 25 > after["2"].mu
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean

from openskill.models import PlackettLuce

from bot.seats import parse_member, player_of
from bot.store import Member, ResultRow

#: OpenSkill's defaults: a new player is 25 ± 25/3.
MU = 25.0
SIGMA = 25.0 / 3.0
MODEL = PlackettLuce(mu=MU, sigma=SIGMA)

@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    #: Rated hands played.
    hands: int = 0

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: what the leaderboard ranks by."""
        return self.mu - 3 * self.sigma


#: Where a player's rating starts: a person at OpenSkill's default, a computer at its level's
#: calibrated rating (``bot.ratings.levels``).
Prior = Callable[[str, str], Rating]


def default_prior(game: str, player: str) -> Rating:
    return Rating()


def is_computer_player(player: str) -> bool:
    return player.startswith("cpu:")


def _status_value(masters: str | None, side: str) -> int:
    if masters is None:
        return 0
    return 1 if masters == side else -1


def _side(member: Member, row: ResultRow) -> str | None:
    """A member's partnership ("a"/"b") at a fixed-partnership table."""
    team = parse_member(member).team
    if team:
        return team
    if member in row.team_a:
        return "a"
    return "b" if member in row.team_b else None


Key = tuple[int, int, int, int, int]


def _seats(row: ResultRow) -> list[tuple[Member, Key, str]]:
    """Each seat's member, how well its hand went (higher is better) and its team: the
    partnership's letter, or the key itself where teams form in the deal."""
    won = set(row.match_winners)
    hand_won = set(row.hand_winners)
    scores = row.scores or {}
    fixed = bool(row.team_a and row.team_b)
    if fixed:
        members = row.members or [*row.team_a, *row.team_b]
        out: list[tuple[Member, Key, str]] = []
        for m in members:
            side = _side(m, row)
            if side is None:
                continue
            mates = [x for x in members if _side(x, row) == side]
            before = _status_value(row.masters_before, side)
            after = _status_value(row.masters_after, side)
            key = (int(any(x in won for x in mates)), after - before, after,
                   int(any(x in hand_won for x in mates)), sum(scores.get(x, 0) for x in mates))
            out.append((m, key, side))
        return out
    before_set, after_set = set(row.masters_before_members), set(row.masters_after_members)
    out = []
    for m in row.members:
        before = 0 if not before_set else (1 if m in before_set else -1)
        after = 0 if not after_set else (1 if m in after_set else -1)
        key = (int(m in won), after - before, after, int(m in hand_won), scores.get(m, 0))
        out.append((m, key, repr(key)))
    return out


def placings(row: ResultRow) -> list[tuple[list[Member], int]]:
    """The hand's teams (their seats' members) and their ranks, 0 the best; equal ranks
    tie. Where everyone did the same and teams form in the deal, each player is their own
    team, all tied."""
    seats = _seats(row)
    teams: dict[str, list[Member]] = {}
    keys: dict[str, Key] = {}
    for member, key, team in seats:
        teams.setdefault(team, []).append(member)
        keys[team] = key
    if len(teams) == 1 and not (row.team_a and row.team_b):
        return [([m], 0) for m, _, _ in seats]
    order = sorted(set(keys.values()), reverse=True)
    return [(members, order.index(keys[team])) for team, members in teams.items()]


def update(ratings: Mapping[str, Rating], row: ResultRow, prior: Prior,
           model: PlackettLuce = MODEL) -> dict[str, Rating]:
    """The new ratings of the players of this hand, from their ratings before it (a player
    missing from ``ratings`` starts at ``prior``).

    Sides of different sizes (a declarer against two, the Old Man against three) are
    brought to one size before OpenSkill sees them: each seat of a side of ``n`` stands
    ``L / n`` times in it (``L`` the least common multiple of the sizes), and the seat
    moves by the sum of its copies. OpenSkill takes a team's strength as the sum of its
    members' and splits the team's move among them; without this, two average players
    would be expected to beat one (twice the strength), and every hand the lone player
    won would take more from the pair than it gave the winner, so that a table whose lone
    players win often (Dreiwendsch, Schafkopf for three) sank hand after hand. With it,
    sides are compared by their members' mean strength and each side's total move is the
    one OpenSkill gives a team of ``L``: at equal uncertainty the lone winner gains what
    the two losers lose together. Sides of one size (Filicău) are rated exactly as
    OpenSkill rates them.

    A player in several seats (a computer level) moves by the sum of its seats' moves,
    so that the hand moves as much rating up as down whoever sits where (with the mean
    of its seats, a level in two seats of the losing pair and the winning lone seat of a
    three-player hand would gain more than the other level lost), and takes the mean of
    its seats' uncertainties. Where every player holds several seats (computers only: a
    level fills each side of a calibration hand) the sums are divided by the fewest seats
    a player holds, so that a level filling a side moves as far as a person would: there
    the sum is the mean of its seats, as before.
    """
    placed = placings(row)
    if len(placed) < 2:
        return {}

    def before(member: Member) -> Rating:
        player = player_of(member)
        return ratings.get(player) or prior(row.game, player)

    size = math.lcm(*(len(members) for members, _ in placed))
    teams = [[model.create_rating([before(m).mu, before(m).sigma])
              for m in members for _ in range(size // len(members))]
             for members, _ in placed]
    rated = model.rate(teams, ranks=[float(rank) for _, rank in placed])
    moves: dict[str, list[tuple[float, float]]] = {}
    for (members, _), new_team in zip(placed, rated, strict=True):
        copies = size // len(members)
        for i, member in enumerate(members):
            mine = new_team[i * copies:(i + 1) * copies]
            moves.setdefault(player_of(member), []).append(
                (sum(new.mu - before(member).mu for new in mine), mine[0].sigma))
    share = min(len(seat_moves) for seat_moves in moves.values())
    out: dict[str, Rating] = {}
    for player, seat_moves in moves.items():
        old = ratings.get(player) or prior(row.game, player)
        out[player] = Rating(mu=old.mu + math.fsum(d for d, _ in seat_moves) / share,
                             sigma=fmean(s for _, s in seat_moves), hands=old.hands + 1)
    return out


@dataclass(frozen=True)
class Change:
    """One player's rating before and after one hand."""

    hand_id: int
    player: str
    before: Rating
    after: Rating


def counted_only(new: Mapping[str, Rating],
                 counted: Collection[str] | None) -> dict[str, Rating]:
    """The new ratings a server keeps of a hand: all of them (``counted`` None: a hand of
    its own), or those of its own members who played a hand across servers that it counts
    in its own ratings (the strangers and computers there move on the ladder only).

    >>> counted_only({"1": Rating(), "2": Rating()}, ["2"])
    {'2': Rating(mu=25.0, sigma=8.333333333333334, hands=0)}
    """
    if counted is None:
        return dict(new)
    return {p: r for p, r in new.items() if p in counted}


def replay(rows: Sequence[ResultRow], prior: Prior, start: Mapping[str, Rating] | None = None,
           model: PlackettLuce = MODEL,
           counted: Mapping[int, Collection[str]] | None = None,
           ) -> tuple[dict[str, Rating], list[Change]]:
    """Every player's rating after these hands, played in this order, and each change;
    ``counted``: the hands across servers among them, each with the members it counts for
    (``counted_only``)."""
    ratings = dict(start or {})
    changes: list[Change] = []
    for row in rows:
        new = counted_only(update(ratings, row, prior, model),
                           None if counted is None else counted.get(row.hand_id))
        for player, after in sorted(new.items()):
            changes.append(Change(row.hand_id, player,
                                  ratings.get(player) or prior(row.game, player), after))
        ratings.update(new)
    return ratings, changes
