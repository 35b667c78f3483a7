"""The two simplest HTTTX bots: uniformly random stones, and Hivemaker's "center" placeholder.

Both work on the engine's mutable ``Board`` (``state.board()``) so they cost O(1) and O(legal cells) per move.
"""

from __future__ import annotations

import random

from hexarena.bots.htttx.position import Position, seat_to_move
from hexarena.core.game import Game
from hexarena.games.htttx.board import Board, hex_distance
from hexarena.games.htttx.state import Move

Cell = tuple[int, int]


def random_on_board(board: Board, seat: int, rng: random.Random) -> tuple[Cell, Cell]:
    """Two uniformly random legal stones (the second drawn after the first is placed)."""
    a = board.random_legal(rng)
    won = board.place(a[0], a[1], seat)
    try:
        if not won:
            return a, board.random_legal(rng)
    finally:
        board.undo()
    for c in board.legal_cells():  # the first stone won: the second is ignored, any other cell will do
        if c != a:
            return a, c
    raise ValueError("no second legal cell")


def center_on_board(board: Board, seat: int) -> tuple[Cell, Cell]:
    """The two legal cells nearest to the stones' centre of mass (ties: nearer the origin, then q, r)."""
    stones = board.stones
    if stones:
        cq = round(sum(s[0] for s in stones) / len(stones))
        cr = round(sum(s[1] for s in stones) / len(stones))
    else:
        cq = cr = 0

    def key(c: Cell) -> tuple[int, int, int, int]:
        return (hex_distance(c[0], c[1], cq, cr), hex_distance(c[0], c[1], 0, 0), c[0], c[1])

    first = min(board.legal_cells(), key=key)
    won = board.place(first[0], first[1], seat)
    try:
        rest = [c for c in board.legal_cells() if c != first] if not won else []
    finally:
        board.undo()
    if not rest:
        rest = [c for c in board.legal_cells() if c != first]
    return first, min(rest, key=key)


class RandomBot:
    """EngineBot: uniformly random legal stones."""

    name = "random"

    def choose(self, game: Game[Position, Move], state: Position, time_limit: float | None, rng: random.Random) -> Move:
        return random_on_board(state.board(), seat_to_move(state), rng)


class CenterBot:
    """EngineBot: the seed's placeholder, stones as near the centre as the rules allow."""

    name = "center"

    def choose(self, game: Game[Position, Move], state: Position, time_limit: float | None, rng: random.Random) -> Move:
        return center_on_board(state.board(), seat_to_move(state))
