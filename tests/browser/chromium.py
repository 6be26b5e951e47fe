"""Debian's Chromium for the browser tests, and where their screenshots go."""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
#: Where the screenshots for the docs go.
PICTURES = Path(__file__).resolve().parents[2] / "docs" / "pictures" / "web"
#: Generous: a loaded 2-core machine; a wait ends as soon as its condition holds.
WAIT_MS = 30_000
