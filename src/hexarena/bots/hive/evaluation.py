"""Static evaluation of a Hive position: queen pressure first, mobility second.

Why these terms: Hive is won by surrounding the enemy queen, so the count of occupied cells around each queen
dominates; between equal queen pressures, the side whose pieces are free to move (not pinned by the one-hive
rule, not buried under a beetle) has more options and usually wins the race.

Speed matters more than precision at the leaves, so "free" is judged locally: a ground piece whose occupied
neighbours form one contiguous arc can always be lifted without splitting the hive; pieces with neighbours in
two or more separate arcs are counted as pinned (usually right, and an exact articulation test would cost a
graph search per leaf).
"""

from __future__ import annotations

from hexarena.games.hive.board import DIRS, KIND, A, B, Board, G, L, M, P, Q, S

WIN = 1_000_000
QUEEN_PRESSURE = 100  # per occupied cell around a queen
# how much a free (movable) piece of each kind is worth
MOBILITY = {Q: 6, S: 4, B: 8, G: 5, A: 10, M: 8, L: 7, P: 5}
_MOB = [MOBILITY.get(KIND[p], 0) if KIND[p] >= 0 else 0 for p in range(len(KIND))]
BURIED = 12  # a piece of ours covered by an enemy beetle (or an enemy piece we cover, for them)


def _arcs(mask: int) -> int:
    """Number of separate runs of occupied cells around a hex, for a 6-bit occupancy mask."""
    if mask == 63:
        return 1
    return sum(1 for i in range(6) if mask >> i & 1 and not mask >> ((i - 1) % 6) & 1)


ONE_ARC = [_arcs(m) <= 1 for m in range(64)]
_D0, _D1, _D2, _D3, _D4, _D5 = DIRS


def evaluate(board: Board, color: int) -> int:
    """Score of ``board`` from ``color``'s point of view (positive is good for ``color``)."""
    stacks = board.stacks
    pos = board.pos
    wq, bq = pos[0], pos[16]
    wn = sum(1 for d in DIRS if wq + d in stacks) if wq is not None else 0
    bn = sum(1 for d in DIRS if bq + d in stacks) if bq is not None else 0
    if wn == 6 or bn == 6:
        if wn == bn:
            return 0
        return WIN if (bn == 6) == (color == 0) else -WIN
    score = QUEEN_PRESSURE * ((bn - wn) if color == 0 else (wn - bn))
    for cell, st in stacks.items():
        top = st[-1]
        sign = 1 if top >> 4 == color else -1
        if len(st) > 1:
            score += sign * _MOB[top]
            for p in st[:-1]:
                if p >> 4 != top >> 4:
                    score += sign * BURIED
        else:
            mask = (
                (cell + _D0 in stacks)
                | (cell + _D1 in stacks) << 1
                | (cell + _D2 in stacks) << 2
                | (cell + _D3 in stacks) << 3
                | (cell + _D4 in stacks) << 4
                | (cell + _D5 in stacks) << 5
            )
            if ONE_ARC[mask]:
                score += sign * _MOB[top]
    return score
