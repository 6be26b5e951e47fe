"""Schafkopf for three (seed 002, RULINGS.md "Schafkopf (3 players)")."""

from __future__ import annotations

from engine.cards import OVERS, UNDERS, Card

#: Schafkopf's permanent top trumps, highest first: the Overs then the Unders, each in suit
#: order acorns, leaves, hearts, bells (``EO GO HO SO EU GU HU SU``); bells are the trump suit.
SCHAFKOPF_TRUMPS: tuple[Card, ...] = OVERS + UNDERS
