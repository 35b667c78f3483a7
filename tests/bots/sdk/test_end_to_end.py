"""Our bot server against hexarena's own game-server side: referee + bws / stateless adapters."""

from __future__ import annotations

import pytest
from sdk_wire_helpers import running

from hexarena.bots.sdk import bot_class_for, make_app
from hexarena.core.contract import ClockConfig
from hexarena.core.types import Termination
from hexarena.games.htttx import HTTTX
from hexarena.players.bws import BwsPlayer
from hexarena.players.stateless import StatelessPlayer
from hexarena.referee.match import MatchConfig, Referee


@pytest.mark.parametrize("kind", ["bws", "stateless"])
async def test_heuristic_beats_random_through_the_wire(kind: str) -> None:
    async with running(make_app(bot_class_for("heuristic"))) as h, running(make_app(bot_class_for("random"))) as r:
        make = BwsPlayer if kind == "bws" else StatelessPlayer
        config = MatchConfig(game=HTTTX, clock=ClockConfig("turn", 5.0), heartbeat_ms=200, max_plies=200)
        result = await Referee(config, [make(f"http://{h}"), make(f"http://{r}")]).run()
    assert result.outcome.termination is Termination.NORMAL, result.outcome
    assert result.outcome.winner == 0
