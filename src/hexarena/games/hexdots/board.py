"""The rules of Hexagon dots as O(1) transitions on flat arrays, and the fast mutable ``DotsBoard`` for bots.

A position is five small arrays indexed by the ids of ``geometry``: who drew each line, who owns each hexagon,
how many perimeter sides of each hexagon are drawn, and how many captured centres neighbour each hexagon
("blocked": such a hexagon can never be completed, docs/games/hexdots.md), plus ``alive``, the number of hexagons
that can still be completed (neither captured nor blocked). The game ends when ``alive`` reaches 0, so the
original server's scan of the whole board after every move becomes one counter updated by captures.

``apply_line`` / ``unapply_line`` are the only code that changes a position; the immutable ``DotsState``
(``game.py``) runs ``apply_line`` on copies of its byte strings, ``DotsBoard`` runs both in place and keeps a
list of legal lines with O(1) removal so random playouts never scan the board.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, MutableSequence, Sequence

from hexarena.core.errors import IllegalMove
from hexarena.games.hexdots.geometry import Coord, Geometry

Line = tuple[Coord, Coord]


def coord_text(coord: Coord) -> str:
    return f"{coord[0]},{coord[1]}"


def check_line(geo: Geometry, line_owner: Sequence[int], hex_owner: Sequence[int], line: Line) -> int:
    """The line id of ``line`` if drawing it is legal; else IllegalMove with the original server's phrase.

    The checks run in the original's order (already placed, endpoint on board, adjacent, claimed hex) so a bot
    sees the same reason from hexarena as from the original server; the detail after the colon quotes it.
    """
    p, q = line
    a, b = geo.dot(p), geo.dot(q)
    lid = geo.line_between(a, b) if a >= 0 and b >= 0 else -1
    if lid >= 0 and line_owner[lid]:
        raise IllegalMove(f"line already placed: {coord_text(p)}-{coord_text(q)}")
    for end, dot in ((p, a), (q, b)):
        if dot < 0:
            raise IllegalMove(
                f"endpoint not on board: {coord_text(end)} "
                f"(rows 0..{geo.rows - 1}; even rows have {geo.cols - 1} dots, odd rows {geo.cols})"
            )
    if lid < 0:
        raise IllegalMove(f"endpoints not adjacent: {coord_text(p)} and {coord_text(q)}")
    for h in geo.line_end_hexes[lid]:
        if hex_owner[h]:
            centre = geo.coords[geo.hex_center[h]]
            raise IllegalMove(
                f"line falls within claimed hex: {coord_text(p)}-{coord_text(q)} "
                f"touches the captured centre {coord_text(centre)}"
            )
    return lid


def is_legal_id(geo: Geometry, line_owner: Sequence[int], hex_owner: Sequence[int], lid: int) -> bool:
    """Whether line ``lid`` may be drawn: not drawn yet and not touching a captured centre."""
    if line_owner[lid]:
        return False
    return all(not hex_owner[h] for h in geo.line_end_hexes[lid])


def apply_line(
    geo: Geometry,
    line_owner: MutableSequence[int],
    hex_owner: MutableSequence[int],
    hex_count: MutableSequence[int],
    hex_blocked: MutableSequence[int],
    lid: int,
    seat: int,
) -> tuple[list[int], int, list[int]]:
    """Draw legal line ``lid`` for ``seat``; returns (hexagons captured, alive hexagons lost, lines made illegal).

    Only the (at most two) hexagons the line is a side of can be completed by it. A hexagon is captured when
    its 6th side is drawn and no captured centre neighbours it (a side touching a captured centre means its
    perimeter is no longer intact). The two hexagons one line can complete are never neighbours (their
    centres are the opposite corners of a rhombus), so capturing one cannot block the other.
    """
    mark = seat + 1
    line_owner[lid] = mark
    captured: list[int] = []
    for h in geo.line_hexes[lid]:
        n = hex_count[h] + 1
        hex_count[h] = n
        if n == 6 and not hex_blocked[h] and not hex_owner[h]:
            captured.append(h)
    lost = 0
    newly_illegal: list[int] = []
    for h in captured:
        hex_owner[h] = mark
        lost += 1
        for g in geo.hex_adjacent[h]:
            if not hex_blocked[g] and not hex_owner[g]:
                lost += 1
            hex_blocked[g] += 1
        for s in geo.hex_spokes[h]:
            if not line_owner[s]:
                newly_illegal.append(s)
    return captured, lost, newly_illegal


def unapply_line(
    geo: Geometry,
    line_owner: MutableSequence[int],
    hex_owner: MutableSequence[int],
    hex_count: MutableSequence[int],
    hex_blocked: MutableSequence[int],
    lid: int,
    captured: Sequence[int],
) -> tuple[int, list[int]]:
    """Exactly undo ``apply_line``; returns (alive hexagons regained, lines made legal again)."""
    regained = 0
    relegal: list[int] = []
    for h in reversed(captured):
        for s in geo.hex_spokes[h]:
            if not line_owner[s]:
                relegal.append(s)
        for g in geo.hex_adjacent[h]:
            hex_blocked[g] -= 1
            if not hex_blocked[g] and not hex_owner[g]:
                regained += 1
        hex_owner[h] = 0
        regained += 1
    for h in geo.line_hexes[lid]:
        hex_count[h] -= 1
    line_owner[lid] = 0
    return regained, relegal


class DotsBoard:
    """A mutable position with play/undo for bots and playouts; nothing here allocates per move but a tuple.

    ``turn`` is the seat to move (kept after a capture: the capturer moves again); ``over`` is true once no
    hexagon can be completed. ``play`` trusts its caller (use ``legal_ids`` or ``check``); ``undo`` reverts the
    last ``play`` exactly, including the set of legal lines (their order in ``legal_ids`` may differ).
    """

    __slots__ = (
        "_legal",
        "_pos",
        "_trail",
        "alive",
        "geo",
        "hex_blocked",
        "hex_count",
        "hex_owner",
        "line_owner",
        "scores",
        "turn",
    )

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        self.line_owner = bytearray(geo.n_lines)
        self.hex_owner = bytearray(geo.n_hexes)
        self.hex_count = bytearray(geo.n_hexes)
        self.hex_blocked = bytearray(geo.n_hexes)
        self.alive = geo.n_hexes
        self.turn = 0
        self.scores = [0, 0]
        self._legal = list(range(geo.n_lines))
        self._pos = list(range(geo.n_lines))
        self._trail: list[tuple[int, int, tuple[int, ...]]] = []

    @classmethod
    def from_arrays(
        cls,
        geo: Geometry,
        line_owner: bytes,
        hex_owner: bytes,
        hex_count: bytes,
        hex_blocked: bytes,
        alive: int,
        turn: int,
        scores: tuple[int, int],
    ) -> DotsBoard:
        """A board for an existing position (one O(board) pass: for bots starting a search, not per move)."""
        board = cls(geo)
        board.line_owner[:] = line_owner
        board.hex_owner[:] = hex_owner
        board.hex_count[:] = hex_count
        board.hex_blocked[:] = hex_blocked
        board.alive = alive
        board.turn = turn
        board.scores = list(scores)
        board._legal = [i for i in range(geo.n_lines) if is_legal_id(geo, line_owner, hex_owner, i)]
        board._pos = [-1] * geo.n_lines
        for i, lid in enumerate(board._legal):
            board._pos[lid] = i
        return board

    @property
    def over(self) -> bool:
        return self.alive == 0

    @property
    def ply(self) -> int:
        """Moves played on this board since it was created."""
        return len(self._trail)

    def legal_ids(self) -> list[int]:
        """The legal line ids (a copy, so callers may play while iterating)."""
        return [] if self.alive == 0 else list(self._legal)

    def n_legal(self) -> int:
        return 0 if self.alive == 0 else len(self._legal)

    def random_id(self, rng: random.Random) -> int:
        return self._legal[rng.randrange(len(self._legal))]

    def check(self, line: Line) -> int:
        """The id of ``line`` if legal now, else IllegalMove (same reasons as the immutable API)."""
        if self.alive == 0:
            raise IllegalMove("game is over")
        return check_line(self.geo, self.line_owner, self.hex_owner, line)

    def play(self, lid: int) -> tuple[int, ...]:
        """Draw legal line ``lid`` for the side to move; returns the captured hexagon ids."""
        seat = self.turn
        captured, lost, newly_illegal = apply_line(
            self.geo, self.line_owner, self.hex_owner, self.hex_count, self.hex_blocked, lid, seat
        )
        self._remove(lid)
        for s in newly_illegal:
            self._remove(s)
        self.alive -= lost
        caps = tuple(captured)
        self._trail.append((lid, seat, caps))
        if caps:
            self.scores[seat] += len(caps)
        else:
            self.turn = 1 - seat
        return caps

    def undo(self) -> None:
        """Revert the last ``play``."""
        lid, seat, caps = self._trail.pop()
        regained, relegal = unapply_line(
            self.geo, self.line_owner, self.hex_owner, self.hex_count, self.hex_blocked, lid, caps
        )
        self.alive += regained
        self.scores[seat] -= len(caps)
        self.turn = seat
        for s in relegal:
            self._add(s)
        self._add(lid)

    def missing_side(self, h: int) -> int:
        """An undrawn perimeter side of hexagon ``h`` (-1 when all six are drawn)."""
        for s in self.geo.hex_perimeter[h]:
            if not self.line_owner[s]:
                return s
        return -1

    def lines(self) -> Iterator[tuple[int, int]]:
        """(line id, seat) of every drawn line, in play order since this board was created."""
        for lid, seat, _ in self._trail:
            yield lid, seat

    def _remove(self, lid: int) -> None:
        i = self._pos[lid]
        last = self._legal.pop()
        if last != lid:
            self._legal[i] = last
            self._pos[last] = i
        self._pos[lid] = -1

    def _add(self, lid: int) -> None:
        self._pos[lid] = len(self._legal)
        self._legal.append(lid)
