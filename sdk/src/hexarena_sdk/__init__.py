"""The HTTTX bot SDK: Hivemaker-compatible ``BaseBot`` plus hexarena's one-port bot server.

A distribution of its own (``hexarena-sdk``): a bot server needs neither the arena server's web framework nor its
database. A bot written for Hivemaker runs here by changing its imports to ``from hexarena_sdk import ...``
(``hexarena.bots.sdk`` re-exports the same names where the arena server is installed)::

    from hexarena_sdk import BaseBot, Coord, Match, Player, run, valid_placement_cells

    class MyBot(BaseBot):
        def choose_move(self, cells, player, match):
            c = valid_placement_cells(cells, match.view_distance)
            return c[0], c[1]

    run(MyBot, port=8002)
"""

from hexarena_sdk.bot import BaseBot, CenterBot, JobContext, MoveResult, PositionEvaluation
from hexarena_sdk.capabilities import (
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
from hexarena_sdk.game import (
    board_of,
    check_win,
    evaluate_status,
    hex_distance,
    is_valid_placement,
    place_piece,
    valid_placement_cells,
)
from hexarena_sdk.models import Cell, Coord, GameStatus, Match, Player
from hexarena_sdk.server import make_app, run, serve

__all__ = [
    "BaseBot",
    "BasicWebsocketCapability",
    "BasicWebsocketVersions",
    "BwsV1AlphaCapability",
    "Capabilities",
    "Cell",
    "CenterBot",
    "Coord",
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
