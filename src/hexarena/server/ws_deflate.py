"""The WebSocket protocol of ``hexarena serve``: uvicorn's, with permessage-deflate at zlib level 1.

Why: an HTTTX spectator update carries the whole board (Hivemaker's ``board_update{board}``, kept for
compatibility), ~50 KB of JSON at 1,000 stones, and browsers offer permessage-deflate, so the server compresses
every update for every spectator. At zlib's default level 6 that took ~1 ms a message, most of a spectated move's
cost at that size (``bench/move_cost_by_stones.py --spectators 1``); level 1 takes ~0.15 ms for output ~30 %
larger (10.7 KB instead of 8.1 KB). Everything else (window bits, memory level, who may negotiate what) is
uvicorn's as it is.
"""

from __future__ import annotations

from typing import Any

from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # an older uvicorn, without the sans-I/O protocol (tests/test_fallbacks.py)
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]

#: zlib level of the messages the server compresses (1 = fastest; zlib's default is 6).
COMPRESS_LEVEL = 1


def ws_protocol() -> str | type[Any]:
    """What ``hexarena serve`` gives uvicorn as its ``ws`` setting: the protocol below, or where this uvicorn has
    no sans-I/O protocol to build it on, uvicorn's websockets protocol as it is (compressing at zlib's default)."""
    return FastDeflateWebSocketProtocol if WebSocketsSansIOProtocol is not None else "websockets"


if WebSocketsSansIOProtocol is not None:

    class FastDeflateWebSocketProtocol(WebSocketsSansIOProtocol):
        """uvicorn's sans-I/O WebSocket protocol (its ``auto`` choice) compressing at ``COMPRESS_LEVEL``."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            for factory in getattr(self.conn, "available_extensions", None) or ():
                if isinstance(factory, ServerPerMessageDeflateFactory):
                    factory.compress_settings = {**(factory.compress_settings or {}), "level": COMPRESS_LEVEL}
