"""Doppelkopf's table options (RULINGS.md D10), in the order a lobby offers them.

>>> o = DoppelkopfOptions.model_validate({"nines": False, "extras": ["fuchs", "doppelkopf"]})
>>> o.nines, o.extra_items(), o.match_deals, o.solos()[:2]
(False, ('doppelkopf', 'fuchs'), 24, ('damen', 'buben'))
>>> DoppelkopfOptions().extra_items()
('gegen_kreuz_damen', 'doppelkopf', 'fuchs', 'karlchen')
>>> from pydantic import ValidationError
>>> try:
...     DoppelkopfOptions.model_validate({"match_deals": 6})
... except ValidationError as e:
...     print(e.errors()[0]["msg"])
Value error, match_deals must be a multiple of 4, at least 4
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from engine.rules.base import Options
from engine.rules.doppelkopf.deck import SOLOS

Solo = Literal["damen", "buben", "kreuz", "pik", "herz", "karo", "fleischlos"]
Extra = Literal["gegen_kreuz_damen", "doppelkopf", "fuchs", "karlchen", "karlchen_gefangen"]
#: D9.4's extras in the order a tally names them.
EXTRAS: tuple[Extra, ...] = ("gegen_kreuz_damen", "doppelkopf", "fuchs", "karlchen",
                             "karlchen_gefangen")
DEFAULT_EXTRAS: tuple[Extra, ...] = EXTRAS[:4]
ALL_SOLOS: tuple[Solo, ...] = ("damen", "buben", "kreuz", "pik", "herz", "karo", "fleischlos")
assert ALL_SOLOS == SOLOS
EXTRA_PRESETS: dict[str, tuple[Extra, ...]] = {
    "standard": DEFAULT_EXTRAS, "with_karlchen_gefangen": EXTRAS,
    "without_gegen_kreuz_damen": DEFAULT_EXTRAS[1:], "none": ()}
SOLO_PRESETS: dict[str, tuple[Solo, ...]] = {
    "all": ALL_SOLOS, "no_fleischlos": ALL_SOLOS[:6], "damen_buben": ("damen", "buben")}


def _canonical(value: Any, order: tuple[str, ...], name: str) -> Any:
    """A list (JSON's form) or tuple of words as a tuple in ``order``, each once, so that
    the same set of options is the same table (and the same shared rules)."""
    if not isinstance(value, list | tuple):
        return value  # a preset's word (strict validation refuses anything else)
    if len(set(value)) != len(value):
        raise ValueError(f"{name} names an entry twice")
    return tuple(sorted(value, key=lambda v: order.index(v) if v in order else len(order)))


class DoppelkopfOptions(Options):
    """D10. A house rule is off by default; the TSR's choice is every default."""

    #: Accepted because ``/table new`` passes it to every game, but without effect: all
    #: tricks are played (D8.1). The lobby does not offer it (no choices).
    early_end: bool = Field(True, json_schema_extra={"choices": []})
    #: D1.1: with the nines (48 cards), or without (40).
    nines: bool = True
    #: D2.6: which of two Dullen in one trick wins.
    dullen: Literal["first", "second", "second_except_last"] = "first"
    #: D2.9: both Fuchs in one hand rank above the Dullen.
    schweinchen: bool = False
    #: D5.7-D5.8: a hand with three trumps or fewer may pass them on.
    armut: bool = False
    #: D9.4: which extras (Sonderpunkte) count: a preset (``standard``: the TSR's four;
    #: ``with_karlchen_gefangen``; ``without_gegen_kreuz_damen``; ``none``) or any list.
    extras: Literal["standard", "with_karlchen_gefangen", "without_gegen_kreuz_damen",
                    "none"] | tuple[Extra, ...] = Field(
        "standard", json_schema_extra={"choices": list(EXTRA_PRESETS)})
    #: D6.1: the solos a player may choose: a preset (``all``, ``no_fleischlos``,
    #: ``damen_buben``) or any list.
    solo_set: Literal["all", "no_fleischlos", "damen_buben"] | tuple[Solo, ...] = Field(
        "all", json_schema_extra={"choices": list(SOLO_PRESETS)})
    #: D5.4: which tricks can find the Hochzeit's partner.
    hochzeit_finder: Literal["any", "plain", "trump"] = "any"
    #: D6.4: who leads to a Lustsolo's first trick.
    lustsolo_lead: Literal["forehand", "soloist"] = "forehand"
    #: D6.5-D6.6: each seat plays one Pflichtsolo in the match.
    pflichtsolo: bool = False
    #: D6.7: the counted deals of a match.
    match_deals: int = Field(24, json_schema_extra={"choices": [24, 4, 8, 12, 16, 20]})

    @field_validator("extras", mode="before")
    @classmethod
    def _extras(cls, v: Any) -> Any:
        return _canonical(v, EXTRAS, "extras")

    @field_validator("solo_set", mode="before")
    @classmethod
    def _solos(cls, v: Any) -> Any:
        return _canonical(v, ALL_SOLOS, "solo_set")

    @field_validator("match_deals")
    @classmethod
    def _match(cls, v: int) -> int:
        if v < 4 or v % 4:
            raise ValueError("match_deals must be a multiple of 4, at least 4")
        return v

    @model_validator(mode="after")
    def _pflicht_needs_solos(self) -> DoppelkopfOptions:
        if self.pflichtsolo and not self.solos():
            raise ValueError("pflichtsolo needs at least one solo in solo_set (D6.1)")
        return self

    def extra_items(self) -> tuple[Extra, ...]:
        """The extras that count, a preset's or the list's."""
        return EXTRA_PRESETS[self.extras] if isinstance(self.extras, str) else self.extras

    def solos(self) -> tuple[Solo, ...]:
        """The solos offered, a preset's or the list's."""
        return SOLO_PRESETS[self.solo_set] if isinstance(self.solo_set, str) else self.solo_set
