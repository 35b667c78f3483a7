"""Reference HTTTX bots (``EngineBot``s on the engine's fast Board): ``random``, ``center``, ``heuristic``, and
``search`` (alpha-beta with threat search, the strongest: ``bots.registry`` serves it as ``best`` too)."""

from __future__ import annotations

from collections.abc import Callable

from hexarena.bots.base import EngineBot
from hexarena.bots.htttx.heuristic import HeuristicBot, choose_on_board
from hexarena.bots.htttx.search import SearchBot
from hexarena.bots.htttx.simple import CenterBot, RandomBot, center_on_board, random_on_board

BOTS: dict[str, Callable[[], EngineBot]] = {
    "random": RandomBot,
    "center": CenterBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}

#: The strongest of ``BOTS``, also served as ``best`` (``builtin:best``).
BEST = "search"

__all__ = [
    "BEST",
    "BOTS",
    "CenterBot",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "center_on_board",
    "choose_on_board",
    "random_on_board",
]
