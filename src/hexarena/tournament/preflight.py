"""What a tournament checks before its first game, so a setup that can never work is one clear error, not a table
of aborted games.

* Every player spec can name a player of the game (:func:`hexarena.players.spec.check_spec`): an unknown
  built-in, an unknown scheme, a malformed bot URL or an HTTTX-only bot for another game. Nothing is contacted.
* When games start from openings (``opening_plies`` or an openings file), every bot played over basic_websocket
  declares ``free_setup``: without it a bws bot can only start from the initial position
  (:meth:`hexarena.players.bws.BwsPlayer.start` refuses the rest), so every game would be aborted. That needs
  the bot's capabilities, so only then are bots asked; a bot that cannot be asked cannot be checked and is
  refused as well.

A bot that is down when there are no openings is not refused: its games end ``aborted`` (no result, listed at
the end of the run), which is what a bot going down mid-tournament gives too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING

from hexarena.core.errors import ConfigError, HexarenaError
from hexarena.players.spec import check_spec

if TYPE_CHECKING:
    from hexarena.tournament.runner import TournamentConfig

#: Seconds to wait for a bot's capabilities.json when checking free_setup.
CAPABILITIES_TIMEOUT = 5.0


def uses_openings(config: TournamentConfig) -> bool:
    """Whether some game of the tournament starts from a position other than the game's initial one."""
    if config.openings is not None:
        return any(len(opening) > 0 for opening in config.openings)
    return bool(config.opening_plies > 0)


async def check_players(config: TournamentConfig, engines: Mapping[str, str] | None = None) -> None:
    """Raise ConfigError naming every player that cannot play this tournament (a validated TournamentConfig).

    ``engines`` are the server's operator-registered engines: ``engine:NAME`` is checked as the spec it names.
    """
    problems: list[str] = []
    for name, spec in zip(config.names, config.players, strict=True):
        scheme, sep, rest = spec.strip().partition(":")
        if scheme == "engine" and sep and engines is not None and rest in engines:
            spec = engines[rest]
        try:
            await check_spec(spec, config.game)
        except ConfigError as exc:
            problems.append(f"{_who(name, spec)}: {exc}")
    if not problems and uses_openings(config):
        checks = [_check_free_setup(name, spec) for name, spec in zip(config.names, config.players, strict=True)]
        problems.extend(p for p in await asyncio.gather(*checks) if p is not None)
    if problems:
        raise ConfigError("cannot start the tournament: " + "; ".join(problems))


def _who(name: str, spec: str) -> str:
    return name if name == spec else f"{name} ({spec})"


def _bws_url(spec: str) -> tuple[str, bool] | None:
    """(URL, explicit) for a spec that may be played over basic_websocket; ``explicit`` for ``bws:URL``."""
    spec = spec.strip()
    if spec.startswith(("http://", "https://")):
        return spec, False
    if spec.startswith("bws:"):
        return spec[len("bws:") :].strip(), True
    return None


async def _check_free_setup(name: str, spec: str) -> str | None:
    """The problem with starting ``spec`` from an opening, or None (not a bws bot, or one declaring free_setup)."""
    from hexarena.players.htttx_common import fetch_capabilities, http_client

    target = _bws_url(spec)
    if target is None:
        return None
    url, explicit = target
    who = _who(name, spec)
    try:
        async with http_client() as client:
            caps_url, caps = await fetch_capabilities(client, url, timeout=CAPABILITIES_TIMEOUT)
    except HexarenaError as exc:
        return (
            f"{who}: could not check that the bot declares free_setup, which games from openings need: {exc}; "
            "start the bot, or play without openings"
        )
    bws = caps.basic_websocket.versions.v1_alpha if caps.basic_websocket else None
    stateless = caps.stateless is not None and caps.stateless.versions.v1_alpha is not None
    if bws is None:
        if explicit:
            return f"{who}: the bot at {caps_url} does not declare basic_websocket v1-alpha"
        if not stateless:
            return f"{who}: the bot at {caps_url} declares neither basic_websocket nor stateless v1-alpha"
        return None  # played over stateless: every request carries the whole board
    if bws.free_setup:
        return None
    hint = f", or play it as stateless:{url} (it serves stateless v1-alpha too)" if stateless else ""
    return (
        f"{who}: the bot at {caps_url} does not declare free_setup, so it cannot start from the openings this "
        f"tournament uses (--opening-plies / --openings); play without openings{hint}"
    )


__all__ = ["CAPABILITIES_TIMEOUT", "check_players", "uses_openings"]
