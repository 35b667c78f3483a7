"""Game-server throughput: many concurrent HTTTX games of instant bots over loopback WebSockets.

Starts, as separate processes, the game server (``hexarena serve`` on a temporary SQLite database) and one SDK
bot server (``bench/instant_bot.py``, an instant ``BaseBot`` run with the SDK's ``run``, or ``hexarena bot serve --bot NAME``), then plays waves of ``--games`` concurrent games through
``POST /game/new`` (both seats on the same bot server, one WebSocket per seat) and prints the total moves per
second, with the CPU time each process used (the one near 100% of a core is the limit).

    PYTHONPATH=src .venv/bin/python bench/server_throughput.py [--games 32] [--waves 3] [--turns 100] [--bot-ws auto] [--think-ms 0] [--repeat 1]

Both servers run on uvloop with httptools (the game server through uvicorn's defaults, the SDK's ``run`` picks
them); ``--bot-ws`` compares uvicorn's WebSocket implementations on the bot side. Always one bot-server process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import ctypes.util
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx

from machine_speed import reference_us

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from fakes.procs import stop_process  # noqa: E402  (the tests' process helpers: one way to stop a server)
from fakes.procs import wait_up as wait_up  # noqa: E402  (the sibling benchmarks import it from here)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


_LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def cpu_seconds(pid: int) -> float:
    """CPU seconds a process has used, all its threads, user and system, to the nanosecond: its POSIX CPU-time
    clock (``clock_getcpuclockid``). /proc's counts are in clock ticks (10 ms here), which over a window of a
    few hundred moves was an error of 5-10 %; they are the fallback where the clock can't be read."""
    clock, ts = ctypes.c_int(), _Timespec()
    if _LIBC.clock_getcpuclockid(pid, ctypes.byref(clock)) == 0 and _LIBC.clock_gettime(clock, ctypes.byref(ts)) == 0:
        return ts.tv_sec + ts.tv_nsec / 1e9
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def process(*args: str, root: Path = ROOT) -> Iterator[subprocess.Popen[bytes]]:
    """Start ``hexarena`` (or a bench bot) as a process running the code under ``root`` (another checkout for an
    A/B run: ``bench/ab_throughput.py``; the bench scripts themselves are always this checkout's)."""
    env = dict(os.environ, PYTHONPATH=str(root / "src"))
    if args[0] == "instant":  # bench/instant_bot.py: ("instant", port, ws[, think seconds])
        argv = [str(ROOT / "bench" / "instant_bot.py"), *args[1:]]
    elif args[0] == "script":  # a bot script of another benchmark: ("script", path, args...)
        argv = list(args[1:])
    else:
        argv = ["-m", "hexarena.cli", *args]
    profile_dir = os.environ.get("BENCH_PROFILE")
    if profile_dir:  # cProfile each process into BENCH_PROFILE/<game|bot>.prof (written when it exits on SIGTERM)
        name = "bot" if args[0] in ("instant", "bot", "script") else "game"
        argv = [str(ROOT / "bench" / "profiled.py"), str(Path(profile_dir) / f"{name}.prof"), *argv]
    proc = subprocess.Popen(
        [sys.executable, *argv],
        env=env,
        cwd=root,
        stderr=None if os.environ.get("BENCH_VERBOSE") else subprocess.DEVNULL,
    )
    try:
        yield proc
    finally:
        stop_process(proc)


@contextlib.asynccontextmanager
async def sqlite_server(tmp: str) -> AsyncIterator[tuple[subprocess.Popen[bytes], str]]:
    """``hexarena serve`` on a free port with its SQLite database and data directory in ``tmp``, once it answers:
    ``(process, url)``. The one game server that the benchmarks of a single server's costs measure."""
    port = free_port()
    db = f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"
    with process(
        "serve", "--port", str(port), "--database-url", db, "--data-dir", tmp, "--log-level", "warning"
    ) as proc:
        server = f"http://127.0.0.1:{port}"
        await wait_up(f"{server}/healthz")
        yield proc, server


