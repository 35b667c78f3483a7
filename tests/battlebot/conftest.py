"""A real hexarena server (create_app with battlebot settings) on a loopback port, with a fresh database."""

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
from hexarena.server.battlebot.lobby import BattlebotSettings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))


@contextlib.asynccontextmanager
async def serve(app: Any) -> AsyncIterator[str]:
    """Serve ``app`` with uvicorn on a free loopback port; yields ``127.0.0.1:PORT``."""
    async with serve_app(app, ws_max_size=1024 * 1024) as url:
        yield url.removeprefix("http://")


@dataclass
class Server:
    host: str
    app: Any

    @property
    def http(self) -> str:
        return f"http://{self.host}"

    @property
    def store(self) -> Any:
        return self.app.state.services.store

    @property
    def manager(self) -> Any:
        return self.app.state.services.manager

    @property
    def lobby(self) -> Any:
        return self.app.state.battlebot


FAST = dict(turn_seconds=1.0, login_seconds=1.0, idle_seconds=3.0, grace=0.3)


@pytest.fixture
def make_server(migrated_database_url: str) -> Callable[..., Any]:
    """``async with make_server(turn_seconds=...) as srv``: a served app with the given battlebot settings."""

    @contextlib.asynccontextmanager
    async def factory(**overrides: Any) -> AsyncIterator[Server]:
        app = create_app(
            Settings(database_url=migrated_database_url, battlebot=BattlebotSettings(**{**FAST, **overrides}))
        )
        async with serve(app) as host:
            yield Server(host, app)

    return factory


@pytest.fixture
async def server(make_server: Callable[..., Any]) -> AsyncIterator[Server]:
    async with make_server() as srv:
        yield srv
