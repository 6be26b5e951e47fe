"""``tools/render_messages.py``, the developer's picture of a message as Discord draws it: the
HTML it builds keeps every button in its row and style, the menus, the embeds' fields in
Discord's columns, mentions and countdowns. Chromium is not started here."""

from __future__ import annotations

import importlib.util
import sys
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from typing import Any

from fake_discord import Harness

from bot.texts import t

TOOL = Path(__file__).resolve().parent.parent / "tools" / "render_messages.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("render_messages", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("render_messages", module)
    spec.loader.exec_module(module)
    return module


rm = load()


class Layout(HTMLParser):
    """The rows of components in a rendered message: each a list of (kind, classes, text)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, set[str], str]]] = []
        self.images: list[str] = []
        self._open: list[str] = []
        self._item: tuple[str, set[str]] | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = set((dict(attrs).get("class") or "").split())
        if tag == "img":
            self.images.append(dict(attrs).get("src") or "")
            return
        self._open.append(tag)
        if "row" in classes:
            self.rows.append([])
        elif classes & {"button", "select"}:
            self._item = ("button" if "button" in classes else "select", classes)
            self._text = ""
            self._depth = len(self._open)

    def handle_data(self, data: str) -> None:
        if self._item is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if self._item is not None and len(self._open) == self._depth:
            self.rows[-1].append((*self._item, self._text.replace("⌄", "").strip()))
            self._item = None
        self._open.pop()


def layout(html: str) -> Layout:
    parser = Layout()
    parser.feed(html)
    return parser


def button(label: str, style: int, disabled: bool = False, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": style, "label": label, "custom_id": f"x:{label}",
            "disabled": disabled, **extra}


MESSAGE = {
    "name": "sample", "ephemeral": False, "captured_at": 1_000_000.0,
    "data": {
        "content": "<@11>, your turn. ⏳ <t:1000090:R> **bold** `code`",
        "embeds": [{"title": "Filicău — hand 1", "color": 0x1F8B4C,
                    "image": {"url": "attachment://ranking.png"},
                    "fields": [{"name": "Team A", "value": "1. <@11>", "inline": True},
                               {"name": "Team B", "value": "2. 🤖", "inline": True},
                               {"name": "Options", "value": "early end: on", "inline": False},
                               {"name": "Trick", "value": "—", "inline": True}]}],
        "components": [
            {"type": 1, "components": [button("My hand", 1), button("Leave", 4),
                                       button("★ 🍃 O", 3, disabled=True),
                                       button("Docs", 5, url="https://example.com")]},
            {"type": 1, "components": [{"type": 3, "custom_id": "opt", "placeholder":
                                        "Change an option…", "options": []}]},
            {"type": 1, "components": [button("Start", 3), button("Cancel", 2)]},
        ],
        "flags": 0,
    },
    "files": [{"filename": "ranking.png", "path": "r.png"},
              {"filename": "table.png", "path": "t.png"}],
}
FILES = {"ranking.png": "file:///r.png", "table.png": "file:///t.png"}


def test_every_button_and_menu_keeps_its_row_order_and_style() -> None:
    page = rm.page_html(MESSAGE, {"11": "Ana"}, "Filicău", FILES, "desktop")
    rows = layout(page).rows
    assert [[text for _, _, text in row] for row in rows] == [
        ["My hand", "Leave", "★ 🍃 O", "Docs ↗"], ["Change an option…"], ["Start", "Cancel"]]
    styles = [[(kind, classes - {"button", "select"}) for kind, classes, _ in row]
              for row in rows]
    assert styles == [
        [("button", {"primary"}), ("button", {"danger"}), ("button", {"success", "disabled"}),
         ("button", {"link"})],
        [("select", set())],
        [("button", {"success"}), ("button", {"secondary"})]]


def test_mentions_countdowns_markdown_and_pictures() -> None:
    page = rm.page_html(MESSAGE, {"11": "Ana"}, "Filicău", FILES, "phone")
    assert '<span class="mention">@Ana</span>, your turn.' in page
    assert "in 2 minutes" in page  # 90 s after the capture
    assert "<strong>bold</strong>" in page and "<code>code</code>" in page
    assert "&lt;@11&gt;" not in page and "<t:" not in page
    # The embed's picture once, in the embed; the other file below the embeds.
    assert layout(page).images == ["file:///r.png", "file:///t.png"]
    assert "Only you can see this" not in page
    assert '<body class="phone">' in page
    ephemeral = rm.page_html({**MESSAGE, "ephemeral": True}, {}, "Filicău", FILES, "phone")
    assert "Only you can see this" in ephemeral and "@user" in ephemeral


def test_inline_fields_share_a_row_as_in_discord() -> None:
    fields = MESSAGE["data"]["embeds"][0]["fields"]  # type: ignore[index]
    assert rm.field_columns(fields) == ["1 / 7", "7 / 13", "1 / 13", "1 / 13"]
    four = [{"inline": True}] * 4
    assert rm.field_columns(four) == ["1 / 5", "5 / 9", "9 / 13", "1 / 13"]


def test_relative_times_read_as_discord_words_them() -> None:
    assert [rm.relative(s) for s in (1, 45, 90, 3600, -120)] == [
        "in 1 second", "in 45 seconds", "in 2 minutes", "in 1 hour", "2 minutes ago"]


async def test_a_lobby_the_bot_sent_is_drawn_with_every_button(h: Harness) -> None:
    ana = h.user("ana")
    r = await h.command(ana, "table new", game="filicau")
    payload = r.message.payload()
    page = rm.page_html({"name": "lobby", "data": payload, "files": []},
                        {str(ana.id): "ana"}, "Filicău", {}, "desktop")
    expected = [[c.get("label") or c.get("placeholder") for c in row["components"]]
                for row in payload["components"]]
    drawn = [[text.removesuffix(" ↗") for _, _, text in row] for row in layout(page).rows]
    assert drawn == expected and any(t("btn.start") in row for row in drawn)
    assert f"@{ana.name}" in page
