"""Starting the bot: a missing or malformed token ends with one clear line, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[1]


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    # Run from an empty folder so that no developer's .env is read.
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, capture_output=True, text=True,
        env={**clean, "PYTHONPATH": str(ROOT), **env}, timeout=60, check=False,
    )


def test_missing_token_says_what_to_set(tmp_path: Path) -> None:
    done = run_bot(tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN is not set" in lines[0] and ".env" in lines[0]
    assert "Traceback" not in done.stderr


def test_malformed_token_is_refused_before_connecting(tmp_path: Path) -> None:
    done = run_bot(tmp_path, DISCORD_TOKEN="not a token")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "does not look like a bot token" in lines[0]


def test_settings_from_a_dotenv_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key in list(os.environ):
        if key.startswith("DISCORD_") or key in ("DATABASE_PATH", "LOG_LEVEL", "DEV_GUILD_ID",
                                                 "AI_PROCESSES"):
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=aaaa.bbbb.cccc\nDATABASE_PATH=x/y.sqlite3\nDEV_GUILD_ID=\nLOG_LEVEL=debug\n"
        "AI_PROCESSES=\n"
    )
    s = load_settings()
    assert s.discord_token.get_secret_value() == "aaaa.bbbb.cccc"
    assert s.database_path == Path("x/y.sqlite3")
    assert s.dev_guild_id is None and s.log_level == "DEBUG"
    # Left empty as in .env.example: the default number of worker processes.
    assert s.ai_processes is None


def test_a_negative_number_of_ai_processes_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "aaaa.bbbb.cccc")
    monkeypatch.setenv("AI_PROCESSES", "-1")
    with pytest.raises(SettingsError, match="AI_PROCESSES"):
        load_settings()


def test_bad_log_level_names_the_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "aaaa.bbbb.cccc")
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    with pytest.raises(SettingsError, match="LOG_LEVEL"):
        load_settings()
