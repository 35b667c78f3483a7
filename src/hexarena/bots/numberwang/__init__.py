"""Reference numberwang bot: ``random`` (numberwang is the battlebot protocol's smoke test, not a game)."""

from __future__ import annotations

import random
from collections.abc import Callable

from hexarena.bots.base import EngineBot
from hexarena.core.game import Game
from hexarena.games.numberwang.game import NumberwangState


class RandomNumberwangBot:
    """A uniformly random step in the allowed range."""

    name = "random"

    def choose(
        self, game: Game[NumberwangState, int], state: NumberwangState, time_limit: float | None, rng: random.Random
    ) -> int:
        return game.random_move(state, rng)


BOTS: dict[str, Callable[[], EngineBot]] = {"random": RandomNumberwangBot}

#: The strongest of ``BOTS``, also served as ``best`` (``builtin:best``).
BEST = "random"

__all__ = ["BEST", "BOTS", "RandomNumberwangBot"]
