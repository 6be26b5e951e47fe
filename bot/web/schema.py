"""The table socket's messages as one JSON Schema, made from the protocol's models
(``bot.web.protocol``): what the Activity's TypeScript types are generated from.

    python -m bot.web.schema > activity/protocol.schema.json
    (cd activity && npm run types)      # src/protocol.ts, from the schema

CI makes both again and fails if either differs from the committed file (``.ci/run``).

>>> schema = socket_schema()
>>> sorted(schema["$defs"])[:4], schema["title"]
(['Act', 'Answer', 'Choice', 'Clock'], 'Protocol')
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pydantic import BaseModel, TypeAdapter

from bot.web.protocol import Incoming, Outgoing, ReplayState, Span, _In, _Out


def socket_schema() -> dict[str, Any]:
    """One schema whose ``$defs`` hold every message, both ways, and a replay's step (the
    replay page's data): ``ServerMessage`` (server to page), ``PageMessage`` (page to
    server) and ``ReplayState`` are its properties."""
    defs: dict[str, Any] = {}
    kinds: tuple[tuple[str, Any], ...] = (("ServerMessage", Outgoing), ("PageMessage", Incoming),
                                          ("ReplayState", ReplayState))
    for name, kind in kinds:
        schema = TypeAdapter(kind).json_schema(ref_template="#/$defs/{model}")
        defs.update(schema.pop("$defs", {}))
        defs[name] = {"title": name, **schema}
    for model in _models():
        found = defs.get(model.__name__)
        if found is not None:
            _settle(found, model)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Protocol",
        "description": "The table socket's messages (bot/web/protocol.py), version 1.",
        "type": "object",
        "properties": {name: {"$ref": f"#/$defs/{name}"}
                       for name in ("ServerMessage", "PageMessage", "ReplayState")},
        "$defs": dict(sorted(defs.items())),
        "additionalProperties": False,
    }


def _models() -> list[type[BaseModel]]:
    """Every model of the protocol (the messages and their parts)."""
    seen: list[type[BaseModel]] = []
    todo: list[type[BaseModel]] = [_Out, _In, Span]
    while todo:
        model = todo.pop()
        if model not in seen:
            seen.append(model)
            todo.extend(model.__subclasses__())
    return seen


def _settle(schema: dict[str, Any], model: type[BaseModel]) -> None:
    """What the pages may count on: every field is there but those a message leaves out
    while at their default (``exclude_if``); no title per field (the generated types use
    the fields' types, not an alias per field)."""
    fields = model.model_fields
    schema["required"] = [name for name, f in fields.items() if f.exclude_if is None
                          and (f.is_required() or not issubclass(model, _In))]
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)


def main() -> None:
    sys.stdout.write(json.dumps(socket_schema(), indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
