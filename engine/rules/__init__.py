"""The games the engine knows, by their key in records and commands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from engine.errors import OptionsError, RecordError
from engine.rules.base import Options, Rules, shared_rules
from engine.rules.bavarian import Schafkopf
from engine.rules.doppelkopf import Doppelkopf
from engine.rules.dreiwendsch import Dreiwendsch
from engine.rules.filcau20 import Filcau20
from engine.rules.filicau import Filicau
from engine.rules.filko import Filko, Filko6
from engine.rules.filko5 import FilkoFive, Kelebia, RichPoor
from engine.rules.hats import FilkoHats
from engine.rules.officers import Officers
from engine.rules.schafkopf import Schafkopf3
from engine.rules.wendish import Wendish

GAMES: dict[str, type[Rules]] = {
    cls.game: cls
    for cls in (Filicau, Filko, Filko6, FilkoHats, FilkoFive, RichPoor, Kelebia, Schafkopf3,
                Dreiwendsch, Filcau20, Wendish, Officers, Schafkopf, Doppelkopf)
}


def make_rules(game: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The rules of ``game`` with these options (defaults for those not given).

    >>> make_rules("filko", {"top_trumps": "leaves_low"}).options.top_trumps
    'leaves_low'

    Options the game refuses raise ``OptionsError`` (a ``RecordError``), which names each
    refused option, the value given and why.
    """
    cls = GAMES.get(game)
    if cls is None:
        raise RecordError(f"unknown game {game!r}; known games: {', '.join(sorted(GAMES))}")
    try:
        parsed = cls.options_model.model_validate(dict(options or {}))
    except ValidationError as e:
        raise OptionsError(game, [
            ('.'.join(str(p) for p in err["loc"]) or "options", err.get("input"), err["type"],
             err["msg"])
            for err in e.errors()
        ]) from None
    return shared_rules(cls, parsed)


__all__ = ["GAMES", "Options", "Rules", "make_rules"]
