"""Noughts and crosses (tic-tac-toe), registered as ``tictactoe`` with the battlebot wire id
``noughtsandcrosses`` as an alias.

Seat 0 plays X and moves first; three in a row wins; a full board without a line is a draw.
Moves are ``(row, col)`` 0-based tuples. Notation (``parse``/``format``) follows hexarena's Hex convention so
that both grid games read alike: letter = row (``a`` top), number = 1-based column; ``b2`` is the centre,
``a3`` the top-right corner. The battlebot JSON shapes live in ``battlebot.py``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from hexarena.core.battlebot import BattlebotShape
from hexarena.core.errors import ConfigError, IllegalMove, InvalidMove
from hexarena.core.game import Game, Param, ParamValue, RuleGame, cells_view, check_setup_counts, setup_cell, state_view
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Outcome, Seat, Termination

Move = tuple[int, int]
EMPTY, X, O = 0, 1, 2  # noqa: E741  (the mark is called O)
MARKS = {X: "X", O: "O"}
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
_LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if i in line) for i in range(9)
)
_CELLS: tuple[Move, ...] = tuple((r, c) for r in range(3) for c in range(3))
_BAD = "expected a cell 'a1'..'c3' (letter = row a-c, number = column 1-3)"


@dataclass(frozen=True, slots=True)
class TicTacToeState:
    """``board`` holds 9 marks row-major (0 empty, 1 X, 2 O); ``winner`` is a seat once decided."""

    board: tuple[int, ...] = (EMPTY,) * 9
    ply: int = 0
    over: bool = False
    winner: Seat | None = None
    line: tuple[int, int, int] | None = None


def winning_line(board: tuple[int, ...], i: int) -> tuple[int, int, int] | None:
    """The line through cell ``i`` completed by the mark on ``i``, if any (only lines through the last move)."""
    m = board[i]
    for line in _LINES_THROUGH[i]:
        a, b, c = line
        if board[a] == m and board[b] == m and board[c] == m:
            return line
    return None


class TicTacToeGame(RuleGame[TicTacToeState, Move]):
    """The rules; stateless, one shared instance."""

    name: ClassVar[str] = "tictactoe"
    title: ClassVar[str] = "Noughts and crosses"
    seat_names: ClassVar[tuple[str, str]] = ("X", "O")
    default_clock: ClassVar[tuple[str, float, float]] = ("match", 60.0, 0.0)  # the lobby's preset for the game
    aliases: ClassVar[tuple[str, ...]] = ("noughtsandcrosses", "noughts_and_crosses", "tic_tac_toe")
    board_module: ClassVar[str | None] = "hexarena:web/js/boards/tictactoe.js"  # the web UI's board
    params: ClassVar[tuple[Param, ...]] = ()

    def new(self, **params: object) -> TicTacToeState:
        self.validate_params(params)
        return TicTacToeState()

    def setup_position(
        self, params: Mapping[str, object], stones: Sequence[tuple[object, Seat]], to_move: Seat, *, draft: bool = False
    ) -> TicTacToeState:
        """Marks on cells (``[["b2", 0], ...]``) with ``to_move`` to play (``core.game.setup_refusal``): X has as
        many marks as O with X to move, one more with O to move; a line of three or a full board is refused (a
        finished position has nothing to analyse). ``draft``: any marks, for the editor to draw."""
        self.validate_params(params)
        board = [EMPTY] * 9
        for k, (cell, seat) in enumerate(stones):
            r, c = setup_cell(self, cell, k)
            if board[r * 3 + c] != EMPTY:
                raise ConfigError(f"cell {self.format((r, c))!r} is given twice in the setup: keep one mark on it")
            board[r * 3 + c] = X if seat == 0 else O
        ply = sum(1 for m in board if m != EMPTY)
        state = TicTacToeState(tuple(board), ply)
        if draft:
            return state
        check_setup_counts(self, (board.count(X), board.count(O)), to_move, {0: 0, 1: 1})
        for i in range(9):
            line = winning_line(state.board, i) if board[i] != EMPTY else None
            if line is not None:
                cells = " ".join(self.format(_CELLS[j]) for j in line)
                raise ConfigError(
                    f"{MARKS[board[i]]} already has three in a row ({cells}): the game is over in this setup, "
                    "so there is nothing to analyse; remove a mark of the line"
                )
        if ply == 9:
            raise ConfigError("the board is full: the game is over in this setup; remove a mark to analyse it")
        return state

    def setup_of(self, state: TicTacToeState) -> tuple[list[tuple[object, Seat]], Seat]:
        """The position as ``setup_position`` takes it: its marks and the seat whose turn it is by the counts."""
        stones: list[tuple[object, Seat]] = [
            (self.format(_CELLS[i]), 0 if m == X else 1) for i, m in enumerate(state.board) if m != EMPTY
        ]
        return stones, state.ply % 2

    def params_of(self, state: TicTacToeState) -> dict[str, ParamValue]:
        return {}

    def to_move(self, state: TicTacToeState) -> Seat | None:
        return None if state.over else state.ply % 2

    def ply(self, state: TicTacToeState) -> int:
        return state.ply

    def legal(self, state: TicTacToeState) -> list[Move]:
        if state.over:
            return []
        return [_CELLS[i] for i in range(9) if state.board[i] == EMPTY]

    def random_move(self, state: TicTacToeState, rng: random.Random) -> Move:
        moves = self.legal(state)
        if not moves:
            raise ValueError("no legal move in this position")
        return rng.choice(moves)

    def play(self, state: TicTacToeState, move: Move) -> TicTacToeState:
        if not (type(move) is tuple and len(move) == 2 and all(type(x) is int for x in move)):
            raise InvalidMove(f"move {move!r}: a cell is a (row, col) pair of ints")
        if state.over:
            raise IllegalMove(f"move {move!r}: the game is over")
        r, c = move
        if not (0 <= r < 3 and 0 <= c < 3):
            raise IllegalMove(f"cell {move!r} is off the 3x3 board")
        i = r * 3 + c
        if state.board[i] != EMPTY:
            raise IllegalMove(f"cell {self.format(move)!r} is occupied")
        mark = X if state.ply % 2 == 0 else O
        board = (*state.board[:i], mark, *state.board[i + 1 :])
        line = winning_line(board, i)
        ply = state.ply + 1
        if line is not None:
            return TicTacToeState(board, ply, True, state.ply % 2, line)
        return TicTacToeState(board, ply, ply == 9, None, None)

    def outcome(self, state: TicTacToeState) -> Outcome | None:
        if not state.over:
            return None
        if state.winner is None:
            return Outcome(None, Termination.NORMAL, "the board is full without a line")
        mark = "X" if state.winner == 0 else "O"
        return Outcome(state.winner, Termination.NORMAL, f"{mark} made three in a row")

    def parse(self, text: str) -> Move:
        if not isinstance(text, str):
            raise InvalidMove(f"move {text!r}: {_BAD}")
        t = text.strip().lower()
        if len(t) != 2 or t[0] not in "abc" or t[1] not in "123":
            raise InvalidMove(f"cannot read noughts-and-crosses move {text!r}: {_BAD}")
        return ord(t[0]) - 97, int(t[1]) - 1

    def format(self, move: Move) -> str:
        r, c = move
        if not (0 <= r < 3 and 0 <= c < 3):
            raise InvalidMove(f"move {move!r} has no notation: off the 3x3 board")
        return f"{'abc'[r]}{c + 1}"

    def rows(self, state: TicTacToeState) -> list[list[str]]:
        """3x3 of ``""``/``"X"``/``"O"`` (the battlebot board shape)."""
        return [[MARKS.get(state.board[r * 3 + c], "") for c in range(3)] for r in range(3)]

    def render(self, state: TicTacToeState) -> str:
        """The 3x3 grid for a terminal, rows and columns labelled as the notation names them (``b2``)."""
        rows = self.rows(state)
        lines = ["    1   2   3"]
        for r, row in enumerate(rows):
            if r:
                lines.append("   ---+---+---")
            lines.append(f"{'abc'[r]}   " + " | ".join(mark or " " for mark in row))
        return "\n".join(lines)

    def to_json(self, state: TicTacToeState) -> JsonObject:
        return state_view(
            self,
            state,
            board=self.rows(state),
            ply=state.ply,
            winner=state.winner,
            line=list(state.line) if state.line is not None else None,
        )

    def battlebot_shape(self) -> BattlebotShape[TicTacToeState, Move]:
        from hexarena.games.tictactoe.battlebot import shape

        return shape(self)

    def legal_view(self, state: TicTacToeState) -> JsonObject:
        """``kind: cells``: the empty (row, col) cells."""
        if self.to_move(state) is None:
            return {"kind": "none", "moves": []}
        return cells_view(self, state)


GAME = TicTacToeGame()

if TYPE_CHECKING:  # mypy checks the engine against the Game protocol here
    _CHECKED: Game[TicTacToeState, Move] = GAME
