"""An engine that exits at once (``/bin/true``) ends its match with a clean "exited" reason, whatever the moment
the server first writes to it, on uvloop (what ``hexarena serve`` runs on) and on asyncio's own loop.

uvloop's pipe transport raises RuntimeError ("the handler is closed") for a write after the child's end closed,
where asyncio raises BrokenPipeError; it is a race with the child's exit, so each spec is played many times.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
import uvloop

from hexarena.core.registry import get_game
from hexarena.core.types import Termination
from hexarena.players.spec import make_player
from hexarena.referee import MatchConfig, Referee
from hexarena.referee.clock import clock_from

TRUE = "/bin/true"
CASES = [("uais", "hex", "builtin:random"), ("htp", "hex", "builtin:random"), ("uhp", "hive", "builtin:random")]
ROUNDS = 25


async def _results(scheme: str, game_name: str, other: str) -> list[tuple[Termination, str]]:
    game = get_game(game_name)
    out = []
    for _ in range(ROUNDS):
        players = [await make_player(f"{scheme}:{TRUE}", game.name), await make_player(other, game.name)]
        config = MatchConfig(game=game, clock=clock_from("turn", 30.0))
        result = await Referee(config, players).run()
        out.append((result.outcome.termination, result.outcome.reason))
    return out


@pytest.mark.parametrize("loop_factory", [uvloop.new_event_loop, asyncio.new_event_loop], ids=["uvloop", "asyncio"])
@pytest.mark.parametrize(("scheme", "game", "other"), CASES, ids=[c[0] for c in CASES])
def test_an_engine_that_exits_at_once_ends_the_match_with_a_clean_reason(
    loop_factory: Callable[[], Any], scheme: str, game: str, other: str
) -> None:
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        results = runner.run(_results(scheme, game, other))
    for termination, reason in results:
        assert termination != Termination.ERROR and "server error" not in reason, results
        assert "exited" in reason or "closed its input" in reason, results
