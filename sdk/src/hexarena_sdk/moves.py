"""Turning what a bot returned into a wire move, checking it, and the fallback move the SDK plays for a bot.

A bot's answer is checked on the engine before it is sent: two distinct empty cells, each within
``view_distance`` of a stone when it is placed. An answer that fails (or a bot that raised, or ran past its
soft deadline) is replaced by the fallback move and logged with the reason, so the game goes on and the bot
author sees what went wrong in the log rather than a lost game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hexarena_sdk.bot import MoveResult, PositionEvaluation
from hexarena_sdk.errors import IllegalMove
from hexarena_sdk.game import SEAT_OF, board_of, board_of_cells
from hexarena_sdk.htttx.board import Board
from hexarena_sdk.htttx.heuristic import choose_on_board
from hexarena_sdk.models import Cell, Coord, Match, Player
from hexarena_sdk.session import Cells
from hexarena_sdk.wire import htttx as wire


def _coord(value: Any) -> Coord:
    if isinstance(value, Coord):
        return value
    if isinstance(value, Cell | wire.Coord):
        return Coord(q=value.q, r=value.r)
    if isinstance(value, dict):
        return Coord(q=value["q"], r=value["r"])
    if isinstance(value, Sequence) and len(value) == 2:
        return Coord(q=value[0], r=value[1])
    raise TypeError(f"not a coordinate: {value!r}")


def _pair(value: Any) -> tuple[Coord, Coord]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise TypeError(f"a move is two coordinates, got {value!r}")
    return _coord(value[0]), _coord(value[1])


def normalise(value: Any) -> MoveResult:
    """Accept ``(Coord, Coord)``, ``MoveResult``, or pairs of ``(q, r)`` / dicts; raise TypeError otherwise."""
    if isinstance(value, MoveResult):
        return MoveResult(_pair(value.pieces), value.evaluation, list(value.considerations))
    return MoveResult(_pair(value))


def check(
    cells: Cells, pieces: tuple[Coord, Coord], side: Player, match: Match, board: Board | None = None
) -> str | None:
    """Why ``side`` may not play ``pieces`` on ``cells`` (None when it may).

    ``board`` is the engine board of ``cells`` when the caller keeps one (the bws session does): it is left
    exactly as it was (stones placed here are taken back), and saves rebuilding it from every stone.
    """
    a, b = pieces
    if (a.q, a.r) == (b.q, b.r):
        return f"both pieces are on ({a.q},{a.r})"
    if board is None:
        board = board_of_cells(cells, match.view_distance, match.win_distance)
    if board.winner is not None:
        return None  # the position is already decided; nothing sensible to check against
    placed = 0
    try:
        for p in (a, b):
            if not board.is_legal(p.q, p.r):
                what = "occupied" if (p.q, p.r) in board.cells else f"more than {match.view_distance} from every stone"
                return f"({p.q},{p.r}) is {what}"
            try:
                wins = board.place(p.q, p.r, SEAT_OF[side])
            except IllegalMove as exc:
                return exc.reason
            placed += 1
            if wins:
                return None  # the first stone wins: the second is ignored by the rules
        return None
    finally:
        for _ in range(placed):
            board.undo()


def _cells_list(cells: Cells) -> list[Cell]:
    return [Cell.model_construct(q=q, r=r, p=p) for (q, r), p in cells.items()]


def fallback_move(cells: Cells, side: Player, match: Match) -> tuple[Coord, Coord]:
    """The engine's heuristic move (wins, blocks, builds) for ``side``."""
    board = board_of(_cells_list(cells), match.view_distance, match.win_distance)
    if board.winner is not None:  # decided position: any two empty cells near the stones
        board = board_of(_cells_list(cells), match.view_distance, 1 << 30)
        legal = board.legal_cells()
        return Coord(q=legal[0][0], r=legal[0][1]), Coord(q=legal[1][0], r=legal[1][1])
    (aq, ar), (bq, br) = choose_on_board(board, SEAT_OF[side])
    return Coord(q=aq, r=ar), Coord(q=bq, r=br)


def quick_move(cells: Cells, match: Match) -> tuple[Coord, Coord]:
    """Two legal cells found as cheaply as possible (when even the fallback would be late)."""
    board = board_of(_cells_list(cells), match.view_distance, 1 << 30)
    first = board.legal_cells()[0]
    board.place(first[0], first[1], 0)
    second = board.legal_cells()[0]
    return Coord(q=first[0], r=first[1]), Coord(q=second[0], r=second[1])


def to_option(pieces: tuple[Coord, Coord], evaluation: PositionEvaluation | None) -> wire.MoveOption:
    return wire.MoveOption(
        pieces=[wire.Coord(q=p.q, r=p.r) for p in pieces],
        evaluation=None if evaluation is None else evaluation.to_struct(),
    )


def considerations_of(result: MoveResult) -> list[wire.MoveOption] | None:
    if not result.considerations:
        return None
    return [to_option(_pair(p), ev) for p, ev in result.considerations]
