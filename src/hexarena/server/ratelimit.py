"""Per-client rate limits for anonymous creates (matches, HTTTX games, tournaments, dots tables).

Why: creating costs the server (a live match, a table held in memory, a tournament's worker tasks) and asks
nothing of the client, so one client looping on ``POST`` could fill every table or start thousands of games.
Every create endpoint draws on one budget per client address, counted in a moving window by the ``limits``
library (in memory: one server process). The default, 60 creates a minute per client, is far above what a
person in the web UI or a test does, and configurable with ``Settings.create_rate_limit`` (a ``limits`` string
such as ``"10/minute;200/hour"``; None turns the limit off); the server's one limiter is ``Services.limiter`` and
``server.services.limit_creates`` the dependency of the create endpoints. A refused create gets 429 with ``Retry-After``
(whole seconds) and a message saying when to retry.

Clients are told apart by the connection's address; behind a reverse proxy that is the proxy's, so such a
deployment should let the proxy limit per real client (or run uvicorn with ``--proxy-headers``).

Several instances (``--redis-url``) keep the budgets in Redis, so a client's creates count once wherever they land
(per-instance budgets gave a client the whole limit once per instance). If Redis does not answer, each instance
counts in its own memory until it does: creates are neither refused for Redis's sake nor left unlimited.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from starlette.requests import Request

from hexarena.core.extras import require_redis

log = logging.getLogger(__name__)

DEFAULT_CREATE_LIMIT = "60/minute"
#: Seconds a call to Redis may take before this instance counts a create itself.
REDIS_TIMEOUT = 1.0


class CreateLimiter:
    """One budget of creates per client address; ``limit`` is a ``limits`` string (None: unlimited), kept in
    Redis at ``redis_url`` when given (shared by every instance using the same ``key_prefix``)."""

    def __init__(
        self, limit: str | None = DEFAULT_CREATE_LIMIT, *, redis_url: str | None = None, key_prefix: str = "hexarena"
    ) -> None:
        try:
            self.items: list[RateLimitItem] = parse_many(limit) if limit else []
        except ValueError as exc:
            raise ValueError(f"bad create rate limit {limit!r} (use e.g. '60/minute'): {exc}") from None
        self._local = MovingWindowRateLimiter(MemoryStorage())
        self._shared: MovingWindowRateLimiter | None = None
        self._pool: Any = None  # redis.asyncio.ConnectionPool, imported only for a shared budget
        if redis_url and self.items:
            require_redis()  # an extra (hexarena[cluster]); imported here, not on every start without Redis
            from limits.aio.storage import RedisStorage
            from redis.asyncio import ConnectionPool

            # our own pool, so that ``close`` can let its connections go (the storage has no close of its own)
            self._pool = ConnectionPool.from_url(
                redis_url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT
            )
            storage = RedisStorage(
                redis_url,
                implementation="redispy",
                key_prefix=f"{key_prefix}:creates",
                wrap_exceptions=True,
                connection_pool=self._pool,
            )
            self._shared = MovingWindowRateLimiter(storage)
        self._shared_down = False

    async def hit(self, client: str) -> tuple[int, RateLimitItem] | None:
        """Count one create of ``client``; None when allowed, else (seconds to wait, the limit it hit)."""
        if self._shared is not None:
            try:
                refused = await self._hit(self._shared, client)
            except StorageError as exc:
                if not self._shared_down:
                    log.warning("Redis does not answer (%s): counting creates in this instance only", exc)
                self._shared_down = True
            else:
                if self._shared_down:
                    log.warning("Redis answers again: creates count in the shared budget")
                self._shared_down = False
                return refused
        return await self._hit(self._local, client)

    async def _hit(self, strategy: MovingWindowRateLimiter, client: str) -> tuple[int, RateLimitItem] | None:
        for item in self.items:
            if not await strategy.test(item, "create", client):
                return await self._wait(strategy, item, client), item
        for item in self.items:
            if not await strategy.hit(item, "create", client):  # another instance took the last one meanwhile
                return await self._wait(strategy, item, client), item
        return None

    @staticmethod
    async def _wait(strategy: MovingWindowRateLimiter, item: RateLimitItem, client: str) -> int:
        reset = (await strategy.get_window_stats(item, "create", client)).reset_time
        return max(1, math.ceil(reset - time.time()))

    async def close(self) -> None:
        """Let the Redis connections go (the server's shutdown); a later create connects again."""
        if self._pool is not None:
            await self._pool.aclose()

    async def shared_reachable(self) -> bool:
        """True when the budgets are in a Redis that answers (for start-up checks and tests)."""
        if self._shared is None:
            return False
        try:
            return bool(await self._shared.storage.check())
        except StorageError:
            return False


def client_of(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def refusal(client: str, wait: int, item: RateLimitItem) -> tuple[str, dict[str, str]]:
    """The message and headers of a 429."""
    message = f"too many new games from {client} (at most {item}); retry in {wait} s"
    return message, {"Retry-After": str(wait)}


__all__ = ["DEFAULT_CREATE_LIMIT", "CreateLimiter", "client_of", "refusal"]
