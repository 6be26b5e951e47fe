"""The bot's colours, shared by every message it draws."""

from __future__ import annotations

import discord

#: The embeds' colour: the felt of a card table.
GAME_COLOUR = discord.Colour.dark_green()
