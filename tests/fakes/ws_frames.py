"""WebSocket frames as exact bytes, for scripted peers that test how our ends read them (RFC 6455 5.2)."""

from __future__ import annotations

import struct


def raw_frame(payload: bytes, opcode: int = 0x1, fin: bool = True, mask: bytes | None = None) -> bytes:
    """One frame in the shortest length form, masked with the 4-byte ``mask`` if given (a client's frame)."""
    first = (0x80 if fin else 0) | opcode
    bit = 0x80 if mask else 0
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", first, bit | n)
    elif n < 65536:
        head = struct.pack("!BBH", first, bit | 126, n)
    else:
        head = struct.pack("!BBQ", first, bit | 127, n)
    if not mask:
        return head + payload
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
