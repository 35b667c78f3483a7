"""Helpers for the SDK tests: serve an app on a real loopback port inside the test's event loop, talk JSON."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from websockets.asyncio.client import ClientConnection

from hexarena_sdk.ws_protocol import ws_protocol


@contextlib.asynccontextmanager
async def running(app: Any, **settings: Any) -> AsyncIterator[str]:
    """Yield ``host:port`` of ``app`` served by uvicorn on a free port, with the WebSocket protocol the SDK's
    ``serve`` picks (``settings``: more of uvicorn's); stop it afterwards."""
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_level="warning", lifespan="on", ws=ws_protocol("auto"), **settings
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started or task.done():
            break
        await asyncio.sleep(0.01)
    assert server.started, "uvicorn did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


async def echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An ASGI app that accepts a socket and answers every text message with ``echo:<text>``: the server side of
    the WebSocket tests here and of ``tests/test_private_internals_fallback.py``'s subprocess (which imports it)."""
    if scope["type"] == "lifespan":
        while (message := await receive())["type"] != "lifespan.shutdown":
            await send({"type": message["type"] + ".complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    await receive()
    await send({"type": "websocket.accept"})
    while (message := await receive())["type"] == "websocket.receive":
        await send({"type": "websocket.send", "text": "echo:" + (message.get("text") or "")})


async def send(ws: ClientConnection, **packet: Any) -> None:
    await ws.send(json.dumps(packet))


async def recv(ws: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    data = await asyncio.wait_for(ws.recv(), timeout)
    out = json.loads(data)
    assert isinstance(out, dict)
    return out


def cells(*stones: tuple[int, int, str]) -> list[dict[str, Any]]:
    return [{"q": q, "r": r, "p": p} for q, r, p in stones]


def move(side: str, *pieces: tuple[int, int]) -> dict[str, Any]:
    return {"side": side, "pieces": [{"q": q, "r": r} for q, r in pieces]}
