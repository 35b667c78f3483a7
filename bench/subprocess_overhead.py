"""Per-move overhead of the subprocess (UAIS) adapter: round trips to a trivial bot that answers at once.

Prints the mean and p50/p99 round trip of ``make_move`` -> answer over real pipes, and whole 11x11 games per
second between two UAIS random bots through the referee.
    PYTHONPATH=src python bench/subprocess_overhead.py [round_trips]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

from hexarena.core.registry import get_game
from hexarena.players.uais import UaisBot, UaisPlayer
from hexarena.referee import MatchConfig, Referee

ROOT = Path(__file__).resolve().parents[1]
TRIVIAL = [
    sys.executable,
    "-c",
    "import sys\nfor l in sys.stdin:\n    print('a1', flush=True) if l.startswith('make') else None",
]
RANDOM_BOT = f"{sys.executable} {ROOT / 'examples' / 'uais_random_bot.py'}"


async def round_trips(n: int) -> list[float]:
    bot = UaisBot(TRIVIAL, "black")
    await bot.start(11)
    times = []
    for _ in range(n):
        t = time.perf_counter()
        await bot.ask("make_move", 5.0)
        times.append(time.perf_counter() - t)
    await bot.quit()
    return times


async def games(n: int) -> tuple[float, int]:
    game = get_game("hex")
    moves = 0
    t = time.perf_counter()
    for _ in range(n):
        result = await Referee(
            MatchConfig(game=game, params={"size": 11}), [UaisPlayer(RANDOM_BOT), UaisPlayer(RANDOM_BOT)]
        ).run()
        moves += len(result.moves)
    return time.perf_counter() - t, moves


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    times = asyncio.run(round_trips(n))
    times.sort()
    print(
        f"UAIS make_move round trip over pipes ({n} trips): mean {statistics.mean(times) * 1e6:.0f} us, "
        f"p50 {times[len(times) // 2] * 1e6:.0f} us, p99 {times[int(len(times) * 0.99)] * 1e6:.0f} us"
    )
    elapsed, moves = asyncio.run(games(10))
    print(
        f"11x11 games between two UAIS random bots through the referee: {10 / elapsed:.1f} games/s, "
        f"{moves / elapsed:.0f} moves/s (process start-up included)"
    )


if __name__ == "__main__":
    main()
