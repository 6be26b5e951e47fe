"""A table across servers as its players see it, each in their own server's channel (the
players of ``standin.game``'s ``Table`` share one): they find whose turn it is by their own
hand views, and a click may be answered by a deferral and then by its webhook (a click
carried to the shard process that drives the table, ``bot.crossplay.relay``)."""

from __future__ import annotations

import asyncio
import random
import re

from bot.texts import t

from .discord_objects import Message
from .game import Table, move_at_random
from .server import (
    CHANNEL_MESSAGE,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    UPDATE_MESSAGE,
    Interaction,
    StandIn,
)
from .users import Player

#: Answers to a click on a view the table has moved past (as ``standin.game``'s).
MOVED_ON = {t("illegal.wrong_phase"), t("illegal.not_your_turn"), t("err.stale_trick"),
            t("illegal.hand_over"), t("err.hand_over")}
NUMBER = re.compile(r" — hand (\d+)$")
#: Generous: bots, PostgreSQL and the stand-in share a loaded machine.
TIMEOUT = 60.0


class CrossTable:
    """One table as its four players see it, each in their own server's channel."""

    def __init__(self, standin: StandIn, players: list[Player], seed: int, *,
                 timeout: float = TIMEOUT) -> None:
        self.standin = standin
        self.players = players
        self.rng = random.Random(seed)
        self.timeout = timeout
        #: Every card or choice the bot accepted, in order: (player, custom_id).
        self.moves: list[tuple[Player, str]] = []
        #: Clicks answered by a deferral and a webhook (carried between processes).
        self.relayed = 0

    @property
    def channel_id(self) -> int:
        return self.players[0].channel_id

    def table_message(self, p: Player | None = None) -> Message | None:
        """The latest table message of ``p``'s channel (the first player's)."""
        for m in reversed(self.standin.public((p or self.players[0]).channel_id)):
            if any(str(b.get("custom_id", "")).startswith("fc:hand:") for b in m.buttons):
                return m
        return None

    def number(self, p: Player | None = None) -> int | None:
        """The number of the hand on ``p``'s table message (the first player's)."""
        m = self.table_message(p or self.players[0])
        found = m and m.embeds and NUMBER.search(m.embeds[0].get("title") or "")
        return int(found.group(1)) if found else None

    def result(self, number: int, p: Player | None = None) -> Message | None:
        """Hand ``number``'s result in ``p``'s channel (the first player's)."""
        prefix = t("result.title", number=number, a=0, b=0).split(":")[0]
        for m in self.standin.public((p or self.players[0]).channel_id):
            title = (m.embeds[0].get("title") or "") if m.embeds else ""
            if title == prefix or title.startswith(prefix + ":"):
                return m
        return None

    async def settled(self, p: Player, inter: Interaction) -> str | None:
        """Wait for the bot's full answer to a click; its refusal's text, or None."""
        try:
            async with asyncio.timeout(self.timeout):
                await inter.settled.wait()
        except TimeoutError:
            raise AssertionError(f"{p.name}'s click {inter.custom_id} was never answered "
                                 f"in full (answered with type {inter.type})") from None
        if inter.type in (DEFERRED_MESSAGE, DEFERRED_UPDATE):
            self.relayed += 1
        if inter.type in (CHANNEL_MESSAGE, DEFERRED_MESSAGE):
            msg = self.standin.messages[inter.original] if inter.original else None
            if msg is not None and msg.audience == p.id and not msg.embeds \
                    and not msg.buttons and not msg.deleted:
                return msg.content
        for fid in inter.followups:
            msg = self.standin.messages[fid]
            if msg.audience == p.id and not msg.buttons:
                return msg.content
        return None

    async def my_hand(self, p: Player) -> Message:
        table = await self.standin.wait_for(lambda: self.table_message(p), self.timeout,
                                            f"{p.name}'s table message")
        inter = await p.press(t("btn.my_hand"), table)
        refused = await self.settled(p, inter)
        assert refused is None, refused
        assert inter.type in (CHANNEL_MESSAGE, DEFERRED_MESSAGE)
        view = p.response(inter)
        assert view.audience == p.id and view.content.startswith("**"), view.text
        return view

    def turn(self) -> Player | None:
        """The player the table message marks to act (▶ before their seat and name)."""
        m = self.table_message()
        for line in (m.text if m is not None else "").splitlines():
            for p in self.players:
                if re.match(rf"▶ \S+ {re.escape(p.name.title())}\b", line):
                    return p
        return None

    def to_act(self, number: int) -> tuple[Player, Message] | None:
        for p in self.players:
            view = Table.hand_view(p, number)
            if view is not None and (view.moves() or [
                    m for m in view.selects if m["custom_id"].split(":")[1]
                    in ("act", "together")]):
                return p, view
        return None

    async def step(self, number: int) -> bool:
        """Wait until the hand is over (False) or a player may act, who clicks (True)."""
        found = await self.standin.wait_for(
            lambda: ("over" if self.result(number) else None)
            or self.to_act(number), self.timeout, f"a move in hand {number}")
        if found == "over":
            return False
        p, view = found
        cid, inter, menu = await move_at_random(self.rng, p, view)
        refused = await self.settled(p, inter)
        if refused is not None:
            assert menu or refused in MOVED_ON, f"{p.name}: {cid}: {refused}"
            return True
        assert inter.type in (UPDATE_MESSAGE, DEFERRED_UPDATE)
        if not menu:
            self.moves.append((p, cid))
        return True

    async def next_hand(self, p: Player) -> None:
        """Press Next hand under the result in ``p``'s channel; everybody's My hand."""
        label = t("btn.next_hand")
        msg = await self.standin.wait_for(
            lambda: next((m for m in reversed(self.standin.public(p.channel_id))
                          if m.button_by_label(label) is not None), None),
            self.timeout, "the Next hand button")
        number = self.number(p)
        inter = await p.press(label, msg)
        refused = await self.settled(p, inter)
        assert refused is None, refused
        if number is not None:
            # Every server's table message shows the new hand before anybody reads it (an
            # edit may come a moment after the answer, later still on a loaded machine).
            try:
                await self.standin.wait_for(
                    lambda: all(self.number(q) == number + 1 for q in self.players),
                    self.timeout, f"hand {number + 1} on every server's table")
            except TimeoutError:
                shown = {q.name: self.number(q) for q in self.players}
                raise AssertionError(f"hand {number + 1} is not on every server's table "
                                     f"message: {shown}") from None
        for q in self.players:
            await self.my_hand(q)

    async def play(self, number: int, moves: int | None = None) -> None:
        done = 0
        while moves is None or done < moves:
            if not await self.step(number):
                return
            done += 1

    async def playing(self) -> int:
        """The number of the hand in play, after dealing the next one (Next hand, pressed
        by the first player) if the last one is over: a hand may end early."""
        number = self.number()
        assert number is not None, "no hand on the table message"
        if self.result(number) is not None:
            await self.next_hand(self.players[0])
            await self.standin.wait_for(lambda: self.number() == number + 1, self.timeout,
                                        f"hand {number + 1} on the table")
            number += 1
        return number

    async def moves_across(self, moves: int) -> None:
        """Play ``moves`` steps, into the next hands if a hand ends first."""
        done = 0
        while done < moves:
            if await self.step(await self.playing()):
                done += 1
