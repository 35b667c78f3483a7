"""Time losses of the built-in search bots on short clocks: the promise is none at budgets of 50 ms or more.

Plays each search bot against itself in one process (both seats in-process, as ``hexarena play`` and tournaments
run them: the other bot's thread and the collector's pauses are part of the test) under a turn clock through the
real referee, and prints per game: games, time losses, and the think times the referee measured (p50, p99, max).
A turn clock of T seconds gives a budget of up to ``bots.timing.USE`` T, less the lateness each match learns.

    PYTHONPATH=src .venv/bin/python bench/time_losses.py [--games 100] [--clock 0.0625] [--game htttx --game hive]

Prints; never asserts. The figures of the closing notes: HTTTX 1,000 games and Hex 9x9 200 games at 0.05 s, 0 time
losses; Hive 100 games at 0.0625 s, 0 (at 0.05 s: 1).
"""

from __future__ import annotations

import argparse
import asyncio
import time

from rich.progress import Progress

from hexarena.bots.timing import USE
from hexarena.core.contract import ClockConfig
from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.players.inprocess import InProcessPlayer
from hexarena.referee.match import MatchConfig, Referee
from hexarena.terminal import progress_bar

#: The search bot of each game, and the parameters it is measured with.
SEARCHES: dict[str, tuple[str, dict[str, object]]] = {
    "htttx": ("search", {}),
    "hex": ("mcts", {"size": 9}),
    "hive": ("alphabeta", {}),
}


async def measure(game_name: str, games: int, clock: float, progress: Progress) -> dict[str, float]:
    bot, params = SEARCHES[game_name]
    game = get_game(game_name)
    thinks: list[float] = []
    losses = 0
    task = progress.add_task(f"{game_name} {bot}", total=games)
    begun = time.perf_counter()
    for g in range(games):
        players = [
            InProcessPlayer.builtin(game_name, bot, seed=2 * g),
            InProcessPlayer.builtin(game_name, bot, seed=2 * g + 1),
        ]
        config = MatchConfig(game=game, params=dict(params), clock=ClockConfig("turn", clock))
        result = await Referee(config, players).run()
        thinks += [m.think_time for m in result.moves]
        losses += result.outcome.termination == Termination.TIME
        progress.advance(task)
    thinks.sort()
    n = max(1, len(thinks))
    return {
        "games": games,
        "losses": losses,
        "moves": len(thinks),
        "p50": thinks[n // 2] if thinks else 0.0,
        "p99": thinks[min(n - 1, int(n * 0.99))] if thinks else 0.0,
        "max": thinks[-1] if thinks else 0.0,
        "seconds": time.perf_counter() - begun,
    }


async def main(names: list[str], games: int, clock: float) -> None:
    with progress_bar(transient=True) as progress:
        rows = [(name, await measure(name, games, clock, progress)) for name in names]
    print(
        f"turn clock {clock * 1000:.1f} ms a move (a budget of up to {clock * USE * 1000:.1f} ms); each bot against itself"
    )
    print(
        f"{'game':8s} {'bot':10s} {'games':>6s} {'time losses':>12s} {'moves':>7s} {'think p50':>10s} {'p99':>8s} {'max':>8s}"
    )
    for name, f in rows:
        print(
            f"{name:8s} {SEARCHES[name][0]:10s} {int(f['games']):6d} {int(f['losses']):12d} {int(f['moves']):7d} "
            f"{f['p50'] * 1000:8.1f}ms {f['p99'] * 1000:6.1f}ms {f['max'] * 1000:6.1f}ms"
        )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--games", type=int, default=20, help="games per bot (default 20; the notes' figures used 100-1,000)"
    )
    ap.add_argument("--clock", type=float, default=0.0625, help="seconds a turn (default 0.0625: a 50 ms budget)")
    ap.add_argument("--game", action="append", choices=sorted(SEARCHES), help="a game to measure (default: all)")
    args = ap.parse_args()
    asyncio.run(main(args.game or sorted(SEARCHES), args.games, args.clock))
