"""What the bot measures, for Prometheus: every figure an operator watches, in one registry.

``Metrics`` holds the instruments and their registry (one per bot, so tests never share
figures); the wiring (``bot.client``) hands each part the instruments it records into, and
``serve`` answers ``/metrics`` in Prometheus's text format on ``METRICS_PORT`` (off without
it). Every sample carries the ``shard`` label of the process (its shards, ``0`` with one), so
the processes of a sharded bot are told apart however Prometheus finds them.

The figures (names as exported; counters end in ``_total``):

- ``filicau_tables_open{game}``, ``filicau_hands_in_play{game}``: read at each scrape from the
  registry of open tables.
- ``filicau_interactions_total{kind}`` and ``filicau_interaction_answer_seconds{kind}``: from
  an interaction's arrival on the gateway to the end of the bot's answer (its callback),
  with buckets around Discord's 3 s limit.
- ``filicau_discord_requests_total{method,route,status}``: every REST request, its route with
  ids and tokens left out; ``filicau_discord_rate_limited_total{scope}`` the 429 answers;
  ``filicau_discord_global_limited_requests_total`` the requests made with the bot's token,
  which count against Discord's 50 a second (an interaction token's do not).
- ``filicau_gateway_reconnects_total{how}`` (``resumed`` or ``new_session``) and
  ``filicau_gateway_disconnects_total``.
- ``filicau_store_query_seconds{op}``: each store call (one operation, a query or a few).
- ``filicau_ai_decision_seconds{level}`` and ``filicau_ai_queue``: a computer's decision, and
  the work asked of the computer players' workers and not yet done.
- ``filicau_web_sockets{kind}``: open sockets of the web pages (``page``) and the Activity.
- ``filicau_errors_total{logger}``: lines logged at ERROR or worse (``Metrics.errors_seen``,
  a logging handler the wiring puts on the root logger).

>>> metrics = Metrics(shard="0")
>>> metrics.interactions.labels(kind="component").inc()
>>> 'filicau_interactions_total{kind="component",shard="0"} 1.0' in metrics.page().decode()
True
"""

from __future__ import annotations

import inspect
import logging
import re
import time
from collections import Counter as Tally
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import wraps
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.settings import SettingsError

log = logging.getLogger(__name__)

#: An answer's seconds: fine below Discord's 3 s (what a player feels), and past it (what
#: Discord refuses: the interaction failed).
ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 10.0)
#: A store call: a fraction of a millisecond on SQLite, a round trip or two on PostgreSQL.
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
#: A computer's decision: Easy in milliseconds, Hard up to a second or two.
AI_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
#: Interactions waiting for their answer are forgotten after this (never answered).
ANSWER_KEPT_SECONDS = 60.0
#: Store calls that wait for an event rather than query (timing them says nothing).
UNTIMED = frozenset({"ownership_lost"})

#: A REST path's parts that are ids or tokens, left out of the route label.
_SNOWFLAKE = re.compile(r"^\d+$")


def route_of(path: str) -> str:
    """A REST request's route as a label: its path below the API's base, with ids and
    interaction or webhook tokens replaced, so that the label has few values.

    >>> route_of("/channels/123/messages/456")
    '/channels/{id}/messages/{id}'
    >>> route_of("/interactions/99/aW50ZXJhY3Rpb24/callback")
    '/interactions/{id}/{token}/callback'
    >>> route_of("/webhooks/1/tok-en/messages/@original")
    '/webhooks/{id}/{token}/messages/@original'
    """
    parts = path.split("/")
    out: list[str] = []
    for i, part in enumerate(parts):
        if _SNOWFLAKE.match(part):
            out.append("{id}")
        elif i >= 3 and parts[i - 2] in ("interactions", "webhooks") and out[-1] == "{id}":
            out.append("{token}")
        else:
            out.append(part)
    return "/".join(out)


class _ShardRegistry(CollectorRegistry):
    """A registry whose every sample carries the process's ``shard`` label."""

    def __init__(self, shard: str) -> None:
        super().__init__(auto_describe=True)
        self._shard = shard

    def collect(self) -> Iterator[Metric]:
        for family in super().collect():
            family.samples = [s._replace(labels={**s.labels, "shard": self._shard})
                              for s in family.samples]
            yield family


