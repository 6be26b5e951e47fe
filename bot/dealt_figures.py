"""What a player was dealt over their hands against what chance predicts, for their profile
(``engine.dealt``, ``docs/fair-deals.md``): each finished hand's stored result keeps what
every seat was dealt (``bot.seals.DEALT``), and the profile counts the player's seats.

>>> from engine.dealt import Figure
>>> from bot.texts import speaking
>>> with speaking("en"):
...     line(Figure("aces", 40, 1.05, 1.0, 0.75, 1.25, True))
'Aces: 1.05 a hand — chance: 1.00, from 0.75 to 1.25 over 40 hands'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from bot.seals import DEALT
from bot.store.sql import Sql
from bot.texts import t
from engine.dealt import KINDS, Dealt, Figure, figures

#: The newest hands a profile counts (a player of years need not wait for them all).
LATEST: Final = 2000

_HANDS = ("SELECT hands.header, hands.result FROM hands "
          "JOIN tables ON tables.id = hands.table_id "
          "WHERE tables.guild_id = ? AND tables.game = ? AND hands.result IS NOT NULL "
          "AND CAST(hands.header AS TEXT) LIKE ? ORDER BY hands.id DESC LIMIT ?")


def _loaded(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def seat_dealt(header: Mapping[str, Any], result: Mapping[str, Any],
               member: str) -> Dealt | None:
    """What ``member`` was dealt in a stored hand, or None (not seated, or a hand from
    before the deal was kept)."""
    members = header.get("members")
    kept = result.get(DEALT)
    if not isinstance(members, list) or member not in members or not isinstance(kept, list):
        return None
    seat = members.index(member)
    try:
        return Dealt.from_json(kept[seat])
    except (IndexError, KeyError, TypeError, ValueError):
        return None


async def dealt_to(db: Sql, guild_id: int, game: str, member: str,
                   latest: int = LATEST) -> list[Dealt]:
    """What ``member`` was dealt in their newest finished hands of ``game`` in a server."""
    rows = await db.fetch(_HANDS, guild_id, game, f'%"{member}"%', latest)
    out = []
    for row in rows:
        found = seat_dealt(_loaded(row["header"]), _loaded(row["result"]) or {}, member)
        if found is not None:
            out.append(found)
    return out


def line(figure: Figure) -> str:
    """One kind's line: the mean a hand, chance's mean, and chance's range over the hands."""
    return t("profile.dealt_line", kind=t(f"profile.dealt_{figure.kind}"),
             mean=f"{figure.mean:.2f}", expected=f"{figure.expected:.2f}",
             low=f"{figure.low:.2f}", high=f"{figure.high:.2f}",
             hands=t("n.hands", count=figure.hands))


def lines(dealt: list[Dealt]) -> list[str]:
    """The profile's lines (trumps, Aces, Tens), or none for no hands."""
    found = figures(dealt)
    return [line(found[kind]) for kind in KINDS if kind in found]
