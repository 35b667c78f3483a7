"""The HTTTX mutable Board (C accelerator or pure Python).

The code lives in the bot SDK distribution (``hexarena_sdk.htttx.board``), which a bot server installs without the
arena server; this module re-exports it, so that the server and its users import it as before.
"""

from hexarena_sdk.htttx.board import (
    COORD_LIMIT,
    MAX_PLIES,
    SIDES,
    Board,
    Coord,
    O,
    PyBoard,
    X,
    hex_distance,
    pack,
    unpack,
    zobrist_key,
)

__all__ = [
    "COORD_LIMIT",
    "MAX_PLIES",
    "SIDES",
    "Board",
    "Coord",
    "O",
    "PyBoard",
    "X",
    "hex_distance",
    "pack",
    "unpack",
    "zobrist_key",
]
