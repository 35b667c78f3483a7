"""The fast mutable Hex core: place/undo, incremental union-find with edge nodes, Zobrist hashing.

Bots search with this (millions of place/undo pairs). The immutable ``HexState`` API runs its own variant of
the same union-find on private copies (with path halving, since it never undoes). The core knows colours,
not seats: stones strictly alternate Black,
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
    empty_cells,
    empty_parent,
    geometry,
    neighbours,
)


class HexBoard:
    """A mutable N x N Hex board for search. Not thread-safe; copy it per thread.

    ``cells`` holds EMPTY/BLACK/WHITE per flat index (plus four edge-node entries), ``history`` the flat
    indices placed so far, ``winner`` the colour that has connected (EMPTY while nobody has).
    """

    __slots__ = ("_geo", "_log", "_marks", "cells", "hash", "history", "nbs", "parent", "size", "winner")

    def __init__(self, size: int) -> None:
        if not 1 <= size <= 26:
            raise ValueError(f"board size must be 1..26, got {size!r}")
        self.size = size
        self._geo = geometry(size)
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
        geo = self._geo
        cells = self.cells
        if not 0 <= index < geo.n2 or cells[index]:
            raise ValueError(f"cell index {index!r} is not empty")
        if self.winner:
            raise ValueError("the game is already won")
        history = self.history
        if colour is None:
            colour = WHITE if len(history) & 1 else BLACK
        log = self._log
        self._marks.append(len(log))
        cells[index] = colour
        history.append(index)
        parent = self.parent
        root = index
        for nb in geo.nbs[index]:  # connect(), inlined: this is the hottest loop of every search
            if cells[nb] == colour:
                r = nb
                while parent[r] >= 0:
                    r = parent[r]
                if r != root:
                    log.extend((r, parent[r], root, parent[root]))
                    if parent[r] < parent[root]:
                        parent[r] += parent[root]
                        parent[root] = r
                        root = r
                    else:
                        parent[root] += parent[r]
                        parent[r] = root
        if colour == BLACK:
            self.hash ^= geo.zblack[index]
            a, b = geo.top, geo.bottom
        else:
            self.hash ^= geo.zwhite[index]
            a, b = geo.left, geo.right
        while parent[a] >= 0:
            a = parent[a]
        while parent[b] >= 0:
            b = parent[b]
        if a == b:
            self.winner = colour
            return True
        return False

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
        self.hash ^= self._geo.zblack[index] if colour == BLACK else self._geo.zwhite[index]
        self.cells[index] = EMPTY
        self.winner = EMPTY
        return index

    def copy(self) -> HexBoard:
        """An independent copy (for another thread or a speculative line)."""
        other = HexBoard.__new__(HexBoard)
        other.size = self.size
        other._geo = self._geo
        other.cells = bytearray(self.cells)
        other.parent = list(self.parent)
        other.nbs = self.nbs
        other.history = list(self.history)
        other.winner = self.winner
        other.hash = self.hash
        other._log = list(self._log)
        other._marks = list(self._marks)
        return other
