"""Built-in bots by game: each game's bot package exports ``BOTS: dict[str, factory]``.

``best`` is an alias every game has: its strongest built-in (``BEST``), so a newcomer, a tournament or a script can
ask for a real opponent without knowing the names (``builtin:best``, ``hexarena bot serve --bot best``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from hexarena.core.errors import ConfigError
from hexarena.core.registry import get_game

#: The strongest built-in bot of each game, served as ``best``.
BEST: dict[str, str] = {
    "htttx": "search",
    "hex": "mcts",
    "hive": "alphabeta",
    "tictactoe": "perfect",
    "hexdots": "greedy",
    "numberwang": "random",
}


def builtin_bots(game: str) -> dict[str, Callable[[], Any]]:
    """Every built-in bot of ``game`` by name, ``best`` included (empty when the game ships none)."""
    name = get_game(game).name
    try:
        module = importlib.import_module(f"hexarena.bots.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"hexarena.bots.{name}":
            return {}
        raise
    bots = dict(getattr(module, "BOTS", {}))
    best = BEST.get(name)
    if best in bots:
        bots["best"] = bots[best]
    return bots


def make_builtin(game: str, bot: str) -> Any:
    """A fresh instance of built-in bot ``bot`` for ``game``; the error lists the choices."""
    bots = builtin_bots(game)
    try:
        return bots[bot]()
    except KeyError:
        raise ConfigError(
            f"no built-in bot {bot!r} for {game}; choose one of: {', '.join(sorted(bots)) or 'none'}"
        ) from None
