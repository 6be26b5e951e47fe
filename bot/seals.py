"""A table's sealed deals (``engine.shuffle``, ``docs/fair-deals.md``): the seal of the table's
next deal, kept in the table's runtime state before anybody is shown it, and what the hand's
record carries of it.

A table has one seal at a time that is not revealed yet: while it waits for a deal (the lobby,
between hands) it is the seal of the next deal, which the lobby and the last result show;
while a hand is in play it is that hand's, whose record carries the commitment and the cut
(``header["shuffle"]``, ``Seal.public``). When the hand ends the hand's stored result gets the
revealed shuffle (``Seal.revealed``: with the seed and the secret), and the table draws the
next deal's seal. The seed and the secret are in the table's runtime state (the bot's own
store) and, once the hand is over, in its record: never anywhere a hand in play is shown.

A deal is cut by the id of the click that deals it (Start, Next hand); a deal the bot makes by
itself has no cut, and neither has a duplicate board, whose cards must be the same at every
table (its seed is the board's, ``engine.shuffle.board_seed``; each table its own secret).

>>> import random
>>> from engine import make_rules
>>> rules = make_rules("filicau")
>>> seal = draw(rules, None, 1, random.Random(1).randbytes)
>>> again = kept({SEAL: stored(seal)}, rules)
>>> again is not None and again.commitment == seal.commitment
True
>>> kept({}, rules) is None, kept({SEAL: {"game": "filko"}}, rules) is None
(True, True)
>>> cut_of(None, "1234"), cut_of(None, None)
('1234', '')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from bot import boards
from bot.texts import t
from engine.rules.base import Rules
from engine.shuffle import FIELD, Seal, SealError, board_seed
from engine.verify import verify

#: The key of the unrevealed seal in a table's runtime state.
SEAL: Final = "seal"
#: The key, in a finished hand's stored result, of what each seat was dealt
#: (``engine.dealt.Dealt.to_json``, one a seat).
DEALT: Final = "dealt"


def draw(rules: Rules, plan: boards.Plan | None, number: int,
         token: Callable[[int], bytes]) -> Seal:
    """A new seal for hand ``number`` of a table of ``rules``: a fresh seed, or in a
    duplicate round the board's own; a fresh secret always (each table seals its board
    apart, so that one table's seal tells nothing of another's). ``token`` draws the bytes
    (the operating system's randomness, or a seeded table's own)."""
    if plan is not None and plan.seed is not None:
        return Seal.new(rules, seed=board_seed(plan.seed, number), token=token)
    return Seal.new(rules, token=token)


def fits(seal: Seal, plan: boards.Plan | None, number: int) -> bool:
    """Whether a kept seal may deal hand ``number``: any may, except at a duplicate table,
    whose seal must have that board's seed (a lobby sealed before its plan was known).

    >>> import random
    >>> from engine import make_rules
    >>> rules, plan = make_rules("filicau"), boards.Plan(1, 1, 1, 2, "r")
    >>> seal = draw(rules, plan, 1, random.Random(1).randbytes)
    >>> fits(seal, plan, 1), fits(seal, plan, 2), fits(seal, None, 2)
    (True, False, True)
    """
    if plan is None or plan.seed is None:
        return True
    return seal.seed == board_seed(plan.seed, number)


def stored(seal: Seal) -> dict[str, Any]:
    """The seal as the table's runtime state keeps it (without a cut: the cut is the hand's
    and its record keeps it)."""
    kept_seal = seal.kept()
    kept_seal.pop("cut", None)
    return kept_seal


def kept(runtime: Mapping[str, Any], rules: Rules) -> Seal | None:
    """The table's unrevealed seal, for a table of ``rules`` (its pack as the options make
    it now: the lobby may change them), or None: none was drawn yet (a table from before
    sealed deals), or it cannot be read back."""
    obj = runtime.get(SEAL)
    if not isinstance(obj, Mapping):
        return None
    try:
        return Seal.from_kept(obj, rules)
    except SealError:
        return None


def cut_of(plan: boards.Plan | None, click: str | None) -> str:
    """The cut of a deal: the id of the click that dealt it, if one did; none for a
    duplicate board (every table deals it alike) or a deal the bot made by itself."""
    if click is None or (plan is not None and plan.seed is not None):
        return ""
    return click


def dealt_from(header: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The public part of the seal a stored hand was dealt from (its commitment and cut),
    or None for a hand dealt before sealed deals."""
    obj = header.get(FIELD)
    return obj if isinstance(obj, Mapping) and isinstance(obj.get("commitment"), str) else None


def in_play(runtime: Mapping[str, Any], header: Mapping[str, Any], rules: Rules
            ) -> Seal | None:
    """The seal the hand of ``header`` was dealt from, with its cut: the table's kept seal
    when its commitment is the header's (a restart in the middle of the hand), else None."""
    public = dealt_from(header)
    seal = kept(runtime, rules)
    if public is None or seal is None or seal.commitment != public["commitment"]:
        return None
    cut = public.get("cut")
    return seal.with_cut(cut if isinstance(cut, str) else "")


def shown(next_seal: Seal | None, in_play: Seal | None) -> str | None:
    """The table message's seal line: the hand in play's seal (``in_play``), else the next
    deal's, or nothing (a table dealt unsealed)."""
    if in_play is not None:
        return t("seal.dealt", seal=in_play.short)
    if next_seal is not None:
        return t("seal.next", seal=next_seal.short)
    return None


def checked(record: Mapping[str, Any]) -> str | None:
    """What the replay page says of a finished hand's deal: verified (its seal and the
    shuffle of its seed, as ``python -m engine verify`` checks them), or why not; nothing
    for a hand dealt before sealed deals."""
    if record.get(FIELD) is None:
        return None
    found = verify(record)
    if found["verified"]:
        return t("seal.verified", seal=found["short"])
    return t("seal.not_verified", reasons=", ".join(f["reason"] for f in found["failures"]))
