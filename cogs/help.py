"""``/help``: what the bot does, how to start a table, what the buttons do, the commands, and
the link that invites the bot to another server."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import send_how
from bot.choices import GAME_CHOICES
from bot.client import invite_url
from bot.colours import GAME_COLOUR
from bot.texts import game_title, has_text, t
from bot.translator import ls
from engine import GAMES

if TYPE_CHECKING:
    from bot.client import FilicauBot


#: A field's limit (Discord's).
FIELD = 1024

Listed = app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu


def _said(text: app_commands.locale_str | None, default: str) -> str:
    """A command's name or description in the reader's language (its catalog key)."""
    key = text.extras.get("key") if text is not None else None
    return t(key) if isinstance(key, str) and has_text(key) else default


def command_lines(commands: Sequence[Listed]) -> list[str]:
    """One line per slash command the bot registers, in the reader's language: its name,
    a group's subcommands, what it does. Made from the command tree, so that the list
    cannot leave out a command (issue 44: /play, /tables, /settings... were missing).

    >>> from discord import app_commands
    >>> group = app_commands.Group(name="table", description="Tables")
    >>> @group.command(name="new", description="Open a table")
    ... async def new(interaction: Any) -> None: ...
    >>> command_lines([group])
    ['**/table** new — Tables']
    """
    lines = []
    for c in sorted((c for c in commands if not isinstance(c, app_commands.ContextMenu)),
                    key=lambda c: c.name):
        name = _said(getattr(c, "_locale_name", None), c.name)
        what = _said(getattr(c, "_locale_description", None), c.description)
        subs = " · ".join(_said(getattr(x, "_locale_name", None), x.name)
                          for x in c.commands) if isinstance(c, app_commands.Group) else ""
        lines.append(f"**/{name}** {subs} — {what}" if subs else f"**/{name}** — {what}")
    return lines


def _fields(lines: list[str]) -> list[str]:
    """Lines packed into as few fields as hold them."""
    out: list[str] = []
    for line in lines:
        if out and len(out[-1]) + 1 + len(line) <= FIELD:
            out[-1] += "\n" + line
        else:
            out.append(line[:FIELD])
    return out


def help_embed(application_id: int | None, commands: Sequence[Listed] = ()) -> discord.Embed:
    """The help, in the current language; ``commands``: the bot's registered commands."""
    # Every game the bot plays, by its name in the reader's language (from the engine's
    # list, so that a new game is never left out).
    games = ", ".join(game_title(game, cls.title) for game, cls in GAMES.items())
    embed = discord.Embed(title=t("help.title"), description=t("help.intro", games=games),
                          colour=GAME_COLOUR)
    for part in ("start", "buttons"):
        embed.add_field(name=t(f"help.{part}_title"), value=t(f"help.{part}"), inline=False)
    for i, value in enumerate(_fields(command_lines(commands))):
        embed.add_field(name=t("help.commands_title") if i == 0 else "\u200b", value=value,
                        inline=False)
    embed.add_field(name=t("how.help_title"), value=t("how.help"), inline=False)
    if application_id is not None:
        embed.add_field(name=t("help.invite_title"),
                        value=t("help.invite", url=invite_url(application_id)), inline=False)
    return embed


class Help(commands.Cog, name="Help"):
    def __init__(self, bot: FilicauBot) -> None:
        self.bot = bot

    @app_commands.command(name=ls("cmdname.help"), description=ls("cmd.help"))
    @app_commands.describe(game=ls("cmd.game"))
    @app_commands.rename(game=ls("optname.game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def help_cmd(self, interaction: discord.Interaction[Any],
                       game: app_commands.Choice[str] | None = None) -> None:
        """Only to the asker, in their language; works in a DM too. With a game: how to play
        it (with the picture of its card ranking where the server has pictures on)."""
        if game is None:
            await interaction.response.send_message(
                embed=help_embed(self.bot.application_id, self.bot.tree.get_commands()),
                ephemeral=True)
            return
        await send_how(self.bot.config(interaction.guild_id), interaction, game.value)


async def setup(bot: FilicauBot) -> None:
    await bot.add_cog(Help(bot))
