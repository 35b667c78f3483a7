"""Store throughput: the moves per second the recorder writes, and what writing moves as played costs the server.

Two measurements, SQLite and PostgreSQL side by side:

1. **Absorption**: ``--games`` concurrent games each queue ``--moves`` moves into one
   :class:`hexarena.store.recorder.Recorder` as fast as the event loop lets them; the figure is moves written per
   second, from the first move queued until the database took the last one (batched: every queued move of every
   game goes in one transaction per flush).
2. **Cost in the game server**: ``bench/server_throughput.py``'s waves (32 concurrent HTTTX games of instant bots
   over loopback WebSockets, each move written as played) against the same with move writes off
   (``HEXARENA_RECORD_MOVES=0``: results only). The issue's bound: at most 15 % fewer moves/s with writes on.

    PYTHONPATH=src .venv/bin/python bench/store_throughput.py [--games 32] [--moves 2000] [--pg URL]

PostgreSQL runs on a fresh database created for the run (and dropped after) on the server of ``--pg`` (default
``$HEXARENA_TEST_DATABASE_URL`` or ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``); without one it is
skipped with a note.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import server_throughput
from hexarena.store import MoveRecord, PlayerRecord, Store
from hexarena.store.recorder import NewGame, Recorder

PG_DEFAULT = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


@contextlib.asynccontextmanager
async def fresh_postgres(base: str) -> AsyncIterator[str | None]:
    """A new database on ``base``'s server for this run (dropped afterwards); None when it can't be reached."""
    import asyncpg
    from sqlalchemy.engine import make_url

    url = make_url(base)
    name = f"hexarena_bench_{uuid.uuid4().hex[:8]}"
    kw = {"host": url.host or "127.0.0.1", "port": url.port or 5432, "user": url.username or "postgres"}
    try:
        admin = await asyncpg.connect(database=url.database or "postgres", **kw)
    except (OSError, asyncpg.PostgresError) as exc:
        print(f"PostgreSQL at {url.render_as_string(hide_password=True)} is not reachable ({exc}): skipped")
        yield None
        return
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        yield url.set(drivername="postgresql+asyncpg", database=name).render_as_string(hide_password=False)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def absorb(url: str, games: int, moves: int) -> float:
    """Moves per second the recorder writes for ``games`` concurrent games of ``moves`` moves each."""
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(url)
        recorder = Recorder(store, Path(tmp))
        await recorder.start()
        ids = [uuid.uuid4().hex for _ in range(games)]
        players = (PlayerRecord("a", "builtin", ""), PlayerRecord("b", "builtin", ""))
        for gid in ids:
            await recorder.open_game(NewGame(game_id=gid, game="htttx", params={}, players=players))
        stamp = datetime.now(UTC)

        async def game(gid: str) -> None:
            for ply in range(moves):
                recorder.move(gid, MoveRecord(ply, ply % 2, f"[{ply},0]", stamp, 0.001))
                await asyncio.sleep(0)  # one move per game per loop turn: games interleave as in the server

        begun = time.perf_counter()
        await asyncio.gather(*(game(g) for g in ids))
        await recorder.flush(600)
        elapsed = time.perf_counter() - begun
        stored = 0
        for g in ids:
            stored += len(await store.get_moves(g))
        await recorder.close()
        await store.close()
    assert stored == games * moves, f"{stored} of {games * moves} moves stored"
    return games * moves / elapsed


async def main(games: int, moves: int, pg: str, waves: int, turns: int) -> None:
    print(f"1. recorder absorption: {games} concurrent games x {moves} moves, batched writes")
    with tempfile.TemporaryDirectory() as tmp:
        sqlite_rate = await absorb(f"sqlite+aiosqlite:///{tmp}/bench.sqlite3", games, moves)
    print(f"   SQLite      {sqlite_rate:>10,.0f} moves/s")
    async with fresh_postgres(pg) as url:
        if url is not None:
            print(f"   PostgreSQL  {await absorb(url, games, moves):>10,.0f} moves/s")

    print(f"2. game server: {games} concurrent HTTTX games x {turns} turns x {waves} waves, instant bots")
    rows = []
    for label, database in (("SQLite", None), ("PostgreSQL", "pg")):
        for writes in (False, True):
            os.environ["HEXARENA_RECORD_MOVES"] = "1" if writes else "0"
            if database == "pg":
                async with fresh_postgres(pg) as url:
                    if url is None:
                        continue
                    f = await server_throughput.measure(games, waves, turns, "instant", "auto", url, quiet=True)
            else:
                f = await server_throughput.measure(games, waves, turns, "instant", "auto", None, quiet=True)
            rows.append((label, writes, f))
    os.environ.pop("HEXARENA_RECORD_MOVES", None)
    print(f"   {'store':<11} {'move writes':<12} {'moves/s':>9} {'server us/move':>15} {'abnormal':>9}")
    base: dict[str, float] = {}
    for label, writes, f in rows:
        if not writes:
            base[label] = f["moves_per_s"]
        change = "" if not writes else f"  ({f['moves_per_s'] / base[label] - 1:+.0%} vs results only)"
        print(
            f"   {label:<11} {'each move' if writes else 'results only':<12} {f['moves_per_s']:>9,.0f} "
            f"{f['game_us_per_move']:>15,.0f} {int(f['bad']):>9}{change}"
        )
    print(f"   cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=32)
    ap.add_argument("--moves", type=int, default=2000, help="moves per game in the absorption test")
    ap.add_argument("--waves", type=int, default=3)
    ap.add_argument("--turns", type=int, default=100)
    ap.add_argument("--pg", default=os.environ.get("HEXARENA_TEST_DATABASE_URL", PG_DEFAULT))
    args = ap.parse_args()
    asyncio.run(main(args.games, args.moves, args.pg, args.waves, args.turns))
