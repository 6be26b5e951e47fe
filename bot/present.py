"""What a table's Discord messages show: text, components and the picture together.

Everything here is drawn in the language in force (``bot.texts.speaking``) from views only:
the table from a ``PublicView``, a hand from its holder's ``SeatView`` (``bot.render`` words
them; ``bot.pictures`` draws them when the server has pictures on).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import discord

from bot import cardart, names, pictures, render
from bot.session import TableSession
from bot.store import GuildSettings
from bot.texts import showing, t
from engine import PublicView, SeatView, public_view, replay


@dataclass(frozen=True, slots=True)
class Shown:
    """What a message shows, to tell whether an edit would change anything: a digest of
    its text, embed and components (every open table keeps one; the rendered dicts
    themselves are about 4 kB), and its picture's digest.

    >>> Shown.of("text", {"title": "a"}, [], None) == Shown.of("text", {"title": "a"}, [], None)
    True
    >>> Shown.of("text", {"title": "a"}, [], None) == Shown.of("text", {"title": "b"}, [], None)
    False
    """

    digest: bytes
    picture: str | None

    @classmethod
    def of(cls, content: str | None, embed: Any, components: Any,
           picture: str | None) -> Shown:
        # repr of str/int/bool/None dicts and lists is exact; 16 bytes of BLAKE2b make a
        # collision (an edit wrongly skipped) out of the question.
        text = repr((content, embed, components)).encode()
        return cls(hashlib.blake2b(text, digest_size=16).digest(), picture)


@dataclass
class TableMessage:
    content: str
    embed: discord.Embed
    view: discord.ui.View
    #: The picture's digest and file, when the server has pictures on.
    picture: tuple[str, discord.File] | None

    @property
    def shown(self) -> Shown:
        return Shown.of(self.content, self.embed.to_dict(), self.view.to_components(),
                        self.picture[0] if self.picture else None)


@dataclass
class HandMessage:
    content: str
    view: discord.ui.View
    files: list[discord.File]


async def hand_message(s: TableSession, view: SeatView, deadline: float | None,
                       config: GuildSettings) -> HandMessage:
    """A player's hand view: text, buttons, and the picture of the hand, its cards named as
    the picture shows them (``faces_shown``)."""
    with showing(faces_shown(s, config)):
        return await _hand_message(s, view, deadline, config)


def faces_shown(s: TableSession, config: GuildSettings) -> str:
    """The faces the table's cards show, in pictures and words: the server's choice
    (``GuildSettings.faces``) or the game's own."""
    return cardart.faces_for(s.rules, config.faces)


async def _hand_message(s: TableSession, view: SeatView, deadline: float | None,
                        config: GuildSettings) -> HandMessage:
    files = []
    if config.pictures:
        data = await pictures.hand_picture(view, config.theme, faces=config.faces)
        if data is not None:
            files.append(pictures.as_file(data, pictures.HAND_FILE, t("pic.hand")))
    return HandMessage(render.hand_content(s, view, deadline), render.hand_view(s, view), files)


async def table_message(s: TableSession, view: PublicView, deadline: float | None,
                        config: GuildSettings, watch_url: str | None = None,
                        activity: bool = False) -> TableMessage:
    """The table in play (or between hands); ``watch_url``: its live web page;
    ``activity``: the bot is a Discord Activity too (*Open the table*). The cards are named
    as the picture shows them (``faces_shown``)."""
    with showing(faces_shown(s, config)):
        return TableMessage(render.table_content(s, view),
                            render.table_embed(s, view, deadline),
                            render.table_view(s, view, watch_url, activity),
                            await table_picture(s, view, config))


async def table_picture(s: TableSession, view: PublicView, config: GuildSettings
                        ) -> tuple[str, discord.File] | None:
    if not config.pictures:
        return None
    labels = [names.plain_name(s, seat) for seat in range(view.players)]
    data = await pictures.table_picture(view, labels, config.theme, faces=config.faces)
    if data is None:
        return None
    return pictures.digest(data), pictures.as_file(data, pictures.TABLE_FILE, t("pic.table"))


async def review_picture(s: TableSession, record: dict[str, Any], step: int,
                         config: GuildSettings) -> list[discord.File]:
    """The picture of a review's trick (``step``, as ``render.review_page`` shows it)."""
    if not config.pictures:
        return []
    hand = replay(record)
    if not hand.tricks:
        return []
    trick = hand.tricks[min(max(step, 0), len(hand.tricks) - 1)]
    labels = [names.plain_name(s, seat) for seat in range(hand.n)]
    data = await pictures.trick_picture(trick, hand.n, public_view(hand).trump, labels,
                                        config.theme, rules=hand.rules, faces=config.faces)
    if data is None:
        return []
    return [pictures.as_file(data, pictures.TRICK_FILE, t("pic.trick"))]
