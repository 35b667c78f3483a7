"""Hex board geometry and notation, shared by the mutable core, the immutable API and the bots.

Cells are ``(row, col)`` pairs, 0-based, row 0 at the top. Internally a cell is the flat index
``row * size + col``; four virtual *edge nodes* follow the cells (``TOP``, ``BOTTOM``, ``LEFT``, ``RIGHT`` at
``size*size + 0..3``) so that the union-find treats "touches my edge" exactly like "touches my own stone":
a border cell simply lists its edge node among its neighbours, and the edge nodes carry the colour whose goal
they are. Black wins when TOP and BOTTOM share a root, White when LEFT and RIGHT do.

Two notations exist in the wild and they disagree on what the letter means:

* UAIS (the hexarena notation, ``parse``/``format``): letter = row (``a`` = top), number = 1-based column.
* HTP/GTP (MoHex, HexGui, OpenSpiel's ``action_to_string``): letter = column, number = 1-based row.

Keeping both behind explicit functions is what stops an adapter from silently transposing a game.
"""

from __future__ import annotations

import random
from array import array
from functools import cache

EMPTY = 0
BLACK = 1
WHITE = 2
COLOUR_NAMES = {BLACK: "black", WHITE: "white"}
MAX_SIZE = 26

Cell = tuple[int, int]


@cache
def edge_nodes(size: int) -> tuple[int, int, int, int]:
    """``(TOP, BOTTOM, LEFT, RIGHT)`` flat indices for a board of this size."""
    n2 = size * size
    return n2, n2 + 1, n2 + 2, n2 + 3


@cache
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """For every flat cell index, the flat indices of its neighbours including edge nodes.

    Neighbours of (r, c): (r, c-1), (r, c+1), (r-1, c), (r-1, c+1), (r+1, c-1), (r+1, c) -- the UAIS
    and OpenSpiel geometry (each row shifted half a cell to the right of the one above).
    """
    top, bottom, left, right = edge_nodes(size)
    out: list[tuple[int, ...]] = []
    for r in range(size):
        for c in range(size):
            nbs: list[int] = []
            for dr, dc in ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size:
                    nbs.append(rr * size + cc)
            if r == 0:
                nbs.append(top)
            if r == size - 1:
                nbs.append(bottom)
            if c == 0:
                nbs.append(left)
            if c == size - 1:
                nbs.append(right)
            out.append(tuple(nbs))
    return tuple(out)


@cache
def empty_cells(size: int) -> bytes:
    """The cell array of an empty board: cells then the four edge nodes coloured with their owner."""
    return bytes(size * size) + bytes((BLACK, BLACK, WHITE, WHITE))


@cache
def empty_parent(size: int) -> tuple[int, ...]:
    """Union-find array of an empty board: every node is a root of size 1 (stored as -1)."""
    return (-1,) * (size * size + 4)


@cache
def cell_tuples(size: int) -> tuple[Cell, ...]:
    """``(row, col)`` for every flat index, built once so moves are shared objects, not fresh tuples."""
    return tuple((r, c) for r in range(size) for c in range(size))


@cache
def zobrist(size: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """64-bit Zobrist keys ``(black[i], white[i], swapped)``; a fixed seed makes hashes stable across runs."""
    rng = random.Random(f"hexarena-hex-zobrist-{size}")
    n2 = size * size
    black = tuple(rng.getrandbits(64) for _ in range(n2))
    white = tuple(rng.getrandbits(64) for _ in range(n2))
    return black, white, rng.getrandbits(64)


def _split(text: str) -> tuple[int, int] | None:
    """``'c12'`` -> ``(2, 12)`` (0-based letter, 1-based number) or None when the text is not letter+digits."""
    t = text.strip().lower()
    if len(t) < 2 or not ("a" <= t[0] <= "z") or not t[1:].isascii() or not t[1:].isdigit():
        return None
    if t[1] == "0":
        return None
    return ord(t[0]) - 97, int(t[1:])


def parse_uais_cell(text: str) -> Cell | None:
    """UAIS ``a1`` (letter = row, number = 1-based column) -> ``(row, col)``; None if malformed."""
    s = _split(text)
    return None if s is None else (s[0], s[1] - 1)


def parse_htp_cell(text: str) -> Cell | None:
    """HTP ``a1`` (letter = column, number = 1-based row) -> ``(row, col)``; None if malformed."""
    s = _split(text)
    return None if s is None else (s[1] - 1, s[0])


def format_uais_cell(cell: Cell) -> str:
    """``(row, col)`` -> UAIS ``a1``."""
    return f"{chr(97 + cell[0])}{cell[1] + 1}"


def format_htp_cell(cell: Cell) -> str:
    """``(row, col)`` -> HTP ``a1``."""
    return f"{chr(97 + cell[1])}{cell[0] + 1}"


def mirror(cell: Cell) -> Cell:
    """Reflect a cell in the long diagonal: ``(row, col)`` -> ``(col, row)``.

    HTP's ``swap-pieces`` keeps colours and reflects the first stone, whereas the UAIS swap (hexarena's SWAP)
    exchanges colours and keeps the board. The two positions are the same game seen through this reflection
    plus a colour exchange, which is how an HTP adapter (and the OpenSpiel cross-check) translate one into the
    other.
    """
    return cell[1], cell[0]


class Geometry:
    """Everything the immutable API needs per board size, gathered in one object a state points to, so that
    the hot path reads attributes instead of calling cached functions."""

    __slots__ = (
        "bottom",
        "cells",
        "empty_cells",
        "empty_parent",
        "left",
        "n2",
        "nbs",
        "right",
        "size",
        "top",
        "zblack",
        "zswap",
        "zwhite",
    )

    def __init__(self, size: int) -> None:
        self.size = size
        self.n2 = size * size
        self.nbs = neighbours(size)
        self.top, self.bottom, self.left, self.right = edge_nodes(size)
        self.cells = cell_tuples(size)
        self.empty_cells = empty_cells(size)
        self.zblack, self.zwhite, self.zswap = zobrist(size)
        # The persistent union-find: parent per node, a root points to itself. Bytes while indices fit (up
        # to 15x15), so that copying it on every move is a memcpy; an unsigned 16-bit array beyond.
        count = self.n2 + 4
        self.empty_parent: bytearray | array[int] = (
            bytearray(range(count)) if count <= 256 else array("H", range(count))
        )


@cache
def geometry(size: int) -> Geometry:
    return Geometry(size)
