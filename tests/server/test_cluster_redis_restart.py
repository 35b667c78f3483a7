"""Two real instances on a private Redis that is killed and started again empty (issue 28): the matches both
instances play go on and finish, no instance takes over a match whose owner is alive, and the spectators that
follow a match from the other instance get its moves again and its end once Redis is back.

The Redis server is the test's own (a free port, no persistence): the shared one on 6379 is never touched. The
matches are between paced bots (``paced_bot.py``: a move every tenth of a second, under a clock no load uses up,
and no win until the test opens the gate), so every match is still on when Redis is back and the scans have run,
whatever the machine's load, and ends when the test is done looking.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from procs import (
    FAST_CLUSTER,
    FAST_LEASE,
    PACED_CLOCK,
    ServeProcess,
    paced_bot_server,
    private_redis,
)
from websockets.asyncio.client import ClientConnection, connect

pytestmark = [
    pytest.mark.slow,
    pytest.mark.fault,
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get("HEXARENA_TEST_DATABASE_URL"), reason="needs HEXARENA_TEST_DATABASE_URL"),
    pytest.mark.parametrize("database_url", ["postgresql"], indirect=True),
]

#: Seconds Redis is away: longer than a lease lives, so every lease and meta is gone when it is back.
OUTAGE = 1.5 * FAST_LEASE


async def follow(ws: ClientConnection, into: list[dict[str, Any]], timeout: float = 240.0) -> None:
    """Append every message of a spectator socket to ``into`` until the end (or the socket closes)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            text = await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
        except Exception:
            return
        into.append(json.loads(text))
        if into[-1].get("type") == "end":
            return


def replay(messages: list[dict[str, Any]]) -> list[str]:
    """The moves a spectator saw, in order: a ``setup`` restarts from its list."""
    moves: list[str] = []
    for msg in messages:
        if msg["type"] == "setup":
            moves = [m["move"] for m in msg["moves"]]
        elif msg["type"] == "board_update":
            assert msg["ply"] == len(moves), (msg["ply"], len(moves))
            moves.append(msg["move"])
    return moves


async def until_health(server: ServeProcess, status: int, timeout: float = 60.0) -> dict[str, Any]:
    """``/healthz`` once it answers ``status``."""
    deadline = time.monotonic() + timeout
    while True:
        r = await server.get("/healthz")
        if r.status_code == status or time.monotonic() > deadline:
            assert r.status_code == status, r.text
            return dict(r.json())
        await asyncio.sleep(0.2)


def redis_lines(logs: str) -> list[str]:
    """The serve logs' lines about Redis, subscriptions and leases: what a failed check needs to be explained."""
    return [line[:300] for line in logs.splitlines() if re.search(r"(?i)redis|subscri|lease|watch", line)][-60:]


def updates(messages: list[dict[str, Any]]) -> int:
    return sum(m["type"] == "board_update" for m in messages)


async def until_more_moves(server: ServeProcess, game_id: str, than: int, timeout: float = 60.0) -> None:
    """Until the game's record holds more than ``than`` moves."""
    deadline = time.monotonic() + timeout
    while len((await server.get(f"/games/{game_id}")).json()["moves"]) <= than:
        assert time.monotonic() < deadline, f"match {game_id} made no move in {timeout} s"
        await asyncio.sleep(0.1)


async def test_a_redis_restart_leaves_every_healthy_match_running_and_watched(
    database_url: str, tmp_path: Path
) -> None:
    gate = tmp_path / "gate"
    with private_redis() as redis, paced_bot_server(gate, tmp_path / "bot.log") as bot:
        match = {"game": "htttx", "players": [f"stateless:{bot}"] * 2, "clock": PACED_CLOCK}
        servers = [
            ServeProcess(
                database_url,
                tmp_path / f"data{i}",
                tmp_path / f"serve{i}.log",
                extra=("--redis-url", redis.url, "--create-rate-limit", "off", *FAST_CLUSTER),
            )
            for i in range(2)
        ]
        a, b = servers
        await asyncio.gather(a.start(), b.start())
        async with contextlib.AsyncExitStack() as stack:
            stack.callback(a.stop)
            stack.callback(b.stop)
            owners: dict[str, ServeProcess] = {}
            seen: dict[str, list[dict[str, Any]]] = {}
            followers = []
            for owner, other in ((a, b), (a, b), (b, a), (b, a)):
                r = await owner.post("/api/matches", match)
                assert r.status_code == 200, r.text
                game_id = r.json()["game_id"]
                owners[game_id], seen[game_id] = owner, []
                # each match watched from the instance that does not play it, from its start
                ws = await stack.enter_async_context(connect(other.ws(f"/spectate/{game_id}")))
                followers.append(asyncio.create_task(follow(ws, seen[game_id])))
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                if all(updates(s) >= 3 for s in seen.values()):
                    break
                await asyncio.sleep(0.1)
            assert all(updates(s) >= 3 for s in seen.values()), {
                g: (updates(s), [m["type"] for m in s][:5], str(s[-1:])[:300]) for g, s in seen.items()
            }

            redis.stop()  # Redis goes away ...
            stopped = time.monotonic()
            health = await until_health(a, 503)  # /healthz says so (creates are refused meanwhile)
            assert health["redis"]["status"] == "degraded" and health["ok"] is False, health
            await asyncio.sleep(max(0.0, OUTAGE - (time.monotonic() - stopped)))
            redis.start()  # ... and comes back empty
            assert (await until_health(a, 200))["redis"] == {"status": "ok"}
            back = {g: updates(s) for g, s in seen.items()}
            statuses = {g: (await a.get(f"/games/{g}")).json() for g in owners}
            assert all(r["status"] == "running" for r in statuses.values()), [
                (r["status"], r["reason"], len(r["moves"])) for r in statuses.values()
            ]
            # the grace is over and each instance scanned for lost matches since (a scan counts only once Redis is
            # settled): every match still on then was the scans' to take if they mistook a missing lease for a lost
            # owner; none can end of itself before the gate opens
            await asyncio.gather(a.until_scanned("matches"), b.until_scanned("matches"))
            for game_id, owner in owners.items():  # and every match plays on, on its owner
                await until_more_moves(owner, game_id, len((await a.get(f"/games/{game_id}")).json()["moves"]))
            gate.touch()  # now let them end

            await asyncio.wait_for(asyncio.gather(*followers), 300)
            logs = "".join((tmp_path / f"serve{i}.log").read_text() for i in range(2))
            assert "taken over" not in logs and "was lost" not in logs, logs[-3000:]
            assert "this instance stops it" not in logs, logs[-3000:]
            for game_id in owners:
                record = (await a.get(f"/games/{game_id}")).json()
                assert record["status"] == "finished", (game_id, record["status"], record["reason"])
                assert record["termination"] == "normal", (game_id, record["reason"])
                messages = seen[game_id]
                assert messages and messages[-1]["type"] == "end", (game_id, [m["type"] for m in messages[-5:]])
                assert replay(messages) == [m["move"] for m in record["moves"]], game_id
                # its spectator got moves again after Redis was back
                assert updates(messages) > back[game_id], (game_id, [m["type"] for m in messages], redis_lines(logs))
