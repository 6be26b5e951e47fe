"""Answers drawn for one asker alone: how to play (more than one command gives it), and the
answers to a table's clicks that only read it or only speak (the last trick, the rules, a
hint, a review, the question before leaving, a sentence). The answers that change what the
table's messages show are its Discord surface's (``bot.discord_surface``)."""

from __future__ import annotations

from typing import Any

import discord

from bot import present, render
from bot.how import how_embed, ranking_picture
from bot.service import Advice, Review, Words
from bot.session import TableSession
from bot.store import GuildSettings
from bot.texts import t


async def send_how(config: GuildSettings, interaction: discord.Interaction[Any], game: str,
                   *before: discord.Embed) -> None:
    """How to play ``game`` (after the ``before`` embeds), only to the asker, in their
    language; the ranking's picture where the server's settings (``config``) have pictures
    on (in a DM: text only)."""
    picture = config.pictures and interaction.guild_id is not None
    embeds = [*before, how_embed(game, picture=picture, faces=config.faces)]
    if picture:
        file = await ranking_picture(game, config.theme, faces=config.faces)
        await interaction.response.send_message(embeds=embeds, file=file, ephemeral=True)
    else:
        await interaction.response.send_message(embeds=embeds, ephemeral=True)


async def say(interaction: discord.Interaction[Any], words: Words) -> None:
    """Answer on the message clicked (one only its asker sees) with a sentence alone."""
    await interaction.response.edit_message(content=t(words.key, **words.params), view=None)


async def ask_to_leave(interaction: discord.Interaction[Any], s: TableSession,
                       question: Words) -> None:
    """"Leave the table?", with its yes and no, only to the asker."""
    await interaction.response.send_message(t(question.key, **question.params),
                                            view=render.leave_question(s), ephemeral=True)


async def last_trick(interaction: discord.Interaction[Any], s: TableSession) -> None:
    hand = s.hand
    if hand is None or not hand.tricks:
        text = t("table.no_last_trick")
    else:
        text = render.last_trick_text(s, hand.tricks[-1])
    await interaction.response.send_message(text, ephemeral=True)


async def table_rules(interaction: discord.Interaction[Any], s: TableSession) -> None:
    """The rules of the table's game with its options."""
    await interaction.response.send_message(embed=render.rules_embed(
        s.game, s.rules.title, s.rules.rulings, s.rules.options.model_dump()), ephemeral=True)


async def hint(interaction: discord.Interaction[Any], s: TableSession, advice: Advice) -> None:
    """A hint, in place of the "thinking…" its click was answered with."""
    await interaction.edit_original_response(
        content=render.hint_text(s, advice.view, advice.hint))


async def review(interaction: discord.Interaction[Any], s: TableSession, review: Review,
                 number: int, step: int, config: GuildSettings) -> None:
    """A review's page (``step``: its trick), in place of the answer its click deferred."""
    record = review.row.record()
    content, components = render.review_page(s, record, number, review.seat,
                                              review.decisions, step)
    files = await present.review_picture(s, record, step, config)
    await interaction.edit_original_response(content=content, view=components,
                                             attachments=files)
