"""What keeps pytest-xdist's workers apart where they share a service (docs/guide/testing.md)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import pytest

REDIS_ENV = "HEXARENA_TEST_REDIS_URL"
#: Redis has databases 0-15 by default; worker ``gwN`` takes ``N + 1`` (0 stays for serial runs and servers).
REDIS_DATABASES = 16


def worker_redis_url(url: str, worker: str | None) -> str:
    """The Redis URL worker ``worker`` (``gw0``, ``gw1``, ...; None outside xdist) uses: its own database number.

    Why: the cluster code keeps instance-wide keys (the epoch, every instance's advertised URL, found by a scan),
    so two workers' servers on one database would see each other's instances. A URL naming a database already is
    kept as it is (whoever set it chose).
    """
    parts = urlsplit(url)
    if worker is None or parts.path.strip("/"):
        return url
    number = int(worker.removeprefix("gw")) + 1
    if number >= REDIS_DATABASES:
        raise pytest.UsageError(f"{REDIS_ENV}: worker {worker} needs Redis database {number}; run fewer workers")
    return urlunsplit(parts._replace(path=f"/{number}"))
