"""The bot's settings, from the environment or ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class SettingsError(RuntimeError):
    """Settings that cannot start the bot; the message is one line saying what to set."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8",
                                      extra="ignore")

    discord_token: SecretStr = Field(default=SecretStr(""))
    database_path: Path = Path("data/filicau.sqlite3")
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    #: Seconds between a computer's moves, so people can follow the table.
    computer_delay: float = 1.0
    #: Minimum seconds between two edits of one table message (Discord rate limits).
    edit_interval: float = 1.0
    #: Seconds a finished hand waits before the next one starts by itself.
    next_hand_delay: float = 30.0
    #: Seconds a person's turn waits before they are pinged (at tables that ping).
    ping_delay: float = 5.0
    #: Worker processes in which computer players think (0: a thread; default: one per core
    #: beyond the first).
    ai_processes: int | None = Field(default=None, ge=0, le=64)
    #: Testing only: a local Discord stand-in instead of Discord.
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None

    @field_validator("dev_guild_id", "discord_api_base", "discord_gateway_url", "ai_processes",
                     mode="before")
    @classmethod
    def _empty_is_none(cls, v: object) -> object:
        return None if v == "" else v

    @field_validator("log_level")
    @classmethod
    def _level(cls, v: str) -> str:
        level = v.upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level

    def check(self) -> None:
        token = self.discord_token.get_secret_value().strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot's token "
                "there (Discord Developer Portal -> your application -> Bot -> Token)."
            )
        if any(ch.isspace() for ch in token) or token.count(".") != 2:
            raise SettingsError(
                "DISCORD_TOKEN does not look like a bot token (three parts separated by dots): "
                "copy it again from the Developer Portal -> Bot -> Reset Token."
            )


def load_settings(**overrides: object) -> Settings:
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]).upper() or "settings"
        raise SettingsError(f"{where}: {first['msg']}") from None
    settings.check()
    return settings


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
