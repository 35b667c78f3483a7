"""Several instances on one PostgreSQL and Redis: exactly one pairs (the holder of the cluster's ``ladder`` home),
and when it stops another takes the ladder over."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from fakes.servers import serve_app
from hexarena.bots.sdk import bot_class_for, make_app
from hexarena.server.app import Settings, create_app
from hexarena.server.cluster_timing import ClusterTiming
from hexarena.server.ladder_pairing import LadderSettings
from server.procs import private_redis

#: Leases that a loaded machine's stalls cannot outlive: who pairs changes here only because an instance stops
#: (a stopping instance gives its homes up at once), never because a renewal came late. Renewed often, so that
#: the other instance takes the home that was given up soon after.
TIMING = ClusterTiming(lease=120, renew=0.25, scan=0.25)

pytestmark = [
    pytest.mark.fault,  # an instance stops and another takes the ladder over
    # above the sum of the test's own bounded waits (``until``), so that one of them fails first, saying why
    pytest.mark.timeout(600),
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("HEXARENA_TEST_DATABASE_URL"), reason="needs HEXARENA_TEST_DATABASE_URL"),
    pytest.mark.parametrize("database_url", ["postgresql"], indirect=True),
]


def instance(database_url: str, redis_url: str, data: Path) -> Any:
    # A turn clock no stall of a loaded machine uses up, and no pausing: three forfeits in a row (the default
    # fail_limit) paused a bot, after which nobody pairs and a wait for more games can only run out. The claim
    # here is who pairs, not what a forfeit does (tests/ladder/test_ladder.py).
    pace = LadderSettings(
        games_per_hour=36_000,
        concurrency=2,
        tick=0.05,
        move_seconds=60,
        fail_limit=1000,
        params={"htttx": {"turn_limit": 12}},
    )
    settings = Settings(
        database_url=database_url, redis_url=redis_url, data_dir=data, ladder=pace, cluster_timing=TIMING
    )
    settings.create_rate_limit = None
    return create_app(settings)


async def games_played(client: httpx.AsyncClient) -> int:
    """Ladder games counted (each counts for both of its bots)."""
    return sum(s["games"] for s in (await client.get("/api/ladder")).json()["standings"]) // 2


async def ladder_state(client: httpx.AsyncClient, *apps: Any) -> str:
    """What a failed wait reports: each instance's part (leads, games started) and each bot's standing (a paused
    bot, with why, is the usual reason that nobody pairs any more)."""
    instances = ", ".join(
        f"{name}: leads={app.state.ladder.leads()} started={app.state.ladder.started}" for name, app in apps
    )
    bots = "; ".join(
        f"{s['name']} {s['status']} games={s['games']} forfeits={s['forfeits']} failures_in_row={s['failures_in_row']}"
        + (f" ({s['pause_reason']})" if s["pause_reason"] else "")
        for s in (await client.get("/api/ladder")).json()["standings"]
    )
    return f"{instances}; bots: {bots}"


async def until(
    done: Callable[[], Awaitable[bool]], what: str, state: Callable[[], Awaitable[str]], timeout: float
) -> None:
    """Wait for ``done()`` at most ``timeout`` seconds; past that, fail saying ``what`` and the ladder's state.

    Why: a wait that only pytest-timeout ends leaves a thread dump of idle threads and an idle event loop, which
    says nothing of why nobody pairs; this one fails first, with each instance's part and each bot's standing."""
    deadline = time.monotonic() + timeout
    while not await done():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout:g} s: {await state()}")
        await asyncio.sleep(0.1)


async def test_one_instance_pairs_and_another_takes_over(database_url: str, tmp_path: Path) -> None:
    # A Redis of its own: the homes its instances hold (the battlebot and dots lobbies too) live 120 s, and would
    # keep the next cluster test of this xdist worker from holding any for as long
    with private_redis() as redis:
        await _pairs_and_takes_over(database_url, redis.url, tmp_path)


async def _pairs_and_takes_over(database_url: str, redis_url: str, tmp_path: Path) -> None:
    a, b = instance(database_url, redis_url, tmp_path / "a"), instance(database_url, redis_url, tmp_path / "b")
    async with (
        serve_app(make_app(bot_class_for("heuristic"))) as heur,
        serve_app(make_app(bot_class_for("random"))) as rand,
        contextlib.AsyncExitStack() as b_stack,
    ):
        a_stack = contextlib.AsyncExitStack()
        async with a_stack:
            await a_stack.enter_async_context(serve_app(a))

            async def a_leads() -> bool:
                return bool(a.state.ladder.leads())

            async def nothing_yet() -> str:
                return f"A leads={a.state.ladder.leads()}"

            await until(a_leads, "A did not take the ladder home (its first renewal)", nothing_yet, 60)
            b_url = await b_stack.enter_async_context(serve_app(b))
            client = await b_stack.enter_async_context(httpx.AsyncClient(base_url=b_url, timeout=30))

            async def state() -> str:
                return await ladder_state(client, ("A", a), ("B", b))

            for name, url in (("heur", heur), ("rand", rand)):
                body = {"name": name, "game": "htttx", "spec": url, "owner": "me"}
                assert (await client.post("/api/ladder/bots", json=body)).status_code == 201  # registered on B

            async def six_played() -> bool:
                return await games_played(client) >= 6

            await until(six_played, "fewer than 6 ladder games were played", state, 120)
            assert a.state.ladder.started >= 6 and b.state.ladder.started == 0, await state()  # one pairs
            assert not b.state.ladder.leads()
        # A stopped: B takes the ladder home over (at once, as A gave it up; at the latest when its lease of 120 s
        # ran out) and pairs from then on. (Counted by the games B starts: games A left in flight may still end
        # after it stopped, and count as played too.)
        played = await games_played(client)

        async def b_started() -> bool:
            return bool(b.state.ladder.started >= 4)

        async def four_more() -> bool:
            return await games_played(client) >= played + 4

        await until(b_started, "B did not start 4 ladder games (it never took the ladder over)", state, 180)
        await until(four_more, f"fewer than {played + 4} ladder games were played", state, 120)
