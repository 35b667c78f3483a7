"""Numberwang, the battlebot server's test game, registered as ``numberwang``."""

from hexarena.games.numberwang.game import GAME, MAX_STEP, MIN_STEP, NumberwangGame, NumberwangState

__all__ = ["GAME", "MAX_STEP", "MIN_STEP", "NumberwangGame", "NumberwangState"]
