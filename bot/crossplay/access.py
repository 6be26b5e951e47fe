"""Who may play across servers, from where: a server's opt-in and the operator's bar.

A server is out until a manager turns play across servers on (``/admin crossplay``), and may
keep it to some games and some channels; the operator (``OPERATOR_IDS``, or the
application's owner) may bar a person from it everywhere. ``refusal`` says why a player may
not, in a key of the catalogs, so that every way in (``/play``, a *Join* of ``/tables``)
refuses alike.

>>> from bot.store import CrossplaySettings
>>> refusal(CrossplaySettings(guild_id=1), "filicau", 5, barred=False)
'crossplay.off'
>>> on = CrossplaySettings(guild_id=1, enabled=True, games=("filko",), channels=(5,))
>>> [refusal(on, g, c, barred=False) for g, c in (("filko", 5), ("filicau", 5), ("filko", 6))]
[None, 'crossplay.game_off', 'crossplay.channel_off']
>>> refusal(on, "filko", 5, barred=True)
'crossplay.barred'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection

from bot.store import CrossplaySettings
from bot.voice.markdown import NAME_LIMIT, cap

#: What shows nothing where a name stands: controls, formats (the direction marks and
#: isolates, zero-width spaces and joiners), spaces and marks with no letter to sit on, and
#: code points with no character (yet) or of private use.
INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Me"})


def refusal(settings: CrossplaySettings, game: str, channel_id: int | None, *,
            barred: bool) -> str | None:
    """Why a player of this server may not play ``game`` across servers from
    ``channel_id`` (a key of the catalogs), or None: they may."""
    if not settings.enabled:
        return "crossplay.off"
    if barred:
        return "crossplay.barred"
    if settings.games and game not in settings.games:
        return "crossplay.game_off"
    if settings.channels and channel_id not in settings.channels:
        return "crossplay.channel_off"
    return None


def changed(settings: CrossplaySettings, *, on: bool, game: str | None,
            channel_id: int | None) -> CrossplaySettings:
    """A manager's ``/admin crossplay``: ``on`` with a game or a channel adds it to the
    games or channels play across servers is kept to (none named: no limit, every game from
    every channel); off is off, its limits forgotten.

    >>> s = changed(CrossplaySettings(guild_id=1), on=True, game="filko", channel_id=None)
    >>> s.enabled, s.games, s.channels
    (True, ('filko',), ())
    >>> s = changed(s, on=True, game=None, channel_id=7)
    >>> s.games, s.channels
    (('filko',), (7,))
    >>> changed(s, on=True, game=None, channel_id=None).games
    ()
    >>> changed(s, on=False, game=None, channel_id=None) == CrossplaySettings(guild_id=1)
    True
    """
    if not on:
        return CrossplaySettings(guild_id=settings.guild_id)
    if game is None and channel_id is None:
        return CrossplaySettings(guild_id=settings.guild_id, enabled=True)
    games = settings.games if game is None or game in settings.games \
        else (*settings.games, game)
    channels = settings.channels if channel_id is None or channel_id in settings.channels \
        else (*settings.channels, channel_id)
    return CrossplaySettings(guild_id=settings.guild_id, enabled=True, games=games,
                             channels=channels)


def is_operator(user_id: int, operators: Collection[int], owner_id: int | None) -> bool:
    """The bot's operator: one of ``OPERATOR_IDS``, or else the application's owner.

    >>> is_operator(5, (5, 6), owner_id=9), is_operator(9, (5,), 9), is_operator(9, (), 9)
    (True, False, True)
    """
    return user_id in operators if operators else user_id == owner_id


def table_name(text: str) -> str | None:
    """The table name a player chose (``/crossplay name``), as kept: on one line, without
    spaces around it, capped at ``NAME_LIMIT`` (shown between isolates where it could turn
    the text around it, as every name: ``bot.voice.markdown.isolated``); None when nothing
    of it would show (empty, or only invisible characters): refused.

    >>> table_name("  Tisch   fee\\n"), table_name("\\u200b\\u2066 \\u202e"), table_name("")
    ('Tisch fee', None, None)
    >>> len(table_name("x" * 50) or "")
    32
    """
    name = " ".join(text.split())
    if not any(unicodedata.category(ch) not in INVISIBLE for ch in name):
        return None
    return cap(name, NAME_LIMIT)
