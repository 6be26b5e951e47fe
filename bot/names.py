"""How the bot names the people and computers at a table in Discord: the voice's persons
(``bot.voice.table``) drawn as Discord draws them — a mention in a message, a plain name
capped in length where Discord cannot mention (a button, a picture).

>>> mention("42"), mention("cpu:easy@a#1", 2)
('<@42>', '🤖 Computer 3 (Easy)')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.store import Member
from bot.voice.markdown import label, markdown
from bot.voice.table import Table, person

if TYPE_CHECKING:
    from bot.session import TableSession


def mention(member: Member | None, seat: int | None = None) -> str:
    """A member as the table names them: a person's mention; a computer by its seat (several
    computers at one table are told apart) and level."""
    return markdown(person(member, seat, {}))


def seat_mention(s: TableSession, seat: int) -> str:
    return markdown(Table.of(s).person(seat))


def player_mention(s: TableSession, seat: int) -> str:
    """Who played ``seat`` in the hand on the table: tricks and results keep naming them
    after a change of seats between hands."""
    return markdown(Table.of(s).player(seat))


def plain_name(s: TableSession, seat: int) -> str:
    """Button labels and pictures cannot render mentions: the name cached at join time
    (capped), the computer's seat, or the seat's number."""
    return label(Table.of(s).person(seat))
