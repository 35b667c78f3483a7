"""What every protocol module of the server shares: the settings, and the services opened once per server.

Why one object: the routers of the protocol modules (``server.matches``, ``server.seats``, the UI, battlebot,
dots, GraphQL, tournaments...) all need the same store, recorder, match manager, spec policy and create limiter.
They used to read loose ``app.state`` attributes, set by whichever start-up hook ran first; now the server's
lifespan opens one typed :class:`Services` (store, then recorder, then match manager), keeps it as
``app.state.services``, and every route gets it the same way: the ``ServicesDep`` dependency (HTTP and WebSocket
routes) or :func:`services_of` (code that holds the app). The lifespan closes them in the reverse order, after
every module's own shutdown (``server.app``).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends, HTTPException
from starlette.requests import HTTPConnection, Request

from hexarena.core.contract import ClockConfig
from hexarena.core.extras import require_redis
from hexarena.players.base import BasePlayer
from hexarena.players.policy import SpecPolicy
from hexarena.referee.clock import DEFAULT_MOVE_CAP, capped
from hexarena.server.analysis_limits import AnalysisLimits
from hexarena.server.background import stop_tasks
from hexarena.server.battlebot.lobby import BattlebotSettings
from hexarena.server.cluster_timing import ClusterTiming
from hexarena.server.dots.tables import DotsSettings
from hexarena.server.ladder_pairing import LadderSettings
from hexarena.server.live import MatchManager
from hexarena.server.ratelimit import DEFAULT_CREATE_LIMIT, CreateLimiter, client_of, refusal
from hexarena.server.stop_times import StopTimes

if TYPE_CHECKING:
    from hexarena.server.cluster import Cluster
    from hexarena.server.graphql.limits import GraphQLLimits
    from hexarena.store import Store
    from hexarena.store.recorder import Recorder

log = logging.getLogger(__name__)


@dataclass
class Settings:
    """What ``hexarena serve`` configures."""

    database_url: str | None = None
    use_store: bool = True
    #: Several instances on one database (``--redis-url``, ``server.cluster``): match leases in Redis, live events
    #: for spectators on other instances, failover of a lost instance's matches. None: one process, as before.
    redis_url: str | None = None
    #: How the other instances reach this one (``http://host:port``): they relay seat sockets here. None: not
    #: reachable, a seat socket must then come to this instance itself.
    advertise_url: str | None = None
    #: With ``redis_url``: a lease's life and how often leases are renewed and lost instances' work looked for.
    cluster_timing: ClusterTiming = field(default_factory=ClusterTiming)
    #: Local state (the recorder's journal); None: ``$HEXARENA_DATA_DIR``, the SQLite file's folder, or ./data.
    data_dir: Path | None = None
    #: Write each move as it is played (the default). Off only to measure what those writes cost
    #: (``bench/store_throughput.py``): a crash then loses the moves of live games. ``$HEXARENA_RECORD_MOVES=0``.
    record_moves: bool = field(default_factory=lambda: os.environ.get("HEXARENA_RECORD_MOVES", "1") != "0")
    #: Seconds an open seat (``open:NAME``) waits for someone to join before its match ends aborted; None:
    #: ``$HEXARENA_OPEN_SEAT_SECONDS`` or 600.
    open_seat_seconds: float | None = None
    #: Seconds a move may take in a match between programs that has no clock (``--move-cap``; 0: no cap), so a
    #: silent bot loses on time instead of holding its match open forever. People are not capped.
    move_cap: float = DEFAULT_MOVE_CAP
    #: Operator-registered engines (``NAME -> player spec``), the only way an API client gets a subprocess bot.
    engines: dict[str, str] = field(default_factory=dict)
    #: Mount the connect-in protocols (battlebot, hexagon dots turn-token), GraphQL, analysis and tournaments.
    protocols: bool = True
    #: None: bot URLs may name any host (local mode). A list turns on the bot-host check (what ``--public`` will
    #: set): loopback, private and link-local hosts are refused unless listed (a host name, address or network).
    bot_hosts: list[str] | None = None
    #: Creates (matches, HTTTX games, tournaments, dots tables) per client address, as a ``limits`` string
    #: (``"60/minute"``, ``"10/minute;200/hour"``); None: unlimited.
    create_rate_limit: str | None = DEFAULT_CREATE_LIMIT
    #: Public mode (``hexarena serve --public``, see ``server/auth.py``): write endpoints need an API token, the
    #: bot-host check is on (``bot_hosts`` None becomes ``[]``) and the default create limit is tighter.
    public: bool = False
    #: The bearer token Prometheus sends for ``GET /metrics`` in public mode (``--metrics-token-file``, or
    #: ``$HEXARENA_METRICS_TOKEN``); None: public mode refuses every scrape. Kept out of ``repr``: never logged.
    metrics_token: str | None = field(
        default_factory=lambda: os.environ.get("HEXARENA_METRICS_TOKEN", "").strip() or None, repr=False
    )
    #: The protocol modules' own settings (used when ``protocols`` is on).
    battlebot: BattlebotSettings = field(default_factory=BattlebotSettings)
    dots: DotsSettings = field(default_factory=DotsSettings)
    graphql: GraphQLLimits = field(default_factory=lambda: _graphql_limits())
    analysis: AnalysisLimits = field(default_factory=AnalysisLimits)
    #: The ladder's pace and bounds (``server.ladder``); its scheduler runs with ``protocols`` and a store.
    ladder: LadderSettings = field(default_factory=LadderSettings)

    def match_clock(self, clock: ClockConfig, players: Sequence[BasePlayer]) -> ClockConfig:
        """The clock a match created over the API is played with: its own, or without one the move cap
        (:func:`~hexarena.referee.clock.capped`, the rule ``hexarena play`` applies too). A game with a person
        keeps no clock: a person may think as long as they like, and can leave a game a bot stopped answering."""
        if any(p.kind == "human" for p in players):
            return clock
        return capped(clock, self.move_cap)

    def policy(self) -> SpecPolicy:
        """The remote spec policy every API-created seat goes through (engines, bot hosts)."""
        return SpecPolicy(engines=dict(self.engines), bot_hosts=self.bot_hosts)


def _graphql_limits() -> GraphQLLimits:
    from hexarena.server.graphql.limits import GraphQLLimits  # likewise (its package imports this module)

    return GraphQLLimits()


@dataclass
class Services:
    """The services of one running server (see the module docstring); ``store``/``recorder`` None: no database."""

    settings: Settings
    limiter: CreateLimiter
    manager: MatchManager
    store: Store | None = None
    recorder: Recorder | None = None
    #: None: one process (no ``--redis-url``)
    cluster: Cluster | None = None
    #: the steps of this server's shutdown, timed (``server.stop_times``)
    stop_times: StopTimes = field(default_factory=StopTimes)

    @property
    def policy(self) -> SpecPolicy:
        return self.settings.policy()


def services_of(app: Any) -> Services:
    """The running app's services; RuntimeError before its start-up opened them (or after shutdown)."""
    services = getattr(app.state, "services", None)
    if not isinstance(services, Services):
        raise RuntimeError("the server's services are not open: the app has not started")
    return services


