"""The heuristic reference bot: the move itself (``choose_on_board``: win, else block, else build lines) lives in
the bot SDK distribution (``hexarena_sdk.htttx.heuristic``), whose bots fall back on it; this module wraps it as
an ``EngineBot`` for the referee and re-exports it for the server's users."""

from __future__ import annotations

import random

from hexarena.bots.htttx.position import Position, seat_to_move
from hexarena.core.game import Game
from hexarena.games.htttx.state import Move
from hexarena_sdk.htttx.heuristic import (
    AXES,
    NEAR,
    Cell,
    best_cell,
    blocking_move,
    candidates,
    cell_score,
    choose_on_board,
    second_after,
    threat_windows,
    windows_through_stones,
    winning_move,
)

__all__ = [
    "AXES",
    "NEAR",
    "Cell",
    "HeuristicBot",
    "best_cell",
    "blocking_move",
    "candidates",
    "cell_score",
    "choose_on_board",
    "second_after",
    "threat_windows",
    "windows_through_stones",
    "winning_move",
]


class HeuristicBot:
    """EngineBot: immediate wins, then blocks, then line building (deterministic; ``rng`` unused)."""

    name = "heuristic"

    def choose(self, game: Game[Position, Move], state: Position, time_limit: float | None, rng: random.Random) -> Move:
        return choose_on_board(state.board(), seat_to_move(state))
