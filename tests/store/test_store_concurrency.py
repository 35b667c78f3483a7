"""Many games at once: nothing lost, nothing finished twice, on one store or on two sharing the database."""

from __future__ import annotations

import asyncio

import pytest
from store_helpers import move, players

from hexarena.store import Conflict, MoveRecord, Store, new_id

GAMES = 50
PLIES = 8


async def _play(store: Store, gid: str, n: int) -> bool:
    await store.create_game(game_id=gid, game="hex", params={"n": n}, players=players(f"p{n}", f"q{n}"))
    for ply in range(PLIES):
        await store.append_move(gid, move(ply, f"g{n}m{ply}", evaluation={"n": n, "ply": ply}))
    return await store.finish_game(gid, winner=n % 2, termination="normal", reason=f"game {n}")


async def _check(store: Store, ids: list[str], total: int | None = None) -> None:
    assert await store.count_games(status="finished") == (len(ids) if total is None else total)
    for n, gid in enumerate(ids):
        rec = await store.get_game(gid)
        assert rec is not None, gid
        assert (rec.status, rec.winner, rec.reason, rec.params) == ("finished", n % 2, f"game {n}", {"n": n})
        assert [m.move for m in rec.moves] == [f"g{n}m{p}" for p in range(PLIES)]
        assert [m.evaluation for m in rec.moves] == [{"n": n, "ply": p} for p in range(PLIES)]


async def test_fifty_games_play_and_finish_at_once(store: Store) -> None:
    ids = [new_id() for _ in range(GAMES)]
    results = await asyncio.gather(*(_play(store, gid, n) for n, gid in enumerate(ids)))
    assert results == [True] * GAMES
    await _check(store, ids)


async def test_fifty_finishes_with_full_move_lists_at_once(store: Store) -> None:
    ids = [new_id() for _ in range(GAMES)]
    for n, gid in enumerate(ids):
        await store.create_game(game_id=gid, game="hex", params={"n": n}, players=players())
    final = {
        gid: [move(p, f"g{n}m{p}", evaluation={"n": n, "ply": p}) for p in range(PLIES)] for n, gid in enumerate(ids)
    }
    done = await asyncio.gather(
        *(
            store.finish_game(gid, winner=n % 2, termination="normal", reason=f"game {n}", moves=final[gid])
            for n, gid in enumerate(ids)
        )
    )
    assert all(done)
    await _check(store, ids)


async def test_racing_finishes_of_one_game_have_one_winner(store: Store) -> None:
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={}, players=players())
    await store.append_move(gid, move(0))
    outcomes = await asyncio.gather(
        *(store.finish_game(gid, winner=k % 2, termination="normal", reason=f"call {k}") for k in range(12))
    )
    assert outcomes.count(True) == 1
    winner_call = outcomes.index(True)
    rec = await store.get_game(gid)
    assert rec is not None and rec.reason == f"call {winner_call}" and rec.winner == winner_call % 2


async def test_two_stores_on_one_database_lose_nothing(database_url: str) -> None:
    """Two stores stand in for two server processes writing to the same file or server."""
    a = await Store.open(database_url)
    b = await Store.open(database_url)
    try:
        ids = [new_id() for _ in range(2 * 20)]
        jobs = [_play(a if n % 2 else b, gid, n) for n, gid in enumerate(ids)]
        assert all(await asyncio.gather(*jobs))
        await _check(a, ids)
    finally:
        await a.close()
        await b.close()


@pytest.mark.parametrize("round_", range(4))
async def test_appends_racing_a_finish_never_half_write(store: Store, round_: int) -> None:
    """Late appends racing a finish-with-moves land before it (and are replaced) or are refused.

    On PostgreSQL this once deadlocked (two appenders upgrading a share lock), hence several rounds.
    """
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={}, players=players())
    final = [move(p, f"f{p}") for p in range(3)]
    late = [MoveRecord(p, p % 2, f"late{p}", final[-1].timestamp, 0.1) for p in range(3, 15)]
    split = 2 * round_
    results = await asyncio.gather(
        *(store.append_move(gid, m) for m in late[:split]),
        store.finish_game(gid, winner=0, termination="normal", reason="", moves=final),
        *(store.append_move(gid, m) for m in late[split:]),
        return_exceptions=True,
    )
    assert results[split] is True
    for r in results[:split] + results[split + 1 :]:
        assert r is None or (isinstance(r, Conflict) and "finished" in str(r)), r
    rec = await store.get_game(gid)
    assert rec is not None and rec.moves == tuple(final)


_WRITER = """
import asyncio, sys
from datetime import UTC, datetime
from hexarena.store import MoveRecord, PlayerRecord, Store

async def main(url, prefix, n):
    s = await Store.open(url)
    print("ready", flush=True)
    await asyncio.sleep(0.05)
    async def one(k):
        gid = f"{prefix}{k:04d}"
        await s.create_game(game_id=gid, game="hex", params={}, players=[PlayerRecord("a", "builtin")])
        for ply in range(4):
            await s.append_move(gid, MoveRecord(ply, 0, f"m{ply}", datetime.now(UTC), 0.0))
        await s.finish_game(gid, winner=0, termination="normal", reason=prefix)
    await asyncio.gather(*(one(k) for k in range(n)))
    await s.close()

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
"""


async def test_two_processes_writing_at_once_lose_nothing(database_url: str) -> None:
    """A real second process: on SQLite this needs BEGIN IMMEDIATE and the busy timeout to hold."""
    import os
    import sys
    from pathlib import Path

    src = str(Path(__file__).resolve().parents[2] / "src")
    store = await Store.open(database_url)  # schema first, so the two writers only race on data
    try:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            _WRITER,
            database_url,
            "child",
            "25",
            env={**os.environ, "PYTHONPATH": src},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        assert proc.stdout is not None
        ready = await asyncio.wait_for(proc.stdout.readline(), timeout=120)
        assert ready == b"ready\n"  # start together, so the two processes really contend
        mine = [new_id() for _ in range(25)]
        assert all(await asyncio.gather(*(_play(store, gid, n) for n, gid in enumerate(mine))))
        _, err = await asyncio.wait_for(proc.communicate(), timeout=120)
        assert proc.returncode == 0, err.decode()[-2000:]
        await _check(store, mine, total=50)
        theirs = await store.list_games(player="a", limit=100)
        assert len(theirs) == 25 and all(g.move_count == 4 and g.reason == "child" for g in theirs)
    finally:
        await store.close()
