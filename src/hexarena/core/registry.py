"""The game registry: one place that knows every game, so adding a game is declaring an entry point.

Every game, built-in or not, is found the same way: the ``hexarena.games`` entry-point group, whose entries name
a ``Game`` object (``hex = "hexarena.games.hex:GAME"`` in hexarena's own pyproject.toml; ``nim =
"hexarena_nim:GAME"`` in a plugin's). Installing a package that declares one is all it takes for a game to reach
``hexarena play``, tournaments, the API, the conformance suite and the web UI (see README "Add a game").

Why entry points rather than imports: the registry never has to know the game packages (core sits below games;
no lazy ``import hexarena.games`` that callers depend on), and a game outside the tree is no different from a
built-in one. Why the entries are loaded on first use and not at import: loading imports every game's engine,
which only a caller that asks for a game should pay for.

A plugin that cannot be loaded (its import fails, its object is not a ``Game``, its name clashes with another
game) does not take the others down: it is left out, :func:`plugin_errors` says what went wrong naming the
distribution and the entry point, and asking for that game raises a ``ConfigError`` carrying the same message.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from importlib.metadata import EntryPoint, entry_points
from typing import Any, TypeVar

from hexarena.core.errors import ConfigError
from hexarena.core.game import AnyGame, Game

log = logging.getLogger(__name__)

#: The entry-point group games are declared in.
GAMES_GROUP = "hexarena.games"

S = TypeVar("S")
M = TypeVar("M")

_GAMES: dict[str, AnyGame] = {}
_ALIASES: dict[str, str] = {}
#: Game name -> why its plugin was left out (filled while loading entry points).
_BROKEN: dict[str, str] = {}
_loaded = False


def describe_entry_point(ep: EntryPoint) -> str:
    """``entry point 'nim = hexarena_nim:GAME' in group hexarena.games of distribution hexarena-nim 0.1``: how
    an error names a plugin, so its author (or the operator) knows which package to fix or remove."""
    dist = ep.dist
    where = f" of distribution {dist.name} {dist.version}" if dist is not None else ""
    return f"entry point '{ep.name} = {ep.value}' in group {ep.group}{where}"


def declared(group: str) -> list[EntryPoint]:
    """The entry points of ``group``, not loaded: hexarena's own first, then the others in name order, so that a
    plugin declaring a name hexarena already uses is the one refused, the same way every run."""
    return sorted(entry_points(group=group), key=_builtin_first)


def load_entry_point(ep: EntryPoint) -> Any:
    """The object ``ep`` names, or the exception its import raised (a plugin's import may raise anything, and
    must not take the others down)."""
    try:
        return ep.load()
    except Exception as exc:
        return exc


def discover(group: str) -> Iterator[tuple[EntryPoint, Any]]:
    """``(entry point, object or exception)`` for every entry point of ``group``, loaded in :func:`declared`
    order. With :func:`declared` and :func:`load_entry_point`, the one way hexarena reads entry points (games
    here, player schemes in ``hexarena.players.spec``, bots in ``hexarena.bots.registry``)."""
    for ep in declared(group):
        yield ep, load_entry_point(ep)


def _builtin_first(ep: EntryPoint) -> tuple[bool, str, str]:
    return (ep.dist is None or ep.dist.name != "hexarena", ep.name, ep.value)


def plugin_failure(ep: EntryPoint, problem: str) -> str:
    """The message for an entry point that was left out, logged once as a warning."""
    message = f"plugin {describe_entry_point(ep)} was left out: {problem}"
    log.warning("%s", message)
    return message


def register_game(game: Game[S, M], aliases: tuple[str, ...] = ()) -> Game[S, M]:
    """Register ``game`` under its ``name`` and ``aliases`` (plus the game's own ``aliases`` attribute, e.g. the
    wire ids of other systems). Entry points are the normal way in; this is for programs and tests that build a
    game at run time. Registering the same object twice is harmless; another object under a taken name or alias
    is a ConfigError (the last one silently winning would make the game depend on import order)."""
    name = game.name
    taken = _GAMES.get(name)
    if taken is not None and taken is not game:
        raise ConfigError(f"game {name!r} is already registered ({type(taken).__module__}.{type(taken).__name__})")
    every_alias = (*getattr(game, "aliases", ()), *aliases)
    for alias in every_alias:
        owner = _ALIASES.get(alias, alias if alias in _GAMES else None)
        if owner is not None and owner != name:
            raise ConfigError(f"alias {alias!r} of game {name!r} already names game {owner!r}")
    _GAMES[name] = game
    for alias in every_alias:
        _ALIASES[alias] = name
    return game


def _load() -> None:
    """Load the ``hexarena.games`` entry points once; a broken one is recorded in ``_BROKEN`` and skipped."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for ep, obj in discover(GAMES_GROUP):
        if isinstance(obj, Exception):
            _BROKEN[ep.name] = plugin_failure(ep, f"importing it raised {type(obj).__name__}: {obj}")
            continue
        if not isinstance(obj, Game):
            missing = [m for m in _protocol_members() if not hasattr(obj, m)]
            _BROKEN[ep.name] = plugin_failure(
                ep, f"{obj!r} is not a hexarena Game (missing: {', '.join(missing) or 'nothing, but not a Game'})"
            )
            continue
        if obj.name != ep.name:
            _BROKEN[ep.name] = plugin_failure(ep, f"the entry point's name must be the game's name {obj.name!r}")
            continue
        try:
            register_game(obj)
        except ConfigError as exc:
            _BROKEN[ep.name] = plugin_failure(ep, exc.reason)


def _protocol_members() -> list[str]:
    """The attributes and methods of the ``Game`` protocol, for the message about an object that is not one."""
    return sorted(n for n in (*Game.__annotations__, *vars(Game)) if not n.startswith("_"))


def get_game(name: str) -> AnyGame:
    """The game registered as ``name`` or an alias of it; ConfigError lists the known names otherwise, or says
    why the plugin that declares ``name`` was left out."""
    _load()
    key = _ALIASES.get(name, name)
    try:
        return _GAMES[key]
    except KeyError:
        if key in _BROKEN:
            raise ConfigError(_BROKEN[key]) from None
        if not _GAMES:  # not even the built-ins: hexarena's own metadata predates its entry points
            raise ConfigError(
                f"unknown game {name!r}: no game is registered at all, so hexarena's installation lacks its entry "
                "points (installed before they were added?): run `make setup` or `pip install -e .` again"
            ) from None
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}") from None


def available_games() -> dict[str, AnyGame]:
    """Every registered game by name (plugins that failed to load are left out: see :func:`plugin_errors`)."""
    _load()
    return dict(_GAMES)


def plugin_errors() -> dict[str, str]:
    """Game name -> why the plugin declaring it was left out; empty when every game loaded."""
    _load()
    return dict(_BROKEN)
