"""Ratings: OpenSkill ratings per person (and computer level) per game per server.

- ``model``: how a hand's result moves ratings (pure, deterministic);
- ``levels``: the computer levels' calibrated starting ratings (``levels.json``);
- ``calibrate``: rated hands among the levels, played by the engine;
- ``keeping``: ratings in the store, moved after each rated hand and rebuilt from results.

``python -m bot.ratings rebuild`` recomputes every stored rating from the stored results;
``python -m bot.ratings calibrate --game filicau --hands N`` calibrates the levels.
"""

from bot.ratings.keeping import compute, finish, rebuild, rebuild_if_stale, record, season_of
from bot.ratings.levels import prior
from bot.ratings.model import Rating, placings, update
from bot.seats import player_of

__all__ = ["Rating", "compute", "finish", "placings", "player_of", "prior", "rebuild",
           "rebuild_if_stale", "record", "season_of", "update"]
