"""Slash command errors, answered in one place.

A user's mistake, or a request Discord's own checks should have stopped (a guild-only command
from a DM, an option value that is not one of the choices, a missing option), gets a clear
answer in the user's language and one line in the log. A traceback is logged only for what
is the bot's own bug.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.texts import language_of, set_language, t
from bot.validate import BadOption

log = logging.getLogger(__name__)


#: Discord's ids (snowflakes) are positive 64-bit integers; the store keeps them as such.
SNOWFLAKE_LIMIT = 1 << 63


class MalformedInteraction(app_commands.CheckFailure):
    """An interaction Discord would not send (an id out of range): refused as bad input."""


def snowflake(value: object) -> bool:
    return isinstance(value, int) and 0 < value < SNOWFLAKE_LIMIT


def well_formed(interaction: discord.Interaction[Any]) -> bool:
    """Whether the ids an interaction names are ids Discord could send."""
    # A user may be missing altogether (a member without its server): discord.py leaves a
    # sentinel without an id.
    return (snowflake(getattr(getattr(interaction, "user", None), "id", None))
            and all(v is None or snowflake(v)
                    for v in (interaction.guild_id, interaction.channel_id)))


def guild_only(command: Any) -> bool:
    """Whether a command (or the group it belongs to) is for servers only."""
    while command is not None:
        if getattr(command, "guild_only", False):
            return True
        command = getattr(command, "parent", None)
    return False


def refusal(error: app_commands.AppCommandError) -> str | None:
    """The text key for an error that is the user's (or their client's), None for a bug."""
    if isinstance(error, app_commands.NoPrivateMessage):
        return "err.guild_only"
    if isinstance(error, MalformedInteraction):
        return "err.bad_command_input"
    if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        return "err.need_manage_server"
    if isinstance(error, app_commands.TransformerError | app_commands.CommandSignatureMismatch
                  | app_commands.CommandNotFound):
        # A value not among the choices, a missing option, a command the bot no longer has
        # (a client that still shows an old list).
        return "err.bad_command_input"
    return None


def too_late(error: BaseException) -> bool:
    """Discord no longer takes an answer to the interaction (not answered within 3 s: the
    bot was too busy). Nothing can be sent; it is worth a warning, not a traceback."""
    cause = getattr(error, "original", error)
    return isinstance(cause, discord.NotFound) and cause.code == 10062


def answered_too_late(what: str) -> None:
    """The one line an answer Discord no longer takes is worth, whatever the answer was."""
    log.warning("%s answered too late (Discord's 3 s passed)", what)


def what_of(interaction: discord.Interaction[Any]) -> str:
    """An interaction as the log names it: its command, or its component's custom_id."""
    command = getattr(interaction, "command", None)
    if command is not None:
        return f"command {command.qualified_name}"
    data: Any = interaction.data if isinstance(interaction.data, dict) else {}
    return f"click {str(data.get('custom_id', ''))[:100]!r}"


async def answer(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer (a refusal), whether or not the interaction was answered already.
    Too late for Discord, it is one warning: nothing can be sent any more."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.NotFound as e:
        if not too_late(e):
            raise
        answered_too_late(what_of(interaction))


async def on_app_command_error(interaction: discord.Interaction[Any],
                               error: app_commands.AppCommandError) -> None:
    set_language(language_of(interaction.locale))
    name = interaction.command and interaction.command.qualified_name
    if too_late(error):
        answered_too_late(f"command {name}")
        return
    if isinstance(error, BadOption):
        log.info("command %s refused: %s", name, error.key)
        await answer(interaction, error.text)
        return
    key = refusal(error)
    if key is None:
        log.error("command %s failed", name, exc_info=error)
        key = "err.internal"
    else:
        log.info("command %s refused: %s", name, type(error).__name__)
    await answer(interaction, t(key))
