"""Slowloris: connections that trickle a request's headers are closed after the header deadline, with both of
uvicorn's HTTP implementations, while normal requests, slow responses and WebSockets are served as usual."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from serving import start_serve, stop

from fakes.apps import lifespan_only
from hexarena.server.serving import ArenaServer, server_config

DEADLINE = 1.0
#: Bounded wait for the server to close a trickling connection (far above DEADLINE, never a timing assertion).
PATIENCE = 10.0
CONNECTIONS = 60


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``/`` answers at once, ``/slow`` after twice the deadline, ``/ws`` echoes after twice the deadline."""
    if scope["type"] == "lifespan":
        await lifespan_only(receive, send)
        return
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        message = await receive()
        await asyncio.sleep(2 * DEADLINE)
        await send({"type": "websocket.send", "text": message.get("text")})
        await send({"type": "websocket.close"})
        return
    if scope["path"] == "/slow":
        await asyncio.sleep(2 * DEADLINE)
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


@contextlib.asynccontextmanager
async def running(implementation: str) -> AsyncIterator[int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    config = server_config(app, "127.0.0.1", port, log_level="warning", header_timeout=DEADLINE)
    if implementation == "h11":
        from hexarena.server.serving import http_protocol

        config.http = http_protocol(DEADLINE, "h11")
    server = ArenaServer(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
        assert not task.done(), task
    try:
        yield port
    finally:
        server.should_exit = True
        await task


async def trickle(port: int, first: bytes = b"") -> bool:
    """Send a request line one byte at a time; True once the server closed the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        if first:
            writer.write(first)
        for byte in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000:
            try:
                writer.write(bytes([byte]))
                await writer.drain()
                data = await asyncio.wait_for(reader.read(65536), 0.2)
            except TimeoutError:
                continue
            except (ConnectionError, OSError):
                return True
            if first and data.startswith(b"HTTP/1.1 200"):
                continue  # the first, complete request's answer
            if not data:
                return True
        return False
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


@pytest.mark.parametrize("implementation", ["httptools", "h11"])
async def test_trickling_connections_are_closed_and_others_served(implementation: str) -> None:
    async with running(implementation) as port:
        url = f"http://127.0.0.1:{port}"
        trickling = [asyncio.create_task(trickle(port)) for _ in range(CONNECTIONS)]
        await asyncio.sleep(0.3)
        async with httpx.AsyncClient() as client:
            assert (await client.get(f"{url}/")).text == "ok"
        closed = await asyncio.wait_for(asyncio.gather(*trickling), PATIENCE)
        assert all(closed), f"{closed.count(False)} trickling connections were never closed"


@pytest.mark.parametrize("implementation", ["httptools", "h11"])
async def test_the_deadline_applies_to_each_request_of_a_kept_alive_connection(implementation: str) -> None:
    async with running(implementation) as port:
        first = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
        assert await asyncio.wait_for(trickle(port, first), PATIENCE)


@pytest.mark.parametrize("implementation", ["httptools", "h11"])
async def test_slow_responses_and_websockets_outlive_the_deadline(implementation: str) -> None:
    async with running(implementation) as port:
        async with httpx.AsyncClient() as client:
            first = await client.get(f"http://127.0.0.1:{port}/slow")
            again = await client.get(f"http://127.0.0.1:{port}/slow")  # the same kept-alive connection
        assert first.text == again.text == "ok"
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as ws:
            await ws.send("hello")
            assert await asyncio.wait_for(ws.recv(), PATIENCE) == "hello"


async def test_hexarena_serve_closes_trickling_connections(tmp_path: Path) -> None:
    proc, url = start_serve(tmp_path, "--header-timeout", "1")
    try:
        port = int(url.rsplit(":", 1)[1])
        trickling = [asyncio.create_task(trickle(port)) for _ in range(CONNECTIONS)]
        await asyncio.sleep(0.3)
        async with httpx.AsyncClient() as client:
            assert (await client.get(f"{url}/api/matches/live")).status_code == 200
        closed = await asyncio.wait_for(asyncio.gather(*trickling), PATIENCE)
        assert all(closed), f"{closed.count(False)} trickling connections were never closed"
    finally:
        stop(proc)
