"""Closing the store: a SQLite store closes every connection however short the bound (``Store.close``); the bound
is for a database server that may not answer (``tests/server/test_shutdown_degraded.py``)."""

from __future__ import annotations

import asyncio
import gc
import logging
import warnings
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from hexarena.store import Store


async def test_a_sqlite_store_closes_every_connection_even_with_no_time_to_wait(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
    await asyncio.gather(*(store.list_games(limit=5) for _ in range(4)))  # the pool opens several
    await store.close(timeout=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        del store
        gc.collect()
    unclosed = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
    assert not unclosed, unclosed


async def test_a_background_close_that_fails_is_logged_and_not_left_unretrieved(
    migrated_database_url: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past its bound the closing goes on in the background (PostgreSQL only); when it then fails, the store says
    so in its log, and asyncio has no exception left that nobody retrieved ("Task exception was never
    retrieved", reported at an arbitrary later moment with no word of the store)."""
    if migrated_database_url.startswith("sqlite"):
        pytest.skip("a SQLite store always waits for its close: there is no background close")
    store = await Store.open(migrated_database_url)
    release = asyncio.Event()
    dispose = AsyncEngine.dispose

    async def dispose_then_fail(engine: AsyncEngine, close: bool = True) -> None:  # answers late, then fails
        await dispose(engine, close)
        await release.wait()
        raise ConnectionResetError("the database dropped the connection while it was being closed")

    monkeypatch.setattr(AsyncEngine, "dispose", dispose_then_fail)
    unretrieved: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _, context: unretrieved.append(context))
    try:
        await store.close(timeout=0.05)
        release.set()
        with caplog.at_level(logging.WARNING, logger="hexarena.store.base"):
            for _ in range(3000):  # up to 30 s: the real dispose before the failure waits for PostgreSQL
                await asyncio.sleep(0.01)
                if "closing" in caplog.text and "dropped the connection" in caplog.text:
                    break
        del store
        gc.collect()
    finally:
        loop.set_exception_handler(None)
    assert "dropped the connection" in caplog.text, caplog.text
    assert not unretrieved, unretrieved
