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
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import Request

DEFAULT_CREATE_LIMIT = "60/minute"


class CreateLimiter:
    """One budget of creates per client address; ``limit`` is a ``limits`` string (None: unlimited)."""

    def __init__(self, limit: str | None = DEFAULT_CREATE_LIMIT) -> None:
        try:
            self.items: list[RateLimitItem] = parse_many(limit) if limit else []
        except ValueError as exc:
            raise ValueError(f"bad create rate limit {limit!r} (use e.g. '60/minute'): {exc}") from None
        self._strategy = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, client: str) -> tuple[int, RateLimitItem] | None:
        """Count one create of ``client``; None when allowed, else (seconds to wait, the limit it hit)."""
        for item in self.items:
            if not self._strategy.test(item, "create", client):
                reset = self._strategy.get_window_stats(item, "create", client).reset_time
                return max(1, math.ceil(reset - time.time())), item
        for item in self.items:
            self._strategy.hit(item, "create", client)
        return None


def client_of(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def refusal(client: str, wait: int, item: RateLimitItem) -> tuple[str, dict[str, str]]:
    """The message and headers of a 429."""
    message = f"too many new games from {client} (at most {item}); retry in {wait} s"
    return message, {"Retry-After": str(wait)}


__all__ = ["DEFAULT_CREATE_LIMIT", "CreateLimiter", "client_of", "refusal"]
