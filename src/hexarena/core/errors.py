"""Errors hexarena raises on purpose.

The code lives in the bot SDK distribution (``hexarena_sdk.errors``), which a bot server installs without the
arena server; this module re-exports it, so that the server and its users import it as before.
"""

from hexarena_sdk.errors import (
    BotCrashed,
    BotError,
    BotTimeout,
    ConfigError,
    HexarenaError,
    IllegalMove,
    InvalidMove,
    ProtocolViolation,
)

__all__ = [
    "BotCrashed",
    "BotError",
    "BotTimeout",
    "ConfigError",
    "HexarenaError",
    "IllegalMove",
    "InvalidMove",
    "ProtocolViolation",
]
