"""Legal moves in a form a board renderer can click on, computed with each engine's public API.

Why server-side: the browser holds no rules engine (no build step, one source of truth), so the page is told
which cells, lines or piece destinations are legal and highlights exactly those; every move it then sends is
still validated by ``game.play`` before the referee sees it. Every entry carries the move's notation, which
is what the page sends back.

Shapes (``kind`` tells the renderer which one it got):

- ``cells`` (hex, tictactoe): ``moves = [{"move": "a1", "row": 0, "col": 0}]``, plus ``extra`` for the
  non-cell moves such as Hex's ``swap``.
- ``htttx``: ``cells = [[q, r], ...]`` legal for the first stone; the second is probed with ``htttx_first``.
- ``lines`` (hexdots): ``moves = [{"move": "0,0-0,1", "a": [0, 0], "b": [0, 1]}]``.
- ``hive``: ``moves = [{"move": "wS1 wQ-", "piece": "wS1", "from": [q, r] | None, "to": [q, r]}]``; a pass is
  ``{"move": "pass", "piece": None, "from": None, "to": None}``.
- ``number`` (numberwang): ``min`` and ``max``.
- ``list``: any other game, ``moves = [{"move": text}]`` (the page offers a plain list).
"""

from __future__ import annotations

from typing import Any

from hexarena.core.errors import IllegalMove, InvalidMove

#: A generic game with more legal moves than this gets a text box instead of a list.
MAX_LISTED = 2000


def legal_view(game: Any, state: Any) -> dict[str, Any]:
    """The legal moves of ``state`` for the page; empty when the game is over."""
    name = game.name
    if game.to_move(state) is None:
        return {"kind": "none", "moves": []}
    if name == "htttx":
        return {"kind": "htttx", "cells": [[q, r] for q, r in sorted(state.board().legal_cells())]}
    if name == "hive":
        return {"kind": "hive", "moves": _hive(game, state)}
    if name == "hexdots":
        return {
            "kind": "lines",
            "moves": [{"move": game.format(m), "a": list(m[0]), "b": list(m[1])} for m in game.legal(state)],
        }
    if name == "numberwang":
        values = [int(m) for m in game.legal(state)]
        return {"kind": "number", "min": min(values), "max": max(values)}
    if name in ("hex", "tictactoe"):
        cells: list[dict[str, Any]] = []
        extra: list[str] = []
        for m in game.legal(state):
            if isinstance(m, tuple):
                cells.append({"move": game.format(m), "row": m[0], "col": m[1]})
            else:
                extra.append(game.format(m))
        return {"kind": "cells", "moves": cells, "extra": extra}
    moves = []
    for i, m in enumerate(game.legal(state)):
        if i >= MAX_LISTED:
            return {"kind": "text", "moves": []}
        moves.append({"move": game.format(m)})
    return {"kind": "list", "moves": moves}


def _hive(game: Any, state: Any) -> list[dict[str, Any]]:
    from hexarena.games.hive.board import NAME, qr

    board = state.board
    out: list[dict[str, Any]] = []
    for hm in game.legal(state):
        pid, dest = game.resolve(state, hm)
        if pid < 0:
            out.append({"move": hm.text, "piece": None, "from": None, "to": None})
            continue
        src = board.pos[pid]
        out.append(
            {
                "move": hm.text,
                "piece": NAME[pid],
                "from": None if src is None else list(qr(src)),
                "to": list(qr(dest)),
            }
        )
    return out


def htttx_first(game: Any, state: Any, q: Any, r: Any) -> dict[str, Any]:
    """Check the first stone of an HTTTX turn on its own (the page asks before the second click).

    Returns ``{"cell": [q, r], "wins": bool, "cells": [...]}`` with the cells legal for the second stone;
    raises IllegalMove / InvalidMove with the rules' own reason (``cell (3, 4) is occupied``).
    """
    if type(q) is not int or type(r) is not int:
        raise InvalidMove(f"a cell is two integers (q, r), got {[q, r]!r}")
    seat = game.to_move(state)
    if seat is None:
        raise IllegalMove("the game is over")
    board = state.board()  # a private copy: placing on it never touches the state
    wins = board.place(q, r, seat)
    if wins:
        board.undo()
        cells = [c for c in board.legal_cells() if c != (q, r)]
    else:
        cells = board.legal_cells()
    return {"cell": [q, r], "wins": bool(wins), "cells": [[a, b] for a, b in sorted(cells)]}


def hive_why(game: Any, state: Any, piece: Any, q: Any, r: Any) -> dict[str, Any]:
    """A Hive click outside the highlighted cells: the move it would be, or the rules' reason why not.

    Returns ``{"move": text}`` when moving ``piece`` to (q, r) is legal after all; raises IllegalMove with the
    engine's own explanation otherwise (``no piece may move before its side's queen is placed``...).
    """
    from hexarena.games.hive.board import PID_OF_NAME, cell_at
    from hexarena.games.hive.game import HiveMove
    from hexarena.games.hive.notation import format_move

    if not isinstance(piece, str) or piece not in PID_OF_NAME:
        raise InvalidMove(f"no Hive piece {piece!r}")
    if type(q) is not int or type(r) is not int:
        raise InvalidMove(f"a cell is two integers (q, r), got {[q, r]!r}")
    board = state.board
    move = (PID_OF_NAME[piece], cell_at(q, r))
    try:
        text = format_move(board, move)
    except IllegalMove:
        raise IllegalMove(f"{piece} to ({q}, {r}): that cell does not touch the hive") from None
    game.play(state, HiveMove(text))  # IllegalMove with the reason
    return {"move": text}
