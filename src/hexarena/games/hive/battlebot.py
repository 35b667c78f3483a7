"""Hive on the battlebot wire (docs/protocols/battlebot.md).

State keys: ``board`` (the game's JSON view without ``to_move`` and ``sides``: ``{game_type, board: [{q, r,
stack}], hands, game_string, ...}``) and ``colours: {white, black}``. Turn: ``{"move": "<UHP MoveString>"}``,
e.g. ``"wS1 -bQ"``, the notation turn every game accepts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexarena.core.battlebot import BattlebotShape, Players, short
from hexarena.core.errors import InvalidMove
from hexarena.core.types import Seat
from hexarena.games.hive.game import HiveMove, HiveState

if TYPE_CHECKING:
    from hexarena.games.hive.game import HiveGame


def shape(game: HiveGame) -> BattlebotShape[HiveState, HiveMove]:
    def extra(s: HiveState, p: Players) -> dict[str, Any]:
        board = game.to_json(s)
        for key in ("to_move", "sides"):
            board.pop(key, None)
        return {"board": board, "colours": {"white": p[0], "black": p[1]}}

    def read(t: dict[str, Any], seat: Seat, s: HiveState) -> HiveMove:
        raise InvalidMove(f"turn {short(t)}: expected {{'move': '<UHP MoveString>'}}, e.g. {{'move': 'wS1'}}")

    return BattlebotShape("hive", extra=extra, read=read, write=lambda m, seat, s: {"move": game.format(m)})
