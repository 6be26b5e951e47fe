"""The README's shell commands, run as written: a command that breaks fails here.

Every line of the README's ``bash`` blocks is either run (engine commands and card pictures:
nothing there needs Discord) or listed in ``NOT_RUN`` with the reason; a new line that is
neither fails, so the list cannot silently fall behind the README.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.json"))

#: Lines not run here, by how they start, and why.
NOT_RUN = {
    "python3 -m venv": "the install (CI runs it, .ci/run)",
    "cp .env.example .env": "would overwrite a developer's .env",
    ".venv/bin/python -m bot ": "needs Discord (tests/test_e2e.py runs it against the stand-in)",
    ".venv/bin/python -m pytest": "the test suite itself",
    ".venv/bin/python -m benchmarks.load": "minutes of load (its own figures in the README)",
    ".venv/bin/python -m benchmarks.soak": "minutes of load (its own figures in the README)",
    "bash .ci/flake-hunt": "the whole suite twenty times",
    ".venv/bin/python -m engine bench --game filicau --hands 5000 --compare-openspiel":
        "needs the openspiel extra (a large wheel, kept out of the dev install)",
    ".venv/bin/python -m bot.migrate": "needs a PostgreSQL server to copy into "
                                        "(tests/test_migrate.py runs it against one)",
    "--to postgresql": "the second line of the migrate command above",
    "sudo ": "installs a system service (needs root and systemd; the units are checked by "
             "systemd-analyze where systemd runs)",
    "journalctl ": "reads a system service's log",
    "apt-get install": "installs a system package (.ci/run runs it)",
    ".venv/bin/python -m bot.web": "serves pages until stopped (tests/test_web_demo.py runs it "
                                   "for one hand)",
}


def readme_commands() -> list[str]:
    """The lines of the README's bash blocks, without their trailing comments."""
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line]


def runs(line: str) -> bool:
    return not any((line + " ").startswith(prefix) for prefix in NOT_RUN)


def test_every_readme_command_is_run_or_has_a_reason() -> None:
    commands = readme_commands()
    assert any("engine replay tests/golden/<file>.json" in c for c in commands)
    for line in commands:
        if runs(line):
            assert re.search(r"\.venv/bin/python -m (engine|bot\.cardart)\b", line), (
                f"README command {line!r}: run it in this test or say in NOT_RUN why not")


def shell(line: str, tmp_path: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    # The README's interpreter is the project's venv; run with this test's own interpreter.
    command = line.replace(".venv/bin/python", shlex.quote(sys.executable))
    return subprocess.run(["bash", "-c", command], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize("line", [c for c in readme_commands() if runs(c)])
def test_readme_command_runs(line: str, tmp_path: Path) -> None:
    if "<file>" in line:
        # The documented files: every golden record.
        for path in GOLDEN:
            golden = json.loads(path.read_text(encoding="utf-8"))
            done = shell(line.replace("<file>", path.stem), tmp_path)
            assert done.returncode == golden["exit_code"], (path.name, done.stderr)
            assert json.loads(done.stdout) == golden["expected"], path.name
        return
    # As written, but with fewer hands or deals: the command's shape is what is tested, not
    # the speed (an arena deal of Hard takes seconds).
    line = re.sub(r"--hands \d{4,}", "--hands 2000", line)
    line = re.sub(r"--deals \d+", "--deals 1", line)
    if " --out " in line:
        line = re.sub(r"--out \S+", f"--out {shlex.quote(str(tmp_path / 'out'))}", line)
    done = shell(line, tmp_path, stdin="1\n" * 60)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    if " engine arena " in line:
        assert "A - B outcome value per deal" in done.stdout
    if " engine bench " in line:
        reports = [json.loads(x) for x in done.stdout.splitlines()]
        assert reports and all(r["hands_per_second"] > 0 for r in reports)
    if " engine play " in line:
        assert "Points: your team" in done.stdout
    if " bot.cardart " in line:
        assert any(p.suffix == ".png" for p in (tmp_path / "out").iterdir())
