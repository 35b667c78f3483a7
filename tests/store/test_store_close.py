"""Closing the store: a SQLite store closes every connection however short the bound (``Store.close``); the bound
is for a database server that may not answer (``tests/server/test_shutdown_degraded.py``)."""

from __future__ import annotations

import asyncio
import gc
import warnings
from pathlib import Path

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
