"""The table setting ``watch``: who may watch a table on the web, and how late.

- ``off``: nobody; the table's page says so and carries nothing of the table;
- ``public``: spectators see the table as the channel sees it, move by move;
- ``delayed`` (the default): the same, one trick behind — the trick in progress is shown once
  it is taken — so that a spectator cannot relay anything in time to matter.

The lobby's menu and ``/table new`` offer it (``bot.session.check_settings`` checks it with
``check_watch``). A table across servers is watched on each server's pages as that server
allows (``watch_at``): a server may keep such tables off its pages (``/admin crossplay
watch:off``), whatever the table says, without closing them for the other servers.

>>> check_watch("public")
'public'
>>> watch_of({})
'delayed'
>>> watch_of({"watch": "nonsense"})
'delayed'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

WatchMode = Literal["off", "public", "delayed"]

#: The key of the setting in a table's settings.
WATCH: Final = "watch"
WATCH_OFF: Final = "off"
WATCH_PUBLIC: Final = "public"
WATCH_DELAYED: Final = "delayed"
WATCH_MODES: Final[tuple[WatchMode, ...]] = (WATCH_OFF, WATCH_PUBLIC, WATCH_DELAYED)
DEFAULT_WATCH: Final[WatchMode] = WATCH_DELAYED
#: The catalog's name of the setting and of each value (``optname.watch``, ``watch.MODE``).
NAME_KEY: Final = "optname.watch"


def value_key(mode: WatchMode) -> str:
    return f"watch.{mode}"


class WatchError(ValueError):
    """Not a watch mode. ``key``: the catalog's refusal (as ``SessionError`` takes it)."""

    key = "err.bad_command_input"


def check_watch(value: Any) -> WatchMode:
    """``value`` if it is a watch mode, else ``WatchError``."""
    for mode in WATCH_MODES:
        if value == mode:
            return mode
    raise WatchError(repr(value))


def watch_of(settings: Mapping[str, Any]) -> WatchMode:
    """A table's watch mode (the default for tables opened before the setting)."""
    try:
        return check_watch(settings.get(WATCH, DEFAULT_WATCH))
    except WatchError:
        return DEFAULT_WATCH


def watch_at(settings: Mapping[str, Any], *, home: int, server: int,
             watched_across: bool) -> WatchMode:
    """A table's watch mode on one ``server``'s pages: its own, but ``off`` for a table
    across servers — one whose ``home`` is another server, or one opened across servers —
    on the pages of a server that keeps them unwatched (not ``watched_across``).

    >>> watch_at({"watch": "public"}, home=1, server=2, watched_across=False)
    'off'
    >>> watch_at({"watch": "public", "crossplay": True}, home=2, server=2, watched_across=False)
    'off'
    >>> watch_at({"watch": "public"}, home=2, server=2, watched_across=False)
    'public'
    >>> watch_at({}, home=1, server=2, watched_across=True)
    'delayed'
    """
    across = home != server or bool(settings.get("crossplay"))
    return WATCH_OFF if across and not watched_across else watch_of(settings)
