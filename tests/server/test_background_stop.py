"""A shutdown stops the server's background loops even when a library answered the stop with an error of its own
(``hexarena.server.background``). Before, the ladder's loop took that error for the database being away a moment,
carried on, and the server never stopped (seen once in a full run: "the protocol modules 60.78 s")."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from fakes.servers import serve_app
from hexarena.server.app import Settings, create_app
from hexarena.server.background import stop_if_cancelled, stop_tasks
from hexarena.server.ladder_pairing import LadderSettings
from hexarena.server.services import services_of
from hexarena.store.errors import StoreError


async def _stalls_then_fails(asked: asyncio.Event, *_: Any, **__: Any) -> Any:
    """A database call in flight when the stop comes, whose driver answers the cancellation with an error (a
    connection closed in the middle of the operation) instead of letting it through."""
    asked.set()
    try:
        await asyncio.Event().wait()
    except asyncio.CancelledError:
        raise StoreError("the connection was closed in the middle of an operation") from None


async def test_a_shutdown_stops_the_ladder_whose_database_call_answered_the_stop_with_an_error(
    migrated_sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(
        database_url=migrated_sqlite_url, data_dir=tmp_path, ladder=LadderSettings(tick=0.05, games_per_hour=36_000)
    )
    app = create_app(settings)
    asked = asyncio.Event()
    async with serve_app(app):  # its exit fails the test when the server does not stop within a minute
        store = services_of(app).store
        assert store is not None

        async def list_ladder_bots(*args: Any, **kwargs: Any) -> Any:
            return await _stalls_then_fails(asked, *args, **kwargs)

        monkeypatch.setattr(store, "list_ladder_bots", list_ladder_bots)
        await asyncio.wait_for(asked.wait(), 60)  # the ladder's next pass is waiting on the database


async def test_stop_tasks_asks_again_until_a_loop_that_dropped_the_stop_ends() -> None:
    passes = 0

    async def loop() -> None:  # drops the first two stop requests, as a library's cleanup can, and carries on
        nonlocal passes
        dropped = 0
        while True:
            passes += 1
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                dropped += 1
                if dropped > 2:
                    raise
                asyncio.current_task().uncancel()  # type: ignore[union-attr]

    task = asyncio.create_task(loop(), name="dropper")
    await asyncio.sleep(0)
    assert await stop_tasks([task], "the test's loop", grace=30)
    assert task.cancelled() and passes == 3


async def test_stop_tasks_gives_up_on_a_task_that_never_stops_and_names_it(caplog: pytest.LogCaptureFixture) -> None:
    done = asyncio.Event()

    async def stubborn() -> None:
        while not done.is_set():
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                asyncio.current_task().uncancel()  # type: ignore[union-attr]

    task = asyncio.create_task(stubborn(), name="stubborn-loop")
    await asyncio.sleep(0)
    with caplog.at_level(logging.ERROR, logger="hexarena.server.background"):
        assert not await stop_tasks([task], "the test's loop", grace=0.3)
    assert "stubborn-loop" in caplog.text and "the test's loop" in caplog.text
    done.set()
    task.cancel()  # the last request lands in its sleep, and the loop sees it is over
    await asyncio.gather(task, return_exceptions=True)
    assert task.done()


async def test_stop_if_cancelled_sees_a_stop_a_library_turned_into_an_error() -> None:
    turns = 0

    async def loop() -> None:
        nonlocal turns
        while True:
            turns += 1
            try:
                await _stalls_then_fails(asyncio.Event())
            except StoreError:
                stop_if_cancelled()

    task = asyncio.create_task(loop())
    await asyncio.sleep(0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled() and turns == 1
