"""Fuzz the front door: hostile INTERACTION_CREATE payloads against the real bot.

The payloads come from Discord's own schema, from real clicks with one part damaged, from
custom_ids of every operation with garbage arguments (``fuzzing.py``), and from the
components of every kind of message the bot sends (lobby, table, hand view, result, review,
the question whether to leave, leaderboard) sent from every other kind (a hint too), as a
forged interaction would. They are aimed at a lobby, a table in play with every hand view
open, and a table whose hand is over, by a seated player, somebody not seated, a server
manager and a user of another server. For each one:

- a payload discord.py cannot parse is dropped by its parser (at this level the parser's
  exception reaches the test helper; in the process, the gateway guard logs it and goes on);
  one it parses is a well-formed interaction and gets exactly one answer;
- the store's game rows (tables, hands, actions, partnerships, results) and the open tables
  in memory are unchanged: payloads that could be a legal move by somebody allowed to make
  it are not sent (``fuzzing.may_change``), so every payload sent is bad input;
- nothing is logged with a traceback, at any level, and no error at all;
- no message the bot writes shows a hidden card to anybody but its holder, nor anything drawn
  only on private messages (a hand, a review, a hint) on a public one (the harness checks
  every message as it is written; ``Harness._check_hidden``, ``_check_private``);
- the bot lives: a normal click afterwards is answered.

Hypothesis runs in a worker thread and hands each payload to the event loop the bot runs on,
so that it can shrink a failure to a small payload. Examples are few and derandomized, with no
deadline and no example database: the runs are the same on every machine, whatever its speed.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from fake_discord import (
    CHANNEL_ID,
    CHANNEL_MESSAGE,
    OTHER_CHANNEL_ID,
    Harness,
    Message,
    Sent,
    User,
)
from fuzzing import (
    custom_ids,
    damaged,
    may_change,
    menu_values,
    schema_components,
    schema_interaction_types,
    schema_members,
    store_rows,
)
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from standin.discord_objects import walk_components
from test_cogs import four_players, one_human, play_until
from test_hostile_input import OTHER_GUILD_ID, elsewhere

from bot.texts import t
from cogs.ratings import board_buttons

#: Per family and table set-up; about 0.03 s each on a loaded two-core machine (the budget is
#: the whole module in about a minute). ``FUZZ_EXAMPLES=2000 FUZZ_RANDOM=1`` hunts longer,
#: with new random payloads each run.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                derandomize=not os.environ.get("FUZZ_RANDOM"), database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
#: Interaction types the bot answers (slash commands and components); Discord sends no other
#: kind to a bot that opens no modal and declares no autocomplete.
ANSWERED_TYPES = (2, 3)
#: Table options that keep the turn timer and its ping out of the way of the run.
QUIET: dict[str, Any] = {"turn_seconds": 900, "pings": False}


@dataclass
class World:
    """The harness with its tables set up, the people, and the real clicks to start from."""

    h: Harness
    people: dict[str, User]
    #: Who makes the normal click afterwards that shows the bot lives.
    looker: User
    #: Real payloads: a button or menu the bot drew as somebody clicks it, every slash
    #: command with valid options.
    bases: list[dict[str, Any]] = field(default_factory=list)
    #: The user of each base, by the base's token.
    owners: dict[str, User] = field(default_factory=dict)
    #: The bot's slash commands, the shapes of their payloads, the users a command's
    #: options name (by the base's token).
    commands: set[tuple[Any, ...]] = field(default_factory=set)
    command_shapes: list[Any] = field(default_factory=list)
    resolved: dict[str, Any] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=lambda: {
        "answered": 0, "dropped": 0, "unanswered type": 0, "legal, not sent": 0,
        "known bug, not sent": 0})
    #: Every kind of message the bot sends, as its viewers see it: (message, who see it).
    kinds: dict[str, list[tuple[Message, list[User]]]] = field(default_factory=dict)
    #: The components each kind of message carries (what a click on them sends).
    drawn: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def table_ids(self) -> list[int]:
        return sorted(self.h.tables.open)


# -- building the worlds ------------------------------------------------------------------------


def click_bases(world: World, message: Message, users: list[User]) -> None:
    """A click on every component of ``message`` by each of ``users`` (a user of another
    server clicks from there)."""
    h = world.h
    for component in [*message.buttons, *message.selects]:
        data: dict[str, Any] = {"custom_id": component["custom_id"],
                                "component_type": component["type"]}
        if component["type"] == 3:
            size = component.get("min_values", 1)
            data["values"] = [o["value"] for o in component["options"][:size]]
        for user in users:
            payload, sent = h._interaction(user, 3, data, message.payload(), message.channel_id)
            del h.discord.interactions[sent.token]  # each example sends a fresh one
            if user is world.people.get("foreigner"):
                payload = elsewhere(payload, guild=OTHER_GUILD_ID)
            world.bases.append(payload)
            world.owners[payload["token"]] = user


def command_bases(world: World, channel_id: int, users: list[User]) -> None:
    """Every slash command, with valid options, by each of ``users`` in the channel."""
    h = world.h
    commands: list[tuple[str, dict[str, Any]]] = [
        ("table new", {"game": "filicau"}), ("standings", {}), ("status", {}),
        ("rules", {"game": "filicau"}), ("history", {}), ("history", {"hand": 1}),
        ("admin end", {}), ("admin reset", {"user": world.people["stranger"],
                                            "game": "filicau"}),
        ("admin pictures", {"mode": "on"}), ("admin theme", {"theme": "dark"})]
    for name, options in commands:
        for user in users:
            payload, sent = h.command_payload(user, name, channel_id, **options)
            del h.discord.interactions[sent.token]
            if user is world.people.get("foreigner"):
                payload = from_other_server(payload)
            world.bases.append(payload)
            world.owners[payload["token"]] = user
            world.commands.add(command_path(payload["data"]))
            world.resolved[payload["token"]] = payload["data"].get("resolved", {})
            if skeleton(payload) not in world.command_shapes:
                world.command_shapes.append(skeleton(payload))


def from_other_server(payload: dict[str, Any]) -> dict[str, Any]:
    """The same slash command sent from another server (same channel id)."""
    payload = copy.deepcopy(payload)
    payload["guild_id"] = payload["channel"]["guild_id"] = str(OTHER_GUILD_ID)
    payload["authorizing_integration_owners"] = {"0": str(OTHER_GUILD_ID)}
    return payload


def people(h: Harness) -> dict[str, User]:
    return {"stranger": h.user("sam"), "manager": h.user("max", manager=True),
            "foreigner": h.user("fay", manager=True)}


async def lobby_and_play(h: Harness) -> World:
    """A table in play (four people, every hand view open) in the main channel, and a lobby
    with its opener seated in the other channel."""
    session, players = await four_players(h, **QUIET)
    cast = people(h)
    cast["lea"] = lea = h.user("lea")
    r = await h.command(lea, "table new", channel_id=OTHER_CHANNEL_ID, game="filicau", **QUIET)
    assert r.type == CHANNEL_MESSAGE and not r.ephemeral
    lobby = r.message
    await h.press(lea, t("btn.join_a"), message=lobby)
    assert h.tables.session_in(OTHER_CHANNEL_ID).seats[0] == lea.member  # type: ignore[union-attr]
    world = World(h, cast, cast["stranger"])
    others = [cast["stranger"], cast["manager"], cast["foreigner"]]
    click_bases(world, h.table_message(), [players[0], *others])
    for player in players:
        click_bases(world, h.hand_view(player), [player, *others])
    click_bases(world, h.discord.messages[lobby.id], [lea, *others])
    command_bases(world, CHANNEL_ID, [players[0], *others])
    assert session.state == "playing" and not session.hand.finished  # type: ignore[union-attr]
    return world


def components_of(message: Message) -> list[dict[str, Any]]:
    return [copy.deepcopy(c) for c in [*message.buttons, *message.selects]]


async def every_kind(h: Harness) -> World:
    """One message of every kind the bot sends, with its components: a lobby (in the other
    channel), a table in play, a hand view, a finished hand's result, its review, the
    question whether to leave, a hint and a leaderboard (this channel)."""
    # A casual table: hints are offered there.
    session, ana = await one_human(h, seed=4, rated=False, **QUIET)
    await play_until(h, session, [ana], random.Random(4))
    await h.settle()
    result = h.result_post()
    review = (await h.press(ana, t("btn.review"), message=result)).message
    r = await h.press(ana, t("btn.next_hand"), message=result)
    assert session.hand_number == 2 and not r.ephemeral
    await h.settle()
    if session.waiting_for_human() != [0]:
        await play_until(h, session, [ana], random.Random(5),
                         lambda hand: session.waiting_for_human() == [0])
    view = (await h.press(ana, t("btn.my_hand"))).message
    hint_id = next(b["custom_id"] for b in view.buttons if b["custom_id"].startswith("fc:hint:"))
    hint = (await h.click(ana, hint_id, message=view)).message
    question = (await h.press(ana, t("btn.leave_hand"))).message
    board = (await h.command(ana, "leaderboard", game="filicau")).message
    cast = people(h)
    cast["lea"] = lea = h.user("lea")
    r = await h.command(lea, "table new", channel_id=OTHER_CHANNEL_ID, game="filicau", **QUIET)
    lobby = r.message
    await h.press(lea, t("btn.join_a"), message=lobby)
    world = World(h, cast, cast["stranger"])
    everyone = [ana, cast["stranger"], cast["manager"]]
    world.kinds = {
        "lobby": [(h.discord.messages[lobby.id], [lea, cast["stranger"], cast["manager"]])],
        "table": [(h.table_message(), everyone)], "hand view": [(view, [ana])],
        "result": [(h.discord.messages[result.id], everyone)], "review": [(review, [ana])],
        "leave question": [(question, [ana])], "hint": [(hint, [ana])],
        "leaderboard": [(board, everyone)]}
    for kind, shown in world.kinds.items():
        world.drawn[kind] = [c for message, _ in shown for c in components_of(message)]
    # One page of a leaderboard of several (this server has one rated player): its ◀ ▶, as
    # the bot draws them.
    pages = board_buttons("filicau", 1, 2, 3)
    assert pages is not None
    world.drawn["leaderboard"] += [item.to_component_dict() for item in pages.children]
    assert all(world.drawn[kind] for kind in world.kinds if kind != "hint")
    for shown in world.kinds.values():
        for message, users in shown:
            click_bases(world, message, users)
    assert session.state == "playing" and not session.hand.finished  # type: ignore[union-attr]
    return world


async def finished_hand(h: Harness) -> World:
    """A table whose first hand is over and waits for Next hand (one person, three
    computers)."""
    session, ana = await one_human(h, seed=4, **QUIET)
    view = h.hand_view(ana)
    await play_until(h, session, [ana], random.Random(4))
    assert session.hand is not None and session.hand.finished
    cast = people(h)
    world = World(h, cast, cast["stranger"])
    others = [cast["stranger"], cast["manager"], cast["foreigner"]]
    click_bases(world, h.table_message(), [ana, *others])
    click_bases(world, h.discord.messages[view.id], [ana, *others])
    command_bases(world, CHANNEL_ID, [ana, *others])
    return world


# -- one example --------------------------------------------------------------------------------


class _Everything(logging.Handler):
    """Every record logged while a payload is handled."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def all_logs() -> Iterator[_Everything]:
    root = logging.getLogger()
    handler, level = _Everything(), root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def memory(world: World) -> list[tuple[Any, ...]]:
    """The open tables as the bot holds them."""
    out = []
    for tid, runner in sorted(world.h.tables.open.items()):
        s = runner.session
        out.append((tid, s.state, list(s.seats), s.hand_number,
                    None if s.hand is None else len(s.hand.actions),
                    None if s.hand is None else s.hand.finished))
    return out


