"""Load benchmark of the connect-in protocols: prints battlebot handshake latency and matches/s, and dots matches/s.

A real server (create_app with battlebot and dots settings, a temporary SQLite store) runs on a loopback port in
this process; the bots are websockets / httpx clients in the same event loop, so the figures include the
clients' own cost (they share the CPU with the server). Numbers are printed, never asserted.

    PYTHONPATH=src .venv/bin/python bench/connect_in_load.py [--bots 100] [--rounds 3] [--dots 20]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import random
import socket
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import uvicorn
import websockets

from hexarena.server.app import Settings, create_app
from hexarena.server.battlebot.lobby import BattlebotSettings
from hexarena.server.dots.tables import DotsSettings


@contextlib.asynccontextmanager
async def serve(app: Any) -> AsyncIterator[str]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="error", lifespan="on", ws="websockets-sansio"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    for _ in range(1000):  # uvicorn offers no start event; poll its flag
        if server.started:
            break
        await asyncio.sleep(0.01)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task
        sock.close()


async def bot(host: str, auth: dict[str, Any], rng: random.Random, handshakes: list[float]) -> None:
    """Log in (timed), then play numberwang with random steps toward its own goal."""
    began = time.perf_counter()
    async with websockets.connect(f"ws://{host}/") as ws:
        salt = json.loads(await ws.recv())["salt"]
        digest = hashlib.sha256((auth["pass_hash"] + salt).encode()).hexdigest()
        await ws.send(json.dumps({"bot_id": auth["bot_id"], "game": "numberwang", "login_hash": digest}))
        assert json.loads(await ws.recv())["authentication"] == "OK"
        handshakes.append(time.perf_counter() - began)
        async for text in ws:
            state = json.loads(text)["state"]
            if state["complete"]:
                return
            if state["nextPlayer"] == auth["bot_id"]:
                sign = 1 if state["players"][0] == auth["bot_id"] else -1
                await ws.send(json.dumps({"n": sign * rng.randint(1, 4)}))


async def battlebot_load(host: str, n_bots: int, rounds: int) -> None:
    async with httpx.AsyncClient() as http:
        auths = []
        for i in range(n_bots):
            r = await http.post(f"http://{host}/bots/numberwang", json={"bot_id": f"LoadBot{i}", "owner": "bench"})
            auths.append(r.json())
    rng = random.Random(1)
    handshakes: list[float] = []
    began, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        await asyncio.gather(*(bot(host, a, rng, handshakes) for a in auths))
    elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    matches = n_bots // 2 * rounds
    hs = sorted(handshakes)
    print(
        f"battlebot: {n_bots} bots x {rounds} rounds = {matches} numberwang matches in {elapsed:.2f} s ({cpu:.2f} s CPU)"
    )
    print(f"  matches/s: {matches / elapsed:.1f} (wall), {matches / cpu:.1f} per CPU second (server + clients)")
    print(
        f"  handshake latency (connect -> authentication OK): median {statistics.median(hs) * 1000:.1f} ms, "
        f"p95 {hs[int(len(hs) * 0.95) - 1] * 1000:.1f} ms, max {hs[-1] * 1000:.1f} ms"
    )


async def dots_player(http: httpx.AsyncClient, url: str, name: str, rng: random.Random) -> None:
    from hexarena.games.hexdots import GAME
    from hexarena.games.hexdots.wire import move_body, state_from_game_json

    r = await http.post(f"{url}/players", json={"name": name})
    game = r.json()
    token = r.headers.get("X-Turn-Token")
    while token:
        line = GAME.random_move(state_from_game_json(game), rng)
        r = await http.post(f"{url}/moves", json=move_body(line), headers={"X-Turn-Token": token})
        if r.status_code != 200:
            print(f"  {name} at {url}: {r.status_code} {r.text}")
            return
        delta = r.json()
        game["lines"] += delta["lines"]
        game["players"] = delta["players"]
        token = r.headers.get("X-Turn-Token")


async def dots_load(host: str, n_games: int) -> None:
    rng = random.Random(2)
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=4 * n_games)) as http:
        urls = []
        for _ in range(n_games):
            r = await http.post(f"http://{host}/dots/", json={"rows": 5, "cols": 5})
            urls.append(f"http://{host}{r.headers['Location']}")
        began, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(dots_player(http, u, n, rng) for u in urls for n in ("A", "B")))
        elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    print(
        f"turn-token dots: {n_games} concurrent 5x5 games in {elapsed:.2f} s ({cpu:.2f} s CPU): "
        f"{n_games / elapsed:.1f} matches/s wall, {n_games / cpu:.1f} per CPU second"
    )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bots", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dots", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        battlebot = BattlebotSettings(turn_seconds=10, login_seconds=30)
        settings = Settings(
            database_url=f"{tmp}/bench.sqlite3", battlebot=battlebot, dots=DotsSettings(turn_seconds=30)
        )
        app = create_app(settings)
        async with serve(app) as host:
            await battlebot_load(host, args.bots, args.rounds)
            await dots_load(host, args.dots)


if __name__ == "__main__":
    asyncio.run(main())
