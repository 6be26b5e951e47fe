"""A table as its players see it: open, sit down, start, and play by clicking what is shown.

Players read only messages they can see. Whose turn it is comes from the public table message
(the seats to act are marked ▶); each of them may play one of the enabled buttons of their own
hand view ("My hand"), chosen by a seeded random generator.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.texts import t

from .discord_objects import Message
from .server import CHANNEL_MESSAGE, UPDATE_MESSAGE, Interaction, StandIn
from .users import Player

#: Answers to a click on a view the table has moved past.
_MOVED_ON = {t("illegal.wrong_phase"), t("illegal.not_your_turn"), t("err.stale_trick"),
             t("illegal.hand_over"), t("err.hand_over")}
_TABLE_NUMBER = re.compile(r" — hand (\d+)$")
_VIEW_NUMBER = re.compile(r", hand (\d+)\*\*")
#: "**Your hand": how a hand view starts.
_VIEW_PREFIX = "**" + t("hand.title", game="", number=0).split(" —")[0]


def acting(table: Message) -> str:
    """The lines of the table message's seats marked to act now (▶): whose turn it is (the
    table message has no text of its own)."""
    return "\n".join(line for line in table.text.splitlines() if line.startswith("▶"))


async def move_at_random(rng: random.Random, p: Player,
                         view: Message) -> tuple[str, Interaction, bool]:
    """``p`` makes one of the moves ``view`` offers, at random: a card or button clicked, or
    a menu of cards (or choices) with a random pick; its custom id, the interaction, and
    whether it was a menu."""
    menus = [m for m in view.selects if m["custom_id"].split(":")[1] in ("act", "together")]
    choices = sorted(view.moves()) + [m["custom_id"] for m in menus]
    cid = rng.choice(choices)
    menu = next((m for m in menus if m["custom_id"] == cid), None)
    if menu is None:
        return cid, await p.click(cid, message=view), False
    values = [o["value"] for o in menu["options"]]
    picked = rng.sample(values, menu.get("min_values", 1))
    return cid, await p.choose(cid, picked, message=view), True


@dataclass
class Click:
    player: Player
    custom_id: str
    interaction: Interaction


class Table:
    def __init__(self, standin: StandIn, players: Sequence[Player], *, seed: int = 1,
                 timeout: float = 30.0) -> None:
        self.standin = standin
        self.players = list(players)
        self.channel_id = players[0].channel_id
        assert all(p.channel_id == self.channel_id for p in players)
        self.rng = random.Random(seed)
        self.timeout = timeout
        #: Every card or Servant click that the bot accepted, in order.
        self.moves: list[Click] = []
        #: Messages older than this table's lobby belong to earlier tables in the channel.
        self.since = 0

    # -- what players see ----------------------------------------------------------------------

    def public(self) -> list[Message]:
        """The table's public messages: in its channel, and in the thread it opened there."""
        channels = [self.channel_id, *(
            tid for tid, thread in self.standin.threads.items()
            if int(thread["parent_id"]) == self.channel_id)]
        return sorted((m for c in channels for m in self.standin.public(c) if m.id >= self.since),
                      key=lambda m: m.id)

    def table_message(self) -> Message | None:
        """The latest public message with the lobby's or the table's buttons."""
        for m in reversed(self.public()):
            if any(cid.split(":")[1] in ("join", "sit", "start", "hand") for cid in
                   (b.get("custom_id", "") for b in m.buttons) if cid.startswith("fc:")):
                return m
        return None

    def number(self) -> int | None:
        """The hand number the table message shows."""
        m = self.table_message()
        if m is None or not m.embeds:
            return None
        found = _TABLE_NUMBER.search(m.embeds[0].get("title") or "")
        return int(found.group(1)) if found else None

    def result(self, number: int) -> Message | None:
        # "Hand 3: Team A 5 · Team B 3" at fixed-teams tables, "Hand 3" at the others.
        prefix = t("result.title", number=number, a=0, b=0).split(":")[0]
        for m in self.public():
            title = (m.embeds[0].get("title") or "") if m.embeds else ""
            if title == prefix or title.startswith(prefix + ":"):
                return m
        return None

    @staticmethod
    def hand_view(p: Player, number: int | None = None) -> Message | None:
        """The player's latest "My hand" message (of hand ``number``)."""
        for m in reversed(p.ephemerals()):
            found = _VIEW_NUMBER.search(m.content)
            if m.content.startswith(_VIEW_PREFIX) and found \
                    and (number is None or int(found.group(1)) == number):
                return m
        return None

    def to_act(self) -> tuple[Player, Message] | None:
        """The player the table message marks to act (▶), with the enabled buttons of their
        hand view."""
        table = self.table_message()
        number = self.number()
        if table is None or number is None:
            return None
        marked = acting(table)
        for p in self.players:
            if p.mention in marked:
                view = self.hand_view(p, number)
                if view is not None and (view.moves() or view.selects):
                    return p, view
        return None

    # -- acting --------------------------------------------------------------------------------

    async def press(self, p: Player, label: str) -> Interaction:
        msg = self.table_message()
        assert msg is not None, "no table message"
        return await p.press(label, msg)

    async def add_computer(self, p: Player, level: str = "normal") -> Interaction:
        """Pick a computer of ``level`` in the lobby's Add computer menu."""
        msg = self.table_message()
        assert msg is not None, "no table message"
        menu = msg.select("cpu")
        assert menu is not None, f"no Add computer menu in {msg.text}"
        return await p.choose(menu["custom_id"], [level], message=msg)

    async def open(self, opener: Player, seats: Sequence[tuple[Player, int | None]], *,
                   game: str = "filicau", computers: int = 0, **options: object) -> None:
        """``/table new``; each player presses Join team A (0) or B (1), or Take a seat
        (None) where teams form per deal; the opener adds computers."""
        inter = await opener.command("table new", game=game, **options)
        assert inter.type == CHANNEL_MESSAGE and opener.refused(inter) is None, \
            opener.refused(inter)
        self.since = opener.response(inter).id
        for p, team in seats:
            label = t("btn.sit") if team is None else (
                t("btn.join_a") if team == 0 else t("btn.join_b"))
            inter = await self.press(p, label)
            assert inter.type == UPDATE_MESSAGE, p.refused(inter)
        for _ in range(computers):
            inter = await self.add_computer(opener)
            assert inter.type == UPDATE_MESSAGE, opener.refused(inter)

    async def start(self, opener: Player, *, my_hand: bool = True) -> None:
        inter = await self.press(opener, t("btn.start"))
        assert inter.type == UPDATE_MESSAGE, opener.refused(inter)
        # The table message shows the table in play (an edit of the lobby on its way as
        # Start was answered is drawn over again a moment later).
        label = t("btn.my_hand")
        await self.standin.wait_for(
            lambda: (m := self.table_message()) is not None and m.button_by_label(label),
            self.timeout, "the table in play on its message", channel_id=self.channel_id)
        if my_hand:
            for p in self.players:
                await self.my_hand(p)

    async def next_hand(self, p: Player, *, my_hand: bool = True) -> Interaction:
        """Wait for the result to offer **Next hand**, press it, press My hand."""
        label = t("btn.next_hand")

        def shown() -> Message | None:
            offering = [m for m in self.public() if m.button_by_label(label) is not None]
            return offering[-1] if offering else None

        msg = await self.standin.wait_for(shown, self.timeout, "the Next hand button",
                                          channel_id=self.channel_id)
        inter = await p.press(label, msg)
        # Under the result: the new hand's table is posted below it (or, in the table's
        # thread, the result says the hand is dealt and the table is redrawn in place).
        assert inter.type in (CHANNEL_MESSAGE, UPDATE_MESSAGE), p.refused(inter)
        if my_hand:
            for q in self.players:
                await self.my_hand(q)
        return inter

    async def my_hand(self, p: Player) -> Message:
        inter = await self.press(p, t("btn.my_hand"))
        assert inter.type == CHANNEL_MESSAGE, p.refused(inter)
        view = p.response(inter)
        assert view.audience == p.id
        return view

    async def step(self, number: int) -> bool:
        """Wait until the hand is over (False) or a player may act, who clicks (True)."""
        try:
            found = await self.standin.wait_for(
                lambda: ("over" if self.result(number) is not None else None) or self.to_act(),
                self.timeout, f"a move in hand {number}", channel_id=self.channel_id)
        except TimeoutError:
            table = self.table_message()
            views = [(p.name, (v := self.hand_view(p, number)) and v.text)
                     for p in self.players]
            raise TimeoutError(f"no move in hand {number}: the table shows "
                               f"{table and table.text!r}; hand views {views!r}") from None
        if found == "over":
            return False
        p, view = found
        cid, inter, menu = await move_at_random(self.rng, p, view)
        if menu:
            if inter.type != UPDATE_MESSAGE:
                return True  # cards the rules refuse together (an answer only p sees)
        else:
            if inter.type != UPDATE_MESSAGE and p.refused(inter) in _MOVED_ON:
                # In an open window (fris) another player may act first, and a face made
                # out of turn may come after the last card: the click on the view drawn
                # before gets its answer, and the table goes on.
                return True
        assert inter.type == UPDATE_MESSAGE, f"{p.name} clicked {cid}: {p.refused(inter)}"
        self.moves.append(Click(p, cid, inter))
        return True

    async def play_hand(self, number: int, *, moves: int | None = None) -> Message | None:
        """Play hand ``number`` to its end (or ``moves`` clicks); returns the result message."""
        done = 0
        while moves is None or done < moves:
            if not await self.step(number):
                break
            done += 1
        return self.result(number)
