"""Hivemaker's game helpers (``game/game.py``) under the same names, implemented on hexarena's HTTTX engine.

They keep Hivemaker's list-of-``Cell`` signatures so existing bots run unchanged, but the work is done by the
engine's incremental ``Board`` (legal cells come from its maintained frontier instead of a scan of every
hexagon around every stone). ``board_of`` exposes that ``Board`` for bots that want the fast path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from hexarena_sdk.htttx.board import Board, O, X
from hexarena_sdk.htttx.board import hex_distance as _hex_distance
from hexarena_sdk.models import Cell, Coord, GameStatus, Player

DIRECTIONS = [(1, 0), (0, 1), (1, -1)]

SEAT_OF = {Player.X: X, Player.O: O}


def hex_distance(q1: int, r1: int, q2: int, r2: int) -> int:
    """Steps between two cells: max(|dq|, |dr|, |dq+dr|)."""
    return _hex_distance(q1, r1, q2, r2)


def board_of(cells: Iterable[Cell], view_distance: int = 8, win_distance: int = 6) -> Board:
    """An engine ``Board`` holding ``cells`` (any arrangement, as a free setup may be).

    A board that already contains a winning line stops at the first winning stone (the engine refuses stones
    after a win); callers that need every stone of such a board use the cell list itself.
    """
    board = Board(view_distance=view_distance, win_distance=win_distance)
    for c in cells:
        if board.winner is not None:
            break
        if (c.q, c.r) in board.cells:
            continue
        board.setup(c.q, c.r, SEAT_OF[Player(c.p)])
    return board


def board_of_cells(cells: Mapping[tuple[int, int], Player], view_distance: int = 8, win_distance: int = 6) -> Board:
    """``board_of`` for a ``(q, r) -> Player`` map (the SDK's own board), without building ``Cell`` models."""
    board = Board(view_distance=view_distance, win_distance=win_distance)
    seat_of = SEAT_OF
    for (q, r), p in cells.items():
        if board.winner is not None:
            break
        board.setup(q, r, seat_of[p])
    return board


def valid_placement_cells(cells: list[Cell], view_distance: int) -> list[Coord]:
    """Every empty cell within ``view_distance`` of a stone; ``[(0,0)]`` on an empty board (as Hivemaker)."""
    board = board_of(cells, view_distance, win_distance=1 << 30)  # never stops early on a won board
    if not board.stones:
        return [Coord(q=0, r=0)]
    return [Coord.model_construct(q=q, r=r) for q, r in board.legal_cells()]


def is_valid_placement(cells: list[Cell], coord: Coord, view_distance: int) -> tuple[bool, str]:
    """Hivemaker's check, with its reasons: ``(ok, reason)``."""
    occupied = {(c.q, c.r) for c in cells}
    if (coord.q, coord.r) in occupied:
        return False, f"({coord.q},{coord.r}) already occupied"
    if occupied and not any(hex_distance(q, r, coord.q, coord.r) <= view_distance for q, r in occupied):
        return False, f"({coord.q},{coord.r}) out of view range"
    return True, ""


def place_piece(cells: list[Cell], coord: Coord, player: Player) -> list[Cell]:
    """A new list with ``player``'s stone added on ``coord``; ``cells`` is not mutated."""
    return [*cells, Cell(q=coord.q, r=coord.r, p=player)]


def check_win(cells: list[Cell], player: Player, win_distance: int) -> bool:
    """True if ``player`` has ``win_distance`` or more in a row on one of the three axes."""
    owned = {(c.q, c.r) for c in cells if c.p == player}
    if win_distance <= 1:
        return bool(owned)
    for q, r in owned:
        for dq, dr in DIRECTIONS:
            if (q - dq, r - dr) in owned:
                continue  # only count each line from its first stone
            length, nq, nr = 1, q + dq, r + dr
            while (nq, nr) in owned:
                length += 1
                if length >= win_distance:
                    return True
                nq += dq
                nr += dr
    return False


def evaluate_status(cells: list[Cell], win_distance: int) -> GameStatus:
    if check_win(cells, Player.X, win_distance):
        return GameStatus.X_WINS
    if check_win(cells, Player.O, win_distance):
        return GameStatus.O_WINS
    return GameStatus.IN_PROGRESS
