"""A served app with GraphQL, its REST twin and the battlebot routes, over a fresh database."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn

from hexarena.server import graphql
from hexarena.server.app import Settings, create_app
from hexarena.server.battlebot.routes import install as install_battlebot


@contextlib.asynccontextmanager
async def serve(app: Any) -> AsyncIterator[str]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1))
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


@pytest.fixture
async def served(database_url: str) -> AsyncIterator[tuple[str, Any]]:
    app = create_app(Settings(database_url=database_url))
    install_battlebot(app)
    graphql.install(app)
    async with serve(app) as base:
        yield base, app
