"""Rating pictures (matplotlib with the Agg backend: no display needed): a player's rating
history, and the leaderboard's top ten. Each is drawn once per data and wording: the same
request is served from a cache."""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from bot.ratings.board import conservative
from bot.store import RatingChange

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: The pictures are drawn for a phone first: Discord's app shows an embed's picture about
#: ``PHONE_PX`` wide on a 400 px phone, and every word on it must read there at least
#: ``MIN_TEXT_PX`` tall (``tests/test_ratings_words.py`` measures the drawn text). So the
#: figure is narrow (``WIDTH`` inches, drawn at ``DPI``: 640 px, scaled by half on a phone)
#: and its fonts are large for its size (``FONT`` points); a desktop shows it sharp.
PHONE_PX = 320
MIN_TEXT_PX = 12
WIDTH = 4.0
DPI = 160
FONT = 12

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
    return png(rating_figure(pts, labels))


def png(fig: Figure) -> bytes:
    out = io.BytesIO()
    fig.savefig(out, format="png", facecolor=BACKGROUND)
    return out.getvalue()


def _style(ax: Axes) -> None:
    ax.set_facecolor(BACKGROUND)
    ax.tick_params(colors=FOREGROUND, labelsize=FONT)
    for spine in ax.spines.values():
        spine.set_color(GRID)


#: Characters of ``FONT`` a line holds across the figure (beside a legend's mark); longer
#: words are wrapped, in every language.
LINE_CHARS = 36


def _wrapped(text: str, chars: int = LINE_CHARS) -> str:
    return textwrap.fill(text, chars, break_long_words=False)


def _legend(fig: Figure, ax: Axes, columns: int) -> None:
    """The legend under the chart, across its width (inside it would hide the lines), its
    labels wrapped to their column."""
    handles, texts = ax.get_legend_handles_labels()
    width = LINE_CHARS // columns - (3 if columns > 1 else 0)
    legend = fig.legend(handles, [_wrapped(x, width) for x in texts], loc="lower center",
                        ncol=columns,
                        facecolor=BACKGROUND, edgecolor=GRID, fontsize=FONT,
                        frameon=False)
    for text in legend.get_texts():
        text.set_color(FOREGROUND)


def rating_figure(pts: tuple[tuple[float, float], ...], labels: Labels) -> Figure:
    """The rating chart's figure (``rating_chart`` draws it to a PNG)."""
    # A Figure, not pyplot: no global state, safe from any thread.
    # matplotlib is imported when a picture is first drawn, not when the bot starts (a
    # fifth of its start-up imports).
    from matplotlib.figure import Figure

    fig = Figure(figsize=(WIDTH, 3.6), dpi=DPI, facecolor=BACKGROUND)
    ax = fig.add_subplot()
    _style(ax)
    xs = list(range(len(pts)))
    mus = [m for m, _ in pts]
    ax.fill_between(xs, [m - s for m, s in pts], [m + s for m, s in pts], color=MU_COLOUR,
                    alpha=0.25, linewidth=0)
    ax.plot(xs, mus, color=MU_COLOUR, linewidth=2, label=labels.mu)
    ax.plot(xs, [conservative(m, s) for m, s in pts], color=RANKED_COLOUR, linewidth=2,
            label=labels.ranked)
    ax.set_title(_wrapped(labels.title), color=FOREGROUND, fontsize=FONT)
    ax.set_xlabel(labels.hands, color=FOREGROUND, fontsize=FONT)
    ax.grid(color=GRID, linewidth=0.6)
    ax.set_xlim(0, max(1, len(xs) - 1))
    _legend(fig, ax, 1)
    # Room under the axes for the legend's two lines.
    fig.tight_layout(rect=(0, 0.2, 1, 1))
    return fig


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
    return png(top_figure(rows, labels))


def top_figure(rows: tuple[TopRow, ...], labels: TopLabels) -> Figure:
    """The top-ten picture's figure (``top_chart`` draws it to a PNG). Each player is one
    row: a bar to their rating with their place, name and rating written across it (names
    as tick labels would take half a phone's width from the bars), and a dot at the
    estimate. The picture stays about as tall as wide: Discord fits an embed's picture into
    a box, so a tall one would be drawn small."""
    from matplotlib import patheffects
    from matplotlib.figure import Figure

    fig = Figure(figsize=(WIDTH, 1.5 + 0.24 * max(1, len(rows))), dpi=DPI,
                 facecolor=BACKGROUND)
    ax = fig.add_subplot()
    _style(ax)
    ys = list(range(len(rows)))
    ranked = [r.ranked for r in rows]
    # A rating has no natural zero: the axis starts a little below the lowest bar, so that
    # the differences show.
    low = math.floor(min(ranked, default=0.0)) - 2
    high = max([r.mu for r in rows], default=low + 1)
    ax.barh(ys, [x - low for x in ranked], left=low, color=RANKED_COLOUR, alpha=0.45,
            height=0.86, label=labels.ranked)
    ax.plot([r.mu for r in rows], ys, "o", color=MU_COLOUR, markersize=7, label=labels.mu)
    outline = [patheffects.withStroke(linewidth=3, foreground=BACKGROUND)]
    for y, row in zip(ys, rows, strict=True):
        ax.text(low + 0.01 * (high - low), y, f"{row.rank}. {_drawable(row.name)}  "
                f"{row.ranked:.1f}", color=FOREGROUND, ha="left", va="center",
                fontsize=FONT, path_effects=outline)
    ax.set_yticks([])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(low, high + 0.04 * (high - low))
    ax.set_title(_wrapped(labels.title), color=FOREGROUND, fontsize=FONT)
    ax.grid(axis="x", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    _legend(fig, ax, 2)
    fig.tight_layout(rect=(0, 0.55 / fig.get_figheight(), 1, 1))
    return fig
