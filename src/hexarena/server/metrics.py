"""``GET /metrics``: what an operator watches, in the Prometheus text format (docs/operations/metrics.md).

Two kinds of numbers, kept apart on purpose:

- **events** (moves, their latency and the referee's CPU per move, how matches ended, bot errors) are counted
  where every match passes anyway: the match manager is the listener of every referee it runs, and hands each
  move and each end to its one ``observer`` (:class:`ArenaMetrics`). No route, player or protocol module calls
  this module;
- **state** (live matches, the store's queue, the journal, leases) is never mirrored into gauges kept in sync by
  hand, where a missed decrement would lie forever: :class:`ArenaState` reads it from the running services at
  each scrape.

Each app has its own ``CollectorRegistry``, not prometheus-client's global one: two servers in one process (the
tests, an embedding program) each report their own numbers and never collide on a metric name.

Access: open in local mode; in public mode the auth middleware (``server.auth``) asks for the operator's metrics
token before the request reaches this route.
"""

from __future__ import annotations

import bisect
import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from typing import TYPE_CHECKING

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

from hexarena.core.registry import available_games
from hexarena.core.types import Termination
from hexarena.server.auth import METRICS_PATH
from hexarena.server.services import Services, services_of

if TYPE_CHECKING:
    from hexarena.referee.result import MatchResult, PlayedMove
    from hexarena.server.live import LiveMatch

#: Where Prometheus scrapes; ``server.auth`` guards this path in public mode.
PATH = METRICS_PATH
#: Seconds between a move's request and its reply (a person's thinking included): up to a long clock's move.
LATENCY_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)
#: CPU seconds the referee spends on one move it received (validate, apply, write it down): microseconds for
#: the built-in games, more for a plugin game whose rules are slow.
CPU_BUCKETS = (1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 0.01, 0.025, 0.05, 0.1)
#: How a match ends when a bot (not a person) failed it: a bot error, counted by that kind.
BOT_ERRORS = frozenset(
    {Termination.TIME, Termination.ILLEGAL_MOVE, Termination.PROTOCOL, Termination.DISCONNECT, Termination.ABORTED}
)
#: Label values come from plugins (game names, player kinds): cut to this length so none can grow a series' size.
MAX_LABEL = 40


def _label(text: object) -> str:
    return str(text)[:MAX_LABEL]


class _Histogram:
    """Bucket counts and a sum, kept as plain numbers (read out by :class:`ArenaEvents` at a scrape)."""

    __slots__ = ("bounds", "counts", "total")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)  # the last: above every bound (+Inf)
        self.total = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1  # the first bucket whose bound is >= value
        self.total += value

    def buckets(self) -> list[tuple[str, float]]:
        """Cumulative counts per upper bound, as the exposition format wants them."""
        out, running = [], 0
        for bound, count in zip((*self.bounds, float("inf")), self.counts, strict=True):
            running += count
            out.append(("+Inf" if bound == float("inf") else repr(bound), float(running)))
        return out


class _GameMoves:
    """One game's per-move numbers."""

    __slots__ = ("cpu", "latency", "moves")

    def __init__(self) -> None:
        self.moves = 0
        self.latency = _Histogram(LATENCY_BUCKETS)
        self.cpu = _Histogram(CPU_BUCKETS)


