"""The socket loops of the server: the seats a person plays through (HTTTX ``/ws``, the web UI's ``/api/play``)
and the spectators (``/spectate``).

Both routes do the same thing once the token is checked: bind the socket to the player, hand every frame to the
player as it arrives (the player judges it at once, so nothing queues up unread), and keep the socket open until
either the person leaves or the player says the match is over (``done``); then unbind and close. Only the
player's verbs differ, so each route passes them in; the loop, its two tasks and their clean-up live here once.

One live socket per seat: a player whose ``attach`` answers False refuses the socket (it has told it why); the
socket is closed with 1008 without reading a frame and without ``detach``, so it can neither act for the seat
nor make the person who holds it forfeit.

A frame longer than ``MAX_FRAME`` closes the socket (1009, "message too big") instead of reaching the player:
no move or probe of any game comes near it (a seat client sends moves, never boards: boards only flow from us
to the client, which is why this limit can stay small while HTTTX move requests grow with the game), and the
server's own limit (``WS_MAX_SIZE``, for every socket) would otherwise let one frame cost a JSON parse of a
megabyte on the event loop. Closing is the same as leaving: HTTTX ``/ws`` forfeits
(like any garbage frame there), the web UI's grace period lets a real page come back.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from fastapi import WebSocket

from hexarena.server.live import Spectator
from hexarena.wire import htttx as htttx_wire

Send = Callable[[str], Awaitable[None]]

#: Longest frame (characters or bytes) a seat socket accepts: on HTTTX ``/ws`` a person's page sends the packets
#: a bws bot sends, so this is the bot packet limit; the web UI's moves of every other game are far smaller.
MAX_FRAME = htttx_wire.MAX_BOT_PACKET_BYTES
#: uvicorn's limit on any WebSocket message the game server receives (``hexarena serve``, with or without the
#: dots port): the outer bound; each route applies its own, smaller one (``MAX_FRAME``, battlebot's frames).
WS_MAX_SIZE = 1024 * 1024
#: Close code for an oversized frame (RFC 6455 "message too big").
TOO_BIG = 1009
#: Close code for a spectator that fell too far behind (RFC 6455 "try again later": a reconnect gets a snapshot).
TOO_SLOW = 1013
#: Close code for a socket the seat refused (RFC 6455 "policy violation": e.g. the seat is already connected).
REFUSED = 1008
#: How long a close may wait on a client that does not read.
CLOSE_TIMEOUT = 5.0


async def serve_seat(
    websocket: WebSocket,
    *,
    attach: Callable[[Send], Awaitable[object]],
    handle: Callable[[str | bytes], Awaitable[None] | None],
    detach: Callable[[Send], None],
    done: asyncio.Event,
    max_frame: int = MAX_FRAME,
) -> None:
    """Run one accepted seat socket to its end: ``attach(send)``, ``handle(frame)`` for each frame (sync or
    async), until the client disconnects or ``done`` is set; ``detach(send)`` and the close always follow.
    ``attach`` answering False refuses the socket: it is closed (1008) at once, no frame read, no ``detach``."""

    async def send(text: str) -> None:
        await websocket.send_text(text)

    async def pump() -> None:
        while True:
            frame = await receive_frame(websocket)
            if frame is None:
                return
            if len(frame) > max_frame:
                with contextlib.suppress(Exception):
                    await websocket.close(code=TOO_BIG, reason=f"frame longer than {max_frame} bytes")
                return
            handled = handle(frame)
            if handled is not None:
                await handled

    if await attach(send) is False:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(code=REFUSED, reason="refused by the seat"), CLOSE_TIMEOUT)
        return
    reader = asyncio.create_task(pump())
    ended = asyncio.create_task(done.wait())
    try:
        await asyncio.wait([reader, ended], return_when=asyncio.FIRST_COMPLETED)
    finally:
        detach(send)
        for task in (reader, ended):
            task.cancel()
        await asyncio.gather(reader, ended, return_exceptions=True)
        with contextlib.suppress(Exception):
            await websocket.close()


async def race(*coroutines: Coroutine[Any, Any, None]) -> None:
    """Run the coroutines until the first of them returns (or fails); the others are cancelled and awaited. Why:
    the two directions of a relayed connection, each ending the other when its side goes away."""
    tasks = [asyncio.create_task(c) for c in coroutines]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def receive_frame(websocket: WebSocket) -> str | bytes | None:
    """The next frame of a socket, text or bytes; None once the client left."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    return text if text is not None else (message.get("bytes") or b"")


async def serve_spectator(websocket: WebSocket, spectator: Spectator, close_timeout: float = CLOSE_TIMEOUT) -> None:
    """Feed one accepted spectator socket until the match's end was sent, the client leaves, or the spectator
    falls behind. Why the third: the match drops a spectator whose queue is full (``Spectator.closed``) and sends
    it nothing more, so a client that never reads would otherwise hold its socket, a writer stuck in ``send`` and
    a reader forever; it is closed with 1013 instead (reconnecting brings a fresh snapshot)."""

    async def drain_client() -> None:  # notice a spectator that leaves
        with contextlib.suppress(Exception):
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass

    writer = asyncio.create_task(spectator.run())
    reader = asyncio.create_task(drain_client())
    dropped = asyncio.create_task(spectator.closed.wait())
    try:
        await asyncio.wait([writer, reader, dropped], return_when=asyncio.FIRST_COMPLETED)
    finally:
        too_slow = dropped.done() and not writer.done() and not reader.done()
        for task in (writer, reader, dropped):
            task.cancel()
        await asyncio.gather(writer, reader, dropped, return_exceptions=True)
        with contextlib.suppress(Exception):
            if too_slow:
                await asyncio.wait_for(websocket.close(code=TOO_SLOW, reason="too far behind"), close_timeout)
            else:
                await asyncio.wait_for(websocket.close(), close_timeout)
