"""A malformed gateway event never stops the bot (issue 14, item 1).

Through the stand-in, the real ``python -m bot`` process receives each broken dispatch of the
issue (an INTERACTION_CREATE without ``token``, ``id`` or ``data``, with ``d: null``, a member
without ``user``, ``guild_id: "abc"``), broken commands and broken events of other types;
then one person opens a table, two join it and all get the bot's answers, the process is
still running, each dropped event is one WARNING line naming its type, and the log has no
error and no traceback. Without ``bot.gateway.guard_parsers`` the process exits at the first
of them (discord.py's parser raises out of ``Client.connect``).
"""

from __future__ import annotations

import asyncio
import copy
import doctest
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from standin import BotProcess, Player, StandIn
from standin.game import Table

from bot import gateway
from bot.client import FilicauBot
from bot.gateway import MAX_REASON, command_problem, guard_parsers
from bot.settings import Settings

T = TypeVar("T")

#: Makes a broken ``d`` from a well-formed one (a deep copy, free to change).
Change = Callable[[dict[str, Any]], Any]


def without(key: str) -> Change:
    def change(d: dict[str, Any]) -> dict[str, Any]:
        del d[key]
        return d
    return change


def member_without_user(d: dict[str, Any]) -> dict[str, Any]:
    del d["member"]["user"]
    return d


def guild_id_abc(d: dict[str, Any]) -> dict[str, Any]:
    d["guild_id"] = "abc"
    return d


def with_data(data: Any) -> Change:
    def change(d: dict[str, Any]) -> dict[str, Any]:
        d["data"] = data
        return d
    return change


def table_new(*options: Any) -> dict[str, Any]:
    """``data`` of /table new with these options."""
    return {"name": "table", "type": 1,
            "options": [{"type": 1, "name": "new", "options": list(options)}]}


#: (what, event type, based on a well-formed "click" or "command", the change).
MALFORMED: list[tuple[str, str, str, Change]] = [
    # The cases.
    ("interaction without token", "INTERACTION_CREATE", "click", without("token")),
    ("interaction without id", "INTERACTION_CREATE", "click", without("id")),
    ("click without data", "INTERACTION_CREATE", "click", without("data")),
    ("interaction d: null", "INTERACTION_CREATE", "click", lambda d: None),
    ("member without user", "INTERACTION_CREATE", "click", member_without_user),
    ('guild_id: "abc"', "INTERACTION_CREATE", "click", guild_id_abc),
    # Commands: discord.py reads their data after the parser, in the command tree's task.
    ("command without data", "INTERACTION_CREATE", "command", without("data")),
    ("command without token", "INTERACTION_CREATE", "command", without("token")),
    ("command data: a string", "INTERACTION_CREATE", "command", with_data("junk")),
    ("command without name", "INTERACTION_CREATE", "command", with_data({"type": 1})),
    ("options: an object", "INTERACTION_CREATE", "command",
     with_data({"name": "table", "type": 1, "options": {"new": 1}})),
    ("an option without value", "INTERACTION_CREATE", "command",
     with_data(table_new({"type": 3, "name": "game"}))),
    ("an option without name", "INTERACTION_CREATE", "command",
     with_data(table_new({"type": 3, "value": "filicau"}))),
    ("a number option: abc", "INTERACTION_CREATE", "command",
     with_data(table_new({"type": 10, "name": "turn_seconds", "value": "abc"}))),
    ("a user option: abc", "INTERACTION_CREATE", "command",
     with_data(table_new({"type": 6, "name": "who", "value": "abc"}))),
    ("interaction d: a string", "INTERACTION_CREATE", "click", lambda d: "junk"),
    # Other event types.
    ("guild with id abc", "GUILD_CREATE", "click", lambda d: {"id": "abc", "unavailable": False}),
    ("guild d: null", "GUILD_CREATE", "click", lambda d: None),
    ("guild update without id", "GUILD_UPDATE", "click", lambda d: {"name": "x"}),
    ("guild delete without id", "GUILD_DELETE", "click", lambda d: {}),
    ("message without channel", "MESSAGE_CREATE", "click", lambda d: {"id": "1"}),
    ("member update without user", "GUILD_MEMBER_UPDATE", "click",
     lambda d: {"guild_id": d["guild_id"]}),
    ("typing d: null", "TYPING_START", "click", lambda d: None),
]


def expected_drops() -> dict[str, int]:
    counts: dict[str, int] = {}
    for _, event, _, _ in MALFORMED:
        counts[event] = counts.get(event, 0) + 1
    return counts


# -- the real process through the stand-in ----------------------------------------------------


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[StandIn, BotProcess]]:
    standin = StandIn(channels=1)
    await standin.start()
    bot = BotProcess(standin, tmp_path / "bot.sqlite3", tmp_path / "bot.log")
    try:
        await bot.start()
        yield standin, bot
    finally:
        await bot.stop()
        await standin.stop()


async def while_alive(standin: StandIn, bot: BotProcess, action: Awaitable[T]) -> T:
    """Run a user's action (which waits for the bot's answers); fail at once, with the bot's
    log, if the process dies meanwhile."""
    proc = bot.proc
    assert proc is not None
    task = asyncio.ensure_future(action)

    def done() -> bool:
        if proc.returncode is not None:
            task.cancel()
            raise AssertionError(f"the bot exited with {proc.returncode}:\n{bot.log()[-3000:]}")
        return task.done()

    await standin.wait_for(done, 30, "the user's action")
    return task.result()