class ArenaMetrics:
    """One app's registry, and the observer its match manager tells of every move and every end.

    The events are counted in plain numbers, not prometheus-client's Counter and Histogram: those take a lock
    per update (they may be updated from any thread), while every move here passes in the event loop, as do the
    scrapes that read them; a move's observation costs a dict lookup, a bisect and three additions."""

    def __init__(self, services: Callable[[], Services | None]) -> None:
        self.registry = CollectorRegistry()
        #: game -> its moves, their latency and the referee's CPU per move (the series of its label)
        self.per_game: dict[str, _GameMoves] = {}
        #: a game's label (its name, cut) -> the numbers of its series
        self.per_label: dict[str, _GameMoves] = {}
        #: (game, termination) -> matches ended so
        self.terminations: dict[tuple[str, str], int] = {}
        #: (termination, player kind) -> matches a bot failed so
        self.bot_errors: dict[tuple[str, str], int] = {}
        ProcessCollector(registry=self.registry)  # process_resident_memory_bytes, process_cpu_seconds_total...
        self.registry.register(ArenaEvents(self))
        self.registry.register(ArenaState(services))

    # ----- the match manager's observer (``server.live.MatchObserver``) -----

    def move(self, live: LiveMatch, record: PlayedMove) -> None:
        game = live.game.name
        numbers = self.per_game.get(game)
        if numbers is None:  # a game's first move: its series, shared by every game whose label reads the same
            label = _label(game)
            numbers = self.per_game[game] = self.per_label.setdefault(label, _GameMoves())
        numbers.moves += 1
        numbers.latency.observe(record.think_time)
        numbers.cpu.observe(live.referee.last_move_cpu)

    def end(self, live: LiveMatch, result: MatchResult) -> None:
        termination = str(result.outcome.termination)
        key = (_label(live.game.name), termination)
        self.terminations[key] = self.terminations.get(key, 0) + 1
        culprit = result.culprit
        if culprit is None or result.outcome.termination not in BOT_ERRORS:
            return
        kind = live.players[culprit].kind
        if kind != "human":  # a person who walks away is not a bot error
            key = (termination, _label(kind))
            self.bot_errors[key] = self.bot_errors.get(key, 0) + 1

    def render(self) -> bytes:
        return generate_latest(self.registry)


class ArenaEvents(Collector):
    """The counted events as Prometheus families (every family present, with no sample until something happens)."""

    def __init__(self, arena: ArenaMetrics) -> None:
        self._arena = arena

    def describe(self) -> list[Metric]:
        return list(self.collect())

    def collect(self) -> Iterator[Metric]:
        arena = self._arena
        moves = CounterMetricFamily("hexarena_moves", "Moves accepted by the referees.", labels=["game"])
        latency = HistogramMetricFamily(
            "hexarena_move_latency_seconds",
            "Seconds between asking a player for a move and its reply.",
            labels=["game"],
        )
        cpu = HistogramMetricFamily(
            "hexarena_referee_cpu_seconds",
            "CPU seconds the referee spent on each move it received (checking and applying it).",
            labels=["game"],
        )
        for game, numbers in sorted(arena.per_label.items()):
            label = [game]
            moves.add_metric(label, numbers.moves)
            latency.add_metric(label, numbers.latency.buckets(), numbers.latency.total)
            cpu.add_metric(label, numbers.cpu.buckets(), numbers.cpu.total)
        yield from (moves, latency, cpu)
        ends = CounterMetricFamily(
            "hexarena_terminations", "Matches ended, by game and how they ended.", labels=["game", "termination"]
        )
        for (game, termination), count in sorted(arena.terminations.items()):
            ends.add_metric([game, termination], count)
        yield ends
        errors = CounterMetricFamily(
            "hexarena_bot_errors",
            "Matches a bot lost or aborted by failing (timeout, illegal move, protocol, disconnect, no start).",
            labels=["kind", "player_kind"],
        )
        for (kind, player_kind), count in sorted(arena.bot_errors.items()):
            errors.add_metric([kind, player_kind], count)
        yield errors


class ArenaState(Collector):
    """Gauges read from the running services at each scrape (nothing to keep in sync)."""

    def __init__(self, services: Callable[[], Services | None]) -> None:
        self._services = services

    def describe(self) -> list[Metric]:
        return []  # the families depend on the services (a cluster or not): described when collected

    def collect(self) -> Iterator[Metric]:
        services = self._services()
        if services is None:
            return
        yield from _matches(services)
        if services.recorder is not None:
            yield from _store(services)
        yield from _leases(services)


def _gauge(name: str, doc: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, doc, value=value)


