"""What the one-call SQLite cursor saves: CPU per stored game with it and with SQLAlchemy's own aiosqlite cursor,
side by side in one run.

The store's SQLite engine makes every statement one call into aiosqlite's thread
(:mod:`hexarena.store.sqlite_cursor`); SQLAlchemy's adapter makes three or four. That cursor builds on private
parts of SQLAlchemy and aiosqlite, so it is worth keeping only for a gain the game server feels. Each round
stores ``--games`` games as the recorder does on a server playing them together: the games created in one
batch, their moves appended every ``--flush`` turns (every game's moves of those turns in one batch), the games
finished and rated in one batch; then each game is read back once (``Store.get_game``: the game page, a
spectator's replay), timed apart. Both cursors play the same rounds, alternating which goes first; the figures
are this process's CPU (every thread, so the driver's too) per stored game and move, and per read, medians of
the rounds, with the statements and the calls into the driver's thread each phase makes.

    PYTHONPATH=src .venv/bin/python bench/sqlite_cursor_cost.py [--games 32] [--turns 100] [--flush 10] [--rounds 11]

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


class Phase:
    """One phase of a round for one cursor: CPU seconds of every round, statements and driver calls of one."""

    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.statements = 0
        self.calls = 0


async def one_round(path: Path, one_call: bool, games: int, turns: int, flush: int, count_calls: bool) -> list[Any]:
    """(CPU seconds, statements, driver calls) of storing ``games`` games of ``turns`` moves and of reading each
    back once (see the module docstring); driver calls are counted only when ``count_calls`` (0 otherwise)."""
    store = await open_store(path, one_call)
    statements = [0]

    def count(*_: Any) -> None:
        statements[0] += 1

    try:
        await store.list_games(limit=1)  # the pool's first connection is open, as on a running server
        event.listen(store._engine.sync_engine, "before_cursor_execute", count)
        out = []
        ids: list[str] = []
        for phase in (store_games, read_games):
            statements[0] = 0
            with counted_calls() if count_calls else contextlib.nullcontext([0]) as calls:
                begun = time.process_time()
                await phase(store, ids, games, turns, flush)
                out.append((time.process_time() - begun, statements[0], calls[0]))
        return out
    finally:
        await store.close()


async def store_games(store: Store, ids: list[str], games: int, turns: int, flush: int) -> None:
    ids[:] = [uuid.uuid4().hex for _ in range(games)]
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


async def read_games(store: Store, ids: list[str], games: int, turns: int, flush: int) -> None:
    for gid in ids:
        game = await store.get_game(gid)
        assert game is not None and len(game.moves) == turns


async def main(games: int, turns: int, flush: int, rounds: int) -> None:
    phases: dict[str, list[Phase]] = {mode: [Phase(), Phase()] for mode in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(rounds + 1):  # the last round, untimed, counts the calls into the driver's thread
            for mode in list(MODES) if i % 2 == 0 else list(MODES)[::-1]:
                path = Path(tmp) / f"{i}-{MODES[mode]}.sqlite3"
                measured = await one_round(path, MODES[mode], games, turns, flush, count_calls=i == rounds)
                for phase, (seconds, statements, calls) in zip(phases[mode], measured, strict=True):
                    if i == rounds:
                        phase.calls = calls
                    else:
                        phase.cpu.append(seconds)
                        phase.statements = statements
    one, stock = "one-call cursor", "SQLAlchemy's cursor"
    print(f"CPU (this process, every thread), median of {rounds} rounds a cursor, alternating:")
    print(
        f"storing {games} games of {turns} moves (created together, moves every {flush} turns, finished and rated "
        "together):"
    )
    print(f"  {'':<22}{'a game':>10}{'a move':>10}{'statements':>12}{'driver calls':>14}")
    for mode in MODES:
        phase = phases[mode][0]
        seconds = statistics.median(phase.cpu)
        print(
            f"  {mode:<22}{seconds / games * 1e6:>7,.0f} us{seconds / (games * turns) * 1e6:>7,.1f} us"
            f"{phase.statements:>12}{phase.calls:>14}"
        )
    print(f"  the one-call cursor saves {saving(phases[one][0], phases[stock][0], games * turns, 'a move')}")
    print(f"reading each game back (Store.get_game, {turns} moves):")
    print(f"  {'':<22}{'a read':>10}{'statements':>12}{'driver calls':>14}")
    for mode in MODES:
        phase = phases[mode][1]
        print(
            f"  {mode:<22}{statistics.median(phase.cpu) / games * 1e6:>7,.0f} us{phase.statements:>12}{phase.calls:>14}"
        )
    print(f"  the one-call cursor saves {saving(phases[one][1], phases[stock][1], games, 'a read')}")
    print(f"cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}")


def saving(one: Phase, stock: Phase, units: int, unit: str) -> str:
    """The median saving a unit, with the medians' ratio and the rounds' range of ratios."""
    ratios = sorted(s / o for o, s in zip(one.cpu, stock.cpu, strict=True))
    a, b = statistics.median(one.cpu), statistics.median(stock.cpu)
    return (
        f"{(b - a) / units * 1e6:,.1f} us {unit} (SQLAlchemy's cursor costs {b / a:.2f}x; rounds "
        f"{ratios[0]:.2f}-{ratios[-1]:.2f}x)"
    )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=32, help="games stored together (a server's concurrent games)")
    ap.add_argument("--turns", type=int, default=100, help="moves a game")
    ap.add_argument("--flush", type=int, default=10, help="turns of every game a batch of moves holds")
    ap.add_argument("--rounds", type=int, default=11, help="rounds a cursor, alternating which goes first")
    a = ap.parse_args()
    if min(a.games, a.turns, a.flush, a.rounds) < 1 or a.games > 10_000 or a.turns > 10_000:
        ap.error("--games, --turns, --flush and --rounds must be at least 1 (games and turns at most 10,000)")
    sys.exit(asyncio.run(main(a.games, a.turns, a.flush, a.rounds)))
