"""HTTTX engine throughput: prints figures, asserts nothing.

    PYTHONPATH=src .venv/bin/python bench/htttx_engine.py [--quick]

Sections 1-3 print the pure-Python ``PyBoard`` and the C accelerator (``_cboard``, when built) side by side;
``hexarena.games.htttx.Board`` is the C one unless ``HEXARENA_PURE_PYTHON=1``.

1. Validated stones/s of the mutable ``Board`` (``place`` = legality check + incremental legal set + Zobrist +
   win check), replaying pre-generated games so that choosing moves is not timed. Two workloads: "realistic"
   (each stone within 2 of some stone, "compact", or of one of the last 6 stones, "snake": like real play) and
   "uniform" (uniformly random legal cells: the board spreads out, every stone brings ~15-40 new cells into
   range, the worst case).
2. place+undo pairs/s over every legal cell of a middle-game position (what a 1-ply search does).
3. Random full games/s: with the Board (``random_legal`` + ``place`` to a natural win, ~10k stones a game)
   and through the immutable ``HtttxGame`` API (``random_move`` + ``play`` + ``outcome``), with and without a
   turn limit.
4. hexbot (PyPI, a C engine behind ctypes) side by side when it is installed; it runs in a subprocess because
   its engine crashes the process on an occupied cell or outside its 31x31 grid.

Rates are per CPU second of this process (``time.process_time``), best of several runs: the machine is shared,
and wall-clock rates would mostly measure the other processes.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hexarena.games.htttx import HTTTX, Board, accel, hex_distance
from hexarena.games.htttx import game as game_module
from hexarena.games.htttx.board import PyBoard


def _c_board() -> Any:
    """The C board even when HEXARENA_PURE_PYTHON keeps it out of ``Board`` (None if it is not built)."""
    try:
        return importlib.import_module("hexarena_sdk.htttx._cboard").Board
    except ImportError:
        return None


#: (name, class) of every implementation to measure
IMPLS: list[tuple[str, Any]] = [("Python", PyBoard)] + ([("C", _c_board())] if _c_board() is not None else [])

Stones = list[tuple[int, int, int]]


def gen_games(realistic: bool, n_games: int, cap: int, seed: int, recent: int = 6) -> list[Stones]:
    """Random games; ``realistic``: each stone within 2 of one of the last ``recent`` stones (0: any stone)."""
    rng = random.Random(seed)
    games = []
    for _ in range(n_games):
        b = Board()
        b.place(0, 0, 0)
        seat, placed = 1, 0
        while len(b.stones) < cap:
            if realistic:
                while True:
                    k = len(b.stones) if recent == 0 else min(recent, len(b.stones))
                    q0, r0, _ = b.stones[-1 - int(rng.random() * k)]
                    q, r = q0 + rng.randint(-2, 2), r0 + rng.randint(-2, 2)
                    if b.is_legal(q, r):
                        break
            else:
                q, r = b.random_legal(rng)
            if b.place(q, r, seat):
                break
            placed += 1
            if placed % 2 == 0:
                seat ^= 1
        games.append(list(b.stones))
    return games


def best_rate(fn: object, count: int, reps: int) -> float:
    """Best of ``reps`` runs (the machine is shared: the best run is the least disturbed one)."""
    best = float("inf")
    for _ in range(reps):
        t0 = time.process_time()
        fn()  # type: ignore[operator]
        best = min(best, time.process_time() - t0)
    return count / best


def replay_rate(games: list[Stones], reps: int, board: Any = Board) -> float:
    def run() -> None:
        for seq in games:
            place = board().place
            for q, r, s in seq:
                place(q, r, s)

    return best_rate(run, sum(map(len, games)), reps)


def place_undo_rate(reps: int, board: Any = Board) -> tuple[float, float, int, int, int]:
    """place+undo over every legal cell, and over the cells within 2 of a stone (a bot's usual candidates)."""
    b = board()
    for q, r, s in gen_games(True, 1, 80, 9)[0]:
        b.place(q, r, s)
    every = b.legal_cells()
    near = [(q, r) for q, r in every if any(hex_distance(q, r, a, c) <= 2 for a, c, _ in b.stones)]

    def rate(cells: list[tuple[int, int]]) -> float:
        def run() -> None:
            place, undo = b.place, b.undo
            for _ in range(20):
                for q, r in cells:
                    place(q, r, 0)
                    undo()

        return best_rate(run, 20 * len(cells), reps)

    return rate(every), rate(near), len(b.stones), len(every), len(near)


def board_random_games(seconds: float, board: Any = Board) -> tuple[float, float, float]:
    rng = random.Random(1)
    t0 = time.process_time()
    games = stones = 0
    while time.process_time() - t0 < seconds or games == 0:
        b = board()
        b.place(0, 0, 0)
        seat, placed = 1, 0
        while True:
            q, r = b.random_legal(rng)
            if b.place(q, r, seat):
                break
            placed += 1
            if placed % 2 == 0:
                seat ^= 1
        games += 1
        stones += len(b.stones)
    dt = time.process_time() - t0
    return games / dt, stones / dt, stones / games


def api_random_games(seconds: float, **params: int) -> tuple[float, float, float]:
    rng = random.Random(2)
    t0 = time.process_time()
    games = turns = 0
    play, random_move, outcome = HTTTX.play, HTTTX.random_move, HTTTX.outcome
    while time.process_time() - t0 < seconds or games == 0:
        s = HTTTX.new(**params)
        while outcome(s) is None:
            s = play(s, random_move(s, rng))
        games += 1
        turns += s.turns
    dt = time.process_time() - t0
    return games / dt, 2 * turns / dt, turns / games


_HEXBOT = r"""
import json, random, sys, time
import hexbot
games = json.loads(sys.stdin.read())
def replay():
    for seq in games:
        g = hexbot.HexGame(max_stones=100000)
        for q, r, _ in seq:
            g.place(q, r)
best = float("inf")
for _ in range(3):
    t0 = time.process_time(); replay(); best = min(best, time.process_time() - t0)
n = sum(map(len, games))
rng = random.Random(1)
ok = lambda c: max(abs(c[0]), abs(c[1]), abs(c[0] + c[1])) <= 12
t0 = time.process_time(); ng = stones = 0
while time.process_time() - t0 < 2:
    g = hexbot.HexGame(max_stones=200); g.place(0, 0)
    while not g.is_over:
        moves = [c for c in g.legal_moves() if ok(c)]
        if not moves:
            break
        g.place(*rng.choice(moves))
    ng += 1; stones += g.total_stones
dt = time.process_time() - t0
print(json.dumps({"place": n / best, "games": ng / dt, "stones": stones / dt, "avg": stones / ng}))
"""


def hexbot_figures(inside: list[Stones]) -> dict[str, float] | str:
    try:
        import hexbot  # noqa: F401
    except ImportError:
        return "not installed (pip install hexbot; it pulls in torch, so it is not a project dependency)"
    if not inside:
        return "no benchmark game stays inside hexbot's grid"
    try:
        out = subprocess.run(
            [sys.executable, "-c", _HEXBOT],
            input=json.dumps(inside),
            capture_output=True,
            text=True,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"hexbot run failed: {exc}"
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["?"])[-1]
        return f"hexbot not usable here ({last})"
    figures: dict[str, float] = json.loads(out.stdout)
    return figures


@contextmanager
def game_board(board: Any) -> Iterator[None]:
    """Make ``HtttxGame`` build its boards from ``board`` for a while (its module-global ``Board``)."""
    saved = getattr(game_module, "Board")  # noqa: B009  (not re-exported by game.py)
    setattr(game_module, "Board", board)  # noqa: B010
    try:
        yield
    finally:
        setattr(game_module, "Board", saved)  # noqa: B010


def side_by_side(label: str, fn: Callable[[Any], float], fmt: str = ",.0f") -> None:
    """One row: the figure of every implementation, and the C / Python ratio."""
    rates = [fn(cls) for _, cls in IMPLS]
    cols = "  ".join(f"{name}: {rate:>10{fmt}}" for (name, _), rate in zip(IMPLS, rates, strict=True))
    ratio = f"  (x{rates[1] / rates[0]:.1f})" if len(rates) == 2 and rates[0] else ""
    print(f"   {label:<48} {cols}{ratio}")


def main() -> None:
    quick = "--quick" in sys.argv
    reps = 2 if quick else 5
    secs = 1.0 if quick else 4.0
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print("rates per CPU second of one process (time.process_time), best of several runs")
    note = "" if accel.CBoard is not None else f" (C board not used: {accel.UNAVAILABLE})"
    print(f"Board = {accel.IMPLEMENTATION}{note}; implementations measured: {', '.join(n for n, _ in IMPLS)}")
    compact = gen_games(True, 40 if quick else 150, 3000, 3, recent=0)
    snake = gen_games(True, 40 if quick else 150, 3000, 1)
    uniform = gen_games(False, 2 if quick else 4, 3000, 2)
    print("1. Board.place, validated stones/s (legality + legal set + Zobrist + win check)")
    for label, games in (("compact: near any stone", compact), ("snake: near the last 6 stones", snake)):
        avg = sum(map(len, games)) / len(games)

        def replay(cls: Any, g: list[Stones] = games) -> float:
            return replay_rate(g, reps, cls)

        side_by_side(f"{label} (avg {avg:.0f} stones)", replay)
    side_by_side("uniform random legal cells (3000 stones)", lambda cls: replay_rate(uniform, reps, cls))
    figures = {name: place_undo_rate(reps, cls) for name, cls in IMPLS}
    _, _, stones, n_every, n_near = figures["Python"]
    print(f"2. place+undo pairs/s in a {stones}-stone position")
    side_by_side(f"over the {n_near} cells within 2 of a stone", lambda cls: place_undo_rate_of(figures, cls)[1])
    side_by_side(
        f"over all {n_every} legal cells (up to 136 new each)", lambda cls: place_undo_rate_of(figures, cls)[0]
    )
    print("3. random full games (random_legal + place to a natural win)")
    side_by_side("Board, stones/s", lambda cls: board_random_games(secs, cls)[1])

    def api(cls: Any, **params: int) -> float:
        with game_board(cls):
            return api_random_games(secs, **params)[1]

    side_by_side("HtttxGame API, stones/s", api)
    side_by_side("HtttxGame API, turn_limit=100, stones/s", lambda cls: api(cls, turn_limit=100))
    short = [
        g
        for g in gen_games(True, 60 if quick else 200, 150, 4, recent=0)
        if all(max(abs(q), abs(r), abs(q + r)) <= 12 for q, r, _ in g)
    ]
    hb = hexbot_figures(short)
    if isinstance(hb, str):
        print(f"4. hexbot: {hb}")
    else:
        print(f"4. side by side, {len(short)} compact games inside hexbot's grid replayed:")
        for name, cls in IMPLS:
            print(
                f"   hexarena {name + ' Board.place (validated):':<32} {replay_rate(short, reps, cls):>10,.0f} stones/s"
            )
        print(
            f"   {'hexbot HexGame.place:':<41} {hb['place']:>10,.0f} stones/s "
            "(C via ctypes; does NOT validate: an occupied cell crashes it)"
        )
        print(
            f"   hexbot random games (its own rules: 200-stone cap, candidates within 3, 31x31 grid): "
            f"{hb['games']:.1f} games/s, {hb['stones']:,.0f} stones/s (avg {hb['avg']:.0f})"
        )


def place_undo_rate_of(figures: dict[str, tuple[float, float, int, int, int]], cls: Any) -> tuple[float, float]:
    name = next(n for n, c in IMPLS if c is cls)
    return figures[name][0], figures[name][1]


if __name__ == "__main__":
    main()
