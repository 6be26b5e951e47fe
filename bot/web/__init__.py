"""The bot's web pages (issue 35): a table live, a hand replayed, a server's leaderboard and a
player's profile, behind signed links (``docs/web.md``).

What the bot uses:

- ``WebServer(settings, store, names=...)`` with ``start()`` / ``stop()`` (``bot.web.server``);
- ``server.feed.changed(table_id, deadline)`` after every stored change of a table
  (``bot.web.live``) — or ``WebSurface`` (``bot.web.surface``) added to the table's courier;
- ``server.hand_link(guild_id, hand_id)`` and the other links, ``replay_button(url)`` for a
  result post (``bot.render``), ``history_line`` for ``/history``;
- the table setting ``watch`` (``bot.watch``), and ``server.rotate`` / ``server.switch``
  for ``/admin web``.
"""

from bot.watch import (
    DEFAULT_WATCH,
    WATCH,
    WATCH_DELAYED,
    WATCH_MODES,
    WATCH_OFF,
    WATCH_PUBLIC,
    WatchError,
    WatchMode,
    check_watch,
    watch_of,
)

__all__ = [
    "DEFAULT_WATCH",
    "WATCH",
    "WATCH_DELAYED",
    "WATCH_MODES",
    "WATCH_OFF",
    "WATCH_PUBLIC",
    "WatchError",
    "WatchMode",
    "check_watch",
    "watch_of",
]
