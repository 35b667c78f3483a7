"""Depth the Hive ``alphabeta`` search completes in a fixed time, on the pure-Python board and the C one.

Why: the rules engine's speed is worth something to a bot only if the search goes deeper in the same time. The
same middle-game positions (random Base+MLP games, moves drawn from the sorted list, so the positions do not
depend on the engine) are searched by ``AlphaBeta`` with a wall-clock budget by three engines, interleaved
position by position so that a change in machine load hits all alike: ``PyBoard`` with the Python evaluation
("pure Python"), ``CBoard`` with the C evaluation ("C moves": what the bot runs when the extension is built), and
``CBoard`` with the Python evaluation ``assess_py`` ("C, Python eval": what the C evaluation gains). Prints, for
each, the completed depth (mean, median and the count at each depth) and the nodes searched a CPU second.
Run: ``PYTHONPATH=src .venv/bin/python bench/hive_search_depth.py [--seconds S] [--positions N]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable

from hexarena.bots.hive.alphabeta import AlphaBeta
from hexarena.bots.hive.evaluation import assess, assess_py
from hexarena.games.hive import accel
from hexarena.games.hive.board import CBoard, PyBoard


def positions(n: int, seed: int) -> list[PyBoard]:
    """``n`` positions between plies 12 and 50 of seeded random Base+MLP games that have not ended."""
    rng = random.Random(seed)
    out: list[PyBoard] = []
    while len(out) < n:
        b = PyBoard("MLP")
        stop = rng.randint(12, 50)
        while b.ply < stop and b.result() < 0:
            b.play(rng.choice(sorted(b.moves())))
        if b.result() < 0:
            out.append(b)
    return out


def search(board: PyBoard, seconds: float, leaf: Callable[[PyBoard, int], int]) -> tuple[int, int, float]:
    """Completed depth, nodes and CPU seconds of one search of ``board`` with a ``seconds`` deadline."""
    ab = AlphaBeta(time.monotonic() + seconds, 64, random.Random(0), leaf)
    t = time.process_time()
    ab.best_move(board)
    return ab.depth_reached, ab.nodes, time.process_time() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="search time a position (wall clock)")
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not accel.available():
        raise SystemExit("the _chive extension is not built: pip install -e . with a C compiler")
    engines: dict[str, tuple[type[PyBoard], Callable[[PyBoard, int], int]]] = {
        "pure Python": (PyBoard, assess),
        "C moves": (CBoard, assess),
        "C, Python eval": (CBoard, assess_py),
    }
    depths: dict[str, list[int]] = {k: [] for k in engines}
    nodes: dict[str, int] = dict.fromkeys(engines, 0)
    cpu: dict[str, float] = dict.fromkeys(engines, 0.0)
    for b in positions(args.positions, args.seed):
        for name, (cls, leaf) in engines.items():
            board = b.copy()
            board.__class__ = cls
            d, n, c = search(board, args.seconds, leaf)
            depths[name].append(d)
            nodes[name] += n
            cpu[name] += c
    print(f"alphabeta, {args.positions} Base+MLP middle-game positions, {args.seconds:g} s a search")
    for name in engines:
        hist = " ".join(f"d{d}:{k}" for d, k in sorted(Counter(depths[name]).items()))
        print(
            f"{name:14} depth mean {statistics.mean(depths[name]):4.2f} median {statistics.median(depths[name]):3.1f}"
            f"  ({hist})  {nodes[name] / max(cpu[name], 1e-9):8.0f} nodes/s CPU"
        )


if __name__ == "__main__":
    main()
