"""An instant SDK bot for the server benchmarks: it fills the board in a spiral from the origin.

Both seats follow the same spiral from the origin stone, so the board is always the spiral's first
``len(cells)`` cells and the next two are free: O(1) a move, so what a benchmark measures is the SDK's and the
servers' cost, not the bot's (a set of every stone a move, as before, was a quarter of the bot server's CPU). A
wrong assumption would show as games ending abnormally (the benchmarks print them).

    python bench/instant_bot.py PORT [WS] [THINK_SECONDS]

serves it with the SDK's ``run`` (``WS``: uvicorn's WebSocket implementation, ``auto`` by default;
``THINK_SECONDS``: how long each move sleeps, no CPU). ``bench/server_throughput.py`` starts it as a process,
``bench/sdk_move_cost.py`` drives it in its own.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from hexarena.bots.sdk import BaseBot, Coord, run

SPIRAL = sorted(
    ((q, r) for q in range(-40, 41) for r in range(-40, 41) if max(abs(q), abs(r), abs(q + r)) <= 40),
    key=lambda c: (max(abs(c[0]), abs(c[1]), abs(c[0] + c[1])), c),
)


class InstantBot(BaseBot):
    """The next two cells of the spiral, after sleeping ``think`` seconds."""

    think = 0.0

    def choose_move(self, cells: Any, player: Any, match: Any) -> tuple[Coord, Coord]:
        n = len(cells)
        if n + 2 > len(SPIRAL):
            raise RuntimeError("board full")
        (q1, r1), (q2, r2) = SPIRAL[n], SPIRAL[n + 1]
        if self.think:
            time.sleep(self.think)
        return Coord(q=q1, r=r1), Coord(q=q2, r=r2)


if __name__ == "__main__":
    InstantBot.think = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    run(InstantBot, port=int(sys.argv[1]), ws=sys.argv[2] if len(sys.argv) > 2 else "auto")
