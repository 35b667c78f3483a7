"""How long each step of the server's shutdown took, logged when the whole took long.

Why: a stop that ends by the watchdog's force (``server.serving``) says only that it did; the steps that wait on
something outside the process (the match hand-over and the recorder on the database, the cluster on Redis) are each
bounded, and when a stop is slow the operator needs to know which of them spent the time: a database or Redis that
hangs, or a machine too loaded to run the process.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

#: Seconds of shutdown past which the steps' times are logged (a healthy stop takes a fraction of this).
SLOW_STOP = 1.0


class StopTimes:
    """The steps of one shutdown and the seconds each took, in the order they ran."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, float]] = []
        self._began: tuple[str, float] | None = None

    def step(self, what: str, close: Callable[[], Awaitable[object]]) -> Callable[[], Awaitable[None]]:
        """``close``, timed as the step ``what`` (for an ``AsyncExitStack``'s ``push_async_callback``)."""

        async def timed() -> None:
            began = time.monotonic()
            try:
                await close()
            finally:
                self.steps.append((what, time.monotonic() - began))

        return timed

    def begin(self, what: str) -> None:
        """A step that is not one call (several callbacks of an exit stack) begins; :meth:`end` ends it."""
        self._began = (what, time.monotonic())

    def end(self) -> None:
        if self._began is not None:
            what, began = self._began
            self.steps.append((what, time.monotonic() - began))
            self._began = None

    def report(self) -> None:
        """Log the steps when they took :data:`SLOW_STOP` or more in all."""
        total = sum(seconds for _, seconds in self.steps)
        if total >= SLOW_STOP:
            log.warning(
                "the shutdown took %.1f s: %s",
                total,
                ", ".join(f"{what} {seconds:.2f} s" for what, seconds in self.steps),
            )


__all__ = ["SLOW_STOP", "StopTimes"]
