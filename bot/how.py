"""How to play a game: a short text in the reader's language and the game's card ranking,
as text and (when the server has pictures on) as a picture.

The ranking comes from the engine (``engine.ranking.card_ranking``): this module names no
game, it words what the rules declare. ``/help game:`` and ``/rules game:`` show it.
"""

from __future__ import annotations

import asyncio
import io

import discord

from bot import cardart
from bot.colours import GAME_COLOUR
from bot.texts import (
    card_words,
    current_language,
    game_title,
    suit_label,
    t,
)
from engine import make_rules
from engine.cards import RANK_CODES, rank_of, suit_letter
from engine.ranking import Ranking, card_ranking

RANKING_FILE = "ranking.png"

Rows = list[tuple[str, tuple[int, ...]]]


def ranking_of(game: str) -> Ranking:
    """The ranking of ``game`` with its default options."""
    return card_ranking(make_rules(game))


def _ranks(cards: tuple[int, ...]) -> str:
    return " ".join(t("rank." + RANK_CODES[rank_of(c)]) for c in cards)


def _cards(cards: tuple[int, ...]) -> str:
    # Named in words ("Over of acorns"): a reader new to the game learns the cards' names,
    # and a list of every card is not taken for somebody's hand.
    return card_words(cards)


def _title(word: str) -> str:
    return word[:1].upper() + word[1:]


def ranking_rows(r: Ranking) -> Rows:
    """What the picture draws, row by row, highest card first: the permanent trumps, the
    trump suit when the game fixes one, then each other suit."""
    top = r.trumps[:r.permanent]
    rows: Rows = []
    if r.trump_suit is None:
        rows.append((t("how.pic_top"), top))
    else:
        rows.append((t("how.pic_trumps"), top))
        rows.append((t("how.pic_then", suit=t("suit." + suit_letter(r.trump_suit))),
                     r.trumps[r.permanent:]))
    rows.extend((_title(t("suit." + suit_letter(s))), cards) for s, cards in r.plain)
    return rows


def ranking_text(r: Ranking) -> str:
    """The ranking in words, for every reader (pictures on or off)."""
    top = r.trumps[:r.permanent]
    suits = "\n".join(f"{suit_label(s)}: {_ranks(cards)}" for s, cards in r.plain)
    if r.trump_suit is None:
        lines = [t("how.top", cards=_cards(top)), t("how.chosen"), suits]
    else:
        lines = [t("how.trumps", cards=_cards(top)),
                 t("how.then", suit=suit_label(r.trump_suit),
                   cards=_ranks(r.trumps[r.permanent:])),
                 t("how.plain"), suits]
    lines.append(t("how.tricks"))
    return "\n".join(lines)


def how_embed(game: str, *, picture: bool = False) -> discord.Embed:
    """How to play ``game``, in the current language; ``picture``: the embed shows the
    attachment ``RANKING_FILE`` (send ``ranking_picture``'s file with it)."""
    rules = make_rules(game)
    embed = discord.Embed(title=t("how.title", game=game_title(game, rules.title)),
                          description=t(f"how.{game}"), colour=GAME_COLOUR)
    embed.add_field(name=t("how.ranking_title"), value=ranking_text(card_ranking(rules)),
                    inline=False)
    if picture:
        embed.set_image(url=f"attachment://{RANKING_FILE}")
    return embed


async def ranking_picture(game: str, theme: str, lang: str | None = None,
                          faces: str = cardart.AS_PLAYED) -> discord.File:
    """The picture of ``game``'s card ranking, drawn in a worker thread; titles and corners
    in ``lang`` (default: the current language), the cards with the server's ``faces``
    (default: those the game is played with)."""
    lang = lang or current_language()
    rows = ranking_rows(ranking_of(game))
    data = await asyncio.to_thread(cardart.ranking_png, rows, theme=theme, lang=lang,
                                   faces=cardart.faces_for(make_rules(game), faces))
    return discord.File(io.BytesIO(data), filename=RANKING_FILE,
                        description=t("how.ranking_title"))