class _Read(Collector):
    """Gauges read at each scrape from what the process holds (the open tables, the
    sockets), through callbacks the wiring gives."""

    def __init__(self) -> None:
        #: Each open table as (game, a hand is in play).
        self.tables: Callable[[], Iterable[tuple[str, bool]]] = list
        #: Open sockets by kind (``page``, ``activity``).
        self.sockets: Callable[[], Mapping[str, int]] = dict

    def collect(self) -> Iterator[Metric]:
        tables: Tally[str] = Tally()
        hands: Tally[str] = Tally()
        for game, in_play in self.tables():
            tables[game] += 1
            hands[game] += in_play
        open_ = GaugeMetricFamily("filicau_tables_open", "Tables open in this process",
                                  labels=["game"])
        playing = GaugeMetricFamily("filicau_hands_in_play", "Hands being played now",
                                    labels=["game"])
        for game in sorted(tables):
            open_.add_metric([game], tables[game])
            playing.add_metric([game], hands[game])
        yield open_
        yield playing
        sockets = GaugeMetricFamily("filicau_web_sockets",
                                    "Open sockets of the web pages and the Activity",
                                    labels=["kind"])
        counted = {"page": 0, "activity": 0, **self.sockets()}
        for kind in sorted(counted):
            sockets.add_metric([kind], counted[kind])
        yield sockets

    def describe(self) -> Iterator[Metric]:
        return iter(())


class _Errors(logging.Handler):
    """Counts the records at ERROR or worse, by logger."""

    def __init__(self, counter: Counter) -> None:
        super().__init__(logging.ERROR)
        self._counter = counter

    def emit(self, record: logging.LogRecord) -> None:
        self._counter.labels(logger=record.name).inc()


class Metrics:
    """The bot's instruments and their registry (see the module docstring)."""

    def __init__(self, shard: str = "0", *, shards: int = 1) -> None:
        self.registry = _ShardRegistry(shard)
        r = self.registry
        self.interactions = Counter("filicau_interactions", "Interactions received",
                                    ["kind"], registry=r)
        self.answer_seconds = Histogram(
            "filicau_interaction_answer_seconds",
            "From an interaction's arrival to the end of its answer (Discord allows 3 s)",
            ["kind"], buckets=ANSWER_BUCKETS, registry=r)
        self.requests = Counter("filicau_discord_requests", "Discord REST requests made",
                                ["method", "route", "status"], registry=r)
        self.rate_limited = Counter("filicau_discord_rate_limited",
                                    "Discord's 429 answers, by the limit's scope",
                                    ["scope"], registry=r)
        self.global_limited = Counter(
            "filicau_discord_global_limited_requests",
            "REST requests made with the bot's token (they count against the global limit)",
            registry=r)
        self.reconnects = Counter("filicau_gateway_reconnects",
                                  "Gateway sessions resumed or begun again after the first",
                                  ["how"], registry=r)
        self.disconnects = Counter("filicau_gateway_disconnects", "Gateway connections lost",
                                   registry=r)
        self.store_seconds = Histogram("filicau_store_query_seconds",
                                       "A store call's seconds, by operation", ["op"],
                                       buckets=STORE_BUCKETS, registry=r)
        self.ai_seconds = Histogram("filicau_ai_decision_seconds",
                                    "A computer player's decision, by level", ["level"],
                                    buckets=AI_BUCKETS, registry=r)
        self.ai_queue = Gauge("filicau_ai_queue",
                              "Work asked of the computer players' workers and not yet done",
                              registry=r)
        self.errors = Counter("filicau_errors", "Lines logged at ERROR or worse, by logger",
                              ["logger"], registry=r)
        #: Counts the log's errors once added to a logger (the root, by the wiring).
        self.errors_seen: logging.Handler = _Errors(self.errors)
        self.read = _Read()
        r.register(self.read)
        for how in ("resumed", "new_session"):
            self.reconnects.labels(how=how)
        for scope in ("global", "user", "shared"):
            self.rate_limited.labels(scope=scope)
        #: The sessions the process begins at start (one a shard); later ones are reconnects.
        self._starts = shards
        self._waiting: dict[int, tuple[str, float]] = {}

    def page(self) -> bytes:
        """The figures in Prometheus's text format."""
        return generate_latest(self.registry)

    # -- the gateway ------------------------------------------------------------------------

    def saw(self, event: str, args: tuple[Any, ...]) -> None:
        """A gateway event the client dispatches (called for every one: only a few count)."""
        if event == "interaction":
            interaction = args[0]
            kind = getattr(interaction.type, "name", "unknown")
            self.interactions.labels(kind=kind).inc()
            self._wait_answer(interaction.id, kind)
        elif event == "connect":
            if self._starts > 0:
                self._starts -= 1
            else:
                self.reconnects.labels(how="new_session").inc()
        elif event == "resumed":
            self.reconnects.labels(how="resumed").inc()
        elif event == "disconnect":
            self.disconnects.inc()

    def _wait_answer(self, interaction_id: int, kind: str) -> None:
        now = time.monotonic()
        if len(self._waiting) > 1000:
            self._waiting = {k: v for k, v in self._waiting.items()
                             if now - v[1] < ANSWER_KEPT_SECONDS}
        self._waiting[interaction_id] = (kind, now)

    def answered(self, interaction_id: int) -> None:
        waited = self._waiting.pop(interaction_id, None)
        if waited is not None:
            kind, since = waited
            self.answer_seconds.labels(kind=kind).observe(time.monotonic() - since)

    # -- Discord's REST API ---------------------------------------------------------------

    def request_done(self, method: str, url: str, bot_token: bool, status: int | str,
                     headers: Mapping[str, str]) -> None:
        """A REST request ended (``status``: its HTTP status, or ``error`` for no answer)."""
        base = discord.http.Route.BASE
        if not url.startswith(base):
            return  # the gateway's own connection, a CDN download
        path = url[len(base):].partition("?")[0]
        route = route_of(path)
        self.requests.labels(method=method, route=route, status=str(status)).inc()
        if bot_token:
            self.global_limited.inc()
        if status == 429:
            scope = headers.get("X-RateLimit-Scope") or (
                "global" if headers.get("X-RateLimit-Global") else "user")
            self.rate_limited.labels(scope=scope).inc()
        if route.startswith("/interactions/") and route.endswith("/callback") and status != 429:
            self.answered(int(path.split("/")[2]))

    def http_trace(self) -> aiohttp.TraceConfig:
        """The hook discord.py offers into its HTTP session (``Client(http_trace=...)``):
        every REST request of the bot, its token's and the interactions' alike, passes it."""
        trace = aiohttp.TraceConfig()

        async def end(_s: aiohttp.ClientSession, _c: SimpleNamespace,
                      params: aiohttp.TraceRequestEndParams) -> None:
            self.request_done(params.method, str(params.url), "Authorization" in params.headers,
                              params.response.status, params.response.headers)

        async def failed(_s: aiohttp.ClientSession, _c: SimpleNamespace,
                         params: aiohttp.TraceRequestExceptionParams) -> None:
            self.request_done(params.method, str(params.url), "Authorization" in params.headers,
                              "error", {})

        trace.on_request_end.append(end)
        trace.on_request_exception.append(failed)
        return trace

    # -- the computer players ---------------------------------------------------------------

    @contextmanager
    def queued(self) -> Iterator[None]:
        """Work for the computer players' pool, from asked to done."""
        self.ai_queue.inc()
        try:
            yield
        finally:
            self.ai_queue.dec()

    @contextmanager
    def deciding(self, level: str) -> Iterator[None]:
        """A computer's decision: queued, and timed."""
        with self.queued(), self.ai_seconds.labels(level=level).time():
            yield


