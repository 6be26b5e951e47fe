"""The Discord objects the stand-in sends: users, members, the guild, channels, messages."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

APP_ID = 800_000_000_000_000_001
BOT_USER_ID = APP_ID
GUILD_ID = 810_000_000_000_000_001
OWNER_ID = 820_000_000_000_000_001
MANAGER_ROLE_ID = 830_000_000_000_000_001
#: Channel ids are FIRST_CHANNEL_ID, FIRST_CHANNEL_ID + 1, ...
FIRST_CHANNEL_ID = 840_000_000_000_000_001
FIRST_USER_ID = 700_000_000_000_000_001
EPHEMERAL = 64

# Permission bits (Discord's documented values).
VIEW_CHANNEL, SEND_MESSAGES, READ_HISTORY, USE_COMMANDS = 1 << 10, 1 << 11, 1 << 16, 1 << 31
MANAGE_GUILD = 1 << 5
USER_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | READ_HISTORY | USE_COMMANDS
MANAGER_PERMISSIONS = USER_PERMISSIONS | MANAGE_GUILD

TIMESTAMP = "2024-06-01T12:00:00+00:00"


@dataclass(frozen=True)
class User:
    id: int
    name: str
    manager: bool = False
    #: The language of their Discord client (what ``/users/@me`` tells an Activity).
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "global_name": self.name.title(),
                "discriminator": "0", "avatar": None, "bot": False, "public_flags": 0}

    def member_payload(self) -> dict[str, Any]:
        perms = MANAGER_PERMISSIONS if self.manager else USER_PERMISSIONS
        return {"user": self.payload(), "nick": None, "avatar": None,
                "roles": [str(MANAGER_ROLE_ID)] if self.manager else [],
                "joined_at": TIMESTAMP, "deaf": False, "mute": False, "flags": 0,
                "pending": False, "permissions": str(perms)}


def bot_user_payload() -> dict[str, Any]:
    return {"id": str(BOT_USER_ID), "username": "filicau", "global_name": None,
            "discriminator": "0", "avatar": None, "bot": True, "public_flags": 0,
            "flags": 0, "mfa_enabled": False, "verified": True}


def application_payload() -> dict[str, Any]:
    owner = User(OWNER_ID, "owner").payload()
    return {"id": str(APP_ID), "name": "Filicău", "description": "", "icon": None,
            "bot_public": True, "bot_require_code_grant": False, "owner": owner,
            "verify_key": "0" * 64, "flags": 0, "summary": "", "team": None}


def channel_payload(channel_id: int, guild_id: int = GUILD_ID) -> dict[str, Any]:
    return {"id": str(channel_id), "type": 0, "guild_id": str(guild_id),
            "name": f"cards-{channel_id - FIRST_CHANNEL_ID}",
            "position": channel_id - FIRST_CHANNEL_ID, "permission_overwrites": [],
            "nsfw": False, "parent_id": None, "rate_limit_per_user": 0, "topic": None,
            "last_message_id": None, "flags": 0}


def role_payload(role_id: int, name: str, perms: int) -> dict[str, Any]:
    return {"id": str(role_id), "name": name, "color": 0, "hoist": False,
            "position": 0 if role_id != MANAGER_ROLE_ID else 1, "permissions": str(perms),
            "managed": False, "mentionable": False, "flags": 0}


def guild_payload(channel_ids: Iterable[int], guild_id: int = GUILD_ID) -> dict[str, Any]:
    """GUILD_CREATE: with everything discord.py's parser reads."""
    bot_member = {"user": bot_user_payload(), "nick": None, "avatar": None, "roles": [],
                  "joined_at": TIMESTAMP, "deaf": False, "mute": False, "flags": 0,
                  "pending": False}
    return {
        "id": str(guild_id), "name": "Card club", "owner_id": str(OWNER_ID), "icon": None,
        "roles": [role_payload(guild_id, "@everyone", USER_PERMISSIONS),
                  role_payload(MANAGER_ROLE_ID, "managers", MANAGER_PERMISSIONS)],
        "channels": [channel_payload(c, guild_id) for c in channel_ids], "threads": [],
        "members": [bot_member], "member_count": 1000, "presences": [], "voice_states": [],
        "emojis": [], "stickers": [], "features": [], "stage_instances": [],
        "guild_scheduled_events": [], "soundboard_sounds": [], "large": False,
        "preferred_locale": "en-US", "unavailable": False, "verification_level": 0,
        "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
        "premium_tier": 0, "nsfw_level": 0, "afk_timeout": 300, "system_channel_flags": 0,
        "joined_at": TIMESTAMP,
    }


