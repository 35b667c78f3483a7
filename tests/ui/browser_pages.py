"""A browser page of its own for a test (the ``page`` fixture, a second person's ``friend``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def browser_page(browser: Any, width: int, height: int, whose: str = "the page") -> Iterator[Any]:
    """A page in a browser context of its own (its own localStorage, so its own seat tokens); any JavaScript error
    on it fails the test."""
    context = browser.new_context(viewport={"width": width, "height": height})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.set_default_timeout(15000)
    try:
        yield pg
    finally:
        context.close()
    assert not errors, f"JavaScript errors on {whose}: {errors}"