async def get_services(connection: HTTPConnection) -> Services:
    """FastAPI dependency (HTTP and WebSocket routes alike): the app's :class:`Services`.

    ``async`` because FastAPI runs a plain ``def`` dependency in a worker thread: every request paid a thread hop
    (~200 us of CPU) to read an attribute (``tests/server/test_no_thread_hops.py``)."""
    return services_of(connection.app)


ServicesDep = Annotated[Services, Depends(get_services)]


async def limit_creates(request: Request, services: ServicesDep) -> None:
    """FastAPI dependency of every create endpoint: 429 with ``Retry-After`` once the client's budget is spent."""
    client = client_of(request)
    refused = await services.limiter.hit(client)
    if refused is not None:
        message, headers = refusal(client, *refused)
        raise HTTPException(status_code=429, detail=message, headers=headers)


@contextlib.asynccontextmanager
async def open_services(settings: Settings, limiter: CreateLimiter) -> AsyncIterator[Services]:
    """Open the store (migrated), replay the recorder's journal, mark what an earlier server left unfinished, and
    make the match manager; on exit stop live matches (they end interrupted), flush the recorder, close the store.

    With ``redis_url`` (several instances): Redis opens first (a wrong URL stops the start-up), the start-up
    sweep is left to the failover scan, which ends or continues only the matches nobody holds a lease on."""
    if settings.redis_url and not settings.use_store:
        raise ValueError("several instances (--redis-url) share their games through the database: it needs a store")
    from hexarena.server.serving import RECORDER_CLOSE_TIMEOUT

    times = StopTimes()
    async with contextlib.AsyncExitStack() as stack:
        stack.callback(times.report)  # the very last: how long each step below took, when the stop was slow
        stack.push_async_callback(times.step("the rate limiter", limiter.close))  # its Redis connections, if any
        cluster = await _open_cluster(settings, stack, times) if settings.redis_url else None
        store, recorder = (
            (await _open_store(settings, stack, times, sweep=cluster is None)) if settings.use_store else (None, None)
        )
        manager = MatchManager(
            recorder, open_seat_seconds=settings.open_seat_seconds, record_moves=settings.record_moves, cluster=cluster
        )
        # first on the way out: live matches end (or are handed over) before the recorder closes; what the database
        # does not take within the recorder's bound waits in the journal either way
        stack.push_async_callback(
            times.step("the live matches", functools.partial(manager.close, RECORDER_CLOSE_TIMEOUT))
        )
        services = Services(
            settings=settings,
            limiter=limiter,
            manager=manager,
            store=store,
            recorder=recorder,
            cluster=cluster,
            stop_times=times,
        )
        if cluster is not None:
            await _start_failover(services, stack)
        yield services


