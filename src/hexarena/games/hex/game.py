"""Hex: the immutable rules API (``HexGame``) over the union-find core.

Rules (docs/games/hex.md): an N x N rhombus, 1 <= N <= 26. Black moves first and connects top and bottom; White
connects left and right. With the swap rule on (the default), the second player's first move may be ``swap``:
colours are exchanged and the board is unchanged, so seat 0 continues as White. Seats and colours are kept
apart: ``outcome().winner`` and ``to_move`` are *seats*, cells hold *colours*. Hex has no draws.

Moves are ``(row, col)`` 0-based tuples or the constants ``SWAP`` and ``RESIGN``. ``RESIGN`` is accepted by
``play`` (it ends the game with ``Termination.RESIGN``) but never listed by ``legal`` nor chosen by
``random_move``, so playouts are real games. Notation (``parse``/``format``) is the UAIS form: ``a1`` = row a
(top), column 1; ``to_htp``/``from_htp`` convert to and from the HTP form (letter = column, number = row).
"""

from __future__ import annotations

import random
from array import array
from collections import deque
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from hexarena.core.battlebot import BattlebotShape
from hexarena.core.errors import ConfigError, IllegalMove, InvalidMove
from hexarena.core.game import Game, Param, ParamValue, RuleGame, cells_view, check_setup_counts, setup_cell, state_view
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Outcome, Seat, Termination
from hexarena.games.hex.board import HexBoard
from hexarena.games.hex.geometry import (
    BLACK,
    COLOUR_NAMES,
    EMPTY,
    MAX_SIZE,
    WHITE,
    Cell,
    Geometry,
    edge_nodes,
    format_htp_cell,
    format_uais_cell,
    geometry,
    mirror,
    neighbours,
    parse_htp_cell,
    parse_uais_cell,
)


class HexAction(StrEnum):
    """The two non-placing moves. StrEnum so they compare equal to (and serialise as) their notation."""

    SWAP = "swap"
    RESIGN = "resign"


SWAP = HexAction.SWAP
RESIGN = HexAction.RESIGN
HexMove = Cell | HexAction

_CHARS = {EMPTY: ".", BLACK: "B", WHITE: "W"}
_BAD_MOVE = "expected a cell like 'a1' (letter = row, number = 1-based column), 'swap' or 'resign'"


class HexState:
    """One position. Treat as immutable: nothing in hexarena writes to a state after ``play`` built it.

    ``_cells`` (colours per flat index plus the four edge nodes) and ``_parent`` (a union-find over the same
    nodes: bytes up to 15x15, so copying it per move is a memcpy) are private arrays owned by this state and
    never modified after construction; ``play`` copies them. ``winner`` is a seat, ``swapped`` says whether
    seat 0 plays White.
    """

    __slots__ = (
        "_cells",
        "_geo",
        "_parent",
        "hash",
        "last",
        "ply",
        "size",
        "swap",
        "swapped",
        "termination",
        "winner",
    )

    size: int
    swap: bool
    _geo: Geometry
    _cells: bytearray
    _parent: bytearray | array[int]
    ply: int
    swapped: bool
    last: HexMove | None
    winner: Seat | None
    termination: Termination | None
    hash: int

    @property
    def cells(self) -> bytes:
        """Colour per flat cell index (``row * size + col``): 0 empty, 1 Black, 2 White."""
        return bytes(self._cells[: self.size * self.size])

    def colour_of(self, seat: Seat) -> int:
        """BLACK or WHITE: the colour ``seat`` plays in this position."""
        return BLACK if (seat == 0) != self.swapped else WHITE

    def _key(self) -> tuple[Any, ...]:
        return (self.size, self.swap, bytes(self._cells), self.ply, self.swapped, self.winner, self.termination)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HexState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"HexState(size={self.size}, ply={self.ply}, board={HexGame.render(self)!r})"


