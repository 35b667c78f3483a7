"""Bot-server cost per move as the board grows: CPU of one ``hexarena bot serve`` process at ~100 vs ~1,000 stones.

A move request carries the whole board (the Hivemaker extension), so everything a bot server does per request
that is proportional to the board (decoding it, rebuilding the bot's view of it) makes long games slower move by
move. This starts ``hexarena bot serve --bot NAME`` as a separate process, plays ``--games`` games against it
through the real bws adapter and referee (both seats on that server, ``win_distance`` 32 so no game ends before
the largest board measured), reads the server's CPU time at every move and prints the mean CPU per move over
the moves around each board size (``--stones``; the window is ``--window`` moves, centred on the size).

CPU time is the sum over the server's threads (``/proc/<pid>/task/*/schedstat``, nanoseconds: the bot itself
runs on a thread pool), so it counts the bot's thinking as well as the SDK's work: the random bot's own cost
(it rebuilds an engine state from the cells every move) is part of what a bot server pays.

    PYTHONPATH=src .venv/bin/python bench/bot_board_cost.py [--bot random|instant] [--games 3] [--stones 100,1000]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from server_throughput import free_port, process, wait_up  # noqa: E402  (the sibling benchmark's helpers)


def cpu_ns(pid: int) -> int:
    """CPU nanoseconds of every live thread of ``pid`` (Linux schedstat: far finer than clock ticks)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            total += int((task / "schedstat").read_text().split()[0])
    return total


class CpuPerMove:
    """Referee listener: the server's CPU nanoseconds at the start and after every move."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.samples: list[int] = []

    async def on_start(self, match_id: str, state: Any) -> None:
        self.samples = [cpu_ns(self.pid)]

    async def on_move(self, match_id: str, record: Any, state: Any) -> None:
        self.samples.append(cpu_ns(self.pid))

    async def on_end(self, result: Any) -> None:
        pass


async def main(bot: str, games: int, sizes: list[int], window: int) -> None:
    from hexarena.games.htttx import HTTTX
    from hexarena.players.bws import BwsPlayer
    from hexarena.referee.match import MatchConfig, Referee

    # stones after ply p (0-based, counted after the move) = 1 + 2 * (p + 1); a window of moves centred on each size
    windows = {s: range(max(0, (s - 1) // 2 - window // 2), (s - 1) // 2 - window // 2 + window) for s in sizes}
    turns = max(w.stop for w in windows.values()) + 1
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    spent: dict[int, list[int]] = {s: [] for s in sizes}
    # ``instant`` is server_throughput's spiral-filling SDK bot: its own cost is a set of the cells, so what
    # remains is the SDK's cost per move
    args = ("instant", str(port), "auto") if bot == "instant" else ("bot", "serve", "--bot", bot, "--port", str(port))
    with process(*args) as proc:
        await wait_up(f"{url}/capabilities.json")
        for _ in range(games):
            probe = CpuPerMove(proc.pid)
            config = MatchConfig(game=HTTTX, params={"win_distance": 32, "turn_limit": turns})
            result = await Referee(config, [BwsPlayer(url), BwsPlayer(url)], listener=probe).run()
            if len(result.moves) < turns:
                raise SystemExit(f"a game ended early: {result.outcome}")
            for size, plies in windows.items():
                spent[size] += [probe.samples[p + 1] - probe.samples[p] for p in plies]
    print(f"bot server {bot!r}, {games} games, mean CPU per move over {window} moves around each board size:")
    base = None
    for size in sizes:
        mean_us = sum(spent[size]) / len(spent[size]) / 1000
        base = base or mean_us
        print(f"  ~{size:>5} stones: {mean_us:8.0f} us per move ({mean_us / base:4.1f}x the first size)")
    print(f"cores on this machine: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot", default="random", help="built-in HTTTX bot the server runs, or 'instant' (SDK cost only)")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--stones", default="100,1000", help="board sizes to measure, comma-separated")
    ap.add_argument("--window", type=int, default=50, help="moves averaged around each size")
    args = ap.parse_args()
    asyncio.run(main(args.bot, args.games, [int(s) for s in args.stones.split(",")], args.window))
