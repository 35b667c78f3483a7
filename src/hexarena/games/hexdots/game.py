"""Hexagon dots (docs/games/hexdots.md) behind the ``Game`` protocol: immutable ``DotsState`` and ``HexDotsGame``.

A move is a line ``((r1, c1), (r2, c2))`` with its endpoints sorted row-major. Notation: ``r1,c1-r2,c2``, e.g.
``0,0-0,1``; ``parse`` accepts the endpoints in either order (and spaces), and normalises.

States are values: ``play`` copies four byte strings (one C-level copy each, a few KB on the largest board) and
applies the O(1) transition of ``board.apply_line``; no Python loop ever walks the board during a move. Each
state links to its predecessor, so the wire layer can list the lines drawn since any earlier ply without the
state carrying a growing history tuple. Bots that search should use ``DotsBoard`` (``state.board()``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from hexarena.core.battlebot import BattlebotShape
from hexarena.core.errors import ConfigError, IllegalMove, InvalidMove
from hexarena.core.game import Game, Param, ParamValue, RuleGame, state_view
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Outcome, Seat, Termination
from hexarena.games.hexdots.board import DotsBoard, Line, apply_line, check_line, is_legal_id
from hexarena.games.hexdots.geometry import MAX_SIZE, Coord, Geometry, geometry


@dataclass(frozen=True, slots=True)
class DotsState:
    """One position. Byte arrays are indexed by the ids of ``geo`` (see ``board.py`` for their meaning).

    Equality compares the position (lines with their owners, captures, side to move, scores), not how it was
    reached; ``prev`` / ``last_*`` record the move that produced this state.
    """

    geo: Geometry
    line_owner: bytes  # 0: not drawn, 1 + seat: drawn by seat
    hex_owner: bytes  # 0: free, 1 + seat: captured by seat
    hex_count: bytes  # perimeter sides drawn
    hex_blocked: bytes  # captured centres among the neighbours (> 0: can never be completed)
    alive: int  # hexagons that can still be completed; 0 = game over
    n_legal: int  # legal lines left (while the game is on)
    turn: Seat  # the seat to move (meaningless once over)
    scores: tuple[int, int]
    ply: int = field(compare=False)
    prev: DotsState | None = field(default=None, compare=False, repr=False)
    last_line: int = field(default=-1, compare=False)
    last_seat: int = field(default=-1, compare=False)
    last_captured: tuple[int, ...] = field(default=(), compare=False)

    @property
    def rows(self) -> int:
        return self.geo.rows

    @property
    def cols(self) -> int:
        return self.geo.cols

    @property
    def over(self) -> bool:
        """True once no hexagon can still be completed (lines may remain)."""
        return self.alive == 0

    def board(self) -> DotsBoard:
        """A mutable copy for searching (O(board) once; then O(1) per play/undo)."""
        return DotsBoard.from_arrays(
            self.geo,
            self.line_owner,
            self.hex_owner,
            self.hex_count,
            self.hex_blocked,
            self.alive,
            self.turn,
            self.scores,
        )

    def is_legal_id(self, lid: int) -> bool:
        return not self.over and is_legal_id(self.geo, self.line_owner, self.hex_owner, lid)

    def moves_since(self, ply: int) -> list[DotsState]:
        """The states produced by the moves after ``ply`` (oldest first); each holds ``last_line`` etc."""
        out: list[DotsState] = []
        s: DotsState | None = self
        while s is not None and s.ply > ply:
            out.append(s)
            s = s.prev
        out.reverse()
        return out

    def captured(self) -> Iterator[tuple[int, int]]:
        """(hexagon id, seat) of every captured hexagon, in id (row-major) order."""
        for h, mark in enumerate(self.hex_owner):
            if mark:
                yield h, mark - 1


def normalize_line(move: object) -> Line:
    """``move`` as a sorted pair of (row, col) int pairs; InvalidMove('invalid line data: ...') otherwise."""
    if not isinstance(move, tuple | list) or len(move) != 2:
        raise InvalidMove(f"invalid line data: expected two endpoints, got {move!r}")
    ends: list[Coord] = []
    for end in move:
        if (
            not isinstance(end, tuple | list)
            or len(end) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in end)
        ):
            raise InvalidMove(f"invalid line data: endpoint {end!r} is not a (row, col) pair of integers")
        ends.append((int(end[0]), int(end[1])))
    a, b = ends
    return (a, b) if a <= b else (b, a)


_NOTATION = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*-\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


class HexDotsGame(RuleGame[DotsState, Line]):
    """Hexagon dots: draw lines between neighbouring dots; close a hexagon to capture it and move again."""

    setup_refused: ClassVar[str] = (
        "a hexagon dots position is lines, not stones, and who owns each closed hexagon and whose turn it is follow "
        "from the order they were drawn; open the position from a game, a record or its moves"
    )

    name: ClassVar[str] = "hexdots"
    title: ClassVar[str] = "Hexagon dots"
    seat_names: ClassVar[tuple[str, str]] = ("first", "second")
    board_module: ClassVar[str | None] = "hexarena:web/js/boards/hexdots.js"  # the web UI's board
    params: ClassVar[tuple[Param, ...]] = (
        Param(
            "rows",
            int,
            5,
            "how tall the board is (odd: the top and bottom rows are short); more rows, more hexagons",
            3,
            MAX_SIZE,
            label="Rows of dots",
        ),
        Param(
            "cols",
            int,
            5,
            "how wide the board is (short rows have one dot fewer); more dots, more hexagons",
            3,
            MAX_SIZE,
            label="Dots in a long row",
        ),
    )

    def new(self, **params: object) -> DotsState:
        p = self.validate_params(params)
        if p["rows"] % 2 == 0:
            raise ConfigError(f"parameter 'rows' must be odd (top and bottom rows are short), got {p['rows']}")
        geo = geometry(p["rows"], p["cols"])
        return DotsState(
            geo=geo,
            line_owner=bytes(geo.n_lines),
            hex_owner=bytes(geo.n_hexes),
            hex_count=bytes(geo.n_hexes),
            hex_blocked=bytes(geo.n_hexes),
            alive=geo.n_hexes,
            n_legal=geo.n_lines,
            turn=0,
            scores=(0, 0),
            ply=0,
        )

    def to_move(self, state: DotsState) -> Seat | None:
        return None if state.over else state.turn

    def legal_ids(self, state: DotsState) -> list[int]:
        if state.over:
            return []
        geo, lo, ho = state.geo, state.line_owner, state.hex_owner
        return [i for i in range(geo.n_lines) if is_legal_id(geo, lo, ho, i)]

    def legal(self, state: DotsState) -> list[Line]:
        coords = state.geo.line_coords
        return [coords[i] for i in self.legal_ids(state)]

    def line_id(self, state: DotsState, move: Any) -> int:
        """The id of ``move`` if it is legal in ``state``; InvalidMove / IllegalMove with the reason otherwise."""
        line = normalize_line(move)
        if state.over:
            raise IllegalMove(f"game is over; no line may be drawn ({self.format(line)})")
        return check_line(state.geo, state.line_owner, state.hex_owner, line)

    def play(self, state: DotsState, move: Line) -> DotsState:
        return self.play_id(state, self.line_id(state, move))

    def play_id(self, state: DotsState, lid: int, seat: Seat | None = None) -> DotsState:
        """``play`` for a line id already known to be legal (bots, playouts).

        ``seat`` overrides the side to move; only for rebuilding a recorded position (``wire``).
        """
        if seat is None:
            seat = state.turn
        lo, ho = bytearray(state.line_owner), bytearray(state.hex_owner)
        hc, hb = bytearray(state.hex_count), bytearray(state.hex_blocked)
        captured, lost, newly_illegal = apply_line(state.geo, lo, ho, hc, hb, lid, seat)
        scores = state.scores
        if captured:
            scores = (scores[0] + len(captured), scores[1]) if seat == 0 else (scores[0], scores[1] + len(captured))
        return DotsState(
            geo=state.geo,
            line_owner=bytes(lo),
            hex_owner=bytes(ho),
            hex_count=bytes(hc),
            hex_blocked=bytes(hb),
            alive=state.alive - lost,
            n_legal=state.n_legal - 1 - len(newly_illegal),
            turn=seat if captured else 1 - seat,
            scores=scores,
            ply=state.ply + 1,
            prev=state,
            last_line=lid,
            last_seat=seat,
            last_captured=tuple(captured),
        )

    def outcome(self, state: DotsState) -> Outcome | None:
        if not state.over:
            return None
        a, b = state.scores
        text = f"{self.seat_names[0]} {a} - {b} {self.seat_names[1]} hexagons"
        if a == b:
            return Outcome(None, Termination.NORMAL, f"draw: {text}")
        return Outcome(0 if a > b else 1, Termination.NORMAL, text)

    def parse(self, text: str) -> Line:
        m = _NOTATION.match(text) if isinstance(text, str) else None
        if m is None:
            raise InvalidMove(f"invalid line data: {text!r} is not 'row,col-row,col' (e.g. '0,0-0,1')")
        r1, c1, r2, c2 = (int(g) for g in m.groups())
        return normalize_line(((r1, c1), (r2, c2)))

    def format(self, move: Line) -> str:
        (r1, c1), (r2, c2) = normalize_line(move)
        return f"{r1},{c1}-{r2},{c2}"

    def random_move(self, state: DotsState, rng: random.Random) -> Line:
        return state.geo.line_coords[self.random_id(state, rng)]

    def random_id(self, state: DotsState, rng: random.Random) -> int:
        """A uniformly random legal line id: rejection sampling, then one scan when legal lines are rare."""
        if state.over or state.n_legal <= 0:
            raise ValueError("no legal move in this position")
        geo, lo, ho = state.geo, state.line_owner, state.hex_owner
        n = geo.n_lines
        for _ in range(32):
            lid = rng.randrange(n)
            if is_legal_id(geo, lo, ho, lid):
                return lid
        return rng.choice(self.legal_ids(state))

    def params_of(self, state: DotsState) -> dict[str, ParamValue]:
        return {"rows": state.rows, "cols": state.cols}

    def to_json(self, state: DotsState) -> JsonObject:
        """The original protocol's Game object, with the seat names as player names (UI and spectators), and the
        fields every game's view starts with (``to_move``, ``sides``)."""
        from hexarena.games.hexdots.wire import game_json

        return state_view(self, state, **game_json(state, self.seat_names))

    def battlebot_shape(self) -> BattlebotShape[DotsState, Line]:
        from hexarena.games.hexdots.battlebot import shape

        return shape()

    def legal_view(self, state: DotsState) -> JsonObject:
        """``kind: lines``: ``moves = [{"move": "0,0-0,1", "a": [0, 0], "b": [0, 1]}]``."""
        if self.to_move(state) is None:
            return {"kind": "none", "moves": []}
        return {
            "kind": "lines",
            "moves": [{"move": self.format(m), "a": list(m[0]), "b": list(m[1])} for m in self.legal(state)],
        }

    def ply(self, state: DotsState) -> int:
        return state.ply


GAME = HexDotsGame()

if TYPE_CHECKING:  # mypy checks the engine against the Game protocol here
    _CHECKED: Game[DotsState, Line] = GAME
