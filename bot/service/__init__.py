"""The table service: every request people make of a table, one call each, whichever surface
it came from.

A cog answering a click, the Activity's socket, or any later surface makes one call here —
open, join, take a seat, leave (with its question first during a hand), seat or remove a
computer, set an option, hold seats for the invited, start, cancel, end; a move (``act``),
back from the computer (``resume``), the next hand, a hint, a review — and answers with what
it returns (``Outcome``: what changed, what to tell the actor in the catalogs' words). Each
call does its work in one order: the table decides and stores under its lock (``TableSession``), the
actor's own surface answers (``reply``), every surface hears the news from the table's
courier (``bot.courier``: the change, whose request and from which surface), then the
table's driver wakes (``TableRunner.kick``). No surface calls the runner or another surface;
the service decides *what* happened, each surface *how* it is shown.

The cases are split by concern (``seats``, ``play``); ``TableService`` is both, over the
registry of open tables.
"""

from __future__ import annotations

from bot.open_tables import OpenTables
from bot.service.outcome import Advice, Outcome, Reply, Review, Words
from bot.service.play import Meanwhile, PlayCases
from bot.service.seats import Post, SeatCases

__all__ = ["Advice", "Meanwhile", "Outcome", "Post", "Reply", "Review", "TableService",
           "Words"]


class TableService(SeatCases, PlayCases):
    """Every request of a table (see the module docstring)."""

    def __init__(self, tables: OpenTables) -> None:
        self.tables = tables
