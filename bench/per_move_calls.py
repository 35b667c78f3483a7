"""Costly calls a move makes on the hot path of a bws match, counted: what each added move costs in event-loop
lookups and in OS randomness for masking keys.

``asyncio.get_running_loop()`` and ``asyncio.current_task()`` make a ``getpid`` syscall on every call in Python
3.11, so the referee, the bws adapter and the SDK's session look them up once, not once a move. websockets asks
the OS (``secrets.token_bytes(4)``, a getrandom syscall) for the masking key of every frame a client sends, and
the adapter's move requests do the same (a pool of keys drawn in blocks was removed: a second source of keys for
too little gain). These are properties of speed, not of behaviour,
so they are measured here rather than pinned by a test: this plays matches of a few lengths in one process (the
referee, two bws adapters, the SDK's bot server with the benchmarks' instant bot, on loopback), counts the calls
made from hexarena's own modules (libraries' own lookups are theirs and depend on timing), and prints the calls
each extra move added: no loop lookups, and one masking key per frame the game server sends.

    PYTHONPATH=src .venv/bin/python bench/per_move_calls.py [--turns 4 12 24]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn

import hexarena
from hexarena.bots.sdk import make_app
from hexarena.bots.sdk.ws_protocol import ws_protocol
from hexarena.core.contract import ClockConfig
from hexarena.games.htttx import HTTTX
from hexarena.players.bws import BwsPlayer
from hexarena.referee.match import MatchConfig, Referee
from instant_bot import InstantBot

OURS = str(Path(hexarena.__file__).parent)


class Counts:
    """Calls from hexarena's modules to the loop lookups, and masking keys asked of ``secrets``."""

    def __init__(self) -> None:
        self.lookups = 0
        self.keys = 0

    def install(self) -> None:
        def counting(real: Callable[..., Any]) -> Callable[..., Any]:
            def lookup(*args: Any) -> Any:
                if sys._getframe(1).f_code.co_filename.startswith(OURS):
                    self.lookups += 1
                return real(*args)

            return lookup

        for name in ("get_running_loop", "current_task"):
            setattr(asyncio, name, counting(getattr(asyncio, name)))
        token_bytes = secrets.token_bytes

        def key(nbytes: int | None = None) -> bytes:
            self.keys += nbytes == 4
            return token_bytes(nbytes)

        secrets.token_bytes = key


async def match(url: str, turns: int) -> int:
    config = MatchConfig(game=HTTTX, params={"turn_limit": turns, "win_distance": 32}, clock=ClockConfig("turn", 30))
    result = await Referee(config, [BwsPlayer(url), BwsPlayer(url)]).run()
    return len(result.moves)


async def main(lengths: list[int]) -> None:
    config = uvicorn.Config(make_app(InstantBot), host="127.0.0.1", port=0, log_level="warning", ws=ws_protocol("auto"))
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(3000):  # up to 30 s
        if server.started or task.done():
            break
        await asyncio.sleep(0.01)
    if not server.started:
        raise SystemExit("the bot server did not start")
    url = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}/capabilities.json"
    await match(url, 4)  # warm-up: first connections, first imports
    counts = Counts()
    counts.install()
    try:
        rows = []
        for turns in lengths:
            counts.lookups = counts.keys = 0
            moves = await match(url, turns)
            rows.append((moves, counts.lookups, counts.keys))
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)
    print(f"{'moves':>6} {'loop lookups':>13} {'masking keys':>13}")
    for moves, lookups, keys in rows:
        print(f"{moves:>6} {lookups:>13} {keys:>13}")
    (m0, l0, k0), (m1, l1, k1) = rows[0], rows[-1]
    print(f"a move: {(l1 - l0) / (m1 - m0):.2f} loop lookups, {(k1 - k0) / (m1 - m0):.2f} masking keys")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[4, 12, 24])
    asyncio.run(main(parser.parse_args().turns))
