"""Tournament reliability under load, fastchess-style: how many games are lost on time by bots that answer in time?

Runs a two-player match through the real runner (referee, clocks, executor) at concurrency 2x the cores with a
fast incremental control (200 ms + 2 ms per move). Both bots think within their budget: each sleeps a share of
its remaining time (like an engine's time manager, ``--share``), then plays a random legal move. Any time
forfeit is therefore the arena's fault (event-loop stalls, scheduling), and the target is <= 0.05% of games.

    PYTHONPATH=src .venv/bin/python bench/tournament_reliability.py [--games 400] [--game hex --param size=7]

Prints games/s and the time-forfeit rate; never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
from collections import Counter

from hexarena.core.contract import MoveReply, MoveRequest
from hexarena.players.base import BasePlayer
from hexarena.players.spec import register_scheme
from hexarena.tournament.executors import LocalExecutor
from hexarena.tournament.runner import Runner, TournamentConfig

#: Event-loop lag per move: how much later than asked each bot's sleep ended (the arena's own latency).
LAGS: list[float] = []


class BudgetBot(BasePlayer):
    """Sleeps ``share`` of its remaining time plus half the increment, then plays a random move.

    Like an engine's time manager it keeps ``overhead`` seconds in reserve for the transport (Stockfish's
    default "Move Overhead" is 10 ms), so it always answers within its budget when the arena is prompt.
    """

    kind = "bench"
    overhead = 0.010

    def __init__(self, share: float) -> None:
        super().__init__()
        self.share = share
        self.name = f"budget:{share}"
        self.rng = random.Random(0)

    async def move(self, request: MoveRequest) -> MoveReply:
        left = request.time_left if request.time_left is not None else request.time_limit
        if left:
            want = max(0.0, min(left * self.share + self.info.clock.increment * 0.5, left - self.overhead))
            began = time.monotonic()
            await asyncio.sleep(want)
            LAGS.append(time.monotonic() - began - want)
        return MoveReply(move=self.info.game.random_move(request.state, self.rng))


async def _budget(game: str, share: str) -> BasePlayer:
    return BudgetBot(float(share or 0.05))


register_scheme("budget", _budget, "budget:SHARE  a bench bot sleeping SHARE of its remaining time per move")


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--concurrency", type=int, default=2 * (os.cpu_count() or 1))
    ap.add_argument("--game", default="hex")
    ap.add_argument("--param", action="append", default=["size=7"], help="game parameter NAME=VALUE")
    ap.add_argument("--share", type=float, default=0.05, help="share of the remaining time each move sleeps")
    ap.add_argument("--players", nargs=2, default=None, help="player specs (default: two budget bots)")
    ap.add_argument("--base", type=float, default=0.2, help="seconds per side")
    ap.add_argument("--inc", type=float, default=0.002, help="increment per move in seconds")
    ap.add_argument("--overhead", type=float, default=0.010, help="seconds the bench bots keep in reserve")
    ap.add_argument("--timemargin", type=float, default=0.0, help="overrun forgiven before a time forfeit")
    args = ap.parse_args()
    BudgetBot.overhead = args.overhead
    params = (
        dict(p.split("=", 1) for p in args.param)
        if args.game == "hex"
        else dict(p.split("=", 1) for p in args.param if not p.startswith("size="))
    )
    players = args.players or [f"budget:{args.share}", f"budget:{args.share}"]
    games = args.games + args.games % 2
    config = TournamentConfig(
        game=args.game,
        players=players,
        names=["A", "B"],
        games_per_pairing=games,
        concurrency=args.concurrency,
        params=params,
        clock={"kind": "incremental", "seconds": args.base, "increment": args.inc},
        opening_plies=2,
        seed=1,
        rated=False,
        time_margin=args.timemargin,
    )
    runner = await Runner.create(config, None, executor=LocalExecutor())
    load_before = os.getloadavg()[0]
    began = time.perf_counter()
    summary = await runner.run()
    elapsed = time.perf_counter() - began
    endings = Counter(g["result"]["termination"] for g in runner.games if g["result"])
    plies = sum(g["result"]["plies"] for g in runner.games if g["result"])
    n = summary["games_finished"]
    forfeits = endings.get("time", 0)
    print(
        f"game {args.game} {params}, players {players} (reserve {args.overhead * 1000:.0f} ms), "
        f"control {args.base * 1000:.0f} ms + {args.inc * 1000:.0f} ms"
    )
    print(
        f"concurrency {args.concurrency} on {os.cpu_count()} cores; load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after (other work on the machine steals the bots' time)"
    )
    if LAGS:
        lags = sorted(LAGS)
        pick = [lags[min(len(lags) - 1, int(q * len(lags)))] * 1000 for q in (0.5, 0.99, 0.999)]
        print(
            f"event-loop lag per move: median {pick[0]:.2f} ms, p99 {pick[1]:.2f} ms, p99.9 {pick[2]:.2f} ms, "
            f"max {lags[-1] * 1000:.1f} ms"
        )
    print(
        f"games {n} in {elapsed:.1f} s: {n / elapsed:.2f} games/s, {plies / elapsed:.0f} moves/s, {plies / max(n, 1):.1f} plies/game"
    )
    print(f"time forfeits {forfeits} = {100 * forfeits / max(n, 1):.3f}% of games (target <= 0.05%)")
    print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    shown = [g for g in runner.games if g["result"] and g["result"]["termination"] == "time"][:10]
    for g in shown:
        print("  forfeit:", g["id"], g["result"]["reason"])


if __name__ == "__main__":
    asyncio.run(main())
