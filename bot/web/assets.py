"""The scripts and styles a page loads, read once from the package and served with a long
cache life: a file's address carries its content's digest (``?v=…``), so a new build is a
new address.

>>> assets = Assets("static/pages", ("table.js",))
>>> assets.addresses("static/")["table.js"].startswith("static/table.js?v=")
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from importlib import resources

from aiohttp import web


class Assets:
    """The files ``names`` of the package folder ``bot/web/FOLDER``."""

    def __init__(self, folder: str, names: Iterable[str]) -> None:
        root = resources.files("bot.web").joinpath(*folder.split("/"))
        #: name → (bytes, content type, digest)
        self.files: dict[str, tuple[bytes, str, str]] = {}
        for name in names:
            data = root.joinpath(name).read_bytes()
            kind = "text/css" if name.endswith(".css") else "text/javascript"
            self.files[name] = (data, kind, hashlib.sha256(data).hexdigest()[:12])

    def addresses(self, prefix: str) -> dict[str, str]:
        """Each file's address under ``prefix``, versioned by its digest."""
        return {name: f"{prefix}{name}?v={digest}"
                for name, (_, _, digest) in self.files.items()}

    async def serve(self, request: web.Request) -> web.Response:
        """The route of ``…/{name}``: the file, cached for a year (its address changes with it)."""
        item = self.files.get(request.match_info["name"])
        if item is None:
            raise web.HTTPNotFound()
        data, kind, _ = item
        return web.Response(body=data, content_type=kind, charset="utf-8", headers={
            "Cache-Control": "public, max-age=31536000, immutable"})
