"""Built-in bots as players: an EngineBot runs in a worker thread so the event loop keeps serving others."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from hexarena.bots.registry import make_builtin
from hexarena.players.base import BasePlayer, MatchInfo, MoveReply, MoveRequest

#: Part of the move budget a built-in bot is told it has, keeping room for the thread hop and the referee.
SAFETY = 0.8


class InProcessPlayer(BasePlayer):
    """Wraps an EngineBot (``choose(game, state, time_limit, rng)``)."""

    kind = "builtin"

    def __init__(self, bot: Any, name: str | None = None, seed: int | None = None, threaded: bool = True) -> None:
        super().__init__()
        self.bot = bot
        self.name = name or f"builtin:{getattr(bot, 'name', type(bot).__name__)}"
        self.rng = random.Random(seed)
        self.threaded = threaded

    @classmethod
    def builtin(cls, game: str, bot: str, seed: int | None = None) -> InProcessPlayer:
        return cls(make_builtin(game, bot), name=f"builtin:{bot}", seed=seed)

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "spec": self.name}

    async def start(self, info: MatchInfo) -> None:
        self.info = info

    async def move(self, request: MoveRequest) -> MoveReply:
        limit = None if request.time_limit is None else max(0.0, request.time_limit * SAFETY)
        game = self.info.game
        if self.threaded:
            move = await asyncio.to_thread(self.bot.choose, game, request.state, limit, self.rng)
        else:
            move = self.bot.choose(game, request.state, limit, self.rng)
        evaluation = getattr(self.bot, "last_evaluation", None)
        considerations = getattr(self.bot, "last_considerations", None)
        return MoveReply(move=move, evaluation=evaluation, considerations=considerations)
