"""Which checks a spec gets: by its protocol (scheme), the HTTTX bot API or a stdin/stdout engine."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hexarena.checkbot.battlebot import DEFAULT_GAME, Ready, run_battlebot
from hexarena.checkbot.engines import GAME_OF, no_reconnection, run_engine
from hexarena.checkbot.games import Settings
from hexarena.checkbot.htttx import run_htttx
from hexarena.checkbot.report import Report
from hexarena.core.errors import ConfigError
from hexarena.core.registry import get_game
from hexarena.players.htttx_common import fetch_capabilities, http_client
from hexarena.wire.battlebot import shape_for

OPPONENTS = ["random", "best"]


@dataclass(slots=True)
class ClientOptions:
    """How check-bot waits for a bot that connects to it (battlebot): where it listens, for how long, and the
    bot's auth.json (read when it exists, written for the bot when not); ``ready`` is told the address."""

    listen: tuple[str, int] = ("127.0.0.1", 0)
    wait: float = 60.0
    auth: Path | None = None
    ready: Ready | None = None


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
    return scheme, rest.strip()


async def check_bot(
    spec: str,
    *,
    games: int = 2,
    settings: Settings,
    game: str | None = None,
    opponents: list[str] | None = None,
    client: ClientOptions | None = None,
) -> Report:
    """Run every check that applies to ``spec``; ConfigError for a spec this command can't check, or for a game
    parameter (``settings.params``) the game does not have. ``client``: how to wait for a battlebot client."""
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
        no_reconnection(report)
        return report
    if protocol == "battlebot":
        shape = shape_for(game or DEFAULT_GAME)
        settings.params = shape.game.validate_params(settings.params)
        report = Report(spec, protocol, shape.game.name)
        c = client or ClientOptions()
        await run_battlebot(
            report,
            rest or None,
            shape,
            games,
            settings,
            opponents,
            listen=c.listen,
            wait=c.wait,
            auth=c.auth,
            ready=c.ready,
        )
        return report
    forms = "bws:, stateless:, uais:, htp:, uhp:, hiveai:, hiveai-stdio: or battlebot[:BOT_ID]"
    raise ConfigError(f"check-bot needs a {forms} spec or a bot URL, got {spec!r}")


__all__ = ["OPPONENTS", "ClientOptions", "check_bot"]
