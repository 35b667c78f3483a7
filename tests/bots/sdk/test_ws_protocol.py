"""The SDK bot server's WebSocket protocol (``ws_protocol.TextFrameProtocol``) against a scripted client writing
exact bytes: whole masked text frames reach the app without websockets' parser, everything else (frames cut by
TCP, pings, fragments, unmasked, oversized or invalid UTF-8 frames) still gets websockets' and uvicorn's handling,
in order."""

from __future__ import annotations

import asyncio
import base64
import os
import random
import struct
from collections.abc import Sequence

import pytest
from sdk_wire_helpers import echo, running

from fakes.ws_frames import raw_frame
from hexarena_sdk.ws_protocol import TextFrameProtocol, ws_protocol

#: Masking keys: from a seeded generator, so the frames built for ``parametrize`` (and so the test ids) are the
#: same in every process that collects this module (pytest-xdist's workers must agree).
KEYS = random.Random(6455)


def client_frame(payload: bytes, opcode: int = 0x1, fin: bool = True, masked: bool = True) -> bytes:
    """A frame as a client writes it: masked with a key (unless ``masked`` is False)."""
    return raw_frame(payload, opcode, fin, KEYS.randbytes(4) if masked else None)


async def exchange(host: str, writes: Sequence[bytes], frames: int) -> list[tuple[int, bytes]]:
    """Open a socket by hand, write ``writes`` (a pause between), read ``frames`` frames back (or until close)."""
    address, port = host.split(":")
    reader, writer = await asyncio.open_connection(address, int(port))
    key = base64.b64encode(os.urandom(16))
    writer.write(
        b"GET / HTTP/1.1\r\nHost: " + host.encode() + b"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    assert b" 101 " in await reader.readuntil(b"\r\n\r\n")
    for chunk in writes:
        writer.write(chunk)
        await writer.drain()
        await asyncio.sleep(0.02)
    out: list[tuple[int, bytes]] = []
    try:
        while len(out) < frames:
            first, second = await asyncio.wait_for(reader.readexactly(2), 5)
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", await reader.readexactly(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", await reader.readexactly(8))
            out.append((first & 0x0F, await reader.readexactly(length)))
            if first & 0x0F == 0x8:
                break
    finally:
        writer.close()
    return out


def texts(frames: list[tuple[int, bytes]]) -> list[bytes]:
    return [data for opcode, data in frames if opcode == 0x1]


def test_auto_is_the_text_frame_protocol() -> None:
    assert ws_protocol("auto") is TextFrameProtocol and ws_protocol("wsproto") == "wsproto"


async def test_whole_text_frames_of_each_length_form_reach_the_app_in_order() -> None:
    # (that they skip websockets' parser is a matter of speed: bench/bws_frame_cost.py)
    async with running(echo) as host:
        got = await exchange(host, [client_frame(b"one") + client_frame(b"m" * 300), client_frame(b"L" * 5000)], 3)
    assert texts(got) == [b"echo:one", b"echo:" + b"m" * 300, b"echo:" + b"L" * 5000]
    large = b"B" * 70_000  # (the 64-bit length form; TCP may cut it, and the parser then takes it)
    async with running(echo) as host:
        got = await exchange(host, [client_frame(large) + client_frame(b"after")], 2)
    assert texts(got) == [b"echo:" + large, b"echo:after"]


async def test_frames_cut_by_tcp_and_pings_keep_their_order() -> None:
    whole = client_frame(b"first" * 40) + client_frame(b"hi", opcode=0x9) + client_frame(b"second") + client_frame(b"3")
    cuts = [1, 3, 6, 100, 210, 213, 218]  # mid-header, mid-length, mid-key, mid-payload, mid-ping, ...
    pieces = [whole[a:b] for a, b in zip([0, *cuts], [*cuts, len(whole)], strict=True)]
    async with running(echo) as host:
        got = await exchange(host, pieces, 4)
    assert texts(got) == [b"echo:" + b"first" * 40, b"echo:second", b"echo:3"]
    assert (0xA, b"hi") in got  # the ping was answered, in its place
    assert got.index((0xA, b"hi")) == 1


async def test_a_fragmented_message_is_assembled_by_uvicorn() -> None:
    parts = client_frame(b"fr", fin=False) + client_frame(b"ag", opcode=0x0, fin=False)
    script = [client_frame(b"one"), parts + client_frame(b"ment", opcode=0x0) + client_frame(b"two")]
    async with running(echo) as host:
        got = await exchange(host, script, 3)
    assert texts(got) == [b"echo:one", b"echo:fragment", b"echo:two"]


@pytest.mark.parametrize(
    ("bad", "code"),
    [
        (client_frame(b"unmasked", masked=False), 1002),  # a client must mask
        (client_frame(b"x" * 2000), 1009),  # over ws_max_size
        (client_frame(b"\xff\xfe"), 1007),  # not UTF-8
        (b"\xc1\x82" + bytes(4) + b"hi", 1002),  # a reserved bit without an extension
    ],
    ids=["unmasked", "oversized", "not-utf8", "reserved-bit"],
)
async def test_frames_it_does_not_take_get_the_usual_answer(bad: bytes, code: int) -> None:
    async with running(echo, ws_max_size=1000) as host:
        got = await exchange(host, [client_frame(b"ok"), bad], 2)
    assert texts(got) == [b"echo:ok"]
    assert got[-1][0] == 0x8 and struct.unpack("!H", got[-1][1][:2])[0] == code
