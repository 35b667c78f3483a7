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
import time
from typing import TypeVar

from hexarena.bots.base import EngineBot, MatchMemory, ReportsSearch, think
from hexarena.bots.registry import make_builtin
from hexarena.bots.stopping import StopSignal
from hexarena.bots.timing import (
    FIRST_LATENESS,
    RECENT_OVERRUNS,
    Lateness,
    RecentOverruns,
    allowance,
    budget_from,
    cpu_pressure,
)
from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest
from hexarena.core.game import Game
from hexarena.core.jsonvalue import JsonObject
from hexarena.players.base import BasePlayer

#: A bot is called inline after ``INLINE_AFTER`` consecutive moves each faster than this (seconds)...
INLINE_BELOW = 0.0005
INLINE_AFTER = 3
#: ...and returns to its thread once an inline move takes longer than this.
BACK_TO_THREAD = 0.002
#: Thread hops timed when a match starts (off the clock): the slowest is the match's first lateness.
PROBE_HOPS = 4

S = TypeVar("S")
M = TypeVar("M")


class InProcessPlayer(BasePlayer):
    """Wraps an EngineBot (``choose(game, state, time_limit, rng)``)."""

    kind = "builtin"
    rng: random.Random  # always one: the bot's random draws (``BasePlayer.rng``)
    #: Where overruns are remembered past the match, as the next matches' first guess (the process's own).
    overruns: RecentOverruns = RECENT_OVERRUNS

    def __init__(self, bot: EngineBot, name: str | None = None, seed: int | None = None, threaded: bool = True) -> None:
        super().__init__()
        self.bot = bot
        #: The bot as one that reports its search, asked once: a check against a runtime protocol costs more than
        #: an instant bot's whole move (a bot has the attributes from its construction on, None before its move).
        self._reports = bot if isinstance(bot, ReportsSearch) else None
        self.name = name or f"builtin:{getattr(bot, 'name', type(bot).__name__)}"
        self.rng = random.Random(seed)
        self.threaded = threaded
        self._fast_streak = 0
        self.inline_moves = 0  # how many moves ran inline (for tests and benchmarks)
        #: How late this player's recent moves of this match were, as the referee's clock counts them (budget
        #: to reply, thread hop and event loop included): the margin its next budgets keep (``timing``).
        self.lateness = Lateness()
        self._timed_moves = 0  # moves of this match made under a clock

    @classmethod
    def builtin(cls, game: str, bot: str, seed: int | None = None) -> InProcessPlayer:
        return cls(make_builtin(game, bot), name=f"builtin:{bot}", seed=seed)

    def describe(self) -> JsonObject:
        return {"name": self.name, "kind": self.kind, "spec": self.name}

    async def offered(self, kind: str, by: str) -> bool | None:
        """A built-in bot grants a takeback at once (a person practising against it, in a casual game: the referee
        allows none in rated or tournament games) and declines a draw (it plays on)."""
        return kind == "takeback"

    async def start(self, info: MatchInfo) -> None:
        self.info = info
        self.lateness = Lateness()  # a new match: what the last one learnt about lateness is not this one's
        if isinstance(self.bot, MatchMemory):
            self.bot.new_match()  # nor what its bot learnt (a search bot keeps its own)
        self._timed_moves = 0
        if self.threaded:  # start the loop's worker thread now, off the clock (the first hop would pay for it)
            await asyncio.to_thread(_warm)
            # and measure a few more hops: on a loaded machine each waits for a CPU, as every move's will, so the
            # first budgets of the match keep that back before any move has been late
            for _ in range(PROBE_HOPS):
                sent = time.perf_counter()
                await asyncio.to_thread(_warm)
                self.lateness.record(time.perf_counter() - sent)

    def _timed_choose(
        self, game: Game[S, M], state: S, deadline: float | None, stop: StopSignal | None = None
    ) -> tuple[M, float]:
        """The bot's move, told what is left until ``deadline`` (``time.perf_counter``; None: no clock), and how
        long it took. Why a deadline and not a budget: the hop to the worker thread (waiting for a CPU on a loaded
        machine) is on the referee's clock, so it comes off the bot's thinking instead of being added to it."""
        begun = time.perf_counter()
        limit = None if deadline is None else max(0.0, deadline - begun)
        move = think(self.bot, game, state, limit, self.rng, stop)
        return move, time.perf_counter() - begun

    async def move(self, request: MoveRequest) -> MoveReply:
        # the referee offers the whole remaining time under a match clock: turn that into this move's budget
        asked = time.perf_counter()
        made = len(request.history) // 2  # about this player's moves so far (two seats take turns)
        allowed = allowance(self.info.clock, request.time_limit, request.time_left, made)
        if allowed is not None and not self._timed_moves:
            # nothing learnt yet: start careful, as if a bit late, or as late as a match of this process was lately
            self.lateness.caution(max(FIRST_LATENESS * allowed, self.overruns.value()))
        limit = None if allowed is None else budget_from(allowed, self.lateness.value, cpu_pressure())
        deadline = None if limit is None else asked + limit
        game = self.info.game
        inline = not self.threaded or self._fast_streak >= INLINE_AFTER
        if inline:
            self.inline_moves += 1
            move, took = self._timed_choose(game, request.state, deadline)
        else:  # timed inside the thread: the hop and the loop's queue must not count as the bot's time
            stop = StopSignal()
            try:
                move, took = await asyncio.to_thread(self._timed_choose, game, request.state, deadline, stop)
            except asyncio.CancelledError:
                stop.set()  # the thread runs on; make its search return now
                if limit is not None:  # cut off: past the referee's grace, or the match ended meanwhile
                    self.overruns.record(time.perf_counter() - asked - limit)
                raise
        if limit is not None:  # the hop there and back is on the referee's clock too: later budgets keep it back
            late = time.perf_counter() - asked - limit
            self.lateness.record(late)
            self.overruns.record(late)
            self._timed_moves += 1
        if inline:
            if took > BACK_TO_THREAD:
                self._fast_streak = 0
        elif took < INLINE_BELOW:
            self._fast_streak += 1
        else:
            self._fast_streak = 0
        if isinstance(self.bot, ReportsSearch):
            return MoveReply(
                move=move, evaluation=self.bot.last_evaluation, considerations=self.bot.last_considerations
            )
        return MoveReply(move=move)


def _warm() -> None:
    """Nothing: running it makes the event loop's default executor start a worker thread."""
