"""Pure, IO-free foundations shared by every game, player adapter and service.

Nothing in this package imports asyncio, sockets, a database or the clock.
"""

from hexarena.core.errors import (
    BotCrashed,
    BotError,
    BotTimeout,
    ConfigError,
    HexarenaError,
    IllegalMove,
    InvalidMove,
    ProtocolViolation,
)
from hexarena.core.game import ClockPreset, Game, Param, RuleGame, state_view
from hexarena.core.registry import available_games, get_game, register_game
from hexarena.core.types import Outcome, Termination

__all__ = [
    "BotCrashed",
    "BotError",
    "BotTimeout",
    "ClockPreset",
    "ConfigError",
    "Game",
    "HexarenaError",
    "IllegalMove",
    "InvalidMove",
    "Outcome",
    "Param",
    "ProtocolViolation",
    "RuleGame",
    "Termination",
    "available_games",
    "get_game",
    "register_game",
    "state_view",
]
