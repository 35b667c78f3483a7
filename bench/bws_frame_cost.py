"""CPU to take in one bws frame, on both ends: websockets' parser against reading whole text frames directly.

A move is one frame each way. The game server takes in the bot's reply (a small unmasked TEXT frame):
``_ReplyConnection.data_received`` (``hexarena.players.bws``) reads such whole frames itself and hands the
payload to the adapter. The SDK's bot server takes in the move request (a masked TEXT frame carrying the board):
``TextFrameProtocol`` (``hexarena_sdk.ws_protocol``) reads it itself and queues it for the app as uvicorn's
``websockets-sansio`` protocol does. Anything else goes to websockets' generator-based parser on both ends, as
every frame did before. This feeds the same frame, as one read from the socket, to a connection of each kind
(one process, no socket, a transport that drops writes) and prints the CPU a frame side by side, in alternating
rounds.

    PYTHONPATH=src .venv/bin/python bench/bws_frame_cost.py [--frames 100000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import statistics
import time
from typing import Any

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.asyncio.client import ClientConnection
from websockets.client import ClientProtocol
from websockets.protocol import State
from websockets.uri import parse_uri

from hexarena.players.bws import FRAME_LIMIT, _ReplyConnection
from hexarena.wire.htttx import MAX_SERVER_PACKET_BYTES
from hexarena_sdk.ws_protocol import TextFrameProtocol
from machine_speed import reference_us

REPLY = b'{"type":"move_response","move":{"pieces":[{"q":12,"r":-3},{"q":13,"r":-3}]}}'
FRAME = bytes([0x81, len(REPLY)]) + REPLY  # FIN + TEXT, unmasked (a server's frame), 7-bit length
#: a move request at 200 stones, as the game server writes it: masked (a client's frame), 16-bit length
REQUEST = (
    b'{"type":"move_request","side":"o","previous":[{"side":"x","pieces":[{"q":1,"r":2},{"q":3,"r":4}]}],'
    b'"board":{"cells":[' + b",".join(b'{"q":%d,"r":%d,"p":"x"}' % (i, -i) for i in range(200)) + b"]}}"
)
_KEY = os.urandom(4)
REQUEST_FRAME = (
    bytes([0x81, 0x80 | 126])
    + len(REQUEST).to_bytes(2, "big")
    + _KEY
    + bytes(b ^ _KEY[i % 4] for i, b in enumerate(REQUEST))
)


class _Sink(asyncio.Transport):
    """A transport that takes writes and drops them."""

    def write(self, data: Any) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

    def get_write_buffer_size(self) -> int:
        return 0

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def close(self) -> None:
        pass


class _WebsocketsParsed(_ReplyConnection):
    """The adapter's connection with websockets' own ``data_received``: every frame through its parser."""

    data_received = ClientConnection.data_received


async def per_frame(cls: type[_ReplyConnection], frames: int) -> float:
    conn = cls(ClientProtocol(parse_uri("ws://bot/"), state=State.OPEN, max_size=FRAME_LIMIT))
    conn.connection_made(_Sink())
    got: list[bytes] = []
    conn.on_text = got.append
    begun = time.process_time()
    for _ in range(frames):
        conn.data_received(FRAME)
    spent = time.process_time() - begun
    assert len(got) == frames and got[-1] == REPLY
    return spent / frames * 1e6


async def per_request(cls: type[WebSocketsSansIOProtocol], frames: int) -> tuple[float, float]:
    """A bot server's protocol after its handshake, fed the move request ``frames`` times (each message taken
    off its queue, as the app would), then sending the reply ``frames`` times: CPU a frame of each."""
    accepted, stop = asyncio.Event(), asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        accepted.set()
        await stop.wait()

    config = uvicorn.Config(app, ws=cls, log_level="warning", ws_max_size=MAX_SERVER_PACKET_BYTES)
    config.load()
    protocol = cls(config, ServerState(), {})
    protocol.connection_made(_Sink())
    key = base64.b64encode(os.urandom(16))
    protocol.data_received(
        b"GET /bws/v1-alpha/game HTTP/1.1\r\nHost: bot\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    await accepted.wait()
    queue = protocol.queue
    begun = time.process_time()
    for _ in range(frames):
        protocol.data_received(REQUEST_FRAME)
        message = queue.get_nowait()
    spent = time.process_time() - begun
    assert message["text"] == REQUEST.decode()
    reply = {"type": "websocket.send", "text": REPLY.decode()}
    begun = time.process_time()
    for _ in range(frames):
        await protocol.send(reply)  # type: ignore[arg-type]
    sent = time.process_time() - begun
    stop.set()
    await asyncio.sleep(0)
    return spent / frames * 1e6, sent / frames * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=100_000, help="frames a round")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of each, alternating")
    args = ap.parse_args()
    game: dict[str, list[float]] = {"websockets' parser": [], "adapter's reading": []}
    bot: dict[str, list[float]] = {"websockets-sansio": [], "TextFrameProtocol": []}
    bot_send: dict[str, list[float]] = {"websockets-sansio": [], "TextFrameProtocol": []}
    for i in range(args.rounds):
        order = [("websockets' parser", _WebsocketsParsed), ("adapter's reading", _ReplyConnection)]
        for label, cls in order if i % 2 == 0 else order[::-1]:
            game[label].append(asyncio.run(per_frame(cls, args.frames)))
        sides = [("websockets-sansio", WebSocketsSansIOProtocol), ("TextFrameProtocol", TextFrameProtocol)]
        for label, proto in sides if i % 2 == 0 else sides[::-1]:
            received, sent = asyncio.run(per_request(proto, args.frames // 2))
            bot[label].append(received)
            bot_send[label].append(sent)
    for title, figures in (
        (f"game server: one {len(FRAME)}-byte reply frame", game),
        (f"SDK bot server: one {len(REQUEST_FRAME):,}-byte move request frame (200 stones)", bot),
        (f"SDK bot server: sending one {len(REPLY)}-byte reply", bot_send),
    ):
        print(f"{title}, CPU a frame, median of {args.rounds} rounds:")
        for label, values in figures.items():
            print(f"  {label:>20}: {statistics.median(values):6.2f} us  ({min(values):.2f}-{max(values):.2f})")
    print(f"machine reference: {reference_us():.0f} us a unit (bench/machine_speed.py)")


if __name__ == "__main__":
    main()
