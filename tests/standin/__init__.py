"""A local Discord stand-in for end-to-end tests and the load benchmark (docs/standin.md: "The
local Discord stand-in")."""

from .discord_objects import APP_ID, FIRST_CHANNEL_ID, GUILD_ID, Message, User
from .process import BotProcess, serving, shard_process
from .schema import SchemaCheck
from .server import CHANNEL_MESSAGE, UPDATE_MESSAGE, Interaction, StandIn
from .users import Player

__all__ = ["APP_ID", "CHANNEL_MESSAGE", "FIRST_CHANNEL_ID", "GUILD_ID", "UPDATE_MESSAGE",
           "BotProcess", "Interaction", "Message", "Player", "SchemaCheck", "StandIn", "User",
           "serving", "shard_process"]
