"""Hexagon dots engine speed: random games per second, immutable API vs mutable core, plus the greedy bot.

Run: ``PYTHONPATH=src .venv/bin/python bench/hexdots_engine.py [seconds-per-figure]``. Prints figures only.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from hexarena.bots.hexdots import GreedyBot
from hexarena.games.hexdots import GAME, DotsBoard, geometry


def immutable_game(rows: int, cols: int, rng: random.Random) -> int:
    s = GAME.new(rows=rows, cols=cols)
    while GAME.to_move(s) is not None:
        s = GAME.play(s, GAME.random_move(s, rng))
    return s.ply


def immutable_ids_game(rows: int, cols: int, rng: random.Random) -> int:
    s = GAME.new(rows=rows, cols=cols)
    while not s.over:
        s = GAME.play_id(s, GAME.random_id(s, rng))
    return s.ply


def board_game(rows: int, cols: int, rng: random.Random) -> int:
    b = DotsBoard(geometry(rows, cols))
    while not b.over:
        b.play(b.random_id(rng))
    return b.ply


def board_undo_game(rows: int, cols: int, rng: random.Random) -> int:
    b = DotsBoard(geometry(rows, cols))
    while not b.over:
        b.play(b.random_id(rng))
    n = b.ply
    for _ in range(n):
        b.undo()
    return n


def greedy_game(rows: int, cols: int, rng: random.Random) -> int:
    bot = GreedyBot()
    s = GAME.new(rows=rows, cols=cols)
    while GAME.to_move(s) is not None:
        s = GAME.play(s, bot.choose(GAME, s, None, rng))
    return s.ply


def measure(fn: Callable[[int, int, random.Random], int], rows: int, cols: int, budget: float) -> None:
    rng = random.Random(1)
    games = moves = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < budget or games < 3:
        moves += fn(rows, cols, rng)
        games += 1
    print(
        f"{fn.__name__:20s} {rows}x{cols}: {games / elapsed:9.1f} games/s  "
        f"{moves / elapsed:10.0f} moves/s  ({moves / games:.1f} moves/game, {games} games)"
    )


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print(f"Python {sys.version.split()[0]}, {budget:g} s per figure")
    for rows, cols in [(5, 5), (7, 7), (21, 21)]:
        geometry(rows, cols)  # tables are built once per size; keep that out of the figures
        for fn in (immutable_game, immutable_ids_game, board_game, board_undo_game, greedy_game):
            measure(fn, rows, cols, budget)


if __name__ == "__main__":
    main()
