"""Built-in bots by game, found through the ``hexarena.bots`` entry points like games and player schemes.

Each entry is named after a game and names a module (or any object) with ``BOTS: dict[str, factory]`` and,
optionally, ``BEST``: the name of its strongest bot, served as ``best`` too, so a newcomer, a tournament or a
script can ask for a real opponent without knowing the names (``builtin:best``, ``hexarena bot serve --bot
best``). hexarena declares ``htttx = "hexarena.bots.htttx"`` and so on in pyproject.toml; a game plugin declares
its reference bots the same way (examples/nim), and a package may add bots to any game (several entries for one
game are merged; a bot name already taken is left out with a warning).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hexarena.bots.base import EngineBot
from hexarena.core.errors import ConfigError
from hexarena.core.registry import declared, get_game, load_entry_point, plugin_failure

#: The entry-point group bots are declared in.
BOTS_GROUP = "hexarena.bots"

BotFactory = Callable[[], EngineBot]

_BY_GAME: dict[str, dict[str, BotFactory]] = {}


def _load(name: str) -> dict[str, BotFactory]:
    """Every bot the entry points named ``name`` declare, ``best`` included; broken entries are logged, skipped."""
    bots: dict[str, BotFactory] = {}
    best: str | None = None
    for ep in declared(BOTS_GROUP):
        if ep.name != name:
            continue
        obj = load_entry_point(ep)
        if isinstance(obj, Exception):
            plugin_failure(ep, f"importing it raised {type(obj).__name__}: {obj}")
            continue
        given = getattr(obj, "BOTS", None)
        if not isinstance(given, Mapping) or not all(isinstance(k, str) and callable(v) for k, v in given.items()):
            plugin_failure(ep, f"{obj!r} has no BOTS mapping of bot names to factories")
            continue
        for bot, factory in given.items():
            if bot in bots or bot == "best":
                plugin_failure(ep, f"bot {bot!r} of {name} is already taken")
                continue
            bots[bot] = factory
        if best is None and isinstance(getattr(obj, "BEST", None), str):
            best = obj.BEST
    if best in bots:
        bots["best"] = bots[best]
    return bots


def builtin_bots(game: str) -> dict[str, BotFactory]:
    """Every built-in bot of ``game`` by name, ``best`` included (empty when the game ships none)."""
    name = get_game(game).name
    if name not in _BY_GAME:
        _BY_GAME[name] = _load(name)
    return dict(_BY_GAME[name])


def make_builtin(game: str, bot: str) -> EngineBot:
    """A fresh instance of built-in bot ``bot`` for ``game``; the error lists the choices."""
    bots = builtin_bots(game)
    try:
        return bots[bot]()
    except KeyError:
        raise ConfigError(
            f"no built-in bot {bot!r} for {game}; choose one of: {', '.join(sorted(bots)) or 'none'}"
        ) from None
