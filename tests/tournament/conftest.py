"""Fake players for tournament tests, reachable by spec (``tfake:KIND``) like any real player.

``random`` plays uniformly; ``greedy`` wins at once when it can, else plays randomly; ``crash`` raises on its
first move; ``slow`` sleeps past any budget; ``illegal`` answers a move the rules reject. All use the rng the
tournament seeds, so games are reproducible.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from hexarena.core.contract import MoveReply, MoveRequest
from hexarena.core.errors import BotCrashed
from hexarena.players.base import BasePlayer
from hexarena.players.spec import register_scheme


class FakePlayer(BasePlayer):
    kind = "fake"

    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode
        self.name = f"tfake:{mode}"
        self.rng = random.Random(0)

    async def move(self, request: MoveRequest) -> MoveReply:
        game = self.info.game
        state = request.state
        if self.mode == "crash":
            raise BotCrashed("the fake bot crashed")
        if self.mode == "slow":
            await asyncio.sleep(3600)
        if self.mode == "illegal":
            return MoveReply(move=game.parse("999") if game.name == "numberwang" else None)
        if self.mode == "greedy":
            me = game.to_move(state)
            for m in game.legal(state):
                out = game.outcome(game.play(state, m))
                if out is not None and out.winner == me:
                    return MoveReply(move=m)
        return MoveReply(move=game.random_move(state, self.rng))


async def _fake(game: str, mode: str) -> BasePlayer:
    return FakePlayer(mode or "random")


register_scheme("tfake", _fake, "tfake:MODE  a fake player for tournament tests", starts_program=False, remote=True)


@pytest.fixture
def fake_specs() -> dict[str, Any]:
    return {m: f"tfake:{m}" for m in ("random", "greedy", "crash", "slow", "illegal")}
