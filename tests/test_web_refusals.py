"""What the web server answers to a request it refuses: a bare status line with the security
headers, nothing of the request repeated, and one line at INFO instead of a traceback at ERROR
(issue 44: an over-long request line or header got aiohttp's own 400 quoting the URL, without
the headers, and a traceback each; 405s lacked the headers)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from web_helpers import serve

from bot.store import Store
from bot.web.refusals import SECURITY_HEADERS
from bot.web.server import WebServer


@pytest.fixture
async def site(store: Store) -> AsyncIterator[tuple[WebServer, str]]:
    server, base = await serve(store)
    try:
        yield server, base
    finally:
        await server.stop()


async def raw(server: WebServer, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as bytes on a fresh connection; the status, headers and body of the
    answer (the server closes the connection after a refusal)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        writer.write(request)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 30.0)
    finally:
        writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def assert_guarded(headers: Any) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name.lower(), headers.get(name)) == value, name


SECRET = "s3cr3t-token-in-the-path"


@pytest.mark.parametrize("request_bytes", [
    # A request line over 8,190 bytes.
    f"GET /table/{SECRET}{'x' * 9000} HTTP/1.1\r\nHost: a\r\n\r\n".encode(),
    # A header over 8,190 bytes.
    f"GET /table/{SECRET} HTTP/1.1\r\nHost: a\r\nX-Long: {'y' * 9000}\r\n\r\n".encode(),
    # A header line without a colon.
    f"GET /table/{SECRET} HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n".encode(),
], ids=["long line", "long header", "malformed header"])
async def test_an_unreadable_request_gets_a_bare_400_and_one_info_line(
        site: Any, request_bytes: bytes, caplog: pytest.LogCaptureFixture) -> None:
    server, _ = site
    caplog.set_level(logging.DEBUG)
    status, headers, body = await raw(server, request_bytes)
    assert status == 400
    assert body == b"400: Bad Request"
    assert headers["content-type"].startswith("text/plain")
    assert_guarded(headers)
    assert SECRET.encode() not in body
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    ours = [r for r in caplog.records if r.name == "bot.web.refusals"]
    assert [r.levelname for r in ours] == ["INFO"], [r.getMessage() for r in ours]
    assert ours[0].exc_info is None and "400" in ours[0].getMessage()
    assert SECRET not in ours[0].getMessage()


async def test_a_wrong_method_gets_a_bare_405_with_the_headers(site: Any) -> None:
    _, base = site
    async with aiohttp.ClientSession(base) as client:
        for method, path in (("POST", "/health"), ("DELETE", "/static/web.css"),
                             ("PUT", "/table/whatever")):
            async with client.request(method, path) as r:
                assert r.status == 405, (method, path)
                assert await r.text() == "405: Method Not Allowed"
                assert "GET" in r.headers["Allow"]
                assert_guarded(r.headers)
        async with client.get("/no/such/page") as r:
            assert (r.status, await r.text()) == (404, "404: Not Found")
            assert_guarded(r.headers)
        async with client.get("/health") as r:
            assert r.status == 200
            assert_guarded(r.headers)

