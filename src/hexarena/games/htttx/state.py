"""Immutable HTTTX states built on one shared mutable Board per game tree.

Why: the referee wants values it can keep and compare; bots want millions of cheap moves. Copying the board per
move would make a game O(n^2), so every state of one game tree shares a ``_Cursor``: a single Board plus the
state it is currently positioned at. Reading a state (``cells``, ``board()``, ``play``) first *seeks* the board to
that state by undoing up to the common ancestor and replaying down, so linear play (the referee) costs O(1) per
move and sibling branches cost O(distance in the tree). The scalar facts of a state (to move, winner, hash, turns)
are stored in the state itself, so nothing that happens to the shared board can change what a state reports.

A lock makes the seek-and-use step atomic, so states may be shared between threads (e.g. a bot thread analysing
the position the referee holds).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from hexarena.games.htttx.board import Board, Coord

Move = tuple[Coord, Coord]


class _Cursor:
    """The board shared by one game tree and the state it is positioned at."""

    __slots__ = ("at", "board", "lock")

    def __init__(self, board: Board, at: HtttxState | None) -> None:
        self.board = board
        self.at = at
        self.lock = threading.Lock()


@dataclass(frozen=True, eq=False)
class HtttxState:
    """One HTTTX position: an immutable value (equal states have equal params, stones, side to move and turns).

    ``turns`` counts 2-stone turns since the initial position (X's origin stone is not a turn); ``history``
    holds those turns as played (a turn whose first stone won keeps its ignored second stone).
    """

    view_distance: int
    win_distance: int
    turn_limit: int | None
    to_move_seat: int | None
    turns: int = 0
    winner: int | None = None
    win_line: tuple[Coord, ...] | None = None
    zobrist: int = 0
    #: the stones of the initial position, (q, r, seat) in placement order
    setup: tuple[tuple[int, int, int], ...] = ()
    parent: HtttxState | None = field(default=None, repr=False)
    last_move: Move | None = None
    #: stones the last move put on the board: 2, or 1 when its first stone won
    stones_added: int = 0
    _cursor: _Cursor | None = field(default=None, repr=False)
    _cells: Mapping[Coord, int] | None = field(default=None, repr=False)
    _history: tuple[Move, ...] | None = field(default=None, repr=False)
    #: the cells as ``to_json`` lists them, cached on the newest state viewed (see ``HtttxGame.cells_view``)
    _view: list[dict[str, Any]] | None = field(default=None, repr=False)

    # ----- derived views -----

    @property
    def cells(self) -> Mapping[Coord, int]:
        """Occupied cell -> seat, in placement order (a read-only snapshot, cached)."""
        cells = self._cells
        if cells is None:
            with self._cur.lock:
                cells = MappingProxyType(dict(self._seek().cells))
            object.__setattr__(self, "_cells", cells)
        return cells

    @property
    def stones(self) -> tuple[tuple[int, int, int], ...]:
        """(q, r, seat) of every stone in placement order."""
        return tuple((q, r, seat) for (q, r), seat in self.cells.items())

    @property
    def history(self) -> tuple[Move, ...]:
        """The turns played since the initial position."""
        hist = self._history
        if hist is None:
            chain: list[HtttxState] = []
            s: HtttxState | None = self
            base: tuple[Move, ...] = ()
            while s is not None:
                if s._history is not None:
                    base = s._history
                    break
                chain.append(s)
                s = s.parent
            hist = base + tuple(st.last_move for st in reversed(chain) if st.last_move is not None)
            object.__setattr__(self, "_history", hist)
        return hist

    @property
    def is_over(self) -> bool:
        return self.to_move_seat is None

    def board(self) -> Board:
        """A private mutable copy positioned at this state (for bots; changing it never affects the state)."""
        with self._cur.lock:
            return self._seek().copy()

    # ----- value semantics -----

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle/deepcopy as (params, setup, first mover, turns): the shared board and its lock stay behind
        and the copy gets a board of its own (Ray and multiprocessing ship states between processes)."""
        root = self
        while root.parent is not None:
            root = root.parent
        params = (self.view_distance, self.win_distance, self.turn_limit)
        return (_unpickle, (params, self.setup, root.to_move_seat, self.history, root.turns))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HtttxState):
            return NotImplemented
        if self is other:
            return True
        return (
            self.zobrist == other.zobrist
            and self.to_move_seat == other.to_move_seat
            and self.turns == other.turns
            and self.winner == other.winner
            and self.view_distance == other.view_distance
            and self.win_distance == other.win_distance
            and self.turn_limit == other.turn_limit
            and dict(self.cells) == dict(other.cells)
        )

    def __hash__(self) -> int:
        return hash((self.zobrist, self.to_move_seat, self.turns))

    # ----- the shared board -----

    @property
    def _cur(self) -> _Cursor:
        cur = self._cursor
        assert cur is not None, "HtttxState built without a board; use HtttxGame.new or from_cells"
        return cur

    def _seek(self) -> Board:
        """Position the shared board at this state (caller holds the cursor lock) and return it."""
        cur = self._cur
        board = cur.board
        a = cur.at
        if a is self:
            return board
        assert a is not None, "a released position (HtttxGame.release) is not used again"
        down: list[HtttxState] = []
        b: HtttxState = self
        while a is not b:
            if a.turns >= b.turns:
                for _ in range(a.stones_added):
                    board.undo()
                assert a.parent is not None
                a = a.parent
            else:
                down.append(b)
                assert b.parent is not None
                b = b.parent
        for s in reversed(down):
            assert s.last_move is not None and b.to_move_seat is not None
            (q1, r1), (q2, r2) = s.last_move
            seat = b.to_move_seat
            if not board.place(q1, r1, seat):
                board.place(q2, r2, seat)
            b = s
        cur.at = self
        return board


