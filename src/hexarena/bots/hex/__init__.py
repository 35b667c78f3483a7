"""Reference Hex bots: ``random`` and ``mcts`` (UCT with bridge-aware fill-the-board rollouts)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hexarena.bots.base import EngineBot
from hexarena.bots.hex.mcts import MctsHexBot, SearchStats


class RandomHexBot:
    """Uniformly random among the legal moves (the swap included when it is allowed)."""

    name = "random"

    def choose(self, game: Any, state: Any, time_limit: float | None, rng: random.Random) -> Any:
        return game.random_move(state, rng)


BOTS: dict[str, Callable[[], EngineBot]] = {"random": RandomHexBot, "mcts": MctsHexBot}

#: The strongest of ``BOTS``, also served as ``best`` (``builtin:best``).
BEST = "mcts"

__all__ = ["BEST", "BOTS", "MctsHexBot", "RandomHexBot", "SearchStats"]
