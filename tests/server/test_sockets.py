"""The shared socket loops (``server/sockets.py``) against a scripted socket: frames reach the player until the
match is over, an oversized frame closes the seat without reaching it, and a spectator that never reads is
dropped and closed instead of holding its socket and two tasks forever."""

from __future__ import annotations

import asyncio
from typing import Any

from hexarena.server import sockets
from hexarena.server.live import SPECTATOR_QUEUE, Spectator


class FakeSocket:
    """A socket whose client sends ``frames`` then stays silent (or disconnects); ``stuck`` makes every send hang
    like a client that stopped reading."""

    def __init__(self, frames: list[str | bytes], *, disconnect: bool = False, stuck: bool = False) -> None:
        self.frames = list(frames)
        self.disconnect = disconnect
        self.stuck = stuck
        self.sent: list[str] = []
        self.closed: list[int] = []

    async def receive(self) -> dict[str, Any]:
        if self.frames:
            frame = self.frames.pop(0)
            return {"type": "websocket.receive", **({"text": frame} if isinstance(frame, str) else {"bytes": frame})}
        if self.disconnect:
            return {"type": "websocket.disconnect"}
        await asyncio.Event().wait()  # silent forever
        raise AssertionError("unreachable")

    async def send_text(self, text: str) -> None:
        if self.stuck:
            await asyncio.Event().wait()
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed.append(code)


class Seat:
    def __init__(self, finish_after: int | None = None, *, refuse: bool = False) -> None:
        self.got: list[str | bytes] = []
        self.attached = 0
        self.detached = 0
        self.done = asyncio.Event()
        self.finish_after = finish_after
        self.refuse = refuse

    async def attach(self, send: Any) -> bool:
        self.attached += 1
        await send("no" if self.refuse else "hello")
        return not self.refuse

    async def handle(self, frame: str | bytes) -> None:
        self.got.append(frame)
        if self.finish_after is not None and len(self.got) >= self.finish_after:
            self.done.set()

    def detach(self, send: Any) -> None:
        self.detached += 1


async def serve(sock: FakeSocket, seat: Seat) -> None:
    await asyncio.wait_for(  # a guard against a hang, not a timing assertion
        sockets.serve_seat(sock, attach=seat.attach, handle=seat.handle, detach=seat.detach, done=seat.done),  # type: ignore[arg-type]
        10,
    )


async def test_frames_reach_the_player_until_the_match_is_over() -> None:
    sock, seat = FakeSocket(["a", b"b"]), Seat(finish_after=2)
    await serve(sock, seat)
    assert seat.got == ["a", b"b"]
    assert sock.sent == ["hello"] and (seat.attached, seat.detached) == (1, 1)
    assert sock.closed == [1000]


async def test_a_person_who_leaves_is_detached() -> None:
    sock, seat = FakeSocket(["a"], disconnect=True), Seat()
    await serve(sock, seat)
    assert seat.got == ["a"] and seat.detached == 1 and sock.closed


async def test_a_socket_the_seat_refuses_is_closed_unread_and_not_detached() -> None:
    """A second connection to a seat that is already connected: told why, closed 1008, and none of its frames
    reaches the seat; no detach either, which would start the grace period of (or forfeit) the connected one."""
    sock, seat = FakeSocket(["resign", "move"], disconnect=True), Seat(refuse=True)
    await serve(sock, seat)
    assert sock.sent == ["no"] and sock.closed == [sockets.REFUSED]
    assert seat.got == [] and (seat.attached, seat.detached) == (1, 0)
    assert sock.frames == ["resign", "move"]  # never read


async def test_an_oversized_frame_closes_the_seat_without_reaching_the_player() -> None:
    big = "x" * (sockets.MAX_FRAME + 1)
    for frame in (big, big.encode()):
        sock, seat = FakeSocket(["ok", frame, "after"]), Seat()
        await serve(sock, seat)
        assert seat.got == ["ok"]
        assert sock.closed[0] == sockets.TOO_BIG and seat.detached == 1


async def test_a_frame_at_the_limit_is_handled() -> None:
    frame = "y" * sockets.MAX_FRAME
    sock, seat = FakeSocket([frame], disconnect=True), Seat()
    await serve(sock, seat)
    assert seat.got == [frame] and sock.closed == [1000]


async def test_a_spectator_that_never_reads_is_dropped_and_closed() -> None:
    sock = FakeSocket([], stuck=True)  # never reads, never sends, never leaves
    spectator = Spectator(sock.send_text)
    task = asyncio.create_task(sockets.serve_spectator(sock, spectator, close_timeout=0.5))  # type: ignore[arg-type]
    pushed = 0
    while spectator.push({"type": "move", "n": pushed}):
        pushed += 1
        await asyncio.sleep(0) if pushed == 1 else None  # let the writer take the first one and get stuck on it
    assert pushed > SPECTATOR_QUEUE - 1
    await asyncio.wait_for(task, 10)  # before the mend this never returned
    assert sock.closed == [sockets.TOO_SLOW]


async def test_a_spectator_gets_everything_then_a_normal_close() -> None:
    sock = FakeSocket([])
    spectator = Spectator(sock.send_text)
    for n in range(3):
        spectator.push({"type": "move", "n": n})
    spectator.push(None)
    await asyncio.wait_for(sockets.serve_spectator(sock, spectator), 10)
    assert len(sock.sent) == 3 and sock.closed == [1000]
