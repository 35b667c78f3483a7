"""check-bot for the ladder: the report a paused ladder bot's owner reads.

Why here and not in the server: check-bot sits above the server (it plays games with the referee and the built-in
bots, as an operator's command), so the server's ladder cannot import it; ``hexarena serve`` hands
:func:`report_for` to the ladder (``LadderSettings.checker``) instead. The run is short (one game from the start
and one from a varied position, against ``random``, a turn clock of :data:`MOVE_SECONDS`): enough to show the
failure that paused the bot, with what it sent, what the protocol expects and how to fix it.
"""

from __future__ import annotations

from typing import Any

from hexarena.checkbot.games import Settings
from hexarena.checkbot.run import check_bot
from hexarena.core.errors import ConfigError
from hexarena.referee.clock import clock_from

#: Seconds the bot has for each move in the check (the ladder's default too).
MOVE_SECONDS = 5.0
#: Moves of each checked game.
MAX_PLIES = 30


async def report_for(spec: str, game: str) -> dict[str, Any]:
    """check-bot's report on ``spec`` as JSON (``ok``, each check with what was sent and how to fix it).

    HexarenaError (a ConfigError) for a spec check-bot does not check here: a battlebot login (check-bot checks a
    battlebot client on a lobby of its own, which the bot must be pointed at; its owner runs that)."""
    if spec.startswith("battlebot:"):
        bot_id = spec.removeprefix("battlebot:")
        raise ConfigError(
            f"a battlebot client is checked on check-bot's own lobby: run `hexarena check-bot {spec} --game {game} "
            f"--auth check-auth.json` and start the bot {bot_id!r} with the auth.json it writes"
        )
    settings = Settings(clock=clock_from("turn", MOVE_SECONDS), max_plies=MAX_PLIES, heartbeat_ms=250)
    report = await check_bot(spec, games=1, settings=settings, game=game, opponents=["random"])
    return report.to_json()


__all__ = ["MAX_PLIES", "MOVE_SECONDS", "report_for"]
