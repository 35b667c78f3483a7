"""Static evaluation of a Hive position: queen pressure first, mobility second.

Why these terms: Hive is won by surrounding the enemy queen, so the count of occupied cells around each queen
dominates; between equal queen pressures, the side whose pieces are free to move (not pinned by the one-hive
rule, not buried under a beetle) has more options and usually wins the race. Every term is cheap: one pass
over the occupied cells plus the cached articulation set.
"""

from __future__ import annotations

from hexarena.games.hive.board import KIND, A, B, Board, G, L, M, P, Q, S

WIN = 1_000_000
QUEEN_PRESSURE = 100  # per occupied cell around a queen
# how much a free (movable) piece of each kind is worth
MOBILITY = {Q: 6, S: 4, B: 8, G: 5, A: 10, M: 8, L: 7, P: 5}
BURIED = 12  # a piece of ours covered by an enemy beetle (or an enemy piece we cover, for them)


def evaluate(board: Board, color: int) -> int:
    """Score of ``board`` from ``color``'s point of view (positive is good for ``color``)."""
    r = board.result()
    if r == 2:
        return 0
    if r >= 0:
        return WIN if r == color else -WIN
    score = QUEEN_PRESSURE * (board.queen_neighbours(1 - color) - board.queen_neighbours(color))
    cut = board.cut_cells()
    for cell, st in board.stacks.items():
        top = st[-1]
        sign = 1 if top >> 4 == color else -1
        if len(st) > 1:
            score += sign * MOBILITY[KIND[top]]
            for p in st[:-1]:
                if p >> 4 != top >> 4:
                    score += sign * BURIED
        elif cell not in cut:
            score += sign * MOBILITY[KIND[top]]
    return score
