"""The table socket's protocol is described once (``bot/web/protocol.py``): the JSON Schema
the Activity's TypeScript types are generated from is the models' own, as committed; every
message the server makes is one the models read back; the page's messages are refused when
they are not what the protocol says (``tests/test_web.py`` checks every message a socket
receives against the models)."""

from __future__ import annotations

import json
from pathlib import Path

from bot.web import protocol
from bot.web.schema import socket_schema

ACTIVITY = Path(__file__).resolve().parents[1] / "activity"


def test_the_committed_schema_and_types_are_the_models() -> None:
    """A model changed without ``python -m bot.web.schema`` and ``npm run types`` would
    leave the pages reading another protocol than the server sends (CI builds both again
    too; this says so in the fast lane, without Node)."""
    committed = json.loads((ACTIVITY / "protocol.schema.json").read_text())
    assert committed == socket_schema()
    types = (ACTIVITY / "src" / "protocol.ts").read_text()
    assert "GENERATED" in types.splitlines()[0]
    for name in committed["$defs"]:
        if name not in ("JsonValue",):
            assert f"export interface {name} " in types or f"export type {name} " in types, name


def test_a_message_left_out_while_at_its_default_keeps_its_shape() -> None:
    """Fields a page never had while they are empty are still left out (the pages' messages
    keep their shape), and every message reads back as itself."""
    messages = [
        protocol.Gone(reason="revoked"),
        protocol.Refusal(reason="not_seated"),
        protocol.Refusal(reason="err.stale_trick", text="That trick is over."),
        protocol.Clock(deadline=None, now=1.5),
        protocol.hello(protocol.SPECTATOR, "delayed"),
    ]
    dumped = [json.loads(protocol.dump(m)) for m in messages]
    assert dumped[0] == {"reason": "revoked", "type": "gone", "v": 1}
    assert dumped[1] == {"reason": "not_seated", "type": "error", "v": 1}
    assert "table" not in dumped[4]
    for message in messages:
        assert protocol.OUTGOING.validate_json(protocol.dump(message)) == message


def test_a_page_message_outside_the_protocol_is_refused() -> None:
    assert protocol.read('{"v": 1, "type": "hint", "hand": 1, "at": 2}') == protocol.Hint(
        v=1, type="hint", hand=1, at=2)
    for bad in ('{"v": 1, "type": "hint", "hand": 1}', '{"v": 1, "type": "nope"}',
                '{"v": 1, "type": "seat", "op": "steal"}', "[]", "x" * 5000):
        assert protocol.read(bad) is None