class HexGame(RuleGame[HexState, HexMove]):
    """The Hex rules. Stateless; one shared instance is registered as ``hex``."""

    name: ClassVar[str] = "hex"
    title: ClassVar[str] = "Hex"
    seat_names: ClassVar[tuple[str, str]] = ("black", "white")
    default_clock: ClassVar[tuple[str, float, float]] = ("incremental", 600.0, 5.0)  # the lobby's preset for the game
    board_module: ClassVar[str | None] = "hexarena:web/js/boards/hex.js"  # the web UI's board
    params: ClassVar[tuple[Param, ...]] = (
        Param(
            "size",
            int,
            11,
            "cells along each edge: larger boards make longer, deeper games",
            1,
            MAX_SIZE,
            label="Board size",
        ),
        Param(
            "swap",
            bool,
            True,
            "the second player may take over the first stone, so the first move can't be too strong",
            label="Swap rule",
        ),
    )

    # -- construction -------------------------------------------------------------------------------------

    def new(self, **params: object) -> HexState:
        p = self.validate_params(params)
        s = HexState.__new__(HexState)
        s.size = p["size"]
        s.swap = p["swap"]
        s._geo = geo = geometry(s.size)
        s._cells = bytearray(geo.empty_cells)
        s._parent = geo.empty_parent[:]
        s.ply = 0
        s.swapped = False
        s.last = None
        s.winner = None
        s.termination = None
        s.hash = 0
        return s

    def setup_position(
        self, params: Mapping[str, object], stones: Sequence[tuple[object, Seat]], to_move: Seat, *, draft: bool = False
    ) -> HexState:
        """Stones on cells (``[["b2", 0], ...]``: seat 0's stones are black, as at the start) with ``to_move`` to
        play (``core.game.setup_refusal``). Black has as many stones as White with Black to move, one more with
        White to move, and the position counts as that many moves into a game. It is played without the swap rule
        (its ``params_of`` say ``swap: False``) whatever ``params`` say: the swap answers the first player's first
        move, and set-up stones are no moves (as SGF's setup stones are not); with it, the one stone left after a
        real swap, set up again, could be swapped a second time. The swap decision itself is analysed from the
        stone played as a first move. A colour already joining its edges is refused (the game is over).
        ``draft``: any stones, drawn only."""
        state = self.new(**{**params, "swap": False})
        n = state.size
        seats: dict[int, Seat] = {}
        for k, (cell, seat) in enumerate(stones):
            r, c = setup_cell(self, cell, k)
            if not (0 <= r < n and 0 <= c < n):
                raise ConfigError(f"stone {k + 1}: cell {cell!r} is off the {n}x{n} board")
            if r * n + c in seats:
                raise ConfigError(f"cell {cell!r} is given twice in the setup: keep one stone on it")
            seats[r * n + c] = seat
        blacks = sorted(i for i, seat in seats.items() if seat == 0)
        whites = sorted(i for i, seat in seats.items() if seat == 1)
        if draft:  # drawn only: the colours without the union-find a real position keeps
            for i in blacks:
                state._cells[i] = BLACK
            for i in whites:
                state._cells[i] = WHITE
            state.ply = len(seats)
            return state
        check_setup_counts(self, (len(blacks), len(whites)), to_move, {0: 0, 1: 1})
        order = [i for pair in zip(blacks, [*whites, -1], strict=False) for i in pair if i >= 0]
        for i in order:  # alternate colours, as ``_place`` gives them, so the union-find is a game's
            state = _place(state, i, state._geo.cells[i])
            if state.termination is not None:
                colour = COLOUR_NAMES[state.colour_of(state.winner or 0)]
                raise ConfigError(
                    f"{colour} already connects its edges in this setup: the game is over, so there is nothing to "
                    "analyse; remove a stone of the chain"
                )
        state.last = None  # no stone of a setup is the last move
        return state

    def setup_of(self, state: HexState) -> tuple[list[tuple[object, Seat]], Seat]:
        """The position as ``setup_position`` takes it: black stones as the first seat's, white as the second's,
        and the colour to move as the seat playing it without a swap (after a swap seat 0 plays white, so a
        set-up copy has the same stones and the same colour to move, its seats named as at the start)."""
        n, cells = state.size, state._cells
        stones: list[tuple[object, Seat]] = [
            (format_uais_cell(divmod(i, n)), 0 if cells[i] == BLACK else 1) for i in range(n * n) if cells[i]
        ]
        blacks = sum(1 for _, seat in stones if seat == 0)
        return stones, 0 if blacks == len(stones) - blacks else 1

    def params_of(self, state: HexState) -> dict[str, ParamValue]:
        return {"size": state.size, "swap": state.swap}

    # -- rules --------------------------------------------------------------------------------------------

    def to_move(self, state: HexState) -> Seat | None:
        return None if state.termination is not None else state.ply % 2

    def ply(self, state: HexState) -> int:
        return state.ply

    def _swap_allowed(self, state: HexState) -> bool:
        return state.swap and state.ply == 1 and state.termination is None

    def legal(self, state: HexState) -> list[HexMove]:
        """Every empty cell in row-major order, then ``SWAP`` when it is allowed. Empty once the game is over."""
        if state.termination is not None:
            return []
        cells = state._cells
        out: list[HexMove] = [c for i, c in enumerate(state._geo.cells) if cells[i] == EMPTY]
        if self._swap_allowed(state):
            out.append(SWAP)
        return out

    def random_move(self, state: HexState, rng: random.Random) -> HexMove:
        """Uniform over ``legal(state)``; rejection-samples empty cells so a playout move costs O(1) on average."""
        if state.termination is not None:
            raise ValueError("no legal move in this position")
        if state.ply == 1 and state.swap:
            return rng.choice(self.legal(state))
        geo = state._geo
        n2 = geo.n2
        cells = state._cells
        rnd = rng.random
        while True:
            i = int(rnd() * n2)
            if not cells[i]:
                return geo.cells[i]

    def play(self, state: HexState, move: HexMove) -> HexState:
        if state.termination is not None:
            raise IllegalMove(f"move {self._show(move)!r}: the game is over")
        if type(move) is tuple and len(move) == 2:
            r, c = move
            size = state.size
            if type(r) is not int or type(c) is not int:
                raise InvalidMove(f"move {move!r}: a cell is a pair of ints")
            if not (0 <= r < size and 0 <= c < size):
                raise IllegalMove(f"cell {self._show(move)!r} is off the {size}x{size} board")
            i = r * size + c
            if state._cells[i]:
                raise IllegalMove(f"cell {format_uais_cell(move)!r} is occupied")
            return _place(state, i, move)
        if move == SWAP and isinstance(move, str):
            if not state.swap:
                raise IllegalMove(
                    "'swap' is not allowed: the swap rule is off in this game (a set-up position is played without "
                    "it: its stones are no first move to swap)"
                )
            if state.ply != 1:
                raise IllegalMove("'swap' is only allowed as the second player's first move")
            return self._derive(state, SWAP, swapped=True)
        if move == RESIGN and isinstance(move, str):
            out = self._derive(state, RESIGN, swapped=state.swapped)
            out.winner = 1 - state.ply % 2
            out.termination = Termination.RESIGN
            return out
        raise InvalidMove(f"move {move!r}: {_BAD_MOVE}")

    def _derive(self, state: HexState, last: HexMove, swapped: bool) -> HexState:
        s = HexState.__new__(HexState)
        s.size = state.size
        s.swap = state.swap
        s._geo = state._geo
        s._cells = state._cells  # shared: neither state ever writes to it
        s._parent = state._parent
        s.ply = state.ply + 1
        s.swapped = swapped
        s.last = last
        s.winner = None
        s.termination = None
        s.hash = state.hash ^ (state._geo.zswap if swapped != state.swapped else 0)
        return s

    def outcome(self, state: HexState) -> Outcome | None:
        if state.termination is None or state.winner is None:
            return None
        colour = state.colour_of(state.winner)
        if state.termination is Termination.RESIGN:
            loser = COLOUR_NAMES[state.colour_of(1 - state.winner)]
            return Outcome(state.winner, Termination.RESIGN, f"{loser} resigned")
        edges = "top and bottom" if colour == BLACK else "left and right"
        return Outcome(state.winner, Termination.NORMAL, f"{COLOUR_NAMES[colour]} connected {edges}")

    # -- notation -----------------------------------------------------------------------------------------

    def parse(self, text: str) -> HexMove:
        """UAIS notation: ``a1`` (letter = row from the top, number = 1-based column), ``swap``, ``resign``."""
        if not isinstance(text, str):
            raise InvalidMove(f"move {text!r}: {_BAD_MOVE}")
        t = text.strip().lower()
        if t == "swap":
            return SWAP
        if t == "resign":
            return RESIGN
        cell = parse_uais_cell(t)
        if cell is None:
            raise InvalidMove(f"cannot read hex move {text!r}: {_BAD_MOVE}")
        return cell

    def format(self, move: HexMove) -> str:
        if isinstance(move, HexAction):
            return move.value
        return format_uais_cell(move)

    @staticmethod
    def to_htp(move: HexMove) -> str:
        """HTP/GTP notation (letter = column, number = row); ``SWAP`` -> ``swap-pieces``."""
        if move == SWAP and isinstance(move, str):
            return "swap-pieces"
        if move == RESIGN and isinstance(move, str):
            return "resign"
        assert isinstance(move, tuple)
        return format_htp_cell(move)

    @staticmethod
    def from_htp(text: str) -> HexMove:
        """Read HTP notation: ``c5`` = column c, row 5; ``swap-pieces``/``swap-sides``/``swap``; ``resign``.

        Both HTP swap spellings map to ``SWAP``; note that ``swap-pieces`` engines keep colours and reflect the
        stone (see ``geometry.mirror``), so an HTP adapter must translate positions, not just words.
        """
        t = text.strip().lower() if isinstance(text, str) else ""
        if t in ("swap-pieces", "swap-sides", "swap"):
            return SWAP
        if t == "resign":
            return RESIGN
        cell = parse_htp_cell(t)
        if cell is None:
            raise InvalidMove(f"cannot read HTP move {text!r}: expected e.g. 'c5' (column c, row 5)")
        return cell

    @staticmethod
    def to_htp_frame(state: HexState, move: HexMove) -> str:
        """``move``, about to be played in ``state``, as an HTP engine with ``swap-pieces`` semantics sees it.

        Such engines (MoHex, HexGui, OpenSpiel) keep seat 0 Black and seat 1 White for the whole game and
        answer a swap by reflecting the opening stone. After hexarena's colour-exchanging ``SWAP`` their board
        is ours reflected in the long diagonal, so every later cell is mirrored. Send it as
        ``play <colour> <text>`` with the seat's colour in that frame: ``b`` for seat 0, ``w`` for seat 1.
        """
        if isinstance(move, HexAction):
            return HexGame.to_htp(move)
        return format_htp_cell(mirror(move) if state.swapped else move)

    @staticmethod
    def from_htp_frame(state: HexState, text: str) -> HexMove:
        """Read an HTP engine's move (e.g. a ``genmove`` answer) for ``state``: the inverse of ``to_htp_frame``."""
        move = HexGame.from_htp(text)
        if isinstance(move, tuple) and state.swapped:
            return mirror(move)
        return move

    def side_name(self, state: HexState, seat: Seat) -> str:
        """The colour ``seat`` plays now: after a swap seat 0 plays white (``seat_names`` are the initial ones)."""
        return COLOUR_NAMES[state.colour_of(seat)]

    def htp_colour(self, state: HexState, seat: Seat) -> str:
        """The HTP colour argument (``b`` / ``w``) of what ``seat`` plays now (the HTP and UAIS adapters')."""
        return "b" if state.colour_of(seat) == BLACK else "w"

    def battlebot_shape(self) -> BattlebotShape[HexState, HexMove]:
        from hexarena.games.hex.battlebot import shape

        return shape(self)

    def legal_view(self, state: HexState) -> JsonObject:
        """``kind: cells`` with (row, col) cells; ``swap`` is in ``extra``."""
        if self.to_move(state) is None:
            return {"kind": "none", "moves": []}
        return cells_view(self, state)

    def _show(self, move: object) -> str:
        if isinstance(move, tuple) and len(move) == 2 and all(type(x) is int and x >= 0 for x in move):
            r, c = move
            if r < 26:
                return format_uais_cell((r, c))
        return repr(move) if not isinstance(move, str) else move

    # -- views --------------------------------------------------------------------------------------------

    @staticmethod
    def rows(state: HexState) -> list[str]:
        """The board as one string per row, top first: ``.`` empty, ``B`` Black, ``W`` White."""
        n, cells = state.size, state._cells
        return ["".join(_CHARS[cells[r * n + c]] for c in range(n)) for r in range(n)]

    @staticmethod
    def render(state: HexState) -> str:
        """The UAIS ``show_board`` reply: rows joined and terminated by ``|``, e.g. ``...|B.B|.W.|``."""
        return "".join(row + "|" for row in HexGame.rows(state))

    @staticmethod
    def winning_chain(state: HexState) -> list[Cell]:
        """The winner's shortest chain of stones from one of its edges to the other, in order (empty unless the
        game was won by connecting). Shortest, so the picture shows the connection, not every stone joined to it.
        """
        if state.termination is not Termination.NORMAL or state.winner is None:
            return []
        n, cells = state.size, state._cells
        colour = state.colour_of(state.winner)
        top, bottom, left, right = edge_nodes(n)
        start, goal = (top, bottom) if colour == BLACK else (left, right)
        nbs = neighbours(n)
        came: dict[int, int] = {}
        queue: deque[int] = deque()
        for i in range(n * n):
            if cells[i] == colour and start in nbs[i]:
                came[i] = -1
                queue.append(i)
        while queue:  # breadth first over the winner's stones: the first to touch the goal edge ends a shortest chain
            i = queue.popleft()
            if goal in nbs[i]:
                chain = []
                while i >= 0:
                    chain.append(divmod(i, n))
                    i = came[i]
                return chain[::-1]
            for j in nbs[i]:
                if j < n * n and j not in came and cells[j] == colour:
                    came[j] = i
                    queue.append(j)
        return []

    def to_json(self, state: HexState) -> JsonObject:
        last = state.last
        return state_view(
            self,
            state,
            size=state.size,
            swap=state.swap,
            ply=state.ply,
            swapped=state.swapped,
            colours=[COLOUR_NAMES[state.colour_of(0)], COLOUR_NAMES[state.colour_of(1)]],
            board=self.rows(state),
            lastMove=None if last is None else self.format(last),
            winner=state.winner,
            winning=[format_uais_cell(c) for c in self.winning_chain(state)],
        )

    @staticmethod
    def to_board(state: HexState) -> HexBoard:
        """A mutable ``HexBoard`` holding this position's stones (for bots). Undo reaches only this root.

        Only for positions that are not over: stones are re-placed in an arbitrary order, which could
        complete a connection before the last one.
        """
        if state.termination is not None:
            raise ValueError("to_board needs a position that is not over")
        board = HexBoard(state.size)
        cells = state._cells
        blacks = [i for i in range(state.size * state.size) if cells[i] == BLACK]
        whites = [i for i in range(state.size * state.size) if cells[i] == WHITE]
        for k in range(max(len(blacks), len(whites))):  # alternate so the colour to play stays right
            if k < len(blacks):
                board.place(blacks[k], BLACK)
            if k < len(whites):
                board.place(whites[k], WHITE)
        return board


