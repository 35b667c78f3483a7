"""How long the recorder's batch of moves takes to reach SQLite while the event loop is busy, by rows a statement.

Python's sqlite3 gives the GIL up around every step of a statement. An ``executemany`` of N rows is N steps, and
from aiosqlite's thread each one has to take the GIL back from the event loop: when the loop is busy (a loaded
game server) that is a wait for the loop to let go of it, a context switch each way, N times a batch. The store
now writes SQLite batches many rows to a statement (``hexarena.store.bulk_insert``); ``rows a statement 1`` is
how it wrote them before. Each run: ``--batches`` batches of ``--rows`` moves through ``Store.append_moves`` on a
temporary SQLite file, the loop idle, then kept busy by a task that burns the CPU in slices of ``--slice-ms``.

    PYTHONPATH=src .venv/bin/python bench/sqlite_busy_loop.py [--batches 5] [--rows 1000] [--slice-ms 2]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from datetime import UTC, datetime

from hexarena.store import MoveRecord, PlayerRecord, Store, bulk_insert


async def burn(stop: asyncio.Event, slice_s: float) -> None:
    """Keep the loop busy: CPU for ``slice_s``, then one pass of the loop, until stopped."""
    while not stop.is_set():
        end = time.perf_counter() + slice_s
        while time.perf_counter() < end:
            pass
        await asyncio.sleep(0)


async def one(rows_per_statement: int, batches: int, rows: int, busy: bool, slice_s: float) -> float:
    """Seconds a batch took (median), writing ``rows_per_statement`` rows a statement."""
    bulk_insert.SQLITE_ROWS_PER_STATEMENT = rows_per_statement
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp}/bench.sqlite3")
        stop = asyncio.Event()
        burner = asyncio.create_task(burn(stop, slice_s)) if busy else None
        try:
            took = []
            for b in range(batches):
                game = f"g{b}"
                await store.create_game(
                    game_id=game, game="htttx", params={}, players=[PlayerRecord("a", "bws", "")] * 2
                )
                stamp = datetime.now(UTC)
                moves = [(game, MoveRecord(i, i % 2, f"[{i},0][{i},1]", stamp, 0.001)) for i in range(rows)]
                begun = time.perf_counter()
                await store.append_moves(moves)
                took.append(time.perf_counter() - begun)
            return sorted(took)[len(took) // 2]
        finally:
            stop.set()
            if burner is not None:
                await burner
            await store.close()


async def main(batches: int, rows: int, slice_s: float) -> None:
    default = bulk_insert.SQLITE_ROWS_PER_STATEMENT
    print(f"{batches} batches of {rows} moves into SQLite, median seconds a batch:")
    print(f"{'rows a statement':>18} {'loop idle':>10} {'loop busy':>10}")
    for size in (1, default):
        idle = await one(size, batches, rows, False, slice_s)
        busy = await one(size, batches, rows, True, slice_s)
        print(f"{size:>18} {idle:>10.3f} {busy:>10.3f}")
    bulk_insert.SQLITE_ROWS_PER_STATEMENT = default


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batches", type=int, default=5)
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--slice-ms", type=float, default=2.0, help="CPU burnt between two passes of the busy loop")
    args = ap.parse_args()
    asyncio.run(main(args.batches, args.rows, args.slice_ms / 1000))
