"""The fast mutable Hex core: place/undo, incremental union-find with edge nodes, Zobrist hashing.

Bots search with this (millions of place/undo pairs); the immutable ``HexState`` API reuses the same
``connect`` routine on private copies. The core knows colours, not seats: stones strictly alternate Black,
White, Black... whatever happens with the swap rule (a swap places no stone), so the colour to play is a
function of the stone count alone.

The union-find uses union by size without path compression, which keeps every ``find`` within
``log2(cells)`` steps *and* makes undo a plain replay of a change log -- path compression would rewrite
parents on every find and make undo expensive.
"""

from __future__ import annotations

from hexarena.games.hex.geometry import (
    BLACK,
    EMPTY,
    WHITE,
    Cell,
    edge_nodes,
    empty_cells,
    empty_parent,
    neighbours,
    zobrist,
)


def connect(
    parent: list[int],
    cells: bytearray,
    nbs: tuple[int, ...],
    index: int,
    colour: int,
    log: list[int] | None = None,
) -> None:
    """Union the stone just put on ``index`` with every same-coloured neighbour (edge nodes included).

    ``parent[x] < 0`` marks a root whose component has ``-parent[x]`` nodes. When ``log`` is given, every
    overwritten ``(slot, old value)`` pair is appended to it so that ``HexBoard.undo`` can restore it.
    """
    root = index
    for nb in nbs:
        if cells[nb] == colour:
            r = nb
            while parent[r] >= 0:
                r = parent[r]
            if r != root:
                if log is not None:
                    log.extend((r, parent[r], root, parent[root]))
                if parent[r] < parent[root]:  # r's component is larger: hang root under r
                    parent[r] += parent[root]
                    parent[root] = r
                    root = r
                else:
                    parent[root] += parent[r]
                    parent[r] = root


def find(parent: list[int], x: int) -> int:
    """The root of ``x``'s component."""
    while parent[x] >= 0:
        x = parent[x]
    return x


class HexBoard:
    """A mutable N x N Hex board for search. Not thread-safe; copy it per thread.

    ``cells`` holds EMPTY/BLACK/WHITE per flat index (plus four edge-node entries), ``history`` the flat
    indices placed so far, ``winner`` the colour that has connected (EMPTY while nobody has).
    """

    __slots__ = ("_log", "_marks", "cells", "hash", "history", "nbs", "parent", "size", "winner")

    def __init__(self, size: int) -> None:
        if not 1 <= size <= 26:
            raise ValueError(f"board size must be 1..26, got {size!r}")
        self.size = size
        self.cells = bytearray(empty_cells(size))
        self.parent = list(empty_parent(size))
        self.nbs = neighbours(size)
        self.history: list[int] = []
        self.winner = EMPTY
        self.hash = 0
        self._log: list[int] = []
        self._marks: list[int] = []

    @property
    def to_play(self) -> int:
        """The colour of the next stone."""
        return BLACK if len(self.history) % 2 == 0 else WHITE

    def index(self, cell: Cell) -> int:
        """Flat index of ``(row, col)``; ValueError when off the board."""
        r, c = cell
        if not (0 <= r < self.size and 0 <= c < self.size):
            raise ValueError(f"cell {cell!r} is off the {self.size}x{self.size} board")
        return r * self.size + c

    def empties(self) -> list[int]:
        """Flat indices of the empty cells, in row-major order."""
        cells = self.cells
        return [i for i in range(self.size * self.size) if cells[i] == EMPTY]

    def place(self, index: int, colour: int | None = None) -> bool:
        """Put a stone (by default of the colour to play) on an empty cell; True when it wins.

        Raises ValueError on an occupied cell or after the game is won, because a search that does either
        has a bug worth seeing immediately.
        """
        if not 0 <= index < self.size * self.size or self.cells[index] != EMPTY:
            raise ValueError(f"cell index {index!r} is not empty")
        if self.winner != EMPTY:
            raise ValueError("the game is already won")
        if colour is None:
            colour = BLACK if len(self.history) % 2 == 0 else WHITE
        self._marks.append(len(self._log))
        self.cells[index] = colour
        self.history.append(index)
        zb, zw, _ = zobrist(self.size)
        self.hash ^= zb[index] if colour == BLACK else zw[index]
        connect(self.parent, self.cells, self.nbs[index], index, colour, self._log)
        top, bottom, left, right = edge_nodes(self.size)
        p = self.parent
        won = find(p, top) == find(p, bottom) if colour == BLACK else find(p, left) == find(p, right)
        if won:
            self.winner = colour
        return won

    def undo(self) -> int:
        """Take back the last stone and return its flat index."""
        index = self.history.pop()
        mark = self._marks.pop()
        log, parent = self._log, self.parent
        while len(log) > mark:
            old_root_val = log.pop()
            root = log.pop()
            old_r_val = log.pop()
            r = log.pop()
            parent[root] = old_root_val
            parent[r] = old_r_val
        parent[index] = -1
        colour = self.cells[index]
        zb, zw, _ = zobrist(self.size)
        self.hash ^= zb[index] if colour == BLACK else zw[index]
        self.cells[index] = EMPTY
        self.winner = EMPTY
        return index

    def copy(self) -> HexBoard:
        """An independent copy (for another thread or a speculative line)."""
        other = HexBoard.__new__(HexBoard)
        other.size = self.size
        other.cells = bytearray(self.cells)
        other.parent = list(self.parent)
        other.nbs = self.nbs
        other.history = list(self.history)
        other.winner = self.winner
        other.hash = self.hash
        other._log = list(self._log)
        other._marks = list(self._marks)
        return other
