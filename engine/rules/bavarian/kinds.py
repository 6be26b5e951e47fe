"""Bavarian Schafkopf's phases and action kinds, and their record notation (RULINGS.md B4,
B10, B12; docs/record-format.md).

>>> from engine.actions import action_from_json
>>> action_from_json({"stoss": 2}), action_from_json({"game": "solo_tout_H"}).value
(Action(kind='stoss', value=2), 'solo_tout_H')
"""

from __future__ import annotations

from typing import Any

from engine.actions import (
    Action,
    NotationError,
    choice,
    parse_card,
    parse_flag,
    register_kind,
    same,
)
from engine.cards import code
from engine.rules.bavarian.games import CLASSES, GAME_NAMES

KNOCK = "knock"
ANNOUNCE = "announce"
CLARIFY = "clarify"
CHOOSE = "game"
WEDDING = "wedding"
EXCHANGE = "exchange"
KONTRA = "kontra"
RE = "re"
LEAD = "lead"
#: The doubling window's phases: ``kontra`` while the opponents may double (Kontra, Sup...),
#: ``re`` while the declaring party may (Re...).
WINDOWS = (KONTRA, RE)

WEITER, DAD, KLOPFEN, BID, GAME = "weiter", "dad", "klopfen", "class", "game"
HEIRATEN, GIVE, STOSS, CLAIM = "heiraten", "give", "stoss", "claim"


def _level(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
        raise NotationError(f"{v!r} is not a doubling (1 Kontra, 2 Re, 3 Sup ... 6)")
    return v


for _kind in (WEITER, DAD, KLOPFEN, HEIRATEN, CLAIM):
    register_kind(_kind, parse_flag, same)
register_kind(BID, choice(*CLASSES), same)
register_kind(GAME, choice(*sorted(GAME_NAMES)), same)
register_kind(GIVE, parse_card, code)
register_kind(STOSS, _level, same)

WEITER_ACTION = Action(WEITER, True)
DAD_ACTION = Action(DAD, True)

DECLARING, OPPONENTS = 0, 1

#: B10.2: what each doubling is called, from the first.
STOSS_NAMES = ("kontra", "re", "sup", "hirsch", "stoss5", "stoss6")
