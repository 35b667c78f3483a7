"""The HTTTX bot SDK: Hivemaker-compatible ``BaseBot`` plus hexarena's one-port bot server.

A bot written for Hivemaker runs here by changing its imports to ``from hexarena.bots.sdk import ...``::

    from hexarena.bots.sdk import BaseBot, Coord, Match, Player, run, valid_placement_cells

    class MyBot(BaseBot):
        def choose_move(self, cells, player, match):
            c = valid_placement_cells(cells, match.view_distance)
            return c[0], c[1]

    run(MyBot, port=8002)
"""

from hexarena.bots.sdk.adapter import EngineBotAdapter, bot_class_for
from hexarena.bots.sdk.bot import BaseBot, CenterBot, JobContext, MoveResult, PositionEvaluation
from hexarena.bots.sdk.capabilities import (
    BasicWebsocketCapability,
    BasicWebsocketVersions,
    BwsV1AlphaCapability,
    Capabilities,
    Meta,
    StatelessCapability,
    StatelessV1AlphaCapability,
    StatelessVersions,
    default_capabilities,
)
from hexarena.bots.sdk.game import (
    board_of,
    check_win,
    evaluate_status,
    hex_distance,
    is_valid_placement,
    place_piece,
    valid_placement_cells,
)
from hexarena.bots.sdk.models import Cell, Coord, GameStatus, Match, Player
from hexarena.bots.sdk.server import make_app, run, serve

__all__ = [
    "BaseBot",
    "BasicWebsocketCapability",
    "BasicWebsocketVersions",
    "BwsV1AlphaCapability",
    "Capabilities",
    "Cell",
    "CenterBot",
    "Coord",
    "EngineBotAdapter",
    "GameStatus",
    "JobContext",
    "Match",
    "Meta",
    "MoveResult",
    "Player",
    "PositionEvaluation",
    "StatelessCapability",
    "StatelessV1AlphaCapability",
    "StatelessVersions",
    "board_of",
    "bot_class_for",
    "check_win",
    "default_capabilities",
    "evaluate_status",
    "hex_distance",
    "is_valid_placement",
    "make_app",
    "place_piece",
    "run",
    "serve",
    "valid_placement_cells",
]
