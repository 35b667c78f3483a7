"""Which checks a spec gets: by its protocol (scheme), the HTTTX bot API or a stdin/stdout engine."""

from __future__ import annotations

from typing import Any

from hexarena.checkbot.engines import GAME_OF, run_engine
from hexarena.checkbot.games import Settings
from hexarena.checkbot.htttx import run_htttx
from hexarena.checkbot.report import Report
from hexarena.core.errors import ConfigError
from hexarena.core.registry import get_game
from hexarena.players.htttx_common import fetch_capabilities, http_client

OPPONENTS = ["random", "best"]
#: Protocols a later version will check (they need a lobby or a socket server of their own).
NOT_YET = {"battlebot"}


async def _protocol_of(spec: str) -> tuple[str, str]:
    """(protocol, the rest of the spec): a bare URL is bws when the bot declares it, else stateless."""
    spec = spec.strip()
    if spec.startswith(("http://", "https://", "ws://", "wss://")):
        try:
            async with http_client() as client:
                _, caps = await fetch_capabilities(client, spec)
        except Exception:  # the capabilities check itself reports what is wrong; bws is the spec's main transport
            return "bws", spec
        has_bws = caps.basic_websocket is not None and caps.basic_websocket.versions.v1_alpha is not None
        has_stateless = caps.stateless is not None and caps.stateless.versions.v1_alpha is not None
        return ("stateless" if has_stateless and not has_bws else "bws"), spec
    scheme, _, rest = spec.partition(":")
    return scheme, rest


async def check_bot(
    spec: str,
    *,
    games: int = 2,
    settings: Settings,
    game: str | None = None,
    opponents: list[str] | None = None,
) -> Report:
    """Run every check that applies to ``spec``; ConfigError for a spec this command can't check, or for a game
    parameter (``settings.params``) the game does not have."""
    protocol, rest = await _protocol_of(spec)
    opponents = opponents or OPPONENTS
    if protocol in ("bws", "stateless"):
        report = Report(spec, protocol, "htttx")
        await run_htttx(report, rest, games, settings, opponents)
        return report
    if protocol in GAME_OF:
        the_game: Any = get_game(game or GAME_OF[protocol])
        settings.params = the_game.validate_params(settings.params)  # ConfigError names a wrong one
        report = Report(spec, protocol, the_game.name)
        await run_engine(report, spec, the_game, games, settings, opponents)
        return report
    if protocol in NOT_YET:
        raise ConfigError(f"check-bot does not check {protocol}: bots yet (bws, stateless, uais, htp, uhp, hiveai do)")
    forms = "bws:, stateless:, uais:, htp:, uhp:, hiveai: or hiveai-stdio:"
    raise ConfigError(f"check-bot needs a {forms} spec or a bot URL, got {spec!r}")


__all__ = ["OPPONENTS", "check_bot"]
