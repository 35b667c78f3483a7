"""Hive engine speed, side by side with OpenSpiel's C++ ``hive`` driven from Python in the same run.

Prints, for both engines: perft leaves/s (bulk-counted at the last ply) and expanded positions/s (positions
whose legal moves were generated: the fairer figure, since OpenSpiel counts each numbered bug as its own
placement and so has ~2x more leaves per position), and random-game plies/s. Each figure is the best of
``--repeat`` runs (default 3), ours and OpenSpiel's interleaved, timed in CPU time of this process (both engines
run in it, single-threaded), because the machine is shared.
Ours is ``board.Board``: C move generation when the ``_chive`` extension is built, the pure-Python ``PyBoard``
with ``HEXARENA_PURE_PYTHON=1``; the first line says which.
Run: ``PYTHONPATH=src .venv/bin/python bench/hive_engine.py [--quick] [--repeat N]``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

from hexarena.games.hive import accel
from hexarena.games.hive.board import Board

MAX_PLY = 150  # random games are cut here (OpenSpiel also stops when the hive outgrows its board)


def our_perft(board: Board, depth: int, counter: list[int]) -> int:
    counter[0] += 1
    if depth == 1:
        return board.count_moves()
    total = 0
    for m in board.moves():
        board.play(m)
        total += our_perft(board, depth - 1, counter)
        board.undo()
    return total


def os_perft(state: Any, depth: int, counter: list[int]) -> int:
    counter[0] += 1
    if depth == 1:
        return len(state.legal_actions())
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += 1 if child.is_terminal() else os_perft(child, depth - 1, counter)
    return total


def our_random_plies(expansions: str, n: int, max_ply: int, seed: int) -> int:
    rng = random.Random(seed)
    plies = 0
    for _ in range(n):
        b = Board(expansions)
        for _ in range(max_ply):
            moves = b.moves()
            if not moves:
                break
            b.play(rng.choice(moves))
            plies += 1
    return plies


def os_random_plies(game: Any, n: int, max_ply: int, seed: int) -> int:
    rng = random.Random(seed)
    plies = 0
    for _ in range(n):
        s = game.new_initial_state()
        for _ in range(max_ply):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
            plies += 1
    return plies


def best_pair(repeat: int, ours: Callable[[], Any], theirs: Callable[[], Any] | None) -> tuple[Any, float, Any, float]:
    """Best-of-``repeat`` CPU times of both, interleaved so that a change in machine load hits both alike."""
    bo = bt = float("inf")
    out_o: Any = None
    out_t: Any = None
    for _ in range(repeat):
        t = time.process_time()
        out_o = ours()
        bo = min(bo, time.process_time() - t)
        if theirs is not None:
            t = time.process_time()
            out_t = theirs()
            bt = min(bt, time.process_time() - t)
    return out_o, bo, out_t, bt


def os_params(exp: str) -> dict[str, bool]:
    return {f"uses_{k}": x in exp for x, k in (("M", "mosquito"), ("L", "ladybug"), ("P", "pillbug"))}


def main() -> None:
    quick = "--quick" in sys.argv
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 3
    try:
        import pyspiel
    except ImportError:  # pragma: no cover
        pyspiel = None
    print(f"ours: {'C move generation (_chive)' if accel.enabled() else 'pure Python (PyBoard)'}; times are CPU times")
    print(f"{'':26}{'ours':>40} | {'OpenSpiel hive (C++ via Python)':>40} | ratio (positions/s)")
    cases = [("Base", "", 4), ("Base+MLP", "MLP", 3), ("Base+MLP", "MLP", 4)]
    if not quick:
        cases.insert(1, ("Base", "", 5))
    for title, exp, depth in cases:
        c = [0]

        def ours(exp: str = exp, depth: int = depth, c: list[int] = c) -> int:
            c[0] = 0
            return our_perft(Board(exp), depth, c)

        theirs = None
        oc = [0]
        if pyspiel is not None:
            g = pyspiel.load_game("hive", os_params(exp))

            def theirs(g: Any = g, depth: int = depth, oc: list[int] = oc) -> int:
                oc[0] = 0
                return os_perft(g.new_initial_state(), depth, oc)

        n, dt, on, odt = best_pair(1 if depth == 5 else repeat, ours, theirs)
        line = f"perft {title} d{depth}".ljust(26)
        line += f"{n:>10} leaves {n / dt:>9.0f}/s {c[0] / dt:>8.0f} pos/s"
        if theirs is not None:
            line += f" | {on:>10} leaves {on / odt:>9.0f}/s {oc[0] / odt:>8.0f} pos/s"
            line += f" | {(c[0] / dt) / (oc[0] / odt):5.2f}x"
        print(line, flush=True)
    games = 20 if quick else 50
    for title, exp in (("Base", ""), ("Base+MLP", "MLP")):

        def ours_games(exp: str = exp) -> int:
            return our_random_plies(exp, games, MAX_PLY, 1)

        their_games = None
        if pyspiel is not None:
            g = pyspiel.load_game("hive", os_params(exp))

            def their_games(g: Any = g) -> int:
                return os_random_plies(g, games, MAX_PLY, 1)

        plies, dt, oplies, odt = best_pair(repeat, ours_games, their_games)
        line = f"random games {title}".ljust(26)
        line += f"{games / dt:>8.1f} games/s {plies / dt:>8.0f} plies/s".rjust(40)
        if their_games is not None:
            line += " | " + f"{games / odt:>8.1f} games/s {oplies / odt:>8.0f} plies/s".rjust(40)
            line += f" | {(plies / dt) / (oplies / odt):5.2f}x (plies/s)"
        print(line, flush=True)


if __name__ == "__main__":
    main()
