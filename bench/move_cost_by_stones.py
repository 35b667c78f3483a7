"""CPU per move at 100 and at 1,000 stones, side by side: does a move cost more as the board fills?

The same set-up as ``bench/server_throughput.py`` (the game server and one SDK bot server as separate processes,
``--games`` concurrent HTTTX games over loopback WebSockets, both seats on the bot server), but each game runs to
``--turns`` turns (2 stones each) and the CPU of both processes is sampled while they play. The live list
(``GET /api/matches/live``, in memory) says how far the games are; the CPU used while the games' mean depth is in
a window of ``--window`` turns around 50 turns (~100 stones) and around 500 turns (~1,000 stones) is divided by
the turns played in it, so game set-up and teardown are outside both figures.

A window must last several of the recorder's flush intervals (``FLUSH_INTERVAL``, 0.2 s): the moves of every game
are written to the database together once an interval, so a window shorter than that holds either no write or
one, and its figure is the move's cost without its write, or with a whole interval's. With 16 games and +-20
turns (the defaults until 2026-11-27) the window at 100 stones lasted 0.05-0.08 s and the one at 1,000 stones
0.13-0.18 s: the two depths then differed by whether they held a write more than by the board. Each window's length is printed beside its figure, and a
window under ``MIN_FLUSHES`` intervals is flagged.

    PYTHONPATH=src .venv/bin/python bench/move_cost_by_stones.py [--games 64] [--turns 560] [--window 40] [--repeat 3] [--think-ms 0] [--spectators 0 [--no-deflate] [--updates board|moves]]

The bot answers in O(1) (the next two cells of a spiral, from the number of stones it was given), so the figures
are the platform's cost (adapters, wire, referee, store, SDK), not the bot's.
With ``--spectators N`` each game also has N spectators (in this process, not measured) whose updates the game
server encodes and sends every move.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hexarena.store.recorder import FLUSH_INTERVAL
from machine_speed import reference_us
from server_throughput import cpu_seconds, free_port, process, wait_up

#: (label, centre turn): ~100 stones and ~1,000 stones (X's origin stone plus two a turn)
DEPTHS = (("100 stones", 50), ("1,000 stones", 500))
#: Flush intervals a window should last for its figure to carry the moves' writes fairly (see the docstring).
MIN_FLUSHES = 3


#: One sample: (mean turns played, game server CPU s, bot server CPU s, wall-clock s)
Sample = tuple[float, float, float, float]
#: One window's figures: (game server us a move, bot server us a move, the window's length in s)
Window = tuple[float, float, float]


async def sample(server: str, gpid: int, bpid: int, games: int, until: int) -> list[Sample]:
    """A :data:`Sample` every ~20 ms until the games are past ``until`` turns."""
    out: list[Sample] = []
    async with httpx.AsyncClient(timeout=30) as client:
        while True:
            live = (await client.get(f"{server}/api/matches/live")).json()
            g, b, now = cpu_seconds(gpid), cpu_seconds(bpid), time.perf_counter()
            if not live:
                return out
            out.append((sum(m["ply"] for m in live) / len(live), g, b, now))
            if out[-1][0] > until:
                return out
            await asyncio.sleep(0.02)


def window_cost(samples: list[Sample], centre: int, half: int, games: int) -> Window:
    """Microseconds of CPU per move (game server, bot server) between the samples around ``centre`` +- ``half``,
    and how long that window lasted."""
    inside = [s for s in samples if centre - half <= s[0] <= centre + half]
    if len(inside) < 2:
        raise SystemExit(f"too few samples around turn {centre}: raise --window or lower --games")
    (t0, g0, b0, w0), (t1, g1, b1, w1) = inside[0], inside[-1]
    moves = (t1 - t0) * games
    return (g1 - g0) / moves * 1e6, (b1 - b0) / moves * 1e6, w1 - w0


async def watch(server: str, game_id: str, deflate: bool = True, updates: str = "board") -> int:
    """Follow one game as a spectator (``WS /spectate/<id>``) to its end; returns the messages received.
    ``deflate``: offer permessage-deflate, as browsers do (the server then compresses every update); ``updates``:
    ``board`` (each move with the board) or ``moves`` (the move alone)."""
    from websockets.asyncio.client import connect

    url = server.replace("http://", "ws://") + f"/spectate/{game_id}?updates={updates}"
    received = 0
    async with connect(url, max_size=None, compression="deflate" if deflate else None) as ws:
        async for _ in ws:
            received += 1
    return received


async def one_run(
    games: int,
    turns: int,
    window: int,
    spectators: int = 0,
    deflate: bool = True,
    updates: str = "board",
    think: float = 0.0,
) -> list[Window]:
    """One run: a :data:`Window` at each of ``DEPTHS``; ``spectators`` follow each game;
    ``think``: seconds the bot sleeps before each move."""
    with tempfile.TemporaryDirectory() as tmp:
        gport, bport = free_port(), free_port()
        server, bot = f"http://127.0.0.1:{gport}", f"http://127.0.0.1:{bport}"
        serve = ("serve", "--port", str(gport), "--database-url", f"sqlite+aiosqlite:///{tmp}/bench.sqlite3")
        serve += ("--data-dir", tmp, "--log-level", "warning", "--create-rate-limit", "off")
        with process(*serve) as gproc, process("instant", str(bport), "auto", str(think)) as bproc:
            await wait_up(f"{server}/healthz")
            await wait_up(f"{bot}/capabilities.json")
            body = {
                "player_x": {"type": "bot", "bot_url": bot},
                "player_o": {"type": "bot", "bot_url": bot},
                "match_config": {"turn_limit": turns, "heartbeat": 5000, "win_distance": 32},  # no early wins
            }
            async with httpx.AsyncClient(timeout=60) as client:
                created = await asyncio.gather(*(client.post(f"{server}/game/new", json=body) for _ in range(games)))
                for r in created:
                    if r.status_code != 200:
                        raise SystemExit(f"POST /game/new answered {r.status_code}: {r.text}")
                ids = [r.json()["game_id"] for r in created]
                watchers = [
                    asyncio.create_task(watch(server, gid, deflate, updates)) for gid in ids for _ in range(spectators)
                ]
                samples = await sample(server, gproc.pid, bproc.pid, games, DEPTHS[-1][1] + window)
                for task in watchers:
                    task.cancel()
                await asyncio.gather(*watchers, return_exceptions=True)
    return [window_cost(samples, centre, window, games) for _, centre in DEPTHS]


async def main(
    games: int,
    turns: int,
    window: int,
    repeat: int,
    spectators: int,
    deflate: bool,
    updates: str = "board",
    think: float = 0.0,
) -> None:
    begun = time.perf_counter()
    runs, references = [], [reference_us(units=100, repeat=3)]  # the machine's speed before and after each run
    for _ in range(repeat):
        runs.append(await one_run(games, turns, window, spectators, deflate, updates, think))
        references.append(reference_us(units=100, repeat=3))
    elapsed = time.perf_counter() - begun
    how = f"{'' if deflate else ' without deflate'}{', moves only' if updates == 'moves' else ''}"
    watched = f", {spectators} spectator(s) a game{how}" if spectators else ""
    watched += f", the bot thinking {think * 1000:g} ms a move" if think else ""
    print(
        f"{games} concurrent games of {turns} turns{watched}, CPU per move (2 stones) over +-{window} turns, "
        f"median of {repeat}:"
    )
    print(f"{'':>14} {'game server':>12} {'bot server':>12} {'window':>13}")
    figures = []
    for i, (label, _) in enumerate(DEPTHS):
        g = statistics.median(run[i][0] for run in runs)
        b = statistics.median(run[i][1] for run in runs)
        lengths = [run[i][2] for run in runs]
        figures.append((g, b))
        print(f"{label:>14} {g:>10.0f} us {b:>10.0f} us {min(lengths):>5.2f}-{max(lengths):.2f} s")
    (g100, b100), (g1000, b1000) = figures
    print(f"{'ratio':>14} {g1000 / g100:>11.2f}x {b1000 / b100:>11.2f}x")
    shortest = min(run[i][2] for run in runs for i in range(len(DEPTHS)))
    if shortest < MIN_FLUSHES * FLUSH_INTERVAL:
        print(
            f"warning: a window lasted {shortest:.2f} s, under {MIN_FLUSHES} of the recorder's {FLUSH_INTERVAL:g} s "
            "flush intervals: whether it held a write of the moves decides its figure more than the board does; "
            "raise --games or --window"
        )
    print(
        f"({elapsed:.1f} s; cores on this machine: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}; machine "
        f"reference {statistics.median(references):.0f} us a unit, {min(references):.0f}-{max(references):.0f} "
        "between runs: bench/machine_speed.py)"
    )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=64)
    ap.add_argument("--turns", type=int, default=560)
    ap.add_argument(
        "--window",
        type=int,
        default=40,
        help="turns either side of 50 and 500 to measure over (each window should last several flush intervals)",
    )
    ap.add_argument("--repeat", type=int, default=3, help="runs; each figure is their median (a busy machine is noisy)")
    ap.add_argument("--spectators", type=int, default=0, help="spectators following each game (WS /spectate)")
    ap.add_argument("--no-deflate", action="store_true", help="spectators do not offer permessage-deflate")
    ap.add_argument(
        "--updates", choices=("board", "moves"), default="board", help="what spectators ask for (?updates=)"
    )
    ap.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="milliseconds the bot sleeps before each move (no CPU): the bot's thinking, not the servers' CPU, then "
        "paces the games at both depths alike, so the figures compare a move's cost without how bunched the moves "
        "arrive (with an instant bot that changes with the board; see README)",
    )
    args = ap.parse_args()
    asyncio.run(
        main(
            args.games,
            args.turns,
            args.window,
            args.repeat,
            args.spectators,
            not args.no_deflate,
            args.updates,
            args.think_ms / 1000,
        )
    )
