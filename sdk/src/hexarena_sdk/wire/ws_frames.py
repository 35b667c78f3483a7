"""Finding whole WebSocket text frames of the one shape bws traffic takes, without a general frame parser.

Why: a move is one text frame each way, and websockets' parser (a generator that reads a frame's header, key and
payload a few bytes at a time) cost ~5 us a frame on either end. Both ends read the common frame themselves
instead: the game server the bot's reply (``hexarena.players.bws``, unmasked: a server's frame) and the SDK bot
server the move request (``hexarena_sdk.ws_protocol``, masked: a client's frame). Each calls this only
while websockets' parser sits between frames with nothing buffered, no fragmented message under way and no
extension, so a whole data frame taken here changes nothing the parser keeps; whatever this does not take goes
to the parser, in order.

RFC 6455 5.2: byte 0 is FIN, three reserved bits and the opcode (0x81: FIN and TEXT, no reserved bit); byte 1
the mask bit and a 7-bit length, 126 for a 16-bit length after it, 127 for a 64-bit one; then the 4-byte
masking key of a masked frame, then the payload.
"""

from __future__ import annotations

import struct

from websockets.protocol import Protocol, State

try:  # websockets' C helper; a build without it (no compiler, or a pure-Python wheel) has the same in Python
    from websockets.speedups import apply_mask as apply_mask
except ImportError:
    from websockets.utils import apply_mask as apply_mask

#: Stands for an attribute this websockets does not have (its internals changed): the frame is left to its parser.
MISSING = object()


def parser_between_frames(protocol: Protocol) -> bool:
    """Whether websockets' ``protocol`` is open with its parser between frames: nothing buffered, no fragmented
    message under way, no extension, fragment limit or debug log. Only then may a whole text frame be taken
    past it (taking one leaves the parser's state as it was). These are websockets' private attributes: where a
    version lacks one, the answer is no, and every frame goes to websockets' parser as it would without this."""
    reader = getattr(protocol, "reader", None)
    return (
        protocol.state is State.OPEN
        and getattr(protocol, "current_size", MISSING) is None
        and getattr(protocol, "max_fragment_size", MISSING) is None
        and getattr(reader, "buffer", MISSING) == b""
        and not getattr(protocol, "extensions", True)
        and not getattr(protocol, "debug", True)
    )


def whole_text_frame(data: bytes, at: int, masked: bool, limit: int | None) -> tuple[int, int] | None:
    """``(start, stop)`` of the payload of the whole FIN TEXT frame at ``data[at]`` (a masked frame's key is the
    4 bytes before ``start``); None for anything else there: other flags or opcode, the other masking, a length
    over ``limit``, or a frame not all in ``data``."""
    end = len(data)
    if end - at < 2 or data[at] != 0x81:
        return None
    length = data[at + 1]
    if masked:
        if length < 0x80:
            return None
        length ^= 0x80
    elif length >= 0x80:
        return None
    if length < 126:
        start = at + 2
    elif length == 126:
        if end - at < 4:
            return None
        length, start = (data[at + 2] << 8) | data[at + 3], at + 4
    else:
        if end - at < 10:
            return None
        length, start = int.from_bytes(data[at + 2 : at + 10], "big"), at + 10
    if masked:
        start += 4
    stop = start + length
    if stop > end or (limit is not None and length > limit):
        return None
    return start, stop


def text_frame(data: bytes, key: bytes | None = None) -> bytes:
    """One whole TEXT frame (FIN, no extension): a client's, masked with the 4-byte ``key``, or a server's,
    unmasked, when ``key`` is None. Byte for byte what websockets' ``Frame(TEXT, data).serialize(mask=...)``
    gives for the same key; built here because its serializer asks the OS for every key and walks more code."""
    length, bit = len(data), 0x80 if key is not None else 0
    if length < 126:
        head = struct.pack("!BB", 0x81, bit | length)
    elif length < 65536:
        head = struct.pack("!BBH", 0x81, bit | 126, length)
    else:
        head = struct.pack("!BBQ", 0x81, bit | 127, length)
    if key is None:
        return head + data
    return b"".join((head, key, apply_mask(data, key)))