class TimedStore:
    """A store whose every call is timed into ``filicau_store_query_seconds{op}``, ``op``
    the method's name; anything else of the store is passed through as it is."""

    def __init__(self, store: Any, seconds: Histogram) -> None:
        self._store = store
        self._seconds = seconds
        self._timed: dict[str, Callable[..., Awaitable[Any]]] = {}

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if name in UNTIMED or not inspect.iscoroutinefunction(attr):
            return attr
        timed = self._timed.get(name)
        if timed is None:
            timed = self._timed[name] = self._time(name, attr)
        return timed

    def _time(self, name: str, call: Callable[..., Awaitable[Any]]
              ) -> Callable[..., Awaitable[Any]]:
        observe = self._seconds.labels(op=name).observe

        @wraps(call)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return await call(*args, **kwargs)
            finally:
                observe(time.perf_counter() - began)

        return timed


async def serve(metrics: Metrics, host: str, port: int) -> web.AppRunner:
    """``/metrics`` on ``host:port``, until the returned runner is cleaned up; a port that
    cannot be listened on is a bad setting (``SettingsError``)."""

    async def page(_request: web.Request) -> web.Response:
        return web.Response(body=metrics.page(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/metrics", page)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as e:
        await runner.cleanup()
        raise SettingsError(f"METRICS_PORT {port}: cannot listen on {host}:{port} "
                            f"({e.strerror or e}): choose another port") from None
    log.info("metrics at http://%s:%d/metrics", host, port)
    return runner
