"""HTTTX on the battlebot wire (docs/protocols/battlebot.md).

State keys: ``board`` (the game's JSON view without ``to_move``, ``sides`` and ``winner``, which the protocol's
own ``nextPlayer`` / ``victor`` carry) and ``marks: {x, o}``; x's stone at (0, 0) is placed for it, o moves first.
Turn: ``{"pieces": [[q, r], [q, r]]}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexarena.core.battlebot import BattlebotShape, Players, pair, short
from hexarena.core.errors import InvalidMove
from hexarena.core.types import Seat
from hexarena.games.htttx.state import HtttxState, Move

if TYPE_CHECKING:
    from hexarena.games.htttx.game import HtttxGame


def shape(game: HtttxGame) -> BattlebotShape[HtttxState, Move]:
    def extra(s: HtttxState, p: Players) -> dict[str, Any]:
        board = game.to_json(s)
        for key in ("to_move", "sides", "winner"):
            board.pop(key, None)
        return {"board": board, "marks": {"x": p[0], "o": p[1]}}

    def read(t: dict[str, Any], seat: Seat, s: HtttxState) -> Move:
        pieces = t.get("pieces")
        if not isinstance(pieces, list) or len(pieces) != 2:
            raise InvalidMove(f"turn {short(t)}: expected {{'pieces': [[q, r], [q, r]]}}")
        return (pair(pieces[0], "a piece", t), pair(pieces[1], "a piece", t))

    def write(m: Move, seat: Seat, s: HtttxState) -> dict[str, Any]:
        return {"pieces": [[m[0][0], m[0][1]], [m[1][0], m[1][1]]]}

    return BattlebotShape("htttx", extra=extra, read=read, write=write)
