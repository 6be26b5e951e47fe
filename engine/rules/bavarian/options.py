"""Bavarian Schafkopf's table options (RULINGS.md B15) and its tariffs (B11.1).

>>> o = SchafkopfOptions.model_validate({"tariff": "5/20", "geier": True})
>>> o.rates().solo, o.geier, o.all_pass
(20, True, 'redeal')
>>> SchafkopfOptions.model_validate({"tariff": {"sauspiel": 20, "solo": 60, "extra": 10,
...     "bettel": 30, "ramsch": 20, "stock": 10}}).rates().solo
60
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.rules.base import Options


class Tariff(BaseModel):
    """What a game is worth (B11.1): the base of a Sauspiel or Hochzeit, of a Solo-type
    game, the extra per Laufender, Schneider and Schwarz, a Bettel, a Ramsch, and what each
    player pays into the Stock."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    sauspiel: int = Field(10, ge=1, le=10_000)
    solo: int = Field(50, ge=1, le=10_000)
    extra: int = Field(10, ge=0, le=10_000)
    bettel: int = Field(30, ge=1, le=10_000)
    ramsch: int = Field(20, ge=1, le=10_000)
    stock: int = Field(10, ge=1, le=10_000)


#: The presets of B11.1: the BSV's 10/50 (default), the common online 10/20/50, and 5/20.
TARIFFS: dict[str, Tariff] = {
    "10/50": Tariff(),
    "10/20/50": Tariff(sauspiel=20, solo=50, extra=10, bettel=30, ramsch=20, stock=20),
    "5/20": Tariff(sauspiel=5, solo=20, extra=5, bettel=10, ramsch=10, stock=5),
}


class SchafkopfOptions(Options):
    """B15, in the order a lobby offers them. Every house option is off by default."""

    #: Accepted because ``/table new`` passes it to every game, but without effect: the deal
    #: plays on to its end except where the rules stop it (Tout, Bettel, a claim: B8), and
    #: there is no other early end (B8.5). The lobby does not offer it (no choices).
    early_end: bool = Field(True, json_schema_extra={"choices": []})

    #: B11.1: a preset or the table's own six numbers.
    tariff: Literal["10/50", "10/20/50", "5/20"] | Tariff = Field(
        "10/50", json_schema_extra={"choices": list(TARIFFS)})
    #: B5: what happens when all four pass.
    all_pass: Literal["redeal", "ramsch", "stock"] = "redeal"
    #: B12.1: 24 cards, no 8s and 7s.
    short_pack: bool = False
    #: B12.9, B12.2, B12.3, B12.4, B12.5.
    bettel: bool = False
    geier: bool = False
    farbwenz: bool = False
    farbgeier: bool = False
    hochzeit: bool = False
    #: B12.6: knocking after the first packet.
    klopfen: bool = False
    #: B10.2: how many doublings (Kontra, Re, Sup...) a game may take; 0: none.
    stoss_max: int = Field(2, ge=0, le=6, json_schema_extra={"choices": [2, 0, 4]})
    #: B10.3: until which card of trick 1 Kontra and Re may be given.
    stoss_window: Literal["first_card", "second_card"] = "first_card"
    #: B12.7: a player who took no trick in a Ramsch receives double (no effect unless
    #: ``all_pass`` is ``ramsch``).
    ramsch_jungfrau: bool = False

    def rates(self) -> Tariff:
        return TARIFFS[self.tariff] if isinstance(self.tariff, str) else self.tariff
