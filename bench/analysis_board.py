"""What the analysis board costs the server: CPU per position request by game and line length, and how long an
analysis answers against the time it was given.

Starts ``hexarena serve`` (a temporary SQLite database) as a separate process. For each game, a line of
``--plies`` random legal moves (seeded; shorter where the game ends first) is sent to
``POST /api/analysis/GAME/position`` ``--requests`` times: the server's CPU per request is the replay by the rules,
the JSON view and the record, which the board pays for every move played and every position stepped to. Then one
``POST /api/analysis/GAME`` per game with ``--think`` seconds: the wall time until the answer, next to the time
given (the bots use a share of it).

    PYTHONPATH=src .venv/bin/python bench/analysis_board.py [--plies 200] [--requests 20] [--think 1]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hexarena.core.registry import get_game
from server_throughput import cpu_seconds, sqlite_server

GAMES = ("tictactoe", "hex", "htttx", "hive", "hexdots")


def random_line(name: str, plies: int, seed: int = 1) -> list[str]:
    """Up to ``plies`` random legal moves of ``name`` from its default start, stopping where the game ends."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new()
    line: list[str] = []
    while len(line) < plies and game.to_move(state) is not None:
        move = game.random_move(state, rng)
        line.append(game.format(move))
        state = game.play(state, move)
    return line


async def main(plies: int, requests: int, think: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with sqlite_server(tmp) as (proc, server), httpx.AsyncClient(base_url=server, timeout=60) as client:
            costs, answers, said = [], [], []
            for name in GAMES:
                line = random_line(name, plies)
                body: dict[str, Any] = {"moves": line}
                (await client.post(f"/api/analysis/{name}/position", json=body)).raise_for_status()
                begun = cpu_seconds(proc.pid)
                for _ in range(requests):
                    (await client.post(f"/api/analysis/{name}/position", json=body)).raise_for_status()
                ms = (cpu_seconds(proc.pid) - begun) / requests * 1e3
                costs.append(f"{name} {len(line)} plies {ms:.1f} ms")
            for name in GAMES:
                sent = time.perf_counter()
                r = await client.post(
                    f"/api/analysis/{name}", json={"moves": random_line(name, 6), "time_limit": think}
                )
                r.raise_for_status()
                answers.append(f"{name} {time.perf_counter() - sent:.2f} s")
                a = r.json()["analysis"] or {}
                gave = "/".join(k for k, v in (a.get("reports") or {}).items() if v) or "its move only"
                said.append(f"{name} ({a.get('bot')}): {gave}")
            print("reported: " + "; ".join(said))
            print("position, server CPU a request: " + ", ".join(costs))
            print(f"analysis answered ({think:g} s given): " + ", ".join(answers))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=200)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--think", type=float, default=1.0)
    a = parser.parse_args()
    asyncio.run(main(a.plies, a.requests, a.think))
