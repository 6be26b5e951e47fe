"""How a game's decisions read in plain English: the terminal game's words (``python -m
engine play``). The bot does not read them: it words every decision from its catalogs.

A game whose decisions are of kinds of its own declares their words with its rules
(``Rules.kind_words``), so that the terminal, which names no game, offers them as a player
would say them ("I dad (I play)", "Solo Tout in hearts") rather than as the record writes
them (``dad: true``, ``game: solo_tout_H``).

>>> words = KindWords("knock", "{who} knocks", values={True: "knock"})
>>> words.offer.format(value=words.values[True]), words.told.format(who="Seat 2", value="")
('knock', 'Seat 2 knocks')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class KindWords:
    """How one kind of decision reads. ``offer`` is the choice as the player picks it and
    ``told`` what the table hears when someone makes it (``{who}``: "Seat 3"); both may use
    ``{value}``, the value in words. ``hidden`` is told instead when only the chooser knows
    the value (``{count}``: how many cards), ``explain`` once, the first time it is offered
    (``{others}``: "the other three")."""

    offer: str
    told: str
    explain: str = ""
    hidden: str = ""
    #: Told back to the player who made the choice out of turn.
    mine: str = ""
    #: The words for values of this kind, by their record notation (``"solo_tout_H"``,
    #: ``1``, ``True``); a value not listed is worded from its notation.
    values: Mapping[Any, str] = field(default_factory=dict)
