"""Hex engine throughput: random 11x11 games per second, ours against OpenSpiel in the same run, and MCTS.

    PYTHONPATH=src .venv/bin/python bench/hex_engine.py [--seconds 2] [--size 11]

Prints figures only (no assertions). Every loop plays uniformly random games to the end:

* ours, public API: ``new`` / ``random_move`` / ``play`` / ``outcome`` on immutable states -- what the
  referee and any generic tool use -- once through the C accelerator (``accel.py``, what ``GAME`` uses when the
  extension is built) and once through the pure-Python reference ``HexGame``;
* ours, mutable core: ``HexBoard.place`` with a swap-remove list of empty cells -- what a search uses;
* OpenSpiel (C++ behind pybind11), the usual Python loop ``apply_action(rng.choice(legal_actions()))`` and its
  immutable flavour ``state = state.child(...)``;
* MCTS simulations per second from the empty board and from a middle-game position.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from hexarena.bots.hex import MctsHexBot
from hexarena.games.hex import GAME, HexBoard, HexGame, accel


def measure(loops: dict[str, Callable[[], int]], seconds: float, rounds: int = 5) -> dict[str, tuple[float, float]]:
    """Interleave the loops in ``rounds`` rounds of about ``seconds / rounds`` each and keep each loop's best
    round. Time is this process's CPU time (every contender runs in this one thread, OpenSpiel's C++
    included), so other processes on a shared machine do not skew the figures; interleaving evens out the
    rest. Returns games/s and mean game length per loop."""
    best = dict.fromkeys(loops, 0.0)
    lengths: dict[str, list[int]] = {k: [] for k in loops}
    for loop in loops.values():
        loop()  # warm caches
    clock = time.process_time
    for _ in range(rounds):
        for name, loop in loops.items():
            games = 0
            start = clock()
            while (elapsed := clock() - start) < seconds / rounds:
                lengths[name].append(loop())
                games += 1
            best[name] = max(best[name], games / elapsed)
    return {k: (best[k], sum(lengths[k]) / len(lengths[k])) for k in loops}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--size", type=int, default=11)
    ap.add_argument("--mcts-iterations", type=int, default=20000)
    args = ap.parse_args()
    n, secs, mcts_iterations = args.size, args.seconds, args.mcts_iterations
    rng = random.Random(1)

    def public_loop(game: HexGame) -> Callable[[], int]:
        def ours_public() -> int:
            s = game.new(size=n, swap=False)
            outcome, random_move, play = game.outcome, game.random_move, game.play
            while outcome(s) is None:
                s = play(s, random_move(s, rng))
            return s.ply

        return ours_public

    def ours_core() -> int:
        b = HexBoard(n)
        empties = list(range(n * n))
        rnd = rng.random
        place = b.place
        while True:
            j = int(rnd() * len(empties))
            empties[j], empties[-1] = empties[-1], empties[j]
            if place(empties.pop()):
                return len(b.history)

    c_label, py_label = "hexarena public API, C accelerator", "hexarena public API, pure Python"
    loops: dict[str, Callable[[], int]] = {}
    if accel.available():
        loops[c_label] = public_loop(accel.make_game(accelerated=True))
    loops[py_label] = public_loop(HexGame())
    loops["hexarena mutable core (HexBoard)"] = ours_core
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    if pyspiel is not None:
        os_game = pyspiel.load_game("hex", {"board_size": n})

        def openspiel_apply() -> int:
            s = os_game.new_initial_state()
            k = 0
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
                k += 1
            return k

        def openspiel_child() -> int:
            s = os_game.new_initial_state()
            k = 0
            while not s.is_terminal():
                s = s.child(rng.choice(s.legal_actions()))
                k += 1
            return k

        loops["OpenSpiel apply_action loop"] = openspiel_apply
        loops["OpenSpiel child() loop (immutable)"] = openspiel_child

    print(f"Hex {n}x{n}, random games to the end; best of 5 interleaved rounds, {secs:g} CPU s per line")
    print(f"  (GAME is {type(GAME).__name__}; C extension {'built' if accel.available() else 'NOT built'})")
    results = measure(loops, secs)
    for label, (games_per_s, mean_len) in results.items():
        print(f"  {label:40s} {games_per_s:8.0f} games/s  (mean length {mean_len:.1f})")
    if pyspiel is None:
        print("  OpenSpiel: not installed (pip install open_spiel)")
    else:
        apply_ = results["OpenSpiel apply_action loop"][0]
        child = results["OpenSpiel child() loop (immutable)"][0]
        if c_label in results:
            pub_c = results[c_label][0]
            print(f"  ratio public API (C) / OpenSpiel apply_action:      {pub_c / apply_:.2f}x")
            print(f"  ratio public API (C) / OpenSpiel child():           {pub_c / child:.2f}x")
        pub_py = results[py_label][0]
        core = results["hexarena mutable core (HexBoard)"][0]
        print(f"  ratio public API (Python) / OpenSpiel apply_action: {pub_py / apply_:.2f}x")
        print(f"  ratio mutable core / OpenSpiel apply_action:        {core / apply_:.2f}x")
    if c_label in results:
        print(
            f"  C accelerator / pure Python (public API):           {results[c_label][0] / results[py_label][0]:.2f}x"
        )

    print("MCTS (UCT, bridge-aware fill-the-board rollouts)")
    positions = {"empty board": GAME.new(size=n, swap=False)}
    s = GAME.new(size=n, swap=False)
    mid_rng = random.Random(5)
    while s.ply < n * n // 3:
        s = GAME.play(s, GAME.random_move(s, mid_rng))
    positions[f"after {s.ply} random moves"] = s
    for label, state in positions.items():
        bot = MctsHexBot(iterations=mcts_iterations)
        start = time.process_time()
        bot.choose(GAME, state, None, random.Random(2))
        cpu = time.process_time() - start
        print(
            f"  {label:28s} {bot.stats.iterations / cpu:10.0f} simulations/s (CPU time; {bot.stats.iterations} in {cpu:.2f} s)"
        )


if __name__ == "__main__":
    main()
