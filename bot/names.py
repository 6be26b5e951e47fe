"""How the bot names the people and computers at a table: mentions in messages, plain names
where Discord cannot render a mention (button labels, pictures)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.seats import computer_level, is_computer
from bot.store import Member
from bot.texts import t
from bot.thinking import COMPUTER_LEVELS

if TYPE_CHECKING:
    from bot.session import TableSession


def mention(member: Member | None, seat: int | None = None) -> str:
    """A member as the table names them: a person's mention; a computer by its seat (several
    computers at one table are told apart) and level."""
    if member is None:
        return t("lobby.empty")
    if is_computer(member):
        level = computer_level(member)
        name = t("lobby.computer") if seat is None else t("lobby.computer_seat",
                                                           seat=seat + 1)
        if level in COMPUTER_LEVELS:
            return t("lobby.computer_named", name=name, level=t(f"level.{level}"))
        return name
    return f"<@{member}>"


def seat_mention(s: TableSession, seat: int) -> str:
    return mention(s.seats[seat], seat)


def player_mention(s: TableSession, seat: int) -> str:
    """Who played ``seat`` in the hand on the table: tricks and results keep naming them
    after a change of seats between hands."""
    members = s.dealt_with if len(s.dealt_with) == len(s.seats) else s.seats
    return mention(members[seat], seat)


def plain_name(s: TableSession, seat: int) -> str:
    """Button labels cannot render mentions: the name cached at join time, or the seat."""
    member = s.seats[seat]
    if is_computer(member):
        return t("lobby.computer_seat", seat=seat + 1)
    return s.names.get(member or "", f"#{seat}")
