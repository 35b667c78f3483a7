"""The bws adapter's own reading of the bot's frames (``_ReplyConnection.data_received``) against a scripted peer
that writes exact bytes: whole text frames are handed over without websockets' parser, and everything else (frames
cut by TCP, control frames, fragments, masked or oversized frames) still gets websockets' handling, in order."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import struct
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame

from fakes.ws_frames import raw_frame
from hexarena.players.bws import _ReplyConnection

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(payload: bytes, opcode: int = 0x1, fin: bool = True, mask: bytes | None = None) -> bytes:
    """A frame as a server writes it (unmasked unless ``mask``)."""
    return raw_frame(payload, opcode, fin, mask)


@asynccontextmanager
async def scripted_peer(writes: Sequence[bytes]) -> AsyncIterator[tuple[str, list[bytes]]]:
    """A WebSocket server that accepts the handshake, then writes ``writes`` one at a time (a pause between, so
    each tends to arrive as a read of its own), records the raw bytes the client sends back and ends the
    connection once the client sends a close frame."""
    received: list[bytes] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = await reader.readuntil(b"\r\n\r\n")
        key = next(
            line.split(b":", 1)[1].strip()
            for line in request.split(b"\r\n")
            if line.lower().startswith(b"sec-websocket-key:")
        )
        accept = base64.b64encode(hashlib.sha1(key + GUID.encode()).digest())
        writer.write(
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n"
        )
        for chunk in writes:
            await asyncio.sleep(0.02)
            writer.write(chunk)
            await writer.drain()
        while data := await reader.read(65536):
            received.append(data)
            if data[0] == 0x88:  # the client's close frame: end the connection, as a server does
                break
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"ws://127.0.0.1:{port}/", received
    finally:
        server.close()


async def read_all(url: str, max_size: int = 1 << 20) -> tuple[list[bytes], list[str | bytes], int | None]:
    """Connect as the adapter does; what ``on_text`` got, what ``recv`` got, and the close code."""
    handed: list[bytes] = []
    recv: list[str | bytes] = []
    async with connect(
        url,
        create_connection=_ReplyConnection,
        max_size=max_size,
        ping_interval=None,
        compression=None,
        close_timeout=0.3,
    ) as ws:
        assert isinstance(ws, _ReplyConnection)
        ws.on_text = handed.append
        try:
            while True:
                recv.append(await asyncio.wait_for(ws.recv(), 5))
        except ConnectionClosed as exc:
            return handed, recv, exc.rcvd.code if exc.rcvd is not None else (exc.sent.code if exc.sent else None)
        except TimeoutError:
            return handed, recv, None


async def test_whole_text_frames_are_handed_over_and_a_close_frame_still_closes() -> None:
    # (that whole text frames skip websockets' parser is a matter of speed: bench/bws_frame_cost.py)
    small, medium, large = b'{"a":1}', b"m" * 300, b"L" * 70_000
    script = [frame(small) + frame(medium), frame(large), frame(b"", opcode=0x8)]
    async with scripted_peer(script) as (url, _):
        handed, recv, code = await read_all(url)
    assert handed == [small, medium, large] and recv == []
    assert code == 1005  # the close frame (no code) went to websockets' parser


async def test_frames_cut_by_tcp_and_control_frames_keep_their_order() -> None:
    first, second, third = b"first" * 40, b"second" * 30, b"third"
    whole = frame(first) + frame(b"hi", opcode=0x9) + frame(second) + frame(third)
    cuts = [1, 3, 210, 215, 240]  # mid-header, mid-extended-length, mid-payload, mid-ping, ...
    pieces = [whole[a:b] for a, b in zip([0, *cuts], [*cuts, len(whole)], strict=True)]
    async with scripted_peer([*pieces, frame(struct.pack("!H", 1000), opcode=0x8)]) as (url, received):
        handed, recv, code = await read_all(url)
    assert handed == [first, second, third] and recv == [] and code == 1000
    assert any(b[0] == 0x8A for b in received)  # the ping was answered with a pong


async def test_a_fragmented_message_still_goes_through_websockets_assembler() -> None:
    script = [
        frame(b"one"),
        frame(b"fr", fin=False) + frame(b"ag", opcode=0x0, fin=False) + frame(b"ment", opcode=0x0) + frame(b"two"),
        frame(struct.pack("!H", 1000), opcode=0x8),
    ]
    async with scripted_peer(script) as (url, _):
        handed, recv, code = await read_all(url)
    assert handed == [b"one", b"two"] and recv == ["fragment"] and code == 1000


@pytest.mark.parametrize(
    ("script", "code"),
    [
        ([frame(b"ok") + frame(b"masked", mask=b"\x01\x02\x03\x04")], 1002),  # a server must not mask
        ([frame(b"ok") + frame(b"x" * 2000)], 1009),  # over max_size
        ([frame(b"ok") + bytes([0xC1, 2]) + b"hi"], 1002),  # a reserved bit without an extension
    ],
)
async def test_frames_the_adapter_does_not_read_get_websockets_answer(script: list[bytes], code: int) -> None:
    async with scripted_peer(script) as (url, received):
        handed, _, closed = await read_all(url, max_size=1000)
    assert handed == [b"ok"] and closed == code
    assert any(b[0] == 0x88 for b in received)  # the close frame with that code went out


def test_text_frames_are_the_frames_websockets_would_send(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both ends build their text frames themselves (no OS call for every masking key, less code): byte for byte
    what websockets' serializer gives, masked (a client's) and not (a server's), in each of the three length
    forms; read back whole by websockets' parser of the other side, and found whole by ``whole_text_frame``."""
    import secrets

    from websockets.client import ClientProtocol
    from websockets.frames import Opcode
    from websockets.protocol import State
    from websockets.server import ServerProtocol
    from websockets.uri import parse_uri

    from hexarena.wire.ws_frames import text_frame, whole_text_frame

    key = b"\x01\x82\x43\xf4"
    monkeypatch.setattr(secrets, "token_bytes", lambda n: key)
    for size in (0, 125, 126, 65535, 65536, 70000):
        data = bytes(i % 251 for i in range(size))
        for masked in (True, False):
            built = text_frame(data, key if masked else None)
            assert built == Frame(Opcode.TEXT, data).serialize(mask=masked), (size, masked)
            reader = (
                ServerProtocol(state=State.OPEN, max_size=None)
                if masked
                else ClientProtocol(parse_uri("ws://bot/"), state=State.OPEN, max_size=None)
            )
            reader.receive_data(built)
            (event,) = reader.events_received()
            assert event.opcode is Opcode.TEXT and event.fin and bytes(event.data) == data, (size, masked)
            found = whole_text_frame(built + b"more", 0, masked, None)
            assert found is not None and found[1] == len(built), (size, masked)
            assert whole_text_frame(built[:-1], 0, masked, None) is None  # cut: not whole
            assert whole_text_frame(built, 0, not masked, None) is None  # the other side's masking: not taken
            assert whole_text_frame(built, 0, masked, size - 1) is None  # over the limit
