"""What a tournament shows: its announcement (with Sign up, Withdraw, Start now while it takes
sign-ups), its standings after each round and its final results. Lines are short (a phone's
width); people are named by mention (an embed shows a mention as the name and pings nobody),
computers by their level and number."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord
from babel.numbers import format_decimal

from bot import render
from bot.protocol import Op
from bot.seats import parse_member
from bot.store import Entrant, TournamentRow
from bot.texts import current_language, game_title, t
from bot.tournaments.scoring import Standing
from bot.views import stopped
from engine.rules import GAMES

#: Entrants named on the announcement before "and N more".
LISTED = 40
COLOUR = discord.Colour.gold()


def when(moment: str, style: str = "f") -> str:
    """A stored time as Discord's timestamp (each reader sees it in their own time zone)."""
    return discord.utils.format_dt(datetime.fromisoformat(moment), style)  # type: ignore[arg-type]


def name(entrant: str) -> str:
    """An entrant as the tournament's messages name them."""
    member = parse_member(entrant)
    if member.level is None:
        return f"<@{entrant}>"
    # In the table's words (``bot.voice.table.person``): one name for a computer entrant
    # on the announcement, the standings and at every table it sits at.
    level = t(f"level.{member.level}")
    computer = (t("lobby.computer_seat", seat=member.rank) if member.rank
                else t("lobby.computer"))
    return t("lobby.computer_named", name=computer, level=level)


def title(row: TournamentRow) -> str:
    game = game_title(row.game, GAMES[row.game].title)
    return t("tour.title", number=row.id, game=game, format=t(f"tour.format_{row.format}"))


def announcement(row: TournamentRow, entrants: Sequence[Entrant]) -> discord.Embed:
    lines = [t("tour.by", user=f"<@{row.organizer_id}>"),
             t("tour.plan", rounds=row.rounds, hands=row.hands)]
    if row.state == "signup":
        lines.append(t("tour.signup_until", when=when(row.starts_at)))
    elif row.state == "running":
        lines.append(t("tour.round_in_play", round=row.round, rounds=row.rounds))
    elif row.state == "finished":
        lines.append(t("tour.over"))
    else:
        lines.append(t("tour.cancelled"))
    lines.append(t(f"tour.explain_{row.format}"))
    embed = discord.Embed(title=title(row), colour=COLOUR, description="\n".join(lines))
    shown = [name(e.entrant) for e in entrants[:LISTED]]
    if len(entrants) > LISTED:
        shown.append(t("tour.more", count=len(entrants) - LISTED))
    embed.add_field(name=t("tour.entrants", count=len(entrants)),
                    value="\n".join(shown) or t("tour.nobody"), inline=False)
    return embed


def announcement_view(row: TournamentRow) -> discord.ui.View | None:
    if row.state != "signup":
        return None
    return stopped(
        render.button(Op.TOURNAMENT, row.id, "signup", label=t("btn.sign_up"),
                      style=discord.ButtonStyle.green),
        render.button(Op.TOURNAMENT, row.id, "withdraw", label=t("btn.withdraw")),
        render.button(Op.TOURNAMENT, row.id, "start", label=t("btn.start_now"),
                      style=discord.ButtonStyle.blurple))


def score_number(score: float) -> str:
    """A score as players read it, in the language spoken: at most two decimals, none
    that are zero (a third of a point shows as .33, not .333333).

    >>> from bot.texts import speaking
    >>> score_number(5 / 3), score_number(2.0), score_number(1.5)
    ('1.67', '2', '1.5')
    >>> with speaking("de"):
    ...     score_number(5 / 3)
    '1,67'
    """
    return format_decimal(round(score, 2), format="#,##0.##", locale=current_language())


def score_text(row: TournamentRow, standing: Standing) -> str:
    score = score_number(standing.score)
    if row.format == "duplicate":
        if standing.percent is None:
            return t("tour.score_mp", score=score)
        return t("tour.score_mp_percent", score=score, percent=f"{standing.percent:.0f}")
    return t("tour.score_points", score=score)


def standings_embed(row: TournamentRow, standings: Sequence[Standing], after: int, *,
                    final: bool) -> discord.Embed:
    """The standings after round ``after`` (the final results after the last)."""
    if final:
        heading = t("tour.final_title")
    elif after == 0:
        # Nothing played yet: the round in play, not "after round 0".
        heading = t("tour.round_in_play", round=max(1, row.round), rounds=row.rounds)
    else:
        heading = t("tour.standings_title", round=after, rounds=row.rounds)
    lines = [t("tour.standing_line", place=s.place, name=name(s.entrant),
               score=score_text(row, s)) for s in standings]
    embed = discord.Embed(title=f"{title(row)}\n{heading}", colour=COLOUR,
                          description="\n".join(lines) or t("tour.nobody"))
    embed.set_footer(text=t(f"tour.tiebreaks_{row.format}"))
    return embed


def seated_text(round_number: int, table: int, seats: Sequence[str]) -> str:
    return t("tour.seated", round=round_number, table=table,
             players=", ".join(name(e) for e in seats), button=t("btn.my_hand"))


def event_fields(row: TournamentRow, location: str) -> dict[str, Any]:
    """The scheduled event's name, description and place (a link to the channel)."""
    return {"name": title(row)[:100],
            "description": (t("tour.plan", rounds=row.rounds, hands=row.hands) + "\n"
                            + t(f"tour.explain_{row.format}"))[:1000],
            "entity_metadata": {"location": location[:100]}}
