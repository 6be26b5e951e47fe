"""The Activity in Chromium, as a Discord user's client shows it: the stand-in's client frame
(``tests/standin/activity.py``) around the Activity, which runs the Embedded App SDK, proves
its user through Discord's OAuth2 and plays the table through its socket. Shared by the
browser tests of the Activity."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser, Frame, Page, ViewportSize, WebSocket

from browser.chromium import WAIT_MS
from engine import Action, action_to_json

PHONE: ViewportSize = {"width": 360, "height": 740}
LANDSCAPE: ViewportSize = {"width": 740, "height": 360}
DESKTOP: ViewportSize = {"width": 1280, "height": 720}
#: The Activity's pictures: the docs' with ``WEB_PICTURES=1``, else a temporary folder.
PICTURES = (Path(__file__).resolve().parents[2] / "docs" / "pictures" / "activity"
            if os.environ.get("WEB_PICTURES") == "1"
            else Path(tempfile.mkdtemp(prefix="activity-pictures-")))


@dataclass
class ActivityPage:
    """One user's Discord client showing the channel's Activity."""

    page: Page
    #: Every socket message the Activity received, as text.
    frames: list[str] = field(default_factory=list)
    #: What the Activity fetched and was answered (its api/session answers).
    answers: list[str] = field(default_factory=list)

    @property
    def activity(self) -> Frame:
        """The Activity's own frame (inside the client's)."""
        found = [f for f in self.page.frames if "/discordsays/" in f.url]
        assert found, "the client frame holds no Activity"
        return found[0]

    async def at(self) -> int:
        return int(await self.activity.evaluate(
            "() => Number(document.getElementById('app').dataset.at || -1)"))

    async def wait_at(self, at: int, hand: int | None = None) -> None:
        """Until the Activity shows the table after ``at`` actions (of stored hand
        ``hand``)."""
        same = "" if hand is None else f" && a.dataset.hand === '{hand}'"
        await self.activity.wait_for_function(
            f"() => {{ const a = document.getElementById('app');"
            f" return a && Number(a.dataset.at) >= {at}{same}; }}", timeout=WAIT_MS)

    async def picture(self, path: Path) -> None:
        """A screenshot once every card picture has arrived."""
        await self.activity.wait_for_function(
            "() => [...document.images].every((i) => i.complete && i.naturalWidth > 0)",
            timeout=WAIT_MS)
        await self.page.screenshot(path=str(path))

    async def text(self, hand: int | None = None) -> str:
        """Everything the Activity holds: its DOM, its scripts' data, its socket's messages
        (those of stored hand ``hand`` and those of no hand: the same cards are dealt
        again in every hand) and its answers."""
        frames = [f for f in self.frames if hand is None or json.loads(f).get("hand") in (
            None, hand)]
        return "\n".join([await self.activity.content(), *frames, *self.answers])


async def open_activity(browser: Browser, url: str, viewport: ViewportSize = PHONE
                        ) -> ActivityPage:
    """Open a user's client at the channel's Activity and wait until it shows the table."""
    context = await browser.new_context(viewport=viewport, is_mobile=viewport["width"] < 600,
                                        has_touch=viewport["width"] < 600)
    page = await context.new_page()
    shown = ActivityPage(page)

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: shown.frames.append(
            payload if isinstance(payload, str) else payload.decode()))

    async def on_response(response: object) -> None:
        url_ = getattr(response, "url", "")
        if url_.endswith("/api/session"):
            shown.answers.append(json.dumps(await response.json()))  # type: ignore[attr-defined]

    page.on("websocket", on_socket)
    page.on("response", on_response)
    await page.goto(url)
    await shown.activity.wait_for_selector("#app[data-at]", timeout=WAIT_MS)
    return shown


async def decide(shown: ActivityPage, action: Action) -> None:
    """Make ``action`` with the Activity's controls: a card tapped, a choice pressed, cards
    picked then Done."""
    frame = shown.activity
    ((kind, value),) = action_to_json(action).items()
    if kind == "card":
        await tap(frame, f"#hand .card.legal[data-card='{value}']")
    elif isinstance(value, list):
        for c in value:
            await tap(frame, f"#hand .card.pickable[data-card='{c}']")
        await frame.click("#together-done:not([disabled])")
    else:
        buttons = frame.locator(f"#choices button.choice[data-kind='{kind}']")
        values = await buttons.evaluate_all("bs => bs.map(b => b.dataset.value)")
        offered = [json.loads(v) for v in values]
        assert value in offered, f"{kind}: {value!r} not among the Activity's choices {offered}"
        index = offered.index(value)
        await buttons.nth(index).click()


async def tap(frame: Frame, selector: str) -> None:
    """Tap a card of the fanned hand where it shows (the next card covers the rest of it),
    as a finger does."""
    await frame.wait_for_selector(selector, timeout=WAIT_MS)
    point = await frame.evaluate("""async (selector) => {
        // Where the card rests (a card just raised is still moving).
        await Promise.all(document.getAnimations().map((a) => a.finished));
        const e = document.querySelector(selector);
        const r = e.getBoundingClientRect();
        for (const fy of [0.5, 0.35, 0.65, 0.2, 0.8]) {
          for (let x = r.left + 2; x < r.right; x += 2) {
            const hit = document.elementFromPoint(x, r.top + r.height * fy);
            if (hit === e || e.contains(hit)) return [x - r.left, r.height * fy];
          }
        }
        return null; }""", selector)
    assert point is not None, f"{selector} shows nowhere"
    await frame.click(selector, position={"x": point[0], "y": point[1]})
