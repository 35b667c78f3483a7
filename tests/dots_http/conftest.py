"""A real server with the dots protocol on loopback: under /dots of the main app and at the root of its own port."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from hexarena.server.app import Settings, create_app
from hexarena.server.dots.routes import dots_app, install
from hexarena.server.dots.tables import DotsSettings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))


@contextlib.asynccontextmanager
async def serve(app: Any, lifespan: str = "on") -> AsyncIterator[str]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan=lifespan, timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        for _ in range(2000):
            if server.started or task.done():
                break
            await asyncio.sleep(0.005)
        if task.done():
            task.result()
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 10)
        sock.close()


@dataclass
class DotsServer:
    base: str  # the main app (protocol under /dots)
    port_base: str  # the dots-only app (protocol at /)
    app: Any

    @property
    def dots(self) -> str:
        return f"{self.base}/dots"


@pytest.fixture
def make_dots(database_url: str) -> Callable[..., Any]:
    @contextlib.asynccontextmanager
    async def factory(**overrides: Any) -> AsyncIterator[DotsServer]:
        app = create_app(Settings(database_url=database_url))
        install(app, DotsSettings(**{"turn_seconds": 1.0, **overrides}))
        async with serve(app) as base, serve(dots_app(app), lifespan="off") as port_base:
            yield DotsServer(base, port_base, app)

    return factory


@pytest.fixture
async def dots(make_dots: Callable[..., Any]) -> AsyncIterator[DotsServer]:
    async with make_dots() as srv:
        yield srv
