"""How a tournament table deals (``bot.tournaments``): how many hands it plays, and, in a
duplicate tournament, the deals every table of the round plays alike.

A tournament table carries its plan in its settings (``TOURNAMENT``), so that a restart
deals on exactly as before. Its first hand starts even, whatever these players' stored
status: a tournament is its own match. In a duplicate tournament each hand is a *board*:
its pack and dealer come from the round's seed and the hand's number alone, and it starts
even, so every table of the round plays the same cards from the same seats; the hand's
record (pack, dealer, status) shows it. A board's pack is the engine's checkable shuffle
(``engine.shuffle``) of the board's own seed, so each table can seal its board with
``Seal.new(rules, seed=board_seed(seed, number))`` and deal the same cards
(``docs/fair-deals.md``).

>>> from engine import make_rules
>>> rules = make_rules("filicau")
>>> board(rules, "t1r1", 2) == board(rules, "t1r1", 2)
True
>>> board(rules, "t1r1", 1) == board(rules, "t1r1", 2)
False
>>> from engine.shuffle import Seal
>>> Seal.new(rules, seed=board_seed("t1r1", 2)).deal() == board(rules, "t1r1", 2)[0]
True
>>> plan_of({TOURNAMENT: {"id": 1, "round": 1, "table": 2, "hands": 3, "seed": "x"}})
Plan(tournament=1, round=1, table=2, hands=3, seed='x')
>>> plan_of({}) is None
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.rules.base import Rules
from engine.shuffle import board_seed, shuffled_cards
from engine.status import Status

#: The key of a tournament table's plan in its settings.
TOURNAMENT = "tournament"


@dataclass(frozen=True)
class Plan:
    """What a tournament decided for one of its tables."""

    tournament: int
    round: int
    #: The table's number in its round.
    table: int
    #: Hands the table plays this round.
    hands: int
    #: Duplicate: the round's boards come from this seed; None: shuffled as usual.
    seed: str | None = None


def plan_of(settings: Mapping[str, Any]) -> Plan | None:
    """A table's tournament plan, or None for a table of no tournament."""
    raw = settings.get(TOURNAMENT)
    if not isinstance(raw, dict):
        return None
    try:
        seed = raw.get("seed")
        return Plan(int(raw["id"]), int(raw["round"]), int(raw["table"]), int(raw["hands"]),
                    None if seed is None else str(seed))
    except (KeyError, TypeError, ValueError):
        return None


def plan_settings(plan: Plan) -> dict[str, Any]:
    """The plan as a table's settings keep it."""
    return {TOURNAMENT: {"id": plan.tournament, "round": plan.round, "table": plan.table,
                         "hands": plan.hands, "seed": plan.seed}}


def board(rules: Rules, seed: str, number: int) -> tuple[list[Card], int]:
    """Board ``number`` of a duplicate round: its pack and its dealer, both from the board's
    seed (the dealer is no part of what a record proves: every table sees it)."""
    own = board_seed(seed, number)
    return shuffled_cards(rules, own), rules.first_dealer(Status(), random.Random(own))
