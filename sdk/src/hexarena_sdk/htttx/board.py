"""The fast mutable HTTTX board: place / undo with incremental legality, win detection and Zobrist hashing.

Why it looks the way it does: bots and the referee place millions of stones, so nothing here is proportional to
the board. Cells are packed into one ``int`` (``q * 2**20 + r``) because int hashing and addition are the
cheapest operations CPython has; one dict (``_cov``) then answers every question about a cell in one lookup:

* missing: the cell is farther than ``view_distance`` from every stone (illegal);
* ``>= 0``: the cell is empty and legal, and the value is its index in ``_legal`` (O(1) random choice);
* ``-1`` / ``-2``: an X / O stone stands there.

A new stone can only newly cover cells that are within ``view_distance`` of it and *not* within
``view_distance`` of a stone that already covered it, so each placement visits a precomputed "difference shape"
for the offset to the nearest known stone instead of the whole hexagon. ``undo`` restores the exact previous
structures (including the order of ``_legal``), so a search that places and undoes reproduces random choices.

Not thread-safe: one Board belongs to one thread of control.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from hexarena_sdk.errors import IllegalMove

Coord = tuple[int, int]
X, O = 0, 1  # noqa: E741  (the seat names of the rules)
SIDES = ("x", "o")

#: key = q + r * _STRIDE. The stride is odd and bit-scrambled on purpose: CPython's dict indexes by the low bits
#: of an int's value, and with a power-of-two stride every cell of a row would start on the same slot.
_STRIDE = 0x9E3779
_HALF = _STRIDE >> 1
#: Coordinates must stay well inside the packing range so that no two cells share a key.
COORD_LIMIT = 1 << 20
#: The referee's cap of an HTTTX match without a turn limit of its own (``HtttxGame.max_plies``): here beside the
#: board so that the wire's packet limits (``hexarena_sdk.wire.htttx``) derive from it without the game's rules.
MAX_PLIES = 5_000
_MASK64 = (1 << 64) - 1
#: Packed offsets of the three line axes (1,0), (0,1), (1,-1).
_AX3 = 1 - _STRIDE
_AXES = (1, _STRIDE, _AX3)


def hex_distance(q1: int, r1: int, q2: int, r2: int) -> int:
    """Steps between two cells in axial coordinates: max(|dq|, |dr|, |dq+dr|)."""
    dq = q1 - q2
    dr = r1 - r2
    return max(abs(dq), abs(dr), abs(dq + dr))


def _inside_limit(key: int, shape: tuple[int, ...], edge: int) -> tuple[int, ...]:
    """The offsets of ``shape`` (cells within the view distance) around ``key`` whose cells lie inside the
    coordinate limit, ``edge`` being that limit less the view distance. Cells beyond the limit can never be played,
    so they are never candidates: a bot drawing one would send an illegal move."""
    q0, r0 = unpack(key)
    if -edge < q0 < edge and -edge < r0 < edge:
        return shape
    return tuple(off for off in shape if all(-COORD_LIMIT < v < COORD_LIMIT for v in unpack(key + off)))


def pack(q: int, r: int) -> int:
    """The int key of cell (q, r); valid while |q|, |r| < COORD_LIMIT."""
    return q + r * _STRIDE


def unpack(key: int) -> Coord:
    """Inverse of :func:`pack`."""
    r = (key + _HALF) // _STRIDE
    return (key - r * _STRIDE, r)


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


_ZOBRIST: dict[int, int] = {}


def zobrist_key(q: int, r: int, seat: int) -> int:
    """The 64-bit Zobrist key of a ``seat`` stone on (q, r): a splitmix64 of the packed cell, so it is the same
    in every process and run (hashes can be stored and compared across machines)."""
    zk = (pack(q, r) << 1) | seat
    k = _ZOBRIST.get(zk)
    if k is None:
        k = _splitmix64(((q & 0xFFFFFFFF) << 33) | ((r & 0xFFFFFFFF) << 1) | seat)
        _ZOBRIST[zk] = k
    return k


class _Shapes:
    """Precomputed packed offsets for one view distance (shared by every board using it)."""

    def __init__(self, view: int) -> None:
        self.view = view
        hexagon = [
            (dq, dr)
            for d in range(view + 1)
            for dq in range(-d, d + 1)
            for dr in range(-d, d + 1)
            if max(abs(dq), abs(dr), abs(dq + dr)) == d
        ]
        self.full: tuple[int, ...] = tuple(pack(dq, dr) for dq, dr in hexagon)
        #: packed offset -> hex distance, for every offset within the view distance (0 included).
        self.dist: dict[int, int] = {pack(dq, dr): max(abs(dq), abs(dr), abs(dq + dr)) for dq, dr in hexagon}
        self._hexagon = hexagon
        #: packed offset d -> difference shape; precomputed for usual view distances (a plain dict keeps the
        #: hot lookup specialised), filled on first use for very large ones.
        self.diffs: dict[int, tuple[int, ...]] = {}
        if view <= 12:
            for d in self.dist:
                if d:
                    self.diffs[d] = self.diff(d)
        #: packed offsets of the cells at distance 1 and 2, nearest first (cheap nearest-stone probe).
        self.near: tuple[int, ...] = tuple(
            pack(dq, dr) for dq, dr in hexagon if 0 < max(abs(dq), abs(dr), abs(dq + dr)) <= 2
        )
        self.ring2: tuple[int, ...] = self.near[6:]
        #: by bitmask of occupied neighbours (+q, -q, +r, -r, +q-r, -q+r): cells within ``view`` of the new
        #: stone and of none of those neighbours; typically 5-17 cells instead of 216.
        units = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
        self.around: list[tuple[int, ...]] = [()] * 64
        for mask in range(1, 64):
            ts = [units[i] for i in range(6) if mask >> i & 1]
            self.around[mask] = tuple(
                pack(dq, dr)
                for dq, dr in hexagon
                if all(max(abs(dq - tq), abs(dr - tr), abs(dq + dr - tq - tr)) > view for tq, tr in ts)
            )

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # shapes are a pure function of the view distance: pickle the distance, not the tables
        return (_shapes, (self.view,))

    def diff(self, d: int) -> tuple[int, ...]:
        """Offsets (from the new stone p) of cells within ``view`` of p but not of ``p - d``."""
        tq, tr = unpack(d)
        v = self.view
        return tuple(
            pack(dq, dr) for dq, dr in self._hexagon if max(abs(dq + tq), abs(dr + tr), abs(dq + dr + tq + tr)) > v
        )


_SHAPES: dict[int, _Shapes] = {}


def _shapes(view: int) -> _Shapes:
    s = _SHAPES.get(view)
    if s is None:
        s = _SHAPES[view] = _Shapes(view)
    return s


class PyBoard:
    """A mutable HTTTX position without turn order (the caller decides who places what).

    Public attributes are read-only outside this class: ``cells`` (cell -> seat), ``stones`` (placement order),
    ``zobrist``, ``winner``, ``win_line``. An empty board accepts its first stone anywhere (the game puts X's
    at the origin); its ``legal_cells`` then lists only the origin.
    """

    __slots__ = (
        "_cov",
        "_edge",
        "_hist",
        "_legal",
        "_shapes",
        "_src",
        "cells",
        "stones",
        "view_distance",
        "win_distance",
        "win_line",
        "winner",
        "zobrist",
    )

    def __init__(self, view_distance: int = 8, win_distance: int = 6) -> None:
        if view_distance < 1 or win_distance < 2:
            # (a one-stone "line" would need no neighbour, and the win check only walks from same-seat neighbours)
            raise ValueError(f"need view_distance >= 1 and win_distance >= 2, got {view_distance}, {win_distance}")
        self.view_distance = view_distance
        self.win_distance = win_distance
        self.cells: dict[Coord, int] = {}
        self.stones: list[tuple[int, int, int]] = []
        self.zobrist = 0
        self.winner: int | None = None
        self.win_line: tuple[Coord, ...] | None = None
        self._shapes = _shapes(view_distance)
        #: A stone with both coordinates inside (-edge, edge) has its whole view hexagon inside the coordinate
        #: limit; one nearer the limit covers only the cells inside it (place refuses the others).
        self._edge = COORD_LIMIT - view_distance
        self._cov: dict[int, int] = {}
        self._legal: list[int] = []
        #: covered cell -> the stone that first covered it (a nearby stone for the difference shapes).
        self._src: dict[int, int] = {}
        #: per stone: (key, index it had in _legal or -1, number of cells it newly covered)
        self._hist: list[tuple[int, int, int]] = []

    # ----- placing and taking back -----

    def place(self, q: int, r: int, seat: int) -> bool:
        """Put a ``seat`` stone on (q, r) after checking it is legal; True if it makes a winning line.

        Raises IllegalMove when the cell is occupied, out of view range, or the game is already won. This is the
        hot path of every search, so it is written out in one function (a call costs as much as ten lookups).
        """
        if self.winner is not None:
            raise IllegalMove(f"cell ({q}, {r}) cannot be played: the game is already won by {SIDES[self.winner]}")
        edge = self._edge
        near_edge = not (-edge < q < edge and -edge < r < edge)
        if near_edge and not (-COORD_LIMIT < q < COORD_LIMIT and -COORD_LIMIT < r < COORD_LIMIT):
            raise IllegalMove(f"cell ({q}, {r}) is more than {self.view_distance} from every stone")
        key = q + r * _STRIDE
        cov = self._cov
        get = cov.get
        idx = get(key)
        if idx is None:
            if self.stones:
                raise IllegalMove(f"cell ({q}, {r}) is more than {self.view_distance} from every stone")
            return self._put_outside(q, r, key, seat)
        if idx < 0:
            raise IllegalMove(f"cell ({q}, {r}) is occupied")
        # take the cell out of the legal list (swap with the last entry)
        lst = self._legal
        last = lst.pop()
        if last != key:
            lst[idx] = last
            cov[last] = idx
        v = -1 - seat
        cov[key] = v
        # The six neighbours serve twice: the stones among them bound what we can newly cover (a precomputed
        # shape per subset of occupied neighbours), and the lines through us only need walking on axes where a
        # neighbour is ours. Without a neighbour, a stone at distance 2 or the cell's first coverer bounds it.
        a1 = get(key + 1, 0)
        b1 = get(key - 1, 0)
        a2 = get(key + _STRIDE, 0)
        b2 = get(key - _STRIDE, 0)
        a3 = get(key + _AX3, 0)
        b3 = get(key - _AX3, 0)
        shapes = self._shapes
        if a1 < 0 or b1 < 0 or a2 < 0 or b2 < 0 or a3 < 0 or b3 < 0:
            shape = shapes.around[
                (a1 < 0) | (b1 < 0) << 1 | (a2 < 0) << 2 | (b2 < 0) << 3 | (a3 < 0) << 4 | (b3 < 0) << 5
            ]
        else:
            for off in shapes.ring2:
                if get(key + off, 0) < 0:
                    t = key + off
                    break
            else:
                t = self._src[key]
            found = shapes.diffs.get(key - t)
            if found is None:
                found = shapes.diffs[key - t] = shapes.diff(key - t)
            shape = found
        if near_edge:
            shape = _inside_limit(key, shape, edge)
        src = self._src
        n = n0 = len(lst)
        append = lst.append
        for off in shape:
            c = key + off
            if c not in cov:
                cov[c] = n
                src[c] = key
                append(c)
                n += 1
        self._hist.append((key, idx, n - n0))
        self.cells[(q, r)] = seat
        self.stones.append((q, r, seat))
        zk = (key << 1) | seat
        z = _ZOBRIST.get(zk)
        self.zobrist ^= zobrist_key(q, r, seat) if z is None else z
        # the lines through the new stone, walked only where a neighbour is ours
        if (a1 == v or b1 == v) and self._line(key, 1, v, seat):
            return True
        if (a2 == v or b2 == v) and self._line(key, _STRIDE, v, seat):
            return True
        if a3 == v or b3 == v:
            return self._line(key, _AX3, v, seat)
        return False

    def _line(self, key: int, ax: int, v: int, seat: int) -> bool:
        """Walk one axis through ``key``; on a win record it and return True."""
        get = self._cov.get
        c = key + ax
        n = 1
        while get(c) == v:
            n += 1
            c += ax
        c = key - ax
        while get(c) == v:
            n += 1
            c -= ax
        if n >= self.win_distance:
            self.winner = seat
            self.win_line = tuple(unpack(c + i * ax) for i in range(1, n + 1))
            return True
        return False

    def setup(self, q: int, r: int, seat: int) -> bool:
        """Put a stone anywhere that is empty (free setups), ignoring the view distance; True if it wins."""
        if self.winner is not None:
            raise IllegalMove(f"cell ({q}, {r}) cannot be played: the game is already won by {SIDES[self.winner]}")
        if not (-COORD_LIMIT < q < COORD_LIMIT and -COORD_LIMIT < r < COORD_LIMIT):
            raise IllegalMove(f"cell ({q}, {r}) is too far from the origin")
        key = q + r * _STRIDE
        idx = self._cov.get(key)
        if idx is None:
            return self._put_outside(q, r, key, seat)
        if idx < 0:
            raise IllegalMove(f"cell ({q}, {r}) is occupied")
        return self.place(q, r, seat)

    def _put_outside(self, q: int, r: int, key: int, seat: int) -> bool:
        """Place a stone on a cell nothing covers yet: its whole hexagon is a candidate."""
        cov = self._cov
        src = self._src
        lst = self._legal
        cov[key] = -1 - seat
        src[key] = key
        n = n0 = len(lst)
        for off in _inside_limit(key, self._shapes.full, self._edge):
            c = key + off
            if c not in cov:
                cov[c] = n
                src[c] = key
                lst.append(c)
                n += 1
        self._hist.append((key, -1, n - n0))
        return self._finish(q, r, key, seat)

    def _finish(self, q: int, r: int, key: int, seat: int) -> bool:
        """Record the stone, update the hash and check the three lines through it (the rare, slow path)."""
        self.cells[(q, r)] = seat
        self.stones.append((q, r, seat))
        self.zobrist ^= zobrist_key(q, r, seat)
        v = -1 - seat
        return any(self._line(key, ax, v, seat) for ax in _AXES)

    def undo(self) -> None:
        """Take back the last stone, restoring the legal set (and its order), hash and winner exactly."""
        if not self._hist:
            raise IndexError("undo on a board without stones")
        key, idx, nnew = self._hist.pop()
        cov = self._cov
        src = self._src
        lst = self._legal
        if nnew:
            for c in lst[-nnew:]:
                del cov[c]
                del src[c]
            del lst[-nnew:]
        if idx < 0:
            del cov[key]
            del src[key]
        elif idx < len(lst):
            moved = lst[idx]
            lst[idx] = key
            cov[key] = idx
            cov[moved] = len(lst)
            lst.append(moved)
        else:
            cov[key] = idx
            lst.append(key)
        q, r, seat = self.stones.pop()
        del self.cells[(q, r)]
        self.zobrist ^= _ZOBRIST[(key << 1) | seat]
        self.winner = None
        self.win_line = None

    # ----- queries -----

    def is_legal(self, q: int, r: int) -> bool:
        """True if a stone may go on (q, r) now (empty, in view range, game not won)."""
        if self.winner is not None or not (-COORD_LIMIT < q < COORD_LIMIT and -COORD_LIMIT < r < COORD_LIMIT):
            return False
        if not self.stones:
            return True
        return self._cov.get(q + r * _STRIDE, -1) >= 0

    def legal_cells(self) -> list[Coord]:
        """Every legal cell, read off the incrementally maintained legal list (a fresh list: safe to mutate the
        board while iterating it)."""
        if not self.stones:
            return [(0, 0)]
        if self.winner is not None:
            return []
        return [unpack(k) for k in self._legal]

    def legal_count(self) -> int:
        if not self.stones:
            return 1
        return 0 if self.winner is not None else len(self._legal)

    def random_legal(self, rng: random.Random) -> Coord:
        """A uniformly random legal cell in O(1)."""
        lst = self._legal
        if not lst or self.winner is not None:
            if not self.stones:
                return (0, 0)
            raise IllegalMove("no legal cell: the game is won" if self.winner is not None else "no legal cell")
        k = lst[int(rng.random() * len(lst))]
        r = (k + _HALF) // _STRIDE
        return (k - r * _STRIDE, r)

    def newly_covered(self, q: int, r: int) -> list[Coord]:
        """The empty cells a stone on the legal cell (q, r) would bring into range (without placing it)."""
        return [unpack(k) for k in self._newly(q + r * _STRIDE)]

    def _newly(self, key: int) -> list[int]:
        cov = self._cov
        get = cov.get
        shapes = self._shapes
        for off in shapes.near:
            if get(key + off, 0) < 0:
                t = key + off
                break
        else:
            t = self._src[key]
        shape = shapes.diffs.get(key - t)
        if shape is None:
            shape = shapes.diffs[key - t] = shapes.diff(key - t)
        return [key + off for off in _inside_limit(key, shape, self._edge) if key + off not in cov]

    def random_pair(self, rng: random.Random) -> tuple[Coord, Coord]:
        """A random legal turn without touching the board: the first cell uniform among the legal cells, the
        second uniform among the cells legal once the first stands (it may only matter if the first wins)."""
        lst = self._legal
        n = len(lst)
        if n < 2 or self.winner is not None or not self.stones:
            raise IllegalMove("no legal pair of cells on this board")
        a = lst[int(rng.random() * n)]
        new = self._newly(a)
        while True:
            i = int(rng.random() * (n + len(new)))
            b = lst[i] if i < n else new[i - n]
            if b != a:
                break
        return (unpack(a), unpack(b))

    def seat_at(self, q: int, r: int) -> int | None:
        return self.cells.get((q, r))

    def line_length(self, q: int, r: int, seat: int) -> tuple[int, int, int]:
        """The longest run of ``seat`` through (q, r) on each axis (1,0), (0,1), (1,-1), counting (q, r) itself
        as if ``seat`` stood there; for heuristics and threat detection."""
        key = q + r * _STRIDE
        cov = self._cov
        v = -1 - seat
        out = []
        for ax in _AXES:
            n = 1
            c = key + ax
            while cov.get(c) == v:
                n += 1
                c += ax
            c = key - ax
            while cov.get(c) == v:
                n += 1
                c -= ax
            out.append(n)
        return (out[0], out[1], out[2])

    def copy(self) -> PyBoard:
        """An independent board in the same position, with the same undo history."""
        b = PyBoard.__new__(PyBoard)
        b.view_distance = self.view_distance
        b.win_distance = self.win_distance
        b.cells = dict(self.cells)
        b.stones = list(self.stones)
        b.zobrist = self.zobrist
        b.winner = self.winner
        b.win_line = self.win_line
        b._shapes = self._shapes
        b._edge = self._edge
        b._cov = dict(self._cov)
        b._legal = list(self._legal)
        b._src = dict(self._src)
        b._hist = list(self._hist)
        return b

    def place_all(self, stones: Iterable[tuple[int, int, int]]) -> None:
        """Place several (q, r, seat) stones in order with full validation."""
        for q, r, seat in stones:
            self.place(q, r, seat)

    def __len__(self) -> int:
        return len(self.stones)

    def __repr__(self) -> str:
        return f"Board({len(self.stones)} stones, legal={self.legal_count()}, winner={self.winner})"


# The C accelerator (same API and behaviour, see accel.py) when built, else PyBoard; type checkers see PyBoard.
if TYPE_CHECKING:
    Board = PyBoard
else:
    from hexarena_sdk.htttx import accel

    Board = accel.choose(PyBoard)
