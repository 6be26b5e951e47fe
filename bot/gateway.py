"""A malformed gateway event is logged and dropped; it never stops the bot.

discord.py hands every gateway dispatch (``op`` 0) to one parser per event type, held in
``ConnectionState.parsers`` (``"INTERACTION_CREATE"`` -> ``parse_interaction_create``, ...),
which ``DiscordWebSocket.received_message`` calls inside the connection's read loop. A parser
trusts its payload: an INTERACTION_CREATE without ``token``, with ``d: null``, with a member
without ``user`` or with ``guild_id: "abc"`` raises ``KeyError``/``TypeError``/``ValueError``
there, the exception leaves ``Client.connect`` (which only retries network errors) and
``python -m bot`` exits.

:func:`guard_parsers` wraps each parser so that an exception is logged as one WARNING line
naming the event type and the event is dropped; the next event is parsed as usual. Only the
parsing is guarded: the bot's own handlers (commands, buttons, listeners) already run in tasks
of their own, whose errors go to the command tree's error handler and ``on_error`` with a
traceback, as bugs should. The traceback of a dropped event is logged at DEBUG only.

An application command is the one event discord.py reads further *after* its parser, in the
command tree's own task (``CommandTree._call``: ``data["name"]``, the options, their values),
where an error is no longer the parser's and ends as "Task exception was never retrieved" with
a traceback. :func:`command_problem` checks that structure before the parser, so such an
event is dropped the same way (unanswered, as one without a token must be). Whether a
well-formed option's value makes sense (a game that exists, a number in range) is the
commands' business, not the gateway's.

Not guarded (Discord sends these once per connection, and discord.py reads them before the
parsers): a READY or RESUMED whose ``d`` lacks ``session_id``/``resume_gateway_url``, a frame
that is not a JSON object, an event name that is not a string. Those still end the process,
and the service manager starts it again (``deploy/``, docs/setup.md, "Running it for real").

>>> class State:
...     def __init__(self) -> None:
...         self.parsers = {"TYPING_START": lambda data: data["channel_id"]}
>>> state = State()
>>> guard_parsers(state)
>>> state.parsers["TYPING_START"]({"channel_id": "1"})
>>> state.parsers["TYPING_START"](None)  # logged: "dropped a malformed TYPING_START ..."
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

#: Longest exception text quoted in the log line (an error may quote a whole hostile value).
MAX_REASON = 200


class HasParsers(Protocol):
    """``discord.state.ConnectionState`` as far as the guard needs it."""

    parsers: dict[str, Callable[[Any], None]]


def guard_parsers(state: HasParsers) -> None:
    """Wrap every parser of ``state`` (in place: the gateway keeps a reference to the same
    dict). Guarding twice is harmless."""
    for event, parser in list(state.parsers.items()):
        if not getattr(parser, "_filicau_guarded", False):
            state.parsers[event] = _guarded(event, parser)


def _guarded(event: str, parser: Callable[[Any], None]) -> Callable[[Any], None]:
    check = command_problem if event == "INTERACTION_CREATE" else None

    @functools.wraps(parser)
    def parse(data: Any) -> None:
        try:
            problem = check(data) if check is not None else None
            if problem is not None:
                log.warning("dropped a malformed %s gateway event: %s", event, problem)
                return
            parser(data)
        except Exception as e:
            log.warning("dropped a malformed %s gateway event: %s", event, _reason(e))
            log.debug("the parser's traceback for that %s event", event, exc_info=True)

    parse._filicau_guarded = True  # type: ignore[attr-defined]
    return parse


#: Interaction types whose ``data`` the command tree reads: application command, autocomplete.
COMMAND_TYPES = (2, 4)
#: Option types: sub-command and group (they hold options), number, and the ones whose value
#: is a snowflake (user, channel, role, mentionable, attachment).
NESTING, NUMBER, SNOWFLAKES = (1, 2), 10, (6, 7, 8, 9, 11)
#: The command types (chat input, user, message) and option types (1 to 11) Discord has;
#: discord.py raises for any other.
COMMAND_KINDS = frozenset({1, 2, 3})
OPTION_KINDS = frozenset(range(1, 12))


def command_problem(d: Any) -> str | None:
    """What in an application command's ``d`` the command tree would trip over, or None (also
    for any other event: its parser judges it).

    >>> command_problem({"type": 2, "data": {"name": "table", "options": [
    ...     {"type": 1, "name": "new", "options": [{"type": 3, "name": "game", "value": "x"}]}]}})
    >>> command_problem({"type": 2})
    'data is not an object'
    >>> command_problem({"type": 2, "data": {"name": "table", "options": [{"type": 4}]}})
    'data.options[0] is not an option'
    >>> command_problem({"type": 4, "data": {"name": "t", "options": [
    ...     {"type": 10, "name": "n", "value": "abc"}]}})
    'data.options[0].value is not a number'
    """
    if not isinstance(d, dict) or d.get("type") not in COMMAND_TYPES:
        return None
    data = d.get("data")
    if not isinstance(data, dict):
        return "data is not an object"
    if not isinstance(data.get("name"), str):
        return "data.name is not a string"
    if "type" in data and not (_is_int(data["type"]) and data["type"] in COMMAND_KINDS):
        return "data.type is not a command type"
    resolved = data.get("resolved", {})
    if not isinstance(resolved, dict) or not all(isinstance(v, dict) for v in resolved.values()):
        return "data.resolved is not an object of objects"
    return _options_problem(data.get("options", []), "data.options")


def _options_problem(options: Any, where: str) -> str | None:
    if not isinstance(options, list):
        return f"{where} is not a list"
    for i, option in enumerate(options):
        at = f"{where}[{i}]"
        if not (isinstance(option, dict) and isinstance(option.get("name"), str)
                and _is_int(option.get("type")) and option["type"] in OPTION_KINDS):
            return f"{at} is not an option"
        kind = option["type"]
        if kind in NESTING:
            problem = _options_problem(option.get("options", []), f"{at}.options")
            if problem is not None:
                return problem
            continue
        if "value" not in option:
            return f"{at} has no value"
        value = option["value"]
        if kind == NUMBER and not option.get("focused") and value not in (None, "") \
                and not _is_number(value):
            return f"{at}.value is not a number"
        if kind in SNOWFLAKES and not (_is_int(value) or (isinstance(value, str)
                                                          and value.isdecimal())):
            return f"{at}.value is not a snowflake"
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    try:
        float(value)
    except (TypeError, ValueError, OverflowError):
        return False
    return True


def _reason(error: Exception) -> str:
    text = f"{type(error).__name__}: {error}"
    # One line, whatever the payload put in the message.
    text = " ".join(text.split())
    return text if len(text) <= MAX_REASON else text[:MAX_REASON] + "…"
