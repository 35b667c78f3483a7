"""Several ``hexarena serve`` instances on one Redis: who owns which live match, and its events for the others.

Why Redis and why so little of it: the database already holds every game and its moves as they are played
(``store.recorder``), so an instance that does not play a match can show it from there; what the database cannot
give is *who is playing it right now* and *what just happened*. This module holds exactly that:

- an **instance id** (host, pid and a random part: a restarted process is a new instance);
- a **lease per live match**, ``match-lease:{id}`` = the owning instance, taken with ``SET NX PX`` before the
  match's row is written, renewed every :attr:`Cluster.renew_every` seconds while the match runs and released
  (only by its owner, compare-and-delete) once the match's end is stored. A lease that expired means its owner
  is gone: another instance may claim it and take the match over (``server.failover``);
- the match's **meta**, ``match-meta:{id}`` (its clock and heartbeat, what the database does not keep), so the
  instance that takes it over can continue it with the same clock;
- a **pub/sub channel per match**, ``match-events:{id}``: the owner publishes each move (the move itself, a few
  hundred bytes, never the board) and the end; spectators on other instances rebuild the board from the stored
  moves plus these (``server.remote_watch``). Publishing never waits on Redis: events are queued and sent in
  pipelined batches by one task, so a match's move costs an append, not a round trip. Moves are published only
  while somebody elsewhere watches: a watching instance keeps ``match-watched:{id}`` alive (:data:`WATCH_TTL`),
  and the owner reads those keys with its lease renewals (:attr:`Cluster.watched`), so an unwatched match costs
  its owner nothing per move. The moves played before the owner noticed a new watcher are in the store.

- **a lease per running API tournament** (``match-lease:tournament:{id}``, the same mechanism): one instance
  runs it; when that instance stops or dies, another resumes it (``server.tournaments``);
- **one home per cluster-wide lobby** (``home:{role}``, e.g. ``home:battlebot``): a lease every instance tries
  to take or renew with its renewals, so exactly one instance holds the battlebot lobby and the others relay
  bot sockets to it (another takes over within a lease's life when it dies);
- **the Redis epoch** (``cluster-epoch``, a random value the first instance to find it missing sets): a changed
  or missing epoch means Redis was restarted or emptied. After that, or after any stretch when this instance could
  not reach Redis, every lease may be missing while its owner is alive, so an instance claims no match left by
  another (:meth:`Cluster.settled`) until a lease's life and two renewals have passed: long enough for every live
  owner to have taken its leases again and written its matches' meta back from what it holds itself;
- **where each instance is** (``instance-url:{instance}``, its ``--advertise-url``, refreshed with the renewals)
  and **which match each seat token belongs to** (``seat-token:{sha256 of the token}``, never the token itself):
  a person's seat socket that reaches an instance not playing its match is relayed to the one that does
  (``server.seat_relay``).

Without ``--redis-url`` none of this exists and the server is one process, as before.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator

import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.server.background import stop_if_cancelled, stop_tasks
from hexarena.server.cluster_timing import ClusterTiming
from hexarena.store.recorder import StoreUnavailable

log = logging.getLogger(__name__)

#: Seconds a match's meta is kept (a safety net: it is deleted with the lease when the match ends).
META_TTL = 7 * 24 * 3600
#: Seconds a ``match-watched`` key lives; a watching instance renews it every third of that.
WATCH_TTL = 30
#: Events queued for Redis at most; beyond it the oldest are dropped (Redis away: spectators elsewhere resync).
MAX_PENDING = 100_000
#: Seconds a subscription waits before subscribing again after its connection to Redis broke.
RESUBSCRIBE_EVERY = 0.5
#: The key whose value changes when Redis starts again empty (see the module docstring).
EPOCH_KEY = "cluster-epoch"
#: Seconds a command (or a connection attempt) to Redis may take before it fails: without it, a connection left
#: half-open (Redis restarted behind it, a network fault) holds whoever awaits it for as long as the OS keeps it.
COMMAND_TIMEOUT = 2.0

# Renew a lease while this instance holds it (1), take it again if it lapsed and nobody took it (2: Redis was
# away longer than a lease, or started again empty, and the match still runs here), give up when another
# instance holds it (0).
_RENEW = """
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not holder then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 2 end
return 0
"""
# Release (DEL) a lease only while this instance still holds it.
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class ClusterUnavailable(StoreUnavailable):
    """Redis does not answer: a new match can't be leased (HTTP 503, like a database that can't take it)."""


@contextlib.contextmanager
def _redis_may_be_away() -> Iterator[None]:
    """``contextlib.suppress`` of Redis errors for the loops, except one that stands for a cancellation."""
    try:
        yield
    except (redis.RedisError, OSError):
        stop_if_cancelled()


def lease_key(match_id: str) -> str:
    return f"match-lease:{match_id}"


def meta_key(match_id: str) -> str:
    return f"match-meta:{match_id}"


def channel(match_id: str) -> str:
    return f"match-events:{match_id}"


def watched_key(match_id: str) -> str:
    return f"match-watched:{match_id}"


def token_key(token: str) -> str:
    return "seat-token:" + hashlib.sha256(token.encode()).hexdigest()


def url_key(instance: str) -> str:
    return f"instance-url:{instance}"


async def gather_json(urls: list[str], timeout: float = 2.0) -> list[list[JsonValue]]:
    """GET each URL (the other instances' own lists), the JSON lists that came back in time; the others are left
    out (an instance that died a moment ago must not fail a listing)."""
    import httpx

    async with httpx.AsyncClient(timeout=timeout) as client:

        async def one(url: str) -> list[JsonValue]:
            try:
                found = (await client.get(url)).json()
            except (httpx.HTTPError, ValueError):
                return []
            return found if isinstance(found, list) else []

        return list(await asyncio.gather(*(one(u) for u in urls)))


def new_instance_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Cluster:
    """This instance's view of the cluster: its Redis connection, its id, its leases, its event publisher."""

    def __init__(
        self,
        url: str,
        *,
        instance: str | None = None,
        advertise_url: str | None = None,
        timing: ClusterTiming | None = None,
    ) -> None:
        """``timing``: the lease's life and the renewal and scan intervals (the defaults without it)."""
        self.url = url
        self.instance = instance or new_instance_id()
        #: how the other instances reach this one (``http://host:port``), for relayed seat sockets
        self.advertise_url = advertise_url
        timing = timing or ClusterTiming()
        self.lease_ms = timing.lease_ms
        self.renew_every = timing.renew
        #: seconds between two scans for what nobody holds (``server.failover``, ``server.tournaments``)
        self.scan_every = timing.scan
        #: scans for what nobody holds this instance completed, by what they looked for (``matches``,
        #: ``tournaments``): ``/metrics`` shows them, so an operator (or a test) sees that the scans run
        self.scans: collections.Counter[str] = collections.Counter()
        # One retry at once, on a new connection: what a pooled connection to a Redis that was restarted needs.
        # redis-py's own default has changed across releases (none; 3 with backoff up to 10 s; 10 up to 1 s each),
        # and a backoff of seconds inside a renewal is a lease lost; the loops here retry on their own schedule.
        self.redis: redis.Redis = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=COMMAND_TIMEOUT,
            socket_connect_timeout=COMMAND_TIMEOUT,
            retry=Retry(NoBackoff(), 1),
        )
        # Subscriptions wait for messages as long as a match lasts: their client has no read timeout (before
        # redis-py 8 it would end every quiet subscription), the same connect timeout and retry.
        self._subscriber: redis.Redis = redis.Redis.from_url(
            url, decode_responses=True, socket_connect_timeout=COMMAND_TIMEOUT, retry=Retry(NoBackoff(), 1)
        )
        #: matches whose lease this instance holds
        self.owned: set[str] = set()
        #: the meta of the owned matches, written back to Redis when a renewal had to take a lease again
        self.metas: dict[str, JsonObject] = {}
        #: the Redis epoch last seen, and since when (``time.monotonic``) Redis has answered with it without a
        #: break (None: it does not answer now); see :meth:`settled`
        self.epoch: str | None = None
        self.steady_since: float | None = None
        #: why Redis did not answer, while it does not (for ``/healthz``)
        self.problem: str | None = None
        #: the seat tokens of the matches played here (their keys, never the tokens), written again when Redis
        #: comes back empty so that sockets reaching another instance are still relayed here
        self._tokens: dict[str, str] = {}
        #: owned matches somebody on another instance watches (their moves are published), as of the last renewal
        self.watched: set[str] = set()
        #: one per match this instance watches (``events``): set to have its ``match-watched`` key written again
        #: now, when Redis comes back or was emptied (its owner publishes the moves only while the key is there)
        self._watch_wakes: set[asyncio.Event] = set()
        #: cluster-wide singletons this instance may hold (``home:{role}``), and whether it holds each now
        self.homes: dict[str, bool] = {}
        #: called with a match id when its lease turned out to be someone else's (this instance was cut off)
        self.on_lost: Callable[[str], None] | None = None
        #: the same for other leased things, by the prefix of their id (``tournament:`` -> its module's handler)
        self.lost_handlers: dict[str, Callable[[str], None]] = {}
        #: Redis commands queued without waiting (publishes, seat tokens), sent in order in pipelined batches
        self._pending: collections.deque[tuple[str | int, ...]] = collections.deque(maxlen=MAX_PENDING)
        self._wake = asyncio.Event()
        #: held by a renewal from the moment it lists the leases to renew until it has read their answers: a release
        #: waits for it, or a renewal that listed the match before would find its lease gone and take it again
        self._renewing = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)

    # ----- life cycle -----

    async def open(self) -> None:
        """Check Redis answers (a wrong URL stops the server at start-up) and start renewing and publishing."""
        try:
            await self.redis.ping()
        except (redis.RedisError, OSError) as exc:
            raise ClusterUnavailable(f"Redis at {self.url} does not answer ({exc})") from None
        await self._check_epoch(starting=True)
        await self._advertise()
        await self._renew_homes()
        self._tasks = [
            asyncio.create_task(self._renew_loop(), name="hexarena-cluster-renew"),
            asyncio.create_task(self._publish_loop(), name="hexarena-cluster-publish"),
        ]

    async def close(self, wait: float = 2.0) -> None:
        """Stop renewing; match leases still held are left to expire (their matches' ends are being stored), but
        the homes this instance held and its address are given up now: a lobby held by a stopped instance would
        otherwise send every client to an address nobody answers (502) until its lease ran out. ``wait``: seconds
        to wait for Redis, twice at most (the events still queued, then the homes and the address)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._flush_events(), wait)
        await stop_tasks(self._tasks, "the cluster's renewals and watches")
        self._tasks = []
        with contextlib.suppress(Exception):
            async with asyncio.timeout(wait):
                for role, held in self.homes.items():
                    if held:
                        await self._release(keys=[f"home:{role}"], args=[self.instance])
                        self.homes[role] = False
                await self.redis.delete(url_key(self.instance))
        await self.redis.aclose()
        await self._subscriber.aclose()

    # ----- leases -----

    async def claim(self, match_id: str, meta: JsonObject | None = None) -> bool:
        """Take the lease of a match (a new one, or one whose owner is gone); False if somebody holds it.
        ClusterUnavailable (HTTP 503) when Redis does not answer: no match starts that others can't see."""
        try:
            taken = await self.redis.set(lease_key(match_id), self.instance, nx=True, px=self.lease_ms)
            if not taken:
                return False
            self.owned.add(match_id)
            if meta is not None:
                self.metas[match_id] = meta
                await self.redis.set(meta_key(match_id), json.dumps(meta), ex=META_TTL)
        except (redis.RedisError, OSError) as exc:
            self.owned.discard(match_id)
            self.metas.pop(match_id, None)
            raise ClusterUnavailable(f"Redis is unreachable ({exc}); try again in a few seconds") from exc
        return True

    async def release(self, match_id: str, *, keep_meta: bool = False) -> None:
        """The match is over and its end stored: drop its lease and meta (only if the lease is still ours).
        ``keep_meta``: the match is handed over (this instance stops), the next owner needs its clock."""
        async with self._renewing:  # a renewal in flight may have listed this match: it ends first
            self.owned.discard(match_id)
            self.metas.pop(match_id, None)
        try:
            if await self._release(keys=[lease_key(match_id)], args=[self.instance]) and not keep_meta:
                await self.redis.delete(meta_key(match_id))
        except redis.RedisError:
            log.warning("could not release the lease of match %s; it expires by itself", match_id, exc_info=True)

    async def holds(self, match_id: str) -> bool:
        """Whether this instance still holds the match's lease (True when Redis can't say: nobody else can take
        a lease while Redis is away either)."""
        try:
            return bool(await self.redis.get(lease_key(match_id)) == self.instance)
        except (redis.RedisError, OSError):
            return True

    async def owners(self, match_ids: list[str]) -> list[str | None]:
        """The instance holding each match's lease (None: nobody, its owner is gone)."""
        if not match_ids:
            return []
        found = await self.redis.mget([lease_key(m) for m in match_ids])
        return [None if v is None else str(v) for v in found]

    async def meta(self, match_id: str) -> JsonObject | None:
        """A match's meta from Redis; kept here too when this instance holds the match (it writes it back if Redis
        loses it)."""
        text = await self.redis.get(meta_key(match_id))
        found = None if text is None else dict(json.loads(text))
        if found is not None and match_id in self.owned:
            self.metas[match_id] = found
        return found

    # ----- Redis's state -----

    def grace(self) -> float:
        """Seconds after Redis came back (or started again empty) before a missing lease means a lost owner: a
        lease's life, for the leases that were still there to lapse if their owner is gone, and two renewals, for
        every live owner to have taken its own again."""
        return self.lease_ms / 1000 + 2 * self.renew_every

    async def settled(self) -> bool:
        """Whether a match nobody holds has truly lost its owner (see :meth:`grace`); False while Redis does not
        answer, and for a while after it is back or was emptied."""
        await self._check_epoch()
        return self.steady_since is not None and time.monotonic() - self.steady_since >= self.grace()

    def health(self) -> JsonObject:
        """For ``/healthz``: ``ok``, or ``degraded`` while Redis does not answer (new matches are refused)."""
        if self.steady_since is None:
            return {"status": "degraded", "problem": self.problem or "Redis does not answer"}
        return {"status": "ok"}

    @property
    def degraded(self) -> bool:
        return self.steady_since is None

    async def _check_epoch(self, *, starting: bool = False) -> None:
        """Read (or set, when missing) the Redis epoch and note whether Redis answers: a new epoch or a broken
        connection restarts the grace of :meth:`settled`. An instance starting on a Redis that has an epoch
        already trusts it at once (nothing tells it that Redis lost anything)."""
        mine = secrets.token_hex(8)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.set(EPOCH_KEY, mine, nx=True)
                pipe.get(EPOCH_KEY)
                _, epoch = await pipe.execute()
        except (redis.RedisError, OSError) as exc:
            stop_if_cancelled()
            if self.steady_since is not None:
                log.warning("Redis does not answer (%s): no match of another instance is claimed meanwhile", exc)
            self.steady_since = None
            self.problem = f"Redis does not answer: {type(exc).__name__}: {str(exc)[:200]}"
            return
        now = time.monotonic()
        if starting:
            self.steady_since = now if epoch == mine else now - self.grace()
        elif self.steady_since is None or epoch != self.epoch:
            if self.steady_since is not None:
                log.warning("Redis was started again or emptied: every instance takes its leases again")
            else:
                log.warning("Redis answers again")
            self.steady_since = now
            for wake in self._watch_wakes:
                wake.set()
            if epoch != self.epoch:
                for key, match_id in self._tokens.items():
                    self._send("SET", key, match_id, "EX", META_TTL)
        self.epoch = str(epoch)
        self.problem = None

    async def _advertise(self) -> None:
        if self.advertise_url:
            await self.redis.set(url_key(self.instance), self.advertise_url, ex=max(10, int(10 * self.renew_every)))

    def want_home(self, role: str) -> None:
        """Take part in holding the cluster's one ``role`` (e.g. the battlebot lobby) from the next renewal on."""
        self.homes.setdefault(role, False)

    async def _renew_homes(self) -> None:
        for role in list(self.homes):
            held = await self._renew(keys=[f"home:{role}"], args=[self.instance, self.lease_ms])
            if bool(held) != self.homes[role]:
                log.warning("instance %s %s the %s home", self.instance, "holds" if held else "no longer holds", role)
            self.homes[role] = bool(held)

    async def owner_url(self, match_id: str) -> str | None:
        """``http://host:port`` of the instance playing a match when it is another one; None: nobody, or this
        one, or one that advertises no address."""
        if len(match_id) > 64:
            return None
        return await self._url_of_other(await self.redis.get(lease_key(match_id)))

    async def _url_of_other(self, instance: object) -> str | None:
        """The advertised address of ``instance`` (a value read from a lease or a home); None for nobody or self."""
        if instance is None or instance == self.instance:
            return None
        url = await self.redis.get(url_key(str(instance)))
        return None if url is None else str(url)

    async def instance_urls(self) -> list[str]:
        """The addresses of the other live instances (each refreshes its own with its renewals), each once: the
        record of an instance that died lives on for a few seconds, and a new instance may be listening at its
        address already (this one, or another), which must not be asked twice."""
        urls: list[str] = []
        async for key in self.redis.scan_iter(match=url_key("*"), count=100):
            if key != url_key(self.instance):
                url = await self.redis.get(key)
                if url is not None and str(url) != self.advertise_url and str(url) not in urls:
                    urls.append(str(url))
        return urls

    async def home_url(self, role: str) -> str | None:
        """``http://host:port`` of the instance holding ``role`` when it is another one; None: this one (or
        nobody yet, or one that advertises no address), the caller serves it here."""
        if self.homes.get(role):
            return None
        holder = await self.redis.get(f"home:{role}")
        if holder is None and role in self.homes:
            # nobody holds it yet (this instance has just started): take it now, or learn who did, rather than
            # serve a second lobby here that the other instances' clients would never meet
            await self._renew_homes()
            if self.homes[role]:
                return None
            holder = await self.redis.get(f"home:{role}")
        return await self._url_of_other(holder)

    def round_limit(self) -> float:
        """Seconds one renewal round may take before it is given up: half of what a lease leaves after a renewal
        interval, so that a round given up is followed by another as long before the leases lapse."""
        return (self.lease_ms / 1000 - self.renew_every) / 2

    async def _renew_loop(self) -> None:
        """Renew every lease this instance holds, then the rest of its state in Redis, every ``renew_every``.

        A lease lapses when its owner goes a lease's life without a renewal, and another instance then takes the
        match over while it still runs here. So a round is bounded (:meth:`round_limit`), the leases come first in
        it, and an instance that renews late says why: its event loop ran the round late (something held the loop,
        or the machine gave the process no CPU), or Redis answered slowly."""
        due = time.monotonic()
        while True:
            stop_if_cancelled()
            due = max(due + self.renew_every, time.monotonic())
            await asyncio.sleep(due - time.monotonic())
            began = time.monotonic()
            if began - due > self.round_limit():
                log.warning(
                    "the lease renewal ran %.2f s late (leases live %.2f s): this instance's event loop was held "
                    "or the process got no CPU",
                    began - due,
                    self.lease_ms / 1000,
                )
            try:
                async with asyncio.timeout(self.round_limit()):
                    await self._renew_round()
            except TimeoutError:
                stop_if_cancelled()
                log.warning(
                    "a lease renewal round took over %.2f s (leases live %.2f s); Redis answers slowly or a "
                    "connection to it hangs: it is given up and the next round tries again",
                    self.round_limit(),
                    self.lease_ms / 1000,
                )

    async def _renew_round(self) -> None:
        await self._renew_leases()
        await self._check_epoch()
        stop_if_cancelled()
        with _redis_may_be_away():
            await self._advertise()
            await self._renew_homes()

    async def _renew_leases(self) -> None:
        async with self._renewing:
            await self._renew_listed()

    async def _renew_listed(self) -> None:
        ids = list(self.owned)
        if not ids:
            self.watched = set()
            return
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for match_id in ids:
                    await self._renew(keys=[lease_key(match_id)], args=[self.instance, self.lease_ms], client=pipe)
                pipe.mget([watched_key(m) for m in ids])
                *renewed, watchers = await pipe.execute()
        except (redis.RedisError, OSError):
            stop_if_cancelled()
            log.warning("could not renew %d match lease(s)", len(ids), exc_info=True)
            return
        self.watched = {m for m, w in zip(ids, watchers, strict=True) if w is not None}
        retaken = [m for m, ok in zip(ids, renewed, strict=True) if ok == 2 and m in self.metas]
        if retaken:  # Redis lost them: the meta is written back from this instance's own copy
            log.warning("took %d lease(s) again after Redis lost them", len(retaken))
            with _redis_may_be_away():
                async with self.redis.pipeline(transaction=False) as pipe:
                    for match_id in retaken:
                        pipe.set(meta_key(match_id), json.dumps(self.metas[match_id]), ex=META_TTL)
                    await pipe.execute()
        for match_id, ok in zip(ids, renewed, strict=True):
            if not ok and match_id in self.owned:
                log.error("match %s: its lease is gone or another instance's; this instance stops it", match_id)
                self.owned.discard(match_id)
                self.metas.pop(match_id, None)
                prefix = match_id.partition(":")[0] + ":" if ":" in match_id else ""
                handler = self.lost_handlers.get(prefix) if prefix else self.on_lost
                if handler is not None:
                    handler(match_id)

    # ----- events -----

    def publish(self, match_id: str, event: JsonObject) -> None:
        """Queue an event of a match for every instance (returns at once; one task sends them in order)."""
        self._send("PUBLISH", channel(match_id), json.dumps(event, separators=(",", ":")))

    def _send(self, *command: str | int) -> None:
        self._pending.append(command)
        self._wake.set()

    # ----- seat tokens -----

    def add_token(self, token: str, match_id: str) -> None:
        """A seat token of a match this instance plays: other instances relay its sockets here."""
        key = token_key(token)
        self._tokens[key] = match_id
        self._send("SET", key, match_id, "EX", META_TTL)

    def drop_token(self, token: str) -> None:
        key = token_key(token)
        self._tokens.pop(key, None)
        self._send("DEL", key)

    async def seat_url(self, token: str) -> str | None:
        """``http://host:port`` of the instance playing the match a seat token belongs to; None when no other
        instance does (an unknown token, a match over, an owner that advertises no address or is this one)."""
        match_id = await self.redis.get(token_key(token))
        owner = None if match_id is None else await self.redis.get(lease_key(str(match_id)))
        if owner is None or owner == self.instance:
            return None
        url = await self.redis.get(url_key(str(owner)))
        return None if url is None else str(url)

    async def _publish_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._flush_events()
            except (redis.RedisError, OSError):
                stop_if_cancelled()
                log.warning("could not publish match events; retrying", exc_info=True)
                await asyncio.sleep(0.5)
                self._wake.set()

    async def _flush_events(self) -> None:
        while self._pending:
            batch = list(self._pending)
            async with self.redis.pipeline(transaction=False) as pipe:
                for command in batch:
                    pipe.execute_command(*command)
                await pipe.execute()
            for _ in batch:
                self._pending.popleft()

    @contextlib.asynccontextmanager
    async def events(self, match_id: str) -> AsyncIterator[asyncio.Queue[JsonObject]]:
        """Subscribe to a match's events: a queue of them, filled from the moment this is entered (moves: once
        the owner's next lease renewal saw the ``match-watched`` key this keeps alive meanwhile).

        A subscription whose connection to Redis breaks (Redis restarted, or away a while) subscribes again until
        it is back, marks the match watched again at once, and queues ``{"type": "resync"}``: the events published
        meanwhile are lost, and the reader catches up from the store. The watched key is written again as soon as
        Redis answers after a break or turns out emptied (this instance's renewals check), and every
        :data:`RESUBSCRIBE_EVERY` while writing it fails: without it the owner stops publishing the moves."""
        pubsub = self._subscriber.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(channel(match_id))
        queue: asyncio.Queue[JsonObject] = asyncio.Queue()
        watching = asyncio.Event()

        async def read() -> None:
            nonlocal pubsub
            while True:
                try:
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            queue.put_nowait(json.loads(message["data"]))
                except Exception as exc:  # whatever broke it, a watch that stops reading would never say so
                    stop_if_cancelled()
                    log.warning(
                        "the subscription to match %s broke (%s: %s); subscribing again",
                        match_id,
                        type(exc).__name__,
                        str(exc)[:200],
                    )
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                while True:
                    stop_if_cancelled()
                    await asyncio.sleep(RESUBSCRIBE_EVERY)
                    pubsub = self._subscriber.pubsub(ignore_subscribe_messages=True)
                    try:
                        await pubsub.subscribe(channel(match_id))
                        break
                    except (redis.RedisError, OSError):
                        with contextlib.suppress(Exception):
                            await pubsub.aclose()  # type: ignore[no-untyped-call]
                watching.set()  # the watched key may be gone with the Redis that held it
                queue.put_nowait({"type": "resync"})

        async def keep_watching() -> None:
            while True:
                watching.clear()  # before the write: a wake while it is under way writes again
                try:
                    await self.redis.set(watched_key(match_id), self.instance, ex=WATCH_TTL)
                except (redis.RedisError, OSError):
                    stop_if_cancelled()
                    await asyncio.sleep(RESUBSCRIBE_EVERY)
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(watching.wait(), WATCH_TTL / 3)

        self._watch_wakes.add(watching)
        tasks = [
            asyncio.create_task(read(), name=f"hexarena-watch-{match_id}"),
            asyncio.create_task(keep_watching(), name=f"hexarena-watching-{match_id}"),
        ]
        try:
            yield queue
        finally:
            self._watch_wakes.discard(watching)
            await stop_tasks(tasks, f"the watch of match {match_id}")
            with contextlib.suppress(Exception):
                await pubsub.unsubscribe()
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]


__all__ = [
    "Cluster",
    "ClusterUnavailable",
    "channel",
    "lease_key",
    "meta_key",
    "new_instance_id",
    "token_key",
    "url_key",
    "watched_key",
]
