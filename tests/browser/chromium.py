"""Debian's Chromium for the browser tests, and where their screenshots go."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
#: Where the screenshots go: the docs' pictures with ``WEB_PICTURES=1`` (``WEB_PICTURES=1
#: pytest tests/browser`` draws them again), else a temporary folder, so that a test run
#: leaves the work tree as it was.
PICTURES = (Path(__file__).resolve().parents[2] / "docs" / "pictures" / "web"
            if os.environ.get("WEB_PICTURES") == "1"
            else Path(tempfile.mkdtemp(prefix="web-pictures-")))
#: Generous: a loaded 2-core machine; a wait ends as soon as its condition holds.
WAIT_MS = 30_000