async def test_the_bot_drops_malformed_gateway_events_and_serves_the_next(
        served: tuple[StandIn, BotProcess]) -> None:
    standin, bot = served
    ana, bo = Player(standin, "ana"), Player(standin, "bo")
    well_formed = {
        "click": standin._interaction(ana.user, 3, {"custom_id": "fc:none", "component_type": 2},
                                      None, ana.channel_id)[0],
        "command": standin._interaction(ana.user, 2, {
            "id": standin.commands["table"]["id"],
            **table_new({"type": 3, "name": "game", "value": "filicau"})}, None,
            ana.channel_id)[0],
    }
    for _, event, base, change in MALFORMED:
        await standin.send_raw(event, change(copy.deepcopy(well_formed[base])))

    # The gateway is one ordered stream: the bot answers this command after it has read every
    # event above. /table new, then two buttons of the lobby.
    table = Table(standin, [ana, bo], seed=1)
    await while_alive(standin, bot, table.open(ana, [(ana, 0), (bo, 1)]))
    lobby = table.table_message()
    assert lobby is not None and ana.mention in lobby.text and bo.mention in lobby.text

    assert bot.proc is not None and bot.proc.returncode is None
    # Stopped first, so that whatever the events set off has been logged.
    assert await bot.stop() == 0
    log = bot.log()
    drops = [line for line in log.splitlines() if "dropped a malformed" in line]
    assert all(" WARNING " in line for line in drops), drops
    for event, count in expected_drops().items():
        assert sum(f" {event} " in line for line in drops) == count, (event, drops)
    assert len(drops) == len(MALFORMED), drops
    # No error and no traceback while it ran (bot.errors() reads up to the stop).
    assert bot.errors() == [], log[-3000:]
    assert "Traceback" not in log
    assert not standin.problems, standin.problems


# -- the guard itself --------------------------------------------------------------------------


class State:
    def __init__(self) -> None:
        self.seen: list[Any] = []
        self.parsers: dict[str, Callable[[Any], None]] = {"INTERACTION_CREATE": self.parse}

    def parse(self, data: Any) -> None:
        self.seen.append(data["id"])


def test_a_raising_parser_is_one_warning_and_the_next_event_is_parsed(
        caplog: pytest.LogCaptureFixture) -> None:
    state = State()
    guard_parsers(state)
    with caplog.at_level(logging.DEBUG, logger="bot.gateway"):
        state.parsers["INTERACTION_CREATE"](None)
        state.parsers["INTERACTION_CREATE"]({"token": "t"})
        state.parsers["INTERACTION_CREATE"]({"id": "2"})
    assert state.seen == ["2"]
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in warnings] == [
        "dropped a malformed INTERACTION_CREATE gateway event: "
        "TypeError: 'NoneType' object is not subscriptable",
        "dropped a malformed INTERACTION_CREATE gateway event: KeyError: 'id'",
    ]
    assert all(r.exc_info is None for r in warnings)
    # The traceback is there for whoever runs at DEBUG.
    assert sum(r.exc_info is not None for r in caplog.records
               if r.levelno == logging.DEBUG) == 2


def test_a_hostile_value_in_the_error_stays_one_short_line(
        caplog: pytest.LogCaptureFixture) -> None:
    state = State()
    guard_parsers(state)
    guard_parsers(state)  # twice: still one warning per event
    with caplog.at_level(logging.WARNING, logger="bot.gateway"):
        state.parsers["INTERACTION_CREATE"]({"x\n" * 10_000: 1})
    [record] = caplog.records
    line = record.getMessage()
    assert "\n" not in line
    prefix = "dropped a malformed INTERACTION_CREATE gateway event: "
    assert line.startswith(prefix) and len(line) <= len(prefix) + MAX_REASON + 1


def test_the_bot_guards_every_parser_of_discord_py() -> None:
    bot = FilicauBot(Settings(discord_token="a.b.c", database_path=Path("unused.sqlite3")))
    parsers = bot._connection.parsers
    assert "INTERACTION_CREATE" in parsers and "GUILD_CREATE" in parsers
    assert all(getattr(p, "_filicau_guarded", False) for p in parsers.values())


def test_the_examples_in_bot_gateway() -> None:
    # bot/ is outside the doctest paths; its examples are checked here.
    result = doctest.testmod(gateway)
    assert result.attempted > 5 and result.failed == 0


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12)
#: Options shaped as Discord sends them, with any values (huge numbers included).
OPTION = st.recursive(
    st.fixed_dictionaries({"type": st.sampled_from([3, 4, 5, 6, 10, 11]), "name": st.text()},
                          optional={"value": JSON | st.integers(min_value=10**309),
                                    "focused": st.booleans()}),
    lambda inner: st.fixed_dictionaries({"type": st.sampled_from([1, 2]), "name": st.text(),
                                         "options": st.lists(inner, max_size=3)}),
    max_leaves=8)
COMMAND = st.fixed_dictionaries({
    "type": st.sampled_from([2, 4]),
    "data": st.fixed_dictionaries({"name": st.text()},
                                  optional={"options": st.lists(OPTION, max_size=3)})})
#: ... and with any part replaced by anything.
BROKEN = st.one_of(
    JSON, COMMAND,
    COMMAND.flatmap(lambda d: st.builds(lambda junk: {**d, "data": junk}, JSON)),
    OPTION.flatmap(lambda o: st.builds(
        lambda key, junk: {"type": 2, "data": {"name": "t", "options": [{**o, key: junk}]}},
        st.sampled_from(["type", "name", "value", "options"]), JSON)))


@given(BROKEN)
@example({"type": 2, "data": {"name": "t", "options": [
    {"type": 10, "name": "n", "value": 10**400}]}})  # too large for a float
def test_the_command_check_judges_anything_without_failing(d: Any) -> None:
    problem = command_problem(d)
    assert problem is None or isinstance(problem, str)
    if not isinstance(d, dict) or d.get("type") not in (2, 4):
        assert problem is None  # other interactions and events are their parsers' business
