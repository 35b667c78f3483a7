"""Which HTTTX Board implementation is in use.

The code lives in the bot SDK distribution (``hexarena_sdk.htttx.accel``), which a bot server installs without the
arena server; this module re-exports it, so that the server and its users import it as before.
"""

from hexarena_sdk.htttx.accel import (
    FORCED_PURE,
    IMPLEMENTATION,
    UNAVAILABLE,
    CBoard,
    choose,
)
from hexarena_sdk.htttx.board import Board, PyBoard

__all__ = [
    "FORCED_PURE",
    "IMPLEMENTATION",
    "UNAVAILABLE",
    "Board",
    "CBoard",
    "PyBoard",
    "choose",
]
