"""Store fixtures: an open store on the shared ``database_url``, and a started recorder writing to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from hexarena.store import Store
from hexarena.store.recorder import Recorder


@pytest.fixture
async def store(migrated_database_url: str) -> AsyncIterator[Store]:
    s = await Store.open(migrated_database_url)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def recorder(store: Store, tmp_path: Path) -> AsyncIterator[Recorder]:
    """A started :class:`Recorder` on ``store``, journaling under ``tmp_path`` (the recorder most tests want:
    default interval and batch sizes); closed afterwards."""
    rec = Recorder(store, tmp_path)
    await rec.start()
    try:
        yield rec
    finally:
        await rec.close()
