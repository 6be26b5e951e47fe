"""Every click on a component of the bot: read once, routed to the cog that answers it, and
answered exactly once — refusals and failures handled here, in one place.

The bot has one listener for component interactions (``FilicauBot.on_interaction``). It
sets the user's language, reads the custom_id and menu values against the protocol's
declarations (``bot.protocol.parse``), and calls the handler a cog registered for the
operation (``Clicks.route``). A ``SessionError`` becomes one short ephemeral answer in the
user's language; an answer Discord no longer takes (after its 3 s) is one warning; anything
else is the bot's own failure, logged with its traceback and answered with the generic text.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import discord

from bot import errors
from bot.errors import answer
from bot.lobby import SessionError
from bot.protocol import Click, Op, parse
from bot.texts import EN, refusal, t

log = logging.getLogger(__name__)

Handler = Callable[[discord.Interaction[Any], Click], Awaitable[None]]
#: Called when an answer came too late, to show what the click stored anyway.
TooLate = Callable[[discord.Interaction[Any], Click], Awaitable[None]]


class Clicks:
    """The routes of component clicks, by operation (see the module docstring)."""

    def __init__(self, enter: Callable[[discord.Interaction[Any]], Awaitable[None]],
                 stopping: Callable[[], bool]) -> None:
        self._enter = enter
        self._stopping = stopping
        self._routes: dict[Op, tuple[Handler, TooLate | None]] = {}

    def route(self, ops: Iterable[Op], handler: Handler, *,
              too_late: TooLate | None = None) -> None:
        """``handler`` answers the clicks of these operations (a cog, when it loads)."""
        for op in ops:
            self._routes[op] = (handler, too_late)

    def unroute(self, ops: Iterable[Op]) -> None:
        for op in ops:
            self._routes.pop(op, None)

    async def dispatch(self, interaction: discord.Interaction[Any]) -> None:
        """Answer one component interaction."""
        if interaction.type is not discord.InteractionType.component:
            return
        await self._enter(interaction)
        data: Any = interaction.data if isinstance(interaction.data, dict) else {}
        values = data.get("values")
        # Every argument and menu value is read and checked here, once.
        click = parse(str(data.get("custom_id", "")),
                      values if isinstance(values, list) else None) \
            if errors.well_formed(interaction) else None
        route = self._routes.get(click.op) if click is not None else None
        try:
            if click is None or route is None:
                raise SessionError("err.bad_button")
            await route[0](interaction, click)
        except SessionError as e:
            await answer(interaction, refusal(e.key, e.params) if e.key in EN
                         else t("err.not_allowed"))
        except Exception as e:
            what = f"{click and click.op} {click and click.table_id}"
            if self._stopping():
                # The bot is stopping under this click (its HTTP session closes): what was
                # stored stays stored, and a table comes back at the next start.
                log.info("click %s interrupted by the shutdown", what)
                return
            if errors.too_late(e):
                errors.answered_too_late(f"click {what}")
                if click is not None and route is not None and route[1] is not None:
                    await route[1](interaction, click)
                return
            # E.g. the store failed: nothing changed, so the click can be retried.
            log.exception("click %s failed", what)
            await answer(interaction, t("err.internal"))
