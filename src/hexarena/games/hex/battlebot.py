"""Hex on the battlebot wire (docs/protocols/battlebot.md).

State keys: ``board`` (the game's JSON view without ``to_move``, ``sides`` and ``winner``: ``{size, swap,
swapped, board: ["..B", ...] (rows, top first), ...}``) and ``colours: {black, white}`` (who plays which colour
now; swapping exchanges them). Turn: ``{"space": [row, col]}`` (0-based) or ``{"swap": true}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexarena.core.battlebot import BattlebotShape, Players, pair, short
from hexarena.core.errors import InvalidMove
from hexarena.core.types import Seat
from hexarena.games.hex.game import SWAP, HexAction, HexMove, HexState
from hexarena.games.hex.geometry import COLOUR_NAMES

if TYPE_CHECKING:
    from hexarena.games.hex.game import HexGame


def shape(game: HexGame) -> BattlebotShape[HexState, HexMove]:
    def extra(s: HexState, p: Players) -> dict[str, Any]:
        board = game.to_json(s)
        for key in ("to_move", "sides", "winner"):
            board.pop(key, None)
        colours = [COLOUR_NAMES[s.colour_of(0)], COLOUR_NAMES[s.colour_of(1)]]  # as the board says
        return {"board": board, "colours": {colours[0]: p[0], colours[1]: p[1]}}

    def read(t: dict[str, Any], seat: Seat, s: HexState) -> HexMove:
        if t.get("swap") is True:
            return SWAP
        if "space" not in t:
            raise InvalidMove(f"turn {short(t)}: expected {{'space': [row, col]}} or {{'swap': true}}")
        return pair(t["space"], "space", t)

    def write(m: HexMove, seat: Seat, s: HexState) -> dict[str, Any]:
        if isinstance(m, HexAction):
            return {m.value: True}
        return {"space": [m[0], m[1]]}

    return BattlebotShape("hex", extra=extra, read=read, write=write)
