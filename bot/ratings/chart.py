"""Rating pictures (matplotlib with the Agg backend: no display needed): a player's rating
history, and the leaderboard's top ten. Each is drawn once per data and wording: the same
request is served from a cache."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from matplotlib.figure import Figure

from bot.ratings.board import conservative
from bot.store import RatingChange

#: Discord's dark theme, so the chart sits in an embed without a white box.
BACKGROUND = "#2b2d31"
FOREGROUND = "#dbdee1"
GRID = "#3f4147"
MU_COLOUR = "#5865f2"
RANKED_COLOUR = "#f0b232"


@dataclass(frozen=True)
class Labels:
    """The chart's words, in the reader's language."""

    title: str
    hands: str
    mu: str
    ranked: str


def points(history: Sequence[RatingChange]) -> tuple[tuple[float, float], ...]:
    """(mu, sigma) before the first hand and after each one."""
    if not history:
        return ()
    first = history[0]
    return ((first.mu_before, first.sigma_before),
            *((c.mu, c.sigma) for c in history))


def rating_chart(history: Sequence[RatingChange], labels: Labels) -> bytes:
    """A PNG: the estimate (mu) with its ± sigma band, and the ranked rating mu - 3 sigma,
    hand by hand."""
    return _draw(points(history), labels)


@lru_cache(maxsize=128)
def _draw(pts: tuple[tuple[float, float], ...], labels: Labels) -> bytes:
    # A Figure, not pyplot: no global state, safe from any thread.
    fig = Figure(figsize=(6.4, 3.2), dpi=100, facecolor=BACKGROUND)
    ax = fig.add_subplot()
    ax.set_facecolor(BACKGROUND)
    xs = list(range(len(pts)))
    mus = [m for m, _ in pts]
    ax.fill_between(xs, [m - s for m, s in pts], [m + s for m, s in pts], color=MU_COLOUR,
                    alpha=0.25, linewidth=0)
    ax.plot(xs, mus, color=MU_COLOUR, linewidth=2, label=labels.mu)
    ax.plot(xs, [conservative(m, s) for m, s in pts], color=RANKED_COLOUR, linewidth=2,
            label=labels.ranked)
    ax.set_title(labels.title, color=FOREGROUND)
    ax.set_xlabel(labels.hands, color=FOREGROUND)
    ax.tick_params(colors=FOREGROUND)
    ax.grid(color=GRID, linewidth=0.6)
    for spine in ax.spines.values():
        spine.set_color(GRID)
    ax.set_xlim(0, max(1, len(xs) - 1))
    legend = ax.legend(loc="lower right", facecolor=BACKGROUND, edgecolor=GRID)
    for text in legend.get_texts():
        text.set_color(FOREGROUND)
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png", facecolor=BACKGROUND)
    return out.getvalue()


@dataclass(frozen=True)
class TopLabels:
    """The top-ten picture's words, in the reader's language."""

    title: str
    ranked: str
    mu: str


@dataclass(frozen=True)
class TopRow:
    """One line of the leaderboard as the picture shows it."""

    rank: int
    #: The name as Discord shows it (a member's display name, or a computer's level).
    name: str
    mu: float
    sigma: float

    @property
    def ranked(self) -> float:
        return conservative(self.mu, self.sigma)


def top_chart(rows: Sequence[TopRow], labels: TopLabels) -> bytes:
    """A PNG of the leaderboard's first lines, best at the top: a bar to each one's ranked
    rating ``mu - 3 sigma`` (written at its end), and a thin line on to the estimate
    ``mu``."""
    return _draw_top(tuple(rows), labels)


#: Matplotlib's bundled font has no emoji: a name's are left out of the picture.
def _drawable(name: str) -> str:
    kept = "".join(c for c in name if ord(c) <= 0xFFFF and not 0xFE00 <= ord(c) <= 0xFE0F
                   and not 0x2600 <= ord(c) <= 0x27BF)
    return kept.strip() or "?"


@lru_cache(maxsize=64)
def _draw_top(rows: tuple[TopRow, ...], labels: TopLabels) -> bytes:
    fig = Figure(figsize=(6.4, 1.4 + 0.36 * max(1, len(rows))), dpi=100,
                 facecolor=BACKGROUND)
    ax = fig.add_subplot()
    ax.set_facecolor(BACKGROUND)
    ys = list(range(len(rows)))
    ranked = [r.ranked for r in rows]
    # A rating has no natural zero: the axis starts a little below the lowest bar, so that
    # the differences show.
    low = math.floor(min(ranked, default=0.0)) - 2
    high = max([r.mu for r in rows], default=low + 1)
    ax.barh(ys, [x - low for x in ranked], left=low, color=RANKED_COLOUR, height=0.62,
            label=labels.ranked)
    ax.hlines(ys, ranked, [r.mu for r in rows], color=MU_COLOUR, linewidth=2)
    ax.plot([r.mu for r in rows], ys, "o", color=MU_COLOUR, markersize=5, label=labels.mu)
    for y, row in zip(ys, rows, strict=True):
        ax.text(row.ranked - 0.01 * (high - low), y, f"{row.ranked:.1f}", color=BACKGROUND,
                ha="right", va="center", fontsize=9, fontweight="bold")
    ax.set_yticks(ys, [f"{r.rank}. {_drawable(r.name)}" for r in rows], color=FOREGROUND)
    ax.invert_yaxis()
    ax.set_xlim(low, high + 0.05 * (high - low))
    ax.set_title(labels.title, color=FOREGROUND)
    ax.tick_params(colors=FOREGROUND)
    ax.grid(axis="x", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    for spine in ax.spines.values():
        spine.set_color(GRID)
    legend = fig.legend(loc="lower center", ncol=2, facecolor=BACKGROUND, edgecolor=GRID,
                        fontsize=8)
    for text in legend.get_texts():
        text.set_color(FOREGROUND)
    fig.tight_layout(rect=(0, 0.5 / fig.get_figheight(), 1, 1))
    out = io.BytesIO()
    fig.savefig(out, format="png", facecolor=BACKGROUND)
    return out.getvalue()
