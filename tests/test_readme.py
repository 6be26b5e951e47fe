"""The documented shell commands, run as written: a command that breaks fails here.

Every line of the ``bash`` blocks of the README and of the pages in ``docs/`` is either run
(engine commands and card pictures: nothing there needs Discord) or listed in ``NOT_RUN`` with
the reason; a new line that is neither fails, so the list cannot silently fall behind the
documentation. The README's links to files in the repository must lead somewhere (the pages in
``docs/`` are checked by ``mkdocs build --strict``).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rules import GAMES

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").rglob("*.md"))]
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.json"))

#: Lines not run here, by how they start, and why.
NOT_RUN = {
    "python3 -m venv": "the install (CI runs it, .ci/run)",
    "cp .env.example .env": "would overwrite a developer's .env",
    ".venv/bin/python -m bot ": "needs Discord (tests/test_e2e.py runs it against the stand-in)",
    ".venv/bin/python -m pytest": "the test suite itself",
    "bash .ci/run": "CI itself: a fresh install and every test",
    ".venv/bin/mkdocs build": "CI builds the site (.ci/run)",
    ".venv/bin/python tools/card_pictures.py --docs": "rewrites the documentation's pictures "
                                                      "in the tree",
    ".venv/bin/python tools/capture_hand.py": "plays a hand through the Discord fake for the "
                                              "pictures of docs/messages.md (by hand)",
    ".venv/bin/python tools/render_messages.py": "draws docs/messages.md's pictures in Chromium, "
                                                 "into the tree (by hand)",
    ".venv/bin/python tools/capture_community.py": "finds a game and holds a tournament through "
                                                   "the Discord fake for docs/messages.md's "
                                                   "pictures (by hand)",
    ".venv/bin/python tools/capture_states.py": "plays every table state through the Discord "
                                                "fake for docs/messages.md's pictures (by hand)",
    ".venv/bin/python -m benchmarks.load": "minutes of load (its own figures in the docs)",
    ".venv/bin/python -m benchmarks.soak": "minutes of load (its own figures in the docs)",
    ".venv/bin/python -m benchmarks.cpu_sample": "reads the samples a load run wrote",
    "bash .ci/flake-hunt": "the whole suite twenty times",
    ".venv/bin/python -m engine bench --game filicau --hands 5000 --compare-openspiel":
        "needs the openspiel extra (a large wheel, kept out of the dev install)",
    ".venv/bin/python -m bot.migrate": "needs a PostgreSQL server to copy into "
                                        "(tests/test_migrate.py runs it against one; "
                                        "tests/test_upgrade.py the upgrade's, as documented)",
    "--to postgresql": "the second line of the migrate command above",
    ".venv/bin/python -m bot.backup": "copies a running bot's database (tests/test_backup.py "
                                      "runs each documented line, on SQLite and PostgreSQL)",
    "createdb ": "makes a PostgreSQL database (tests/test_backup.py makes the scratch one)",
    "pg_restore ": "reads a backup (tests/test_backup.py runs it on the copy it made)",
    "systemctl list-timers": "reads systemd's timers (needs systemd)",
    "sudo ": "installs a system service (needs root and systemd; the units are checked by "
             "systemd-analyze where systemd runs)",
    "journalctl ": "reads a system service's log",
    "apt-get install": "installs a system package (.ci/run runs it)",
    ".venv/bin/python -m bot.web": "serves pages until stopped (tests/test_web_demo.py runs it "
                                   "for one hand)",
    ".venv/bin/python tools/activity_demo.py": "runs the bot and the stand-in until stopped "
                                               "(tests/browser/test_activity_demo.py runs it "
                                               "for one hand)",
    "cd activity && npm ci": "needs Node; CI runs it and compares the bundle (.ci/run)",
    ".venv/bin/python -m benchmarks.activity": "a minute of Chromium and the real bot (its "
                                               "figures in docs/activity.md)",
}

#: What a documented command may run here: the engine, and the card pictures' tools.
RUNNABLE = re.compile(r"\.venv/bin/python (-m engine\b|tools/card_pictures\.py)")


def commands_in(path: Path) -> list[str]:
    """The lines of a document's bash blocks, without their trailing comments."""
    blocks = re.findall(r"```bash\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line]


def documented_commands() -> list[str]:
    """Every documented command once, the README's first."""
    return list(dict.fromkeys(c for path in DOCUMENTS for c in commands_in(path)))


def runs(line: str) -> bool:
    return not any((line + " ").startswith(prefix) for prefix in NOT_RUN)


def test_every_documented_command_is_run_or_has_a_reason() -> None:
    commands = documented_commands()
    assert any("engine replay tests/golden/<file>.json" in c for c in commands)
    for line in commands:
        if runs(line):
            assert RUNNABLE.search(line), (
                f"documented command {line!r}: run it in this test or say in NOT_RUN why not")


def test_the_readme_shows_the_install_the_bot_the_tests_and_the_terminal_game() -> None:
    """What a newcomer needs first is on the README itself, not only somewhere in docs/."""
    readme = commands_in(README)
    for needed in (".venv/bin/pip install -e .", ".venv/bin/pip install -e '.[dev,docs]'",
                   ".venv/bin/python -m bot", '.venv/bin/python -m pytest -m "not slow"',
                   ".venv/bin/python -m engine play --game filicau"):
        assert any(needed in line for line in readme), needed


def test_the_readme_fits_a_few_screens() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines: move the details to docs/"


def test_the_readmes_links_lead_to_files_and_headings_that_exist() -> None:
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    assert local, "the README links to no page of docs/"
    for target in local:
        path, _, anchor = target.partition("#")
        assert (ROOT / path).exists(), f"README links to {target}: no such file"
        if anchor:
            headings = re.findall(r"^#+ (.+)$", (ROOT / path).read_text(encoding="utf-8"), re.M)
            slugs = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-")
                     for h in headings}
            assert anchor in slugs, f"README links to {target}: no such heading"


