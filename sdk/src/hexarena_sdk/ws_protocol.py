"""The SDK bot server's WebSocket protocol: uvicorn's sans-I/O one, reading whole client text frames itself.

Why: a bot server takes in one move request a move, one masked TEXT frame from the game server. uvicorn's
``websockets-sansio`` protocol feeds every read to websockets' parser, a generator that takes the header, the
key and the payload a few bytes at a time, then walks its events, at twice the CPU of reading the frame whole
(``bench/bws_frame_cost.py`` prints both). :class:`TextFrameProtocol` reads whole frames of that one
shape itself (FIN and TEXT, masked as a client's frames must be, RFC 6455 5.3, within ``max_size``:
``hexarena_sdk.wire.ws_frames`` finds them) while websockets' parser sits between frames with nothing buffered, no
fragmented message under way and no extension: a whole data frame leaves the parser's state as it was, so nothing
it keeps goes stale. The payload is unmasked by websockets' C ``apply_mask`` and given to uvicorn's own
``send_receive_event_to_app``, which decodes it (1007 on bad UTF-8) and queues it for the app, with its flow
control; a text message the app sends is framed and written directly too, when the socket is open with nothing
else pending. Anything else (a control frame, a fragment, an unmasked, oversized or reserved-bit frame, a frame
cut by TCP, the bytes after one) goes to the parser in order and gets uvicorn's answer, as before.

The subclass leans on uvicorn's protocol attributes (``conn``, ``frames``, ``curr_msg_data_type``,
``send_receive_event_to_app``); :func:`ws_protocol` checks they are there and otherwise serves with uvicorn's
protocol as it is.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from websockets.protocol import State

from hexarena_sdk.wire.ws_frames import apply_mask, parser_between_frames, text_frame, whole_text_frame

log = logging.getLogger("hexarena.bots.sdk")

try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # an older uvicorn, without the sans-I/O protocol (tests/test_fallbacks.py)
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]


if WebSocketsSansIOProtocol is not None:

    class TextFrameProtocol(WebSocketsSansIOProtocol):
        """uvicorn's sans-I/O WebSocket protocol; whole text frames skip websockets' parser and serializer (see
        the module)."""

        def data_received(self, data: bytes) -> None:
            conn = self.conn
            if not parser_between_frames(conn):
                super().data_received(data)
                return
            limit, at = conn.max_message_size, 0
            while (frame := whole_text_frame(data, at, True, limit)) is not None:
                start, at = frame
                self.curr_msg_data_type = "text"
                self.frames = [apply_mask(data[start:at], data[start - 4 : start])]
                self.send_receive_event_to_app()
            if at < len(data):
                super().data_received(data[at:] if at else data)

        async def send(self, message: Any) -> None:
            """A text message on an open socket with nothing else pending is framed (``text_frame``) and written
            here: websockets' ``send_text`` made a ``Frame``, serialized it through the extensions' hooks and
            queued it to be joined and written (~3 us a reply). Anything else takes uvicorn's ``send``."""
            conn = self.conn
            if (
                message["type"] == "websocket.send"
                and self.handshake_complete
                and not self.close_sent
                and self.initial_response is None
                and not getattr(self, "disconnected", True)  # uvicorn 0.53 on; before, its own send
                and self.writable.is_set()
                and message.get("bytes") is None
                and (text := message.get("text")) is not None
                and conn.state is State.OPEN
                and not getattr(conn, "expect_continuation_frame", True)
                and not getattr(conn, "writes", True)
                and not conn.extensions
                and not conn.debug
            ):
                self.transport.write(text_frame(text.encode()))
                return
            await super().send(message)


def _reads_frames(protocol: type) -> bool:
    """Whether uvicorn's ``send_receive_event_to_app`` takes the message from ``frames`` and its type from
    ``curr_msg_data_type``, as :class:`TextFrameProtocol` hands it over (before uvicorn 0.50 it read ``bytes``)."""
    method = getattr(protocol, "send_receive_event_to_app", None)
    names = getattr(getattr(method, "__code__", None), "co_names", ())
    return "frames" in names and "curr_msg_data_type" in names


def ws_protocol(ws: str) -> str | type[asyncio.Protocol]:
    """What to give uvicorn as its ``ws`` setting: for ``auto``, :class:`TextFrameProtocol` where this uvicorn
    has what it needs (else uvicorn's ``websockets-sansio``); any other name as given."""
    if ws != "auto":
        return ws
    if WebSocketsSansIOProtocol is None:
        log.info("this uvicorn has no sans-I/O WebSocket protocol: serving with its websockets one")
        return "websockets"
    if not _reads_frames(WebSocketsSansIOProtocol):
        log.info("this uvicorn's sans-I/O WebSocket protocol lacks what this one builds on: serving with it as it is")
        return "websockets-sansio"
    return TextFrameProtocol
