"""Player specs: one string names any player, whatever its protocol.

``builtin:NAME`` a built-in bot of the game; ``bws:URL`` or ``stateless:URL`` an HTTTX bot server; a bare
``http(s)://`` URL is an HTTTX bot server too, reached over bws when it declares it, else stateless;
``human`` a seat for a person. Every scheme, these included, is a :class:`Scheme` object declared in the
``hexarena.players`` entry-point group (hexarena's own in pyproject.toml, a plugin's in its own), so a protocol
family is added by installing a package, and no scheme depends on which modules happen to be imported: each is
loaded when a spec first names it. ``register_scheme`` adds one at run time (tests, embedding programs).

Each scheme declares what it does on the server: whether it starts a program (``starts_program``), whether a
remote API client may use it (``remote``) and whether the rest of the spec is a network address the server will
connect to (``address``). ``hexarena.players.policy`` applies these declarations to every spec that comes over
the network. A scheme that declares nothing is taken at its worst (it may start a program, no remote client may
use it): a new scheme is refused remotely until its author says it is safe.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint
from typing import TypeVar

from hexarena.core.errors import ConfigError
from hexarena.core.game import Game
from hexarena.core.registry import declared, load_entry_point, plugin_failure
from hexarena.players.base import BasePlayer
from hexarena.players.scheme import Factory, Scheme

#: The entry-point group player schemes are declared in; each entry names a :class:`Scheme` of the same name.
PLAYERS_GROUP = "hexarena.players"

S = TypeVar("S")
M = TypeVar("M")


_SCHEMES: dict[str, Scheme] = {}  # loaded or registered at run time
_ENTRIES: dict[str, EntryPoint] | None = None  # declared, by name (read once)
_BROKEN: dict[str, str] = {}  # scheme name -> why its entry point was left out


def _entries() -> dict[str, EntryPoint]:
    """The declared schemes by name; a second declaration of a name is left out, with a warning."""
    global _ENTRIES
    if _ENTRIES is None:
        _ENTRIES = {}
        for ep in declared(PLAYERS_GROUP):
            first = _ENTRIES.setdefault(ep.name, ep)
            if first is not ep:
                plugin_failure(ep, f"scheme {ep.name!r} is already declared by '{first.value}'")
    return _ENTRIES


def _names() -> set[str]:
    return set(_SCHEMES) | set(_entries())


def _lookup(name: str) -> Scheme | None:
    """The scheme ``name`` (loading its entry point on first use); None when nothing declares it, ConfigError
    naming the plugin when its entry point cannot be loaded."""
    scheme = _SCHEMES.get(name)
    if scheme is not None:
        return scheme
    if name in _BROKEN:
        raise ConfigError(_BROKEN[name])
    ep = _entries().get(name)
    if ep is None:
        return None
    obj = load_entry_point(ep)
    if isinstance(obj, Exception):
        problem = f"importing it raised {type(obj).__name__}: {obj}"
    elif not isinstance(obj, Scheme):
        problem = f"{obj!r} is not a hexarena.players.spec.Scheme"
    elif obj.name != name:
        problem = f"the entry point's name must be the scheme's name {obj.name!r}"
    else:
        _SCHEMES[name] = obj
        return obj
    _BROKEN[name] = plugin_failure(ep, problem)
    raise ConfigError(_BROKEN[name])


def register_scheme(
    scheme: str,
    factory: Factory,
    help_text: str,
    *,
    starts_program: bool | None = None,
    remote: bool | None = None,
    address: bool = False,
) -> None:
    """Teach ``make_player`` a new ``scheme:`` at run time and declare its policy (see :class:`Scheme`; packages
    declare theirs as ``hexarena.players`` entry points instead). A name already in use is a ValueError: the
    last registration silently winning would make a scheme depend on import order."""
    new = Scheme(scheme, factory, help_text, starts_program, remote, address)
    if scheme in _names():
        raise ValueError(f"player scheme {scheme!r} is already registered")
    _SCHEMES[scheme] = new


def registered_schemes() -> dict[str, Scheme]:
    """Every scheme that loads, with its declared policy, by name (a broken plugin is logged and left out)."""
    for name in _entries():
        try:
            _lookup(name)
        except ConfigError:
            pass
    return dict(sorted(_SCHEMES.items()))


def scheme_errors() -> dict[str, str]:
    """Scheme name -> why the plugin declaring it was left out."""
    registered_schemes()
    return dict(_BROKEN)


def scheme_of(spec: str) -> Scheme | None:
    """The scheme a spec names (None for a bare URL or an unknown scheme; ConfigError for a broken plugin)."""
    return _lookup(spec.strip().partition(":")[0])


def schemes() -> dict[str, str]:
    return {k: v.help_text for k, v in registered_schemes().items()}


def unknown_spec(spec: str) -> ConfigError:
    """The error for a spec no scheme accepts, listing the accepted forms."""
    forms = ", ".join(f"{k}:..." for k in sorted(_names()))
    return ConfigError(f"unknown player spec {spec!r}; use one of {forms}, or an http(s):// bot URL")


async def make_player(spec: str, game: str) -> BasePlayer:
    """Build the player a spec names; ConfigError explains the accepted forms."""
    spec = spec.strip()
    if spec.startswith(("http://", "https://")):
        return await _auto_http(spec, game)
    scheme, rest = _split(spec)
    return await scheme.factory(game, rest)


#: Schemes whose factory only builds an object (no I/O, no process, no claim on a shared resource), so building
#: one and dropping it is a cheap, side-effect-free check of the spec.
_BUILT_TO_CHECK = frozenset({"builtin", "bws", "stateless"})


async def check_spec(spec: str, game: str) -> None:
    """Raise ConfigError when ``spec`` can never name a player of ``game``; contacts nothing, starts nothing.

    For callers that play many games with one spec (tournaments): an unknown scheme, an unknown built-in, a
    malformed bot URL or an HTTTX-only bot for another game is refused before the first game instead of failing
    every one. Built-ins and ``bws:``/``stateless:`` are built and dropped (cheap); a bare URL is checked for its
    form only (building it asks the bot which protocol it speaks); other schemes' factories may spawn, connect or
    claim a waiting bot, so only their scheme is checked: their games still fail one by one if the rest is wrong.
    """
    spec = spec.strip()
    if spec.startswith(("http://", "https://")):
        from hexarena.players.htttx_common import capabilities_url

        _htttx_only(game, "bot-API")
        capabilities_url(spec)
        return
    scheme, _ = _split(spec)
    if scheme.name in _BUILT_TO_CHECK:
        await make_player(spec, game)


def _split(spec: str) -> tuple[Scheme, str]:
    """(scheme, the rest) of a non-URL spec; ConfigError lists the accepted forms for an unknown scheme."""
    name, _, rest = spec.partition(":")
    scheme = _lookup(name)
    if scheme is None:
        raise unknown_spec(spec)
    return scheme, rest


async def _builtin(game: str, name: str) -> BasePlayer:
    from hexarena.players.inprocess import InProcessPlayer

    return InProcessPlayer.builtin(game, name)


def remote_address_schemes(game: Game[S, M]) -> list[Scheme]:
    """The schemes a remote client may use to seat a bot of ``game`` reached at an address it gives (a bot URL,
    ``HOST:PORT``): each scheme declares whether it is remote-safe, takes an address and which games it plays."""
    return [s for s in registered_schemes().values() if s.remote_allowed and s.address and s.seats(game)]


def _is_htttx(game: Game[S, M]) -> bool:
    from hexarena.games.htttx import HtttxGame

    return isinstance(game, HtttxGame)


def _htttx_only(game: str, kind: str) -> None:
    from hexarena.core.registry import get_game

    if not _is_htttx(get_game(game)):
        raise ConfigError(f"{kind} bots play HTTTX only, not {game}")


async def _bws(game: str, url: str) -> BasePlayer:
    from hexarena.players.bws import BwsPlayer

    _htttx_only(game, "bws")
    return BwsPlayer(url)


async def _stateless(game: str, url: str) -> BasePlayer:
    from hexarena.players.stateless import StatelessPlayer

    _htttx_only(game, "stateless")
    return StatelessPlayer(url)


async def _human(game: str, name: str) -> BasePlayer:
    from hexarena.players.human import HtttxHumanPlayer

    _htttx_only(game, "human (websocket)")
    return HtttxHumanPlayer(name or "human")


async def _auto_http(url: str, game: str) -> BasePlayer:
    """A bare URL: prefer bws when the bot declares it (the spec's main transport), else stateless."""
    from hexarena.players.htttx_common import fetch_capabilities, http_client

    _htttx_only(game, "bot-API")
    async with http_client() as client:
        _, caps = await fetch_capabilities(client, url)
    if caps.basic_websocket is not None and caps.basic_websocket.versions.v1_alpha is not None:
        return await _bws(game, url)
    if caps.stateless is not None and caps.stateless.versions.v1_alpha is not None:
        return await _stateless(game, url)
    raise ConfigError(f"the bot at {url} declares neither basic_websocket nor stateless v1-alpha")


BUILTIN = Scheme("builtin", _builtin, "builtin:NAME  a built-in bot of the game", starts_program=False, remote=True)
BWS = Scheme(
    "bws",
    _bws,
    "bws:URL  an HTTTX bot server over basic_websocket v1-alpha",
    starts_program=False,
    remote=True,
    address=True,
    plays=_is_htttx,
    example="http://127.0.0.1:8765/capabilities.json",
)
STATELESS = Scheme(
    "stateless",
    _stateless,
    "stateless:URL  an HTTTX bot server over stateless v1-alpha",
    starts_program=False,
    remote=True,
    address=True,
    plays=_is_htttx,
    example="http://127.0.0.1:8765/capabilities.json",
)
HUMAN = Scheme(
    "human",
    _human,
    "human[:NAME]  a seat for a person (WS /ws?token=...)",
    starts_program=False,
    remote=True,
    needs_server=True,
    plays=_is_htttx,
)

__all__ = [
    "PLAYERS_GROUP",
    "Scheme",
    "check_spec",
    "make_player",
    "register_scheme",
    "registered_schemes",
    "remote_address_schemes",
    "scheme_errors",
    "scheme_of",
    "schemes",
    "unknown_spec",
]