def _matches(services: Services) -> Iterator[Metric]:
    per_game = dict.fromkeys(map(_label, available_games()), 0)  # every game, so an idle one reads 0, not nothing
    spectators = 0
    for live in list(services.manager.live.values()):
        label = _label(live.game.name)
        per_game[label] = per_game.get(label, 0) + 1
        spectators += len(live.spectators)
    live_matches = GaugeMetricFamily("hexarena_live_matches", "Matches being played now, by game.", labels=["game"])
    for game, count in sorted(per_game.items()):
        live_matches.add_metric([game], count)
    yield live_matches
    yield _gauge("hexarena_spectators", "Spectator connections following live matches.", spectators)


def _store(services: Services) -> Iterator[Metric]:
    recorder = services.recorder
    assert recorder is not None
    yield _gauge("hexarena_store_queue_depth", "Game writes queued for the database.", recorder.pending)
    yield _gauge(
        "hexarena_store_degraded", "1 while the database refuses writes (they wait in the journal).", recorder.degraded
    )
    journal = recorder.journal
    entries = 0 if journal is None else journal.entries
    yield _gauge("hexarena_journal_entries", "Writes waiting in the local journal for the database.", entries)
    size = 0
    if journal is not None and entries:
        with contextlib.suppress(OSError):
            size = journal.path.stat().st_size
    yield _gauge("hexarena_journal_bytes", "Size of the local journal file.", size)
    # writes the database refused for their content, set aside in the dead-letter table (a recorder that sets
    # writes aside counts them); absent, not zero, from a recorder that does not
    dead = getattr(recorder, "dead_letters", None)
    if isinstance(dead, int):
        yield CounterMetricFamily(
            "hexarena_dead_letters", "Writes the database refused, set aside as dead letters by this process.", dead
        )


def _leases(services: Services) -> Iterator[Metric]:
    cluster = services.cluster
    yield _gauge(
        "hexarena_cluster_enabled", "1 when this instance is one of several (--redis-url).", cluster is not None
    )
    if cluster is None:
        return
    leases = GaugeMetricFamily(
        "hexarena_leases_held", "Leases this instance holds, by what they lease.", labels=["kind"]
    )
    counts = {"match": 0, "tournament": 0}
    for key in list(cluster.owned):
        kind = key.partition(":")[0] if ":" in key else "match"
        kind = kind if kind in counts else "other"
        counts[kind] = counts.get(kind, 0) + 1
    for kind, count in sorted(counts.items()):
        leases.add_metric([kind], count)
    yield leases
    homes = GaugeMetricFamily(
        "hexarena_cluster_home_held", "1 when this instance holds the cluster's one home of a role.", labels=["role"]
    )
    for role, held in sorted(cluster.homes.items()):
        homes.add_metric([_label(role)], held)
    yield homes
    yield _gauge(
        "hexarena_cluster_watched_matches", "Owned matches watched from other instances.", len(cluster.watched)
    )
    scans = CounterMetricFamily(
        "hexarena_cluster_scans",
        "Scans for the matches and tournaments nobody holds (their instance is gone) this instance completed.",
        labels=["of"],
    )
    for of in ("matches", "tournaments"):
        scans.add_metric([of], cluster.scans[of])
    yield scans


router = APIRouter()


@router.get(PATH, include_in_schema=False)
async def metrics(request: Request) -> Response:
    """The app's metrics (in the event loop: the gauges read live state the loop owns)."""
    arena: ArenaMetrics | None = getattr(request.app.state, "metrics", None)
    if arena is None:
        return Response("metrics are not ready: the server is starting\n", status_code=503)
    return Response(arena.render(), media_type=CONTENT_TYPE_LATEST)


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Make the app's registry and make it the match manager's observer for the server's life."""

    def current() -> Services | None:
        with contextlib.suppress(RuntimeError):
            return services_of(app)
        return None

    arena = ArenaMetrics(current)
    manager = services_of(app).manager
    manager.observer = arena
    app.state.metrics = arena
    try:
        yield
    finally:
        manager.observer = None


__all__ = ["PATH", "ArenaEvents", "ArenaMetrics", "ArenaState", "lifespan", "router"]
