"""Reference Hex bots: ``random``, ``mcts`` (the strong one: UCT + RAVE, Hex-aware priors and playouts, a solver;
see mcts.py) and ``uct`` (the previous MCTS, kept as a weaker reference and the benchmark's baseline)."""

from __future__ import annotations

import random
from collections.abc import Callable

from hexarena.bots.base import EngineBot
from hexarena.bots.hex.mcts import MctsHexBot, SearchStats
from hexarena.bots.hex.uct import UctHexBot
from hexarena.core.game import Game
from hexarena.games.hex.game import HexMove, HexState


class RandomHexBot:
    """Uniformly random among the legal moves (the swap included when it is allowed)."""

    name = "random"

    def choose(
        self, game: Game[HexState, HexMove], state: HexState, time_limit: float | None, rng: random.Random
    ) -> HexMove:
        return game.random_move(state, rng)


BOTS: dict[str, Callable[[], EngineBot]] = {"random": RandomHexBot, "mcts": MctsHexBot, "uct": UctHexBot}

#: The strongest of ``BOTS``, also served as ``best`` (``builtin:best``).
BEST = "mcts"

__all__ = ["BEST", "BOTS", "MctsHexBot", "RandomHexBot", "SearchStats", "UctHexBot"]
