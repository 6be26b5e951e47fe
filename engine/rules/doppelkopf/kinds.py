"""Doppelkopf's phases and action kinds, and their record notation (RULINGS.md D4-D7, D11;
docs/record-format.md).

>>> from engine.actions import action_from_json, action_to_json
>>> action_from_json({"vorbehalt": "hochzeit"}), action_from_json({"ansage": "keine_90"}).value
(Action(kind='vorbehalt', value='hochzeit'), 'keine_90')
>>> action_to_json(action_from_json({"armut_lay": ["sa", "H10", "SA"]}))
{'armut_lay': ['H10', 'SA', 'SA']}
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, choice, parse_cards, parse_flag, register_kind, same
from engine.cards import Card, code
from engine.rules.doppelkopf.deck import SOLOS

# -- phases (``Hand.phase``) ---------------------------------------------------------------------

#: D4.1: each seat from forehand says gesund or Vorbehalt.
VORBEHALT = "vorbehalt"
#: D6.6: the vorgeführt seat names its Pflichtsolo.
VORFUEHREN = "vorfuehren"
#: D5.8: the Armut seat lays three cards aside; the others take them or not; the taker gives
#: three back.
ARMUT = "armut"
MITNEHMEN = "mitnehmen"
RUECKGABE = "rueckgabe"
#: The tricks while some seat may still announce (D7): the seat to play may announce before
#: its card (its announcements are among its legal actions, so that the computers can make
#: them), every other seat of a party at any moment (``free_legal``). Once nobody may
#: announce any more the tricks go on in the engine's own ``play`` phase.
ANSAGEN = "ansagen"

# -- action kinds ----------------------------------------------------------------------------

GESUND = "gesund"
#: The Vorbehalt with its kind, seen by its seat only (``public_action``): a solo of
#: ``solo_set``, ``hochzeit`` or ``armut`` (D4.2).
VORBEHALT_KIND = "vorbehalt"
HOCHZEIT, ARMUT_KIND = "hochzeit", "armut"
RESERVATIONS = (*SOLOS, HOCHZEIT, ARMUT_KIND)
#: D6.6: the solo a vorgeführt seat plays.
SOLO_TYPE = "solo_type"
#: D5.8: the three cards the Armut seat passes, and the three the taker gives back (each
#: seen by the two of them only), taking them (``mitnehmen``) or not (``weiter``).
LAY = "armut_lay"
TAKE = "mitnehmen"
WEITER = "weiter"
GIVE_BACK = "armut_return"
#: D7.1: an announcement, by the step it raises its party to (several steps in one act).
ANSAGE = "ansage"
#: The step words by level: level 1 is "re" for the Re party, "kontra" for Kontra.
STEP_WORDS = ("keine_90", "keine_60", "keine_30", "schwarz")
ANSAGE_WORDS = ("re", "kontra", *STEP_WORDS)

RE, KONTRA = 0, 1
#: The parties as records and facts name them (team 0 is Re).
PARTY_WORDS = ("re", "kontra")


def step_word(party: int, level: int) -> str:
    """``re``/``kontra`` for level 1, ``keine_90`` ... ``schwarz`` for 2-5."""
    return PARTY_WORDS[party] if level == 1 else STEP_WORDS[level - 2]


def level_of(word: str) -> int:
    """The level an announcement word raises its party to."""
    return 1 if word in PARTY_WORDS else STEP_WORDS.index(word) + 2


def _dump_cards(v: tuple[Card, ...]) -> list[str]:
    return [code(c) for c in v]


def _three(v: Any) -> tuple[Card, ...]:
    return parse_cards(v)


for _kind in (GESUND, TAKE, WEITER):
    register_kind(_kind, parse_flag, same)
register_kind(VORBEHALT_KIND, choice(*RESERVATIONS), same)
register_kind(SOLO_TYPE, choice(*SOLOS), same)
register_kind(LAY, _three, _dump_cards)
register_kind(GIVE_BACK, _three, _dump_cards)
register_kind(ANSAGE, choice(*ANSAGE_WORDS), same)

GESUND_ACTION = Action(GESUND, True)
TAKE_ACTION = Action(TAKE, True)
WEITER_ACTION = Action(WEITER, True)
RESERVE = {k: Action(VORBEHALT_KIND, k) for k in RESERVATIONS}
SOLO_ACTIONS = {k: Action(SOLO_TYPE, k) for k in SOLOS}
ANSAGE_ACTIONS = {w: Action(ANSAGE, w) for w in ANSAGE_WORDS}
