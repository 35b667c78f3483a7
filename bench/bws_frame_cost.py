"""CPU to take in one bot reply frame on the game server: websockets' parser against the bws adapter's own reading.

A bws bot answers each move request with one small TEXT frame. ``_ReplyConnection.data_received``
(``hexarena.players.bws``) reads such whole frames itself and hands the payload to the adapter; anything else
goes to websockets' generator-based parser, as every frame did before. This feeds the same reply frame, as one
read from the socket, to a connection of each kind (one process, no socket, a transport that drops writes) and
prints the CPU a frame side by side, in alternating rounds.

    PYTHONPATH=src .venv/bin/python bench/bws_frame_cost.py [--frames 100000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.client import ClientProtocol
from websockets.protocol import State
from websockets.uri import parse_uri

from hexarena.players.bws import FRAME_LIMIT, _ReplyConnection
from machine_speed import reference_us

REPLY = b'{"type":"move_response","move":{"pieces":[{"q":12,"r":-3},{"q":13,"r":-3}]}}'
FRAME = bytes([0x81, len(REPLY)]) + REPLY  # FIN + TEXT, unmasked (a server's frame), 7-bit length


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=100_000, help="frames a round")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of each, alternating")
    args = ap.parse_args()
    figures: dict[str, list[float]] = {"websockets' parser": [], "adapter's reading": []}
    for i in range(args.rounds):
        order = [("websockets' parser", _WebsocketsParsed), ("adapter's reading", _ReplyConnection)]
        for label, cls in order if i % 2 == 0 else order[::-1]:
            figures[label].append(asyncio.run(per_frame(cls, args.frames)))
    print(f"CPU to take in one {len(FRAME)}-byte reply frame, median of {args.rounds} rounds of {args.frames:,}:")
    for label, values in figures.items():
        print(f"  {label:>20}: {statistics.median(values):6.2f} us  ({min(values):.2f}-{max(values):.2f})")
    print(f"machine reference: {reference_us():.0f} us a unit (bench/machine_speed.py)")


if __name__ == "__main__":
    main()