def walk_components(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for c in components:
        yield c
        yield from walk_components(c.get("components") or [])


def message_text(data: dict[str, Any]) -> str:
    """Everything a person reads on a message: content, embeds, button labels."""
    parts = [str(data.get("content") or "")]
    for e in data.get("embeds") or []:
        parts += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        parts.append((e.get("footer") or {}).get("text") or "")
    parts += [str(c.get("label") or "") for c in walk_components(data.get("components") or [])]
    return "\n".join(p for p in parts if p)


def buttons_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in walk_components(data.get("components") or []) if c.get("type") == 2]


#: The operations of a hand view's buttons that play.
MOVE_OPS = frozenset({"card", "act", "servant"})


@dataclass
class Message:
    """A message as Discord keeps it: one model for both Discord fakes (the stand-in that the
    real bot process talks to, and the in-process fake of ``tests/fake_discord.py``)."""

    id: int
    channel_id: int
    #: None for a message everybody in the channel sees; a user id for an ephemeral one.
    audience: int | None
    data: dict[str, Any] = field(default_factory=dict)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    #: Every version of ``data``, the first as sent.
    versions: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False
    #: The interaction whose token created it (None for the bot's channel messages).
    token: str | None = None
    #: When each version arrived (the stand-in's ``time.monotonic()``).
    times: list[float] = field(default_factory=list)

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def text(self) -> str:
        """Everything a person reads on the message: content, embeds, button labels."""
        return message_text(self.data)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return buttons_of(self.data)

    def button(self, custom_id: str) -> dict[str, Any] | None:
        return next((b for b in self.buttons if b.get("custom_id") == custom_id), None)

    @property
    def selects(self) -> list[dict[str, Any]]:
        """The select menus (type 3) on the message."""
        return [c for c in walk_components(self.data.get("components") or [])
                if c.get("type") == 3]

    def select(self, op: str) -> dict[str, Any] | None:
        """The select menu of one op (``opt``, ``act``, ``together``), if any."""
        return next((c for c in self.selects if c["custom_id"].split(":")[1] == op), None)

    def enabled(self, op: str | None = None) -> list[str]:
        """custom_ids of the enabled buttons (of one op, e.g. ``card``)."""
        return [b["custom_id"] for b in self.buttons if not b.get("disabled")
                and (op is None or b["custom_id"].split(":")[1] == op)]

    def moves(self) -> list[str]:
        """custom_ids of the enabled buttons that play (a card or another choice), not the
        view's other buttons (a hint)."""
        return [c for c in self.enabled() if c.split(":")[1] in MOVE_OPS]

    def button_by_label(self, label: str) -> dict[str, Any] | None:
        found = [b for b in self.buttons if b.get("label") == label]
        return found[0] if len(found) == 1 else None

    def payload(self, data: dict[str, Any] | None = None) -> dict[str, Any]:
        """The message object Discord sends (to the bot, or inside an interaction); ``data``
        is an older version, as a user's client may still show it."""
        data = self.data if data is None else data
        attachments = [
            {"id": str(self.id * 10 + i), "filename": name, "size": len(blob),
             "url": f"https://cdn.example/{self.id}/{name}",
             "proxy_url": f"https://media.example/{self.id}/{name}",
             "content_type": "image/png" if name.endswith(".png") else "application/json"}
            for i, (name, blob) in enumerate(self.files)
        ]
        out: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "guild_id": str(GUILD_ID),
            "author": bot_user_payload(), "content": str(data.get("content") or ""),
            "timestamp": TIMESTAMP,
            "edited_timestamp": None if len(self.versions) < 2 else TIMESTAMP,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": attachments,
            "embeds": [{"type": "rich", **e} for e in data.get("embeds") or []],
            # Shared with the stored version: whoever changes a payload copies it first
            # (``Player.click_payload(forge=True)``).
            "components": data.get("components") or [],
            "pinned": False, "type": 0,
            "flags": EPHEMERAL if self.audience is not None else 0,
        }
        if self.token is not None:
            out["webhook_id"] = str(APP_ID)
            out["application_id"] = str(APP_ID)
        return out
