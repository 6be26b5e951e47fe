"""Server standings, computed from the stored hand results."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.seats import is_computer
from bot.store import Member, PartnershipStatus, ResultRow
from engine.rules import GAMES


@dataclass
class PairLine:
    team_a: list[Member]
    team_b: list[Member]
    hands: int = 0
    #: Index 0 for team a, 1 for team b.
    became_masters: tuple[int, int] = (0, 0)
    hands_as_masters: tuple[int, int] = (0, 0)
    ran_away: tuple[int, int] = (0, 0)
    masters_now: str | None = None


@dataclass
class PlayerLine:
    member: Member
    hands: int = 0
    became_masters: int = 0
    hands_as_masters: int = 0
    ran_away: int = 0
    #: Sum of the per-hand scores (games scored per player), and matches won.
    score: int = 0
    matches_won: int = 0


def _add(pair: tuple[int, int], side: str | None) -> tuple[int, int]:
    if side == "a":
        return (pair[0] + 1, pair[1])
    if side == "b":
        return (pair[0], pair[1] + 1)
    return pair


def standings(results: Iterable[ResultRow]) -> tuple[list[PairLine], list[PlayerLine]]:
    """Per partnership and per player: hands played, times they became masters, hands spent
    as masters, run-aways, score and matches won. Games whose teams form per deal have no
    partnership lines; their players are counted from the members stored with each result.
    Players are ranked by times they became masters, then score and matches won."""
    pairs: dict[tuple[tuple[str, ...], tuple[str, ...]], PairLine] = {}
    players: dict[Member, PlayerLine] = {}

    def player(m: Member) -> PlayerLine | None:
        if is_computer(m):
            return None
        return players.setdefault(m, PlayerLine(m))

    for r in results:
        for m in r.match_winners:
            p = player(m)
            if p is not None:
                p.matches_won += 1
        for m, v in (r.scores or {}).items():
            p = player(m)
            if p is not None:
                p.score += v
        if not r.team_a or not r.team_b:
            # Teams formed in the deal: count each member.
            before, after = set(r.masters_before_members), set(r.masters_after_members)
            for m in r.members:
                p = player(m)
                if p is None:
                    continue
                p.hands += 1
                p.became_masters += m in after and m not in before
                p.hands_as_masters += m in before
            continue
        key = (tuple(r.team_a), tuple(r.team_b))
        line = pairs.setdefault(key, PairLine(list(r.team_a), list(r.team_b)))
        line.hands += 1
        made = r.masters_after if r.masters_after and r.masters_after != r.masters_before \
            else None
        line.became_masters = _add(line.became_masters, made)
        line.hands_as_masters = _add(line.hands_as_masters, r.masters_before)
        ran = r.event_team if r.event == "ran_away" else None
        line.ran_away = _add(line.ran_away, ran)
        line.masters_now = r.masters_after
        for side, team in (("a", r.team_a), ("b", r.team_b)):
            for m in team:
                p = player(m)
                if p is None:
                    continue
                p.hands += 1
                p.became_masters += made == side
                p.hands_as_masters += r.masters_before == side
                p.ran_away += ran == side
    ranked = sorted(players.values(), key=lambda p: (
        -p.became_masters, -p.matches_won, -p.score, -p.hands_as_masters, -p.hands, p.member))
    return list(pairs.values()), ranked


def match_solos(statuses: Iterable[PartnershipStatus], game: str) -> dict[Member, int]:
    """Solos each player has announced in the match in progress, where the game counts them
    (Wendish with Muss-Solo: ``Status.solos``, stored per player), from each group's latest
    status."""
    out: dict[Member, int] = {}
    latest: dict[Member, str] = {}
    for st in statuses:
        solos = st.extra.get("solos") if st.game == game else None
        if not isinstance(solos, dict):
            continue
        for member, count in solos.items():
            when = st.updated_at or ""
            if member not in latest or when >= latest[member]:
                latest[member], out[member] = when, int(count)
    return out


def badge_wearers(statuses: Iterable[PartnershipStatus], game: str) -> set[Member]:
    """Players of ``game`` wearing its losers' badge (``Rules.losers_badge``: the hats of
    Filkó with Hats): the team that is not masters, in each partnership's current status,
    until they win."""
    if GAMES[game].losers_badge is None:
        return set()
    out: set[Member] = set()
    for st in statuses:
        if st.game == game and st.masters is not None:
            out |= set(st.team_b if st.masters == "a" else st.team_a)
    return out
