"""A game's table options as the lobby offers them: every option with the values it may take.

Options are the engine's pydantic models (``Rules.options_model``); the lobby lists each
option that has a small set of values (a ``Literal``, a bool, or an int field that names its
``choices`` in ``json_schema_extra``) so that the opener can change it before the start.
"""

from __future__ import annotations

import json
import typing
from typing import Any

from bot.texts import option_error
from engine.errors import OptionsError
from engine.rules import GAMES

#: Discord shows at most 25 entries in a select menu.
MAX_CHOICES = 25
#: The lobby's rows left for option menus (seats, buttons and the computer menu take the
#: first three of Discord's five).
MAX_MENUS = 2


def choices(game: str) -> list[tuple[str, Any]]:
    """``(option, value)`` pairs the lobby offers for ``game``, in the model's order. An
    option declared with no choices (``"choices": []``, an option a game accepts without
    effect) is not offered."""
    model = GAMES[game].options_model
    out: list[tuple[str, Any]] = []
    for name, field in model.model_fields.items():
        values: list[Any] = []
        extra = field.json_schema_extra
        listed = extra.get("choices") if isinstance(extra, dict) else None
        if isinstance(listed, list):
            values = list(listed)
        elif field.annotation is bool:
            values = [True, False]
        elif typing.get_origin(field.annotation) is typing.Literal:
            values = list(typing.get_args(field.annotation))
        out.extend((name, v) for v in values)
    return out


def offers(game: str, name: str) -> bool:
    """Whether the lobby offers option ``name`` for ``game`` (``/table new`` passes only
    such options, and the lobby lists only them)."""
    return any(n == name for n, _ in choices(game))


def menus(game: str) -> list[list[tuple[str, Any]]]:
    """The lobby's option menus for ``game``: its choices in menus of at most 25 entries
    (Discord's limit), an option's values never split between two menus, in at most
    ``MAX_MENUS`` menus.

    >>> [len(m) for m in menus("schafkopf")]
    [25, 2]
    >>> [len(m) for m in menus("filicau")]
    [2]
    """
    out: list[list[tuple[str, Any]]] = []
    by_option: dict[str, list[tuple[str, Any]]] = {}
    for name, value in choices(game):
        by_option.setdefault(name, []).append((name, value))
    for entries in by_option.values():
        if not out or len(out[-1]) + len(entries) > MAX_CHOICES:
            out.append([])
        out[-1].extend(entries[:MAX_CHOICES])
    return out[:MAX_MENUS]


def encode(name: str, value: Any) -> str:
    """A select entry's value: ``name=json`` (read back by ``bot.protocol.OptionEntry``)."""
    return f"{name}={json.dumps(value)}"



#: pydantic's error types, as the reasons ``bot.texts.option_error`` words.
_CHOICE = {"literal_error", "enum"}
_RANGE = {"greater_than_equal", "less_than_equal", "greater_than", "less_than"}
_UNKNOWN = {"extra_forbidden"}


def _bounds(field: Any) -> dict[str, Any]:
    low = high = None
    for m in field.metadata:
        low = getattr(m, "ge", getattr(m, "gt", low))
        high = getattr(m, "le", getattr(m, "lt", high))
    return {} if low is None or high is None else {"low": low, "high": high}


def describe(error: OptionsError) -> str:
    """Every option an ``OptionsError`` refuses, worded in the current language (the
    ``problem`` of ``err.bad_options``)."""
    model = GAMES[error.game].options_model if error.game in GAMES else None
    out = []
    for p in error.problems:
        field = model.model_fields.get(p.option) if model is not None else None
        if p.reason in _UNKNOWN or (field is None and p.option != "options"):
            out.append(option_error(p.option, p.value, "unknown"))
        elif field is not None and p.reason in _CHOICE:
            out.append(option_error(p.option, p.value, "choice",
                                    {"choices": typing.get_args(field.annotation)}))
        elif field is not None and p.reason in _RANGE:
            out.append(option_error(p.option, p.value, "range", _bounds(field)))
        else:
            out.append(option_error(p.option, p.value, "invalid"))
    return "; ".join(out)
