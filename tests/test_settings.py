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


@pytest.mark.slow
def test_missing_token_says_what_to_set(tmp_path: Path) -> None:
    done = run_bot(tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN is not set" in lines[0] and ".env" in lines[0]
    assert "Traceback" not in done.stderr


@pytest.mark.slow
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


# -- running at scale --------------------------------------------------------------------------


@pytest.fixture
def scale_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.chdir(tmp_path)  # no developer's .env
    monkeypatch.setenv("DISCORD_TOKEN", "aaaa.bbbb.cccc")
    for key in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(key, raising=False)
    return monkeypatch


def test_one_process_on_sqlite_is_the_default(scale_env: pytest.MonkeyPatch) -> None:
    s = load_settings()
    assert (s.database_url, s.shard_count, s.shard_ids) == (None, None, None)
    scale_env.setenv("DATABASE_URL", "")
    scale_env.setenv("SHARD_COUNT", "")
    scale_env.setenv("SHARD_IDS", "")  # left empty as in .env.example
    s = load_settings()
    assert (s.database_url, s.shard_count, s.shard_ids) == (None, None, None)


def test_shard_settings_of_a_process(scale_env: pytest.MonkeyPatch) -> None:
    scale_env.setenv("DATABASE_URL", "postgresql://bot:pa55w0rd@db/filicau")
    scale_env.setenv("SHARD_COUNT", "8")
    scale_env.setenv("SHARD_IDS", "4-7")
    s = load_settings()
    assert s.database_url is not None
    assert s.database_url.get_secret_value() == "postgresql://bot:pa55w0rd@db/filicau"
    assert "pa55w0rd" not in repr(s)  # the password stays out of logs
    assert (s.shard_count, s.shard_ids) == (8, (4, 5, 6, 7))
    scale_env.setenv("SHARD_IDS", "0,2")
    assert load_settings().shard_ids == (0, 2)


@pytest.mark.parametrize(("env", "message"), [
    ({"SHARD_IDS": "0-1"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "2-5",
      "DATABASE_URL": "postgresql://db/x"}, "from 0 to SHARD_COUNT - 1 \\(3\\)"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "x"}, "not a shard id"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "0-1"}, "PostgreSQL"),  # part of the shards on SQLite
    ({"DATABASE_URL": "mysql://db/x"}, "DATABASE_URL must look like postgresql://"),
])
def test_shard_and_database_settings_that_cannot_work_are_refused(
    scale_env: pytest.MonkeyPatch, env: dict[str, str], message: str
) -> None:
    for key, value in env.items():
        scale_env.setenv(key, value)
    with pytest.raises(SettingsError, match=message):
        load_settings()


def test_all_shards_in_one_process_may_use_sqlite(scale_env: pytest.MonkeyPatch) -> None:
    scale_env.setenv("SHARD_COUNT", "4")
    assert load_settings().shard_ids is None
    scale_env.setenv("SHARD_IDS", "0-3")
    scale_env.setenv("DATABASE_URL", "sqlite:///data/x.sqlite3")
    assert load_settings().shard_ids == (0, 1, 2, 3)
