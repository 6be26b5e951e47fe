"""Bavarian Schafkopf, game id ``schafkopf`` (RULINGS.md, "Bavarian Schafkopf", B1-B15).

- ``games``: the games as data (classes, trumps, Laufende);
- ``kinds``: the phases and action kinds, and their record notation;
- ``options``: the table options and tariffs;
- ``game``: the rules, phase by phase (``Schafkopf``);
- ``refusals``: why an action is refused, each by its rule's reason key;
- ``claims``: the abbreviated game's check;
- ``scoring``: the settlement;
- ``computer``: the computer players' rules of thumb and their rebuild of hidden hands.
"""

from engine.rules.bavarian.game import Schafkopf

__all__ = ["Schafkopf"]