async def wave(client: httpx.AsyncClient, server: str, bot: str, games: int, turns: int) -> tuple[int, float, int]:
    body = {
        "player_x": {"type": "bot", "bot_url": bot},
        "player_o": {"type": "bot", "bot_url": bot},
        "match_config": {"turn_limit": turns, "heartbeat": 5000, "win_distance": 32},  # no early wins
    }
    begun = time.perf_counter()
    responses = await asyncio.gather(*(client.post(f"{server}/game/new", json=body) for _ in range(games)))
    ids = {r.json()["game_id"] for r in responses}
    while True:  # a cheap poll (one row at most), so the benchmark itself barely loads the server
        running = (await client.get(f"{server}/games", params={"status": "running", "limit": 1})).json()
        if not running:
            break
        await asyncio.sleep(0.2)  # each poll is a SQL query on the server: poll rarely (wave time +-0.2 s)
    elapsed = time.perf_counter() - begun
    # newest first: this wave's games are the last ``games`` created (a longer list cost the server more CPU than
    # a short game, and it was counted in the figures)
    listed = (await client.get(f"{server}/games", params={"limit": games})).json()
    mine = [g for g in listed if g["game_id"] in ids]
    assert len(mine) == games, f"{len(mine)} of {games} games listed"
    bad = [g for g in mine if g["termination"] not in ("normal", "turn_limit")]
    for g in bad[:3]:
        print(f"  game {g['game_id']} ended {g['termination']}: {g['reason']}")
    return sum(g["moves"] for g in mine), elapsed, len(bad)


async def measure(
    games: int,
    waves: int,
    turns: int,
    bot_name: str,
    bot_ws: str,
    database_url: str | None = None,
    quiet: bool = False,
    think: float = 0.0,
) -> dict[str, float]:
    """Run the waves and return the figures (moves/s, CPU per move of both servers); ``database_url`` None is a
    temporary SQLite file; ``think``: seconds the instant bot sleeps before each move."""
    with tempfile.TemporaryDirectory() as tmp:
        gport, bport = free_port(), free_port()
        db = database_url or f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"
        server, bot = f"http://127.0.0.1:{gport}", f"http://127.0.0.1:{bport}"
        serve_args = (
            "serve",
            "--port",
            str(gport),
            "--database-url",
            db,
            "--data-dir",
            tmp,
            "--log-level",
            "warning",
            "--create-rate-limit",
            "off",
        )
        bot_cmd = (
            ("instant", str(bport), bot_ws, str(think))
            if bot_name == "instant"
            else ("bot", "serve", "--bot", bot_name, "--port", str(bport))
        )
        with process(*serve_args) as gproc, process(*bot_cmd) as bproc:
            await wait_up(f"{server}/healthz")
            await wait_up(f"{bot}/capabilities.json")
            async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=games)) as client:
                await wave(client, server, bot, 2, 10)  # warm-up
                references = [reference_us(units=100, repeat=3)]  # the machine's speed, between waves (no server work)
                g0, b0, t0 = cpu_seconds(gproc.pid), cpu_seconds(bproc.pid), time.perf_counter()
                total_moves, total_time, total_bad = 0, 0.0, 0
                for i in range(waves):
                    moves, elapsed, bad = await wave(client, server, bot, games, turns)
                    g_paused, b_paused, paused = cpu_seconds(gproc.pid), cpu_seconds(bproc.pid), time.perf_counter()
                    references.append(reference_us(units=100, repeat=3))
                    # the servers' CPU and the time while the reference ran (their idle timers) are not the games'
                    g0 += cpu_seconds(gproc.pid) - g_paused
                    b0 += cpu_seconds(bproc.pid) - b_paused
                    t0 += time.perf_counter() - paused
                    total_moves += moves
                    total_time += elapsed
                    total_bad += bad
                    if not quiet:
                        print(
                            f"wave {i + 1}: {games} games, {moves} moves in {elapsed:.2f} s = "
                            f"{moves / elapsed:,.0f} moves/s"
                        )
                wall = time.perf_counter() - t0
                gcpu, bcpu = cpu_seconds(gproc.pid) - g0, cpu_seconds(bproc.pid) - b0
    return {
        "moves": total_moves,
        "moves_per_s": total_moves / total_time,
        "bad": total_bad,
        "wall": wall,
        "game_cpu": gcpu,
        "bot_cpu": bcpu,
        "game_us_per_move": gcpu / max(total_moves, 1) * 1e6,
        "bot_us_per_move": bcpu / max(total_moves, 1) * 1e6,
        "reference_us": statistics.median(references),
        "reference_min": min(references),
        "reference_max": max(references),
    }


