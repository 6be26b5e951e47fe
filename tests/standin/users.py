"""Simulated users: they see what Discord shows them and click what is there.

A ``Player`` sees the public messages of a channel and its own ephemeral ones, each as last
edited. It clicks a button that is on one of those messages (the message travels with the
interaction, as from Discord); tests that play a misbehaving client say so (``force`` clicks a
disabled button, ``forge`` makes up a custom_id, ``message=`` clicks on an old version of a
message that a client may still show). Slash commands are built from the commands the bot
synced, with their option types.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
from dataclasses import dataclass
from typing import Any

from .discord_objects import (
    EPHEMERAL,
    FIRST_USER_ID,
    Message,
    User,
    role_payload,
    walk_components,
)
from .server import CHANNEL_MESSAGE, Interaction, StandIn

_user_ids = itertools.count(FIRST_USER_ID)


@dataclass(frozen=True)
class RoleOption:
    """A role of the guild, as a slash command's option names it."""

    id: int
    name: str

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


class Player:
    def __init__(self, standin: StandIn, name: str, *, channel_id: int | None = None,
                 manager: bool = False, user_id: int | None = None) -> None:
        self.standin = standin
        self.user = User(user_id if user_id is not None else next(_user_ids), name, manager)
        self.channel_id = channel_id if channel_id is not None else standin.channel_ids[0]
        standin.users[self.user.id] = self.user

    def at(self, channel_id: int) -> Player:
        """The same user, seeing another channel (a thread of a tournament's table)."""
        return Player(self.standin, self.name, channel_id=channel_id,
                      manager=self.user.manager, user_id=self.id)

    def dms(self) -> list[Message]:
        """The direct messages the bot sent this user."""
        return self.standin.dms(self.user)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return self.user.mention

    def __repr__(self) -> str:
        return f"Player({self.name})"

    # -- seeing --------------------------------------------------------------------------------

    def visible(self) -> list[Message]:
        return self.standin.visible(self.user, self.channel_id)

    def ephemerals(self) -> list[Message]:
        return [m for m in self.visible() if m.audience == self.id]

    def latest(self, containing: str) -> Message | None:
        found = [m for m in self.visible() if containing in m.text]
        return found[-1] if found else None

    def activity_url(self, platform: str = "mobile") -> str:
        """Where this user's Discord client shows the channel's Activity (a browser opens
        it: ``activity.py``'s client frame)."""
        return self.standin.activity.url(self.user, self.channel_id, platform)

    def enabled_on(self, message: Message, op: str | None = None) -> list[str]:
        assert message.audience in (None, self.id), "not a message this user sees"
        return message.enabled(op)

    # -- acting --------------------------------------------------------------------------------

    async def click(self, custom_id: str, *, message: Message | None = None,
                    version: dict[str, Any] | None = None, force: bool = False,
                    forge: bool = False, wait: bool = True) -> Interaction:
        """Click a button this user sees (on ``message``, or the latest message holding it);
        ``version`` is an older state of ``message`` that the user's client still shows."""
        payload, inter = self.click_payload(custom_id, message=message, version=version,
                                            force=force, forge=forge)
        await self.standin.send_interaction(payload, inter)
        if wait:
            await self.answer(inter)
        return inter

    def click_payload(self, custom_id: str, *, message: Message | None = None,
                      version: dict[str, Any] | None = None, force: bool = False,
                      forge: bool = False) -> tuple[dict[str, Any], Interaction]:
        if message is None:
            holding = [m for m in self.visible()
                       if any(b.get("custom_id") == custom_id for b in m.buttons)]
            if not forge:
                assert holding, f"{self.name} sees no button {custom_id}"
            message = holding[-1] if holding else self.visible()[-1]
        assert message.audience in (None, self.id), f"{self.name} cannot see that message"
        shown = message.payload(version)
        if forge:
            # A hand-made interaction: the custom_id replaces the message's first button.
            shown = copy.deepcopy(shown)
            first = next(c for c in walk_components(shown["components"]) if c.get("type") == 2)
            first.update(custom_id=custom_id, disabled=False)
        button = next((c for c in walk_components(shown["components"])
                       if c.get("custom_id") == custom_id), None)
        assert button is not None, f"no button {custom_id} on that message"
        assert force or not button.get("disabled"), f"{custom_id} is disabled"
        return self.standin._interaction(self.user, 3, {"custom_id": custom_id,
                                                        "component_type": 2},
                                         shown, message.channel_id)

    async def choose(self, custom_id: str, values: list[str], *, message: Message
                     ) -> Interaction:
        """Pick ``values`` in a select menu of a message this user sees."""
        assert message.audience in (None, self.id), f"{self.name} cannot see that message"
        shown = message.payload(None)
        menu = next(c for c in walk_components(shown["components"])
                    if c.get("custom_id") == custom_id and c.get("type") == 3)
        assert set(values) <= {o["value"] for o in menu["options"]}, "not offered"
        payload, inter = self.standin._interaction(
            self.user, 3, {"custom_id": custom_id, "component_type": 3, "values": values},
            shown, message.channel_id)
        await self.standin.send_interaction(payload, inter)
        await self.answer(inter)
        return inter

    async def press(self, label: str, message: Message) -> Interaction:
        button = message.button_by_label(label)
        assert button is not None, f"no single button {label!r} on {message.text!r}"
        return await self.click(button["custom_id"], message=message)

    async def command(self, name: str, /, **options: Any) -> Interaction:
        """``await ana.command("table new", game="filicau")``."""
        names = name.split()
        cmd = self.standin.commands.get(names[0])
        assert cmd is not None, f"the bot synced no command /{names[0]}"
        node: dict[str, Any] = cmd
        for sub in names[1:]:
            node = next(o for o in node.get("options") or [] if o["name"] == sub)
        opts = []
        resolved: dict[str, dict[str, Any]] = {}
        for key, value in options.items():
            spec = next((o for o in node.get("options") or [] if o["name"] == key), None)
            assert spec is not None, f"/{name} has no option {key}"
            if isinstance(value, Player):
                # A user option: Discord sends the id and the user (and member) resolved.
                member = value.user.member_payload()
                resolved.setdefault("users", {})[str(value.id)] = member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            elif isinstance(value, RoleOption):
                resolved.setdefault("roles", {})[str(value.id)] = role_payload(
                    value.id, value.name, 0)
                value = str(value.id)
            opts.append({"name": key, "type": spec["type"], "value": value})
        for sub in reversed(names[1:]):
            opts = [{"type": 1 if sub == names[-1] else 2, "name": sub, "options": opts}]
        data: dict[str, Any] = {"id": cmd["id"], "name": names[0], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        payload, inter = self.standin._interaction(self.user, 2, data, None, self.channel_id)
        await self.standin.send_interaction(payload, inter)
        await self.answer(inter)
        return inter

    async def answer(self, inter: Interaction, timeout: float = 10.0) -> Interaction:
        try:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for loses a cancellation
            # that comes as the answer does (a demo stopped mid-move played on).
            async with asyncio.timeout(timeout):
                await inter.answered.wait()
        except TimeoutError:
            raise AssertionError(f"{self.name}'s interaction {inter.custom_id or 'command'} "
                                 f"got no answer in {timeout} s") from None
        return inter

    # -- answers -------------------------------------------------------------------------------

    def response(self, inter: Interaction) -> Message:
        assert inter.original is not None, "no response message"
        return self.standin.messages[inter.original]

    def refused(self, inter: Interaction) -> str | None:
        """The text of an ephemeral refusal, or None if the answer was something else."""
        if inter.type != CHANNEL_MESSAGE:
            return None
        msg = self.response(inter)
        if msg.audience != self.id or msg.embeds or msg.buttons:
            return None
        return msg.content

    def sees_ephemeral(self, msg: Message) -> bool:
        return msg.audience == self.id and bool(msg.payload()["flags"] & EPHEMERAL)
