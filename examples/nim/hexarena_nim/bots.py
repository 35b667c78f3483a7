"""Reference bots for nim: ``random`` and ``perfect`` (leaves a nim-sum of zero whenever it can)."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import reduce
from operator import xor
from typing import Any

from hexarena.bots.base import EngineBot


class RandomNimBot:
    name = "random"

    def choose(self, game: Any, state: Any, time_limit: float | None, rng: random.Random) -> Any:
        return game.random_move(state, rng)


class PerfectNimBot:
    """Bouton's strategy: move to a position whose heaps XOR to zero; without one, take a single stone."""

    name = "perfect"

    def choose(self, game: Any, state: Any, time_limit: float | None, rng: random.Random) -> Any:
        total = reduce(xor, state.heaps, 0)
        for i, h in enumerate(state.heaps):
            if h ^ total < h:
                return (i, h - (h ^ total))
        return rng.choice([(i, 1) for i, h in enumerate(state.heaps) if h])


BOTS: dict[str, Callable[[], EngineBot]] = {"random": RandomNimBot, "perfect": PerfectNimBot}
BEST = "perfect"
