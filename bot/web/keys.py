"""Signed links: every page of a server is reached through a token only its key can make.

A token names what it opens (a kind and, for most kinds, an id) and the server it belongs to,
and carries an HMAC-SHA256 of both under the server's secret (kept in the store, one per
server). Nobody without the secret can make a token for another table, hand or player, so the
pages cannot be enumerated; a new secret (``/admin web rotate``) revokes every link at once,
and a server whose pages are off (``/admin web off``) refuses them all. A refused token is a
plain 404: whether the server, the table or the key exists is not told.

>>> key = WebKey(guild_id=7, secret="00" * 32)
>>> token = sign(key, Kind.HAND, 42)
>>> len(token)
43
>>> parse(token) == (7, 42, token)
True
>>> check(key, Kind.HAND, 42, token), check(key, Kind.TABLE, 42, token)
(True, False)
>>> check(WebKey(guild_id=7, secret="11" * 32), Kind.HAND, 42, token)
False
"""

from __future__ import annotations

import base64
import binascii
import enum
import hashlib
import hmac
import secrets
import struct

from bot.store import Store, WebKey

#: Bytes of a server's secret, and of the MAC kept in a token (128 bits: no guessing).
SECRET_BYTES = 32
MAC_BYTES = 16
_IDS = struct.Struct(">QQ")
#: A token's length: the two ids and the MAC, base64url without padding.
TOKEN_LENGTH = len(base64.urlsafe_b64encode(b"\0" * (_IDS.size + MAC_BYTES)).rstrip(b"="))


class Kind(enum.StrEnum):
    """What a token opens; part of what is signed, so that a hand's token opens no table."""

    TABLE = "table"
    HAND = "hand"
    BOARD = "board"
    PLAYER = "player"


def new_key(guild_id: int) -> WebKey:
    return WebKey(guild_id=guild_id, secret=secrets.token_hex(SECRET_BYTES))


def _mac(key: WebKey, kind: Kind, guild_id: int, obj: int) -> bytes:
    message = f"{kind.value}:{guild_id}:{obj}".encode()
    return hmac.new(bytes.fromhex(key.secret), message, hashlib.sha256).digest()[:MAC_BYTES]


def sign(key: WebKey, kind: Kind, obj: int = 0) -> str:
    """The token of ``kind`` ``obj`` (a table id, a hand id, a user id; 0 for the board) of
    the key's server."""
    raw = _IDS.pack(key.guild_id, obj) + _mac(key, kind, key.guild_id, obj)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def parse(token: str) -> tuple[int, int, str] | None:
    """The server and object a token claims (not yet checked), or None for no token."""
    if len(token) != TOKEN_LENGTH or not token.isascii():
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None
    if len(raw) != _IDS.size + MAC_BYTES:
        return None
    guild_id, obj = _IDS.unpack(raw[:_IDS.size])
    return guild_id, obj, token


def check(key: WebKey, kind: Kind, obj: int, token: str) -> bool:
    """Whether ``token`` is this server's link to ``kind`` ``obj`` under its current secret
    (whether the pages are on is the caller's question)."""
    return hmac.compare_digest(sign(key, kind, obj), token)


class Keys:
    """The servers' keys as this process knows them: read from the store once, then kept
    until a change is announced (``forget``, called for every ``k:GUILD`` the bus carries,
    from whichever process rotated the key)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: dict[int, WebKey | None] = {}

    async def get(self, guild_id: int) -> WebKey | None:
        if guild_id not in self._known:
            if len(self._known) > 10_000:
                self._known.clear()  # memory stays flat: they are read again as needed
            self._known[guild_id] = await self.store.web_key(guild_id)
        return self._known[guild_id]

    async def for_links(self, guild_id: int) -> WebKey:
        """The server's key, made the first time a link of the server is needed."""
        key = await self.get(guild_id)
        if key is None:
            key = await self.store.add_web_key(new_key(guild_id))
            self._known[guild_id] = key
        return key

    def forget(self, guild_id: int) -> None:
        self._known.pop(guild_id, None)

    async def rotate(self, guild_id: int) -> WebKey:
        """A new secret: every link made before is dead (the pages' state is kept)."""
        old = await self.get(guild_id)
        key = new_key(guild_id).model_copy(update={"enabled": old.enabled if old else True})
        await self.store.put_web_key(key)
        self._known[guild_id] = key
        return key

    async def switch(self, guild_id: int, on: bool) -> WebKey:
        key = await self.for_links(guild_id)
        key = key.model_copy(update={"enabled": on})
        await self.store.put_web_key(key)
        self._known[guild_id] = key
        return key

    async def verify(self, kind: Kind, token: str,
                     obj: int | None = None) -> tuple[int, int] | None:
        """``(guild, object)`` of a good token of ``kind`` whose server's pages are on, else
        None. ``obj``: the object it must name, when the caller knows it."""
        claimed = parse(token)
        if claimed is None:
            return None
        guild_id, got, _ = claimed
        if obj is not None and got != obj:
            return None
        key = await self.get(guild_id)
        if key is None or not key.enabled or not check(key, kind, got, token):
            return None
        return guild_id, got
