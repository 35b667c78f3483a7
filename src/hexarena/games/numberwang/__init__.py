"""Numberwang, the battlebot server's test game, registered as ``numberwang``."""

from hexarena.core.registry import register_game
from hexarena.games.numberwang.game import GAME, MAX_STEP, MIN_STEP, NumberwangGame, NumberwangState

register_game(GAME)

__all__ = ["GAME", "MAX_STEP", "MIN_STEP", "NumberwangGame", "NumberwangState"]
