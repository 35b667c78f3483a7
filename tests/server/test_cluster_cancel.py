"""Stopping the cluster's background loops when redis-py turns their cancellation into a ``ConnectionError``.

redis-py can answer the cancellation of a command in flight with ``ConnectionError`` ("Connection closed by
server") instead of letting the ``CancelledError`` through. A loop that takes Redis errors for Redis being away a
moment and carries on then never ends, and whoever waits for it to end (``Cluster.close`` at shutdown, a
spectator's watch being stopped) waits for ever: CI hung in ``test_remote_takeback`` that way. Each test here
makes one loop's Redis call behave as redis-py does on a cancellation (the one part scripted: a real Redis does
it only when the cancellation lands mid-read) and asks the owner to stop; a hang fails on the bound.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
import redis.exceptions
from test_cluster_lease import REDIS_URL

from hexarena.server.cluster import Cluster
from hexarena.server.cluster_timing import ClusterTiming

#: How long stopping may take before it counts as hung (it takes milliseconds; the margin is for a loaded machine).
BOUND = 30.0


async def _cancel_becomes_connection_error() -> None:
    """A Redis call in flight that redis-py ends with ConnectionError when its task is cancelled."""
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        raise redis.exceptions.ConnectionError("Connection closed by server.") from None


async def _ends(awaitable: Any, what: str) -> None:
    """``awaitable`` finishes within the bound (without cancelling it: a cancelled close that hangs hangs on)."""
    task = asyncio.ensure_future(awaitable)
    done, _ = await asyncio.wait({task}, timeout=BOUND)
    assert task in done, f"{what} never ended: a loop took its cancellation for Redis being away"
    task.result()


async def _opened(**kwargs: Any) -> Cluster:
    timing = ClusterTiming(lease=0.6, renew=0.05)
    cluster = Cluster(REDIS_URL, instance="c-" + uuid.uuid4().hex, timing=timing, **kwargs)
    try:
        await cluster.open()
    except OSError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    return cluster


def _stuck(monkeypatch: pytest.MonkeyPatch, client: Any, command: str) -> asyncio.Event:
    """From now on the client's ``command`` (a redis-py client method: ``set``, ``evalsha``, or a pipeline's
    ``execute``) blocks until cancelled, then fails as redis-py does; the event is set once a loop is in it. Only
    this client's calls change: the cluster's code runs as it is."""
    inside = asyncio.Event()

    async def stuck(*_: Any, **__: Any) -> None:
        inside.set()
        await _cancel_becomes_connection_error()

    if command == "pipeline":
        make = client.pipeline

        def pipeline(*args: Any, **kwargs: Any) -> Any:
            pipe = make(*args, **kwargs)
            pipe.execute = stuck
            return pipe

        monkeypatch.setattr(client, "pipeline", pipeline)
    else:
        monkeypatch.setattr(client, command, stuck)
    return inside


@pytest.mark.parametrize("call", ["set", "evalsha"])  # the instance's address; the renewal script (a home)
async def test_close_ends_the_renewal_loop_whatever_redis_py_raises_on_cancel(
    monkeypatch: pytest.MonkeyPatch, call: str
) -> None:
    cluster = await _opened(advertise_url="http://127.0.0.1:9")
    cluster.want_home("cancel-test-" + uuid.uuid4().hex)
    inside = _stuck(monkeypatch, cluster.redis, call)
    await asyncio.wait_for(inside.wait(), BOUND)
    await _ends(cluster.close(), "Cluster.close")


async def test_close_ends_the_publishing_loop_whatever_redis_py_raises_on_cancel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cluster = await _opened()
    inside = _stuck(monkeypatch, cluster.redis, "pipeline")  # events go out in pipelined batches
    cluster.publish("m-" + uuid.uuid4().hex, {"type": "move"})
    await asyncio.wait_for(inside.wait(), BOUND)
    await _ends(cluster.close(), "Cluster.close")


async def test_leaving_a_watch_ends_its_keep_alive_whatever_redis_py_raises_on_cancel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cluster = await _opened()
    inside = _stuck(monkeypatch, cluster.redis, "set")  # the watch's keep-alive

    async def watch() -> None:
        async with cluster.events("m-" + uuid.uuid4().hex):
            await asyncio.wait_for(inside.wait(), BOUND)

    try:
        await _ends(watch(), "leaving the watch")
    finally:
        monkeypatch.undo()
        await _ends(cluster.close(), "Cluster.close")
