"""The computer levels' starting ratings, per game, as calibrated (``python -m bot.ratings
calibrate``) and shipped in ``levels.json``: a server's first hands against its computers
then already mean something."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from bot.ratings.model import Rating, is_computer_player

LEVELS_FILE = Path(__file__).resolve().parent / "levels.json"


@cache
def calibrated(path: Path = LEVELS_FILE) -> dict[str, dict[str, Rating]]:
    """Game -> level -> starting rating (no hands played on the server yet)."""
    if not path.exists():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return {game: {level: Rating(mu=float(r["mu"]), sigma=float(r["sigma"]))
                   for level, r in entry["levels"].items()}
            for game, entry in data.get("games", {}).items()}


def prior(game: str, player: str) -> Rating:
    """Where a player's rating starts in a season: a person at OpenSkill's default, a
    computer level at its calibrated rating for the game (the default where none is)."""
    if is_computer_player(player):
        level = player.split(":", 1)[1]
        found = calibrated().get(game, {}).get(level)
        if found is not None:
            return found
    return Rating()
