"""Several ``hexarena serve`` instances on one machine (issue 17): throughput of one instance against two, in the
same run, and the failover time after ``kill -9`` of the instance playing a match.

Throughput: what ``bench/server_throughput.py`` does (waves of concurrent HTTTX games between instant SDK bots,
over loopback WebSockets), on a fresh PostgreSQL database, in three set-ups:

1. one instance without Redis (the single server, as before);
2. one instance with ``--redis-url`` (what the lease and the published moves cost a process);
3. two instances with ``--redis-url`` on the same database, the games created round robin, each instance's
   games played by a bot server of its own (one bot server per instance, as in 1 and 2);
4. as 3, each game followed by a spectator on the other instance (the moves published on Redis, the board
   rebuilt there); ``seen`` is the share of the moves the spectators were sent (100 %: none missed).

It prints moves per second and the game servers' CPU per move (all instances together). On a 2-core machine the
processes (instances, bot servers, PostgreSQL, Redis) already share two cores in set-up 1, so set-up 3 shows
what a second instance costs and that it works, not a speed-up; on a machine with cores to spare it scales.

Failover: two instances, a Hex match between two built-in searches (0.25 s a move) created on A and watched on
B; A is killed with SIGKILL after a few moves; printed: the seconds until B sent its spectator the fresh snapshot
(B holds the lease and restored the match) and until the first move played on B, and the match's end state.

    PYTHONPATH=src .venv/bin/python bench/multi_instance.py [--games 16] [--waves 2] [--turns 100]
        [--rounds 1] [--database-url postgresql+asyncpg://postgres@127.0.0.1:5432/test]
        [--redis-url redis://127.0.0.1:6379]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
import server_throughput as st
from store_throughput import PG_DEFAULT, fresh_postgres

REDIS_DEFAULT = "redis://127.0.0.1:6379"


@contextlib.contextmanager
def instance(port: int, database_url: str, data_dir: str, redis_url: str | None) -> Iterator[object]:
    args = ["serve", "--port", str(port), "--database-url", database_url, "--data-dir", data_dir]
    args += ["--log-level", "warning", "--create-rate-limit", "off"]
    if redis_url:
        args += ["--redis-url", redis_url]
    with st.process(*args) as proc:
        yield proc


async def watch(url: str) -> int:
    """Follow one spectator socket to the end; the moves it was sent (its snapshot's and its updates)."""
    seen = 0
    async with connect(url, max_size=None) as ws:
        async for text in ws:
            msg = json.loads(text)
            if msg["type"] == "setup":
                seen = len(msg["moves"])
            elif msg["type"] == "board_update":
                seen += 1
            elif msg["type"] == "end":
                break
    return seen


async def wave(
    client: httpx.AsyncClient, pairs: list[tuple[str, str]], games: int, turns: int, watched: bool = False
) -> tuple[int, float, int, int]:
    """``games`` concurrent games, created round robin on the (server, bot server) pairs (``watched``: each
    followed by a spectator on the next instance); (moves, seconds, bad, moves the spectators saw)."""
    begun = time.perf_counter()
    posts = []
    for i in range(games):
        server, bot = pairs[i % len(pairs)]
        body = {
            "player_x": {"type": "bot", "bot_url": bot},
            "player_o": {"type": "bot", "bot_url": bot},
            "match_config": {"turn_limit": turns, "heartbeat": 5000, "win_distance": 32},
        }
        posts.append(client.post(f"{server}/game/new", json=body))
    created = [r.json()["game_id"] for r in await asyncio.gather(*posts)]
    ids = set(created)
    watchers = []
    if watched:
        for i, game_id in enumerate(created):
            other = pairs[(i + 1) % len(pairs)][0].replace("http://", "ws://")
            watchers.append(asyncio.create_task(watch(f"{other}/spectate/{game_id}")))
    server = pairs[0][0]  # the database is shared: any instance lists every game
    while True:
        if not (await client.get(f"{server}/games", params={"status": "running", "limit": 1})).json():
            break
        await asyncio.sleep(0.2)
    elapsed = time.perf_counter() - begun
    mine = [g for g in (await client.get(f"{server}/games", params={"limit": 500})).json() if g["game_id"] in ids]
    assert len(mine) == games, f"{len(mine)} of {games} games listed"
    bad = [g for g in mine if g["termination"] not in ("normal", "turn_limit")]
    seen = sum(await asyncio.wait_for(asyncio.gather(*watchers), 60)) if watchers else 0
    return sum(g["moves"] for g in mine), elapsed, len(bad), seen


async def throughput(
    n: int, redis_url: str | None, database_url: str, games: int, waves: int, turns: int, watched: bool = False
) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        ports = [st.free_port() for _ in range(n)]
        bports = [st.free_port() for _ in range(n)]
        servers = [
            stack.enter_context(instance(p, database_url, f"{tmp}/d{i}", redis_url)) for i, p in enumerate(ports)
        ]
        bots = [stack.enter_context(st.process("instant", str(p), "auto")) for p in bports]
        pairs = [(f"http://127.0.0.1:{p}", f"http://127.0.0.1:{b}") for p, b in zip(ports, bports, strict=True)]
        for server, bot in pairs:
            await st.wait_up(f"{server}/healthz")
            await st.wait_up(f"{bot}/capabilities.json")
        async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=games)) as client:
            await wave(client, pairs, 2 * n, 10)  # warm-up
            pids = [p.pid for p in servers]  # type: ignore[attr-defined]
            bpids = [p.pid for p in bots]
            g0 = sum(st.cpu_seconds(p) for p in pids)
            b0 = sum(st.cpu_seconds(p) for p in bpids)
            moves, seconds, bad, seen = 0, 0.0, 0, 0
            for _ in range(waves):
                m, s, b, w = await wave(client, pairs, games, turns, watched)
                moves, seconds, bad, seen = moves + m, seconds + s, bad + b, seen + w
            gcpu = sum(st.cpu_seconds(p) for p in pids) - g0
            bcpu = sum(st.cpu_seconds(p) for p in bpids) - b0
    return {
        "moves": moves,
        "moves_per_s": moves / seconds,
        "bad": bad,
        "game_us": gcpu / max(moves, 1) * 1e6,
        "bot_us": bcpu / max(moves, 1) * 1e6,
        "seen": seen / max(moves, 1),
    }


