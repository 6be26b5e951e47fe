"""The Activity's commands for people: ``tools/activity_demo.py`` (the Activity on one's own
machine against the stand-in, to tap through a hand in a browser) and ``python -m
benchmarks.activity`` (the delay between the surfaces), at a tiny size."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import sys
from pathlib import Path

import pytest
from playwright.async_api import Browser

from browser.activity_pages import PHONE, open_activity, tap
from browser.chromium import WAIT_MS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
async def test_the_demo_opens_a_table_a_newcomer_plays_in_a_browser(browser: Browser) -> None:
    demo = await asyncio.create_subprocess_exec(
        sys.executable, "tools/activity_demo.py", "--buttons", "1", "--computer-delay", "0",
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    assert demo.stdout is not None
    shown = None
    rest: asyncio.Task[bytes] | None = None
    try:
        url = None
        while url is None:
            line = (await asyncio.wait_for(demo.stdout.readline(), 120)).decode()
            assert line, "the demo ended before printing its address"
            found = re.search(r"your Activity \(phone\): (\S+)", line)
            url = found.group(1) if found else None
        # Read the rest of what the demo prints, or a full pipe would stop it mid-write.
        rest = asyncio.create_task(demo.stdout.read())
        shown = await open_activity(browser, url, PHONE)
        frame = shown.activity
        # Your turn comes (the simulated player and the computers play theirs): tap a card.
        await frame.wait_for_selector("#app.my-turn #hand .card.legal, #app.my-turn .choice",
                                      timeout=WAIT_MS * 2)
        at = await shown.at()
        choices = frame.locator("#choices .choice")
        if await choices.count():
            await choices.first.click()
        else:
            card = await frame.get_attribute("#hand .card.legal", "data-card")
            await tap(frame, f"#hand .card[data-card='{card}']")
        await shown.wait_at(at + 1)
    finally:
        if shown is not None:
            # The page first (as a person closes the window before Ctrl-C): left open, it
            # asks the stopping bot for a new session and gets the proxy's error.
            await shown.page.context.close()
        demo.send_signal(signal.SIGINT)
        # The demo stops its bot (which has a minute to close cleanly) and its stand-in.
        await asyncio.wait_for(demo.wait(), 150)
        if rest is not None:
            await rest  # at its end once the demo has stopped


@pytest.mark.slow
async def test_the_benchmark_measures_both_directions() -> None:
    run = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmarks.activity", "--hands", "1", "--think", "0",
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(run.communicate(), 600)
    assert run.returncode == 0, err.decode()[-2000:]
    report = json.loads(out)
    assert report["problems"] == [] and report["errors"] == []
    for direction in ("activity_to_discord", "buttons_to_activity"):
        figures = report[direction]
        assert figures["moves"] > 0
        assert 0 < figures["p50_ms"] <= figures["p95_ms"] <= figures["max_ms"]
