"""``SqlStore``: every concern's SQL (``tables``, ``hands``, ``statuses``, ``results``,
``ratings``, ``servers``, ``community``) in one object over a ``Database``; ``SqliteStore`` and
``PostgresStore`` add the database and which process owns which tables."""

from __future__ import annotations

from bot.store.community import CommunitySql, TournamentSql
from bot.store.hands import HandSql
from bot.store.migrations import upgrade
from bot.store.ratings import RatingSql
from bot.store.results import ResultSql
from bot.store.servers import ServerSql
from bot.store.sql import Database
from bot.store.statuses import StatusSql
from bot.store.table_rows import TableSql


class SqlStore(TableSql, HandSql, StatusSql, ResultSql, RatingSql, ServerSql, CommunitySql,
               TournamentSql):
    db: Database
    #: The schema version the database had when this store opened it.
    upgraded_from: int | None = None

    async def open(self) -> None:
        """Connect, and bring the schema to this version's (``bot.store.migrations``)."""
        try:
            await self.db.open()
            self.upgraded_from = await upgrade(self.db)
        except BaseException:
            # Leave no connection (and no thread) behind a refused start.
            await self.close()
            raise

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        return await self.db.version()
