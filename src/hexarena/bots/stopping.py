"""Bounds on every built-in bot's thinking: a think-time cap whatever the clock offers, and a cooperative stop.

A turn clock may offer a day, and a bot asked without a clock may have no limit of its own; a search left to run
that long grows its tree without bound. So each search caps its budget with ``think_cap``.

Built-in bots run in worker threads (``players/inprocess.py``) and a thread cannot be killed: when a match is
cancelled, or the server shuts down, the search has to be asked to stop, and has to ask often. The caller that runs
``choose`` in a thread wraps it in ``stoppable(signal)`` and sets the ``StopSignal`` when it gives up on the move; the
search polls ``stop_requested()`` in its loop (beside its deadline), or, in an engine running without the GIL, the
signal's one-byte ``stop_flag()``, and returns its best move so far. ``stop_all()`` stops every search of the process
at once (server shutdown), so no worker thread keeps the interpreter alive.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from hexarena_sdk.stopsignal import StopFlag, StopSignal

__all__ = [
    "MAX_THINK_SECONDS",
    "StopFlag",
    "StopSignal",
    "stop_all",
    "stop_flag",
    "stop_requested",
    "stoppable",
    "think_cap",
]

#: The most any built-in bot thinks about one move, whatever the clock offers (seconds).
MAX_THINK_SECONDS = 60.0

_local = threading.local()
_active: set[StopSignal] = set()
_lock = threading.Lock()


def think_cap(time_limit: float | None) -> float:
    """The seconds a search may use: ``time_limit`` capped at ``MAX_THINK_SECONDS`` (the cap when None)."""
    return MAX_THINK_SECONDS if time_limit is None else min(time_limit, MAX_THINK_SECONDS)


@contextmanager
def stoppable(event: StopSignal) -> Iterator[StopSignal]:
    """Within the block, ``stop_requested()`` in this thread is true once ``event`` is set (or ``stop_all()``)."""
    previous = getattr(_local, "event", None)
    _local.event = event
    with _lock:
        _active.add(event)
    try:
        yield event
    finally:
        with _lock:
            _active.discard(event)
        _local.event = previous


def stop_requested() -> bool:
    """True when whoever runs this search in this thread gave up on it: stop and return the best move so far."""
    event: StopSignal | None = getattr(_local, "event", None)
    return event is not None and event.is_set()


def stop_flag() -> StopFlag | None:
    """The flag of the search this thread runs (``StopSignal.flag``), for an engine to read without the GIL; None
    when nobody can stop it."""
    event: StopSignal | None = getattr(_local, "event", None)
    return None if event is None else event.flag


def stop_all() -> int:
    """Ask every search running now to stop (server shutdown); how many were asked."""
    with _lock:
        events = list(_active)
    for event in events:
        event.set()
    return len(events)
