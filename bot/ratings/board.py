"""What the leaderboard and a profile show, from stored ratings, their history and the
results: pure functions (the cog reads the store and words them)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.ratings.model import SIGMA, placings
from bot.seats import player_of
from bot.store import Member, RatingChange, RatingRow, ResultRow

#: The trend is the move of the ranked rating over a player's last this many hands.
TREND_HANDS = 10
#: Hands together before a partner can be someone's best.
PARTNER_HANDS = 3
PAGE_SIZE = 10


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


#: How sure a rating is, told in words rather than as ``mu ± sigma``: the uncertainty as a
#: share of a newcomer's, below each step one word surer (a first guess, settling, fairly
#: sure, sure). A player who plays often reaches "fairly sure" in a few dozen hands.
SURE_STEPS = (0.9, 0.65, 0.4)


def sureness(sigma: float) -> int:
    """0 (a first guess) to 3 (sure), from a rating's uncertainty.

    >>> sureness(SIGMA), sureness(0.7 * SIGMA), sureness(0.5 * SIGMA), sureness(0.2 * SIGMA)
    (0, 1, 2, 3)
    """
    share = sigma / SIGMA
    return sum(share < step for step in SURE_STEPS)


@dataclass(frozen=True)
class Line:
    rank: int
    rating: RatingRow
    #: The ranked rating's move over the player's last ``TREND_HANDS`` hands.
    trend: float

    @property
    def conservative(self) -> float:
        return conservative(self.rating.mu, self.rating.sigma)


def trends(history: Iterable[RatingChange], hands: int = TREND_HANDS) -> dict[str, float]:
    """Each player's move of ``mu - 3 sigma`` over their last ``hands`` changes."""
    by_player: dict[str, list[RatingChange]] = defaultdict(list)
    for c in history:
        by_player[c.player].append(c)
    out: dict[str, float] = {}
    for player, changes in by_player.items():
        first, last = changes[-hands:][0], changes[-1]
        out[player] = (conservative(last.mu, last.sigma)
                       - conservative(first.mu_before, first.sigma_before))
    return out


def leaderboard(ratings: Iterable[RatingRow], history: Iterable[RatingChange]) -> list[Line]:
    """Everyone rated, best ranked rating first (more hands, then the id break ties)."""
    trend = trends(history)
    ranked = sorted(ratings, key=lambda r: (-conservative(r.mu, r.sigma), -r.hands, r.player))
    return [Line(i, r, trend.get(r.player, 0.0)) for i, r in enumerate(ranked, start=1)]


def page_count(lines: Sequence[Line]) -> int:
    return max(1, -(-len(lines) // PAGE_SIZE))


def page(lines: Sequence[Line], number: int) -> list[Line]:
    """Page ``number`` (from 1; clamped to the pages there are)."""
    number = min(max(number, 1), page_count(lines))
    return list(lines[(number - 1) * PAGE_SIZE:number * PAGE_SIZE])


@dataclass
class Partner:
    player: str
    hands: int = 0
    won: int = 0


@dataclass
class Record:
    """A player's hands in one game: how their status went and with whom."""

    hands: int = 0
    became_masters: int = 0
    hands_as_masters: int = 0
    ran_away: int = 0
    #: Hands begun as slaves in Filkó with Hats (in a hat).
    hats: int = 0
    partners: dict[str, Partner] = field(default_factory=dict)

    def best_partner(self) -> Partner | None:
        """The partner they won most often with (share of hands won together; then more
        hands), among those with at least ``PARTNER_HANDS`` hands together."""
        ok = [p for p in self.partners.values() if p.hands >= PARTNER_HANDS]
        return max(ok, key=lambda p: (p.won / p.hands, p.hands, p.player), default=None)


def _side(member: Member, row: ResultRow) -> str | None:
    if row.team_a and row.team_b:
        if member in row.team_a:
            return "a"
        return "b" if member in row.team_b else None
    return None


def record_of(player: str, results: Iterable[ResultRow]) -> Record:
    """What ``player`` (a member, or ``cpu:LEVEL``) did in these results."""
    out = Record()
    for row in results:
        placed = placings(row)
        mine = [(team, rank) for team, rank in placed
                if any(player_of(m) == player for m in team)]
        if not mine:
            continue
        team, rank = mine[0]
        member = next(m for m in team if player_of(m) == player)
        out.hands += 1
        fixed = bool(row.team_a and row.team_b)
        if fixed:
            side = "a" if any(player_of(m) == player for m in row.team_a) else "b"
            before, after = row.masters_before, row.masters_after
            out.became_masters += after == side and before != side
            out.hands_as_masters += before == side
            out.ran_away += row.event == "ran_away" and row.event_team == side
            out.hats += (row.game == "filko_hats" and before is not None and before != side)
        else:
            was, now = member in row.masters_before_members, member in row.masters_after_members
            out.became_masters += now and not was
            out.hands_as_masters += was
        won = rank == 0 and any(r != 0 for _, r in placed)
        for mate in {player_of(m) for m in team} - {player}:
            p = out.partners.setdefault(mate, Partner(mate))
            p.hands += 1
            p.won += won
    return out
