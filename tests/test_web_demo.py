"""``python -m bot.web`` (the README's command): it serves the pages of a table that plays
itself, and says where they are."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_the_demo_plays_a_hand_and_prints_working_links(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.web", "--port", str(port), "--delay", "0", "--hands", "1",
         "--stay", "--database", str(tmp_path / "demo.sqlite3")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "replay:" in line:
                break
        links = re.findall(r"http://127\.0\.0\.1:\d+/\S+", "".join(lines))
        assert [link.split("/")[3] for link in links] == ["table", "board", "hand"], lines
        for link in links:
            with urllib.request.urlopen(link, timeout=30) as r:
                assert r.status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_spectators_benchmark_delivers_every_move_once() -> None:
    """``python -m benchmarks.spectators`` at a tiny size: its figures add up (the delays
    themselves are measurements, not asserted)."""
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.spectators", "--tables", "2", "--spectators", "4",
         "--seconds", "2", "--interval", "0.2"], cwd=ROOT, capture_output=True, text=True,
        timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["moves"] > 0 and report["deliveries"] == 2 * report["moves"]
    assert (report["missed"], report["doubled"]) == (0, 0)
