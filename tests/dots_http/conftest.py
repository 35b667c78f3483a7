"""A real server with the dots protocol on loopback: under /dots of the main app and at the root of its own port."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fakes.servers import serve_app
from hexarena.server.app import Settings, create_app
from hexarena.server.dots.routes import dots_app
from hexarena.server.dots.tables import DotsSettings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))


@contextlib.asynccontextmanager
async def serve(app: Any, lifespan: str = "on") -> AsyncIterator[str]:
    async with serve_app(app, lifespan=lifespan) as url:
        yield url


@dataclass
class DotsServer:
    base: str  # the main app (protocol under /dots)
    port_base: str  # the dots-only app (protocol at /)
    app: Any

    @property
    def dots(self) -> str:
        return f"{self.base}/dots"


@pytest.fixture
def make_dots(migrated_database_url: str) -> Callable[..., Any]:
    @contextlib.asynccontextmanager
    async def factory(**overrides: Any) -> AsyncIterator[DotsServer]:
        app = create_app(
            Settings(database_url=migrated_database_url, dots=DotsSettings(**{"turn_seconds": 1.0, **overrides}))
        )
        async with serve(app) as base, serve(dots_app(app), lifespan="off") as port_base:
            yield DotsServer(base, port_base, app)

    return factory


@pytest.fixture
async def dots(make_dots: Callable[..., Any]) -> AsyncIterator[DotsServer]:
    async with make_dots() as srv:
        yield srv
