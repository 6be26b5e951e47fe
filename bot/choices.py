"""The fixed choices slash commands offer (games, top trumps), named from the catalogs."""

from __future__ import annotations

from discord import app_commands

from bot.texts import EN
from bot.translator import ls
from bot.watch import WATCH_MODES, value_key
from engine.rules import GAMES

GAME_CHOICES = [app_commands.Choice(
    name=ls(f"game.{key}") if f"game.{key}" in EN else app_commands.locale_str(cls.title),
    value=key) for key, cls in GAMES.items()]
WATCH_CHOICES = [app_commands.Choice(name=ls(value_key(mode)), value=mode)
                 for mode in WATCH_MODES]
TOP_TRUMP_CHOICES = [app_commands.Choice(name=ls(f"value.{v}"), value=v)
                     for v in ("standard", "hearts_seven", "leaves_low")]
