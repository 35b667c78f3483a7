"""How much of a turn clock the HTTTX ``search`` bot uses, and whether it ever loses on time.

Plays ``--games`` games of ``search`` against ``heuristic`` (seats alternate) under a turn clock through the real
referee, in one process as ``hexarena play`` and local tournaments run them, with as many games at once as the
machine has cores (``--concurrency``). For every move of the search bot it takes the think time the referee
measured and prints the mean share of the clock used (of all its moves, and of those it did not prove won or
lost, which return early by design), its p50 / p99 / max, and the time losses; the load average and the CPU
pressure before and after, since other work on the machine changes every figure; and how many full collections
of the garbage collector ran and the longest (one holds every thread, a search answering included).

    PYTHONPATH=src .venv/bin/python bench/time_use.py [--games 40] [--clock 0.2] [--concurrency N]

Prints; never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import threading
import time

from hexarena.bots.timing import cpu_pressure
from hexarena.core.contract import ClockConfig
from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.players.inprocess import InProcessPlayer
from hexarena.referee.match import MatchConfig, Referee


async def one_game(index: int, clock: float, max_plies: int) -> tuple[list[float], list[float], bool, bool]:
    """The search bot's think times in game ``index`` (all, and those of moves it did not prove), whether it lost
    on time, whether the other one did."""
    game = get_game("htttx")
    seat = index % 2
    bots = ["search", "heuristic"] if seat == 0 else ["heuristic", "search"]
    players = [InProcessPlayer.builtin("htttx", b, seed=2 * index + s) for s, b in enumerate(bots)]
    config = MatchConfig(game=game, clock=ClockConfig("turn", clock), max_plies=max_plies, match_id=f"use-{index}")
    result = await Referee(config, players).run()
    # a move the search proved (a forced win or loss found) returns early by design: told apart so the share of
    # the clock the other moves use shows
    thinks = [m.think_time for m in result.moves if m.seat == seat]
    open_moves = [
        m.think_time for m in result.moves if m.seat == seat and m.evaluation and "mate_in" not in m.evaluation
    ]
    on_time = result.outcome.termination == Termination.TIME
    culprit = result.culprit
    if on_time:
        print(f"game {index}: {result.outcome.reason} after {len(thinks)} moves")
    return thinks, open_moves, on_time and culprit == seat, on_time and culprit == 1 - seat


async def main(games: int, clock: float, concurrency: int, max_plies: int, first: int = 0) -> None:
    load_before = os.getloadavg()
    pressure_before = cpu_pressure()
    gate = asyncio.Semaphore(concurrency)
    begun = time.perf_counter()

    async def gated(i: int) -> tuple[list[float], list[float], bool, bool]:
        async with gate:
            return await one_game(i, clock, max_plies)

    results = await asyncio.gather(*(gated(i) for i in range(first, first + games)))
    seconds = time.perf_counter() - begun
    load_after = os.getloadavg()
    shares = sorted(t / clock for thinks, _, _, _ in results for t in thinks)
    unproved = sorted(t / clock for _, open_moves, _, _ in results for t in open_moves)
    n = len(shares)
    losses = sum(lost for _, _, lost, _ in results)
    other = sum(lost for _, _, _, lost in results)
    per_game = [sum(t) / (clock * len(t)) for thinks, _, _, _ in results if (t := thinks)]
    print(f"htttx search vs heuristic, turn clock {clock:g} s, {games} games, {concurrency} at once, {seconds:.0f} s")
    print(
        f"load average before {load_before[0]:.2f} / {load_before[1]:.2f}, after {load_after[0]:.2f} / {load_after[1]:.2f}"
    )
    print(f"CPU pressure (some avg10) before {pressure_before:.0%}, after {cpu_pressure():.0%}")
    if n:
        print(
            f"search moves {n}: clock used mean {sum(shares) / n:.1%}, p50 {shares[n // 2]:.1%}, "
            f"p1 {shares[int(n * 0.01)]:.1%}, p99 {shares[min(n - 1, int(n * 0.99))]:.1%}, max {shares[-1]:.1%}"
        )
        if m := len(unproved):
            print(
                f"moves without a proved result {m}: clock used mean {sum(unproved) / m:.1%}, "
                f"p50 {unproved[m // 2]:.1%}, p99 {unproved[min(m - 1, int(m * 0.99))]:.1%}"
            )
        print(f"worst game mean {min(per_game):.1%}")
    print(f"time losses: search {losses}, heuristic {other}")
    if full_collections:  # each holds every thread of the process: a search's answer waits for it to end
        longest = max(full_collections)
        print(f"full garbage collections {len(full_collections)}, the longest {longest * 1000:.1f} ms")


#: Seconds each full collection of the cyclic garbage collector took during the run.
full_collections: list[float] = []
_collection_began: dict[int, float] = {}


def _time_collections(phase: str, info: dict[str, int]) -> None:
    if info["generation"] != 2:
        return
    thread = threading.get_ident()
    if phase == "start":
        _collection_began[thread] = time.perf_counter()
    elif thread in _collection_began:
        full_collections.append(time.perf_counter() - _collection_began.pop(thread))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="games to play (default 40)")
    ap.add_argument("--clock", type=float, default=0.2, help="seconds a turn (default 0.2)")
    ap.add_argument("--concurrency", type=int, default=os.cpu_count() or 1, help="games at once (default: cores)")
    ap.add_argument("--max-plies", type=int, default=200, help="plies a game may last (default 200)")
    ap.add_argument(
        "--first", type=int, default=0, help="index of the first game (its seeds): a long run in parts (default 0)"
    )
    args = ap.parse_args()
    gc.callbacks.append(_time_collections)
    asyncio.run(main(args.games, args.clock, args.concurrency, args.max_plies, args.first))
