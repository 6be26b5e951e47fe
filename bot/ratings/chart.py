"""A player's rating history as a small picture (matplotlib with the Agg backend: no display
needed). Drawn once per history and wording: the same request is served from a cache."""

from __future__ import annotations

import io
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
