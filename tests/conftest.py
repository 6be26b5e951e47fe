"""Shared fixtures and hand-worked deals for the tests (``tests/deal.py`` deals and plays them).

A few fixed deals (``DEAL_A``, ``DEAL_B``, ``DEAL_D``) are described by *role* rather than by
seat: ``L`` leads (the seat after the dealer), ``M`` and ``N`` follow, ``D`` deals. ``D[0]``
is the card shown to fix trump (hearts) in Filicău and Filkó. Each deal comes with card
scripts that were worked out by hand; because a script is just the cards in the order played,
it is the same for every dealer. The teams are ``LN`` = {dealer + 1, dealer + 3} and
``DM`` = {dealer, dealer + 2}.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from engine import Hand, report

ALL_CODES = [s + r for s in "EGHS" for r in ("A", "10", "K", "O", "U", "9", "8", "7")]


# -- playing ---------------------------------------------------------------------------------


def random_finish(hand: Hand, rng: random.Random) -> None:
    """Play any legal actions (Servant choices included) until the hand is over (Bavarian
    Schafkopf's announcements, windows and tricks take more than forty)."""
    for _ in range(200):
        if hand.finished:
            return
        seat = rng.choice(hand.actors())
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    raise AssertionError("the hand did not end")


def snapshot(hand: Hand) -> tuple[Any, ...]:
    """Everything observable about a hand, to check that a refused action changed nothing."""
    return (
        hand.phase, hand.to_move, hand.leader, hand.trump, hand.status, hand.result,
        [list(h) for h in hand.hands], list(hand.trick), list(hand.tricks), list(hand.taken),
        hand.team_points(), list(hand.actions), list(hand.shown), report(hand),
    )


# -- hand-worked deals (trump hearts; see the module docstring) ------------------------------

#: L holds the 8 highest trumps and wins every trick.
DEAL_A = {
    "L": "EO GO HO SO HA H10 HK HU",
    "M": "GA G10 GK GU G9 G8 G7 E8",
    "N": "SA S10 SK SU S9 S8 S7 E7",
    "D": "H9 H8 H7 EA E10 EK EU E9",
}
#: LN take all 8 points; everything after trick 6 carries no point.
A_8_0 = ("EO GA SA H9 | GO G10 S10 H8 | HO GK SK H7 | SO GU SU EA | HA G9 S9 E10 | H10 G8 S8 EK"
         " | HK G7 S7 EU | HU E8 E7 E9")

#: L wins tricks 1-7 with trumps, then leads G7, which M's Ace wins.
DEAL_B = {
    "L": "EO GO HO SO HA H10 HK G7",
    "M": "GA G10 GK GU G9 G8 E8 EU",
    "N": "SA S10 SK SU S9 S8 S7 E7",
    "D": "H9 H8 H7 HU EA E10 EK E9",
}
B_OPENING = "EO G10 SA H9 | GO GK SK H8 | HO GU SU H7 | SO G9 S9 HU | HA G8 S8 EA"
#: LN 6 (G10 SA HA EA H10 E10), DM 2 (GA S10).
B_6_2 = B_OPENING + " | H10 E8 S7 E10 | HK EU E7 EK | G7 GA S10 E9"
#: LN 7, DM 1 (GA).
B_7_1 = B_OPENING + " | H10 E8 S7 E10 | HK EU S10 EK | G7 GA E7 E9"

#: L wins tricks 1-6 with trumps (D follows with trumps to trick 5), then leads G8; M wins
#: tricks 7 and 8 with GA and G10. LN score in tricks 5-6, DM in tricks 7-8.
DEAL_D = {
    "L": "EO GO HO SO HA H10 G8 G7",
    "M": "G9 GU GK E9 E8 EU GA G10",
    "N": "SK SU S9 S8 E7 SA S10 S7",
    "D": "H9 H8 H7 HU HK EA E10 EK",
}
D_OPENING = "EO G9 SK H9 | GO GU SU H8 | HO GK S9 H7 | SO E9 S8 HU | HA E8 E7 HK"
#: LN 3 (HA H10 E10) after trick 6; DM 3 (GA S10 EA) after trick 7: 3-3 with SA, G10 out.
D_3_3 = D_OPENING + " | H10 EU S7 E10 | G8 GA S10 EA"
D_3_3_LAST = "G10 SA EK G7"
#: LN 4 (HA H10 SA E10), DM 4 (GA S10 EA G10).
D_4_4 = D_OPENING + " | H10 EU SA E10 | G8 GA S10 EA | G10 S7 EK G7"
#: LN 4 after trick 6, DM 2 (GA EA) after trick 7, S10 and G10 still out: 2-4.
D_2_4 = D_OPENING + " | H10 EU SA E10 | G8 GA S7 EA"
D_2_4_LAST = "G10 S10 EK G7"
#: DM 6 (GA S10 EA G10 SA E10), LN 2 (HA H10).
D_DM_6_2 = D_OPENING + " | H10 EU S7 EK | G8 GA S10 EA | G10 SA E10 G7"
#: DM 5 (GA S10 EA G10 E10), LN 3 (HA H10 SA).
D_DM_5_3 = D_OPENING + " | H10 EU SA EK | G8 GA S10 EA | G10 S7 E10 G7"


# -- the in-process Discord fake -------------------------------------------------------------


@pytest.fixture
async def h(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Any]:
    """The bot against the in-process Discord fake (``tests/fake_discord.py``)."""
    from fake_discord import running

    async with running(tmp_path / "bot.sqlite3", monkeypatch) as harness:
        yield harness


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest) -> str | None:
    """No URL (the harness's SQLite file), then a real PostgreSQL (tests/pg_server.py)."""
    return None if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def hs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             database_url: str | None) -> AsyncIterator[Any]:
    """The bot against the in-process Discord fake, on each store: SQLite and PostgreSQL."""
    from fake_discord import running

    async with running(tmp_path / "bot.sqlite3", monkeypatch,
                       database_url=database_url) as harness:
        yield harness


# -- a real PostgreSQL (tests/pg_server.py): defined here so that the whole session shares one
# cluster (a fixture imported into several test modules would start one per module).

try:
    from tests.pg_server import pg_cluster, pg_url
except ImportError:  # plain `pytest`, where tests/ itself is on sys.path
    from pg_server import pg_cluster, pg_url  # type: ignore[no-redef,import-not-found,unused-ignore]

__all__ = ["pg_cluster", "pg_url"]  # fixtures, used by name


# -- a store of each backend -------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Any]:
    """A new store of each backend, SQLite and a real PostgreSQL (tests/pg_server.py), for the
    tests that use only the ``Store`` protocol (``tests/test_store.py`` has its own, richer
    backends)."""
    from bot.store import SqliteStore

    if request.param == "sqlite":
        return lambda: SqliteStore(tmp_path / "bot.db")
    from bot.store.postgres import PostgresStore

    url = request.getfixturevalue("pg_url")
    return lambda: PostgresStore(url)


@pytest.fixture
async def store(make: Callable[[], Any]) -> AsyncIterator[Any]:
    s = make()
    await s.open()
    try:
        yield s
    finally:
        await s.close()
