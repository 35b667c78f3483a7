"""``hexarena_sdk.session`` under its former name: the SDK is the ``hexarena-sdk`` distribution (sdk/), and code
written against ``hexarena.bots.sdk``'s modules keeps working."""

from hexarena_sdk.session import (
    MATCH_EXTRAS,
    PLAYER_OF_SIDE,
    BoardCache,
    BoardCells,
    Cells,
    CellsView,
    SessionState,
    Stone,
    Undo,
    cell_list,
    cells_from_wire,
    standard_start,
)

__all__ = [
    "MATCH_EXTRAS",
    "PLAYER_OF_SIDE",
    "BoardCache",
    "BoardCells",
    "Cells",
    "CellsView",
    "SessionState",
    "Stone",
    "Undo",
    "cell_list",
    "cells_from_wire",
    "standard_start",
]
