"""Reference bots for Hexagon dots: ``random`` (a baseline) and ``greedy`` (captures, avoids gifts)."""

from __future__ import annotations

from collections.abc import Callable

from hexarena.bots.base import EngineBot
from hexarena.bots.hexdots.reference import GreedyBot, RandomBot, chain_given

BOTS: dict[str, Callable[[], EngineBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}

#: The strongest of ``BOTS``, also served as ``best`` (``builtin:best``).
BEST = "greedy"

__all__ = ["BEST", "BOTS", "GreedyBot", "RandomBot", "chain_given"]
