"""Doppelkopf, game id ``doppelkopf`` (RULINGS.md, "Doppelkopf", D1-D14).

- ``deck``: the pack (every card twice), its special cards, each game's trumps;
- ``games``: the kinds of game as data (precedence, words);
- ``kinds``: the phases and action kinds, and their record notation;
- ``options``: the table options;
- ``announce``: the announcements' deadlines and replies;
- ``parties``: who is Re and who Kontra, as the table knows it;
- ``game``: the rules, phase by phase (``Doppelkopf``);
- ``refusals``: why an action is refused, each by its ruling's reason key;
- ``scoring``: who wins, the game points item by item, the match;
- ``computer``: the computer players' rules of thumb and their rebuild of hidden hands.
"""

from engine.rules.doppelkopf.game import Doppelkopf

__all__ = ["Doppelkopf"]
