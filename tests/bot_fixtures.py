"""Helpers shared by ``test_store.py`` and ``test_session.py``: tables seated and started on a
real SQLite file, deals chosen by a deterministic search, and a driver that plays a hand
through ``TableSession.act`` the way clicks would.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.seats import computer, is_computer
from bot.session import Moves, TableSession
from bot.store import Member, SqliteStore
from engine import PLAYING, Action, Hand, Status, make_rules, seat_view
from engine.cards import Card
from engine.players import SimplePlayer

GUILD = 1
OPENER = 101
#: Four human users; as members they are "101" ... "104".
USERS = (101, 102, 103, 104)
HUMANS: list[Member] = [str(u) for u in USERS]
CPU = computer()

Policy = Callable[[Hand, int], Action]


def first_legal(hand: Hand, seat: int) -> Action:
    return hand.legal_actions(seat)[0]


def last_legal(hand: Hand, seat: int) -> Action:
    return hand.legal_actions(seat)[-1]


def table_policy(seats: Sequence[Member | None], human: Policy = first_legal) -> Policy:
    """What a table with these seats plays: ``human`` for people, the simple player for
    computer seats (as ``computer_turn`` does)."""

    def choose(hand: Hand, seat: int) -> Action:
        if is_computer(seats[seat]):
            return SimplePlayer().choose(seat_view(hand, seat))
        return human(hand, seat)

    return choose


class FixedDeal:
    """Stands in for ``TableSession.rng``: the next deal uses this pack, and a random dealer
    (when the session has to pick one) is ``dealer``."""

    def __init__(self, pack: Sequence[Card], dealer: int) -> None:
        self.pack = list(pack)
        self.dealer = dealer

    def shuffle(self, x: list[Any]) -> None:
        x[:] = self.pack

    def randrange(self, *args: int) -> int:
        return self.dealer

    def choice(self, seq: Sequence[int]) -> int:
        return self.dealer if self.dealer in seq else seq[0]


def play_engine(hand: Hand, policy: Policy) -> Hand:
    """Play tricks with ``policy`` until play is over (finished, or a Servant to choose)."""
    while hand.phase == PLAYING and hand.to_move is not None:
        seat = hand.to_move
        hand.apply(seat, policy(hand, seat))
    return hand


def find_deal(
    game: str,
    want: Callable[[Hand], bool],
    *,
    options: dict[str, Any] | None = None,
    status: Status = Status(),  # noqa: B008 - frozen
    dealers: Sequence[int] = range(4),
    policy: Policy = first_legal,
    tries: int = 3000,
) -> tuple[list[Card], int]:
    """A pack and dealer (from a fixed sequence of shuffles) for which play by ``policy``
    ends in a hand that ``want`` accepts."""
    rules = make_rules(game, options)
    rng = random.Random(20240611)
    for _ in range(tries):
        pack = list(rules.pack)
        rng.shuffle(pack)
        for dealer in dealers:
            if want(play_engine(Hand(rules, dealer, pack, status), policy)):
                return pack, dealer
    raise AssertionError("no deal found: widen the search")


def masters_hand(team: int | None = None) -> Callable[[Hand], bool]:
    """A finished play in which a team (``team``, if given) took 6 or more points."""

    def want(hand: Hand) -> bool:
        pts = hand.team_points()
        teams = [t for t in (0, 1) if pts[t] >= 6 and pts[t] < 8]
        return bool(teams) and (team is None or teams[0] == team)

    return want


async def open_store(path: Path) -> SqliteStore:
    store = SqliteStore(path)
    await store.open()
    return store


async def new_table(
    store: SqliteStore,
    *,
    game: str = "filicau",
    options: dict[str, Any] | None = None,
    channel: int = 10,
    guild: int = GUILD,
    opener: int = OPENER,
    seed: int = 1,
) -> TableSession:
    row = await store.create_table(
        guild_id=guild, channel_id=channel, game=game, options=options or {},
        opener_id=opener, seats=[None] * 4,
    )
    return TableSession(row, store, seed=seed)


async def seat_all(session: TableSession, members: Sequence[Member]) -> None:
    """Seat ``members`` exactly in this order (seat 0 first), through the lobby calls."""
    for seat, member in enumerate(members):
        if is_computer(member):
            got = await session.add_computer(team=seat % 2)
        else:
            got = await session.join(int(member), seat % 2)
        assert got == seat


async def started_table(
    store: SqliteStore,
    members: Sequence[Member] = HUMANS,
    *,
    game: str = "filicau",
    options: dict[str, Any] | None = None,
    channel: int = 10,
    guild: int = GUILD,
    deal: tuple[Sequence[Card], int] | None = None,
    seed: int = 1,
) -> TableSession:
    session = await new_table(store, game=game, options=options, channel=channel, guild=guild,
                              seed=seed)
    await seat_all(session, members)
    if deal is not None:
        session.rng = FixedDeal(*deal)  # type: ignore[assignment]
    await session.start(OPENER, is_admin=True)
    return session


async def click(session: TableSession, seat: int, action: Action) -> Moves:
    """The click of the user in ``seat``, with the current hand and trick stamps."""
    member = session.seats[seat]
    assert member is not None and not is_computer(member)
    return await session.act(int(member), action, hand_number=session.hand_number,
                             trick=session.trick_number)


async def play(
    session: TableSession,
    policy: Policy = first_legal,
    *,
    stop: Callable[[Hand], bool] = lambda hand: False,
) -> Moves | None:
    """Play the session's hand until play is over (or ``stop``): humans through ``act``,
    computers through ``computer_turn``. Returns the last outcome."""
    hand = session.hand
    assert hand is not None
    last: Moves | None = None
    while hand.phase == PLAYING and hand.to_move is not None and not stop(hand):
        seat = hand.to_move
        if is_computer(session.seats[seat]):
            last = await session.computer_turn()
            assert last is not None
        else:
            last = await click(session, seat, policy(hand, seat))
    return last


def action_rows(path: Path, hand_id: int) -> list[tuple[int, int | None, int]]:
    """(index, user id, by computer) of every stored action of a hand, read directly."""
    con = sqlite3.connect(path)
    try:
        return con.execute(
            "SELECT idx, user_id, by_computer FROM actions WHERE hand_id = ? ORDER BY idx",
            (hand_id,),
        ).fetchall()
    finally:
        con.close()
