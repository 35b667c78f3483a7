"""The shared in-process bot interface.

Reference bots of every game implement ``EngineBot``: they receive the immutable game object and state the
referee uses and return a legal move of that game. Keeping bots on the rules engine's own types (instead of a
wire format) lets the in-process player, the tournament runner and the SDK's bot server all reuse them.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class EngineBot(Protocol):
    """A bot that plays directly on a rules engine's state."""

    name: str

    def choose(self, game: Any, state: Any, time_limit: float | None, rng: random.Random) -> Any:
        """A legal move for the seat to move in ``state``; ``time_limit`` is the seconds it may think."""
        ...
