"""The bot's web server (aiohttp): live tables, replays, leaderboards and profiles.

Started with the bot when ``WEB_URL`` is set (``WebServer(settings, store).start()``), on
``WEB_HOST``:``WEB_PORT``; ``WEB_URL`` is the address people reach it at (behind a proxy,
perhaps), from which every link is made. Every page is built from the store, so any process
of a bot with shard processes serves any page; what changes reaches the pages through the
bus (``bot.web.bus``: in-process on SQLite, PostgreSQL ``LISTEN``/``NOTIFY`` otherwise).

Routes (``TOKEN``: ``bot.web.keys``; a bad, rotated or switched-off token is a bare 404):

- ``/table/TOKEN``: a table, live; ``/ws/table/TOKEN`` its socket (``bot.web.protocol``);
- ``/hand/TOKEN``: a finished hand, replayed; ``POST /hand/TOKEN/analysis`` its analysis
  board (``bot.web.board``: another move at a position, the computers play on);
  ``/table/TOKEN/hand/ID`` sends a table's page on to the replay of its finished hand ``ID``
  (the page links it when the hand ends);
- ``/board/TOKEN?game=G&season=N[&where=everywhere]``: a server's leaderboard (or the
  ladder of play across servers); ``/player/TOKEN?game=G&season=N``:
  a player's profile;
- ``/static/NAME``, ``/static/pages/NAME``, ``/cards/FACES/THEME/LANG/CODE.png``: the pages'
  CSS, scripts (built from ``activity/``, the one browser client) and card faces (nothing
  secret; each face at one spelling only, ``bot.web.cards``);
- ``/health``: ``ok``, for a load balancer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlencode

import jinja2
from aiohttp import WSMsgType, web

from bot import boards, seals
from bot.leagues.shown import on_page
from bot.leagues.sql import Leagues
from bot.store import EVERYWHERE, Store, is_postgres_url
from bot.texts import showing, speaking, t
from bot.voice.table import Table
from bot.watch import WATCH_OFF
from bot.web import cards, protocol
from bot.web.assets import Assets
from bot.web.board import Refused, play_out
from bot.web.bus import Bus, LocalBus, PgBus
from bot.web.guilds import GuildConfigs
from bot.web.keys import Keys, Kind, sign
from bot.web.live import Feed, Subscriber, snapshot
from bot.web.rankings import board_lines, current_season, game_name, games, profile
from bot.web.refusals import SECURITY_HEADERS, Runner, not_found, refusal
from bot.web.views import replay_steps
from engine.ai.analysis import review_from_json
from engine.rules import GAMES

if TYPE_CHECKING:
    from bot.web.activity import Activity

log = logging.getLogger(__name__)


class WebSettings(Protocol):
    """What the server reads of the bot's settings (``bot.settings.Settings``)."""

    @property
    def web_url(self) -> str | None: ...
    @property
    def web_host(self) -> str: ...
    @property
    def web_port(self) -> int: ...
    #: A ``SecretStr`` or plain text (``postgresql://...``: the bus listens there).
    @property
    def database_url(self) -> Any: ...


#: A display name for a member of a server, if the bot knows one (the lead wires the bot's
#: own lookup; without it, the names the tables keep are used).
Names = Callable[[int, str], Awaitable[str | None]]

STATIC = ("web.css",)
#: The pages' scripts, built from the one browser client (``activity/``: ``npm run build``,
#: sharing the Activity's socket and drawing).
SCRIPTS = ("table.js", "replay.js")
#: Whose ratings the leaderboard page shows: the server's own, or the ladder of play across
#: servers (``/board/TOKEN?where=everywhere``).
WHERES = ("here", "everywhere")
#: Names kept from the tables' settings for the leaderboard (memory stays flat).
NAMES_KEPT = 5000
#: The analysis board's lines kept (the same question is answered from memory), and how
#: many are played out at once: a line costs a second of CPU, and anyone with a replay's
#: link may ask, so the asking waits in turn instead of taking the process's cores.
ANALYSES_KEPT = 256
ANALYSES_AT_ONCE = 1