def _place(state: HexState, i: int, move: Cell) -> HexState:
    """Copy the arrays, put the stone, union it with its same-coloured neighbours (edge nodes included)
    and test the colour's two edge nodes. Finds halve their paths; that writes only into the new copy."""
    geo = state._geo
    colour = WHITE if (state.ply - state.swapped) & 1 else BLACK  # stones alternate colours; a swap is no stone
    cells = state._cells[:]
    cells[i] = colour
    parent = state._parent[:]
    root = i
    for nb in geo.nbs[i]:
        if cells[nb] == colour:
            r = nb
            while parent[r] != r:
                parent[r] = parent[parent[r]]
                r = parent[r]
            if r != root:
                parent[root] = r
                root = r
    # A new win must run through the new stone: look for the second edge only when the first one is in
    # the stone's component.
    a, b = (geo.top, geo.bottom) if colour == BLACK else (geo.left, geo.right)
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    won = False
    if a == root:
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        won = b == root
    s = HexState.__new__(HexState)
    s.size = state.size
    s.swap = state.swap
    s._geo = geo
    s._cells = cells
    s._parent = parent
    s.ply = state.ply + 1
    s.swapped = state.swapped
    s.last = move
    s.hash = state.hash ^ (geo.zblack[i] if colour == BLACK else geo.zwhite[i])
    if won:
        s.winner = state.ply % 2
        s.termination = Termination.NORMAL
    else:
        s.winner = None
        s.termination = None
    return s


def _default_game() -> HexGame:
    """The registered rules object: the C-accelerated subclass when built (see accel.py), else this reference."""
    from hexarena.games.hex.accel import make_game

    return make_game()


GAME = _default_game()

if TYPE_CHECKING:  # mypy checks the engine against the Game protocol here
    _CHECKED: Game[HexState, HexMove] = GAME