async def _open_cluster(settings: Settings, stack: contextlib.AsyncExitStack, times: StopTimes) -> Cluster:
    require_redis()  # an extra of its own (hexarena[cluster])
    from hexarena.server.cluster import Cluster

    assert settings.redis_url is not None
    url = settings.redis_url
    cluster = Cluster(url, advertise_url=settings.advertise_url, timing=settings.cluster_timing)
    await cluster.open()
    from hexarena.server.serving import RECORDER_CLOSE_TIMEOUT

    # last on the way out (the recorder wrote the ends first), with the same bound on Redis as the steps before
    stack.push_async_callback(times.step("Redis", functools.partial(cluster.close, RECORDER_CLOSE_TIMEOUT)))
    log.warning("instance %s: matches are leased in Redis (%s)", cluster.instance, url)
    return cluster


async def _start_failover(services: Services, stack: contextlib.AsyncExitStack) -> None:
    """The takeover loop (``server.failover``), stopped before the match manager on the way out."""
    import asyncio

    from hexarena.server.failover import Failover

    assert services.cluster is not None and services.store is not None and services.recorder is not None
    failover = Failover(services.cluster, services.store, services.recorder, services.manager, services.policy)
    task = asyncio.create_task(failover.run(), name="hexarena-failover")

    async def stop() -> None:
        await stop_tasks([task], "the failover scans")

    stack.push_async_callback(services.stop_times.step("the failover scans", stop))


async def _open_store(
    settings: Settings, stack: contextlib.AsyncExitStack, times: StopTimes, *, sweep: bool = True
) -> tuple[Store, Recorder]:
    from hexarena.store import Store
    from hexarena.store.recorder import Recorder, default_data_dir

    url = settings.database_url or os.environ.get("HEXARENA_DATABASE_URL")
    store = await Store.open(url)
    from hexarena.server.serving import DATABASE_CLOSE_TIMEOUT, RECORDER_CLOSE_TIMEOUT

    # bounded (serving.DATABASE_CLOSE_TIMEOUT): closing a connection waits for the database to acknowledge it
    stack.push_async_callback(
        times.step("the database connections", functools.partial(store.close, DATABASE_CLOSE_TIMEOUT))
    )
    recorder = Recorder(store, settings.data_dir or default_data_dir(url))
    try:
        replayed = await recorder.start()  # journaled results first: they win over "interrupted"
    except BaseException:
        await recorder.close(timeout=0)
        raise

    # within the shutdown's bound, the database down or hanging too
    stack.push_async_callback(times.step("the recorder", functools.partial(recorder.close, RECORDER_CLOSE_TIMEOUT)))
    if replayed:
        log.warning("%d write(s) journaled during an earlier database outage were stored", replayed)
    if not sweep:  # other instances may be playing the unfinished games: the failover scan sorts them out
        return store, recorder
    interrupted, aborted = await store.mark_unfinished_as_interrupted()
    if interrupted or aborted:
        log.warning(
            "an earlier server left %d game(s) mid-game (now interrupted, moves kept) and %d that never "
            "started (now aborted)",
            interrupted,
            aborted,
        )
    return store, recorder


__all__ = [
    "Services",
    "ServicesDep",
    "Settings",
    "get_services",
    "limit_creates",
    "open_services",
    "services_of",
]