def shell(line: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    # The documents' interpreter is the project's venv; run with this test's own interpreter.
    command = line.replace(".venv/bin/python", shlex.quote(sys.executable))
    return subprocess.run(["bash", "-c", command], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.slow
@pytest.mark.parametrize("line", [c for c in documented_commands() if runs(c)])
def test_documented_command_runs(line: str, tmp_path: Path) -> None:
    if "<file>" in line:
        # The documented files: every golden record.
        for path in GOLDEN:
            golden = json.loads(path.read_text(encoding="utf-8"))
            done = shell(line.replace("<file>", path.stem))
            assert done.returncode == golden["exit_code"], (path.name, done.stderr)
            assert json.loads(done.stdout) == golden["expected"], path.name
        return
    # As written, but with fewer hands or deals: the command's shape is what is tested, not
    # the speed (an arena deal of Hard takes seconds).
    line = re.sub(r"--hands \d{4,}", "--hands 2000", line)
    line = re.sub(r"--deals \d+", "--deals 1", line)
    if " --out " in line:
        line = re.sub(r"--out \S+", f"--out {shlex.quote(str(tmp_path / 'out'))}", line)
    done = shell(line, stdin="1\n" * 60)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    if " engine arena " in line:
        assert "A - B outcome value per deal" in done.stdout
    if " engine bench " in line:
        reports = [json.loads(x) for x in done.stdout.splitlines()]
        assert reports and all(r["hands_per_second"] > 0 for r in reports)
    if " engine play " in line:
        assert "Points: your team" in done.stdout
    if " tools/card_pictures.py " in line and " --out " in line:
        assert any(p.suffix == ".png" for p in (tmp_path / "out").iterdir())


#: Counts as the README may write them in words.
_COUNT_WORDS = {w: n for n, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty"))}


def test_the_readme_counts_no_other_number_of_games_than_the_engine_has() -> None:
    """Issue 44: the README said "twelve games" where ``python -m engine play --help`` lists
    thirteen. A count of games, in words or digits, is the engine's."""
    text = README.read_text(encoding="utf-8")
    for word in re.findall(r"\b(\w+) (?:card )?games\b", text):
        count = int(word) if word.isdigit() else _COUNT_WORDS.get(word.lower())
        assert count is None or count == len(GAMES), word


def test_the_readme_installs_system_packages_without_assuming_sudo() -> None:
    """Issue 44: ``sudo apt-get`` fails where there is no sudo (a container run as root)."""
    lines = commands_in(README)
    assert not [line for line in lines if line.startswith("sudo apt-get")]
    for line in lines:
        if line.startswith("apt-get install"):
            full = next(raw for raw in README.read_text(encoding="utf-8").splitlines()
                        if raw.startswith(line))
            assert "as root, or with sudo" in full, full
