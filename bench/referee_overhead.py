"""The referee's own cost per move, with instant in-process HTTTX players.

Each player answers from a pre-played game (no thinking at all), so the time between one answer and the next
request is what the referee itself spends on a move: the rules check (``game.play``), the record, the clock,
the listener and the next request. Printed as p50/p99/max per move, and as moves per second for one match and
for 32 concurrent matches on one event loop; ``--spectate`` adds the server's MatchManager with one spectator
per match (what a live game on the server costs), ``--uvloop`` runs on uvloop when it is installed,
``--no-gc`` disables the cyclic garbage collector (its pauses are most of the p99).

    PYTHONPATH=src .venv/bin/python bench/referee_overhead.py [--turns 200] [--matches 32] [--spectate]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import time
from typing import Any

from hexarena.core.contract import MoveReply, MoveRequest
from hexarena.games.htttx import HTTTX
from hexarena.players.base import BasePlayer
from hexarena.referee import MatchConfig, Referee


def prerecorded_game(turns: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    state = HTTTX.new(turn_limit=turns, win_distance=32)  # random play: no early win, every turn is played
    moves = []
    while HTTTX.to_move(state) is not None:
        move = HTTTX.random_move(state, rng)
        moves.append(move)
        state = HTTTX.play(state, move)
    return moves


class Instant(BasePlayer):
    """Replays a seat's moves of a recorded game; stamps the time of every request."""

    kind = "bench"

    def __init__(self, name: str, moves: list[Any], stamps: list[float]) -> None:
        super().__init__()
        self.name = name
        self.moves = iter(moves)
        self.stamps = stamps

    async def move(self, request: MoveRequest) -> MoveReply:
        self.stamps.append(time.perf_counter())
        return MoveReply(next(self.moves))


async def one_match(turns: int, seed: int, manager: Any | None) -> tuple[list[float], int, float]:
    moves = prerecorded_game(turns, seed)
    stamps: list[float] = []
    x = Instant("x", moves[1::2], stamps)
    o = Instant("o", moves[0::2], stamps)
    params = {"turn_limit": turns, "win_distance": 32}
    begun = time.perf_counter()
    if manager is None:
        result = await Referee(MatchConfig(game=HTTTX, params=params, heartbeat_ms=0), [x, o]).run()
    else:
        live = await manager.create(HTTTX, [x, o], params=params, heartbeat_ms=0)
        seen = []

        async def sink(text: str) -> None:
            seen.append(len(text))

        spectator = await manager.spectate(live, sink)
        writer = asyncio.create_task(spectator.run())
        await live.done.wait()
        await writer
        result = live.result
    elapsed = time.perf_counter() - begun
    assert result is not None and len(result.moves) == turns, result.outcome if result else None
    return [b - a for a, b in itertools.pairwise(stamps)], len(result.moves), elapsed


def rules_cost(turns: int) -> list[float]:
    """What ``HTTTX.play`` alone costs per move on the same kind of games (part of the referee's cost)."""
    out = []
    for seed in range(1, 6):
        state = HTTTX.new(turn_limit=turns, win_distance=32)
        for move in prerecorded_game(turns, seed):
            begun = time.perf_counter()
            state = HTTTX.play(state, move)
            out.append(time.perf_counter() - begun)
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(turns: int, matches: int, spectate: bool) -> None:
    manager = None
    if spectate:
        from hexarena.server.live import MatchManager

        manager = MatchManager(None)
    # one match alone: the per-move gaps are the referee's cost (nothing else runs on the loop)
    await one_match(turns, 0, manager)  # warm-up
    gaps: list[float] = []
    total_moves, total_time = 0, 0.0
    for seed in range(1, 6):
        g, n, t = await one_match(turns, seed, manager)
        gaps += g
        total_moves += n
        total_time += t
    print(f"one match at a time, {turns} turns, {'with' if spectate else 'no'} spectator:")
    print(
        f"  referee cost per move: p50 {pct(gaps, 0.5) * 1e6:.0f} us, p99 {pct(gaps, 0.99) * 1e6:.0f} us, "
        f"max {max(gaps) * 1e6:.0f} us, mean {statistics.fmean(gaps) * 1e6:.0f} us"
    )
    print(f"  {total_moves / total_time:,.0f} moves/s")
    engine = rules_cost(turns)
    print(
        f"  of which the rules engine (HTTTX.play alone, same games): p50 {pct(engine, 0.5) * 1e6:.0f} us, "
        f"p99 {pct(engine, 0.99) * 1e6:.0f} us"
    )
    begun = time.perf_counter()
    results = await asyncio.gather(*(one_match(turns, 100 + i, manager) for i in range(matches)))
    elapsed = time.perf_counter() - begun
    n = sum(r[1] for r in results)
    print(f"{matches} concurrent matches: {n} moves in {elapsed:.2f} s = {n / elapsed:,.0f} moves/s (one core)")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--matches", type=int, default=32)
    ap.add_argument("--spectate", action="store_true")
    ap.add_argument("--uvloop", action="store_true")
    ap.add_argument("--no-gc", action="store_true", help="disable the cyclic GC (shows how much of p99 it is)")
    args = ap.parse_args()
    if args.no_gc:
        import gc

        gc.disable()
    if args.uvloop:
        import uvloop

        uvloop.install()
    asyncio.run(main(args.turns, args.matches, args.spectate))
