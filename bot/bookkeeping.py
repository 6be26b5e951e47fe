"""What a finished hand leaves in the store: its result row (standings and ratings read it)
and the result kept with the hand's record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.seats import Seating
from bot.store import HAND_WINNERS, HANDED_OVER, PartnershipStatus, ResultRow, now
from engine import HandResult


def masters_since(before: PartnershipStatus | None, result: HandResult) -> str | None:
    """Since when the masters are masters: kept while they stay, now when they change."""
    since = before.since if before is not None else None
    if result.status != result.status_before or since is None:
        since = now() if result.status.masters is not None else None
    return since


def hand_winner_seats(result: HandResult, hand_teams: Sequence[int | None]) -> list[int]:
    """The seats of the side that won the hand, where the game names a winner
    (``winner`` in the result's extra, a team of the hand: Rich and Poor)."""
    winner = result.extra.get("winner")
    if winner is None:
        return []
    return [s for s, team in enumerate(hand_teams) if team == winner]


def result_row(result: HandResult, *, hand_id: int, stored: PartnershipStatus,
               seating: Seating, seat_teams: Sequence[int],
               hand_winners: list[int]) -> ResultRow:
    """The hand's result for the standings and the ratings, every seat as its member."""
    a_is_0 = seating.team_letter(0) == "a"
    pa, pb = (result.points[0], result.points[1]) if a_is_0 else (
        result.points[1], result.points[0])
    fixed = seating.fixed_teams
    scores = result.extra.get("scores")
    return ResultRow(
        hand_id=hand_id, guild_id=stored.guild_id, game=stored.game,
        team_a=stored.team_a, team_b=stored.team_b, points_a=pa, points_b=pb,
        masters_before=seating.team_letter(result.status_before.masters) if fixed else None,
        masters_after=seating.team_letter(result.status.masters) if fixed else None,
        event=result.event,
        event_team=seating.team_letter(result.team) if fixed else None,
        finished_at=now(),
        members=seating.members(),
        masters_before_members=seating.masters_members(result.status_before, seat_teams),
        masters_after_members=seating.masters_members(result.status, seat_teams),
        scores=None if scores is None else {
            seating.member_at(s): int(scores[s]) for s in range(seating.players)},
        match_winners=seating.match_winners(result, seat_teams),
        hand_winners=[seating.member_at(s) for s in hand_winners],
    )


def result_json(result: HandResult, handed_over: set[int],
                hand_winners: list[int]) -> dict[str, Any]:
    """The result kept with the hand's record."""
    return {
        "points": list(result.points),
        "status": result.status.to_json(),
        "next_dealer": result.next_dealer,
        "event": result.event,
        "team": result.team,
        "early": result.early,
        **({"early_reason": result.early_reason} if result.early_reason else {}),
        **({"extra": result.extra} if result.extra else {}),
        #: The seats whose player left during the hand (``bot.ratings``: not rated).
        **({HANDED_OVER: sorted(handed_over)} if handed_over else {}),
        #: The seats of the side that won the hand (``bot.ratings``: how the hand ranks).
        **({HAND_WINNERS: hand_winners} if hand_winners else {}),
    }
