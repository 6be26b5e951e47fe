"""Answers more than one command gives."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.how import how_embed, ranking_picture

if TYPE_CHECKING:
    from bot.client import FilicauBot


async def send_how(bot: FilicauBot, interaction: discord.Interaction[Any], game: str,
                   *before: discord.Embed) -> None:
    """How to play ``game`` (after the ``before`` embeds), only to the asker, in their
    language; the ranking's picture where the server has pictures on (in a DM: text only)."""
    config = bot.config(interaction.guild_id)
    picture = config.pictures and interaction.guild_id is not None
    embeds = [*before, how_embed(game, picture=picture)]
    if picture:
        file = await ranking_picture(game, config.theme, faces=config.faces)
        await interaction.response.send_message(embeds=embeds, file=file, ephemeral=True)
    else:
        await interaction.response.send_message(embeds=embeds, ephemeral=True)
