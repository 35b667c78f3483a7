"""An HTTTX bot server whose games last until the test says so: run as
``python paced_bot.py PORT GATE [--opening-only]``.

Why: a test whose claim is that a match survives something (its instance killed, Redis restarted) needs the
match to be still on when that happens and to end once the test has looked; a built-in search paced by its clock
does neither on a loaded machine (it loses on time, or ends before the fault). This bot thinks for a fixed
:data:`THINK` seconds whatever the clock offers (a match gives it a clock no load can use up), and plays the
stones of ``procs.stones`` (two per turn that never line up, for either side), so neither side can win, until
the file ``GATE`` exists; from then on it plays the ``heuristic`` bot's moves as X (O keeps to the pattern, which
defends nothing), and X wins within a few turns.

It serves both bws and stateless; ``--opening-only`` declares bws without ``free_setup`` (such a bot can start a
bws session only from the opening, so a match taken over in its middle plays on only over stateless).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from procs import stones

from hexarena.bots.sdk import bot_class_for, run
from hexarena.bots.sdk.capabilities import Capabilities
from hexarena_sdk.models import Cell, Coord, Match, Player

#: Seconds the bot waits before each move: moves come steadily, never in a burst that ends the game early.
THINK = 0.1

Heuristic = bot_class_for("heuristic")


def gated(gate: Path, opening_only: bool) -> type:
    """The bot class for this server: the pattern until ``gate`` exists, the heuristic as X after."""

    class PacedBot(Heuristic):  # type: ignore[misc,valid-type]
        @classmethod
        def capabilities(cls) -> Capabilities:
            caps = super().capabilities()
            if opening_only:
                assert caps.basic_websocket is not None and caps.basic_websocket.versions.v1_alpha is not None
                bws = caps.basic_websocket.versions.v1_alpha.model_copy(update={"free_setup": False})
                caps.basic_websocket.versions.v1_alpha = bws
            return caps

        def choose_move(self, cells: list[Cell], player: Player, match: Match) -> Any:
            time.sleep(THINK)
            if player == Player.X and gate.exists():
                return super().choose_move(cells, player, match)
            taken = {(c.q, c.r) for c in cells}
            seat = 0 if player == Player.X else 1
            turn = 0
            while True:  # the first pair of the pattern with both cells free (the earlier ones are this side's)
                pair = stones(seat, turn)
                if not any((s["q"], s["r"]) in taken for s in pair):
                    return Coord(q=pair[0]["q"], r=pair[0]["r"]), Coord(q=pair[1]["q"], r=pair[1]["r"])
                turn += 1

    return PacedBot


if __name__ == "__main__":
    run(gated(Path(sys.argv[2]), "--opening-only" in sys.argv[3:]), host="127.0.0.1", port=int(sys.argv[1]))
