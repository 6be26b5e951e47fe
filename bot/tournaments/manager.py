"""The tournaments of this process's servers: sign-up, rounds, tables, standings, the end.

A tournament lives in the store (``bot.store.community``), never only in memory: its row
(state, the round in play, the last round whose standings were posted), its entrants, and
the tables of each round (their seats, thread, table and, once over, what they left). Each
step is written before it is acted on and can be taken again, so a restart, or a process
killed at any point, goes on from where the store is:

- sign-up ends at the start time (a timer here, set again at start) or when the organizer
  presses Start now; the first round is drawn (``pairing``) and stored with the tournament
  in play, in one transaction (``start_round``: a round is drawn once, whoever asks twice);
- each table of a round gets its own thread in the tournament's channel (kept with the table
  of the round before the table is made there, so a second try finds it) and an ordinary
  table in it (opened and started by the table service, ``bot.service``), seated by the draw,
  whose settings carry the tournament's plan (``bot.boards``: its hands, and in duplicate
  the round's boards);
- a table's ``TournamentSurface`` closes it once its round's hands are played; a table that
  closes (so, or because nobody played at it) leaves its result (``results``), read from
  its stored hands; when every table of the round has one, the next round is drawn by the
  standings (``scoring``), the standings are posted, and the next round's tables open; after
  the last, the final results.

A tournament belongs to a server, so to the one process that owns the server's shard: its
tables are all in that process. What makes it span processes is the store: a process that
takes the shard over (a restart under another shard count, a process that died and was
started again) finds the tournament, its tables and their logs there and goes on; nothing is
kept only in a process's memory (``tests/test_tournaments.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot import boards, names
from bot.courier import Via
from bot.delivery import FAILURES, Sender, describe, only_users
from bot.lobby import DEFAULT_TURN_SECONDS, DEFAULT_WINDOW_SECONDS, Actor, SessionError
from bot.open_tables import OpenTable, OpenTables
from bot.seats import computer, is_computer, parse_member
from bot.servers import Servers
from bot.service import Outcome, TableService
from bot.store import Entrant, Store, TournamentRow, TournamentTable
from bot.store.model import TournamentFormat
from bot.texts import speaking, t
from bot.tournaments import drawing, events, pairing, scoring
from bot.tournaments.round_scores import round_result, table_rounds
from bot.watch import DEFAULT_WATCH
from engine import make_rules

log = logging.getLogger(__name__)

#: The closing words of a table whose round is over (``bot.courier``'s ``closed``).
TABLE_DONE = "tour.table_done"
#: How long a tournament's scheduled event is said to last, per hand of every round.
MINUTES_PER_HAND = 10


class TournamentError(SessionError):
    """A request the tournament refuses (``key`` names the message)."""


def member_of(entrant: str, level: str) -> str:
    """The member a table seats for an entrant: a person as themself, a computer entrant or
    a filler as a computer of its level."""
    if entrant.startswith("cpu:"):
        return computer(parse_member(entrant).level or level)
    return entrant


class Tournaments:
    """The tournaments of this process (see the module docstring): kept in ``store``,
    announced through ``sender`` in each server's language (``servers``), their tables
    opened and ended by the table service over the registry of open tables; ``ready``
    returns once the bot is connected."""

    def __init__(self, *, store: Store, servers: Servers, sender: Sender, tables: OpenTables,
                 service: TableService, ready: Callable[[], Awaitable[Any]]) -> None:
        self.store = store
        self.servers = servers
        self.sender = sender
        self.tables = tables
        self.service = service
        self._ready = ready
        self._locks: dict[int, asyncio.Lock] = {}
        #: The end of each sign-up, by tournament.
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.stopping = False

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Work that outlives the call that asked for it (a table closing from inside its
        own courier); failures are logged, never lost silently."""
        if self.stopping:
            work.close()
            return
        task = asyncio.get_running_loop().create_task(self._logged(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _logged(self, work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a tournament's work failed")

    def pending(self) -> list[asyncio.Task[None]]:
        """The work in flight (what the in-process tests wait for)."""
        return [task for task in self._tasks if not task.done()]

    # -- start-up and shut-down ----------------------------------------------------------------

    async def restore(self) -> None:
        """After the tables are restored: close the tables whose round is played out (a
        process stopped between the last hand and the close), set the sign-ups' timers
        again, and go on with the tournaments in play once connected."""
        for table in list(self.tables):
            plan = table.session.plan
            if plan is not None and self.played_out(table):
                await self.service.end(table, TABLE_DONE)
        for row in await self.store.owned_tournaments():
            if row.state == "signup":
                self.arm(row)
            else:
                self.spawn(self._resume(row.id))

    def stop(self) -> list[asyncio.Task[None]]:
        self.stopping = True
        tasks = [*self._timers.values(), *self._tasks]
        for task in tasks:
            task.cancel()
        self._timers.clear()
        return tasks

    async def _resume(self, tournament_id: int) -> None:
        await self._ready()
        async with self.lock(tournament_id):
            row = await self.store.get_tournament(tournament_id)
            if row is None or row.state != "running":
                return
            for table in await self.store.tournament_tables(row.id, row.round):
                if table.result is not None:
                    continue
                open_table = None if table.table_id is None else self.tables.get(
                    table.table_id)
                if table.table_id is not None and open_table is None:
                    # Closed (or lost) while no process watched it: what it played counts.
                    await self._keep_result(row, table)
                else:
                    await self._open_table(row, table)
            if row.shown < row.round - 1:
                await self._post_standings(row, row.round - 1)
        await self._advance(tournament_id)

    # -- a new tournament ---------------------------------------------------------------------

    async def create(self, *, guild_id: int, channel_id: int, organizer_id: int, game: str,
                     format: TournamentFormat, rounds: int, hands: int, starts_in: int,
                     computers: int, level: str, turn_seconds: int) -> TournamentRow:
        starts = datetime.now(UTC) + timedelta(minutes=starts_in)
        row = await self.store.create_tournament(
            guild_id=guild_id, channel_id=channel_id, organizer_id=organizer_id, game=game,
            format=format, rounds=rounds, hands=hands,
            settings={"level": level, "turn_seconds": turn_seconds,
                      "seed": secrets.token_hex(8)},
            starts_at=starts.isoformat(timespec="seconds"))
        for i in range(1, computers + 1):
            await self.store.add_entrant(row.id, f"cpu:{level}#{i}", f"{level} {i}")
        self.arm(row)
        return row

    async def announce(self, row: TournamentRow) -> None:
        """The announcement was posted: the server's scheduled event."""
        with speaking(self.servers.public_language(row.guild_id)):
            fields = drawing.event_fields(row, events.channel_link(row))
        end = (datetime.fromisoformat(row.starts_at)
               + timedelta(minutes=MINUTES_PER_HAND * row.rounds * row.hands + 30))
        event_id = await events.create(self.sender.http, row.guild_id, start=row.starts_at,
                                       end=end.isoformat(timespec="seconds"), **fields)
        if event_id is not None:
            await self.store.update_tournament(row.id, event_id=event_id)

    async def shown(self, tournament_id: int) -> tuple[TournamentRow, list[Entrant]]:
        row = await self.store.get_tournament(tournament_id)
        if row is None:
            raise TournamentError("err.tour_gone")
        return row, await self.store.entrants(tournament_id)

    # -- sign-up --------------------------------------------------------------------------------

    async def sign_up(self, tournament_id: int, user_id: int, name: str) -> None:
        if not await self.store.add_entrant(tournament_id, str(user_id), name):
            row, _ = await self.shown(tournament_id)
            if row.state != "signup":
                raise TournamentError("err.tour_not_signup")
            raise TournamentError("err.tour_already")

    async def withdraw(self, tournament_id: int, user_id: int) -> None:
        if not await self.store.remove_entrant(tournament_id, str(user_id)):
            row, _ = await self.shown(tournament_id)
            if row.state != "signup":
                raise TournamentError("err.tour_not_signup")
            raise TournamentError("err.tour_not_entered")

    def arm(self, row: TournamentRow) -> None:
        """Sign-up ends at the start time."""
        old = self._timers.pop(row.id, None)
        if old is not None:
            old.cancel()
        if self.stopping:
            return
        delay = (datetime.fromisoformat(row.starts_at) - datetime.now(UTC)).total_seconds()
        self._timers[row.id] = asyncio.get_running_loop().create_task(
            self._start_at(row.id, max(0.0, delay)))

    async def _start_at(self, tournament_id: int, delay: float) -> None:
        await asyncio.sleep(delay)
        await self._ready()
        self._timers.pop(tournament_id, None)
        try:
            await self.start(tournament_id, by=None)
        except TournamentError as e:
            log.info("tournament %s did not start: %s", tournament_id, e.key)
        except Exception:
            log.exception("tournament %s could not start", tournament_id)

    # -- starting ---------------------------------------------------------------------------------

    def size(self, row: TournamentRow) -> tuple[int, tuple[int, ...] | None]:
        """Seats per table, and the sides of the seats where partners are fixed."""
        rules = make_rules(row.game)
        return rules.players, (tuple(rules.seat_teams) if rules.fixed_teams else None)

    async def start(self, tournament_id: int, *, by: int | None, manager: bool = False) -> None:
        """End sign-up and play the first round (``by``: who pressed Start now; None: the
        start time came). Too few people at the start time cancels the tournament."""
        async with self.lock(tournament_id):
            row, entrants = await self.shown(tournament_id)
            if by is not None and by != row.organizer_id and not manager:
                raise TournamentError("err.tour_not_organizer")
            if row.state != "signup":
                raise TournamentError("err.tour_not_signup")
            size, _ = self.size(row)
            people = sum(1 for e in entrants if pairing.is_person(e.entrant))
            if people < pairing.table_count(len(entrants), size) or people == 0:
                if by is not None:
                    raise TournamentError("err.tour_too_few", count=people)
                await self._cancel(row, "tour.cancelled_too_few")
                return
            timer = self._timers.pop(row.id, None)
            if timer is not None and timer is not asyncio.current_task():
                timer.cancel()
            ranked = pairing.shuffled([e.entrant for e in entrants], str(row.settings["seed"]))
            draw = self._draw(row, 1, ranked, None, [])
            if not await self.store.start_round(row.id, 1, draw):
                return
            row = row.model_copy(update={"state": "running", "round": 1})
            await self._redraw_announcement(row, entrants)
            await events.set_status(self.sender.http, row.guild_id, await self._event_of(row.id),
                                    events.ACTIVE)
            for table in await self.store.tournament_tables(row.id, 1):
                await self._open_table(row, table)

    async def cancel(self, tournament_id: int, *, by: int, manager: bool) -> None:
        async with self.lock(tournament_id):
            row, _ = await self.shown(tournament_id)
            if by != row.organizer_id and not manager:
                raise TournamentError("err.tour_not_organizer")
            if row.state != "signup":
                raise TournamentError("err.tour_not_signup")
            await self._cancel(row, "tour.cancelled_post")

    async def _cancel(self, row: TournamentRow, key: str) -> None:
        await self.store.update_tournament(row.id, state="cancelled")
        timer = self._timers.pop(row.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        row = row.model_copy(update={"state": "cancelled"})
        await self._redraw_announcement(row, await self.store.entrants(row.id))
        await events.set_status(self.sender.http, row.guild_id, row.event_id, events.CANCELED)
        with speaking(self.servers.public_language(row.guild_id)):
            await self._post(row.channel_id, content=t(key, title=drawing.title(row)))
        self._forget(row.id)

    def _forget(self, tournament_id: int) -> None:
        """A tournament is over: nothing of it stays in memory (its lock's holders keep
        theirs)."""
        self._locks.pop(tournament_id, None)
        timer = self._timers.pop(tournament_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def _draw(self, row: TournamentRow, round_number: int, ranked: Sequence[str],
              scores: dict[str, float] | None, played: Sequence[TournamentTable]
              ) -> list[list[str]]:
        """The round's tables, seated: the same from the same store (its seed is the
        tournament's and the round's)."""
        size, sides = self.size(row)
        layout = pairing.Layout(size, sides)
        return pairing.draw(
            ranked, layout, fill=computer(str(row.settings.get("level", "easy"))),
            history=pairing.History.of([(t.round, t.seats) for t in played], layout),
            scores=scores if row.format == "swiss" else None,
            seed=f"{row.settings['seed']}:{round_number}")

    async def _event_of(self, tournament_id: int) -> int | None:
        row = await self.store.get_tournament(tournament_id)
        return None if row is None else row.event_id

    # -- a round's tables -------------------------------------------------------------------------

    async def _open_table(self, row: TournamentRow, table: TournamentTable) -> None:
        """The round's table ``table`` in its own thread, seated and dealt; every step taken
        only if it was not taken before (``_resume`` calls this again after a restart)."""
        language = self.servers.public_language(row.guild_id)
        thread_id = table.thread_id
        if thread_id is None:
            with speaking(language):
                name = t("tour.thread", number=row.id, round=table.round, table=table.number)
            data = await self.sender.http.start_thread_without_message(
                row.channel_id, name=name[:100], auto_archive_duration=1440,
                type=discord.ChannelType.public_thread.value)
            thread_id = int(data["id"])
            await self.store.update_tournament_table(row.id, table.round, table.number,
                                                     thread_id=thread_id)
        level = str(row.settings.get("level", "easy"))
        open_table = self.tables.in_channel(thread_id)
        if open_table is None:
            plan = boards.Plan(row.id, table.round, table.number, row.hands,
                               f"{row.settings['seed']}:{table.round}"
                               if row.format == "duplicate" else None)
            settings = {"turn_seconds": int(row.settings.get("turn_seconds",
                                                             DEFAULT_TURN_SECONDS)),
                        "window_seconds": DEFAULT_WINDOW_SECONDS, "pings": True,
                        "hints": False, "rated": True, "thread": False,
                        "watch": DEFAULT_WATCH}
            entrants = {e.entrant: e.name for e in await self.store.entrants(row.id)}
            open_table = await self.service.open(
                guild_id=row.guild_id, channel_id=thread_id, game=row.game, options={},
                opener_id=row.organizer_id, settings=settings, plan=plan,
                members=[member_of(e, level) for e in table.seats],
                names={e: entrants[e] for e in table.seats if e in entrants
                       and not e.startswith("cpu:")}, post=None)
        await self.store.update_tournament_table(row.id, table.round, table.number,
                                                 table_id=open_table.id)
        opened = open_table

        async def post(_: Outcome | None = None) -> None:
            if opened.session.message_id is None:
                await self._post_table(table, opened)

        if opened.session.state == "lobby":
            await self.service.start(opened, Actor(row.organizer_id, manager=True),
                                     via=Via.TABLE, reply=post)
        else:
            await post()

    async def _post_table(self, table: TournamentTable, open_table: OpenTable) -> None:
        """The table message in the table's thread, and who sits there (a mention adds
        each person to the thread)."""
        s = open_table.session
        await open_table.discord.post_in_channel()
        with speaking(self.servers.public_language(s.guild_id)):
            people = [int(m) for m in s.seats if m is not None and not is_computer(m)]
            seated = ", ".join(names.seat_mention(s, seat) for seat in range(len(s.seats)))
            await open_table.discord.delivery.send(
                s.channel_id, content=t("tour.seated", round=table.round, table=table.number,
                                        players=seated, button=t("btn.my_hand")),
                allowed_mentions=only_users(people), what="seat a tournament table")

    def played_out(self, table: OpenTable) -> bool:
        """The table has played its round's hands."""
        s = table.session
        plan = s.plan
        return (plan is not None and s.hand_number >= plan.hands and s.hand is not None
                and s.hand.finished)

    async def table_closed(self, table_id: int) -> None:
        """A tournament table closed: keep what its round left, and go on if the round is
        over."""
        table = await self.store.table_in_tournament(table_id)
        if table is None or table.result is not None:
            return
        async with self.lock(table.tournament_id):
            row = await self.store.get_tournament(table.tournament_id)
            if row is None:
                return
            await self._keep_result(row, table)
        await self._advance(table.tournament_id)

    async def _keep_result(self, row: TournamentRow, table: TournamentTable) -> None:
        assert table.table_id is not None
        hands = await self.store.hands(table.table_id, limit=row.hands + 1)
        await self.store.update_tournament_table(
            row.id, table.round, table.number, result=round_result(hands, row.hands))
        if table.thread_id is not None:
            try:
                await self.sender.http.edit_channel(table.thread_id, archived=True,
                                                    locked=True)
            except FAILURES as e:
                log.info("tournament %s: a table's thread was not archived (%s)", row.id,
                         describe(e))

    # -- between rounds -----------------------------------------------------------------------

    async def standings(self, row: TournamentRow, after: int | None = None
                        ) -> list[scoring.Standing]:
        """The standings from the tables over (of rounds up to ``after``)."""
        entrants = [e.entrant for e in await self.store.entrants(row.id)]
        tables = [t for t in await self.store.tournament_tables(row.id)
                  if after is None or t.round <= after]
        return scoring.standings(row.format, entrants, table_rounds(tables), row.rounds)

    async def _advance(self, tournament_id: int) -> None:
        """If every table of the round in play is over: the next round (or the end)."""
        async with self.lock(tournament_id):
            row = await self.store.get_tournament(tournament_id)
            if row is None or row.state != "running":
                return
            tables = await self.store.tournament_tables(row.id, row.round)
            if not tables or any(t.result is None for t in tables):
                return
            if row.round >= row.rounds:
                await self._post_standings(row, row.round, final=True)
                await self.store.update_tournament(row.id, state="finished", shown=row.rounds)
                row = row.model_copy(update={"state": "finished", "shown": row.rounds})
                await self._redraw_announcement(row, await self.store.entrants(row.id))
                await events.set_status(self.sender.http, row.guild_id, row.event_id,
                                        events.COMPLETED)
                self._forget(row.id)
                return
            standings = await self.standings(row)
            every = await self.store.tournament_tables(row.id)
            draw = self._draw(row, row.round + 1, [s.entrant for s in standings],
                              {s.entrant: s.score for s in standings}, every)
            await self.store.start_round(row.id, row.round + 1, draw)
            if row.shown < row.round:
                await self._post_standings(row, row.round)
            row = row.model_copy(update={"round": row.round + 1})
            await self._redraw_announcement(row, await self.store.entrants(row.id))
            for table in await self.store.tournament_tables(row.id, row.round):
                await self._open_table(row, table)

    async def _post_standings(self, row: TournamentRow, after: int, *,
                              final: bool = False) -> None:
        standings = await self.standings(row, after)
        with speaking(self.servers.public_language(row.guild_id)):
            embed = drawing.standings_embed(row, standings, after, final=final)
        if await self._post(row.channel_id, embed=embed):
            await self.store.update_tournament(row.id, shown=after)

    async def _post(self, channel_id: int, **fields: Any) -> bool:
        try:
            await self.sender.channel(channel_id).send(**fields)
        except FAILURES as e:
            log.warning("could not post in channel %s (%s)", channel_id, describe(e))
            return False
        return True

    async def _redraw_announcement(self, row: TournamentRow,
                                   entrants: Sequence[Entrant]) -> None:
        fresh = await self.store.get_tournament(row.id)
        if fresh is None or fresh.message_id is None:
            return
        with speaking(self.servers.public_language(row.guild_id)):
            embed = drawing.announcement(row, entrants)
            view = drawing.announcement_view(row)
        with contextlib.suppress(*FAILURES):
            await self.sender.channel(row.channel_id).get_partial_message(
                fresh.message_id).edit(embed=embed, view=view)
