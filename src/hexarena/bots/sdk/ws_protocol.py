"""The SDK bot server's WebSocket protocol: uvicorn's sans-I/O one, reading whole client text frames itself.

Why: a bot server takes in one move request a move, one masked TEXT frame from the game server. uvicorn's
``websockets-sansio`` protocol feeds every read to websockets' parser, a generator that takes the header, the
key and the payload a few bytes at a time, then walks its events (~7 % of an instant bot server's CPU a move in
py-spy). :class:`TextFrameProtocol` reads whole frames of that one shape itself (FIN and TEXT, masked as a
client's frames must be, RFC 6455 5.2/5.3, a 7-, 16- or 64-bit length, within ``max_size``) while websockets'
parser sits between frames with nothing buffered, no fragmented message under way and no extension: a whole data
frame leaves the parser's state as it was, so nothing it keeps goes stale. The payload is unmasked by websockets'
C ``apply_mask`` and given to uvicorn's own ``send_receive_event_to_app``, which decodes it (1007 on bad UTF-8)
and queues it for the app, with its flow control. Anything else (a control frame, a fragment, an unmasked,
oversized or reserved-bit frame, a frame cut by TCP, the bytes after one) goes to the parser in order and gets
uvicorn's answer, as before.

The subclass leans on uvicorn's protocol attributes (``conn``, ``frames``, ``curr_msg_data_type``,
``send_receive_event_to_app``); :func:`ws_protocol` checks they are there and otherwise serves with uvicorn's
protocol as it is.
"""

from __future__ import annotations

import asyncio
import logging

from websockets.protocol import State

log = logging.getLogger("hexarena.bots.sdk")

try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - an older uvicorn, or websockets without its C speedups
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]


if WebSocketsSansIOProtocol is not None:

    class TextFrameProtocol(WebSocketsSansIOProtocol):
        """uvicorn's sans-I/O WebSocket protocol; whole client text frames skip websockets' parser (see module)."""

        def data_received(self, data: bytes) -> None:
            conn = self.conn
            if (
                conn.state is not State.OPEN
                or conn.current_size is not None
                or conn.max_fragment_size is not None
                or conn.reader.buffer
                or conn.extensions
                or conn.debug
            ):
                super().data_received(data)
                return
            limit = conn.max_message_size
            at, end = 0, len(data)
            while end - at >= 6 and data[at] == 0x81:
                length = data[at + 1] ^ 0x80  # the mask bit must be set: an unmasked frame is left to the parser
                if length < 126:
                    head = at + 2
                elif length == 126 and end - at >= 8:
                    length, head = (data[at + 2] << 8) | data[at + 3], at + 4
                elif length == 127 and end - at >= 14:
                    length, head = int.from_bytes(data[at + 2 : at + 10], "big"), at + 10
                else:
                    break
                stop = head + 4 + length
                if stop > end or (limit is not None and length > limit):
                    break
                self.curr_msg_data_type = "text"
                self.frames = [apply_mask(data[head + 4 : stop], data[head : head + 4])]
                self.send_receive_event_to_app()
                at = stop
            if at < end:
                super().data_received(data[at:] if at else data)


def ws_protocol(ws: str) -> str | type[asyncio.Protocol]:
    """What to give uvicorn as its ``ws`` setting: for ``auto``, :class:`TextFrameProtocol` where this uvicorn
    has what it needs (else uvicorn's ``websockets-sansio``); any other name as given."""
    if ws != "auto":
        return ws
    if WebSocketsSansIOProtocol is None or not all(
        hasattr(WebSocketsSansIOProtocol, name) for name in ("send_receive_event_to_app", "data_received")
    ):
        log.info("this uvicorn has no sans-I/O WebSocket protocol to build on: serving with its own")
        return "websockets-sansio" if WebSocketsSansIOProtocol is not None else "auto"
    return TextFrameProtocol
