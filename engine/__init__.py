"""A pure rules engine for Filicău, Filkó and their Schafkopf relatives.

No I/O, no asyncio, no Discord: a hand is a state machine (``Hand``) driven by actions, built
from a game's ``Rules``; a ``Match`` carries status and the deal from hand to hand; a game
record (pack + actions) replays to the same state every time.

>>> from engine import Match, make_rules
>>> match = Match(make_rules("filko"), seed=1)
>>> hand = match.deal()
>>> sorted(hand.legal_actions())[0].kind
'card'
"""

from engine import cards
from engine.actions import Action, IllegalAction, action_from_json, action_to_json
from engine.errors import EngineError, OptionsError
from engine.hand import FINISHED, PLAYING, Hand, HandResult, Trick
from engine.match import Match
from engine.record import GameRecord, ReplayError, replay, report, to_record
from engine.rules import GAMES, Rules, make_rules
from engine.status import EVEN, RecordError, Status
from engine.view import PublicView, SeatView, public_view, seat_view

__all__ = [
    "EVEN",
    "FINISHED",
    "GAMES",
    "PLAYING",
    "Action",
    "EngineError",
    "GameRecord",
    "Hand",
    "HandResult",
    "IllegalAction",
    "Match",
    "OptionsError",
    "PublicView",
    "RecordError",
    "ReplayError",
    "Rules",
    "SeatView",
    "Status",
    "Trick",
    "action_from_json",
    "action_to_json",
    "cards",
    "make_rules",
    "public_view",
    "replay",
    "report",
    "seat_view",
    "to_record",
]
