"""Calling into a bot without ever blocking the connection, and answering for it when it runs late.

``choose_move`` and ``evaluate`` run in a worker thread while the event loop keeps reading the socket
(heartbeats, interrupts). Time limits: a request with a limit gets a *soft deadline* a little before the real
one (``safety_margin``); if the bot has not answered by then, the SDK stops waiting, sets the bot's
``should_stop()`` flag and answers with a fallback move from the engine (the heuristic bot: it takes wins and
blocks threats) so the bot never loses on time. Python cannot kill a thread, so the late call keeps running
until it returns; the SDK never starts a second call into the same bot instance while one runs (a bot author
can rely on one thread at a time) and answers the next request with the fallback if the late call is still
busy at that request's soft deadline.

Instant bots skip the thread: after ``INLINE_AFTER`` consecutive calls that each returned within
``INLINE_BELOW`` seconds, calls run inline on the event loop (a thread hop costs ~50-100 us of CPU and two
loop wake-ups, more than such a bot's whole move). One inline call slower than ``BACK_TO_THREAD`` sends the bot
back to its thread. The price: the first slow call after a run of instant ones blocks the loop for its whole
duration (no heartbeat or interrupt is read, and the soft-deadline fallback can't answer for it), so a bot that
switches from instant answers to long thinks should watch ``should_stop()`` / its deadline itself.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar, TypeVarTuple

from hexarena_sdk.bot import BaseBot, JobContext
from hexarena_sdk.stopsignal import StopSignal

log = logging.getLogger("hexarena.bots.sdk")

CallKind = Literal["done", "timeout", "interrupted", "error"]

#: Calls run inline after this many consecutive calls each faster than ``INLINE_BELOW`` seconds...
INLINE_AFTER = 3
INLINE_BELOW = 0.001
#: ...until one inline call takes longer than this.
BACK_TO_THREAD = 0.002

#: What a bot call returns, and its arguments.
T = TypeVar("T")
Ts = TypeVarTuple("Ts")


def safety_margin(limit: float) -> float:
    """Seconds before a ``limit``-second deadline at which the SDK answers on the bot's behalf: enough for a
    fallback move and the trip back over a network (0.08 s for 0.3 s, 0.15 s for 1 s, 0.5 s from 4.5 s)."""
    return min(0.5, 0.05 + 0.1 * max(0.0, limit))


def soft_deadline(received_at: float, limit: float | None) -> float | None:
    """The monotonic instant at which the SDK stops waiting for the bot; None without a limit."""
    if limit is None:
        return None
    return received_at + max(0.0, limit - safety_margin(limit))


@dataclass
class CallResult(Generic[T]):
    """How a call into the bot went: ``value`` is what it returned when ``kind`` is ``done`` (else None),
    ``error`` what it raised when ``kind`` is ``error``."""

    kind: CallKind
    value: T | None = None
    error: BaseException | None = None


def _consume(fut: asyncio.Future[T]) -> None:
    """Retrieve a finished worker's exception so an abandoned call never logs 'never retrieved'."""
    if not fut.cancelled():
        exc = fut.exception()
        if exc is not None:
            log.debug("abandoned bot call ended with %r", exc)


def _timed_call(took: list[float], fn: Callable[[*Ts], T], args: tuple[*Ts]) -> T:
    """``fn(*args)`` in the worker thread, appending its own duration to ``took`` (the thread hop excluded)."""
    begun = time.perf_counter()
    value = fn(*args)
    took.append(time.perf_counter() - begun)
    return value


class BotRunner:
    """Serialises calls into one bot instance on an executor, with soft deadlines and cancellation."""

    def __init__(self, bot: BaseBot, executor: Executor | None = None, fast_streak: int = 0) -> None:
        self.bot = bot
        self.executor = executor
        self._worker: asyncio.Future[Any] | None = None  # the last call's, whatever it returns
        self._job: JobContext | None = None
        #: consecutive calls faster than INLINE_BELOW; a server passes what the last session of the same bot
        #: ended with, so a new game of an instant bot starts inline
        self._fast_streak = fast_streak
        self.inline_calls = 0  # how many calls ran inline (for tests and benchmarks)

    @property
    def fast_streak(self) -> int:
        return self._fast_streak

    @property
    def busy(self) -> bool:
        return self._worker is not None and not self._worker.done()

    def stop(self) -> None:
        """Ask the running call (if any) to stop; used when the session ends."""
        if self._job is not None:
            self._job.stop.set()

    async def _wait(
        self, fut: asyncio.Future[Any], deadline: float | None, cancelled: asyncio.Event | None
    ) -> Literal["done", "timeout", "interrupted"]:
        waiter: asyncio.Task[Literal[True]] | None = None
        waits: set[asyncio.Future[Any]] = {fut}
        if cancelled is not None:
            if cancelled.is_set():
                return "interrupted"
            waiter = asyncio.ensure_future(cancelled.wait())
            waits.add(waiter)
        try:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if waiter is not None:
                waiter.cancel()
        if fut.done():
            return "done"
        if cancelled is not None and cancelled.is_set():
            return "interrupted"
        return "timeout"

    async def call(
        self,
        fn: Callable[[*Ts], T],
        *args: *Ts,
        deadline: float | None = None,
        cancelled: asyncio.Event | None = None,
    ) -> CallResult[T]:
        """Run ``fn(*args)`` in a worker thread until it returns, ``deadline`` passes or ``cancelled`` is set."""
        if self._worker is not None and not self._worker.done():
            state = await self._wait(self._worker, deadline, cancelled)
            if state != "done":
                return CallResult(state)
        inline = self._fast_streak >= INLINE_AFTER
        job = JobContext(None if inline else StopSignal(), deadline)  # see JobContext: threads share it
        self._job = job
        self.bot._job = job
        if inline:
            return self._inline(fn, args, cancelled)
        took: list[float] = []
        worker = asyncio.get_running_loop().run_in_executor(self.executor, _timed_call, took, fn, args)
        worker.add_done_callback(functools.partial(self._count, took))
        worker.add_done_callback(_consume)
        self._worker = worker
        state = await self._wait(worker, deadline, cancelled)
        if state != "done":
            job.stop.set()
            return CallResult(state)
        exc = worker.exception()
        if exc is not None:
            return CallResult("error", error=exc)
        return CallResult("done", value=worker.result())

    def _count(self, took: list[float], fut: asyncio.Future[T]) -> None:
        """Done callback of a threaded call: a fast, successful call counts towards going inline."""
        if not fut.cancelled() and fut.exception() is None and took and took[0] < INLINE_BELOW:
            self._fast_streak += 1
        else:
            self._fast_streak = 0

    def _inline(self, fn: Callable[[*Ts], T], args: tuple[*Ts], cancelled: asyncio.Event | None) -> CallResult[T]:
        """Run an instant bot's call on the loop itself (see the module docstring)."""
        if cancelled is not None and cancelled.is_set():
            return CallResult("interrupted")
        self.inline_calls += 1
        begun = time.perf_counter()
        try:
            value = fn(*args)
        except Exception as exc:
            self._fast_streak = 0
            return CallResult("error", error=exc)
        finally:
            if time.perf_counter() - begun > BACK_TO_THREAD:
                self._fast_streak = 0
        return CallResult("done", value=value)
