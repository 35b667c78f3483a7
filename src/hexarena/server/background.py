"""The server's background loops (the ladder's pairing, the failover scans, the tournament scan, the cluster's
renewals): how each notices it was asked to stop, and how a shutdown stops them without waiting for ever.

Why: such a loop takes the errors of a database, Redis or a bot for their being away a moment and carries on. A
driver can answer the cancellation of a call in flight with one of those errors instead of letting the
``CancelledError`` through (redis-py's ``ConnectionError``; a database driver's "connection closed", which the store
reports as ``StoreError``), or swallow it in its cleanup. The loop then goes on as if nothing had been asked, and a
shutdown that waits for it waits for ever: a server that never stops.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable

log = logging.getLogger(__name__)

#: how long a shutdown waits for a background task that was asked to stop; it is asked again every
#: :data:`ASK_AGAIN` s meanwhile (a cancellation a library swallowed is not delivered twice). Short: these steps
#: come before the recorder's, which journals what the database has not taken, and the whole stop must end
#: before ``server.serving``'s forced exit, which journals nothing.
STOP_GRACE = 2.0
ASK_AGAIN = 0.5


def stop_if_cancelled() -> None:
    """Raise ``CancelledError`` when the running task was asked to stop. A loop calls it where it carries on after
    an error (or at each turn): asyncio counts a stop request until somebody answers it, so one that a library
    turned into an error, or took and dropped, is still seen here."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def stop_tasks(tasks: Iterable[asyncio.Task[object]], what: str, grace: float = STOP_GRACE) -> bool:
    """Cancel ``tasks`` and wait until they have ended, asking again every :data:`ASK_AGAIN` s, at most ``grace``
    s in all; True when all ended. Tasks still running then are left to the event loop's end and logged as an
    error naming ``what``: a shutdown that never finishes is worse than one that leaves a task behind. Each request
    cuts short the cleanup it interrupts: not for tasks whose cleanup must finish (a match closes its bots'
    processes, then records its end: ``MatchManager.close`` asks once and waits, the cleanup bounded by its own)."""
    tasks = list(tasks)
    pending = {task for task in tasks if not task.done()}
    deadline = time.monotonic() + grace
    while pending:
        for task in pending:
            task.cancel()
        left = deadline - time.monotonic()
        if left <= 0:
            names = ", ".join(sorted(task.get_name() for task in pending))
            log.error("%s: %d task(s) did not stop within %g s of being asked: %s", what, len(pending), grace, names)
            return False
        _, pending = await asyncio.wait(pending, timeout=min(ASK_AGAIN, left))
    for task in tasks:
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: an error it ended with was logged where it happened
    return True


__all__ = ["ASK_AGAIN", "STOP_GRACE", "stop_if_cancelled", "stop_tasks"]
