"""``python -m bot``: start the bot with the settings from the environment or ``.env``."""

from __future__ import annotations

import asyncio
import logging
import sys

import discord

from bot.client import FilicauBot, point_at
from bot.settings import SettingsError, configure_logging, load_settings


async def run() -> int:
    try:
        settings = load_settings()
    except SettingsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    point_at(settings.discord_api_base, settings.discord_gateway_url)
    bot = FilicauBot(settings)
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value().strip())
    except discord.LoginFailure:
        print("error: Discord refused DISCORD_TOKEN: reset the token in the Developer Portal "
              "(Bot -> Reset Token) and put the new one in .env.", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("error: the bot asked for an intent the Developer Portal has not enabled.",
              file=sys.stderr)
        return 2
    return 0


def main() -> int:
    # The event loop shares the interpreter with the store's thread and the computer
    # players' pool threads: hand the lock over sooner than the default 5 ms, or a click
    # waits behind them (seen as p99 latency under load).
    sys.setswitchinterval(0.0005)
    try:
        return asyncio.run(run())
    except KeyboardInterrupt:
        logging.getLogger(__name__).info("stopped")
        return 0


if __name__ == "__main__":
    sys.exit(main())
