"""What the one-call SQLite cursor saves: CPU per stored game with it and with SQLAlchemy's own aiosqlite cursor,
side by side in one run.

The store's SQLite engine makes every statement one call into aiosqlite's thread
(:mod:`hexarena.store.sqlite_cursor`); SQLAlchemy's adapter makes three or four. That cursor builds on private
parts of SQLAlchemy and aiosqlite, so it is worth keeping only for a gain the game server feels. Each round
stores ``--games`` games as the recorder does on a server playing them together: the games created in one
batch, their moves appended every ``--flush`` turns (every game's moves of those turns in one batch), the games
finished and rated in one batch, and each game read back once (a spectator or the game page). Both cursors
play the same rounds, alternating which goes first; the figure is this process's CPU (every thread, so the
driver's too) per stored game, per move and per statement, median of the rounds.

    PYTHONPATH=src .venv/bin/python bench/sqlite_cursor_cost.py [--games 32] [--turns 100] [--flush 10] [--rounds 11] [--no-read-back]

Compare the difference a move with the game server's CPU a move (``bench/ab_throughput.py``,
``bench/server_throughput.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite.core
from sqlalchemy import event

from hexarena.store import MoveRecord, PlayerRecord, Store, migrate
from hexarena.store.engine import create_engine, resolve_url
from hexarena.store.records import GameFinish, NewGame, RatedGame

NAMES = ("ann", "ben", "cat", "dan")
T0 = datetime(2026, 11, 28, tzinfo=UTC)
MODES = {"one-call cursor": True, "SQLAlchemy's cursor": False}


async def open_store(path: Path, one_call: bool) -> Store:
    url = resolve_url(str(path))
    engine = create_engine(url, one_call=one_call)
    await migrate.upgrade(engine)
    return Store(engine, url)


@contextlib.contextmanager
def counted_calls() -> Iterator[list[int]]:
    """Calls into aiosqlite's thread, counted where every one goes through (aiosqlite's private ``_execute``;
    only for the table, in rounds that are not timed: the counting costs CPU itself)."""
    count = [0]
    original: Any = aiosqlite.core.Connection._execute

    async def counted(connection: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return await original(connection, fn, *args, **kwargs)

    aiosqlite.core.Connection._execute = counted  # type: ignore[method-assign]
    try:
        yield count
    finally:
        aiosqlite.core.Connection._execute = original  # type: ignore[method-assign]


async def one_round(
    path: Path, one_call: bool, games: int, turns: int, flush: int, read_back: bool
) -> tuple[float, int]:
    """CPU seconds and statements to store ``games`` games of ``turns`` moves (see the module docstring)."""
    store = await open_store(path, one_call)
    statements = [0]

    def count(*_: Any) -> None:
        statements[0] += 1

    try:
        await store.list_games(limit=1)  # the pool's first connection is open, as on a running server
        event.listen(store._engine.sync_engine, "before_cursor_execute", count)
        begun = time.process_time()
        await store_games(store, games, turns, flush, read_back)
        return time.process_time() - begun, statements[0]
    finally:
        await store.close()


async def store_games(store: Store, games: int, turns: int, flush: int, read_back: bool) -> None:
    ids = [uuid.uuid4().hex for _ in range(games)]
    seats = [(NAMES[i % 4], NAMES[(i + 1) % 4]) for i in range(games)]
    new = [
        NewGame(game_id=gid, game="htttx", params={}, players=tuple(PlayerRecord(n, "bws", "") for n in names))
        for gid, names in zip(ids, seats, strict=True)
    ]
    await store.create_games(new)
    for start in range(0, turns, flush):
        batch = [
            (gid, MoveRecord(ply, ply % 2, f"m{ply}", T0 + timedelta(seconds=ply), 0.001))
            for ply in range(start, min(turns, start + flush))
            for gid in ids
        ]
        await store.append_moves(batch)
    ends = [
        GameFinish(gid, i % 2, "normal", "six in a row", rate=RatedGame("htttx", names))
        for i, (gid, names) in enumerate(zip(ids, seats, strict=True))
    ]
    assert all(await store.finish_games(ends))
    for gid in ids if read_back else ():
        game = await store.get_game(gid)
        assert game is not None and len(game.moves) == turns


async def driver_calls(path: Path, one_call: bool, games: int, turns: int, flush: int, read_back: bool) -> int:
    """Calls into the driver's thread for one round (not timed)."""
    store = await open_store(path, one_call)
    try:
        await store.list_games(limit=1)
        with counted_calls() as count:
            await store_games(store, games, turns, flush, read_back)
        return count[0]
    finally:
        await store.close()


async def main(games: int, turns: int, flush: int, rounds: int, read_back: bool) -> None:
    cpu: dict[str, list[float]] = {mode: [] for mode in MODES}
    statements: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(rounds):
            for mode in list(MODES) if i % 2 == 0 else list(MODES)[::-1]:
                path = Path(tmp) / f"{i}-{MODES[mode]}.sqlite3"
                seconds, statements[mode] = await one_round(path, MODES[mode], games, turns, flush, read_back)
                cpu[mode].append(seconds)
        calls = {
            mode: await driver_calls(Path(tmp) / f"calls-{on}.sqlite3", on, games, turns, flush, read_back)
            for mode, on in MODES.items()
        }
    print(
        f"{games} games of {turns} moves stored (created together, moves every {flush} turns, finished and rated "
        f"together{', each read back' if read_back else ''}), median of {rounds} rounds a cursor:"
    )
    print(f"{'':<22}{'a game':>10}{'a move':>10}{'a statement':>14}{'statements':>12}{'driver calls':>14}")
    medians = {mode: statistics.median(cpu[mode]) for mode in MODES}
    for mode in MODES:
        seconds = medians[mode]
        print(
            f"{mode:<22}{seconds / games * 1e6:>7,.0f} us{seconds / (games * turns) * 1e6:>7,.1f} us"
            f"{seconds / statements[mode] * 1e6:>11,.0f} us{statements[mode]:>12}{calls[mode]:>14}"
        )
    one, stock = medians["one-call cursor"], medians["SQLAlchemy's cursor"]
    ratios = sorted(s / o for o, s in zip(cpu["one-call cursor"], cpu["SQLAlchemy's cursor"], strict=True))
    print(
        f"the one-call cursor saves {(stock - one) / games * 1e6:,.0f} us a game, {(stock - one) / (games * turns) * 1e6:.1f}"
        f" us a move (SQLAlchemy's cursor costs {stock / one:.2f}x, rounds {ratios[0]:.2f}-{ratios[-1]:.2f}x)"
    )
    print(f"cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=32, help="games stored together (a server's concurrent games)")
    ap.add_argument("--turns", type=int, default=100, help="moves a game")
    ap.add_argument("--flush", type=int, default=10, help="turns of every game a batch of moves holds")
    ap.add_argument("--rounds", type=int, default=11, help="rounds a cursor, alternating which goes first")
    ap.add_argument("--no-read-back", action="store_true", help="store the games only, as a server nobody watches")
    a = ap.parse_args()
    if min(a.games, a.turns, a.flush, a.rounds) < 1 or a.games > 10_000 or a.turns > 10_000:
        ap.error("--games, --turns, --flush and --rounds must be at least 1 (games and turns at most 10,000)")
    sys.exit(asyncio.run(main(a.games, a.turns, a.flush, a.rounds, not a.no_read_back)))
