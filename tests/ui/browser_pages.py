"""chromium's command line for the tests, and a browser page of its own for a test (the ``page`` fixture, a second
person's ``friend``)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from accessibility import check_state, close_log, open_log

#: chromium's command line: headless, and none of the background work a test never waits for
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


#: Debian's chromium-headless-shell (chromium's old headless mode as a program of its own, what Playwright runs
#: headless tests on by default) and Debian's chromium. The shell renders with the same Blink and V8 and starts one
#: renderer process a browser context where chromium starts three, and the browser tests open hundreds of contexts
#: (``bench/ui_idle_cpu.py`` prints what each costs; docs/guide/testing.md).
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
FULL_CHROMIUM = "/usr/bin/chromium"


def default_chromium() -> str:
    """The browser the tests run: ``$HEXARENA_CHROMIUM``, else the headless shell when installed, else chromium."""
    return os.environ.get("HEXARENA_CHROMIUM") or (HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else FULL_CHROMIUM)


def chromium_launch_options(executable: str) -> dict[str, Any]:
    """``executable_path`` and ``args`` for ``chromium.launch``: the tests' command line (Playwright adds its own)."""
    return {"executable_path": executable, "args": list(CHROMIUM_ARGS)}


SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def save_shot(page: Any, name: str) -> Path:
    """A full-page screenshot as ``test-artifacts/screenshots/NAME.png``, and axe on that state (what it finds
    fails the test at its end)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    check_state(page, f"state {name!r}")
    return path


#: how long a page action or wait may take before the test fails: a margin for a loaded machine (two cores shared
#: by four test workers, their servers and browsers, and whatever else runs), where a replay page of a long Hive
#: game has taken over 15 s to show; a page that works answers in well under a second when the machine is quiet
PAGE_TIMEOUT_MS = 45_000

#: how often ``wait_for_function`` checks its condition on a test's page: as often as a frame, as Playwright's
#: default does, but from a timer
POLL_MS = 16


#: what :func:`wait_or_say` reports of a page: its route, message line, ply label, record box and move list
SHOWN = """() => {
  const byId = (id) => document.getElementById(id);
  const moves = document.querySelector('.moves');
  return {route: location.hash, msg: byId('msg')?.textContent, ply: byId('plylabel')?.textContent,
    record: byId('record')?.value?.slice(0, 300), main: document.querySelector('main')?.innerText?.slice(0, 300),
    moves: moves && {entries: moves.children.length, scrollHeight: moves.scrollHeight, clientHeight: moves.clientHeight}};
}"""


def wait_or_say(page: Any, condition: str) -> None:
    """``page.wait_for_function(condition)``; when it times out, a failure that shows what the page showed instead
    (:data:`SHOWN`), not only that it timed out."""
    from playwright.sync_api import TimeoutError as PageTimeout

    try:
        page.wait_for_function(condition)
    except PageTimeout:
        raise AssertionError(f"{condition} never held; the page showed {page.evaluate(SHOWN)}") from None


def _poll_by_timer(page: Any) -> None:
    """``page.wait_for_function`` checks its condition every ``POLL_MS`` unless a test says otherwise. Playwright's
    default polls on ``requestAnimationFrame``, and each frame it asks for makes chromium draw one (style, layout,
    compositing, raster): several times the CPU of the page itself for as long as a test waits (a bot's move, a
    server's answer), which is much of a browser test."""
    plain = page.wait_for_function

    def wait_for_function(
        expression: str, *, arg: Any = None, timeout: float | None = None, polling: Any = None
    ) -> Any:
        return plain(expression, arg=arg, timeout=timeout, polling=POLL_MS if polling is None else polling)

    page.wait_for_function = wait_for_function


@contextlib.contextmanager
def browser_page(browser: Any, width: int, height: int, whose: str = "the page") -> Iterator[Any]:
    """A page in a browser context of its own (its own localStorage, so its own seat tokens); any JavaScript error
    on it fails the test, and so does any axe violation in a state it showed (each screenshot, and the last state
    of every page of the context: ``accessibility``)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    log = open_log(context)
    pg = context.new_page()
    _poll_by_timer(pg)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.set_default_timeout(PAGE_TIMEOUT_MS)
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
