"""In-process scripted players for referee tests: each step of a script is one answer to a move request.

A step is a move value, or a ``Step`` that sleeps, advances a fake clock, raises, or fails the player at once
(as a socket reader would when the bot goes away). Players record every call so tests can check what the
referee told them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest, PlayerResult
from hexarena.players.base import BasePlayer


class FakeClock:
    """A monotonic clock the test advances by hand, so clock arithmetic is exact."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@dataclass
class Step:
    """One scripted answer. ``move`` is returned after the effects, unless ``raise_`` or ``hang`` applies."""

    move: Any = None
    sleep: float = 0.0  # real seconds to wait (for deadlines the referee enforces with the event loop)
    think: float = 0.0  # seconds to advance the FakeClock by
    raise_: BaseException | None = None
    hang: bool = False  # never answer
    fail_other: BaseException | None = None  # make the *opponent* fail while we think
    evaluation: dict[str, Any] | None = None
    considerations: list[Any] | None = None


@dataclass
class Calls:
    started: list[MatchInfo] = field(default_factory=list)
    requests: list[MoveRequest] = field(default_factory=list)
    history_lens: list[int] = field(default_factory=list)
    observed: list[tuple[int, Any]] = field(default_factory=list)
    finished: list[PlayerResult] = field(default_factory=list)
    cancelled: int = 0


class ScriptedPlayer(BasePlayer):
    """Answers move requests from a script; runs out of script -> raises AssertionError (a test bug)."""

    kind = "scripted"

    def __init__(
        self,
        name: str,
        script: list[Any],
        clock: FakeClock | None = None,
        start_error: BaseException | None = None,
        start_hang: bool = False,
    ) -> None:
        super().__init__()
        self.name = name
        self.script = list(script)
        self.clock = clock
        self.start_error = start_error
        self.start_hang = start_hang
        self.calls = Calls()
        self.opponent: ScriptedPlayer | None = None

    async def start(self, info: MatchInfo) -> None:
        self.calls.started.append(info)
        if self.start_hang:
            await asyncio.Event().wait()
        if self.start_error is not None:
            raise self.start_error

    async def move(self, request: MoveRequest) -> MoveReply:
        self.calls.requests.append(request)
        self.calls.history_lens.append(len(request.history))
        if not self.script:
            raise AssertionError(f"{self.name}: script exhausted")
        step = self.script.pop(0)
        if not isinstance(step, Step):
            step = Step(move=step)
        try:
            if step.fail_other is not None:
                assert self.opponent is not None
                self.opponent.fail(step.fail_other)
            if step.sleep:
                await asyncio.sleep(step.sleep)
            if step.hang:
                await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.calls.cancelled += 1
            raise
        if step.think and self.clock is not None:
            self.clock.t += step.think
        if step.raise_ is not None:
            raise step.raise_
        return MoveReply(move=step.move, evaluation=step.evaluation, considerations=step.considerations)

    async def observe(self, seat: int, move: Any, state: Any) -> None:
        self.calls.observed.append((seat, move))

    async def finish(self, result: PlayerResult) -> None:
        self.calls.finished.append(result)


def pair(a: ScriptedPlayer, b: ScriptedPlayer) -> list[ScriptedPlayer]:
    a.opponent, b.opponent = b, a
    return [a, b]


class Recorder:
    """A MatchListener that keeps every event."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []
        self.result: Any = None

    async def on_start(self, match_id: str, state: Any) -> None:
        self.events.append(("start", match_id))

    async def on_move(self, match_id: str, record: Any, state: Any) -> None:
        self.events.append(("move", record))

    async def on_end(self, result: Any) -> None:
        self.events.append(("end", result))
        self.result = result
