"""Slash commands in the players' languages: names, descriptions, options and choices.

Every command string in the cogs is ``ls(KEY)``: a ``locale_str`` whose text is the English
catalog's and whose ``key`` extra names the catalog entry. When the tree syncs, discord.py asks
``CatalogTranslator`` for each Discord locale; the Romanian, Hungarian and German catalogs
answer (``ro``, ``hu``, ``de``), every other locale falls back to the English default.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.texts import CATALOGS, DEFAULT, EN, language_of


def ls(key: str) -> app_commands.locale_str:
    """A command string from the catalog: English as the default, translated on sync."""
    return app_commands.locale_str(EN[key], key=key)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = language_of(locale)
        if key is None or lang == DEFAULT:
            return None
        return CATALOGS[lang].get(key)

