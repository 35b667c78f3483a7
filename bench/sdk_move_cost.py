"""The SDK's own CPU per move at 100 and at 1,000 stones, in one process: no sockets, no server, no kernel.

``bench/move_cost_by_stones.py`` measures the bot server as a process (uvicorn, WebSocket frames, the kernel's
loopback, and how bunched the moves arrive all count). This drives one SDK session (``BwsSession``, what the
SDK's bot server runs per connection) through an in-memory transport with the very packets our game server
writes (``BoardJson`` and ``move_request_json``: the whole board in every request, as the HTTTX bot API asks),
and times only the session: reading a request, bringing its board up to date, asking the bot (O(1): the next
cells of a spiral, ``bench/instant_bot.py``) and writing the answer. What grows with the board here is the
SDK's doing.

    PYTHONPATH=src .venv/bin/python bench/sdk_move_cost.py [--turns 520] [--window 20] [--repeat 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from hexarena.games.htttx import HTTTX
from hexarena.players.htttx_common import BoardJson, move_request_json
from hexarena.wire import htttx as w
from hexarena_sdk.connection import BwsSession
from instant_bot import InstantBot

#: (label, centre turn): ~100 stones and ~1,000 stones (X's origin stone plus two a turn)
DEPTHS = (("100 stones", 50), ("1,000 stones", 500))


class MemoryTransport:
    """The session's socket: requests handed over one at a time, each answer read back as soon as sent."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.outbox: asyncio.Queue[str] = asyncio.Queue()

    async def receive(self) -> str | None:
        return await self.inbox.get()

    async def send(self, text: str) -> None:
        self.outbox.put_nowait(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.inbox.put_nowait(None)


async def one_game(turns: int, window: int) -> list[float]:
    """One game of ``turns`` turns through one session; microseconds of CPU per move around each depth."""
    transport = MemoryTransport()
    session = BwsSession(transport, InstantBot(), InstantBot.capabilities())
    runner = asyncio.create_task(session.run())
    board = BoardJson(HTTTX.new(win_distance=32))  # as bench/server_throughput.py: no early wins
    history: list[tuple[int, Any]] = []
    transport.inbox.put_nowait('{"type":"config","x-win_distance":32}')  # what our game server tells the bot
    transport.inbox.put_nowait(w.encode(w.Setup(board=w.Board(cells=[w.Cell(q=0, r=0, p="x")]))).decode())
    cpu: list[float] = []
    previous: list[w.Move] = []
    for turn in range(turns):
        seat = 1 - turn % 2  # O moves first after X's origin stone
        cpu.append(time.process_time())
        # as the game server writes it: the text frame the bot server's ASGI layer hands over is a str
        packet = move_request_json(w.side_of(seat), previous, board.parts(history), None).decode()
        transport.inbox.put_nowait(packet)
        reply = w.decode_bot_packet((await transport.outbox.get()).encode())
        assert isinstance(reply, w.MoveResponse)
        move = tuple((p.q, p.r) for p in reply.move.pieces)
        history.append((seat, move))
        previous = [w.Move(side=w.side_of(seat), pieces=[w.Coord(q=q, r=r) for q, r in move])]
    cpu.append(time.process_time())
    transport.inbox.put_nowait(None)
    await runner
    return [(cpu[centre + window] - cpu[centre - window]) / (2 * window) * 1e6 for _, centre in DEPTHS]


async def main(turns: int, window: int, repeat: int) -> None:
    runs = [await one_game(turns, window) for _ in range(repeat)]
    print(f"SDK session CPU per move (the benchmark's own packet building included), median of {repeat}:")
    figures = [statistics.median(run[i] for run in runs) for i in range(len(DEPTHS))]
    for (label, _), us in zip(DEPTHS, figures, strict=True):
        print(f"{label:>14} {us:>8.1f} us")
    print(f"{'ratio':>14} {figures[1] / figures[0]:>9.2f}x")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=520)
    ap.add_argument("--window", type=int, default=20, help="turns either side of 50 and 500 to measure over")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    asyncio.run(main(args.turns, args.window, args.repeat))
