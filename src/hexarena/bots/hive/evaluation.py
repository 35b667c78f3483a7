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

from collections.abc import Callable

from hexarena.games.hive import accel
from hexarena.games.hive.board import DIRS, KIND, A, B, Board, CBoard, G, L, M, P, Q, S

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
# ``assess`` is the alpha-beta's leaf evaluation. It pays for an exact one-hive test (``Board.cut_cells``, one
# Tarjan pass cached by Zobrist key and shared with move generation) because at 2-3 plies of search the leaf's
# judgement of who is stuck decides most games. It is most of a Python search's time, so on a ``CBoard`` it runs
# in C (``_chive.assess``, a transcription of ``assess_py`` on move generation's grid); ``assess_py`` is the
# reference and the fallback. Its shape follows what strong Hive engines (nokamute, Mzinga)
# weigh: neighbours of each queen dominate, an enemy piece there is worse than an own one, an own piece there
# that cannot leave is worse than one that can; then the mobility of the rest, by bug; then the bugs in hand.

#: Per occupied neighbour of a queen, by who is there: an enemy piece; an own piece pinned there (it cannot
#: leave: one hive, gated in, or buried); an own piece free to step away.
NEXT_ENEMY = 48
NEXT_OWN_STUCK = 40
NEXT_OWN_FREE = 20
#: Extra for a queen's fifth neighbour: one move from losing, the threat limits every reply.
FIFTH = 60
#: A queen that can still slide away.
QUEEN_FREE = 24
#: An enemy beetle (or mosquito) on top of a queen: it cannot move and the beetle may drop into any gap.
BEETLE_ON_QUEEN = 60
#: Own Pillbug (or a Mosquito touching one), uncovered, beside its own queen: it can lift attackers off or the
#: queen out.
PILLBUG_GUARD = 60
#: What a bug is worth, by kind (Q S B G A M L P): a movable one counts twice this, a stacked one four times;
#: one in hand once; a pinned one nothing; one next to the enemy queen nothing (its job is done there, and it
#: counts through the queen term).
VALUE = (0, 2, 6, 3, 7, 8, 6, 5)
#: Bugs that walk (crawl) and so can be gated in by two neighbours; the Mosquito crawls unless it copies one
#: that does not, or is stacked.
CRAWLERS = frozenset((Q, S, A, P))
BURIED_PIECE = 10


def _movable(board: Board, stacks: dict[int, tuple[int, ...]], cut: frozenset[int], cell: int) -> bool:
    """Can the top piece of ``cell`` move at all (ignoring whose turn it is and the frozen piece)?"""
    st = stacks[cell]
    if len(st) > 1:
        return True
    if cell in cut:
        return False
    kind = KIND[st[0]]
    if kind in CRAWLERS or kind == M:
        if kind == M:
            for d in DIRS:
                n = stacks.get(cell + d)
                if n is not None and KIND[n[-1]] not in CRAWLERS and KIND[n[-1]] != M:
                    return True
        return bool(board._slides(cell))
    return True


#: The weights as ``_chive.assess`` takes them (its ``W_*`` order): the C code holds no weight of its own.
C_WEIGHTS = (
    WIN,
    NEXT_ENEMY,
    NEXT_OWN_STUCK,
    NEXT_OWN_FREE,
    FIFTH,
    QUEEN_FREE,
    BEETLE_ON_QUEEN,
    PILLBUG_GUARD,
    BURIED_PIECE,
    *VALUE,
)
_c_assess: Callable[..., int | None] | None = getattr(accel.chive, "assess", None)


def assess(board: Board, color: int) -> int:
    """``assess_py``'s value, computed in C (``_chive.assess``) when ``board`` is a ``CBoard``.

    The board's class is the switch, as for move generation: ``Board`` is ``PyBoard`` when the extension is not
    built or ``HEXARENA_PURE_PYTHON`` is set, and then this is ``assess_py``. The C code hands a board it cannot
    take (see ``_chive.c``) back to ``assess_py``. Both are compared on many positions in
    ``tests/bots/test_hive_assess_accel.py``.
    """
    if _c_assess is not None and isinstance(board, CBoard):
        v = _c_assess(board.stacks, board.pos, board.kinds, C_WEIGHTS)
        if v is not None:
            return v if color == 0 else -v
    return assess_py(board, color)


def assess_py(board: Board, color: int) -> int:
    """Leaf score of ``board`` for ``color`` (positive is good for ``color``): queen pressure, mobility, hand.

    Terms, each counted for white minus black and signed for ``color``:
    - queen pressure: per occupied neighbour of each queen ``NEXT_ENEMY``, ``NEXT_OWN_STUCK`` or
      ``NEXT_OWN_FREE``, ``FIFTH`` at five, ``BEETLE_ON_QUEEN`` under an enemy, less ``QUEEN_FREE`` when the
      queen can slide and ``PILLBUG_GUARD`` when an own Pillbug stands beside it;
    - mobility: ``2 * VALUE[kind]`` for each top piece that can move (one hive, gates; four times stacked),
      nothing when it is pinned or already next to the enemy queen; ``BURIED_PIECE`` lost per buried piece;
    - pieces in hand: ``VALUE[kind]`` each.
    """
    stacks = board.stacks
    pos = board.pos
    cut = board.cut_cells()
    score = 0  # white's point of view
    near_queen: dict[int, int] = {}  # cell -> colour of the queen it touches (both: 2)
    for c in (0, 1):
        q = pos[c << 4]
        if q is None:
            continue
        sign = 1 if c == 0 else -1
        pen = 0
        n = 0
        for d in DIRS:
            cell = q + d
            st = stacks.get(cell)
            if st is None:
                continue
            n += 1
            near_queen[cell] = 2 if cell in near_queen else c
            top = st[-1]
            if top >> 4 != c:
                pen += NEXT_ENEMY
            elif _movable(board, stacks, cut, cell):
                pen += NEXT_OWN_FREE
            else:
                pen += NEXT_OWN_STUCK
            if top >> 4 == c and len(st) == 1:
                kind = KIND[top]
                if kind == P or (kind == M and _touches_pillbug(stacks, cell)):
                    pen -= PILLBUG_GUARD
        if n == 6:
            return WIN if (c == 1) == (color == 0) else -WIN
        if n == 5:
            pen += FIFTH
        qs = stacks[q]
        if len(qs) > 1:
            if qs[-1] >> 4 != c:
                pen += BEETLE_ON_QUEEN
        elif q not in cut and board._slides(q):
            pen -= QUEEN_FREE
        score -= sign * pen
    for cell, st in stacks.items():
        top = st[-1]
        tc = top >> 4
        if len(st) > 1:
            for p in st[:-1]:
                if p >> 4 != tc:
                    score += -BURIED_PIECE if p >> 4 == 0 else BURIED_PIECE
        touches = near_queen.get(cell)
        if touches is not None and touches != tc:
            continue  # next to the enemy queen: counted there
        if KIND[top] == Q or not _movable(board, stacks, cut, cell):
            continue
        v = VALUE[KIND[top]] * (4 if len(st) > 1 else 2)
        score += v if tc == 0 else -v
    kinds = board.kinds
    for pid in range(14):
        kind = KIND[pid]
        if kind in kinds:
            if pos[pid] is None:
                score += VALUE[kind]
            if pos[16 | pid] is None:
                score -= VALUE[kind]
    return score if color == 0 else -score


def _touches_pillbug(stacks: dict[int, tuple[int, ...]], cell: int) -> bool:
    for d in DIRS:
        st = stacks.get(cell + d)
        if st is not None and KIND[st[-1]] == P:
            return True
    return False
