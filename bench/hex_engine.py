"""Hex engine throughput: random 11x11 games per second, ours against OpenSpiel in the same run, and MCTS.

    PYTHONPATH=src .venv/bin/python bench/hex_engine.py [--seconds 2] [--size 11]

Prints figures only (no assertions). Every loop plays uniformly random games to the end:

* ours, public API: ``GAME.new`` / ``random_move`` / ``play`` / ``outcome`` on immutable states -- what the
  referee and any generic tool use;
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
from hexarena.games.hex import GAME, HexBoard


def rate(loop: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Run ``loop`` (one game, returns its length) until ``seconds`` pass; games/s and mean length."""
    loop()  # warm caches
    games = plies = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        plies += loop()
        games += 1
    return games / elapsed, plies / max(games, 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--size", type=int, default=11)
    args = ap.parse_args()
    n, secs = args.size, args.seconds
    rng = random.Random(1)

    def ours_public() -> int:
        game = GAME
        s = game.new(size=n, swap=False)
        outcome, random_move, play = game.outcome, game.random_move, game.play
        while outcome(s) is None:
            s = play(s, random_move(s, rng))
        return s.ply

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

    print(f"Hex {n}x{n}, uniformly random games to the end, {secs:g} s per line")
    pub, pub_len = rate(ours_public, secs)
    print(f"  hexarena public API (immutable states) {pub:10.0f} games/s  (mean length {pub_len:.1f})")
    core, core_len = rate(ours_core, secs)
    print(f"  hexarena mutable core (HexBoard)       {core:10.0f} games/s  (mean length {core_len:.1f})")

    try:
        import pyspiel
    except ImportError:
        print("  OpenSpiel: not installed (pip install open_spiel)")
        os_rate = None
    else:
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

        os_rate, os_len = rate(openspiel_apply, secs)
        print(f"  OpenSpiel apply_action loop            {os_rate:10.0f} games/s  (mean length {os_len:.1f})")
        os_child, _ = rate(openspiel_child, secs)
        print(f"  OpenSpiel child() loop (immutable)     {os_child:10.0f} games/s")
        print(f"  ratio public API / OpenSpiel apply_action: {pub / os_rate:.2f}x")
        print(f"  ratio public API / OpenSpiel child():      {pub / os_child:.2f}x")
        print(f"  ratio mutable core / OpenSpiel apply_action: {core / os_rate:.2f}x")

    print("MCTS (UCT, fill-the-board rollouts)")
    positions = {"empty board": GAME.new(size=n, swap=False)}
    s = GAME.new(size=n, swap=False)
    mid_rng = random.Random(5)
    while s.ply < n * n // 3:
        s = GAME.play(s, GAME.random_move(s, mid_rng))
    positions[f"after {s.ply} random moves"] = s
    for label, state in positions.items():
        bot = MctsHexBot()
        bot.choose(GAME, state, secs, random.Random(2))
        st = bot.stats
        print(f"  {label:28s} {st.iterations / st.seconds:10.0f} simulations/s ({st.iterations} in {st.seconds:.2f} s)")


if __name__ == "__main__":
    main()
