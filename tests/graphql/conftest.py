"""A served app with GraphQL, its REST twin and the battlebot routes, over a fresh database."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from fakes.servers import serve_app
from hexarena.server.app import Settings, create_app


@contextlib.asynccontextmanager
async def serve(app: Any) -> AsyncIterator[str]:
    async with serve_app(app) as url:
        yield url


@pytest.fixture
async def served(migrated_database_url: str) -> AsyncIterator[tuple[str, Any]]:
    app = create_app(Settings(database_url=migrated_database_url))
    async with serve(app) as base:
        yield base, app