def release(state: HtttxState) -> None:
    """Let a game's positions go: the shared board's cursor and the position it is at refer to each other (every
    position refers to the cursor), so without this only the cyclic collector frees a game's positions and its
    board (a few hundred KB at 60 stones). The board goes at once, whoever still holds a position of it (a
    player's match info, a finished task's traceback); none of them is used afterwards."""
    cur = getattr(state, "_cursor", None)  # a board-only stand-in (the SDK's) has none
    if cur is not None:
        with cur.lock:
            cur.at = None
            if hasattr(cur, "board"):
                del cur.board  # a released position has no board: using one fails at once


def make_child(parent: HtttxState, move: Move, board: Board, added: int) -> HtttxState:
    """The state after ``move`` (already applied to ``board``, which is the parent's cursor board).

    Built with ``object.__new__`` and one ``__dict__`` update: a frozen dataclass ``__init__`` sets each field
    through ``object.__setattr__``, which would cost more than the move itself.
    """
    turns = parent.turns + 1
    winner = board.winner
    seat = parent.to_move_seat
    assert seat is not None
    limit = parent.turn_limit
    if winner is not None or (limit is not None and turns >= limit):
        to_move: int | None = None
    else:
        to_move = 1 - seat
    child = object.__new__(HtttxState)
    d: dict[str, Any] = child.__dict__
    d.update(
        view_distance=parent.view_distance,
        win_distance=parent.win_distance,
        turn_limit=limit,
        to_move_seat=to_move,
        turns=turns,
        winner=winner,
        win_line=board.win_line,
        zobrist=board.zobrist,
        setup=parent.setup,
        parent=parent,
        last_move=move,
        stones_added=added,
        _cursor=parent._cursor,
        _cells=None,
        _history=None,
        _view=None,
    )
    return child


def make_root(
    board: Board,
    to_move: int | None,
    view_distance: int,
    win_distance: int,
    turn_limit: int | None,
    turns: int = 0,
) -> HtttxState:
    """A root state owning ``board`` (which holds the setup stones), ``turns`` turns into the game."""
    cur = _Cursor(board, None)
    over = board.winner is not None or (turn_limit is not None and turns >= turn_limit)
    state = HtttxState(
        view_distance=view_distance,
        win_distance=win_distance,
        turn_limit=turn_limit,
        to_move_seat=None if over else to_move,
        turns=turns,
        winner=board.winner,
        win_line=board.win_line,
        zobrist=board.zobrist,
        setup=tuple(board.stones),
        _cursor=cur,
    )
    cur.at = state
    return state


def _unpickle(
    params: tuple[int, int, int | None],
    setup: tuple[tuple[int, int, int], ...],
    to_move: int | None,
    history: tuple[Move, ...],
    root_turns: int = 0,
) -> HtttxState:
    from hexarena.games.htttx.game import HTTTX

    view, win, limit = params
    if setup == ((0, 0, 0),) and to_move == 1 and root_turns == 0:
        state = HTTTX.new(view_distance=view, win_distance=win, turn_limit=limit)
    else:
        state = HTTTX.from_cells(
            setup,
            0 if to_move is None else to_move,
            turns=root_turns,
            view_distance=view,
            win_distance=win,
            turn_limit=limit,
        )
    for move in history:
        state = HTTTX.play(state, move)
    return state
