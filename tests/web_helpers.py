"""Shared by the web pages' tests (``tests/test_web*.py``, ``tests/browser/``): a web server on
a free loopback port, and the hidden-card check applied to whatever a page received."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from visibility import hidden_from

from bot.store import Store
from bot.texts import LANGUAGES, card_label, speaking
from bot.web.bus import Bus
from bot.web.server import WebServer
from engine import Hand
from engine.cards import code


@dataclass
class WebSettings:
    web_url: str = "http://127.0.0.1:0"
    web_host: str = "127.0.0.1"
    web_port: int = 0
    database_url: str | None = None


async def serve(store: Store, bus: Bus | None = None) -> tuple[WebServer, str]:
    """A started web server and its base URL (links it makes start with ``WEB_URL``; the
    tests open them at the real port)."""
    server = WebServer(WebSettings(), store, bus=bus)
    await server.start()
    return server, f"http://127.0.0.1:{server.port}"


def path_of(link: str | None) -> str:
    """A link's path and query (the tests' server listens on another port than WEB_URL's)."""
    assert link is not None
    return link.split("127.0.0.1:0", 1)[1]


def _code_pattern(c: int) -> re.Pattern[str]:
    # A card code as the pages carry it: a JSON string, an attribute or an image name.
    return re.compile(r'["/=>]' + re.escape(code(c)) + r'(?:["<.]|\.png)')


_CODES = {c: _code_pattern(c) for c in range(32)}


def _labels(c: int) -> set[str]:
    out = set()
    for lang in LANGUAGES:
        with speaking(lang):
            out.add(card_label(c))
    return out


_LABELS = {c: _labels(c) for c in range(32)}


def hidden_cards_in(text: str, hand: Hand, *, also: set[int] = frozenset()) -> list[str]:
    """The cards of ``hand`` nobody at the table may know now (apart from ``also``) that
    ``text`` names, by code or by label in any language."""
    found = []
    for c in sorted(hidden_from(hand, None) - set(also)):
        if _CODES[c].search(text) or any(label in text for label in _LABELS[c]):
            found.append(code(c))
    return found


def steps_of(messages: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(hand, at) of every step message, in the order received."""
    return [(m["hand"], m["at"]) for m in messages if m.get("type") == "step"]