def fresh(world: World, payload: dict[str, Any], owner: User) -> Sent:
    """Give the payload its own id and token (the ones it has, if damaged) and tell the fake
    Discord whose it is, so that the bot's answer lands on it."""
    h = world.h
    iid = h.discord.new_id()
    if isinstance(payload.get("id"), str) and payload["id"].isdigit():
        payload["id"] = str(iid)
    token = payload.get("token")
    if isinstance(token, str) and token.startswith("itoken-"):
        payload["token"] = token = f"itoken-{iid}"
    message = payload.get("message")
    message_id = None
    if isinstance(message, dict):
        try:
            message_id = int(message.get("id"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            message_id = None
    sent = Sent(iid, str(token), owner, _channel(payload), message_id, harness=h)
    h.discord.interactions[str(token)] = sent
    return sent


def _channel(payload: dict[str, Any]) -> int:
    try:
        return int(payload["channel"]["id"])
    except (TypeError, KeyError, ValueError):
        return 0


async def feed(world: World, payload: dict[str, Any]) -> bool:
    """INTERACTION_CREATE through discord.py's parser, then await what it started; whether
    the parser could not read the payload (it was dropped)."""
    h = world.h
    assert h.bot is not None
    before = asyncio.all_tasks()
    # Through the bot's guarded parser, as the gateway delivers it (bot/gateway.py): a
    # payload it cannot read is dropped there with one warning.
    seen = _Drops()
    guard_log = logging.getLogger("bot.gateway")
    guard_log.addHandler(seen)
    try:
        h.bot._connection.parsers["INTERACTION_CREATE"](payload)
    finally:
        guard_log.removeHandler(seen)
    dropped = seen.dropped
    started = asyncio.all_tasks() - before
    if started:
        await asyncio.wait(started)
    await h.settle()
    return dropped


class _Drops(logging.Handler):
    """Counts the guard's "dropped a malformed ..." warnings."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.dropped = False

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("dropped a malformed"):
            self.dropped = True


def known_bug(payload: dict[str, Any], world: World) -> bool:
    """Payloads the fuzz found a bug with, left out until it is fixed. None now: a command
    that is not one of the bot's (no name, broken options, a removed name), a guild locale
    that is not a string and a guild id beyond 64 bits were each a traceback and no answer;
    the guard drops what cannot be read, and the rest is refused in the user's language
    (tests/test_hostile_input.py has them as regression tests)."""
    return False


def command_path(data: dict[str, Any]) -> tuple[Any, ...]:
    """The command and subcommand names of a slash command's data (``table``, ``new``)."""
    path = [data.get("name")]
    options = data.get("options") or []
    while isinstance(options, list) and options and isinstance(options[0], dict) \
            and options[0].get("type") in (1, 2):
        path.append(options[0].get("name"))
        options = options[0].get("options") or []
    return tuple(path)


def skeleton(payload: Any) -> Any:
    """The shape of a payload (the type of every part), its options and resolved users left
    out: two slash commands of the bot differ only there."""
    if isinstance(payload, dict):
        return {k: skeleton(v) for k, v in payload.items() if k not in ("options", "resolved")}
    if isinstance(payload, list):
        return [skeleton(v) for v in payload]
    return type(payload).__name__


def well_formed_command(payload: dict[str, Any], world: World) -> bool:
    """A command of the bot in an envelope shaped as Discord sends one (ids within 64 bits,
    options a list of named, typed options); option values may be anything."""
    def options_ok(options: Any) -> bool:
        return isinstance(options, list) and all(
            isinstance(o, dict) and isinstance(o.get("name"), str)
            and isinstance(o.get("type"), int) and options_ok(o.get("options", []))
            and (o["type"] in (1, 2) or "value" in o)
            for o in options)

    def ids_ok(data: dict[str, Any]) -> bool:
        try:
            return all(0 <= int(data[k]) < 2**63 for k in ("id", "guild_id") if k in data)
        except ValueError:
            return False

    data = payload.get("data")
    return (skeleton(payload) in world.command_shapes and isinstance(data, dict)
            and data.get("type") == 1 and options_ok(data.get("options", []))
            and command_path(data) in world.commands
            and data.get("resolved", {}) == world.resolved.get(payload["token"], {})
            and ids_ok(payload) and ids_ok(payload["channel"]))


def describe(record: logging.LogRecord) -> str:
    return f"{record.levelname} {record.name}: {record.getMessage()[:300]}" + (
        f" [{record.exc_info[1]!r}]" if record.exc_info else "")


async def check(world: World, payload: dict[str, Any], owner: User) -> bool:
    """Send one hostile payload and check the four promises; False if it was not sent (it
    could be a legal move)."""
    h = world.h
    if may_change(payload, h.tables):
        world.counts["legal, not sent"] += 1
        return False
    if known_bug(payload, world):
        world.counts["known bug, not sent"] += 1
        return False
    payload = copy.deepcopy(payload)
    sent = fresh(world, payload, owner)
    rows, held = store_rows(h.db_path), memory(world)
    with all_logs() as logs:
        dropped = await feed(world, payload)
    # The guard keeps the parser's traceback at DEBUG only, for a developer hunting a
    # discord.py change; at any level an operator reads, bad input leaves no traceback.
    traced = [describe(r) for r in logs.records
              if (r.exc_info and not (r.name == "bot.gateway" and r.levelno == logging.DEBUG))
              or r.levelno >= logging.ERROR]
    assert not traced, f"logged for bad input: {traced}"
    assert store_rows(h.db_path) == rows, "the store changed"
    assert memory(world) == held, "an open table changed"
    # No hidden card on any message the bot wrote, nothing private on a public message, no
    # message Discord would refuse (the harness checks every one as it is written).
    assert not h.leaks, h.leaks
    assert not h.discord.invalid, h.discord.invalid
    if dropped:
        world.counts["dropped"] += 1
        assert not sent.callbacks, "a dropped payload was answered"
    elif payload.get("type") in ANSWERED_TYPES:
        assert len(sent.callbacks) == 1, f"{len(sent.callbacks)} answers"
        world.counts["answered"] += 1
    else:
        assert len(sent.callbacks) <= 1
        world.counts["unanswered type"] += 1
    # The bot lives: a normal click is answered as always.
    r = await h.press(world.looker, t("btn.rules"))
    assert r.ephemeral and r.message.embeds
    return True


def run(world: World, strategy: st.SearchStrategy[tuple[dict[str, Any], User]]) -> None:
    """Hypothesis, in this (worker) thread, over payloads checked on the bot's loop."""
    loop = world.h.bot.loop  # type: ignore[union-attr]

    @FUZZ
    @given(strategy)
    def example(case: tuple[dict[str, Any], User]) -> None:
        payload, owner = case
        if not asyncio.run_coroutine_threadsafe(check(world, payload, owner), loop).result():
            reject()

    example()


async def fuzz(world: World, strategy: st.SearchStrategy[tuple[dict[str, Any], User]]
               ) -> dict[str, int]:
    counts = world.counts = {key: 0 for key in world.counts}
    await asyncio.to_thread(run, world, strategy)
    print(counts)
    # Not vacuous: most payloads were sent, and some reached the bot's own code.
    assert counts["answered"] + counts["dropped"] + counts["unanswered type"] >= EXAMPLES // 2
    assert counts["answered"] >= EXAMPLES // 10
    return counts


# -- the payload families -----------------------------------------------------------------------


def bases(world: World, *, clicks_only: bool = False) -> st.SearchStrategy[dict[str, Any]]:
    return st.sampled_from([b for b in world.bases if b["type"] == 3 or not clicks_only])


def owned(world: World, payload: dict[str, Any], base: dict[str, Any]
          ) -> tuple[dict[str, Any], User]:
    return payload, world.owners[base["token"]]


def damaged_clicks(world: World) -> st.SearchStrategy[tuple[dict[str, Any], User]]:
    """Real clicks with one part removed or replaced by junk."""
    return bases(world).flatmap(lambda base: damaged(base).map(
        lambda p: owned(world, p, base)))


def garbage_clicks(world: World) -> st.SearchStrategy[tuple[dict[str, Any], User]]:
    """Real clicks whose custom_id is an operation with garbage arguments (or no id of the
    bot's at all), menus with values they never offered."""
    def build(base: dict[str, Any], custom_id: str, values: list[Any] | None
              ) -> tuple[dict[str, Any], User]:
        payload = copy.deepcopy(base)
        payload["data"]["custom_id"] = custom_id
        if values is not None:
            payload["data"]["values"] = values
            payload["data"]["component_type"] = 3
        return owned(world, payload, base)

    return st.builds(build, bases(world, clicks_only=True), custom_ids(world.table_ids),
                     st.none() | menu_values())


def schema_clicks(world: World) -> st.SearchStrategy[tuple[dict[str, Any], User]]:
    """Envelopes of real clicks carrying what Discord's schema allows: a component of the
    spec on the message and in the interaction's data (its custom_id alone, or after a real
    operation and table), a member of the spec as the clicker, any interaction type."""
    prefixes = [f"fc:{op}:{tid}:" for tid in world.table_ids
                for op in ("join", "card", "act", "next", "cancel", "opt")]

    def build(base: dict[str, Any], component: dict[str, Any], prefix: str | None,
              member: dict[str, Any] | None, kind: int) -> tuple[dict[str, Any], User]:
        payload = copy.deepcopy(base)
        custom_id = component.get("custom_id")
        if prefix is not None and isinstance(custom_id, str):
            custom_id = component["custom_id"] = prefix + custom_id
        data: dict[str, Any] = {"component_type": component["type"]}
        if custom_id is not None:
            data["custom_id"] = custom_id
        if "options" in component:
            data["values"] = [o["value"] for o in component["options"]]
        payload["type"], payload["data"] = kind, data
        if isinstance(payload.get("message"), dict):
            payload["message"]["components"] = [{"type": 1, "id": 1, "components": [component]}]
        owner = world.owners[base["token"]]
        if member is not None:
            member.setdefault("permissions", "0")
            if "member" in payload:
                payload["member"] = member
            else:
                payload["user"] = member["user"]
        return payload, owner

    return st.builds(build, bases(world, clicks_only=True), schema_components(),
                     st.none() | st.sampled_from(prefixes), st.none() | schema_members(),
                     st.just(3) | schema_interaction_types())


def misplaced_clicks(world: World) -> st.SearchStrategy[tuple[dict[str, Any], User]]:
    """A component of one kind of message, sent from a message of every other kind (put
    on it in place of one of its components, or beside them), by somebody who sees that
    message: a forged interaction, as Discord does not check a custom_id against the
    message it names."""
    h = world.h
    pairs = [(source, component, target) for source, components in world.drawn.items()
             for component in components for target in world.kinds if target != source]

    def build(pair: tuple[str, dict[str, Any], str], which: int, replace: bool,
              values: int) -> tuple[dict[str, Any], User]:
        _, component, target = pair
        message, users = world.kinds[target][which % len(world.kinds[target])]
        user = users[which % len(users)]
        shown = copy.deepcopy(message.payload())
        rows = shown.setdefault("components", [])
        same = [c for c in walk_components(rows) if c.get("type") == component["type"]]
        if replace and same and component["type"] == 2:
            same[which % len(same)].clear()
            same[which % len(same)].update(copy.deepcopy(component))
        else:
            rows.append({"type": 1, "components": [copy.deepcopy(component)]})
        data: dict[str, Any] = {"custom_id": component["custom_id"],
                                "component_type": component["type"]}
        if component["type"] == 3:
            offered = [o["value"] for o in component["options"]]
            size = max(component.get("min_values", 1), 1)
            start = values % max(len(offered) - size + 1, 1)
            data["values"] = offered[start:start + size]
        payload, sent = h._interaction(user, 3, data, shown, message.channel_id)
        del h.discord.interactions[sent.token]
        return payload, user

    return st.builds(build, st.sampled_from(pairs), st.integers(0, 50), st.booleans(),
                     st.integers(0, 30))


FAMILIES: dict[str, Callable[[World], st.SearchStrategy[tuple[dict[str, Any], User]]]] = {
    "schema": schema_clicks, "damaged": damaged_clicks, "garbage": garbage_clicks}


# -- the tests ------------------------------------------------------------------------------------


@pytest.mark.slow
async def test_hostile_clicks_on_a_lobby_and_a_table_in_play(h: Harness) -> None:
    world = await lobby_and_play(h)
    for name, family in FAMILIES.items():
        print(name)
        await fuzz(world, family(world))


@pytest.mark.slow
async def test_clicks_of_every_kind_of_message_sent_from_every_other(h: Harness) -> None:
    """Every component the bot draws (lobby, table, hand view, result, review, leave
    question, leaderboard), sent from every other kind of message (a hint's too): nothing
    changes that a legitimate click would not change, no hidden card is shown, nothing
    private lands on a public message, and each gets one answer."""
    world = await every_kind(h)
    counts = await fuzz(world, misplaced_clicks(world))
    assert counts["answered"] >= EXAMPLES // 2
    for name, family in FAMILIES.items():
        print(name)
        await fuzz(world, family(world))


@pytest.mark.slow
async def test_hostile_clicks_on_a_finished_hand(h: Harness) -> None:
    world = await finished_hand(h)
    for name, family in FAMILIES.items():
        print(name)
        await fuzz(world, family(world))
