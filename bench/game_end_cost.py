"""What a game's end costs the server: CPU per rated game end through ``Store.finish_games``, SQLite and
PostgreSQL side by side.

Every game a server plays ends in one of these (the result, the status and both players' Elo, in one
transaction); the recorder writes the ends that queue together as one batch. ``--games`` games of the same few
players are created, then finished in batches of 1 (a quiet server) and of ``--batch`` (games that end
together), and the figure is this process's CPU time (every thread, so the SQLite driver's too) per game end.

    PYTHONPATH=src .venv/bin/python bench/game_end_cost.py [--games 256] [--batch 32] [--repeat 3] [--pg URL]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hexarena.store import Store
from hexarena.store.records import GameFinish, NewGame, PlayerRecord, RatedGame
from store_throughput import PG_DEFAULT, fresh_postgres

PLAYERS = ("ann", "ben", "cat", "dan")


async def cost(url: str, games: int, batch: int) -> float:
    """Microseconds of CPU per rated game end, finishing ``games`` games ``batch`` at a time."""
    store = await Store.open(url)
    try:
        ends = []
        for i in range(games):
            gid = uuid.uuid4().hex
            names = (PLAYERS[i % 4], PLAYERS[(i + 1) % 4])  # each player in two games of every four
            players = tuple(PlayerRecord(name, "bws", "") for name in names)
            await store.create_games([NewGame(game_id=gid, game="htttx", params={}, players=players)])
            winner = i % 3 if i % 3 < 2 else None  # wins for either seat and draws
            ends.append(GameFinish(gid, winner, "normal", "six in a row", rate=RatedGame("htttx", names)))
        begun = time.process_time()
        for start in range(0, games, batch):
            assert all(await store.finish_games(ends[start : start + batch]))
        return (time.process_time() - begun) / games * 1e6
    finally:
        await store.close()


async def main(games: int, batch: int, repeat: int, pg: str) -> None:
    print(f"CPU per rated game end (finish, status, both Elo ratings), {games} games, best of {repeat}:")
    print(f"{'store':<12} {'one at a time':>14} {f'{batch} together':>14}")
    for label in ("SQLite", "PostgreSQL"):
        figures = []
        for size in (1, batch):
            best = float("inf")
            for _ in range(repeat):
                if label == "SQLite":
                    with tempfile.TemporaryDirectory() as tmp:
                        best = min(best, await cost(f"sqlite+aiosqlite:///{tmp}/bench.sqlite3", games, size))
                else:
                    async with fresh_postgres(pg) as url:
                        if url is None:
                            break
                        best = min(best, await cost(url, games, size))
            figures.append(best)
        if all(f != float("inf") for f in figures):
            print(f"{label:<12} {figures[0]:>11,.0f} us {figures[1]:>11,.0f} us")
    print(f"cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=256)
    ap.add_argument("--batch", type=int, default=32, help="game ends written together (the recorder's batches)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is printed (a busy machine is noisy)")
    ap.add_argument("--pg", default=os.environ.get("HEXARENA_TEST_DATABASE_URL", PG_DEFAULT))
    a = ap.parse_args()
    asyncio.run(main(a.games, a.batch, a.repeat, a.pg))
