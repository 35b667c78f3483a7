"""Which player specs a remote API client may use.

Specs that start a program on the server (``uais:``, ``htp:``, ``uhp:``, ``hiveai-stdio:``) would let anyone
who can reach the API run commands there. Over the API they are refused; the operator registers such engines
by name when starting the server (``hexarena serve --engine mybot=uais:./mybot``) and clients ask for
``engine:mybot``.
"""

from __future__ import annotations

from collections.abc import Mapping

from hexarena.core.errors import ConfigError
from hexarena.players.base import BasePlayer
from hexarena.players.spec import make_player

LOCAL_ONLY_SCHEMES = frozenset({"uais", "htp", "uhp", "hiveai-stdio"})


def parse_engine_option(option: str) -> tuple[str, str]:
    """``NAME=SPEC`` from the command line."""
    name, sep, spec = option.partition("=")
    name = name.strip()
    if not sep or not name or not spec.strip():
        raise ConfigError(f"--engine takes NAME=SPEC (e.g. mybot=uais:./mybot), got {option!r}")
    if not name.replace("-", "").replace("_", "").isalnum():
        raise ConfigError(f"engine name {name!r} may only use letters, digits, '-' and '_'")
    return name, spec.strip()


async def make_remote_player(spec: str, game: str, engines: Mapping[str, str]) -> BasePlayer:
    """``make_player`` for specs that came from an API client."""
    spec = spec.strip()
    scheme, sep, rest = spec.partition(":")
    if sep and scheme == "engine":
        if rest not in engines:
            known = ", ".join(sorted(engines)) or "none (start the server with --engine NAME=SPEC)"
            raise ConfigError(f"no engine named {rest!r} on this server; registered engines: {known}")
        player = await make_player(engines[rest], game)
        player.name = f"engine:{rest}"
        return player
    if sep and scheme in LOCAL_ONLY_SCHEMES:
        raise ConfigError(
            f"{scheme}: players start programs on the server and can't be created over the API; "
            "the operator can register one with `hexarena serve --engine NAME=SPEC`, then use engine:NAME"
        )
    return await make_player(spec, game)
