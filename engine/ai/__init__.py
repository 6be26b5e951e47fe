"""Computer players: Easy (rules of thumb), Normal and Hard (determinized search).

They implement ``engine.players.Player``: ``choose(view) -> Action`` from a ``SeatView`` only,
for any game of the family. ``make_player(level, seed)`` builds one:

>>> from engine import Match, make_rules, seat_view
>>> hand = Match(make_rules("filicau"), seed=3).deal()
>>> seat = hand.to_move
>>> make_player("normal", seed=1).choose(seat_view(hand, seat)) in hand.legal_actions()
True
"""

from __future__ import annotations

from engine.ai.easy import EasyPlayer
from engine.ai.search import (
    OpenHandPlayer,
    Reading,
    SearchPlayer,
    aimed_playout,
    greedy_playout,
    random_playout,
)
from engine.players import Player, RandomPlayer, SimplePlayer

#: Levels in order of strength (``random`` and ``simple`` are for comparison and old tables).
LEVELS = ("random", "simple", "easy", "normal", "hard")

#: Levels for ``python -m engine arena`` and ``ai-timing`` only: ``hard_baseline`` is Hard as
#: it was before the speed work (a fixed yardstick), ``hard_unread`` Hard before it read the
#: play (``engine.ai.reading``; it plays the self-play the model is fitted to), ``normal_unread``
#: Normal as it was (the same as Normal now, which does not read), ``hard_open`` Hard seeing
#: every card.
ARENA_LEVELS = (*LEVELS, "hard_baseline", "hard_unread", "normal_unread", "hard_open")

#: The search settings of each level: samples (the strength knob) and the time cap in seconds.
SEARCH = {
    # Normal does not read the play: against itself unread it was not measurably stronger
    # (docs/computer-players.md), and its hints and the seats it takes over stay as they were.
    "normal": {"samples": 24, "budget": 0.25, "exact_cards": 8, "playout": random_playout,
               "transpositions": False},
    "normal_unread": {"samples": 24, "budget": 0.25, "exact_cards": 8,
                      "playout": random_playout, "transpositions": False},
    "hard": {"samples": 200, "budget": 0.8, "exact_cards": 12, "playout": aimed_playout,
             "deep_cards": 16, "deep_nodes": 100, "choices": True, "reading": Reading(),
             "race": (20, 2.5)},
    "hard_unread": {"samples": 200, "budget": 0.8, "exact_cards": 12, "playout": aimed_playout,
                    "deep_cards": 16, "deep_nodes": 100, "choices": True},
    "hard_baseline": {"samples": 200, "budget": 0.8, "exact_cards": 12,
                      "playout": greedy_playout, "transpositions": False},
}


def make_player(level: str, seed: int | None = 0, *, timed: bool = True) -> Player:
    """A player of this level. ``timed=False`` drops the time cap (tests, reproducible runs):
    the sample count alone decides then."""
    if level == "random":
        return RandomPlayer(seed)
    if level == "simple":
        return SimplePlayer()
    if level == "easy":
        return EasyPlayer(seed)
    if level == "hard_open":
        settings = dict(SEARCH["hard_unread"])
        if not timed:
            settings["budget"] = None
        return OpenHandPlayer(level, seed=seed, **settings)  # type: ignore[arg-type]
    if level in SEARCH:
        settings = dict(SEARCH[level])
        if not timed:
            settings["budget"] = None
        return SearchPlayer(level, seed=seed, **settings)  # type: ignore[arg-type]
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")


__all__ = ["ARENA_LEVELS", "LEVELS", "EasyPlayer", "OpenHandPlayer", "Reading", "SearchPlayer",
           "make_player"]
