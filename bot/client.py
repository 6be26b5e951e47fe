"""The Bot subclass and the bot's wiring: it makes every part once and hands each what it
uses — the store, the servers' settings, a sender for Discord's HTTP, the registry of open
tables, the table service, the community, the web pages — then opens the store, claims its
shards, restores the tables and loads the cogs. No other module but the cogs (which only
route and answer) knows the bot (``tests/test_architecture.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import discord
import yarl
from aiohttp import web
from discord import app_commands
from discord.ext import commands

from bot import diagnostics, errors, logs, ratings, thinking, validate
from bot.activity import ActivityPlay, make_activity
from bot.clicks import Clicks
from bot.community import Community
from bot.courier import Surface
from bot.crossplay.hub import CROSSPLAY, Crossplay
from bot.crossplay.relay import CHANNEL as RELAY_CHANNEL
from bot.crossplay.relay import Relay
from bot.crossplay.venue import CrossplaySurface, VenueSession
from bot.delivery import Sender
from bot.discord_surface import DiscordSurface
from bot.gateway import guard_parsers
from bot.members import MemberNames
from bot.metrics import Metrics, TimedStore, serve
from bot.open_tables import OpenTable, OpenTables
from bot.runner import TableRunner
from bot.servers import Servers
from bot.service import TableService
from bot.session import TableSession
from bot.settings import Settings
from bot.store import GuildSettings, Store, is_postgres_url, make_store
from bot.store.shards import shard_of
from bot.texts import language_of, set_language
from bot.translator import CatalogTranslator
from bot.web.bus import Bus, LocalBus, PgBus
from bot.web.server import WebServer, start_web
from bot.web.surface import WebSurface

#: An application command of type PRIMARY_ENTRY_POINT (an Activity's *Launch*).
ENTRY_POINT = 4

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.tables", "cogs.records", "cogs.admin", "cogs.help", "cogs.ratings",
              "cogs.play", "cogs.tournaments", "cogs.league", "cogs.crossplay")

#: What the bot does in a channel: post and edit the table and results (View Channel, Send
#: Messages), as embeds (Embed Links) with card pictures (Attach Files), and its slash
#: commands (Use Application Commands); a table opened in its own thread needs Create Public
#: Threads and Send Messages in Threads; a tournament's scheduled event, Create Events. It reads
#: no messages.
PERMISSIONS = discord.Permissions(view_channel=True, send_messages=True, embed_links=True,
                                  attach_files=True, use_application_commands=True,
                                  create_public_threads=True, send_messages_in_threads=True,
                                  create_events=True)
SCOPES = ("bot", "applications.commands")

#: Interactions (slash commands, buttons) reach a bot whatever its intents: it needs only
#: the servers it is in (``guilds``), not their messages, typing or members.
INTENTS = discord.Intents.none()
INTENTS.guilds = True


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with exactly the permissions it needs."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)


def sync_marker(database_path: Path) -> Path:
    """The file beside the database that holds the hash of the last synced command tree."""
    return database_path.with_name(database_path.name + ".commands-synced")


def point_at(api_base: str | None, gateway: str | None) -> None:
    """Send discord.py's REST and gateway traffic to a local Discord stand-in (tests only)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