async def failover(redis_url: str, database_url: str) -> None:
    match = {
        "game": "hex",
        "params": {"size": 11},
        "players": ["builtin:mcts", "builtin:mcts"],
        "clock": {"type": "turn", "seconds": 0.25},
    }
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        ports = [st.free_port(), st.free_port()]
        procs = [stack.enter_context(instance(p, database_url, f"{tmp}/d{i}", redis_url)) for i, p in enumerate(ports)]
        a, b = (f"http://127.0.0.1:{p}" for p in ports)
        await st.wait_up(f"{a}/healthz")
        await st.wait_up(f"{b}/healthz")
        async with httpx.AsyncClient(timeout=30) as client:
            game_id = (await client.post(f"{a}/api/matches", json=match)).json()["game_id"]
            async with connect(f"ws://127.0.0.1:{ports[1]}/spectate/{game_id}") as ws:
                updates = 0
                while updates < 8:
                    msg = json.loads(await ws.recv())
                    updates += msg["type"] == "board_update"
                    if msg["type"] == "end":
                        print(f"failover: not measured, the match ended before the kill ({msg.get('detail')})")
                        return
                procs[0].send_signal(signal.SIGKILL)  # type: ignore[attr-defined]
                killed = time.monotonic()
                restored = moved = None
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    if msg["type"] == "setup" and restored is None:
                        restored = time.monotonic() - killed
                        ply = len(msg["moves"])
                    elif msg["type"] == "board_update" and restored is not None and moved is None:
                        moved = time.monotonic() - killed
                    elif msg["type"] == "end":
                        break
            record = (await client.get(f"{b}/games/{game_id}")).json()
    plies = [m["ply"] for m in record["moves"]]
    print(
        f"failover: kill -9 of A after {updates} moves seen on B; B restored the match (lease expired, claimed, "
        f"ply {ply}) after {restored:.1f} s and played its first move after {moved:.1f} s"
    )
    print(
        f"   record: {record['status']}, {record['termination']}, {len(plies)} moves, plies in order: "
        f"{plies == list(range(len(plies)))}"
    )


async def main(games: int, waves: int, turns: int, pg: str, redis_url: str, rounds: int) -> None:
    print(
        f"throughput: {games} concurrent HTTTX games x {turns} turns x {waves} waves, instant SDK bots, PostgreSQL; "
        f"{rounds} round(s) of the set-ups, interleaved (the median of each is printed)"
    )
    setups = (
        ("1 instance, no Redis", 1, None, False),
        ("1 instance, Redis", 1, redis_url, False),
        ("2 instances, Redis", 2, redis_url, False),
        ("2 instances, watched across", 2, redis_url, True),
    )
    results: dict[str, list[dict[str, float]]] = {label: [] for label, _, _, _ in setups}
    for _ in range(rounds):
        for label, n, redis, watched in setups:
            async with fresh_postgres(pg) as url:
                if url is None:
                    return
                results[label].append(await throughput(n, redis, url, games, waves, turns, watched))
    print(f"   {'set-up':<28} {'moves/s':>9} {'servers us/move':>16} {'bots us/move':>13} {'abnormal':>9} {'seen':>5}")
    for label, runs in results.items():
        f = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        print(
            f"   {label:<28} {f['moves_per_s']:>9,.0f} {f['game_us']:>16.0f} {f['bot_us']:>13.0f} {int(f['bad']):>9} "
            f"{f['seen']:>5.0%}"
        )
    print(f"   cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}")
    async with fresh_postgres(pg) as url:
        if url is not None:
            await failover(redis_url, url)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--waves", type=int, default=2)
    ap.add_argument("--turns", type=int, default=100)
    ap.add_argument("--database-url", default=os.environ.get("HEXARENA_TEST_DATABASE_URL", PG_DEFAULT))
    ap.add_argument("--redis-url", default=REDIS_DEFAULT)
    ap.add_argument("--rounds", type=int, default=1, help="runs of each set-up, interleaved; medians are printed")
    args = ap.parse_args()
    asyncio.run(main(args.games, args.waves, args.turns, args.database_url, args.redis_url, args.rounds))
