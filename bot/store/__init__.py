"""Everything the bot remembers, behind one small interface.

``Store`` (``bot.store.protocols``, one protocol per concern) is the interface the cogs and
sessions use. Two stores implement it with the same SQL (``bot.store.sqlstore``) and the same
guarantees: ``SqliteStore`` (one process, one file; the default) and ``PostgresStore``
(several processes on one server). ``make_store`` picks one from the settings; the schema's
history is ``bot.store.migrations``.

What is kept:

- **tables**: one row per table ever opened; at most one open table per channel.
- **hands**: one row per hand with its record header (game, options, dealer, status, pack and
  the seated members) and, once finished, its result.
- **actions**: every action of every hand, appended before the bot answers the click that made
  it, so an open table is rebuilt exactly from its log after a restart or a crash; one row per
  (hand, index), so two writers can never store two different moves at one place.
- **partnerships**: the master/servant status and dealing duty of two partnerships in a server,
  keyed by their members, not by table or channel.
- **results**: one row per finished hand, for the standings.
- **ratings**: derived from the results (``bot.ratings``), with their history and seasons.
- **reviews**: a finished hand's review, per seat.
- **guild settings**: each server's language and card pictures.
- **player and community settings**: a player's reminders and invitations; a server's role
  called when a table needs one more, and how long an invitation holds a seat.
- **tournaments**: their entrants and the tables of each round, with what each left.
- **play across servers**: each server's opt-in, the queue of every server, a table's venues
  in other servers, blocks, bars, reports, and clicks handed between processes.
"""

from __future__ import annotations

from pathlib import Path

from bot.store.migrations import MIGRATIONS, RATINGS_VERSION
from bot.store.model import (
    EVERYWHERE,
    HAND_WINNERS,
    HANDED_OVER,
    CommunitySettings,
    CrossplaySettings,
    Entrant,
    GuildSettings,
    HandRow,
    Member,
    PartnershipStatus,
    PlayerSettings,
    RatingChange,
    RatingRow,
    Report,
    ReportReason,
    ResultRow,
    Season,
    StoreError,
    TableRow,
    TableState,
    TournamentRow,
    TournamentTable,
    VenueRow,
    Waiting,
    WebKey,
    canonical,
    now,
    pair_key,
)
from bot.store.postgres import PostgresStore
from bot.store.protocols import Store
from bot.store.sqlite import SqliteStore

__all__ = [
    "EVERYWHERE",
    "HANDED_OVER",
    "HAND_WINNERS",
    "MIGRATIONS",
    "RATINGS_VERSION",
    "CommunitySettings",
    "CrossplaySettings",
    "Entrant",
    "GuildSettings",
    "HandRow",
    "Member",
    "PartnershipStatus",
    "PlayerSettings",
    "PostgresStore",
    "RatingChange",
    "RatingRow",
    "Report",
    "ReportReason",
    "ResultRow",
    "Season",
    "SqliteStore",
    "Store",
    "StoreError",
    "TableRow",
    "TableState",
    "TournamentRow",
    "TournamentTable",
    "VenueRow",
    "Waiting",
    "WebKey",
    "canonical",
    "is_postgres_url",
    "make_store",
    "now",
    "pair_key",
    "sqlite_path",
]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"


def is_postgres_url(url: str) -> bool:
    return url.startswith(POSTGRES_SCHEMES)


def sqlite_path(url: str) -> Path:
    """``sqlite:///data/x.sqlite3`` is the relative path ``data/x.sqlite3``;
    ``sqlite:////srv/x.sqlite3`` the absolute ``/srv/x.sqlite3``."""
    if not url.startswith(SQLITE_SCHEME) or len(url) == len(SQLITE_SCHEME):
        raise StoreError(f"{url!r} is not an SQLite URL like sqlite:///data/filicau.sqlite3")
    return Path(url[len(SQLITE_SCHEME):])


def make_store(database_url: str | None, database_path: Path | str) -> Store:
    """The store of ``DATABASE_URL`` (``postgresql://...`` or ``sqlite:///path``), or the
    SQLite file ``DATABASE_PATH`` when it is not set."""
    if not database_url:
        return SqliteStore(database_path)
    if is_postgres_url(database_url):
        return PostgresStore(database_url)
    return SqliteStore(sqlite_path(database_url))
