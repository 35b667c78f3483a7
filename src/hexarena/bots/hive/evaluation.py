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


# ---------------------------------------------------------------------------------------------------- search eval
# ``evaluate`` above is greedy's one-ply judge and stays as it is (the benchmark measures the search against it).
# ``assess`` is the alpha-beta's leaf evaluation: it pays for an exact one-hive test (``Board.cut_cells``, one
# Tarjan pass cached by Zobrist key and shared with move generation) because at 2-3 plies of search the leaf's
# judgement of who is stuck decides most games.

#: Penalty for a queen with n occupied neighbours: convex, because the fifth and sixth neighbours are the ones
#: that are hard to stop (a race is won by the side one neighbour ahead near the end, not at the start).
PRESSURE = (0, 40, 95, 170, 290, 480, WIN)
#: Extra penalty per queen neighbour that cannot leave (pinned by the one-hive rule or buried): that pressure
#: is permanent, while a free neighbour of the queen's own colour can step away.
STUCK_NEIGHBOUR = 30
#: A queen that can still slide away from the attack.
QUEEN_FREE = 25
#: An enemy beetle (or mosquito) on top of a queen: it cannot move and the beetle may drop into any gap.
BEETLE_ON_QUEEN = 140
#: Own Pillbug (uncovered) next to own queen: it can throw attackers off or lift the queen out.
PILLBUG_GUARD = 35
#: A movable piece of each kind (index = kind); a pinned one scores 0 (it counts only through queen pressure).
FREE = (0, 12, 16, 9, 22, 16, 14, 10)
#: A piece still in hand: it can enter where it is needed, but only next to its own colour.
HAND = (0, 5, 7, 5, 9, 8, 7, 5)
BURIED_PIECE = 14


def assess(board: Board, color: int) -> int:
    """Leaf score of ``board`` for ``color`` (positive is good for ``color``): queen pressure, mobility, hand.

    Terms, each counted for white minus black and signed for ``color``:
    - queen pressure: ``PRESSURE`` of the occupied neighbours of each queen, plus ``STUCK_NEIGHBOUR`` per
      neighbour that cannot move away, minus ``QUEEN_FREE`` when the queen itself can slide, plus
      ``BEETLE_ON_QUEEN`` when an enemy sits on it;
    - mobility: ``FREE[kind]`` for each top piece that may move under the one-hive rule (a piece buried under
      a beetle is stuck, and ``BURIED_PIECE`` is lost for it);
    - pieces in hand: ``HAND[kind]`` each;
    - Pillbug/Mosquito: an uncovered own Pillbug (or Mosquito touching a Pillbug) beside its queen.
    """
    stacks = board.stacks
    pos = board.pos
    cut = board.cut_cells()
    score = 0  # white's point of view
    for c in (0, 1):
        q = pos[c << 4]
        sign = 1 if c == 0 else -1
        if q is None:
            continue
        n = 0
        stuck = 0
        guard = 0
        for d in DIRS:
            st = stacks.get(q + d)
            if st is None:
                continue
            n += 1
            top = st[-1]
            if len(st) == 1 and q + d in cut:
                stuck += 1
            if top >> 4 == c and len(st) == 1:
                kind = KIND[top]
                if kind == P or (kind == M and _touches_pillbug(stacks, q + d)):
                    guard = 1
        if n == 6:
            return WIN if (c == 1) == (color == 0) else -WIN
        pen = PRESSURE[n] + STUCK_NEIGHBOUR * stuck
        qs = stacks[q]
        if len(qs) > 1:
            if qs[-1] >> 4 != c:
                pen += BEETLE_ON_QUEEN
        elif q not in cut and board._slides(q):
            pen -= QUEEN_FREE
        if guard:
            pen -= PILLBUG_GUARD
        score -= sign * pen
    for cell, st in stacks.items():
        top = st[-1]
        tc = top >> 4
        if len(st) > 1 or cell not in cut:
            score += FREE[KIND[top]] if tc == 0 else -FREE[KIND[top]]
        if len(st) > 1:
            for p in st[:-1]:
                if p >> 4 != tc:
                    score += -BURIED_PIECE if p >> 4 == 0 else BURIED_PIECE
    for pid in range(14):
        if pos[pid] is None and KIND[pid] in board.kinds:
            score += HAND[KIND[pid]]
        if pos[16 | pid] is None and KIND[pid] in board.kinds:
            score -= HAND[KIND[pid]]
    return score if color == 0 else -score


def _touches_pillbug(stacks: dict[int, tuple[int, ...]], cell: int) -> bool:
    for d in DIRS:
        st = stacks.get(cell + d)
        if st is not None and KIND[st[-1]] == P:
            return True
    return False
