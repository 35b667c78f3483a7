"""What a plain API request costs the game server: CPU per request of a few cheap endpoints.

Starts ``hexarena serve`` (a temporary SQLite database) as a separate process, then sends ``--requests``
requests to each endpoint, ``--concurrency`` at a time over keep-alive connections, and prints the server's CPU
time per request (its POSIX CPU-time clock: every thread, user and system). The endpoints read memory
(``/healthz``, the live list) or one small page of the database (``/games?limit=1``, the bots): what is left
is the server's fixed cost per request (HTTP parsing, middleware, routing, dependencies, JSON), which every
page of the web UI, every poll and every game creation pays.

    PYTHONPATH=src .venv/bin/python bench/http_cost.py [--requests 400] [--concurrency 8] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_throughput import cpu_seconds, sqlite_server

ENDPOINTS = ("/healthz", "/api/matches/live", "/games?limit=1", "/api/players", "/graphql")
GRAPHQL = {"query": "{ __typename }"}


async def cost(client: httpx.AsyncClient, pid: int, path: str, requests: int, concurrency: int) -> float:
    """Microseconds of server CPU per request of ``path``."""

    async def one() -> None:
        if path == "/graphql":
            response = await client.post(path, json=GRAPHQL)
        else:
            response = await client.get(path)
        response.raise_for_status()

    await one()
    begun = cpu_seconds(pid)
    for start in range(0, requests, concurrency):
        await asyncio.gather(*(one() for _ in range(min(concurrency, requests - start))))
    return (cpu_seconds(pid) - begun) / requests * 1e6


async def main(requests: int, concurrency: int, repeat: int) -> None:
    best = dict.fromkeys(ENDPOINTS, float("inf"))
    with tempfile.TemporaryDirectory() as tmp:
        async with sqlite_server(tmp) as (proc, server):
            limits = httpx.Limits(max_connections=concurrency)
            async with httpx.AsyncClient(base_url=server, limits=limits, timeout=30) as client:
                for _ in range(repeat):
                    for path in ENDPOINTS:
                        best[path] = min(best[path], await cost(client, proc.pid, path, requests, concurrency))
    print(f"server CPU per request, {requests} requests {concurrency} at a time, best of {repeat}:")
    for path, us in best.items():
        print(f"  {('POST ' if path == '/graphql' else 'GET ') + path:<24} {us:>7,.0f} us")
    print(f"cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=400)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    asyncio.run(main(a.requests, a.concurrency, a.repeat))