async def main(games: int, waves: int, turns: int, bot_name: str, bot_ws: str, think: float, repeat: int) -> None:
    if repeat > 1:
        await repeated(games, waves, turns, bot_name, bot_ws, think, repeat)
        return
    f = await measure(games, waves, turns, bot_name, bot_ws, think=think)
    total_moves, total_time, total_bad = int(f["moves"]), f["moves"] / f["moves_per_s"], int(f["bad"])
    gcpu, bcpu, wall = f["game_cpu"], f["bot_cpu"], f["wall"]
    print(
        f"total: {total_moves} moves in {total_time:.2f} s = {total_moves / total_time:,.0f} moves/s "
        f"({games} concurrent games, {turns} turns each, bot {bot_name!r}, bot server ws={bot_ws!r}; "
        f"{total_bad} games ended abnormally)"
    )
    print(
        f"CPU: game server {gcpu:.1f} s ({gcpu / wall:.0%} of a core), bot server {bcpu:.1f} s "
        f"({bcpu / wall:.0%} of a core) over {wall:.1f} s; cores on this machine: {os.cpu_count()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"game server CPU per move: {gcpu / max(total_moves, 1) * 1e6:.0f} us; bot server: {bcpu / max(total_moves, 1) * 1e6:.0f} us"
    )
    print(reference_line(f))


def reference_line(f: dict[str, float]) -> str:
    """The machine's speed during a run (``bench/machine_speed.py``, taken between waves): compare figures of runs
    whose references agree; a wide range means the machine changed speed during the run."""
    return (
        f"machine reference: {f['reference_us']:.0f} us a unit ({f['reference_min']:.0f}-{f['reference_max']:.0f} "
        "between waves; bench/machine_speed.py)"
    )


async def repeated(games: int, waves: int, turns: int, bot_name: str, bot_ws: str, think: float, repeat: int) -> None:
    """``repeat`` runs, each with fresh processes: every run's figures, then the median and the range. Why: on a
    shared 2-core machine the same code read 129-228 us a move in one sitting; one run says little, the median
    of several and their spread say how far apart two versions are."""
    runs = []
    for i in range(repeat):
        f = await measure(games, waves, turns, bot_name, bot_ws, quiet=True, think=think)
        runs.append(f)
        print(
            f"run {i + 1}/{repeat}: {f['moves_per_s']:,.0f} moves/s, game server {f['game_us_per_move']:.0f} us a "
            f"move, bot server {f['bot_us_per_move']:.0f} us ({int(f['bad'])} games ended abnormally); "
            f"{reference_line(f)}"
        )
    print(f"{repeat} runs of {games} concurrent games x {turns} turns x {waves} waves; median (min-max):")
    for key, label in (
        ("moves_per_s", "moves/s"),
        ("game_us_per_move", "game server us a move"),
        ("bot_us_per_move", "bot server us a move"),
        ("reference_us", "machine reference us"),
    ):
        values = sorted(r[key] for r in runs)
        print(f"  {label:>22}: {statistics.median(values):>8,.0f}  ({values[0]:,.0f}-{values[-1]:,.0f})")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=32)
    ap.add_argument("--waves", type=int, default=3)
    ap.add_argument("--turns", type=int, default=100)
    ap.add_argument("--bot", default="instant", help="'instant' (a spiral-filling SDK bot) or a built-in bot name")
    ap.add_argument(
        "--bot-ws",
        default="auto",
        help="uvicorn WebSocket implementation of the instant bot's server: auto (websockets sans-I/O), "
        "websockets, websockets-sansio or wsproto",
    )
    ap.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="milliseconds the instant bot sleeps before each move: the game server's CPU per move with bots that "
        "take time to answer (it rises as the moves come less bunched; see README)",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs, each with fresh servers: prints each run, then the median and range (for comparing versions)",
    )
    args = ap.parse_args()
    asyncio.run(main(args.games, args.waves, args.turns, args.bot, args.bot_ws, args.think_ms / 1000, args.repeat))
