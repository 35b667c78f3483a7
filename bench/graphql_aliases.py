"""The issue-12 GraphQL attack: one query with thousands of aliases of ``game(id) { turns { move } state }``.

Starts ``hexarena serve`` as a separate process on a temporary SQLite database holding one finished HTTTX game,
sends the aliased query once, and meanwhile probes a cheap REST read that needs the database
(``GET /api/gametypes/htttx/games?limit=1``) every 0.2 s. Prints the query's status, time and response size, its
first error, the slowest probe, and the server's peak memory (VmHWM):

    PYTHONPATH=src .venv/bin/python bench/graphql_aliases.py [--aliases 2000] [--turns 60] [--timeout 60]

Without cost limits the query replays the game once per alias with one database connection each, so the probe
waits behind it; with them it is refused at validation, before any resolver runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from server_throughput import free_port, process, wait_up  # noqa: E402


async def seed(url: str, turns: int) -> None:
    """One finished HTTTX game of ``turns`` random legal turns."""
    from hexarena.games.htttx import HTTTX
    from hexarena.store import MoveRecord, PlayerRecord, Store

    store = await Store.open(url)
    try:
        rng, state, moves = random.Random(1), HTTTX.new(win_distance=32), []
        for _ in range(turns):
            move = HTTTX.random_move(state, rng)
            moves.append(HTTTX.format(move))
            state = HTTTX.play(state, move)
        t0 = datetime(2026, 1, 1, tzinfo=UTC)
        await store.create_game(
            game_id="g1",
            game="htttx",
            params={"win_distance": 32},
            players=[PlayerRecord("A", "battlebot"), PlayerRecord("B", "battlebot")],
        )
        records = [
            MoveRecord(ply=i, seat=(i + 1) % 2, move=m, timestamp=t0 + timedelta(seconds=i), think_time=0.01)
            for i, m in enumerate(moves)
        ]
        await store.finish_game("g1", winner=None, termination="turn_limit", reason="turn limit", moves=records)
    finally:
        await store.close()


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def attack(base: str, aliases: int, timeout: float) -> None:
    query = (
        '{ gameType(id: "htttx") { '
        + " ".join(f'a{i}: game(id: "g1") {{ turns {{ move }} state }}' for i in range(aliases))
        + " } }"
    )
    probes: list[float] = []
    done = asyncio.Event()

    async def probe(client: httpx.AsyncClient) -> None:
        while not done.is_set():
            begun = time.perf_counter()
            with contextlib.suppress(httpx.HTTPError):
                await client.get(f"{base}/api/gametypes/htttx/games", params={"limit": 1})
            probes.append(time.perf_counter() - begun)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), 0.2)

    async with httpx.AsyncClient(timeout=timeout) as client, httpx.AsyncClient(timeout=timeout) as prober:
        task = asyncio.create_task(probe(prober))
        begun = time.perf_counter()
        try:
            r = await client.post(f"{base}/graphql", json={"query": query})
            status, size = str(r.status_code), len(r.content)
            body = r.json() if r.headers.get("content-type", "").startswith("application/json") else {}
            errors = body.get("errors") or []
            first = errors[0]["message"] if errors else "-"
        except httpx.HTTPError as exc:
            status, size, first = f"failed ({type(exc).__name__})", 0, "-"
        elapsed = time.perf_counter() - begun
        done.set()
        await task
    print(f"query: {aliases} aliases, {len(query)} bytes")
    print(f"answer: {status} in {elapsed:.2f} s, {size / 1e6:.2f} MB, first error: {first[:160]}")
    print(f"concurrent REST probe: {len(probes)} probes, slowest {max(probes, default=0):.2f} s")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--aliases", type=int, default=2000)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"
        await seed(url, args.turns)
        port = free_port()
        with process("serve", "--port", str(port), "--database-url", url, "--log-level", "warning") as proc:
            base = f"http://127.0.0.1:{port}"
            await wait_up(f"{base}/api/gametypes")
            await attack(base, args.aliases, args.timeout)
            print(f"server peak memory (VmHWM): {peak_rss_mb(proc.pid):.0f} MB")


if __name__ == "__main__":
    asyncio.run(main())
