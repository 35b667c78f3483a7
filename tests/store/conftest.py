"""Store fixtures: an open store on the shared ``database_url``."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from hexarena.store import Store


@pytest.fixture
async def store(migrated_database_url: str) -> AsyncIterator[Store]:
    s = await Store.open(migrated_database_url)
    try:
        yield s
    finally:
        await s.close()
