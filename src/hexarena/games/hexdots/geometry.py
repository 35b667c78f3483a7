"""Board geometry of Hexagon dots: dots, lines and hexagons, numbered once per board size.

Everything a move needs is precomputed here so that playing a line is a handful of list lookups: which
hexagons the line is a perimeter side of (at most two), which hexagons an endpoint is the centre of, which
hexagons neighbour a hexagon (a capture blocks them forever). The tables are shared by every state and board of
the same size (``geometry(rows, cols)`` is cached), so they must never be mutated.

Numbering is row-major everywhere: dot ids follow (row, col) order, line ids follow (first dot, second dot)
order with the first dot the smaller, hexagon ids follow their centres. Sorting by id therefore is the
row-major sort the wire protocol asks for.

The board (docs/games/hexdots.md): ``rows`` odd, even rows (0, 2, ...) have ``cols - 1`` dots, odd rows ``cols``;
even rows sit half a spacing to the right, so the dots form a triangular lattice. Neighbours of (r, c), with
``shift = (r + 1) % 2``, in the clockwise order of the original server: (r, c-1), (r-1, c+shift-1),
(r-1, c+shift), (r, c+1), (r+1, c+shift), (r+1, c+shift-1). A hexagon is centred on every dot with all six
neighbours on the board; its perimeter sides join neighbour i to neighbour i+1.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Coord = tuple[int, int]

#: Largest ``rows`` / ``cols`` accepted (a 41x41 board has 1,680 dots and 4,880 lines).
MAX_SIZE = 41


def line_count(rows: int, cols: int) -> int:
    """The closed formula for the number of lines (the original server's), used to cross-check enumeration."""
    return 2 * (rows - 1) * (cols - 1) + ((rows + 1) // 2) * (cols - 2) + ((rows - 1) // 2) * (cols - 1)


def row_length(row: int, cols: int) -> int:
    """Dots in ``row``: the short even rows have one fewer."""
    return cols - 1 if row % 2 == 0 else cols


def neighbour_coords(row: int, col: int) -> tuple[Coord, ...]:
    """The six lattice neighbours of (row, col) in clockwise order, on the board or not."""
    shift = (row + 1) % 2
    return (
        (row, col - 1),
        (row - 1, col + shift - 1),
        (row - 1, col + shift),
        (row, col + 1),
        (row + 1, col + shift),
        (row + 1, col + shift - 1),
    )


@dataclass(frozen=True, slots=True, eq=False)
class Geometry:
    """Precomputed tables for one board size. Tuples only: shared, never mutated."""

    rows: int
    cols: int
    coords: tuple[Coord, ...]  # dot id -> (row, col)
    neighbours: tuple[tuple[int, ...], ...]  # dot id -> on-board neighbour dot ids, clockwise
    line_ends: tuple[tuple[int, int], ...]  # line id -> (dot a, dot b), a < b
    line_coords: tuple[tuple[Coord, Coord], ...]  # line id -> ((r1, c1), (r2, c2)) sorted row-major
    line_hexes: tuple[tuple[int, ...], ...]  # line id -> hexagons it is a perimeter side of (0..2)
    line_end_hexes: tuple[tuple[int, ...], ...]  # line id -> hexagons centred on one of its endpoints (0..2)
    hex_center: tuple[int, ...]  # hexagon id -> centre dot id
    hex_perimeter: tuple[tuple[int, ...], ...]  # hexagon id -> its 6 perimeter line ids
    hex_spokes: tuple[tuple[int, ...], ...]  # hexagon id -> its 6 centre-to-neighbour line ids
    hex_adjacent: tuple[tuple[int, ...], ...]  # hexagon id -> hexagons centred on its neighbours
    hex_of_dot: tuple[int, ...]  # dot id -> hexagon centred there, or -1
    _dot_index: dict[Coord, int]
    _line_index: dict[tuple[int, int], int]

    def __eq__(self, other: object) -> bool:
        # Tables are a pure function of the size, so two instances of one size are interchangeable.
        return isinstance(other, Geometry) and (self.rows, self.cols) == (other.rows, other.cols)

    def __hash__(self) -> int:
        return hash((self.rows, self.cols))

    @property
    def n_dots(self) -> int:
        return len(self.coords)

    @property
    def n_lines(self) -> int:
        return len(self.line_ends)

    @property
    def n_hexes(self) -> int:
        return len(self.hex_center)

    def dot(self, coord: Coord) -> int:
        """Dot id of (row, col), or -1 when it is not on the board."""
        return self._dot_index.get(coord, -1)

    def line_between(self, a: int, b: int) -> int:
        """Line id joining dots ``a`` and ``b`` (any order), or -1 when they are not neighbours."""
        return self._line_index.get((a, b) if a < b else (b, a), -1)

    def on_board(self, coord: Coord) -> bool:
        row, col = coord
        return 0 <= row < self.rows and 0 <= col < row_length(row, self.cols)


def _build(rows: int, cols: int) -> Geometry:
    coords: list[Coord] = [(r, c) for r in range(rows) for c in range(row_length(r, cols))]
    dot_index = {rc: i for i, rc in enumerate(coords)}
    full: list[tuple[int, ...]] = [tuple(dot_index.get(n, -1) for n in neighbour_coords(r, c)) for r, c in coords]
    neighbours = tuple(tuple(n for n in ring if n >= 0) for ring in full)

    pairs = sorted((a, b) for a in range(len(coords)) for b in neighbours[a] if b > a)
    line_index = {p: i for i, p in enumerate(pairs)}

    centres = [d for d in range(len(coords)) if -1 not in full[d]]
    hex_of_dot = [-1] * len(coords)
    for h, d in enumerate(centres):
        hex_of_dot[d] = h
    perimeter = []
    spokes = []
    for d in centres:
        ring = full[d]
        perimeter.append(tuple(line_index[_pair(ring[i], ring[(i + 1) % 6])] for i in range(6)))
        spokes.append(tuple(line_index[_pair(d, n)] for n in ring))
    line_hexes: list[list[int]] = [[] for _ in pairs]
    for h, sides in enumerate(perimeter):
        for lid in sides:
            line_hexes[lid].append(h)
    adjacent = tuple(tuple(hex_of_dot[n] for n in full[d] if hex_of_dot[n] >= 0) for d in centres)
    line_end_hexes = tuple(tuple(hex_of_dot[x] for x in p if hex_of_dot[x] >= 0) for p in pairs)
    return Geometry(
        rows=rows,
        cols=cols,
        coords=tuple(coords),
        neighbours=neighbours,
        line_ends=tuple(pairs),
        line_coords=tuple((coords[a], coords[b]) for a, b in pairs),
        line_hexes=tuple(tuple(hs) for hs in line_hexes),
        line_end_hexes=line_end_hexes,
        hex_center=tuple(centres),
        hex_perimeter=tuple(perimeter),
        hex_spokes=tuple(spokes),
        hex_adjacent=adjacent,
        hex_of_dot=tuple(hex_of_dot),
        _dot_index=dot_index,
        _line_index=line_index,
    )


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@lru_cache(maxsize=64)
def geometry(rows: int, cols: int) -> Geometry:
    """The (cached, shared) tables for a ``rows`` x ``cols`` board; sizes must already be validated."""
    return _build(rows, cols)
