"""A server's leaderboard and a player's profile as web pages: the ``/leaderboard`` and
``/profile`` figures (``bot.ratings.board``), per game and season, and the rating chart as an
SVG drawn here (the page needs no picture from matplotlib).

>>> svg = rating_svg([(25.0, 8.3), (26.0, 7.9), (27.5, 7.5)], title="Ana")
>>> svg.startswith("<svg") and "polyline" in svg
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from bot.names import mention
from bot.ratings import board, season_of
from bot.ratings.board import sureness
from bot.ratings.chart import points
from bot.ratings.model import is_computer_player
from bot.ratings.words import rating_text, sure_short
from bot.store import Store, now
from bot.texts import game_title, t
from bot.voice import Person, Text, say
from bot.voice.wire import html
from engine import make_rules
from engine.rules import GAMES

#: The chart's size in SVG units (it scales to the page's width).
CHART_W, CHART_H, PAD = 640, 260, 36
MU_COLOUR = "#5865f2"
RANKED_COLOUR = "#f0b232"


def fmt(x: float) -> str:
    return f"{x:.1f}"


def trend(x: float) -> str:
    if x >= 0.05:
        return f"▲{x:.1f}"
    if x <= -0.05:
        return f"▼{-x:.1f}"
    return "＝"


def game_name(game: str) -> str:
    return game_title(game, make_rules(game).title)


def games() -> list[tuple[str, str]]:
    """Every game, as (key, name in the current language)."""
    return [(key, game_name(key)) for key in GAMES]


def player_name(player: str, names: Callable[[str], str | None]) -> str:
    if is_computer_player(player) or not player.isdigit():
        return mention(player)
    return names(player) or t("web.player", number=player[-4:])


async def current_season(store: Store, guild_id: int) -> int:
    return season_of(await store.seasons(guild_id), now())


@dataclass(frozen=True)
class BoardLine:
    rank: int
    name: str
    #: The player's user id (a person), for the profile link; None for a computer level.
    user_id: int | None
    rating: str
    #: How sure the rating is, in words.
    sure: str
    hands: int
    trend: str


async def board_lines(store: Store, guild_id: int, game: str, season: int,
                      names: Callable[[str], str | None]) -> list[BoardLine]:
    lines = board.leaderboard(await store.ratings(guild_id, game, season),
                              await store.rating_history(guild_id, game, season))
    return [BoardLine(line.rank, player_name(line.rating.player, names),
                      int(line.rating.player) if line.rating.player.isdigit() else None,
                      fmt(line.conservative), sure_short(line.rating.sigma),
                      line.rating.hands, trend(line.trend)) for line in lines]


async def profile(store: Store, guild_id: int, user_id: int, game: str, season: int,
                  names: Callable[[str], str | None]) -> dict[str, Any]:
    """What ``/profile`` says of a player in one game and season, and their chart."""
    player = str(user_id)
    lines = board.leaderboard(await store.ratings(guild_id, game, season), [])
    mine = next((line for line in lines if line.rating.player == player), None)
    out: dict[str, Any] = {"name": player_name(player, names), "rated": mine is not None}
    title = game_name(game)
    rating: Text
    if mine is None:
        rating = say("profile.unrated", game=title, season=season)
    else:
        r = mine.rating
        rating = say("profile.rating", rating=rating_text(mine.conservative), rank=mine.rank,
                     players=len(lines), season=season, sure=say(
                         f"rating.sure.{sureness(r.sigma)}", hands=t("n.hands", count=r.hands)))
    out["rating"] = html(rating)
    seasons = await store.seasons(guild_id)
    record = board.record_of(player, [r for r in await store.results(guild_id, game)
                                      if season_of(seasons, r.finished_at) == season])
    out["status"] = None
    out["partner"] = None
    if record.hands:
        out["status"] = html(Text(" · ".join([
            t("n.hands", count=record.hands),
            t("n.became_masters", count=record.became_masters),
            t("n.hands_as_masters", count=record.hands_as_masters),
            t("n.ran_away", count=record.ran_away),
            *([t("n.hat_hands", count=record.hats)] if game == "filko_hats" else []),
        ])))
        best = record.best_partner()
        out["partner"] = html(say("profile.partner_line", partner=Person(
            player_name(best.player, names), member=best.player), won=best.won,
            hands=t("n.hands", count=best.hands)) if best else say(
                "profile.no_partner", count=board.PARTNER_HANDS))
    history = await store.rating_history(guild_id, game, season, player)
    out["chart"] = rating_svg(points(history), title=t("chart.title", game=title,
                                                        season=season),
                              mu=t("chart.mu"), ranked=t("chart.ranked"),
                              hands=t("chart.hands")) if history else None
    return out


def rating_svg(pts: Sequence[tuple[float, float]], *, title: str, mu: str = "μ",
               ranked: str = "μ − 3σ", hands: str = "") -> str:
    """The rating hand by hand: the estimate μ with its ±σ band, and the ranked rating
    μ − 3σ, as an inline SVG that scales with the page (its text is escaped)."""
    n = len(pts)
    lows = [m - 3 * s for m, s in pts] + [m - s for m, s in pts]
    highs = [m + s for m, s in pts]
    lo, hi = min(lows, default=0.0), max(highs, default=1.0)
    if hi - lo < 1:
        hi, lo = hi + 0.5, lo - 0.5
    w, h = CHART_W - 2 * PAD, CHART_H - 2 * PAD

    def x(i: int) -> float:
        return PAD + (w * i / (n - 1) if n > 1 else w / 2)

    def y(v: float) -> float:
        return PAD + h * (hi - v) / (hi - lo)

    def path(values: Sequence[float]) -> str:
        return " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))

    band = path([m + s for m, s in pts]) + " " + " ".join(
        f"{x(i):.1f},{y(m - s):.1f}" for i, (m, s) in reversed(list(enumerate(pts))))
    ticks = "".join(
        f'<line x1="{PAD}" x2="{PAD + w}" y1="{y(v):.1f}" y2="{y(v):.1f}" class="grid"/>'
        f'<text x="{PAD - 4}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.0f}</text>'
        for v in _ticks(lo, hi))
    return (
        f'<svg class="chart" viewBox="0 0 {CHART_W} {CHART_H}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">'
        f'<text x="{CHART_W / 2}" y="20" text-anchor="middle" class="title">{escape(title)}'
        f'</text>{ticks}'
        f'<polygon points="{band}" fill="{MU_COLOUR}" fill-opacity="0.25"/>'
        f'<polyline points="{path([m for m, _ in pts])}" fill="none" stroke="{MU_COLOUR}" '
        f'stroke-width="2.5"/>'
        f'<polyline points="{path([m - 3 * s for m, s in pts])}" fill="none" '
        f'stroke="{RANKED_COLOUR}" stroke-width="2.5"/>'
        f'<text x="{PAD}" y="{CHART_H - 8}" fill="{MU_COLOUR}">■ {escape(mu)}</text>'
        f'<text x="{PAD + 150}" y="{CHART_H - 8}" fill="{RANKED_COLOUR}">■ {escape(ranked)}'
        f'</text><text x="{PAD + w}" y="{CHART_H - 8}" text-anchor="end">'
        f'{escape(hands)} {max(n - 1, 0)}</text></svg>')


def _ticks(lo: float, hi: float) -> list[float]:
    span = hi - lo
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100) if span / s <= 6)
    first = int(lo // step + 1) * step
    return [float(v) for v in range(first, int(hi) + 1, step)]
