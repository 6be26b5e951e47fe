"""Card pictures in the bot's messages: a player's hand (ephemeral, like the hand) and the
table (the trick, trump, the shown cards), drawn by ``bot.cardart`` in a worker thread.

Only views are drawn: a hand picture from that player's ``SeatView``, the table picture from
the ``PublicView``, so a picture cannot show a card its audience may not see. Pictures are
plain attachments of the message (not embed images), so an edit that leaves the picture alone
keeps it without uploading it again.

The cards have the faces the server chose (``GuildSettings.faces``): by default
(``cardart.AS_PLAYED``) those the game is played with (``Rules.faces``: French for
Doppelkopf, German for the others), else German or French for every game.
"""

from __future__ import annotations

import asyncio
import hashlib
import io

import discord

from bot import cardart
from bot.texts import current_language
from engine import PublicView, Rules, SeatView, Trick

HAND_FILE = "hand.png"
TABLE_FILE = "table.png"
TRICK_FILE = "trick.png"


def playable(v: SeatView) -> frozenset[int] | None:
    """The cards the player may play now (the others are drawn faded), or None when it is
    not their turn to play a card (every card drawn plainly)."""
    cards = frozenset(a.value for a in v.legal if a.kind == "card")
    return cards or None


async def hand_picture(v: SeatView, theme: str, lang: str | None = None,
                       faces: str = cardart.AS_PLAYED) -> bytes | None:
    """The player's hand, or None when they hold no card. The corners name the ranks in
    ``lang`` (default: the current language, ``bot.texts.speaking``); ``faces`` is the
    server's choice (default: the game's own)."""
    if not v.hand:
        return None
    lang = lang or current_language()
    return await asyncio.to_thread(cardart.hand_png, tuple(v.hand), theme=theme,
                                   playable=playable(v), labels=False, lang=lang,
                                   faces=cardart.faces_for(v.rules, faces))


def table_trick(v: PublicView) -> tuple[tuple[int, int], ...]:
    """(seat, card) of the trick on the table: the one being played, else the last one
    (until the next card is led), so that a trick stays in view once complete."""
    if v.trick:
        leader, cards = v.leader, v.trick
    elif v.last_trick is not None:
        leader, cards = v.last_trick.leader, v.last_trick.cards
    else:
        return ()
    return tuple(((leader + i) % v.players, c) for i, c in enumerate(cards))


def trick_winner(v: PublicView) -> int | None:
    """The seat whose card takes the trick on the table so far (the trick of ``table_trick``),
    or None when no card is on the table."""
    if v.trick and v.order is not None:
        return (v.leader + v.order.winner(v.trick)) % v.players
    if not v.trick and v.last_trick is not None:
        return v.last_trick.winner
    return None


async def table_picture(v: PublicView, names: list[str], theme: str,
                        lang: str | None = None, faces: str = cardart.AS_PLAYED
                        ) -> bytes | None:
    """The table as everybody sees it, or None for a table the picture cannot seat. Labels
    and corners are in ``lang`` (default: the current language, ``bot.texts.speaking``);
    ``faces`` is the server's choice (default: the game's own)."""
    if not 2 <= v.players <= 6:
        return None
    lang = lang or current_language()
    to_move = v.to_move if v.to_move is not None and not v.finished else None
    return await asyncio.to_thread(cardart.table_png, seats=names, trick=table_trick(v),
                                   trump=v.trump, shown=tuple(v.shown), theme=theme,
                                   to_move=to_move, winner=trick_winner(v), lang=lang,
                                   faces=cardart.faces_for(v.rules, faces))


async def trick_picture(trick: Trick, players: int, trump: int | None, names: list[str],
                        theme: str, lang: str | None = None, *, rules: Rules,
                        faces: str = cardart.AS_PLAYED) -> bytes | None:
    """One trick of a finished hand of ``rules``'s game (a review's page), drawn as the table
    showed it: the cards at their seats, the winner marked; ``faces`` is the server's choice
    (default: the game's own)."""
    if not 2 <= players <= 6:
        return None
    lang = lang or current_language()
    cards = tuple(((trick.leader + i) % players, c) for i, c in enumerate(trick.cards))
    return await asyncio.to_thread(cardart.table_png, seats=names, trick=cards, trump=trump,
                                   shown=(), theme=theme, to_move=None, winner=trick.winner,
                                   lang=lang, faces=cardart.faces_for(rules, faces))


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def as_file(data: bytes, filename: str, description: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=filename, description=description)
