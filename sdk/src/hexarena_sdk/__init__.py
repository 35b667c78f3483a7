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

from __future__ import annotations

from typing import TYPE_CHECKING

from hexarena_sdk._lazy import lazy_exports

if TYPE_CHECKING:
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

#: where each exported name lives: imported on first use, so importing a submodule (``hexarena_sdk.errors``,
#: which the arena server imports at every start) loads no web server, validation library or bot base
_LAZY = {
    "BaseBot": "hexarena_sdk.bot",
    "BasicWebsocketCapability": "hexarena_sdk.capabilities",
    "BasicWebsocketVersions": "hexarena_sdk.capabilities",
    "BwsV1AlphaCapability": "hexarena_sdk.capabilities",
    "Capabilities": "hexarena_sdk.capabilities",
    "Cell": "hexarena_sdk.models",
    "CenterBot": "hexarena_sdk.bot",
    "Coord": "hexarena_sdk.models",
    "GameStatus": "hexarena_sdk.models",
    "JobContext": "hexarena_sdk.bot",
    "Match": "hexarena_sdk.models",
    "Meta": "hexarena_sdk.capabilities",
    "MoveResult": "hexarena_sdk.bot",
    "Player": "hexarena_sdk.models",
    "PositionEvaluation": "hexarena_sdk.bot",
    "StatelessCapability": "hexarena_sdk.capabilities",
    "StatelessV1AlphaCapability": "hexarena_sdk.capabilities",
    "StatelessVersions": "hexarena_sdk.capabilities",
    "board_of": "hexarena_sdk.game",
    "check_win": "hexarena_sdk.game",
    "default_capabilities": "hexarena_sdk.capabilities",
    "evaluate_status": "hexarena_sdk.game",
    "hex_distance": "hexarena_sdk.game",
    "is_valid_placement": "hexarena_sdk.game",
    "make_app": "hexarena_sdk.server",
    "place_piece": "hexarena_sdk.game",
    "run": "hexarena_sdk.server",
    "serve": "hexarena_sdk.server",
    "valid_placement_cells": "hexarena_sdk.game",
}

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


__getattr__ = lazy_exports(__name__, _LAZY)
