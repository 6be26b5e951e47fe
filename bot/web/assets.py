"""The scripts and styles a page loads, read once from the package and served with a long
cache life: a file's address carries its content's digest (``?v=…``), so a new build is a
new address. Each is compressed once, when read (gzip: the Activity's script is 165 KB as
built, about a third of that sent — issue 44), and sent so to a browser that takes gzip;
its digest is its ``ETag``, so a browser that asks again with it gets a bodiless 304.

>>> assets = Assets("static/pages", ("table.js",))
>>> assets.addresses("static/")["table.js"].startswith("static/table.js?v=")
True
>>> data, packed = assets.files["table.js"].data, assets.files["table.js"].gzipped
>>> gzip.decompress(packed) == data and len(packed) < len(data)
True
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

from aiohttp import web

#: A year: the address changes with the content, so an answer never goes stale.
CACHED = "public, max-age=31536000, immutable"


@dataclass(frozen=True)
class Asset:
    data: bytes
    #: ``data`` gzipped (no name, no time in the header: the same bytes in every process).
    gzipped: bytes
    kind: str
    digest: str

    @property
    def etag(self) -> str:
        return f'"{self.digest}"'


class Assets:
    """The files ``names`` of the package folder ``bot/web/FOLDER``."""

    def __init__(self, folder: str, names: Iterable[str]) -> None:
        root = resources.files("bot.web").joinpath(*folder.split("/"))
        self.files: dict[str, Asset] = {}
        for name in names:
            data = root.joinpath(name).read_bytes()
            kind = "text/css" if name.endswith(".css") else "text/javascript"
            self.files[name] = Asset(data, gzip.compress(data, 9, mtime=0), kind,
                                     hashlib.sha256(data).hexdigest()[:12])

    def addresses(self, prefix: str) -> dict[str, str]:
        """Each file's address under ``prefix``, versioned by its digest."""
        return {name: f"{prefix}{name}?v={item.digest}" for name, item in self.files.items()}

    async def serve(self, request: web.Request) -> web.Response:
        """The route of ``…/{name}``: the file, gzipped when the browser takes it, cached for
        a year (its address changes with it)."""
        item = self.files.get(request.match_info["name"])
        if item is None:
            raise web.HTTPNotFound()
        headers = {"Cache-Control": CACHED, "ETag": item.etag, "Vary": "Accept-Encoding"}
        if item.etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
        if _takes_gzip(request.headers.get("Accept-Encoding", "")):
            return web.Response(body=item.gzipped, content_type=item.kind, charset="utf-8",
                                headers={**headers, "Content-Encoding": "gzip"})
        return web.Response(body=item.data, content_type=item.kind, charset="utf-8",
                            headers=headers)


def _takes_gzip(accept: str) -> bool:
    """Whether an ``Accept-Encoding`` takes gzip (``gzip;q=0`` refuses it).

    >>> _takes_gzip("gzip, deflate, br"), _takes_gzip("br;q=1, gzip;q=0"), _takes_gzip("")
    (True, False, False)
    """
    for part in accept.lower().split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            q = params.strip().removeprefix("q=")
            try:
                return not params or float(q) > 0
            except ValueError:
                return True
    return False
