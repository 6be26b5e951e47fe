"""Play a match in a terminal against computer players: ``python -m engine play``
(``game.py``), worded in plain English (``words.py``)."""

from engine.tools.terminal.game import TerminalGame, play_terminal
from engine.tools.terminal.words import KINDS, describe

__all__ = ["KINDS", "TerminalGame", "describe", "play_terminal"]
