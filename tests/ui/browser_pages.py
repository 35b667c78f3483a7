"""A browser page of its own for a test (the ``page`` fixture, a second person's ``friend``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from accessibility import check_state, close_log, open_log

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def save_shot(page: Any, name: str) -> Path:
    """A full-page screenshot as ``test-artifacts/screenshots/NAME.png``, and axe on that state (what it finds
    fails the test at its end)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    check_state(page, f"state {name!r}")
    return path


@contextlib.contextmanager
def browser_page(browser: Any, width: int, height: int, whose: str = "the page") -> Iterator[Any]:
    """A page in a browser context of its own (its own localStorage, so its own seat tokens); any JavaScript error
    on it fails the test, and so does any axe violation in a state it showed (each screenshot, and the last state
    of every page of the context: ``accessibility``)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    log = open_log(context)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.set_default_timeout(15000)
    passed = False
    try:
        yield pg
        passed = True
    finally:
        if passed:  # a failed test's page may be anywhere: its own failure is the one to read
            for i, other in enumerate(context.pages):
                log.check(other, f"{whose}, last state" if i == 0 else f"another page of {whose}, last state")
        close_log(context)
        context.close()
    assert not errors, f"JavaScript errors on {whose}: {errors}"
    assert not log.found, f"axe violations on {whose}:\n" + "\n".join(log.found)
