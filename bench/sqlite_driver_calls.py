"""Calls into SQLite's driver a store transaction makes: each is a hop to aiosqlite's thread and back.

The store's SQLite engine sends a transaction's BEGIN with its first statement and skips the pool's rollback
after a COMMIT that returned, so a one-SELECT read should cost 2 calls (BEGIN with the SELECT, COMMIT), a
game's creation 4 (BEGIN IMMEDIATE with the lookup of existing ids, the INSERTs of game and players, COMMIT),
and a transaction that runs nothing 0. A speed property, so measured here, not pinned by a test.

    PYTHONPATH=src .venv/bin/python bench/sqlite_driver_calls.py
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiosqlite.core

from hexarena.store import PlayerRecord, Store, new_id
from hexarena.store.engine import one_call_cursors
from hexarena.store.records import NewGame

PLAYERS = (PlayerRecord("alice", "builtin", "random"), PlayerRecord("bob", "builtin", "random"))


async def calls(action: Callable[[], Awaitable[Any]]) -> int:
    """Driver calls ``action`` makes."""
    count = 0
    original: Any = aiosqlite.core.Connection._execute

    async def counted(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal count
        count += 1
        return await original(self, fn, *args, **kwargs)

    aiosqlite.core.Connection._execute = counted  # type: ignore[method-assign]
    try:
        await action()
    finally:
        aiosqlite.core.Connection._execute = original  # type: ignore[method-assign]
    return count


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(str(Path(tmp) / "calls.sqlite3"))
        try:
            await store.list_games(limit=1)  # warm: the pool's connection is open

            async def empty() -> None:
                async with store._engine.connect() as conn, conn.begin():
                    pass

            def create() -> Awaitable[Any]:
                return store.create_games([NewGame(game_id=new_id(), game="hex", params={}, players=PLAYERS)])

            rows = [
                ("read one page (list_games)", await calls(lambda: store.list_games(limit=1)), 2),
                ("create a game", await calls(create), 4),
                ("empty transaction", await calls(empty), 0),
            ]
        finally:
            await store.close()
    if not one_call_cursors():
        print("SQLAlchemy's own cursor serves here (see the log): the expected counts are the one-call cursor's")
    for name, got, expected in rows:
        print(f"{name:<28} {got:>3} driver calls (expected {expected})")


if __name__ == "__main__":
    asyncio.run(main())
