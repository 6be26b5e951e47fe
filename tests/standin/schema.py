"""Request bodies checked against Discord's official OpenAPI description.

``tests/data/discord-api-spec/openapi.json`` (a copy of Discord's own, with its licence; OpenAPI
3.1, i.e. JSON Schema 2020-12) is read once; a request's path is matched to the spec's path
templates and its JSON body (or the ``payload_json`` part of a multipart body) is validated
with jsonschema against the operation's ``requestBody`` schema, whose ``#/components/...``
references resolve within the same document.

One leniency, for what discord.py writes and Discord accepts: the ``id`` of each entry of
``attachments`` (the index of a multipart file) as a JSON integer where the schema has a
snowflake string. Everything the bot builds itself is held to the schema as written.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

#: The spec, kept with the tests (``tests/data/discord-api-spec``).
SPEC_PATH = Path(__file__).resolve().parents[1] / "data" / "discord-api-spec" / "openapi.json"


class SchemaCheck:
    def __init__(self, path: Path | None = SPEC_PATH) -> None:
        """The check of the spec at ``path``; ``None`` checks nothing (see :meth:`off`)."""
        self.path = path
        # The copy is part of the repository: a missing one is a broken checkout, not a
        # reason to validate nothing.
        self._doc: dict[str, Any] = ({"paths": {}} if path is None
                                     else json.loads(path.read_text(encoding="utf-8")))
        #: Whether bodies are validated (always, unless made with :meth:`off`).
        self.available = path is not None
        #: (regex, template) for every path of the spec, the most literal first.
        self._paths: list[tuple[re.Pattern[str], str]] = []
        templates = sorted(self._doc["paths"], key=lambda p: (p.count("{"), -len(p)))
        for tpl in templates:
            rx = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(tpl))
            self._paths.append((re.compile(rx + "$"), tpl))

    @classmethod
    def off(cls) -> SchemaCheck:
        """A check that validates nothing: for a benchmark whose figures the validation
        would distort (the soak's and the load's speed runs)."""
        return cls(None)

    def template(self, path: str) -> str | None:
        for rx, tpl in self._paths:
            if rx.match(path):
                return tpl
        return None

    def validate(self, method: str, path: str, body: Any) -> str | None:
        """None if the body is valid (or nothing can be checked); else the schema's message."""
        if not self.available:
            return None
        tpl = self.template(path)
        if tpl is None:
            return f"{method} {path} is not a route of Discord's API"
        op = self._doc["paths"][tpl].get(method.lower())
        if op is None:
            return f"{method} {tpl} is not an operation of Discord's API"
        body = _attachment_ids_as_text(body)
        validator = self._validator(tpl, method.lower(), self._branch(tpl, method, body))
        if validator is None:
            if body is not None:
                return f"{method} {tpl} takes no body"
            return None
        error = best_match(validator.iter_errors(body))
        if error is None:
            return None
        if error.context:
            # A union (anyOf): report the deepest failure among its branches, the one that
            # got furthest into the body (a branch for another type fails at its "type").
            error = max(_leaves(error), key=lambda e: (
                len(e.absolute_path), e.validator not in ("enum", "const")))
        where = "/".join(str(p) for p in error.absolute_path) or "(body)"
        return f"{method} {tpl}: {where}: {error.message}"

    def validate_response(self, method: str, path: str, status: int, body: Any) -> str | None:
        """None if ``body`` is what Discord's schema says this route answers with ``status``
        (or the schema does not say); else the schema's message. For the stand-in's own
        answers (an Activity's instance, a user's ``/users/@me``)."""
        if not self.available:
            return None
        tpl = self.template(path)
        op = None if tpl is None else self._doc["paths"][tpl].get(method.lower())
        if op is None:
            return f"{method} {path} is not an operation of Discord's API"
        answer = op.get("responses", {}).get(str(status), {})
        schema = answer.get("content", {}).get("application/json", {}).get("schema")
        if schema is None:
            return None
        validator = Draft202012Validator({**schema, "components": self._doc["components"]})
        error = best_match(validator.iter_errors(body))
        if error is None:
            return None
        where = "/".join(str(p) for p in error.absolute_path) or "(body)"
        return f"{method} {tpl} answer {status}: {where}: {error.message}"

    def _branch(self, tpl: str, method: str, body: Any) -> str | None:
        """For a union discriminated by ``type`` (the interaction callback), the one branch
        whose ``type`` enum holds the body's type: validating against it alone says the same
        and is many times faster than trying every branch."""
        if not isinstance(body, dict) or "type" not in body:
            return None
        schema = self._body_schema(tpl, method.lower())
        branches = (schema or {}).get("anyOf") or []
        for ref in (b.get("$ref", "") for b in branches):
            target = self._doc["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {})
            enum = target.get("properties", {}).get("type", {}).get("enum") or []
            if body["type"] in enum:
                return ref
        return None

    def _body_schema(self, tpl: str, method: str) -> dict[str, Any] | None:
        body = self._doc["paths"][tpl][method].get("requestBody")
        if body is None:
            return None
        schema: dict[str, Any] = body["content"]["application/json"]["schema"]
        return schema

    @lru_cache(maxsize=64)  # noqa: B019 - one checker per stand-in, kept for its lifetime
    def _validator(self, tpl: str, method: str,
                   branch: str | None = None) -> Draft202012Validator | None:
        found = self._body_schema(tpl, method)
        if found is None:
            return None
        schema = {"$ref": branch} if branch else dict(found)
        # The operation's schema as the root, with the spec's components beside it so that
        # "#/components/schemas/..." resolves.
        schema["components"] = self._doc["components"]
        return Draft202012Validator(schema)


def _leaves(error: Any) -> list[Any]:
    if not error.context:
        return [error]
    return [leaf for sub in error.context for leaf in _leaves(sub)]


def _attachment_ids_as_text(body: Any) -> Any:
    """``body`` with discord.py's integer attachment ids written as snowflake strings."""
    if not isinstance(body, dict):
        return body
    fixed = dict(body)
    if isinstance(fixed.get("data"), dict):
        fixed["data"] = _attachment_ids_as_text(fixed["data"])
    if isinstance(fixed.get("attachments"), list):
        fixed["attachments"] = [
            {**a, "id": str(a["id"])} if isinstance(a, dict) and type(a.get("id")) is int else a
            for a in fixed["attachments"]]
    return fixed
