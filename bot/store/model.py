"""What the bot remembers: the rows the store gives back (``Store``, its interface, is in
``bot.store.protocols``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

TableState = Literal["lobby", "playing", "closed"]

#: A seat's member id: a Discord user id as a string, or ``cpu:LEVEL`` for a computer.
Member = str


#: In a hand's stored result: the seats whose player left during the hand, so that the
#: computer finished it for them (``bot.session``). Such a hand is rated for nobody.
HANDED_OVER = "handed_over"


#: In a hand's stored result: the seats of the side that won the hand, where the game names
#: a winner that neither the status nor seat scores show (Rich and Poor dealt afresh: the
#: Rich or the Poor), so that ratings can rank the hand (``ResultRow.hand_winners``).
HAND_WINNERS = "hand_winners"


def counts_for_ratings(table_settings: str | None, hand_result: str | None) -> bool:
    """Whether a stored result moves ratings, from its table's settings and its hand's
    result (both as stored, JSON text): at a rated table (``rated``, on unless the table
    was opened casual), with no seat handed to the computer mid-hand."""
    settings = json.loads(table_settings or "{}")
    result = json.loads(hand_result or "{}")
    return bool(settings.get("rated", True)) and not result.get(HANDED_OVER)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class StoreError(RuntimeError):
    """The store cannot do what was asked (a second open table in a channel, a corrupt row)."""


#: What older rows kept among a table's settings and belongs to its runtime state.
RUNTIME_KEYS = ("names", "leaving", "thread_id")


class TableRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    game: str
    options: dict[str, Any]
    opener_id: int
    #: One entry per seat: a member id, or None while the seat is empty.
    seats: list[Member | None]
    state: TableState
    created_at: str
    #: The table's settings as opened (the turn timer, pings, rated...), apart from the game's
    #: options.
    settings: dict[str, Any] = {}
    #: What the table keeps while it lives, to carry on after a restart or in another process:
    #: the players' names for labels, the seats leaving at the hand's end, its thread, the turn's
    #: signal message.
    runtime: dict[str, Any] = {}

    @model_validator(mode="before")
    @classmethod
    def _runtime_out_of_settings(cls, data: Any) -> Any:
        """Rows written before ``runtime`` existed kept it among the settings."""
        if isinstance(data, dict) and not data.get("runtime"):
            settings = dict(data.get("settings") or {})
            moved = {k: settings.pop(k) for k in RUNTIME_KEYS if k in settings}
            if moved:
                data = {**data, "settings": settings, "runtime": moved}
        return data


class HandRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    table_id: int
    number: int
    #: The game record without its actions (they are in ``actions``).
    header: dict[str, Any]
    actions: list[dict[str, Any]]
    result: dict[str, Any] | None
    started_at: str
    finished_at: str | None

    def record(self) -> dict[str, Any]:
        """The full game record, as ``python -m engine replay`` reads it; a finished hand's
        with its shuffle revealed (the seed and secret its result keeps: ``bot.seals``)."""
        revealed = (self.result or {}).get("shuffle")
        shuffle = {"shuffle": revealed} if revealed is not None else {}
        return {**self.header, "actions": self.actions, **shuffle}


class PartnershipStatus(BaseModel):
    """Status between two partnerships in one server and game. Teams are kept in a canonical
    order (``team_a`` sorts first); ``masters`` is ``"a"``, ``"b"`` or None."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    game: str
    team_a: list[Member]
    team_b: list[Member]
    masters: Literal["a", "b"] | None = None
    servant: Member | None = None
    next_dealer: Member | None = None
    since: str | None = None
    updated_at: str | None = None
    #: The rest of the engine's status with seats as members: ``teams`` (member -> team),
    #: ``trump``, ``leader``, ``score`` (per team in canonical order, or member -> points),
    #: ``deals``, and ``masters`` (a team number) where teams form per deal.
    extra: dict[str, Any] = {}


class ResultRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    hand_id: int
    guild_id: int
    game: str
    team_a: list[Member]
    team_b: list[Member]
    points_a: int
    points_b: int
    #: "a"/"b"/None before and after the hand.
    masters_before: Literal["a", "b"] | None
    masters_after: Literal["a", "b"] | None
    event: str
    #: The team the event is about ("a"/"b"), e.g. the team that ran away.
    event_team: Literal["a", "b"] | None
    finished_at: str
    #: Every seat's member (status form), and the members who were masters before and after
    #: the hand: what the standings count at tables whose teams form per deal.
    members: list[Member] = []
    masters_before_members: list[Member] = []
    masters_after_members: list[Member] = []
    #: Score change of each member this hand (games scored per player), else None.
    scores: dict[Member, int] | None = None
    #: The members who won the match this hand ended (games played as matches).
    match_winners: list[Member] = []
    #: The members of the side that won the hand, where the game names a winner that
    #: neither the status nor ``scores`` show (Rich and Poor); else empty. Not a column of
    #: ``results``: kept as seats in the hand's stored result (``HAND_WINNERS``) and read
    #: back with it by ``Store.rated_results`` (``with_hand_winners``).
    hand_winners: list[Member] = []


def with_hand_winners(row: ResultRow, hand_result: str | None) -> ResultRow:
    """``row`` with the ``hand_winners`` its hand's stored result (JSON text) names; a
    result stored before they were kept names none, and its hand stays a tie.

    >>> row = ResultRow(hand_id=1, guild_id=1, game="rich_poor", team_a=[], team_b=[],
    ...                 points_a=6, points_b=2, masters_before=None, masters_after=None,
    ...                 event="rich_win", event_team=None, finished_at="",
    ...                 members=["1", "2", "3", "4", "5"])
    >>> with_hand_winners(row, '{"hand_winners": [1, 3]}').hand_winners
    ['2', '4']
    >>> with_hand_winners(row, '{"event": "rich_win"}').hand_winners
    []
    """
    seats = json.loads(hand_result or "{}").get(HAND_WINNERS) or []
    if not seats:
        return row
    return row.model_copy(update={"hand_winners": [
        row.members[s] for s in seats if isinstance(s, int) and 0 <= s < len(row.members)]})


class GuildSettings(BaseModel):
    """A server's own settings: the language of its public messages (its Discord locale, as
    last seen in an interaction), and how cards are shown (pictures or text only, the
    pictures' theme and card faces)."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    #: The server's Discord locale (``interaction.guild_locale``), e.g. ``de`` or ``en-US``.
    locale: str | None = None
    #: Card pictures at this server's tables; off (text only) by default.
    pictures: bool = False
    theme: Literal["light", "dark", "fourcolour"] = "dark"
    #: The pictures' card faces: each game's own (``Rules.faces``), or German or French
    #: faces for every game (``bot.cardart.faces_for``).
    faces: Literal["game", "german", "french"] = "game"
    #: Whether this server's web pages show the tables across servers it shows (as each
    #: table's own ``watch`` allows); off, its links to them open on "not watched".
    watch_across: bool = True


class WebKey(BaseModel):
    """A server's key for its web pages (``bot.web``): every link to a page of the server is
    signed with ``secret``, so a new secret (``/admin web rotate``) revokes them all, and
    ``enabled`` off (``/admin web off``) refuses them while it lasts."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    #: Random bytes as hex (the HMAC key of the server's links).
    secret: str
    enabled: bool = True


class RatingRow(BaseModel):
    """A player's rating in one server, game and season (``bot.ratings``): ``player`` is a
    member for a person, ``cpu:LEVEL`` for a computer level."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    game: str
    season: int
    player: str
    mu: float
    sigma: float
    hands: int
    #: The ``finished_at`` of the last hand that moved it.
    updated_at: str


class RatingChange(BaseModel):
    """One player's rating before and after one hand."""

    model_config = ConfigDict(frozen=True)

    hand_id: int
    guild_id: int
    game: str
    season: int
    player: str
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    #: The result's ``finished_at``: ratings follow the results in (finished_at, hand_id)
    #: order.
    finished_at: str


