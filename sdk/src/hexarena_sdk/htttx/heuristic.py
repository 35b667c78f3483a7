"""A fast HTTTX heuristic move: win if possible, else block every 2-stone threat, else build lines.

HTTTX is Connect6 on hexes, so it reasons about *windows*: ``win_distance`` consecutive cells on one axis. A
window holding only one colour's stones needs ``win_distance - count`` more stones to become a winning line;
with two stones per turn, a window with ``count >= win_distance - 2`` and no enemy stone is a threat to be met
now. Steps, each on the engine's mutable ``Board`` (place/undo, no copies):

1. Our threat windows: fill one and win (any 1- or 2-stone completion).
2. The opponent's threat windows: choose the 1-2 empty cells that hit the most of them (exhaustively over
   pairs of their empty cells, which are few), preferring blocks that also build our lines.
3. Otherwise score cells near the stones by the windows through them: ``4**own`` for windows we could still
   fill, ``3**theirs`` for windows we spoil, and greedily place the best two.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from hexarena_sdk.htttx.board import Board

Cell = tuple[int, int]
AXES: tuple[Cell, ...] = ((1, 0), (0, 1), (1, -1))
#: Candidate cells for building are within this many steps of a stone.
NEAR = 2
_NEAR_OFFSETS: tuple[Cell, ...] = tuple(
    (dq, dr)
    for dq in range(-NEAR, NEAR + 1)
    for dr in range(-NEAR, NEAR + 1)
    if 0 < max(abs(dq), abs(dr), abs(dq + dr)) <= NEAR
)


def windows_through_stones(board: Board, seat: int) -> set[tuple[int, int, int]]:
    """Windows ``(start_q, start_r, axis)`` containing at least one stone of ``seat``."""
    w = board.win_distance
    out: set[tuple[int, int, int]] = set()
    for (q, r), s in board.cells.items():
        if s != seat:
            continue
        for ai, (dq, dr) in enumerate(AXES):
            for k in range(w):
                out.add((q - k * dq, r - k * dr, ai))
    return out


def threat_windows(board: Board, seat: int, max_missing: int = 2) -> list[list[Cell]]:
    """Empty cells of every window that ``seat`` can complete with at most ``max_missing`` stones."""
    w = board.win_distance
    cells = board.cells
    found: list[list[Cell]] = []
    for sq, sr, ai in windows_through_stones(board, seat):
        dq, dr = AXES[ai]
        empties: list[Cell] = []
        ok = True
        for i in range(w):
            c = (sq + i * dq, sr + i * dr)
            s = cells.get(c)
            if s is None:
                empties.append(c)
                if len(empties) > max_missing:
                    ok = False
                    break
            elif s != seat:
                ok = False
                break
        if ok:
            found.append(empties)
    return found


def cell_score(board: Board, q: int, r: int, seat: int) -> float:
    """Sum over windows through (q, r): offence for windows free of enemy stones, defence for ours-free."""
    w = board.win_distance
    cells = board.cells
    score = 0.0
    for dq, dr in AXES:
        line = [cells.get((q + i * dq, r + i * dr)) for i in range(-(w - 1), w)]
        for start in range(w):
            own = theirs = 0
            for s in line[start : start + w]:
                if s is None:
                    continue
                if s == seat:
                    own += 1
                else:
                    theirs += 1
            if theirs == 0 and own:
                score += 4.0**own
            elif own == 0 and theirs:
                score += 0.75 * 3.0**theirs
    return score


def candidates(board: Board) -> list[Cell]:
    """Legal cells within ``NEAR`` steps of a stone (all legal cells on a tiny board)."""
    out: set[Cell] = set()
    cells = board.cells
    for q, r in cells:
        for dq, dr in _NEAR_OFFSETS:
            c = (q + dq, r + dr)
            if c not in cells:
                out.add(c)
    legal = [c for c in out if board.is_legal(*c)]
    if not legal:
        legal = board.legal_cells()
    return sorted(legal)


def _legal_pair(board: Board, a: Cell, b: Cell) -> bool:
    """True if a then b may be placed (b may become legal only thanks to a, or be ignored after a wins)."""
    if a == b or not board.is_legal(*a):
        return False
    return board.is_legal(*b) or _legal_after(board, a, b)


def _legal_after(board: Board, a: Cell, b: Cell) -> bool:
    board.place(a[0], a[1], 0)  # the colour does not matter for legality
    try:
        return board.winner is not None or board.is_legal(*b)
    finally:
        board.undo()


def best_cell(board: Board, seat: int, exclude: Iterable[Cell] = ()) -> Cell:
    ex = set(exclude)
    best: Cell | None = None
    best_score = -1.0
    for c in candidates(board):
        if c in ex:
            continue
        s = cell_score(board, c[0], c[1], seat)
        if s > best_score:
            best, best_score = c, s
    if best is None:
        for c in board.legal_cells():
            if c not in ex:
                return c
        raise ValueError("no legal cell left")
    return best


def second_after(board: Board, first: Cell, seat: int) -> Cell:
    """The best second stone once ``first`` is placed; any different legal cell if ``first`` already wins."""
    won = board.place(first[0], first[1], seat)
    try:
        if not won:
            return best_cell(board, seat, (first,))
    finally:
        board.undo()
    for c in candidates(board):
        if c != first:
            return c
    for c in board.legal_cells():
        if c != first:
            return c
    raise ValueError("no second legal cell")


def winning_move(board: Board, seat: int) -> tuple[Cell, Cell] | None:
    """A move that completes a line of ``win_distance`` now, if one exists."""
    for empties in sorted(threat_windows(board, seat), key=len):
        if not empties:  # a line that is already complete (a free setup past its end): nothing to play for
            continue
        if len(empties) == 1:
            return empties[0], second_after(board, empties[0], seat)
        a, b = empties
        for x, y in ((a, b), (b, a)):
            if _legal_pair(board, x, y):
                return x, y
    return None


def blocking_move(board: Board, seat: int) -> tuple[Cell, Cell] | None:
    """The pair of stones that spoils the most of the opponent's threat windows (None: no threat)."""
    threats = [e for e in threat_windows(board, 1 - seat) if e]
    if not threats:
        return None
    hot = sorted({c for empties in threats for c in empties if board.is_legal(*c)})
    if not hot:
        return None
    sets = [set(e) for e in threats]

    def hits(chosen: Iterable[Cell]) -> int:
        ch = set(chosen)
        return sum(1 for s in sets if s & ch)

    single = {c: hits((c,)) for c in hot}
    if max(single.values()) == len(sets):  # one stone blocks everything: the other builds
        firsts = [c for c in hot if single[c] == len(sets)]
        first = max(firsts, key=lambda c: (cell_score(board, c[0], c[1], seat), c))
        return first, second_after(board, first, seat)
    if len(hot) > 40:  # pathological: keep it fast, go greedy
        hot = sorted(hot, key=lambda c: -single[c])[:40]
    best: tuple[Cell, Cell] | None = None
    best_key: tuple[int, float] = (-1, 0.0)
    for a, b in combinations(hot, 2):
        n = hits((a, b))
        if n < best_key[0]:
            continue
        val = cell_score(board, a[0], a[1], seat) + cell_score(board, b[0], b[1], seat)
        if (n, val) > best_key and _legal_pair(board, a, b):
            best, best_key = (a, b), (n, val)
    return best


def choose_on_board(board: Board, seat: int) -> tuple[Cell, Cell]:
    """The heuristic move for ``seat`` on ``board`` (the board is restored before returning)."""
    win = winning_move(board, seat)
    if win is not None:
        return win
    block = blocking_move(board, seat)
    if block is not None:
        return block
    first = best_cell(board, seat)
    return first, second_after(board, first, seat)
