"""A person's seat socket on an instance that does not play its match (several instances, ``--redis-url``).

A seat token is known only to the instance that made it: its player (the socket a person plays through) lives
there. Behind a load balancer that does not route by match, the socket can land on any instance; this one then
finds in Redis which instance plays the token's match and where it listens (``server.cluster``), opens the same
route there with the same token, and relays frames both ways until either side closes. The owner treats the
relayed socket like a direct one (one live socket per seat; leaving forfeits, or the web UI's grace period), and
its close code reaches the person. Spectators need none of this (``server.remote_watch``).

The same relay carries battlebot sockets to the instance that holds the cluster's one battlebot lobby
(:func:`relay_to`), so bots connected through different instances are matched together.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING
from urllib.parse import quote

from fastapi import WebSocket
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from hexarena.server.sockets import MAX_FRAME, WS_MAX_SIZE, race, receive_frame

if TYPE_CHECKING:
    from hexarena.server.cluster import Cluster

log = logging.getLogger(__name__)

#: Seconds a token unknown here is looked up again: the owner registers a new match's tokens a moment after
#: answering its create (a queued, pipelined write), and a fast client may already be connecting elsewhere.
LOOKUP_WINDOW = 1.0
#: Seconds the owner has to accept the relayed socket.
CONNECT_TIMEOUT = 5.0


async def relay_seat(websocket: WebSocket, cluster: Cluster, path: str, token: str) -> bool:
    """Relay an accepted seat socket to the instance playing its match; False (nothing done) when no other
    instance plays it, so the caller refuses the token as before."""
    base = await _owner_url(cluster, token)
    if base is None:
        return False
    return await relay_to(websocket, base, f"{path}?token={quote(token)}")


async def relay_to(websocket: WebSocket, base: str, path: str, max_frame: int = MAX_FRAME) -> bool:
    """Relay an accepted socket to ``path`` of the instance at ``base`` (``http://host:port``) until either side
    closes; False (nothing sent) when that instance can't be reached."""
    target = base.replace("http://", "ws://", 1).replace("https://", "wss://", 1).rstrip("/") + path
    try:
        upstream = await asyncio.wait_for(connect(target, max_size=WS_MAX_SIZE), CONNECT_TIMEOUT)
    except (OSError, TimeoutError, InvalidHandshake) as exc:
        log.warning("relaying a socket to %s failed: %s", target, exc)
        return False
    async with upstream:
        await _pump(websocket, upstream, max_frame)
    return True


async def _owner_url(cluster: Cluster, token: str) -> str | None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + LOOKUP_WINDOW
    while True:
        url = await cluster.seat_url(token)
        if url is not None or loop.time() >= deadline:
            return url
        await asyncio.sleep(0.1)


async def _pump(websocket: WebSocket, upstream: ClientConnection, max_frame: int) -> None:
    async def down() -> None:  # the owner to the person
        with contextlib.suppress(ConnectionClosed):
            async for message in upstream:
                if isinstance(message, str):
                    await websocket.send_text(message)
                else:
                    await websocket.send_bytes(message)

    async def up() -> None:  # the person to the owner
        while True:
            frame = await receive_frame(websocket)
            if frame is None or len(frame) > max_frame:  # the owner would refuse an oversized one too
                return
            await upstream.send(frame)

    try:
        await race(down(), up())
    finally:
        code = upstream.close_code or 1000
        reason = upstream.close_reason or ""
        await upstream.close()
        with contextlib.suppress(Exception):
            await websocket.close(code=code if code != 1006 else 1011, reason=reason)


__all__ = ["relay_seat", "relay_to"]
