"""What every answer of the web server carries, the refusals included: the security headers,
and for anything refused a bare status line that repeats nothing of the request.

aiohttp answers a request it cannot read (a request line or a header over ``max_line_size``
or ``max_field_size``, 8,190 bytes; a malformed request) before any middleware runs, with the
parser's message — which quotes the start of the URL — as ``text/plain`` without the pages'
headers, and logs a traceback at ERROR for each (issue 44). ``Runner`` is aiohttp's
``AppRunner`` whose connections answer those as the pages answer everything else, and say so
in one line at INFO: a stranger's malformed request is not the bot's error.

>>> plain(405).text, plain(405).headers["X-Content-Type-Options"]
('405: Method Not Allowed', 'nosniff')
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

log = logging.getLogger(__name__)

SECURITY_HEADERS = {
    # The token is in the path: no page sends it on as a Referer, no robot keeps it.
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; connect-src 'self'; "
                               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
}


def plain(status: int, headers: dict[str, str] | None = None) -> web.Response:
    """A refusal: its status line as the whole body, and the security headers."""
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    return web.Response(status=status, text=f"{status}: {phrase}", content_type="text/plain",
                        headers={"Cache-Control": "no-store", **SECURITY_HEADERS,
                                 **(headers or {})})


def not_found() -> web.Response:
    """The same bare answer for anything not found or not allowed: nothing is revealed."""
    return plain(404)


def refusal(e: web.HTTPException) -> web.Response:
    """A route's refusal (404, 405, 413...) as ``plain``, keeping the headers it must send
    (``Allow`` of a 405)."""
    keep = {name: e.headers[name] for name in ("Allow", "Location") if name in e.headers}
    return plain(e.status, keep)


class _Connection(RequestHandler):
    """One connection, answering what it cannot read as ``plain`` does."""

    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        if status >= 500:
            # The bot's own failure: worth its traceback.
            log.error("web: answering %s to %s", status, request.remote, exc_info=exc)
        else:
            log.info("web: an unreadable request from %s answered %s (%s)", request.remote,
                     status, type(exc).__name__ if exc is not None else "bad request")
        if request.writer.output_size > 0:
            raise ConnectionError("an answer was begun: the connection is closed instead")
        response = plain(status)
        response.force_close()
        return response


class _Server(web.Server):
    def __call__(self) -> RequestHandler:
        return _Connection(self, loop=self._loop, **self._kwargs)


class Runner(web.AppRunner):
    """``web.AppRunner`` whose server's connections are ``_Connection``s."""

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        # The application builds its own ``web.Server``; only its connections' class differs.
        server.__class__ = _Server
        return server
