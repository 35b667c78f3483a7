"""Soak: many finished games of every kind of seat, and what the game server holds as they pile up.

Starts, as separate processes, the game server (``hexarena serve`` on a temporary SQLite database, with a UAIS
engine registered) and one SDK bot server (``hexarena bot serve --bot random``), then keeps ``--concurrency``
games running until ``--games`` have finished, cycling through the seat kinds:

- HTTTX bws against bws (``POST /game/new``, one WebSocket per seat to the bot server),
- HTTTX stateless against stateless (an HTTP request per move),
- HTTTX built-in against built-in,
- Hex: the UAIS engine (a subprocess started for the match) against a built-in,
- tic-tac-toe built-in against built-in (``POST /api/matches``).

Every ``--spectate-every``-th game gets a spectator that reads a few messages and leaves (every other one stays to
the end). Every ``--every`` games it prints the game server's RSS, open files, database connections (open
descriptors of the SQLite file: the pool's use), threads, child processes, asyncio tasks and the matches it keeps
(``/healthz``), and the bot server's RSS; at the end, RSS between game 700 and 1,100 and over the whole run.

    PYTHONPATH=src .venv/bin/python bench/soak.py [--games 2000] [--every 1000] [--concurrency 32] [--turns 30]

A benchmark prints; it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from server_throughput import free_port, process, wait_up

ROOT = Path(__file__).resolve().parent.parent
UAIS_BOT = ROOT / "examples" / "uais_random_bot.py"
#: Seconds one game may take before the soak gives up on it (counted as failed, not waited for forever).
GAME_TIMEOUT = 120.0


def proc_status(pid: int) -> dict[str, int]:
    """RSS (KB), threads, open descriptors, database connections and children of a process, from /proc."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "Threads"):
            fields[key] = int(value.split()[0])
    fds = db = 0
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            fds += 1
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}").endswith(".sqlite3"):
                    db += 1
    children = 0
    with contextlib.suppress(OSError):
        children = len(Path(f"/proc/{pid}/task/{pid}/children").read_text().split())
    return {
        "rss_kb": fields.get("VmRSS", 0),
        "threads": fields.get("Threads", 0),
        "fds": fds,
        "db": db,
        "kids": children,
    }


def bodies(bot: str, turns: int) -> list[tuple[str, dict[str, Any]]]:
    """One create request per seat kind, cycled through."""
    config = {"turn_limit": turns, "heartbeat": 5000, "win_distance": 32}
    htttx = [
        ("/game/new", {"player_x": {"type": kind, **seat}, "player_o": {"type": kind, **seat}, "match_config": config})
        for kind, seat in (("bot", {"bot_url": bot}), ("stateless", {"bot_url": bot}), ("builtin", {"name": "random"}))
    ]
    others = [
        ("/api/matches", {"game": "hex", "players": ["engine:uaisrandom", "builtin:random"]}),
        ("/api/matches", {"game": "tictactoe", "players": ["builtin:random", "builtin:random"]}),
    ]
    return htttx + others


