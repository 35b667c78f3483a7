"""Several instances on one PostgreSQL and Redis: exactly one pairs (the holder of the cluster's ``ladder`` home),
and when it stops another takes the ladder over."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path
from typing import Any

import httpx
import pytest

from fakes.servers import serve_app
from hexarena.bots.sdk import bot_class_for, make_app
from hexarena.server.app import Settings, create_app
from hexarena.server.cluster_timing import ClusterTiming
from hexarena.server.ladder_pairing import LadderSettings

REDIS_URL = os.environ.get("HEXARENA_TEST_REDIS_URL", "redis://127.0.0.1:6379")
#: Leases that a loaded machine's stalls cannot outlive: who pairs changes here only because an instance stops
#: (a stopping instance gives its homes up at once), never because a renewal came late. Renewed often, so that
#: the other instance takes the home that was given up soon after.
TIMING = ClusterTiming(lease=120, renew=0.25, scan=0.25)

pytestmark = [
    pytest.mark.fault,  # an instance stops and another takes the ladder over: timed, so run alone
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("HEXARENA_TEST_DATABASE_URL"), reason="needs HEXARENA_TEST_DATABASE_URL"),
    pytest.mark.parametrize("database_url", ["postgresql"], indirect=True),
]


def instance(database_url: str, data: Path) -> Any:
    pace = LadderSettings(games_per_hour=36_000, concurrency=2, tick=0.05, params={"htttx": {"turn_limit": 12}})
    settings = Settings(
        database_url=database_url, redis_url=REDIS_URL, data_dir=data, ladder=pace, cluster_timing=TIMING
    )
    settings.create_rate_limit = None
    return create_app(settings)


async def games_played(client: httpx.AsyncClient) -> int:
    """Ladder games counted (each counts for both of its bots)."""
    return sum(s["games"] for s in (await client.get("/api/ladder")).json()["standings"]) // 2


async def until_games(client: httpx.AsyncClient, at_least: int) -> None:
    for _ in range(1200):
        if await games_played(client) >= at_least:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"fewer than {at_least} ladder games were played")


async def test_one_instance_pairs_and_another_takes_over(database_url: str, tmp_path: Path) -> None:
    a, b = instance(database_url, tmp_path / "a"), instance(database_url, tmp_path / "b")
    async with (
        serve_app(make_app(bot_class_for("heuristic"))) as heur,
        serve_app(make_app(bot_class_for("random"))) as rand,
        contextlib.AsyncExitStack() as b_stack,
    ):
        a_stack = contextlib.AsyncExitStack()
        async with a_stack:
            await a_stack.enter_async_context(serve_app(a))
            for _ in range(600):  # A takes the ladder home first (its first renewal)
                if a.state.ladder.leads():
                    break
                await asyncio.sleep(0.05)
            assert a.state.ladder.leads()
            b_url = await b_stack.enter_async_context(serve_app(b))
            client = await b_stack.enter_async_context(httpx.AsyncClient(base_url=b_url, timeout=30))
            for name, url in (("heur", heur), ("rand", rand)):
                body = {"name": name, "game": "htttx", "spec": url, "owner": "me"}
                assert (await client.post("/api/ladder/bots", json=body)).status_code == 201  # registered on B
            await until_games(client, 6)
            assert a.state.ladder.started >= 6 and b.state.ladder.started == 0  # one scheduler pairs
            assert not b.state.ladder.leads()
        # A stopped: B takes the ladder home over within a lease's life and pairs from then on. (Counted by the
        # games B starts: games A left in flight may still end after it stopped, and count as played too.)
        played = await games_played(client)
        for _ in range(3000):
            if b.state.ladder.started >= 4:
                break
            await asyncio.sleep(0.1)
        assert b.state.ladder.started >= 4, "B never took the ladder over"
        await until_games(client, played + 4)