class Season(BaseModel):
    """A server's rating season: results finished from ``started_at`` on count in it."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    number: int
    started_at: str


def pair_key(team_a: Sequence[Member], team_b: Sequence[Member]) -> str:
    return json.dumps([sorted(team_a), sorted(team_b)])


def canonical(
    team0: Sequence[Member], team1: Sequence[Member]
) -> tuple[list[Member], list[Member], bool]:
    """The two teams in canonical order, and whether they were swapped."""
    a, b = sorted(team0), sorted(team1)
    return (a, b, False) if a <= b else (b, a, True)


# -- finding a game, tournaments (issue 37) ----------------------------------------------------

Reminders = Literal["off", "dm"]
Invites = Literal["mention", "dm"]


class PlayerSettings(BaseModel):
    """A player's own preferences (``/settings``), the same in every server: a direct
    message when their turn waits for them (``reminders``), and how an invitation reaches
    them (a mention in the table's channel, or a direct message)."""

    model_config = ConfigDict(frozen=True)

    user_id: int
    reminders: Reminders = "off"
    invites: Invites = "mention"
    #: The Discord locale they last chose these in: the language of their direct messages.
    locale: str | None = None


class CommunitySettings(BaseModel):
    """A server's settings for finding a game (``/community``): the role called when a table
    needs one more player (none: nobody is called), when it was last called (the calls are
    rate-limited per server), and how long an invitation holds a seat."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    call_role_id: int | None = None
    hold_minutes: int = 10
    last_call_at: str | None = None


TournamentFormat = Literal["swiss", "duplicate"]
TournamentState = Literal["signup", "running", "finished", "cancelled"]


class TournamentRow(BaseModel):
    """A tournament: its game and format, its rounds of ``hands`` hands each, where it is
    announced (its channel and message, its Discord scheduled event), and how far it is
    (``round``: the round in play, 0 before the first)."""

    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None = None
    event_id: int | None = None
    organizer_id: int
    game: str
    format: TournamentFormat
    rounds: int
    hands: int
    #: The tables' settings (turn time...), the computers' level, the deals' seed.
    settings: dict[str, Any] = {}
    state: TournamentState = "signup"
    round: int = 0
    #: The last round whose standings were posted (``rounds``: the final results).
    shown: int = 0
    starts_at: str
    created_at: str = ""


class Entrant(BaseModel):
    """One entrant of a tournament: a member (a person's user id), or a computer entered
    by the organizer (``cpu:LEVEL#N``)."""

    model_config = ConfigDict(frozen=True)

    entrant: str
    name: str
    joined_at: str


class TournamentTable(BaseModel):
    """One table of one round: who sits where (entrants, and computers that fill the seats
    left over), its thread and table once made, and what its round left (``result``: each
    finished hand's values per seat, ``bot.tournaments``) once it is over."""

    model_config = ConfigDict(frozen=True)

    tournament_id: int
    round: int
    number: int
    seats: list[str]
    thread_id: int | None = None
    table_id: int | None = None
    result: dict[str, Any] | None = None


#: The books of play across servers: the server id its tables' hands are kept under
#: (partnerships, standings, ratings), apart from every server's own. No Discord server has
#: it (snowflakes are far below it) and it fits a signed 64-bit column.
EVERYWHERE = 2**63 - 1

Pace = Literal["quick", "usual", "slow"]
#: Why a player reports a hand (chosen from a list: no free text travels between servers).
ReportReason = Literal["cheating", "name", "stalling", "other"]


class CrossplaySettings(BaseModel):
    """A server's play across servers (``/admin crossplay``): off by default; when on, for
    these games and from these channels only (empty: every game, every channel)."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    enabled: bool = False
    games: tuple[str, ...] = ()
    channels: tuple[int, ...] = ()

    def allows(self, game: str, channel_id: int | None) -> bool:
        """Whether a player of this server may play ``game`` across servers from
        ``channel_id``.

        >>> s = CrossplaySettings(guild_id=1, enabled=True, games=("filicau",))
        >>> s.allows("filicau", 5), s.allows("filko", 5)
        (True, False)
        """
        return (self.enabled and (not self.games or game in self.games)
                and (not self.channels or channel_id in self.channels))


class Waiting(BaseModel):
    """A player in the queue of every server (quick play *everywhere*): where they queued,
    what for, the name they are shown by, and their ``/play``'s token (any process may
    answer through it while it lives: the table, once formed, is posted with it)."""

    model_config = ConfigDict(frozen=True)

    user_id: int
    guild_id: int
    channel_id: int
    game: str
    rated: bool = True
    pace: Pace = "usual"
    name: str
    locale: str | None = None
    application_id: int
    token: str
    queued_at: str


class VenueRow(BaseModel):
    """Where a cross-server table is shown in one more server (its home server is the
    table's own row): the channel, the table message there, the people who play from that
    server, and what the venue keeps while it runs (its thread, the turn's signal)."""

    model_config = ConfigDict(frozen=True)

    table_id: int
    guild_id: int
    channel_id: int
    message_id: int | None = None
    members: tuple[int, ...] = ()
    runtime: dict[str, Any] = Field(default_factory=dict)


class Report(BaseModel):
    """A hand a player reported (the operator reads them: ``/operator reports``)."""

    model_config = ConfigDict(frozen=True)

    id: int
    reporter_id: int
    hand_id: int
    guild_id: int
    reason: ReportReason
    created_at: str
