"""The HTTTX bot SDK as the arena server's users import it: ``hexarena_sdk`` (the ``hexarena-sdk`` distribution, which
a bot server installs without the arena server) re-exported, plus ``EngineBotAdapter``, which serves the server's
built-in bots through the SDK and so belongs to the server. Existing bots keep ``from hexarena.bots.sdk import ...``.
"""

from hexarena.bots.sdk.adapter import EngineBotAdapter, bot_class_for
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
