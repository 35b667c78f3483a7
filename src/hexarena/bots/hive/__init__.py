"""Reference Hive bots (``EngineBot``s on the engine's fast Board): ``random``, ``greedy``, ``alphabeta``."""

from __future__ import annotations

from collections.abc import Callable

from hexarena.bots.base import EngineBot
from hexarena.bots.hive.alphabeta import AlphaBeta, AlphaBetaBot
from hexarena.bots.hive.evaluation import evaluate
from hexarena.bots.hive.simple import GreedyBot, RandomBot, greedy_on_board, random_on_board

BOTS: dict[str, Callable[[], EngineBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "alphabeta": AlphaBetaBot,
}

#: The strongest of ``BOTS``, also served as ``best`` (``builtin:best``).
BEST = "alphabeta"

__all__ = [
    "BEST",
    "BOTS",
    "AlphaBeta",
    "AlphaBetaBot",
    "GreedyBot",
    "RandomBot",
    "evaluate",
    "greedy_on_board",
    "random_on_board",
]
