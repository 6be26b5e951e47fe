"""The store's interface, one protocol per concern; ``Store`` is all of them, and one object
(``SqliteStore``, ``PostgresStore``) implements it. Code that needs one concern can ask for
that protocol alone."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Protocol

from bot.store import model
from bot.store.model import Member, TableState


class Tables(Protocol):
    async def create_table(
        self, *, guild_id: int, channel_id: int, game: str, options: dict[str, Any],
        opener_id: int, seats: list[Member | None], settings: dict[str, Any] | None = None,
    ) -> model.TableRow:
        """A new table in its lobby; ``StoreError`` while the channel has an open table."""
        ...

    async def update_table(
        self, table_id: int, *, seats: list[Member | None] | None = None,
        state: TableState | None = None, message_id: int | None = None,
        options: dict[str, Any] | None = None, settings: dict[str, Any] | None = None,
        runtime: dict[str, Any] | None = None,
    ) -> None:
        """Change what is given (closing a table stamps when)."""
        ...

    async def get_table(self, table_id: int) -> model.TableRow | None:
        """A table, open or closed (the web pages read any process's tables)."""
        ...

    async def open_tables(self) -> list[model.TableRow]:
        """Every table in its lobby or in play, by id."""
        ...

    async def open_table_in(self, channel_id: int) -> model.TableRow | None:
        """The table in its lobby or in play in a channel (whichever process drives it)."""
        ...

    async def homes_across(self) -> list[int]:
        """The home servers of the open tables across servers."""
        ...


class Hands(Protocol):
    async def start_hand(self, table_id: int, number: int, header: dict[str, Any]) -> int:
        """Store hand ``number`` of a table and return its id. A table in its lobby is in
        play from its first hand on: the same write marks it so (one round trip on
        PostgreSQL), and a closed table stays closed."""
        ...

    async def append_action(
        self, hand_id: int, index: int, action: dict[str, Any], *, user_id: int | None,
        by_computer: bool,
    ) -> None:
        """Store the hand's action ``index``; ``StoreError`` if one is stored there."""
        ...

    async def finish_hand(self, hand_id: int, result: dict[str, Any]) -> None: ...
    async def current_hand(self, table_id: int) -> model.HandRow | None: ...

    async def hands(self, table_id: int, limit: int = 10) -> list[model.HandRow]:
        """The table's latest hands with their actions, the latest first."""
        ...

    async def hand(self, hand_id: int) -> model.HandRow | None: ...


class Reviews(Protocol):
    """Hand reviews (issue 17): one JSON document per finished hand and seat."""

    async def put_review(self, hand_id: int, seat: int, review: dict[str, Any]) -> None: ...
    async def get_review(self, hand_id: int, seat: int) -> dict[str, Any] | None: ...


class Statuses(Protocol):
    async def get_status(
        self, guild_id: int, game: str, team0: Sequence[Member], team1: Sequence[Member]
    ) -> model.PartnershipStatus | None:
        """The status between these two partnerships, listed in any order."""
        ...

    async def put_status(self, status: model.PartnershipStatus) -> None:
        """Keep ``status`` (its teams in canonical order), replacing the one before."""
        ...

    async def statuses(self, guild_id: int) -> list[model.PartnershipStatus]:
        """A server's statuses, the latest updated first."""
        ...

    async def reset_status(self, guild_id: int, game: str, member: Member) -> int:
        """Make every partnership of ``member`` in this game even; returns how many."""
        ...


class Results(Protocol):
    async def add_result(self, result: model.ResultRow) -> None:
        """Keep a finished hand's result (replacing one stored for that hand before)."""
        ...

    async def results(self, guild_id: int, game: str | None = None) -> list[model.ResultRow]:
        """A server's results (of one game), by hand."""
        ...

    async def rated_results(
        self, guild_id: int | None = None
    ) -> list[tuple[model.ResultRow, bool]]:
        """Every stored result (of one server, or all), each with whether it moves ratings
        (``counts_for_ratings``: a rated table, no seat handed to the computer mid-hand)
        and with the ``hand_winners`` its hand's stored result names."""
        ...


class Ratings(Protocol):
    """Ratings derived from the results (``bot.ratings``), their history and the seasons."""

    async def ratings(self, guild_id: int, game: str, season: int,
                      players: Collection[str] | None = None) -> list[model.RatingRow]:
        """A season's ratings, by player; only ``players``' when given."""
        ...

    async def rating_history(
        self, guild_id: int, game: str, season: int, player: str | None = None
    ) -> list[model.RatingChange]:
        """The changes in the order they were made (of one player, or everyone's)."""
        ...

    async def last_rating_change(self, guild_id: int, game: str) -> model.RatingChange | None: ...
    async def rated_hand(self, hand_id: int) -> bool: ...

    async def save_ratings(
        self, ratings: list[model.RatingRow], changes: list[model.RatingChange]
    ) -> None:
        """Put these ratings and append these changes, at once."""
        ...

    async def replace_ratings(
        self, guild_id: int, ratings: list[model.RatingRow], changes: list[model.RatingChange]
    ) -> None:
        """A server's ratings and their history replaced by these, at once (a rebuild)."""
        ...

    async def stale_ratings(self) -> bool:
        """Whether a migration left the ratings to be rebuilt from the results."""
        ...

    async def ratings_rebuilt(self) -> None:
        """Every server's ratings were rebuilt: they are no longer stale."""
        ...

    async def seasons(self, guild_id: int) -> list[model.Season]: ...
    async def start_season(self, guild_id: int, started_at: str) -> model.Season: ...


class Servers(Protocol):
    async def guild_settings(self) -> list[model.GuildSettings]: ...
    async def put_guild_settings(self, settings: model.GuildSettings) -> None: ...

    # The web pages' key of each server (``bot.web.keys``).
    async def web_key(self, guild_id: int) -> model.WebKey | None: ...
    async def add_web_key(self, key: model.WebKey) -> model.WebKey:
        """Keep ``key`` unless the server has one already; the one kept comes back (two
        processes making the server's first link at once agree on one secret)."""
        ...
    async def put_web_key(self, key: model.WebKey) -> None: ...


class Community(Protocol):
    """Finding a game (issue 37): players' own preferences and servers' settings."""

    async def player_settings(self, user_id: int) -> model.PlayerSettings:
        """A player's preferences (the defaults if they never chose)."""
        ...

    async def put_player_settings(self, settings: model.PlayerSettings) -> None: ...
    async def community_settings(self, guild_id: int) -> model.CommunitySettings: ...
    async def put_community_settings(self, settings: model.CommunitySettings) -> None:
        """Keep a server's call role and hold time (not when it was last called)."""
        ...

    async def take_call(self, guild_id: int, at: str, unless_since: str) -> bool:
        """Note a call of the server's role at ``at``, unless it has none or one was made
        at ``unless_since`` or later (then False): at most one call goes out per interval,
        however many tables ask at once."""
        ...


class Tournaments(Protocol):
    """Tournaments (issue 37): their entrants, and the tables of each round."""

    async def create_tournament(
        self, *, guild_id: int, channel_id: int, organizer_id: int, game: str,
        format: model.TournamentFormat, rounds: int, hands: int, settings: dict[str, Any],
        starts_at: str,
    ) -> model.TournamentRow:
        """A new tournament, taking sign-ups."""
        ...

    async def get_tournament(self, tournament_id: int) -> model.TournamentRow | None: ...
    async def update_tournament(
        self, tournament_id: int, *, state: model.TournamentState | None = None,
        message_id: int | None = None, event_id: int | None = None,
        starts_at: str | None = None, shown: int | None = None,
    ) -> None:
        """Change what is given (finishing or cancelling stamps when)."""
        ...

    async def live_tournaments(self, guild_id: int) -> list[model.TournamentRow]:
        """A server's tournaments taking sign-ups or in play, by id."""
        ...

    async def finished_tournaments(self, guild_id: int, limit: int = 20
                                   ) -> list[model.TournamentRow]:
        """A server's latest finished tournaments (up to ``limit``), by id."""
        ...

    async def add_entrant(self, tournament_id: int, entrant: str, name: str) -> bool:
        """Sign up while sign-up lasts; False if signed up already or too late."""
        ...

    async def remove_entrant(self, tournament_id: int, entrant: str) -> bool: ...
    async def entrants(self, tournament_id: int) -> list[model.Entrant]:
        """In the order they signed up."""
        ...

    async def start_round(self, tournament_id: int, number: int,
                          tables: Sequence[Sequence[str]]) -> bool:
        """Round ``number``'s tables and the tournament at that round, at once; False (and
        nothing written) unless the tournament was at the round before."""
        ...

    async def tournament_tables(self, tournament_id: int,
                                round: int | None = None) -> list[model.TournamentTable]: ...
    async def update_tournament_table(
        self, tournament_id: int, round: int, number: int, *, thread_id: int | None = None,
        table_id: int | None = None, result: dict[str, Any] | None = None,
    ) -> None: ...
    async def table_in_tournament(self, table_id: int) -> model.TournamentTable | None: ...


class Crossplay(Protocol):
    """Play across servers (``bot.store.crossplay``)."""

    async def crossplay_settings(self, guild_id: int) -> model.CrossplaySettings: ...
    async def put_crossplay_settings(self, settings: model.CrossplaySettings) -> None: ...
    async def enqueue(self, waiting: model.Waiting) -> None: ...
    async def dequeue(self, user_id: int) -> model.Waiting | None: ...
    async def crossplay_names(self, user_ids: Collection[int]) -> dict[int, str]: ...
    async def waiting(self, game: str | None = None) -> list[model.Waiting]: ...

    async def form(self, game: str, players: int) -> list[model.Waiting] | None:
        """Take ``players`` who may sit together out of the queue, or None."""
        ...

    async def put_venue(self, venue: model.VenueRow) -> None: ...
    async def venues(self, table_id: int) -> list[model.VenueRow]: ...
    async def block(self, user_id: int, blocked_id: int) -> None: ...
    async def unblock(self, user_id: int, blocked_id: int) -> bool: ...
    async def blocked_among(self, user_ids: Collection[int]) -> set[tuple[int, int]]: ...
    async def bar(self, user_id: int, by: int) -> None: ...
    async def unbar(self, user_id: int) -> bool: ...
    async def barred(self, user_id: int) -> bool: ...
    async def report(self, reporter_id: int, hand_id: int, guild_id: int,
                     reason: model.ReportReason) -> bool: ...
    async def reports(self, limit: int = 20) -> list[model.Report]: ...
    async def venue_in(self, channel_id: int) -> model.VenueRow | None: ...
    async def own_ratings(self, guild_id: int) -> bool: ...
    async def put_own_ratings(self, guild_id: int, on: bool) -> None: ...
    async def table_name(self, user_id: int) -> str | None: ...
    async def put_table_name(self, user_id: int, chosen: str | None, shown: str) -> None: ...

    async def share_result(self, hand_id: int) -> list[tuple[int, tuple[str, ...]]]:
        """The servers that count this cross-server hand in their own ratings, and for
        whom (kept once)."""
        ...

    async def shared_results(self, guild_id: int | None = None,
                             ) -> list[tuple[model.ResultRow, bool, tuple[str, ...]]]: ...
    async def rated_in(self, hand_id: int, guild_id: int) -> bool: ...
    async def relay(self, shard: int, payload: dict[str, Any]) -> int: ...
    async def take_relayed(self, relayed_id: int, *, at: float,
                           stale_before: float) -> dict[str, Any] | None: ...
    async def done_relayed(self, relayed_id: int) -> None: ...
    async def relayed_for(self, shards: Collection[int], *,
                          stale_before: float) -> list[int]: ...


class Ownership(Protocol):
    """Which process drives which tables (see ``bot.store.shards``)."""

    async def claim_shards(self, shard_ids: Sequence[int], shard_count: int) -> bool:
        """Take ownership of the guilds of these shards for as long as this process (its
        database connection) lives: all of them, or none (False) while another process holds
        any guild of theirs, under this or another shard count."""
        ...

    async def owned_tables(self) -> list[model.TableRow]:
        """The open tables of the guilds this process owns: the ones it restores at start."""
        ...

    async def owned_tournaments(self) -> list[model.TournamentRow]:
        """The tournaments still to be played of the guilds this process owns."""
        ...

    async def ownership_lost(self) -> None:
        """Returns when this process's ownership has ended without being asked to (its
        database connection died): the process must stop driving tables at once."""
        ...


class Store(Tables, Hands, Reviews, Statuses, Results, Ratings, Servers, Community, Tournaments,
            Crossplay,
            Ownership, Protocol):
    """Everything the bot remembers, opened once per process."""

    async def open(self) -> None:
        """Connect and bring the schema to this version's (``bot.store.migrations``)."""
        ...

    async def close(self) -> None: ...
    async def schema_version(self) -> int: ...
