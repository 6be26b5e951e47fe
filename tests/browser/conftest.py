"""Browser tests: Playwright for Python driving Debian's Chromium (``apt-get install -y
chromium``; Playwright's own browser download is not used). Every test here is marked
``browser``: ``pytest tests/browser`` runs them alone, ``pytest -m 'not browser'`` skips
them. Waits are on conditions in the page, never on time."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, async_playwright
from web_helpers import serve

from bot.store import SqliteStore
from bot.web.server import WebServer
from browser.chromium import CHROMIUM, FLAGS


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (README)")
    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield b
        finally:
            await b.close()


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[WebServer, str, SqliteStore]]:
    """The bot's web pages on a fresh SQLite store: the server, its address, the store."""
    store = SqliteStore(tmp_path / "bot.sqlite3")
    await store.open()
    server, base = await serve(store)
    try:
        yield server, base, store
    finally:
        await server.stop()
        await store.close()
