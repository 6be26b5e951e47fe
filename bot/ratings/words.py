"""Ratings as players read them, wherever they are shown (``/leaderboard``, ``/profile``, the
web pages): a rating, a place, and how sure it is after so many hands — never "mu ± sigma"."""

from __future__ import annotations

from bot.ratings.board import sureness
from bot.texts import t


def rating_text(x: float) -> str:
    """A rating as shown: one decimal."""
    return f"{x:.1f}"


def sure_short(sigma: float) -> str:
    """How sure a rating is, in a word or two (a leaderboard's column)."""
    return t(f"rating.sure_short.{sureness(sigma)}")


def rating_sentence(*, rating: float, rank: int, players: int, season: int, sigma: float,
                    hands: int) -> str:
    """A player's rating, their place and how sure it is: a profile's first line."""
    return t("profile.rating", rating=rating_text(rating), rank=rank, players=players,
             season=season, sure=t(f"rating.sure.{sureness(sigma)}",
                                   hands=t("n.hands", count=hands)))
