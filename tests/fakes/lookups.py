"""Count hexarena's own event-loop lookups during a test.

Why: ``asyncio.get_running_loop()`` and ``asyncio.current_task()`` make a ``getpid`` syscall on every call in
Python 3.11, so the hot paths (the referee, the bws adapter, the SDK's session) look them up once, not once a
move. Only calls made from hexarena's own modules are counted: libraries' lookups are theirs, and some depend on
timing (a flush that happens or not), which would make a count of all of them flaky.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import hexarena

_OURS = str(Path(hexarena.__file__).parent)


def count_loop_lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Patch both lookups for the rest of the test; the returned list gets the name of each call hexarena makes
    (clear it to start a count)."""
    lookups: list[str] = []

    def counting(real: Callable[..., Any]) -> Callable[..., Any]:
        def lookup(*args: Any) -> Any:
            if sys._getframe(1).f_code.co_filename.startswith(_OURS):
                lookups.append(real.__name__)
            return real(*args)

        return lookup

    for name in ("get_running_loop", "current_task"):
        monkeypatch.setattr(asyncio, name, counting(getattr(asyncio, name)))
    return lookups
