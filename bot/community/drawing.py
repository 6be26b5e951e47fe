"""What finding a game shows: the list of open tables with a *Join* each, and the sentences
around it. Every line is short enough for a phone's width (``tests/test_community.py``
checks them in every language)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot import render
from bot.colours import GAME_COLOUR
from bot.community.quickplay import Opening
from bot.protocol import Op
from bot.texts import game_title, t
from bot.views import stopped
from engine.rules import GAMES

#: Buttons in a row of the list (Discord allows five).
PER_ROW = 5


def take_view(table_ids: Sequence[int], label: str | None = None) -> discord.ui.View:
    """A *Join* button per table (``fc:take:TABLE``), numbered when there are several."""
    items = []
    for i, table_id in enumerate(table_ids, start=1):
        text = label if label is not None else t("btn.take", number=i)
        items.append(render.button(Op.TAKE, table_id, label=text,
                                   style=discord.ButtonStyle.blurple, row=(i - 1) // PER_ROW))
    return stopped(*items)


def opening_line(number: int, opening: Opening) -> str:
    """One table of the list, on two short lines."""
    s = opening.table.session
    state = t("tables.lobby") if s.state == "lobby" else t("tables.between")
    return t("tables.line", number=number, game=render.title(s),
             channel=f"<#{s.channel_id}>", taken=opening.taken, seats=opening.seats,
             state=state, free=t("tables.free", count=opening.free))


def tables_embed(openings: Sequence[Opening], game: str | None, *,
                 more: Sequence[str] = ()) -> discord.Embed:
    """``/tables``: the tables the asker may sit at now, the fullest first; ``more``: the
    lines of further tables after them (those across servers)."""
    title = t("tables.title") if game is None else t(
        "tables.title_game", game=game_title(game, GAMES[game].title))
    embed = discord.Embed(title=title, colour=GAME_COLOUR)
    if not openings and not more:
        embed.description = t("tables.none")
        return embed
    embed.description = "\n".join([
        *(opening_line(i, o) for i, o in enumerate(openings, start=1)), *more])
    embed.set_footer(text=t("tables.footer"))
    return embed
