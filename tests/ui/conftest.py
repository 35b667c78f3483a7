"""A real hexarena server on a loopback port (uvicorn in a thread) and a headless Debian chromium for the UI tests.

Chromium missing: the tests skip with the reason, unless ``CI`` is set, where they fail (CI installs it).
Screenshots go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_pages import browser_page, chromium_launch_options, default_chromium, save_shot

CHROMIUM = default_chromium()


def make_app(database_url: str) -> Any:
    from hexarena.server.app import Settings, create_app

    return create_app(Settings(database_url=database_url))


@pytest.fixture
def app_factory() -> Any:
    """``app_factory(database_url)``: the full app (the UI routes are part of it)."""
    return make_app


class ServerThread:
    """uvicorn on its own event loop in a thread, so the sync Playwright API can drive the page meanwhile."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(
            app, log_level="warning", lifespan="on", ws="websockets-sansio", timeout_graceful_shutdown=2
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve(sockets=[self.sock])), daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the hexarena server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.sock.close()


@pytest.fixture
def serve_in_thread() -> Any:
    """``with serve_in_thread(app) as srv: srv.url``: any ASGI app (e.g. an SDK bot server) on loopback."""
    return ServerThread


@pytest.fixture
def server(migrated_sqlite_url: str) -> Iterator[str]:
    """The full app on a SQLite database of this test's own, its schema migrated already (``tests/conftest.py``)."""
    with ServerThread(make_app(migrated_sqlite_url)) as srv:
        yield srv.url


def _chromium_or_skip() -> str:
    path = shutil.which(CHROMIUM) or (CHROMIUM if os.path.exists(CHROMIUM) else None)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(
                f"chromium not found at {CHROMIUM}; CI must install it (apt-get install chromium-headless-shell)"
            )
        pytest.skip(f"chromium not found at {CHROMIUM} (set HEXARENA_CHROMIUM); the browser tests need it")
    return path


#: The chromium (and its Playwright driver) of the browser tests running now in this process: ``browser``.
_open: list[tuple[Any, Any]] = []


@pytest.fixture(scope="module")
def browser() -> Any:
    """A chromium for the module's tests, kept for the next module's while this process runs browser tests one
    after another (each test gets a context of its own: ``browser_page``), so a worker that runs ten browser
    modules in a row starts one chromium and one driver, not ten. The sync Playwright API marks its event loop as
    this thread's running one, so both go before a test of another module that takes none (it may be an asyncio
    test): ``pytest_runtest_teardown``."""
    if not _open:
        options = chromium_launch_options(_chromium_or_skip())
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        try:
            _open.append((playwright, playwright.chromium.launch(headless=True, **options)))
        except BaseException:
            playwright.stop()
            raise
    return _open[0][1]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a module's last test (its module fixtures gone): the chromium goes unless the next test of this
    process, the first of another module, takes it too. (Within a module it stays: the module's fixture holds it.)"""
    yield
    if not _open or (nextitem is not None and nextitem.path == item.path):
        return
    if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
        _close_browser()


def pytest_sessionfinish() -> None:
    """A run stopped between a module's tests (``-x``, Ctrl+C) still closes its chromium."""
    _close_browser()


def _close_browser() -> None:
    while _open:
        playwright, chromium = _open.pop()
        try:
            chromium.close()
        finally:
            playwright.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with browser_page(browser, 1200, 900) as pg:
        yield pg


@pytest.fixture
def shot() -> Any:
    """``shot(page, name)`` saves a full-page screenshot as ``test-artifacts/screenshots/NAME.png`` and runs axe
    on that state (its violations fail the test at its end: ``accessibility``)."""
    return save_shot