def _json_script(value: Any) -> str:
    """JSON to put inside ``<script type="application/json">`` (no ``</script>`` inside)."""
    return (json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


class WebServer:
    """The web pages of the bot. ``start()`` and ``stop()`` with the bot; the bot calls
    ``feed.changed(table_id)`` after every stored change of a table, and asks for links
    (``table_link``, ``hand_link``, ``board_link``, ``player_link``) for its messages."""

    def __init__(self, settings: WebSettings, store: Store, *, names: Names | None = None,
                 bus: Bus | None = None, activity: Activity | None = None) -> None:
        assert settings.web_url, "WEB_URL is not set: the pages are off"
        self.settings = settings
        self.base = settings.web_url.rstrip("/")
        self.store = store
        self.names = names
        if bus is None:
            url = settings.database_url
            url = url.get_secret_value() if hasattr(url, "get_secret_value") else url
            bus = PgBus(url) if url and is_postgres_url(url) else LocalBus()
        self.keys = Keys(store)
        self.guilds = GuildConfigs(store)
        self.leagues = Leagues(store.db)  # type: ignore[attr-defined]
        self.feed = Feed(store, bus, self.keys, self.guilds)
        self._seen_names: OrderedDict[tuple[int, str], str] = OrderedDict()
        self._analyses: OrderedDict[tuple[int, int, str, str, str], list[dict[str, Any]]] = (
            OrderedDict())
        self._analysing = asyncio.Semaphore(ANALYSES_AT_ONCE)
        self.env = jinja2.Environment(
            loader=jinja2.PackageLoader("bot.web", "templates"),
            autoescape=jinja2.select_autoescape(default=True), trim_blocks=True,
            lstrip_blocks=True, auto_reload=False)
        #: The Discord Activity's routes (``bot.web.activity``), when it is on.
        self.activity = activity
        self.static = Assets("static", STATIC)
        self.scripts = Assets("static/pages", SCRIPTS)
        self.app = self._app()
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    # -- life ------------------------------------------------------------------------------

    def _app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers], client_max_size=4096)
        app.add_routes([
            web.get("/table/{token}", self.table_page),
            web.get("/table/{token}/hand/{hand:[0-9]{1,18}}", self.to_replay),
            web.get("/ws/table/{token}", self.table_socket),
            web.get("/hand/{token}", self.hand_page),
            web.post("/hand/{token}/analysis", self.analysis),
            web.get("/board/{token}", self.board_page),
            web.get("/player/{token}", self.player_page),
            web.get("/static/{name}", self.static.serve),
            web.get("/static/pages/{name}", self.scripts.serve),
            web.get("/cards/{faces}/{theme}/{lang}/{code}.png", self.card),
            web.get("/health", self.health),
        ])
        if self.activity is not None:
            app.add_routes(self.activity.attach(self))
        return app

    async def start(self) -> None:
        await self.feed.start()
        self._runner = Runner(self.app, access_log=None, handle_signals=False,
                                     shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.web_host, self.settings.web_port,
                           reuse_address=True)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else self.settings.web_port
        log.info("web pages at %s (listening on %s:%s)", self.base, self.settings.web_host,
                 self.port)

    async def stop(self) -> None:
        await self.feed.stop()
        if self.activity is not None:
            await self.activity.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- links -----------------------------------------------------------------------------

    async def _link(self, guild_id: int, kind: Kind, obj: int = 0,
                    query: dict[str, Any] | None = None) -> str | None:
        key = await self.keys.for_links(guild_id)
        if not key.enabled:
            return None
        tail = f"?{urlencode(query)}" if query else ""
        return f"{self.base}/{kind.value}/{sign(key, kind, obj)}{tail}"

    async def table_link(self, guild_id: int, table_id: int) -> str | None:
        """The table's live page (None while the server's pages are off)."""
        return await self._link(guild_id, Kind.TABLE, table_id)

    async def hand_link(self, guild_id: int, hand_id: int) -> str | None:
        """A hand's replay (the stored hand id, not its number at the table)."""
        return await self._link(guild_id, Kind.HAND, hand_id)

    async def board_link(self, guild_id: int, game: str | None = None,
                         season: int | None = None) -> str | None:
        query = {k: v for k, v in (("game", game), ("season", season)) if v is not None}
        return await self._link(guild_id, Kind.BOARD, 0, query or None)

    async def player_link(self, guild_id: int, user_id: int, game: str | None = None,
                          season: int | None = None) -> str | None:
        query = {k: v for k, v in (("game", game), ("season", season)) if v is not None}
        return await self._link(guild_id, Kind.PLAYER, user_id, query or None)

    # -- what an admin changes -------------------------------------------------------------

    async def rotate(self, guild_id: int) -> None:
        """A new key for the server: every link made before is refused, in every process."""
        await self.keys.rotate(guild_id)
        await self.feed.key_changed(guild_id)

    async def switch(self, guild_id: int, on: bool) -> None:
        await self.keys.switch(guild_id, on)
        await self.feed.key_changed(guild_id)

    async def settings_changed(self, guild_id: int) -> None:
        """A server's settings were changed: its pages show them from now on, in every
        process."""
        await self.feed.settings_changed(guild_id)

    # -- requests ----------------------------------------------------------------------------

    @web.middleware
    async def _headers(self, request: web.Request,
                       handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                       ) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as e:
            if e.status < 400:
                # A redirect: sent as raised, with the headers every answer carries.
                for name, value in SECURITY_HEADERS.items():
                    e.headers.setdefault(name, value)
                raise
            response = not_found() if e.status == 404 else refusal(e)
        if not response.prepared:
            for name, value in SECURITY_HEADERS.items():
                # A response may say otherwise (the Activity is framed by Discord's client).
                response.headers.setdefault(name, value)
        return response

    async def health(self, request: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def card(self, request: web.Request) -> web.Response:
        info = request.match_info
        faces, theme, lang, code = info["faces"], info["theme"], info["lang"], info["code"]
        if not cards.known(faces, theme, lang, code):
            raise web.HTTPNotFound()
        data = await asyncio.to_thread(cards.card_png, faces, theme, lang, code)
        return web.Response(body=data, content_type="image/png", headers={
            "Cache-Control": "public, max-age=31536000, immutable"})

    def _page(self, template: str, lang: str, **context: Any) -> web.Response:
        with speaking(lang):
            html = self.env.get_template(template).render(
                t=t, lang=lang, static=self.static.addresses("/static/")
                | self.scripts.addresses("/static/pages/"), **context)
        return web.Response(text=html, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-store"})

    async def _shows(self, guild_id: int, table: Any) -> bool:
        """Whether the server of a link shows the table: its home, or (a table across
        servers) one of its venues. Each server's pages are its own (its key, language and
        card faces); a link never opens the table as another server shows it."""
        if table.guild_id == guild_id:
            return True
        return any(v.guild_id == guild_id for v in await self.store.venues(table.id))

    # -- a table, live -------------------------------------------------------------------------

    async def table_page(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        found = await self.keys.verify(Kind.TABLE, token)
        if found is None:
            raise web.HTTPNotFound()
        guild_id, table_id = found
        table = await self.store.get_table(table_id)
        if table is None or not await self._shows(guild_id, table):
            raise web.HTTPNotFound()
        config = await self.guilds.get(guild_id)
        lang = await self.guilds.language(guild_id)
        self._learn(guild_id, table.runtime.get("names"))
        watch = await self.guilds.watch(guild_id, table)
        first = None
        if watch != WATCH_OFF:
            tf = self.feed.tables.get((table_id, guild_id))
            first = (await snapshot(self.store, table, lang, watch, deadline=tf.deadline if tf
                                    is not None else None,
                                    faces=cards.faces_of(table.game, config.faces))
                     ).model_dump(mode="json")
        with speaking(lang):
            texts = _page_texts()
        return self._page("table.html", lang, watch=watch, theme=config.theme,
                          first=_json_script(first) if first else None,
                          texts=_json_script(texts), socket=f"/ws/table/{token}",
                          replays=f"/table/{token}/hand/",
                          cards=cards.base(cards.faces_of(table.game, config.faces), config.theme,
                                           lang))

    async def to_replay(self, request: web.Request) -> web.StreamResponse:
        """From a table's page to the replay of one of its hands, once that hand is over
        (the page knows the hand's id, not its signed link): a 404 for a hand in play or of
        another table, as for any wrong link."""
        found = await self.keys.verify(Kind.TABLE, request.match_info["token"])
        if found is None:
            raise web.HTTPNotFound()
        guild_id, table_id = found
        row = await self.store.hand(int(request.match_info["hand"]))
        if row is None or row.table_id != table_id or row.result is None:
            raise web.HTTPNotFound()
        link = await self.hand_link(guild_id, int(request.match_info["hand"]))
        if link is None:
            raise web.HTTPNotFound()
        raise web.HTTPFound(link.removeprefix(self.base), headers={"Cache-Control": "no-store"})

    async def _back_to(self, guild_id: int, table_id: int) -> str:
        """The address of a table's live page, for the way back from a replay."""
        return f"/table/{sign(await self.keys.for_links(guild_id), Kind.TABLE, table_id)}"

    async def table_socket(self, request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        found = await self.keys.verify(Kind.TABLE, token)
        if found is None:
            raise web.HTTPNotFound()
        guild_id, table_id = found
        table = await self.store.get_table(table_id)
        if table is None or not await self._shows(guild_id, table):
            raise web.HTTPNotFound()
        sub = Subscriber(table_id, guild_id, token, protocol.SPECTATOR)

        async def answer(message: protocol.Message) -> None:
            # A page's viewer is nobody in particular: only the Activity's players act
            # (bot.web.activity).
            sub.send(protocol.dump(protocol.Refusal(reason="not_seated")))

        return await self.run_socket(request, sub, protocol.hello(
            sub.viewer, await self.guilds.watch(guild_id, table)), answer)

    async def run_socket(self, request: web.Request, sub: Subscriber, hello: protocol.Hello,
                         answer: Callable[[protocol.Message], Awaitable[None]]
                         ) -> web.WebSocketResponse:
        """Serve one table socket: ``hello``, then the steps as the table moves (``resume``
        asks for them); any other message of the page goes to ``answer``."""
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=protocol.MAX_MESSAGE,
                                   compress=False)
        await ws.prepare(request)
        writer = asyncio.create_task(_write(ws, sub))
        tf = self.feed.join(sub)
        sub.send(protocol.dump(hello))
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    break
                message = protocol.read(msg.data)
                if isinstance(message, protocol.Resume):
                    await tf.resume(sub, message.hand, message.at)
                elif message is not None:
                    await answer(message)
                else:
                    sub.send(protocol.dump(protocol.Refusal(reason="bad_message")))
        finally:
            self.feed.leave(sub)
            sub.send(None)
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await asyncio.wait_for(writer, 5.0)
            if not writer.done():
                writer.cancel()
            await ws.close()
        return ws

    # -- a hand, replayed ------------------------------------------------------------------

    async def hand_page(self, request: web.Request) -> web.Response:
        found = await self.keys.verify(Kind.HAND, request.match_info["token"])
        if found is None:
            raise web.HTTPNotFound()
        guild_id, hand_id = found
        row = await self.store.hand(hand_id)
        table = None if row is None else await self.store.get_table(row.table_id)
        if row is None or table is None or not await self._shows(guild_id, table):
            raise web.HTTPNotFound()
        config = await self.guilds.get(guild_id)
        lang = await self.guilds.language(guild_id)
        self._learn(guild_id, table.runtime.get("names"))
        with speaking(lang), showing(cards.faces_of(table.game, config.faces)):
            title = game_name(table.game)
            if row.result is None or await boards.kept_secret(self.store, table.settings,
                                                              row.number):
                # A hand in play, or a board another table has still to finish: its record
                # holds every card. Nothing of it is sent.
                return self._page("replay.html", lang, steps=None, theme=config.theme,
                                  heading=t("table.title", game=title, number=row.number),
                                  texts=_json_script(_page_texts()), cards="",
                                  back=await self._back_to(guild_id, table.id))
            players = len(row.header.get("members") or table.seats)
            reviews = {}
            for seat in range(players):
                stored = await self.store.get_review(hand_id, seat)
                decisions = review_from_json(stored) if stored else None
                if decisions:
                    reviews[seat] = decisions
            steps = [s.model_dump(mode="json") for s in replay_steps(
                Table.from_rows(table, row), row.record(), reviews=reviews)]
            texts = _page_texts()
            heading = t("table.title", game=title, number=row.number)
            sealed = seals.checked(row.record())
        return self._page("replay.html", lang, steps=_json_script(steps), theme=config.theme,
                          heading=heading, texts=_json_script(texts), sealed=sealed,
                          back=await self._back_to(guild_id, table.id),
                          cards=cards.base(cards.faces_of(table.game, config.faces), config.theme,
                                           lang))

    async def analysis(self, request: web.Request) -> web.Response:
        """The analysis board: ``{"at": N, "action": {...}}`` → ``{"steps": [...]}``, the
        hand from move ``at`` on with that action there, played out by the computers. A hand
        still in play is refused (409) before its record is read; so is an action its player
        could not take there (400, with the reason)."""
        found = await self.keys.verify(Kind.HAND, request.match_info["token"])
        if found is None:
            raise web.HTTPNotFound()
        guild_id, hand_id = found
        row = await self.store.hand(hand_id)
        table = None if row is None else await self.store.get_table(row.table_id)
        if row is None or table is None or not await self._shows(guild_id, table):
            raise web.HTTPNotFound()
        if row.result is None:
            return web.json_response({"refused": "hand_in_play"}, status=409,
                                     headers={"Cache-Control": "no-store"})
        try:
            asked = await request.json()
            at, action = asked["at"], asked["action"]
            if not isinstance(at, int) or not isinstance(action, dict):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            return web.json_response({"refused": "bad_request"}, status=400)
        lang = await self.guilds.language(guild_id)
        # Its cards named as the page draws them (a Doppelkopf hand's Queens and Jacks).
        faces = cards.faces_of(table.game, (await self.guilds.get(guild_id)).faces)
        self._learn(guild_id, table.runtime.get("names"))

        def line() -> list[dict[str, Any]]:
            with speaking(lang), showing(faces):
                return [s.model_dump(mode="json") for s in play_out(
                    Table.from_rows(table, row), row.record(), at, action)]

        key = (hand_id, at, json.dumps(action, sort_keys=True), lang, faces)
        steps = self._analyses.get(key)
        if steps is None:
            async with self._analysing:
                try:
                    steps = await asyncio.to_thread(line)
                except Refused as e:
                    return web.json_response({"refused": e.reason}, status=400,
                                             headers={"Cache-Control": "no-store"})
            self._analyses[key] = steps
            while len(self._analyses) > ANALYSES_KEPT:
                self._analyses.popitem(last=False)
        self._analyses.move_to_end(key)
        return web.json_response({"steps": steps}, headers={"Cache-Control": "no-store"})

    # -- standings -----------------------------------------------------------------------

    async def _game_season(self, request: web.Request, guild_id: int,
                           default_game: str) -> tuple[str, int, int]:
        game = request.query.get("game", default_game)
        if game not in GAMES:
            raise web.HTTPNotFound()
        current = await current_season(self.store, guild_id)
        try:
            season = int(request.query.get("season", current))
        except ValueError:
            raise web.HTTPNotFound() from None
        if not 1 <= season <= current:
            raise web.HTTPNotFound()
        return game, season, current

    async def board_page(self, request: web.Request) -> web.Response:
        """A server's leaderboard, or (``where=everywhere``) the ladder of play across
        servers (``EVERYWHERE``): each player there by the name they show at those tables,
        no link to a profile of this server's."""
        token = request.match_info["token"]
        found = await self.keys.verify(Kind.BOARD, token, 0)
        if found is None:
            raise web.HTTPNotFound()
        guild_id, _ = found
        where = request.query.get("where", "here")
        if where not in WHERES:
            raise web.HTTPNotFound()
        book = EVERYWHERE if where == "everywhere" else guild_id
        game, season, current = await self._game_season(request, book, "filicau")
        lang = await self.guilds.language(guild_id)
        ratings = await self.store.ratings(book, game, season)
        if book == EVERYWHERE:
            shown = await self.store.crossplay_names(
                [int(r.player) for r in ratings if r.player.isdigit()])
            names = {str(user): name for user, name in shown.items()}
        else:
            names = await self._names(guild_id, (r.player for r in ratings))
        key = await self.keys.for_links(guild_id)
        with speaking(lang):
            lines = await board_lines(self.store, book, game, season, names.get)
            rows = [{"line": line, "link": None if line.user_id is None or book == EVERYWHERE
                     else f"/player/{sign(key, Kind.PLAYER, line.user_id)}?"
                     + urlencode({"game": game, "season": season})} for line in lines]
            heading = t("leaderboard.ladder_title" if book == EVERYWHERE
                        else "leaderboard.title", game=game_name(game), season=season)
            choices = games()
            wheres = [(w, t(f"choice.{w}")) for w in WHERES]
        league = None if book == EVERYWHERE else await on_page(
            self.leagues, guild_id, game, lambda players: self._names(guild_id, players))
        return self._page("board.html", lang, heading=heading, rows=rows, game=game,
                          league=league, game_name=game_name(game),
                          season=season, seasons=range(current, 0, -1), games=choices,
                          where=where, wheres=wheres, action=f"/board/{token}")

    async def player_page(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        found = await self.keys.verify(Kind.PLAYER, token)
        if found is None:
            raise web.HTTPNotFound()
        guild_id, user_id = found
        game, season, current = await self._game_season(request, guild_id, "filicau")
        lang = await self.guilds.language(guild_id)
        # The player and everyone they may have partnered (the best partner is named).
        names = await self._names(guild_id, {str(user_id), *(
            r.player for r in await self.store.ratings(guild_id, game, season))})
        with speaking(lang):
            shown = await profile(self.store, guild_id, user_id, game, season, names.get)
            # The name isolated (FSI … PDI: a plain-text <bdi>, for the <title> as well).
            heading = t("profile.title", name=f"\u2068{shown['name']}\u2069",
                        game=game_name(game))
            choices = games()
        return self._page("player.html", lang, heading=heading, p=shown, game=game,
                          season=season, seasons=range(current, 0, -1), games=choices,
                          action=f"/player/{token}")

    # -- names -----------------------------------------------------------------------------

    def _learn(self, guild_id: int, names: Any) -> None:
        if not isinstance(names, dict):
            return
        for member, name in names.items():
            if isinstance(member, str) and isinstance(name, str):
                self._seen_names[(guild_id, member)] = name
                self._seen_names.move_to_end((guild_id, member))
        while len(self._seen_names) > NAMES_KEPT:
            self._seen_names.popitem(last=False)

    async def _names(self, guild_id: int, players: Iterable[str]) -> dict[str, str]:
        out = {}
        for player in players:
            name = None
            if self.names is not None and player.isdigit():
                with contextlib.suppress(Exception):
                    name = await self.names(guild_id, player)
            name = name or self._seen_names.get((guild_id, player))
            if name:
                out[player] = name
        return out


async def start_web(settings: WebSettings, store: Store, *, names: Names | None = None,
                    activity: Activity | None = None) -> WebServer | None:
    """The bot's web server, started; or None, said in one line, when ``WEB_URL`` is unset."""
    if not settings.web_url:
        log.info("web pages off: WEB_URL is not set")
        return None
    server = WebServer(settings, store, names=names, activity=activity)
    await server.start()
    return server


async def _write(ws: web.WebSocketResponse, sub: Subscriber) -> None:
    """Send a socket's queued messages in order; None closes it."""
    while True:
        text = await sub.queue.get()
        if text is None or ws.closed:
            break
        try:
            await ws.send_str(text)
        except ConnectionError:
            break
    sub.closed = True
    with contextlib.suppress(Exception):
        await ws.close()


def _page_texts() -> dict[str, str]:
    """The words the pages' scripts show, in the current language."""
    return {f"web.{key}": t(f"web.{key}") for key in (
        "trick", "trump", "reconnecting", "gone_closed", "gone_off", "gone_revoked", "taken",
        "seconds_left", "deal", "result", "replay_link", "board_line",
        "board_refused")}
