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
from browser_pages import browser_page, chromium_launch_options, save_shot

CHROMIUM = os.environ.get("HEXARENA_CHROMIUM", "/usr/bin/chromium")


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
            pytest.fail(f"chromium not found at {CHROMIUM}; CI must install it (apt-get install chromium)")
        pytest.skip(f"chromium not found at {CHROMIUM} (set HEXARENA_CHROMIUM); the browser tests need it")
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One chromium per test module: the sync Playwright API runs an event loop in this thread, so it must be
    gone before any asyncio test of another module starts."""
    options = chromium_launch_options(_chromium_or_skip())
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(headless=True, **options)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with browser_page(browser, 1200, 900) as pg:
        yield pg


@pytest.fixture
def shot() -> Any:
    """``shot(page, name)`` saves a full-page screenshot as ``test-artifacts/screenshots/NAME.png`` and runs axe
    on that state (its violations fail the test at its end: ``accessibility``)."""
    return save_shot
