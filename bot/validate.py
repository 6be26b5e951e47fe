"""What an interaction carries, checked before anything is done with it.

Discord's clients keep a slash command's options within what the command declares (an
integer's range, a string's choices, a user picked from the server) and send only the
custom_ids a message carries; discord.py checks neither, and a forged interaction may carry
anything. So every slash command's raw options are walked against its declared parameters
here (``check_options``, from ``Tree.interaction_check``, before discord.py reads them), and
every click against the message it came from (``came_from``); a custom_id's own arguments
are declared and read in ``bot.protocol``. A refusal is worded in the user's language and
nothing is queried.

>>> bad_integer(7, 1, 10), bad_integer(True, 1, 10), bad_integer(2**70, 1, 10)
(False, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands

from bot.protocol import Click, Place
from bot.texts import t

#: Discord's bounds for a number option without a declared range.
NUMBER_LIMIT = 2**53
#: Discord's longest string option.
STRING_LIMIT = 6000
#: Option types whose value is an id Discord resolves (user, channel, role, mentionable,
#: attachment), and where in ``resolved`` it is found.
RESOLVED = {
    AppCommandOptionType.user: ("users",),
    AppCommandOptionType.channel: ("channels",),
    AppCommandOptionType.role: ("roles",),
    AppCommandOptionType.mentionable: ("users", "roles"),
    AppCommandOptionType.attachment: ("attachments",),
}
_SUBCOMMANDS = (AppCommandOptionType.subcommand.value,
                AppCommandOptionType.subcommand_group.value)


class BadOption(app_commands.CheckFailure):
    """A slash command's option that its declaration does not allow: refused in the user's
    language (``key`` and ``params``, a sentence of the catalogs)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    @property
    def text(self) -> str:
        return t(self.key, **self.params)


# -- slash commands ----------------------------------------------------------------------------


def leaf_options(data: Any) -> list[Any] | None:
    """The options of the (sub)command an application command's data names, or None when
    they are not a list of options at every level."""
    options = data.get("options", []) if isinstance(data, dict) else None
    while isinstance(options, list):
        nested = [o for o in options
                  if isinstance(o, dict) and o.get("type") in _SUBCOMMANDS]
        if not nested:
            return options
        if len(options) != 1:
            return None
        options = nested[0].get("options", [])
    return None


def bad_integer(value: Any, low: float, high: float) -> bool:
    """Whether ``value`` is not a JSON integer from ``low`` to ``high`` (a bool is not)."""
    return type(value) is not int or not low <= value <= high


def check_options(interaction: discord.Interaction[Any]) -> None:
    """Raise ``BadOption`` if the command's options are not what it declares: every option
    one of its parameters, once, of its type, within its range, among its choices (users
    resolved by Discord), and every required one there."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return  # not one of the bot's: discord.py answers CommandNotFound
    options = leaf_options(interaction.data)
    if options is None or not all(isinstance(o, dict) for o in options):
        raise BadOption("err.bad_command_input")
    params = {p.display_name: p for p in command.parameters}
    names = [o.get("name") for o in options]
    if not all(isinstance(n, str) and n in params for n in names) \
            or len(set(names)) != len(names):
        raise BadOption("err.bad_command_input")
    if any(p.required and p.display_name not in names for p in params.values()):
        raise BadOption("err.bad_command_input")
    resolved = interaction.data.get("resolved") if isinstance(interaction.data, dict) else None
    for option in options:
        check_option(params[option["name"]], option,
                     resolved if isinstance(resolved, dict) else {})


def check_option(param: app_commands.Parameter, option: Mapping[str, Any],
                 resolved: Mapping[str, Any]) -> None:
    kind, value = param.type, option.get("value")
    if option.get("type") != kind.value or type(option.get("type")) is not int:
        raise BadOption("err.bad_command_input")
    if kind is AppCommandOptionType.integer:
        low = param.min_value if param.min_value is not None else -NUMBER_LIMIT
        high = param.max_value if param.max_value is not None else NUMBER_LIMIT
        if bad_integer(value, low, high):
            raise BadOption("err.bad_setting", option=option_name(param), low=low, high=high)
    elif kind is AppCommandOptionType.number:
        low = param.min_value if param.min_value is not None else -NUMBER_LIMIT
        high = param.max_value if param.max_value is not None else NUMBER_LIMIT
        if not (isinstance(value, int | float) and not isinstance(value, bool)
                and math.isfinite(value) and low <= value <= high):
            raise BadOption("err.bad_command_input")
    elif kind is AppCommandOptionType.string:
        # A string's declared range is its length (discord.py sends it as min/max_length).
        shortest = int(param.min_value or 0)
        longest = int(param.max_value or STRING_LIMIT)
        if not isinstance(value, str) or not shortest <= len(value) <= longest:
            raise BadOption("err.bad_command_input")
    elif kind is AppCommandOptionType.boolean:
        if type(value) is not bool:
            raise BadOption("err.bad_command_input")
    elif kind in RESOLVED:
        # An id Discord resolved for the bot: a user picked in the client is always in
        # ``resolved``; one that is not was never picked (and has no name to show).
        if not (isinstance(value, str) and value.isascii() and value.isdigit()
                and 0 < int(value) < 2**63
                and any(isinstance(resolved.get(where), dict)
                        and isinstance(resolved[where].get(value), dict)
                        for where in RESOLVED[kind])):
            raise BadOption("err.bad_command_input")
    else:
        raise BadOption("err.bad_command_input")
    if param.choices and value not in [c.value for c in param.choices]:
        raise BadOption("err.bad_command_input")


def option_name(param: app_commands.Parameter) -> str:
    """An option's name in the language spoken now (its catalog entry, when it has one)."""
    key = param.locale_name.extras.get("key") if param.locale_name is not None else None
    return t(key) if isinstance(key, str) else param.display_name


# -- clicks ------------------------------------------------------------------------------------


def place_of(message: discord.Message, table_message_id: int | None) -> Place:
    """The kind of message a click came from. The table message is public whatever the
    interaction says of it."""
    if message.id == table_message_id:
        return Place.TABLE
    # Read as Discord writes flags (an integer); anything else is no message of the bot's.
    flags = message.flags.value
    ephemeral = isinstance(flags, int) and bool(flags & discord.MessageFlags.ephemeral.flag)
    return Place.PRIVATE if ephemeral else Place.POST


def custom_ids(components: Sequence[Any]) -> Iterator[str]:
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            yield custom_id
        yield from custom_ids(getattr(component, "children", ()))


def came_from(interaction: discord.Interaction[Any], click: Click,
              table_message_id: int | None) -> bool:
    """Whether the click carries an id of the message it came from, and that message is of
    the kind its operation is drawn on. Discord checks the first for its own clients; a
    forged interaction is checked here, before anything is answered by editing that message
    (which must never turn a public message into somebody's hand)."""
    message = interaction.message
    if message is None:
        return False
    data: Any = interaction.data if isinstance(interaction.data, dict) else {}
    # discord.py leaves `components` unset (a slot, no default) on a message payload that
    # lacks the key, which a forged interaction may well do.
    drawn = getattr(message, "components", ())
    if str(data.get("custom_id", "")) not in set(custom_ids(drawn)):
        return False
    return place_of(message, table_message_id) in click.places
