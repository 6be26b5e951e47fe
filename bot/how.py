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
    faced,
    game_title,
    has_text,
    showing,
    suit_label,
    t,
)
from engine import Rules, make_rules
from engine.cards import RANK_CODES, rank_of, suit_letter
from engine.ranking import Ranking, card_ranking

RANKING_FILE = "ranking.png"

Rows = list[tuple[str, tuple[int, ...]]]


def ranking_of(game: str) -> Ranking:
    """The ranking of ``game`` with its default options."""
    return card_ranking(make_rules(game))


def _ranks(cards: tuple[int, ...]) -> str:
    return " ".join(t(faced("rank." + RANK_CODES[rank_of(c)])) for c in cards)


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
        rows.append((t("how.pic_then", suit=t(faced("suit." + suit_letter(r.trump_suit)))),
                     r.trumps[r.permanent:]))
    rows.extend((_title(t(faced("suit." + suit_letter(s)))), cards) for s, cards in r.plain)
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


def how_embed(game: str, *, picture: bool = False, faces: str = cardart.AS_PLAYED
              ) -> discord.Embed:
    """How to play ``game``, in the current language, its cards named as the server's
    ``faces`` show them (default: those the game is played with); ``picture``: the embed
    shows the attachment ``RANKING_FILE`` (send ``ranking_picture``'s file with it)."""
    rules = make_rules(game)
    with showing(cardart.faces_for(rules, faces)):
        return _how_embed(game, rules, picture)


def _how_embed(game: str, rules: Rules, picture: bool) -> discord.Embed:
    embed = discord.Embed(title=t("how.title", game=game_title(game, rules.title)),
                          description=_with_goal(game, t(f"how.{game}")), colour=GAME_COLOUR)
    embed.add_field(name=t("how.ranking_title"), value=ranking_text(card_ranking(rules)),
                    inline=False)
    if picture:
        embed.set_image(url=f"attachment://{RANKING_FILE}")
    return embed


def _with_goal(game: str, how: str) -> str:
    """How to play, after the game's aim in one sentence (the table message does not repeat
    it: it is said in the lobby and here)."""
    goal = f"goal.{game}"
    return f"*{t(goal)}*\n\n{how}" if has_text(goal) else how


async def ranking_picture(game: str, theme: str, lang: str | None = None,
                          faces: str = cardart.AS_PLAYED) -> discord.File:
    """The picture of ``game``'s card ranking, drawn in a worker thread; titles and corners
    in ``lang`` (default: the current language), the cards with the server's ``faces``
    (default: those the game is played with)."""
    lang = lang or current_language()
    shown = cardart.faces_for(make_rules(game), faces)
    with showing(shown):
        rows = ranking_rows(ranking_of(game))
    data = await asyncio.to_thread(cardart.ranking_png, rows, theme=theme, lang=lang,
                                   faces=shown)
    return discord.File(io.BytesIO(data), filename=RANKING_FILE,
                        description=t("how.ranking_title"))
