"""Clicks between shard processes: a cross-server table is driven by one process, the owner
of its home server's shard; a click on its message in a server of another process is
carried there.

Discord sends a server's interactions to the process of that server's shard. A click on a
venue (``bot.crossplay.venue``) whose table this process does not drive is checked against
what this process can know — the venue's server, channel and message, the message's kind —
then answered at once with a deferral (Discord's 3 s), kept in the store (``relayed``, with
the home's shard) and announced on the bus (``c:SHARD:ID``, PostgreSQL's LISTEN/NOTIFY).
The process that owns that shard takes it, once (``take_relayed``; taken again if its taker
died before it was done: ``TAKEN_SECONDS``), rebuilds the interaction
and handles it like a click of its own: the same route, the same checks of seat, server,
channel and message under the table's lock, the same service call. Only its answers differ:
the click was deferred, so they go by the interaction's webhook (``RelayedResponse``: the
deferred message edited, or a follow-up); every later update of the venue's table message
and of its players' hand views is made by the owner through Discord's REST routes, which
take the same token from any process.

A server that turns play across servers off is announced the same way (``w:GUILD:FROM``):
every other process hands that server's seats at the tables it drives to the computer. A
server whose settings changed (``/admin``: its card faces, pictures, watching) is announced
as ``g:GUILD:FROM``: every other process reads them again and redraws its tables in that
server, the venues of the tables it drives among them.

After a takeover the new owner of the shard hears the notifications; a click announced while
no process owned it is taken by the next sweep of the store (at start, then every few
seconds).

The same way carries **requests** that are not clicks (``ask``): an Activity's tap, a seat
taken from ``/tables``. Each kind has a handler on every process (``on``); ``ask`` runs it
on the process that owns the home server's shard — here, if this process does — and waits
for its answer, a small JSON object published back (``a:PROCESS:KEY:ANSWER``). A refusal
(``SessionError``) travels as its key and parameters and is raised again where it was asked,
to be worded there, in the asker's language. An answer that does not come within
``ASK_SECONDS`` (its owner died, say) is refused with ``err.no_answer``, and a request found
later than that (by the next owner's sweep) is dropped undone: the player tries again, and
nothing is done twice.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Coroutine
from typing import Any

import discord

from bot.crossplay.hub import CROSSPLAY
from bot.delivery import FAILURES, describe
from bot.lobby import SessionError
from bot.protocol import Click, Op
from bot.store import Store
from bot.store.shards import shard_of
from bot.validate import came_from
from bot.web.bus import Bus

log = logging.getLogger(__name__)

#: The bus's PostgreSQL channel for clicks.
CHANNEL = "filicau_relay"
#: Operations answered with a message of their own, only the clicker's (their hand view,
#: the last trick, the rules, a hint, a review's first page): deferred as "thinking…",
#: ephemeral, so that the interaction's original message is that answer.
OWN_MESSAGE = frozenset({Op.HAND, Op.LAST, Op.RULES, Op.HINT})
#: Seconds between two sweeps of the store for clicks nobody announced to this process.
SWEEP_SECONDS = 5.0
#: Gateway payloads kept for a relay, by interaction id (a click is relayed within a
#: moment of its arrival, or not at all).
KEPT = 1024

#: Seconds a process has to do a click it took: one not done by then (its process died) is
#: taken again by the next sweep of its shard's owner. Doing a click twice changes nothing
#: (every action is checked under the table's lock against the table as it is): the second
#: is refused, as a click on a table that moved on.
TAKEN_SECONDS = 30.0
#: An interaction's token lives 15 minutes: a click kept longer can be answered no more.
TOKEN_SECONDS = 14 * 60.0
#: Seconds a request carried to another process waits for its answer.
ASK_SECONDS = 8.0
#: The longest answer a notification carries (PostgreSQL's limit is 8,000 bytes).
LONGEST_ANSWER = 7000

#: A handler of requests of one kind: the request's JSON, the answer's.
Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]

#: How a relayed click was deferred: its message updated later ("update"), or a message of
#: its own, ephemeral ("ephemeral") or public ("public": Next hand posts the table anew).
UPDATE, EPHEMERAL, PUBLIC = "update", "ephemeral", "public"


def deferral(click: Click, interaction: discord.Interaction[Any],
             message_id: int | None) -> str:
    """How to defer ``click`` so that its interaction's original message is the message its
    answer draws (a hand view's token edits that message later: never a public one)."""
    if click.op in OWN_MESSAGE or (click.op is Op.REVIEW and not click.has("step")):
        return EPHEMERAL
    on = interaction.message
    if click.op is Op.NEXT and (on is None or on.id != message_id):
        return PUBLIC  # under a result: the new hand's table is posted below it
    return UPDATE


class Sent:
    """What ``send_message`` returns, as far as the bot reads it."""

    def __init__(self, message_id: int) -> None:
        self.message_id = message_id


def _fields(content: Any = discord.utils.MISSING, **kwargs: Any) -> dict[str, Any]:
    out = {k: v for k, v in kwargs.items() if v is not discord.utils.MISSING}
    if content is not discord.utils.MISSING:
        out["content"] = content
    return out


class RelayedResponse:
    """``Interaction.response`` of a click another process deferred: each answer goes by the
    interaction's webhook instead (see the module docstring)."""

    def __init__(self, interaction: discord.Interaction[Any], kind: str) -> None:
        self.interaction = interaction
        self.kind = kind
        self.answered = False

    def is_done(self) -> bool:
        return False  # every answer comes through here, mapped onto the webhook

    async def defer(self, **_: Any) -> None:
        return None  # deferred already, by the process that got it

    async def send_message(self, content: Any = None, *, embed: Any = discord.utils.MISSING,
                           embeds: Any = discord.utils.MISSING,
                           file: Any = discord.utils.MISSING,
                           files: Any = discord.utils.MISSING,
                           view: Any = discord.utils.MISSING, ephemeral: bool = False,
                           allowed_mentions: Any = discord.utils.MISSING,
                           **_: Any) -> Sent:
        i = self.interaction
        attached = files if files is not discord.utils.MISSING else (
            [file] if file is not discord.utils.MISSING else discord.utils.MISSING)
        own = self.kind != UPDATE and not self.answered
        if own and ephemeral == (self.kind == EPHEMERAL):
            # The "thinking…" message becomes the answer.
            self.answered = True
            message = await i.edit_original_response(**_fields(
                content, embed=embed, embeds=embeds, attachments=attached, view=view,
                allowed_mentions=allowed_mentions))
            return Sent(message.id)
        if own:
            # A public "thinking…" for an answer only the clicker may see (a refusal).
            with contextlib.suppress(*FAILURES):
                await i.delete_original_response()
        self.answered = True
        sent = await i.followup.send(wait=True, ephemeral=ephemeral, **_fields(
            content if content is not None else discord.utils.MISSING, embed=embed,
            embeds=embeds, files=attached, view=view, allowed_mentions=allowed_mentions))
        return Sent(sent.id)

    async def edit_message(self, *, content: Any = discord.utils.MISSING,
                           embed: Any = discord.utils.MISSING,
                           embeds: Any = discord.utils.MISSING,
                           attachments: Any = discord.utils.MISSING,
                           view: Any = discord.utils.MISSING,
                           allowed_mentions: Any = discord.utils.MISSING, **_: Any) -> None:
        self.answered = True
        await self.interaction.edit_original_response(**_fields(
            content, embed=embed, embeds=embeds, attachments=attachments, view=view,
            allowed_mentions=allowed_mentions))

    async def launch_activity(self) -> None:
        # The process that got the click launches the Activity itself (``hand_over``): a
        # deferred click can launch nothing.
        raise SessionError("activity.off")


Dispatch = Callable[[discord.Interaction[Any]], Awaitable[None]]


class Relay:
    """See the module docstring. ``shards``: this process's; ``rebuild``: an interaction
    from its gateway payload, in this process's connection state; ``dispatch``: handles a
    click (``bot.clicks``)."""

    def __init__(self, store: Store, bus: Bus, *, shards: Collection[int], shard_count: int,
                 rebuild: Callable[[dict[str, Any]], discord.Interaction[Any]],
                 dispatch: Dispatch) -> None:
        self.store = store
        self.bus = bus
        self.shards = frozenset(shards)
        self.shard_count = shard_count
        self.rebuild = rebuild
        self.dispatch = dispatch
        #: Gateway payloads of the latest component interactions, by id.
        self.payloads: collections.OrderedDict[int, dict[str, Any]] = \
            collections.OrderedDict()
        #: Interactions handled here for another process (never relayed on again).
        self.relayed: set[int] = set()
        #: The kept clicks and requests this process is doing now, by id.
        self.handling: set[int] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self.started = False
        #: Clicks handed to another process, and taken from one (the tests read them).
        self.sent = self.taken = 0
        #: What a server's withdrawal asks of this process (``Crossplay.withdraw_here``).
        self.withdrawn: Callable[[int], Coroutine[Any, Any, None]] | None = None
        #: What a server's changed settings ask of this process (``FilicauBot.reread``).
        self.reread: Callable[[int], Coroutine[Any, Any, None]] | None = None
        #: This process, as its own announcements name it (they come back on one bus).
        self.me = secrets.token_hex(4)
        #: The handlers of requests, by kind (``on``), and the requests asked from here that
        #: wait for their answer, by key.
        self.handlers: dict[str, Handler] = {}
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: Requests carried to another process, and answered here for one (the tests read
        #: them).
        self.asked = self.answered = 0

    # -- requests ---------------------------------------------------------------------------

    def on(self, kind: str, handler: Handler) -> None:
        """Requests of ``kind`` are handled by ``handler`` (on every process alike)."""
        self.handlers[kind] = handler

    async def ask(self, guild_id: int, kind: str, work: dict[str, Any], *,
                  seconds: float = ASK_SECONDS) -> dict[str, Any]:
        """``kind``'s handler's answer to ``work``, from the process that owns ``guild_id``'s
        shard (this one's own handler, if it does); its refusal raised here, and
        ``err.no_answer`` when none comes within ``seconds`` (at most ``ASK_SECONDS``: a
        later request is not done)."""
        shard = self.home_shard(guild_id)
        if shard in self.shards or not self.started:
            return await self.handlers[kind](work)
        key = secrets.token_hex(6)
        # Waiting before the request is kept: a sweep may answer it at once.
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[key] = future
        try:
            rid = await self.store.relay(shard, {"ask": kind, "work": work, "key": key,
                                                 "from": self.me, "at": time.time()})
            await self.bus.publish(f"c:{shard}:{rid}")
            self.asked += 1
            answer = await asyncio.wait_for(future, min(seconds, ASK_SECONDS))
        except TimeoutError:
            raise SessionError("err.no_answer") from None
        finally:
            self.waiting.pop(key, None)
        refused = answer.get("refused")
        if isinstance(refused, str):
            raise SessionError(refused, **dict(answer.get("params") or {}))
        if answer.get("failed"):
            raise SessionError("err.internal")
        return answer

    async def _answer(self, kept: dict[str, Any]) -> None:
        """Handle a request another process asked here, and publish the answer."""
        key, sender = str(kept.get("key", "")), str(kept.get("from", ""))
        if time.time() - float(kept.get("at", 0)) > ASK_SECONDS:
            # Its asker was told there was no answer, and may have asked again: a request
            # found late (by a new owner's sweep) is not done at all.
            log.info("a carried request (%s) came too late to be done", kept.get("ask"))
            return
        handler = self.handlers.get(str(kept.get("ask")))
        answer: dict[str, Any]
        try:
            if handler is None:
                raise LookupError(f"no handler for {kept.get('ask')!r}")
            answer = await handler(dict(kept.get("work") or {}))
        except SessionError as e:
            answer = {"refused": e.key, "params": e.params}
        except Exception:
            log.exception("a carried request (%s) failed", kept.get("ask"))
            answer = {"failed": True}
        text = _dumps(answer)
        if text is None or len(text.encode()) > LONGEST_ANSWER:
            log.error("the answer to a carried request (%s) is too long to carry",
                      kept.get("ask"))
            text = _dumps({"failed": True})
        self.answered += 1
        await self.bus.publish(f"a:{sender}:{key}:{text}")

    def _answered(self, rest: str) -> None:
        sender, _, rest = rest.partition(":")
        key, _, text = rest.partition(":")
        future = self.waiting.get(key) if sender == self.me else None
        if future is None or future.done():
            return
        try:
            answer = json.loads(text)
        except ValueError:
            answer = None
        future.set_result(answer if isinstance(answer, dict) else {"failed": True})

    # -- the process that got the click ----------------------------------------------------

    def remember(self, payload: Any) -> None:
        """A gateway INTERACTION_CREATE as it came: kept a moment, should its click be
        for a table another process drives."""
        if not isinstance(payload, dict) or payload.get("type") != 3:
            return
        with contextlib.suppress(KeyError, TypeError, ValueError):
            self.payloads[int(payload["id"])] = payload
            while len(self.payloads) > KEPT:
                self.payloads.popitem(last=False)

    def forget(self, interaction_id: int) -> None:
        """A click handled here: its payload is not needed."""
        self.payloads.pop(interaction_id, None)

    def home_shard(self, guild_id: int) -> int:
        return shard_of(guild_id, self.shard_count)

    def elsewhere(self, guild_id: int) -> bool:
        """Whether a table whose home is ``guild_id`` is driven by another process."""
        return self.started and self.home_shard(guild_id) not in self.shards

    async def hand_over(self, interaction: discord.Interaction[Any], click: Click) -> bool:
        """A click on a table this process does not drive: carried to its owner if it was
        made on a venue of a cross-server table in this server, its channel and message
        (True: deferred and handed over); False: not a venue's click, refused here."""
        if interaction.id in self.relayed or not self.started:
            return False
        payload = self.payloads.pop(interaction.id, None)
        guild_id = interaction.guild_id
        if payload is None or guild_id is None:
            return False
        row = await self.store.get_table(click.table_id)
        if row is None or not row.settings.get(CROSSPLAY) or row.guild_id == guild_id:
            return False
        if row.state == "closed":
            raise SessionError("err.gone")  # over, wherever it was driven
        if self.home_shard(row.guild_id) in self.shards:
            return False  # this process's own table, not open: refused as such
        venue = next((v for v in await self.store.venues(row.id) if v.guild_id == guild_id),
                     None)
        if venue is None or venue.channel_id != interaction.channel_id:
            raise SessionError("err.elsewhere")
        if not came_from(interaction, click, venue.message_id):
            raise SessionError("err.bad_button")
        if click.op is Op.ACTIVITY:
            # *Open the table*: the Activity opens in this channel, here, where the click
            # came (a launch must be the click's first answer: no deferral, nothing to
            # carry); it finds the table by the channel, and carries its taps itself.
            await interaction.response.launch_activity()
            return True
        await self._carry(interaction, payload, row.guild_id,
                          deferral(click, interaction, venue.message_id))
        return True

    async def carry(self, interaction: discord.Interaction[Any], home_guild_id: int) -> bool:
        """A click checked here already as far as this process can (a *Join* under a
        ``/tables`` list, for a table another process drives): deferred, its message to be
        edited, and carried to the process that drives the table, which checks it again and
        answers it (True); False: not a click this process may carry."""
        if interaction.id in self.relayed or not self.started \
                or self.home_shard(home_guild_id) in self.shards:
            return False
        payload = self.payloads.pop(interaction.id, None)
        if payload is None:
            return False
        await self._carry(interaction, payload, home_guild_id, UPDATE)
        return True

    async def _carry(self, interaction: discord.Interaction[Any], payload: dict[str, Any],
                     home_guild_id: int, kind: str) -> None:
        if kind == UPDATE:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=kind == EPHEMERAL, thinking=True)
        shard = self.home_shard(home_guild_id)
        rid = await self.store.relay(shard, {"interaction": payload, "deferred": kind,
                                             "at": time.time()})
        await self.bus.publish(f"c:{shard}:{rid}")
        self.sent += 1

    # -- the process that drives the table -------------------------------------------------

    async def start(self) -> None:
        """Listen for clicks handed to this process's shards, and take those kept while
        nobody owned them."""
        await self.bus.start(self._heard)
        self.started = True
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def withdraw(self, guild_id: int) -> None:
        """Tell the other processes that ``guild_id`` turned play across servers off."""
        if self.started:
            await self.bus.publish(f"w:{guild_id}:{self.me}")

    async def settings_changed(self, guild_id: int) -> None:
        """Tell the other processes that ``guild_id``'s settings changed."""
        if self.started:
            await self.bus.publish(f"g:{guild_id}:{self.me}")

    def _heard(self, message: str) -> None:
        kind, _, rest = message.partition(":")
        if kind == "a":
            self._answered(rest)
            return
        if kind in ("w", "g"):
            guild, _, sender = rest.partition(":")
            handler = self.withdrawn if kind == "w" else self.reread
            if guild.isdigit() and sender != self.me and handler is not None:
                self._run(handler(int(guild)))
            return
        shard, _, rid = rest.partition(":")
        if kind != "c" or not shard.isdigit() or not rid.isdigit() \
                or int(shard) not in self.shards:
            return
        self._spawn(int(rid))

    def _spawn(self, rid: int) -> None:
        self._run(self.take(rid))

    def _run(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(self._logged(work))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @staticmethod
    async def _logged(work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except Exception:
            log.exception("relay: a notification could not be handled")

    async def sweep(self) -> None:
        """Take the clicks kept for this process's shards that no notification brought, and
        those a process took and never finished (it died)."""
        stale = time.time() - TAKEN_SECONDS
        for rid in await self.store.relayed_for(self.shards, stale_before=stale):
            if rid not in self.handling:
                await self.take(rid)

    async def _sweep(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("could not sweep the relayed clicks")
            await asyncio.sleep(SWEEP_SECONDS)

    async def take(self, rid: int) -> None:
        """Handle the click kept under ``rid`` here, if no process took it yet (or the one
        that did died before it was done); forgotten once done."""
        if rid in self.handling:
            return
        at = time.time()
        kept = await self.store.take_relayed(rid, at=at, stale_before=at - TAKEN_SECONDS)
        if kept is None:
            return
        if "ask" in kept:
            # A request is never done twice (one found late is dropped): forgotten at once.
            await self.store.done_relayed(rid)
            await self._answer(kept)
            return
        self.handling.add(rid)
        try:
            await self._handle(kept, rid)
        except Exception:
            log.exception("a relayed click (%s) failed", rid)  # done: never tried again
        finally:
            self.handling.discard(rid)
        # Not when this process stops mid-way (cancelled): the click stays for the next.
        await self.store.done_relayed(rid)

    async def _handle(self, kept: dict[str, Any], rid: int) -> None:
        if time.time() - float(kept.get("at") or time.time()) > TOKEN_SECONDS:
            log.info("a relayed click (%s) outlived its token", rid)
            return
        try:
            interaction = self.rebuild(kept["interaction"])
            setattr(interaction, "_cs_response",  # noqa: B010 - discord.py's cached slot
                    RelayedResponse(interaction, str(kept.get("deferred", UPDATE))))
        except Exception:
            log.exception("a relayed click (%s) could not be read", rid)
            return
        self.relayed.add(interaction.id)
        self.taken += 1
        try:
            await self.dispatch(interaction)
        except FAILURES as e:
            log.warning("a relayed click (%s) could not be answered (%s)", rid, describe(e))
        finally:
            self.relayed.discard(interaction.id)

    async def stop(self) -> None:
        self.started = False
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in list(self.tasks):
            task.cancel()
        for future in self.waiting.values():
            future.cancel()
        await self.bus.stop()


def _dumps(answer: dict[str, Any]) -> str | None:
    try:
        return json.dumps(answer, separators=(",", ":"))
    except (TypeError, ValueError):
        return None
