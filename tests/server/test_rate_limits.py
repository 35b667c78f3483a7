"""Anonymous creates are rate limited per client (issue 12, finding 7: 10,000 ``POST /`` locked the dots server).

A real server on loopback with a small limit: every create endpoint (``/game/new``, ``/api/matches``,
``/api/tournaments``, dots ``POST /`` under ``/dots`` and on its own port) draws on one budget per client, and the
create past it gets 429 with ``Retry-After`` and a message saying when to retry. The default stays generous.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from fakes.servers import serve_app
from hexarena.server.app import Settings, create_app
from hexarena.server.dots.routes import dots_app
from hexarena.server.ratelimit import CreateLimiter

MATCH = {"game": "numberwang", "players": ["builtin:random", "builtin:random"]}
HTTTX = {"player_x": {"type": "builtin", "name": "random"}, "player_o": {"type": "builtin", "name": "random"}}
TOURNAMENT = {
    "game": "numberwang",
    "players": ["builtin:random", "builtin:random"],
    "names": ["a", "b"],
    "clock": {"kind": "turn", "seconds": 1},
}
DOTS = {"rows": 3, "cols": 5}
REDIS_URL = os.environ.get("HEXARENA_TEST_REDIS_URL", "redis://127.0.0.1:6379")


@pytest.fixture
async def servers(migrated_sqlite_url: str) -> AsyncIterator[tuple[str, str]]:
    app = create_app(Settings(database_url=migrated_sqlite_url, create_rate_limit="2/minute"))
    async with serve_app(app) as url, serve_app(dots_app(app), lifespan="off") as dots_url:
        yield url, dots_url


def assert_429(r: httpx.Response) -> None:
    assert r.status_code == 429, (r.request.url, r.status_code, r.text)
    wait = int(r.headers["Retry-After"])
    assert 0 < wait <= 60
    text = r.text
    assert f"retry in {wait} s" in text and "2 per 1 minute" in text, text


@pytest.mark.parametrize(
    ("path", "body"),
    [("/api/matches", MATCH), ("/game/new", HTTTX), ("/api/tournaments", TOURNAMENT), ("/dots/", DOTS)],
)
async def test_each_create_endpoint_answers_429_past_the_limit(
    servers: tuple[str, str], path: str, body: dict[str, Any]
) -> None:
    url, _ = servers
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        for _ in range(2):
            r = await client.post(path, json=body)
            assert r.status_code in (200, 201), r.text
        assert_429(await client.post(path, json=body))
        # reads are not creates: still served
        assert (await client.get("/healthz")).status_code == 200


async def test_one_budget_across_endpoints_and_the_dots_port(servers: tuple[str, str]) -> None:
    url, dots_url = servers
    async with httpx.AsyncClient(timeout=30) as client:
        assert (await client.post(f"{dots_url}/", json=DOTS)).status_code == 201
        assert (await client.post(f"{url}/api/matches", json=MATCH)).status_code == 200
        r = await client.post(f"{dots_url}/", json=DOTS)
        assert_429(r)
        assert r.json()["error"].startswith("too many new games")  # the dots protocol's error shape
        assert_429(await client.post(f"{url}/api/tournaments", json=TOURNAMENT))


async def test_refused_creates_do_not_count_and_the_budget_comes_back() -> None:
    limiter = CreateLimiter("2/second")
    assert await limiter.hit("a") is None and await limiter.hit("a") is None
    refused = await limiter.hit("a")
    assert refused is not None and refused[0] == 1
    assert await limiter.hit("b") is None  # per client
    for _ in range(300):  # the window moves on (bounded wait)
        if await limiter.hit("a") is None:
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the budget never came back")


async def test_instances_on_one_redis_share_each_clients_budget() -> None:
    """Several instances (``--redis-url``): a client's creates count once, wherever they land; without the shared
    budget each instance gave a client the whole limit again."""
    client = "198.51.100." + str(uuid.uuid4().int % 250)
    prefix = "hexarena-test-" + uuid.uuid4().hex
    a = CreateLimiter("3/minute", redis_url=REDIS_URL, key_prefix=prefix)
    b = CreateLimiter("3/minute", redis_url=REDIS_URL, key_prefix=prefix)
    try:
        if not await a.shared_reachable():
            pytest.skip(f"no Redis at {REDIS_URL}")
        assert await a.hit(client) is None
        assert await b.hit(client) is None
        assert await a.hit(client) is None
        refused = await b.hit(client)
        assert refused is not None and str(refused[1]) == "3 per 1 minute"
        assert await a.hit("203.0.113.9") is None  # another client's budget is its own
    finally:
        await a.close()
        await b.close()


async def test_without_redis_each_instance_counts_alone_and_says_so(caplog: pytest.LogCaptureFixture) -> None:
    """Redis away: creates are not refused for it (nor let through unlimited): the instance counts them itself."""
    limiter = CreateLimiter("2/minute", redis_url="redis://127.0.0.1:1")
    assert await limiter.hit("a") is None and await limiter.hit("a") is None
    assert await limiter.hit("a") is not None
    await limiter.close()
    assert "counting creates in this instance only" in caplog.text


async def test_no_limit_and_bad_limits() -> None:
    unlimited = CreateLimiter(None)
    assert all([await unlimited.hit("a") is None for _ in range(1000)])
    with pytest.raises(ValueError, match="bad create rate limit"):
        CreateLimiter("lots")
    with pytest.raises(ValueError, match="bad create rate limit"):  # at start-up, not as a 500 per request
        create_app(Settings(use_store=False, create_rate_limit="lots"))


async def test_the_default_limit_is_generous(migrated_sqlite_url: str) -> None:
    app = create_app(Settings(database_url=migrated_sqlite_url))
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        for _ in range(30):
            r = await client.post("/dots/", json=DOTS)
            assert r.status_code == 201, r.text
