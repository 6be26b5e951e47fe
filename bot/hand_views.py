"""The players' hand views of a table on Discord: messages only their player sees, with
their cards and choices, in their language.

A view is the answer to that player's My hand (or their click on it); its interaction's token
is kept (``keep``) to edit it for 15 minutes: the cards of whoever must act are enabled in
their open view when the turn comes to them, and a view whose seat the computer played
shows it. Part of the table's Discord surface (``bot.discord_surface``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot import present
from bot.delivery import Delivery, Edit, Token
from bot.seats import is_computer
from bot.session import TableSession
from bot.store import GuildSettings
from bot.texts import language_of, speaking
from engine import seat_view


class HandViews:
    """The open hand views of one table (see the module docstring); ``deadline``: when the
    turn ends by itself, ``config``: the server's pictures."""

    def __init__(self, session: TableSession, delivery: Delivery,
                 deadline: Callable[[], float | None],
                 config: Callable[[], GuildSettings]) -> None:
        self.session = session
        self.delivery = delivery
        self.deadline = deadline
        self.config = config
        #: The latest token behind each player's view, by user id.
        self.tokens: dict[int, Token] = {}
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True
        self.tokens.clear()

    def is_open(self, user_id: int) -> bool:
        token = self.tokens.get(user_id)
        return token is not None and not token.expired

    def keep(self, interaction: discord.Interaction[Any]) -> None:
        """The latest interaction behind a player's hand view, to refresh it on their turn."""
        self.tokens[interaction.user.id] = Token.of(interaction)

    async def answer(self, interaction: discord.Interaction[Any], seat: int) -> None:
        """Answer a click on a player's hand view (their move) with the view as it is now,
        and keep its token to refresh it on their next turn."""
        message = await self.message(seat)
        await interaction.response.edit_message(content=message.content, view=message.view,
                                                attachments=message.files)
        self.keep(interaction)

    async def show(self, interaction: discord.Interaction[Any], seat: int) -> None:
        """Answer My hand with the player's hand view, a message only they see."""
        s = self.session
        hand = s.hand
        assert hand is not None
        moved = len(hand.actions)
        message = await self.message(seat)
        await interaction.response.send_message(
            message.content, view=message.view, ephemeral=True,
            files=message.files or discord.utils.MISSING)
        self.keep(interaction)
        if s.hand is not hand or len(hand.actions) != moved:
            # The table moved while the view was on its way (a computer's move): its
            # refresh did not know this view yet, so draw it again now.
            await self.refresh([seat], only=[seat])

    async def message(self, seat: int) -> present.HandMessage:
        """A seat's hand view now, in the language in force (its holder's)."""
        hand = self.session.hand
        assert hand is not None
        return await present.hand_message(self.session, seat_view(hand, seat),
                                          self.deadline(), self.config())

    async def refresh(self, also: list[int] | None = None, *,
                      only: list[int] | None = None) -> None:
        """Enable the cards of whoever must act now, in their open hand view (and redraw the
        views of the seats in ``also``; ``only``: just these seats)."""
        s = self.session
        if s.hand is None:
            return
        seats = s.waiting_for_human()
        for seat in seats + [x for x in also or [] if x not in seats]:
            if self.stopped:
                return  # stopping: the HTTP session is about to close
            if only is not None and seat not in only:
                continue
            member = s.seats[seat]
            if member is None or is_computer(member):
                continue
            user_id = int(member)
            token = self.tokens.get(user_id)
            if token is None or token.expired:
                self.tokens.pop(user_id, None)
                continue
            # The view is that player's: in their language, of the hand in play now (the
            # next one may have been dealt while earlier views were being edited).
            with speaking(language_of(token.locale)):
                message = await self.message(seat)
            done = await self.delivery.edit(None, token=token, what="refresh a hand view",
                                            content=message.content, view=message.view,
                                            attachments=message.files)
            if done is Edit.GONE:
                # An expired token or a deleted view: the player presses "My hand".
                self.tokens.pop(user_id, None)
