"""Hexagon dots on the battlebot wire (docs/protocols/battlebot.md).

State key ``board``: the dots protocol's Game object (lines, hexagons, players with the bot ids). Turn:
``{"line": [{"row": r, "col": c}, {"row": r, "col": c}]}``; a capture moves again.
"""

from __future__ import annotations

from typing import Any

from hexarena.core.battlebot import BattlebotShape, short
from hexarena.core.errors import InvalidMove
from hexarena.core.types import Seat
from hexarena.games.hexdots import wire
from hexarena.games.hexdots.board import Line
from hexarena.games.hexdots.game import DotsState


def _read(t: dict[str, Any], seat: Seat, s: DotsState) -> Line:
    if "line" not in t:
        raise InvalidMove(f"turn {short(t)}: expected {{'line': [{{row, col}}, {{row, col}}]}}")
    return wire.parse_move_body(t["line"])


def shape() -> BattlebotShape[DotsState, Line]:
    return BattlebotShape(
        "hexdots",
        extra=lambda s, p: {"board": wire.game_json(s, list(p))},
        read=_read,
        write=lambda m, seat, s: {"line": wire.move_body(m)},
    )
