"""Player specs: one string names any player, whatever its protocol.

``builtin:NAME`` a built-in bot of the game; ``bws:URL`` or ``stateless:URL`` an HTTTX bot server; a bare
``http(s)://`` URL is an HTTTX bot server too, reached over bws when it declares it, else stateless;
``human`` a seat for a person. Other protocol families add their schemes with ``register_scheme``.

Each scheme declares, where it is registered, what it does on the server: whether it starts a program
(``starts_program``), whether a remote API client may use it (``remote``) and whether the rest of the spec is a
network address the server will connect to (``address``). ``hexarena.players.policy`` applies these declarations
to every spec that comes over the network. A scheme that declares nothing is taken at its worst (it may start a
program, no remote client may use it): a new scheme is refused remotely until its author says it is safe.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from hexarena.core.errors import ConfigError
from hexarena.players.base import BasePlayer

Factory = Callable[[str, str], Awaitable[BasePlayer]]  # (game name, the spec after "scheme:") -> player


@dataclass(frozen=True, slots=True)
class Scheme:
    """A registered ``scheme:`` with its declared policy (None: not declared, read as the unsafe answer)."""

    name: str
    factory: Factory
    help_text: str
    starts_program: bool | None = None
    remote: bool | None = None
    address: bool = False  # the spec's rest is a URL or HOST:PORT the server connects to

    @property
    def declared(self) -> bool:
        return self.starts_program is not None and self.remote is not None

    @property
    def remote_allowed(self) -> bool:
        """Only a scheme declared both remote-safe and not starting a program may come from a remote client."""
        return self.remote is True and self.starts_program is False


_SCHEMES: dict[str, Scheme] = {}


def register_scheme(
    scheme: str,
    factory: Factory,
    help_text: str,
    *,
    starts_program: bool | None = None,
    remote: bool | None = None,
    address: bool = False,
) -> None:
    """Teach ``make_player`` a new ``scheme:`` (e.g. ``uais:/path/to/bot``) and declare its policy.

    ``starts_program``: building the player runs a program on the server. ``remote``: an API client may name
    this scheme (never together with ``starts_program``: such engines reach clients only as operator-registered
    ``engine:NAME``). Leaving either out makes the scheme local-only (CLI and operator configuration).
    """
    if starts_program and remote:
        raise ValueError(f"scheme {scheme!r} starts programs, so it cannot be remote: register it as an engine")
    _SCHEMES[scheme] = Scheme(scheme, factory, help_text, starts_program, remote, address)


def registered_schemes() -> dict[str, Scheme]:
    """Every registered scheme with its declared policy, by name."""
    return dict(sorted(_SCHEMES.items()))


def scheme_of(spec: str) -> Scheme | None:
    """The registered scheme a spec names (None for a bare URL or an unknown scheme)."""
    return _SCHEMES.get(spec.strip().partition(":")[0])


def schemes() -> dict[str, str]:
    return {k: v.help_text for k, v in sorted(_SCHEMES.items())}


def unknown_spec(spec: str) -> ConfigError:
    """The error for a spec no scheme accepts, listing the accepted forms."""
    forms = ", ".join(f"{k}:..." for k in _SCHEMES)
    return ConfigError(f"unknown player spec {spec!r}; use one of {forms}, or an http(s):// bot URL")


async def make_player(spec: str, game: str) -> BasePlayer:
    """Build the player a spec names; ConfigError explains the accepted forms."""
    spec = spec.strip()
    if spec.startswith(("http://", "https://")):
        return await _auto_http(spec, game)
    scheme, rest = _split(spec)
    return await _SCHEMES[scheme].factory(game, rest)


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
    if scheme in _BUILT_TO_CHECK:
        await make_player(spec, game)


def _split(spec: str) -> tuple[str, str]:
    """(scheme, the rest) of a non-URL spec; ConfigError lists the accepted forms for an unknown scheme."""
    scheme, sep, rest = spec.partition(":")
    if not sep and scheme in _SCHEMES:
        rest = ""
    if scheme not in _SCHEMES:
        raise unknown_spec(spec)
    return scheme, rest


async def _builtin(game: str, name: str) -> BasePlayer:
    from hexarena.players.inprocess import InProcessPlayer

    return InProcessPlayer.builtin(game, name)


def _htttx_only(game: str, kind: str) -> None:
    from hexarena.core.registry import get_game
    from hexarena.games.htttx import HtttxGame

    if not isinstance(get_game(game), HtttxGame):
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


register_scheme("builtin", _builtin, "builtin:NAME  a built-in bot of the game", starts_program=False, remote=True)
register_scheme(
    "bws",
    _bws,
    "bws:URL  an HTTTX bot server over basic_websocket v1-alpha",
    starts_program=False,
    remote=True,
    address=True,
)
register_scheme(
    "stateless",
    _stateless,
    "stateless:URL  an HTTTX bot server over stateless v1-alpha",
    starts_program=False,
    remote=True,
    address=True,
)
register_scheme(
    "human", _human, "human[:NAME]  a seat for a person (WS /ws?token=...)", starts_program=False, remote=True
)

__all__ = [
    "Scheme",
    "check_spec",
    "make_player",
    "register_scheme",
    "registered_schemes",
    "scheme_of",
    "schemes",
    "unknown_spec",
]
