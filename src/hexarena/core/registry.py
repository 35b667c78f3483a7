"""The game registry: one place that knows every game, so adding a game is registering it.

Games register themselves when ``hexarena.games`` is imported; ``get_game`` imports it lazily so that callers
never depend on import order.
"""

from __future__ import annotations

from typing import Any

from hexarena.core.errors import ConfigError

_GAMES: dict[str, Any] = {}
_ALIASES: dict[str, str] = {}


def register_game(game: Any, aliases: tuple[str, ...] = ()) -> Any:
    """Register a game object under its ``name`` (and optional aliases, e.g. wire ids of other systems)."""
    name = game.name
    if name in _GAMES and type(_GAMES[name]) is not type(game):
        raise ConfigError(f"game {name!r} is already registered")
    _GAMES[name] = game
    for alias in aliases:
        _ALIASES[alias] = name
    return game


def _load() -> None:
    import hexarena.games  # noqa: F401  (registers every built-in game)


def get_game(name: str) -> Any:
    """The game registered as ``name`` or an alias of it; ConfigError lists the known names otherwise."""
    _load()
    key = _ALIASES.get(name, name)
    try:
        return _GAMES[key]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}") from None


def available_games() -> dict[str, Any]:
    """Every registered game by name."""
    _load()
    return dict(_GAMES)
