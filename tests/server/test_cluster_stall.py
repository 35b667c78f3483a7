"""An instance keeps its leases when one connection to Redis hangs, and says why when its renewals come late.

The hanging connection is real: a TCP relay on loopback between the instance and the real Redis that, when told,
stops passing bytes on the connections it has (a connection left half-open by a Redis restart or a network fault:
the socket stays open, nothing comes back), while new connections go through as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
import uuid
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest
import redis.asyncio as redis

from hexarena.server.cluster import COMMAND_TIMEOUT, Cluster, lease_key
from hexarena.server.cluster_timing import ClusterTiming

REDIS_URL = os.environ.get("HEXARENA_TEST_REDIS_URL", "redis://127.0.0.1:6379")
#: Leases of 3 s renewed every 0.5 s (a round may take 1.25 s, see ``Cluster.round_limit``): short enough that a lapse
#: shows within seconds, long enough that a loaded machine's stalls do not cause one.
TIMING = ClusterTiming(lease=3.0, renew=0.5)


class FreezingRelay:
    """Passes bytes between clients and Redis until :meth:`freeze`: from then on the connections it has hang
    (open, silent both ways); connections made afterwards pass bytes as before."""

    def __init__(self) -> None:
        self.server: asyncio.Server | None = None
        self.frozen: list[asyncio.Event] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.url = ""

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        self.url = f"redis://127.0.0.1:{port}{urlsplit(REDIS_URL).path}"

    def freeze(self) -> None:
        for event in self.frozen:
            event.set()
        self.frozen = []

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        target = urlsplit(REDIS_URL)
        up_reader, up_writer = await asyncio.open_connection(target.hostname, target.port or 6379)
        frozen = asyncio.Event()
        self.frozen.append(frozen)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while (data := await src.read(65536)) and not frozen.is_set():
                dst.write(data)
                await dst.drain()
            if frozen.is_set():
                await asyncio.Event().wait()  # what came is swallowed and the connection held open, silent

        pipes = [asyncio.create_task(pipe(reader, up_writer)), asyncio.create_task(pipe(up_reader, writer))]
        self.tasks.update(pipes)
        try:
            await asyncio.gather(*pipes)
        finally:
            for w in (writer, up_writer):
                w.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


@pytest.fixture
async def relay() -> AsyncIterator[FreezingRelay]:
    relay = FreezingRelay()
    await relay.start()
    yield relay
    await relay.close()


@pytest.fixture
async def direct() -> AsyncIterator[redis.Redis]:
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    try:
        await client.ping()
    except (redis.RedisError, OSError):
        pytest.skip(f"no Redis at {REDIS_URL}")
    yield client
    await client.aclose()


@contextlib.asynccontextmanager
async def instance(url: str) -> AsyncIterator[Cluster]:
    cluster = Cluster(url, instance="stall-" + uuid.uuid4().hex, timing=TIMING)
    await cluster.open()
    try:
        yield cluster
    finally:
        await asyncio.wait_for(cluster.close(), 10)


async def test_a_hanging_connection_to_redis_does_not_cost_an_instance_its_leases(
    relay: FreezingRelay, direct: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    match = uuid.uuid4().hex
    lost: list[str] = []
    async with instance(relay.url) as cluster:
        cluster.on_lost = lost.append
        assert await cluster.claim(match, {"clock": None})
        await asyncio.sleep(2 * TIMING.renew)
        with caplog.at_level(logging.WARNING, logger="hexarena.server.cluster"):
            relay.freeze()  # every connection the instance has now hangs; new ones would not
            # two lease lives: a renewal stuck on a hung connection for as long as the OS keeps it would let
            # the lease lapse after one
            end = time.monotonic() + 2 * TIMING.lease
            while time.monotonic() < end:
                assert await direct.get(lease_key(match)) == cluster.instance, "the lease lapsed"
                await asyncio.sleep(0.05)
        assert not lost and match in cluster.owned
        await cluster.release(match)
    assert await direct.get(lease_key(match)) is None
    # what an operator reads: why the renewal was late
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("connection to it hangs" in w or "could not renew" in w for w in warnings), warnings


async def test_a_renewal_the_event_loop_runs_late_is_logged_with_its_cause(
    direct: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    async with instance(REDIS_URL) as cluster:
        await asyncio.sleep(2 * TIMING.renew)
        with caplog.at_level(logging.WARNING, logger="hexarena.server.cluster"):
            # the event loop held, on purpose, past a renewal and the lateness that is worth a warning
            time.sleep(TIMING.renew + cluster.round_limit() + 0.25)  # noqa: ASYNC251
            await asyncio.sleep(2 * TIMING.renew)
    late = [r.getMessage() for r in caplog.records if "ran" in r.getMessage() and "late" in r.getMessage()]
    assert late and "event loop was held" in late[0], [r.getMessage() for r in caplog.records]


async def test_a_subscription_outlives_the_command_timeout(direct: redis.Redis) -> None:
    """Commands fail after ``COMMAND_TIMEOUT`` of silence; a subscription waits as long as its match is quiet."""
    match = uuid.uuid4().hex
    async with instance(REDIS_URL) as cluster:
        async with cluster.events(match) as queue:
            await asyncio.sleep(COMMAND_TIMEOUT + 0.5)  # quiet for longer than a command may take
            await direct.publish(f"match-events:{match}", '{"type": "board_update", "ply": 0}')
            event = await asyncio.wait_for(queue.get(), 5)
        assert event == {"type": "board_update", "ply": 0}, event