class Soak:
    def __init__(self, server: str, bot: str, args: argparse.Namespace) -> None:
        self.server, self.bot, self.args = server, bot, args
        self.done = self.failed = self.spectators = 0
        self.kinds = itertools.cycle(bodies(bot, args.turns))
        self.rss_at: dict[int, int] = {}

    async def game(self, client: httpx.AsyncClient, n: int) -> None:
        path, body = next(self.kinds)
        try:
            async with asyncio.timeout(GAME_TIMEOUT):
                r = await _retrying(lambda: client.post(f"{self.server}{path}", json=body))
                if r.status_code != 200 or "game_id" not in r.json():
                    raise RuntimeError(f"{path} answered {r.status_code}: {r.text[:300]}")
                game_id = r.json()["game_id"]
                watcher = None
                if self.args.spectate_every and n % self.args.spectate_every == 0:
                    watcher = asyncio.create_task(self.spectate(game_id, stay=(n // self.args.spectate_every) % 2 == 0))
                while True:  # the UI's match view: from memory while the server keeps the match (no replay)
                    r = await _retrying(lambda: client.get(f"{self.server}/api/ui/matches/{game_id}"))
                    if r.status_code == 200 and not r.json().get("live"):
                        break
                    await asyncio.sleep(0.25)
                if watcher is not None:
                    await watcher
                self.done += 1
        except Exception as exc:
            self.failed += 1
            if self.failed <= 5:
                print(f"\n  a game failed: {type(exc).__name__}: {exc}", file=sys.stderr)

    async def spectate(self, game_id: str, *, stay: bool) -> None:
        """Join as a spectator; ``stay``: until the end, else leave after the snapshot and a move or two."""
        url = self.server.replace("http", "ws", 1) + f"/spectate/{game_id}"
        with contextlib.suppress(Exception):
            async with connect(url, max_size=None) as ws:
                self.spectators += 1
                for _ in itertools.count() if stay else range(3):
                    message = await asyncio.wait_for(ws.recv(), GAME_TIMEOUT)
                    if '"type":"end"' in str(message).replace(" ", ""):
                        break

    async def health(self, client: httpx.AsyncClient) -> dict[str, Any]:
        with contextlib.suppress(Exception):
            return dict((await client.get(f"{self.server}/healthz")).json())
        return {}


async def _retrying(call: Any) -> httpx.Response:
    """One request, retried on a dropped keep-alive connection or a 503 (the store catching up)."""
    for attempt in range(50):
        try:
            r: httpx.Response = await call()
            if r.status_code != 503:
                return r
        except httpx.TransportError:
            if attempt == 49:
                raise
        await asyncio.sleep(0.2)
    raise RuntimeError("the server kept answering 503")


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        gport, bport = free_port(), free_port()
        server, bot = f"http://127.0.0.1:{gport}", f"http://127.0.0.1:{bport}"
        serve = ("serve", "--port", str(gport), "--database-url", f"sqlite+aiosqlite:///{tmp}/soak.sqlite3")
        serve += ("--data-dir", tmp, "--log-level", "warning", "--create-rate-limit", "off")
        serve += ("--engine", f"uaisrandom=uais:{sys.executable} {UAIS_BOT}")
        with process(*serve) as gproc, process("bot", "serve", "--bot", "random", "--port", str(bport)) as bproc:
            await wait_up(f"{server}/healthz")
            await wait_up(f"{bot}/capabilities.json")
            soak = Soak(server, bot, args)
            limits = httpx.Limits(max_connections=args.concurrency + 4)
            async with httpx.AsyncClient(timeout=60, limits=limits) as client:
                print(
                    f"{'games':>7} {'failed':>6} {'RSS MB':>7} {'files':>5} {'db':>3} {'thr':>4} {'kids':>4} "
                    f"{'tasks':>5} {'live':>4} {'kept':>4} {'bot MB':>6} {'watchers':>8} {'games/s':>7}"
                )
                began = time.perf_counter()

                async def report() -> None:
                    s, b, h = proc_status(gproc.pid), proc_status(bproc.pid), await soak.health(client)
                    soak.rss_at[soak.done] = s["rss_kb"]
                    rate = soak.done / max(time.perf_counter() - began, 1e-9)
                    print(
                        ("\r" if sys.stderr.isatty() else "")
                        + f"{soak.done:>7} {soak.failed:>6} {s['rss_kb'] / 1024:>7.1f} {s['fds']:>5} {s['db']:>3} "
                        f"{s['threads']:>4} {s['kids']:>4} {h.get('tasks', '?'):>5} {h.get('live_matches', '?'):>4} "
                        f"{h.get('finished_kept', '?'):>4} {b['rss_kb'] / 1024:>6.1f} {soak.spectators:>8} "
                        f"{rate:>7.1f}",
                        flush=True,
                    )

                marks = sorted(
                    n for n in {*range(args.every, args.games + 1, args.every), *args.mark} if n <= args.games
                )
                gate = asyncio.Semaphore(args.concurrency)
                started = 0
                pending: set[asyncio.Task[None]] = set()

                async def one(n: int) -> None:
                    async with gate:
                        await soak.game(client, n)

                while started < args.games or pending:
                    while started < args.games and len(pending) < args.concurrency:
                        started += 1
                        task = asyncio.create_task(one(started))
                        pending.add(task)
                    _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                    ended = soak.done + soak.failed
                    if sys.stderr.isatty():
                        print(f"\r  {ended}/{args.games} games ...", end="", file=sys.stderr, flush=True)
                    while marks and ended >= marks[0]:
                        marks.pop(0)
                        await report()
                if soak.done not in soak.rss_at:
                    await report()
    summary(soak, args)


def summary(soak: Soak, args: argparse.Namespace) -> None:
    at = soak.rss_at

    def nearest(n: int) -> tuple[int, int] | None:
        found = [k for k in at if k >= n]
        return (min(found), at[min(found)]) if found else None

    a, b = nearest(700), nearest(1100)
    if a and b and b[0] > a[0]:
        print(f"RSS from game {a[0]} to game {b[0]}: {(b[1] - a[1]) / 1024:+.1f} MB")
    first, last = min(at), max(at)
    print(
        f"RSS from game {first} to game {last}: {(at[last] - at[first]) / 1024:+.1f} MB "
        f"({soak.done} games finished, {soak.failed} failed, {soak.spectators} spectators, "
        f"{args.concurrency} at a time, {args.turns} turns an HTTTX game)"
    )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--games", type=int, default=2000, help="finished games to play (default 2000; 20000 for a long soak)"
    )
    ap.add_argument("--every", type=int, default=1000, help="print the figures every N games (default 1000)")
    ap.add_argument("--mark", type=int, action="append", default=[700, 1100], help="also print at game N")
    ap.add_argument("--concurrency", type=int, default=32, help="games running at once (default 32)")
    ap.add_argument("--turns", type=int, default=30, help="HTTTX turn limit (default 30)")
    ap.add_argument("--spectate-every", type=int, default=10, help="a spectator on every Nth game (0: none)")
    # a SIGTERM (a timeout, kill) ends the soak through its cleanup, so the servers it started go with it
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    asyncio.run(main(ap.parse_args()))
