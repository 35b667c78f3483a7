"""Built-in bots as players: an EngineBot runs in a worker thread so the event loop keeps serving others.

The thread hop costs tens of microseconds, which is most of a move for an instant bot (random, center); so a
bot whose recent moves all took under ``INLINE_BELOW`` seconds is called inline on the loop, and goes back to
the thread as soon as one inline call takes longer than ``BACK_TO_THREAD``.

A thread cannot be killed, so each threaded move runs under its own stop event (``bots.stopping``): when the
move is cancelled (the match ended, the server is shutting down) the event is set and the search returns within
moments instead of thinking on, unseen, for as long as the clock offered.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from typing import Any

from hexarena.bots.base import think
from hexarena.bots.registry import make_builtin
from hexarena.bots.timing import LATENESS, move_budget
from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest
from hexarena.core.game import Game
from hexarena.players.base import BasePlayer

#: A bot is called inline after ``INLINE_AFTER`` consecutive moves each faster than this (seconds)...
INLINE_BELOW = 0.0005
INLINE_AFTER = 3
#: ...and returns to its thread once an inline move takes longer than this.
BACK_TO_THREAD = 0.002


class InProcessPlayer(BasePlayer):
    """Wraps an EngineBot (``choose(game, state, time_limit, rng)``)."""

    kind = "builtin"
    rng: random.Random  # always one: the bot's random draws (``BasePlayer.rng``)

    def __init__(self, bot: Any, name: str | None = None, seed: int | None = None, threaded: bool = True) -> None:
        super().__init__()
        self.bot = bot
        self.name = name or f"builtin:{getattr(bot, 'name', type(bot).__name__)}"
        self.rng = random.Random(seed)
        self.threaded = threaded
        self._fast_streak = 0
        self.inline_moves = 0  # how many moves ran inline (for tests and benchmarks)

    @classmethod
    def builtin(cls, game: str, bot: str, seed: int | None = None) -> InProcessPlayer:
        return cls(make_builtin(game, bot), name=f"builtin:{bot}", seed=seed)

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "spec": self.name}

    async def start(self, info: MatchInfo) -> None:
        self.info = info
        if self.threaded:  # start the loop's worker thread now, off the clock (the first hop would pay for it)
            await asyncio.to_thread(_warm)

    def _timed_choose(
        self, game: Game[Any, Any], state: Any, limit: float | None, stop: threading.Event | None = None
    ) -> tuple[Any, float]:
        begun = time.perf_counter()
        move = think(self.bot, game, state, limit, self.rng, stop)
        return move, time.perf_counter() - begun

    async def move(self, request: MoveRequest) -> MoveReply:
        # the referee offers the whole remaining time under a match clock: turn that into this move's budget
        made = len(request.history) // 2  # about this player's moves so far (two seats take turns)
        limit = move_budget(self.info.clock, request.time_limit, request.time_left, made)
        game = self.info.game
        inline = not self.threaded or self._fast_streak >= INLINE_AFTER
        if inline:
            self.inline_moves += 1
            move, took = self._timed_choose(game, request.state, limit)
        else:  # timed inside the thread: the hop and the loop's queue must not count as the bot's time
            stop = threading.Event()
            sent = time.perf_counter()
            try:
                move, took = await asyncio.to_thread(self._timed_choose, game, request.state, limit, stop)
            except asyncio.CancelledError:
                stop.set()  # the thread runs on; make its search return now
                raise
            if limit is not None:  # the hop there and back is on the clock too: searches keep it in reserve
                LATENESS.record(time.perf_counter() - sent - limit)
        if inline:
            if took > BACK_TO_THREAD:
                self._fast_streak = 0
        elif took < INLINE_BELOW:
            self._fast_streak += 1
        else:
            self._fast_streak = 0
        evaluation = getattr(self.bot, "last_evaluation", None)
        considerations = getattr(self.bot, "last_considerations", None)
        return MoveReply(move=move, evaluation=evaluation, considerations=considerations)


def _warm() -> None:
    """Nothing: running it makes the event loop's default executor start a worker thread."""
