"""The bot's settings, from the environment or ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Literal

import discord
from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.store import StoreError, is_postgres_url, sqlite_path
from bot.store.shards import parse_shard_ids


class SettingsError(RuntimeError):
    """Settings that cannot start the bot; the message is one line saying what to set."""


class Settings(BaseSettings):
    # env_ignore_empty: a setting left empty (as in .env.example) takes its default.
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8",
                                      extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr = Field(default=SecretStr(""))
    database_path: Path = Path("data/filicau.sqlite3")
    #: A server id (a Discord snowflake: a positive 64-bit number).
    dev_guild_id: int | None = Field(default=None, gt=0, lt=2**64)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    #: Seconds between a computer's moves, so people can follow the table.
    computer_delay: float = 1.0
    #: Minimum seconds between two edits of one table message (Discord rate limits).
    edit_interval: float = 1.0
    #: Seconds a finished hand waits before the next one starts by itself.
    next_hand_delay: float = 30.0
    #: Seconds a person's turn waits before they are pinged (at tables that ping).
    ping_delay: float = 5.0
    #: Seconds a player waits in the queue of every server (``/play where:everywhere``)
    #: before computers are offered.
    crossplay_wait: float = Field(default=60.0, ge=0)
    #: The bot's operators (user ids, ``1,2``): they bar people from play across servers
    #: and read the reports; unset: the application's owner.
    operator_ids: Annotated[tuple[int, ...], NoDecode] = ()
    #: Worker processes in which computer players think (0: a thread; default: one per core
    #: beyond the first).
    ai_processes: int | None = Field(default=None, ge=0, le=64)
    #: Testing only: a local Discord stand-in instead of Discord.
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None

    # -- running at scale (docs/scale.md) --
    #: ``postgresql://user:password@host/db`` to share one PostgreSQL among several bot
    #: processes, or ``sqlite:///path``; unset: the SQLite file ``database_path``.
    database_url: SecretStr | None = None
    #: How many shards the bot has in all (every process the same number); unset: one shard
    #: (Discord requires more from 2,500 servers).
    shard_count: int | None = Field(default=None, ge=1, le=65535)
    #: The shards this process runs (``0-3``, ``0,2``); unset: all of them.
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None

    # -- web pages (bot.web, docs/web.md) --
    #: The address people open the pages at (``https://cards.example.org``, or
    #: ``http://127.0.0.1:8080`` locally); unset: no web server, no links.
    web_url: str | None = None
    #: Where this process's web server listens.
    web_host: str = "127.0.0.1"
    web_port: int = Field(default=8080, ge=0, le=65535)

    # -- the Discord Activity (bot.web.activity, docs/activity.md) --
    #: The application's OAuth2 client secret (Developer Portal -> OAuth2): with ``WEB_URL``,
    #: the table can be played as a Discord Activity, whose players the bot identifies by
    #: exchanging their authorization codes; unset: no Activity, no "Open the table" button.
    client_secret: SecretStr | None = None

    @field_validator("log_level", mode="before")
    @classmethod
    def _level(cls, v: object) -> object:
        return v.upper() if isinstance(v, str) else v

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, v: SecretStr | None) -> SecretStr | None:
        if v is not None and not is_postgres_url(url := v.get_secret_value()):
            try:
                sqlite_path(url)
            except StoreError:
                raise ValueError("DATABASE_URL must look like postgresql://user:password@host/"
                                 "database or sqlite:///data/filicau.sqlite3") from None
        return v

    @field_validator("web_url")
    @classmethod
    def _web_url(cls, v: str | None) -> str | None:
        if v is None:
            return None
        if not v.startswith(("http://", "https://")) or " " in v:
            raise ValueError("WEB_URL must be the pages' address, like https://cards.example.org")
        return v.rstrip("/")

    @field_validator("operator_ids", mode="before")
    @classmethod
    def _parse_operator_ids(cls, v: object) -> object:
        if isinstance(v, str):
            return tuple(int(x) for x in v.replace(" ", "").split(",") if x)
        return v

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, v: object) -> object:
        if v is None or v == "":
            return None
        return parse_shard_ids(v) if isinstance(v, str) else v

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids(cls, ids: tuple[int, ...] | None,
                   info: ValidationInfo) -> tuple[int, ...] | None:
        if ids is None:
            return None
        count: int | None = info.data.get("shard_count")
        if count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the number of shards in all")
        if any(not 0 <= i < count for i in ids):
            raise ValueError(f"shard ids go from 0 to SHARD_COUNT - 1 ({count - 1})")
        url: SecretStr | None = info.data.get("database_url")
        if len(set(ids)) < count and not (url and is_postgres_url(url.get_secret_value())):
            raise ValueError("a process running part of the shards shares the database with "
                             "the processes running the others: set DATABASE_URL to a "
                             "PostgreSQL database (SQLite serves one process)")
        return tuple(sorted(set(ids)))

    def check(self) -> None:
        token = self.discord_token.get_secret_value().strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot's token "
                "there (Discord Developer Portal -> your application -> Bot -> Reset Token)."
            )
        if any(ch.isspace() for ch in token) or token.count(".") != 2:
            raise SettingsError(
                "DISCORD_TOKEN does not look like a bot token (three parts separated by dots): "
                "copy it again from the Developer Portal -> Bot -> Reset Token."
            )


#: What to do about a setting refused, added to pydantic's message.
HINTS = {
    "dev_guild_id": " (a server id: turn on Developer Mode in Discord's settings, then "
                    "right-click the server -> Copy Server ID; or leave it empty)",
}


def load_settings(**overrides: object) -> Settings:
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as e:
        first = e.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        hint = HINTS.get(field, "")
        raise SettingsError(f"{field.upper() or 'settings'}: {first['msg']}{hint}") from None
    settings.check()
    return settings


def configure_logging(level: str) -> None:
    """discord.py's own log set-up for every logger, in the bot's one-line format (the
    stand-in tests and the load benchmark read levels from it as `` ERROR ``)."""
    discord.utils.setup_logging(
        level=logging.getLevelNamesMapping()[level], root=True,
        formatter=logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