class Tree(app_commands.CommandTree["FilicauBot"]):
    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Every slash command: answer in the user's language, and remember the server's. A
        server command from a DM is refused here (Discord should not send one), and so are
        options the command does not declare (``bot.validate``), before discord.py reads
        them and before any query."""
        await self.client.enter(interaction)
        if not errors.well_formed(interaction):
            raise errors.MalformedInteraction()
        if interaction.guild_id is None and errors.guild_only(interaction.command):
            raise app_commands.NoPrivateMessage()
        validate.check_options(interaction)
        return True


class FilicauBot(commands.Bot):
    """The bot; with ``SHARD_COUNT`` set, a ``ShardedFilicauBot`` (discord.py's
    ``AutoShardedBot``) running the shards ``SHARD_IDS``."""

    #: Seconds between two tries to claim shards another process still holds.
    claim_retry = 1.0

    def __new__(cls, settings: Settings, store: Store | None = None, *,
                sync: bool = False) -> FilicauBot:
        if cls is FilicauBot and settings.shard_count is not None:
            cls = ShardedFilicauBot
        return super().__new__(cls)

    def __init__(self, settings: Settings, store: Store | None = None, *,
                 sync: bool = False) -> None:
        # The bot has no voice: discord.py's warnings that voice libraries are missing are
        # only noise in the start-up log.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        # Without SHARD_COUNT one shard (Discord requires more from 2,500 servers).
        shards: dict[str, Any] = {}
        if settings.shard_count is not None:
            shards["shard_count"] = settings.shard_count
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        mine = settings.shard_ids or tuple(range(settings.shard_count or 1))
        #: What the process measures (``bot.metrics``), served with ``METRICS_PORT``; its REST
        #: figures come through discord.py's own hook into its HTTP session.
        self.metrics = Metrics(",".join(map(str, mine)), shards=len(mine))
        self._metrics_page: web.AppRunner | None = None
        # No text commands: an empty prefix list matches no message (and with these intents
        # no message arrives).
        super().__init__(command_prefix=(), intents=INTENTS, help_command=None, tree_cls=Tree,
                         http_trace=self.metrics.http_trace(), **shards)
        guard_parsers(self._connection)  # a malformed gateway event is dropped, not fatal
        self.settings = settings
        #: Sync the slash commands even if they did not change (``python -m bot --sync``).
        self.force_sync = sync
        #: What start-up did about the slash commands, said once ready.
        self.sync_report = ""
        self._announced = False
        url = settings.database_url
        self.store: Store = cast(Store, TimedStore(
            store or make_store(None if url is None else url.get_secret_value(),
                                settings.database_path), self.metrics.store_seconds))
        self._watcher: asyncio.Task[None] | None = None
        self.tree.error(self.on_app_command_error)
        # The parts, each given what it uses. Nothing here reads another part: the
        # registry asks for a table's surfaces (``_discord``, ``_surfaces``) only when a
        # table opens, once the bot is set up.
        #: Each server's settings (language of public messages, pictures), read at start.
        self.servers = Servers(self.store)
        #: Discord's HTTP as the parts send with.
        self.sender = Sender(self)
        #: The open tables of this process.
        self.tables = OpenTables(self.store, settings, share=self.rate_share,
                                 discord=self._discord, surfaces=self._surfaces,
                                 ready=self.wait_until_ready)
        #: Every request of a table, whichever surface it came from.
        self.service = TableService(self.tables)
        #: Where each click goes (the cogs route their operations when they load).
        self.clicks = Clicks(self.enter, lambda: self.tables.closing)
        #: Finding a game and tournaments (issue 37): reminders, calls, tournaments.
        self.community = Community(store=self.store, servers=self.servers, sender=self.sender,
                                   tables=self.tables, service=self.service,
                                   ready=self.wait_until_ready, share=self.rate_share)
        #: Members' display names, kept a while (the leaderboard's picture, the web pages).
        count = settings.shard_count or 1
        self.crossplay = Crossplay(self.store, self.tables, self.service, sender=self.sender,
                                   venue=self._venue, wait=settings.crossplay_wait,
                                   owns=lambda guild_id: shard_of(guild_id, count) in mine)
        #: Clicks on venues of tables another shard process drives, carried there, and
        #: theirs here (``bot.crossplay.relay``): over PostgreSQL's LISTEN/NOTIFY.
        database = None if url is None else url.get_secret_value()
        bus: Bus = (PgBus(database, channel=RELAY_CHANNEL)
                    if database and is_postgres_url(database) else LocalBus())
        self.relay = Relay(self.store, bus, shards=mine, shard_count=count,
                           rebuild=self._rebuild, dispatch=self.clicks.dispatch)
        self.relay.withdrawn = self.crossplay.withdraw_here
        self.relay.reread = self.reread
        self.crossplay.elsewhere = self.relay.withdraw
        self._remember_interactions()
        self.member_names = MemberNames()
        #: The web pages (``bot.web``), when ``WEB_URL`` is set.
        self.web: WebServer | None = None
        self.metrics.read.tables = lambda: [
            (t.session.game, t.session.hand is not None and not t.session.hand.finished)
            for t in self.tables]
        self.metrics.read.sockets = self._sockets

    async def setup_hook(self) -> None:
        await self.store.open()
        await ratings.rebuild_if_stale(self.store)  # a migration may have marked them
        await self.claim_shards()
        await self.servers.load()
        await self.tree.set_translator(CatalogTranslator())
        processes = self.settings.ai_processes
        thinking.start(thinking.default_processes() if processes is None else processes)
        thinking.measure(self.metrics)
        diagnostics.install(self.tables, self._views_kept)
        play = ActivityPlay(self.tables, self.service, self.web_name, store=self.store,
                            carrier=self.relay)
        self.web = await start_web(self.settings, self.store, names=self.web_name,
                                   activity=make_activity(self.settings, self.application_id,
                                                          self.http.request, play))
        logging.getLogger().addHandler(self.metrics.errors_seen)
        if self.settings.metrics_port is not None:
            self._metrics_page = await serve(self.metrics, self.settings.metrics_host,
                                             self.settings.metrics_port)
        await self.tables.restore()
        await self.crossplay.restore()
        await self.community.restore()
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        await self.relay.start()
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Send the slash commands to Discord only when they changed since the last sync (or
        when told to): discord.py advises against syncing on every start (it is rate limited,
        and a global sync takes a while to reach every client). The hash of what was sent
        last is kept in a small file beside the database (``sync_marker``)."""
        guild = None
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        where = f"server {guild.id}" if guild else "all servers"
        translator = self.tree.translator
        commands_ = self.tree.get_commands(guild=guild)
        payload = [await c.get_translated_payload(self.tree, translator) if translator
                   else c.to_dict(self.tree) for c in commands_]
        digest = hashlib.sha256(json.dumps(
            {"application": self.application_id, "guild": guild and guild.id,
             "commands": payload}, sort_keys=True, default=str).encode()).hexdigest()
        marker = sync_marker(self.settings.database_path)
        try:
            last = marker.read_text(encoding="utf-8").strip()
        except OSError:
            last = ""
        if last == digest and not self.force_sync:
            self.sync_report = (f"slash commands unchanged since the last sync ({len(payload)} "
                                f"for {where}): not synced again (python -m bot --sync forces it)")
            return
        kept = [] if guild is not None else await self.entry_points()
        if kept:
            # Discord refuses a bulk update that leaves out the Entry Point command it made
            # when the application's Activities were enabled (50240), and discord.py's sync
            # knows no such command: the update is sent here, with it kept as it is.
            assert self.application_id is not None
            count = len(await self.http.bulk_upsert_global_commands(self.application_id,
                                                                    payload + kept))
        else:
            count = len(await self.tree.sync(guild=guild))
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(digest + "\n", encoding="utf-8")
        self.sync_report = f"synced {count} slash commands to {where}"

    async def entry_points(self) -> list[dict[str, Any]]:
        """The application's Entry Point commands (type 4, made by Discord when Activities
        are enabled in the Developer Portal: its *Launch*), as a bulk update carries them."""
        if self.application_id is None:
            return []
        existing = await self.http.get_global_commands(self.application_id)
        fields = ("id", "name", "name_localizations", "description",
                  "description_localizations", "type", "handler", "contexts",
                  "integration_types", "default_member_permissions")
        return [{k: c[k] for k in fields if k in c} for c in existing  # type: ignore[literal-required]
                if c.get("type") == ENTRY_POINT]

    async def on_ready(self) -> None:
        # READY comes again after a session is lost; the news is the first one.
        if self._announced:
            return
        self._announced = True
        user = self.user
        assert user is not None
        servers = len(self.guilds)
        log.info("ready as %s (%s) in %d server%s", user, user.id, servers,
                 "" if servers == 1 else "s")
        if self.application_id is not None:
            log.info("invite: %s", invite_url(self.application_id))
        log.info("%s", self.sync_report)

    @property
    def rate_share(self) -> float:
        """This process's share of the bot's request budget: Discord's global limit (50
        requests a second) is per token, shared by every process; each keeps to the share of
        the shards it runs, with no coordination between them."""
        count = self.settings.shard_count or 1
        return len(self.settings.shard_ids or range(count)) / count

    async def claim_shards(self) -> None:
        """Own the guilds of this process's shards before any table is restored or any event
        arrives: wait while another process (a previous one still stopping, or one of another
        shard count) holds any of them, and stop at once if the ownership is ever lost."""
        count = self.settings.shard_count or 1
        ids = self.settings.shard_ids or tuple(range(count))
        waited = 0
        while not await self.store.claim_shards(ids, count):
            if waited % 30 == 0:
                log.warning("shards %s of %d are still held by another process; waiting",
                            list(ids), count)
            waited += 1
            await asyncio.sleep(self.claim_retry)
        log.info("this process owns shards %s of %d", list(ids), count)
        self._watcher = asyncio.create_task(self._watch_ownership())

    async def _watch_ownership(self) -> None:
        await self.store.ownership_lost()
        log.critical("this process lost its shards (the database connection died): stopping, "
                     "so that no table is driven by two processes")
        await self.close()

    # -- what each table is shown on --------------------------------------------------------

    def _discord(self, session: TableSession, runner: TableRunner,
                 edit_interval: Callable[[], float]) -> DiscordSurface:
        web = self.web
        if session.row.settings.get(CROSSPLAY):
            # A table across servers: its home is one venue of several (bot.crossplay),
            # each linking the pages with its own server's key and opening the Activity.
            surface = CrossplaySurface(session, runner, edit_interval, sender=self.sender,
                                       servers=self.servers, pages=web,
                                       activity=self._activity_on)
            surface.members = lambda: self.crossplay.members(session.id, session.guild_id)
            return surface
        return DiscordSurface(session, runner, edit_interval, sender=self.sender,
                              servers=self.servers, pages=web, activity=self._activity_on)

    @property
    def _activity_on(self) -> bool:
        """The bot is a Discord Activity too: table messages offer *Open the table*."""
        return self.web is not None and self.web.activity is not None

    def _venue(self, session: VenueSession, runner: TableRunner) -> CrossplaySurface:
        """A cross-server table's surface in one more server: the table's session as that
        server's channel shows it (it is the table's session in all else)."""
        surface = CrossplaySurface(cast(TableSession, session), runner,
                                   self.tables.edit_interval, sender=self.sender,
                                   servers=self.servers, pages=self.web,
                                   activity=self._activity_on)
        table_id, guild_id = session.venue.table_id, session.guild_id
        surface.members = lambda: self.crossplay.members(table_id, guild_id)
        return surface

    def _surfaces(self, table: OpenTable) -> list[Surface]:
        """Where a table is shown, in the order each hears its news: its web pages first
        (they only announce the change, while the Discord surface waits for Discord's
        answers: a move from the Activity reaches the pages without them), its Discord
        messages, then the community's (reminders, calls, a tournament's)."""
        pages: list[Surface] = [] if self.web is None else [
            WebSurface(self.web.feed, table.id, table.runner.deadline)]
        return [*pages, table.discord, *self.community.surfaces(table)]

    def _sockets(self) -> dict[str, int]:
        """Open sockets of the web pages and of the Activity (``filicau_web_sockets``)."""
        web = self.web
        if web is None:
            return {}
        subscribers = [s for feed in web.feed.tables.values() for s in feed.subscribers]
        activity = sum(1 for s in subscribers if s.activity)
        return {"page": len(subscribers) - activity, "activity": activity}

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # Seen here, as the gateway hands it over: an interaction's answer time starts now.
        self.metrics.saw(event_name, args)
        super().dispatch(event_name, *args, **kwargs)

    def _remember_interactions(self) -> None:
        """Each component interaction's gateway payload, kept a moment by the relay (a click
        on a venue of a table another process drives is carried there as it came)."""
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]
        relay = self.relay

        def remembering(data: Any) -> None:
            relay.remember(data)
            parse(data)

        remembering._filicau_guarded = True  # type: ignore[attr-defined]
        parsers["INTERACTION_CREATE"] = remembering

    def _rebuild(self, payload: dict[str, Any]) -> discord.Interaction[Any]:
        """An interaction another process got, from its gateway payload, in this process."""
        return discord.Interaction(data=cast(Any, payload), state=self._connection)

    def _views_kept(self) -> int:
        """The views discord.py keeps (the bot's are stopped when made: none should be)."""
        store = self._connection._view_store
        return len(store._views) + len(store._synced_message_views)

    async def web_name(self, guild_id: int, member: str) -> str | None:
        """A member's name for the web pages, as Discord shows it in their server."""
        guild = self.get_guild(guild_id)
        return None if guild is None else await self.member_names.display_name(guild, member)

    # -- languages and server settings ---------------------------------------------------------

    @property
    def guild_config(self) -> dict[int, GuildSettings]:
        """Each server's settings (language of public messages, pictures), read at start."""
        return self.servers.known

    def config(self, guild_id: int | None) -> GuildSettings:
        return self.servers.config(guild_id)

    def public_language(self, guild_id: int | None) -> str:
        """The language of a server's public messages: its Discord locale as last seen."""
        return self.servers.public_language(guild_id)

    async def enter(self, interaction: discord.Interaction[Any]) -> None:
        """An interaction starts: its handler speaks the user's language (their ephemeral
        answers), and the server's locale is remembered for public messages sent later
        (the table refresh, results, timers). Its log lines are about the table it finds
        (``bot.logs``)."""
        logs.serving()
        set_language(language_of(interaction.locale))
        guild_id = interaction.guild_id
        locale = getattr(interaction.guild_locale, "value", None)
        # Only what Discord can send is remembered (a snowflake, a locale's name): anything
        # else is a forged interaction, refused by its handler.
        if not errors.snowflake(guild_id) or not isinstance(locale, str) or len(locale) > 16:
            return
        assert guild_id is not None
        await self.servers.saw_locale(guild_id, locale)

    async def update_config(self, settings: GuildSettings) -> None:
        """A server's settings changed (``/admin``): stored, and shown from now on by every
        process, its tables and pages."""
        await self.servers.update(settings)
        self.redraw(settings.guild_id)
        await self.relay.settings_changed(settings.guild_id)
        if self.web is not None:
            await self.web.settings_changed(settings.guild_id)

    async def reread(self, guild_id: int) -> None:
        """Another process changed a server's settings: read again, and shown."""
        await self.servers.load()
        self.redraw(guild_id)

    def redraw(self, guild_id: int) -> None:
        """The tables in play in a server show its settings at their next refresh (now),
        also those of other servers that it shows."""
        for table in self.tables:
            if table.session.guild_id == guild_id and table.session.state == "playing":
                table.discord.request_refresh()
        for surface in self.crossplay.surfaces_in(guild_id):
            if surface.session.state == "playing":
                surface.request_refresh()

    async def close(self) -> None:
        if self._watcher is not None and self._watcher is not asyncio.current_task():
            self._watcher.cancel()
        # discord.py waits a moment after READY before dispatching "ready"; a bot stopped in
        # that moment would dispatch it after closing (a traceback in the log): cancel it.
        ready: asyncio.Task[None] | None = getattr(self._connection, "_ready_task", None)
        if ready is not None and not ready.done():
            ready.cancel()
        for task in self.community.stop():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.crossplay.stop()
        await self.relay.stop()
        await self.tables.stop()
        if self.web is not None:
            await self.web.stop()
        if self._metrics_page is not None:
            await self._metrics_page.cleanup()
            self._metrics_page = None
        await super().close()
        thinking.stop()
        thinking.measure(None)
        logging.getLogger().removeHandler(self.metrics.errors_seen)
        await self.store.close()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every component click: ``bot.clicks`` reads, routes and answers it."""
        await self.clicks.dispatch(interaction)

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await errors.on_app_command_error(interaction, error)

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        log.exception("unhandled error in %s", event_method)


class ShardedFilicauBot(FilicauBot, commands.AutoShardedBot):
    """The bot as discord.py's ``AutoShardedBot``: the shards ``SHARD_IDS`` of
    ``SHARD_COUNT`` in this process, each with its own gateway session."""
